"""A node module written the way a new node is: its function, ``summarize`` and ``SPEC`` (the registry's tests
add it to the graph and check that the service derives what it should)."""

from __future__ import annotations

import types
from typing import Any

from langgraph.runtime import Runtime

from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState


def check_answer_module() -> types.ModuleType:
    """A node module as a new node would be written (i24-answer's ``check_answer`` after ``write_answer``)."""
    module = types.ModuleType("graphs.rag.nodes.check_answer")

    async def check_answer(state: RagState, runtime: Runtime[Any]) -> dict[str, Any]:
        return {"degraded": ["check_answer"], "llm_calls": 1}

    module.check_answer = check_answer  # type: ignore[attr-defined]
    module.summarize = lambda update: f"checked ({len(update['degraded'])} degraded)"  # type: ignore[attr-defined]
    module.SPEC = NodeSpec(purpose="check the answer against its evidence", uses_llm=True)  # type: ignore[attr-defined]
    return module
