"""The answer as a run returns it: write_answer, then check_answer on what it wrote (as the graph wires them)."""

from __future__ import annotations

from typing import Any

from graphs.rag.nodes.check_answer import check_answer
from graphs.rag.nodes.write_answer import write_answer


async def write_and_check(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
    """The two nodes' updates merged, the second over the first (the hand-over between them left out)."""
    written = await write_answer(state, runtime)  # type: ignore[arg-type]
    checked = await check_answer({**state, **written}, runtime)  # type: ignore[arg-type]
    merged = {**written, **checked}
    return {k: v for k, v in merged.items() if k not in ("draft", "answer_check")}
