"""Wrap nodes so every run records workflow steps (node, start, duration, summary)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.domain import WorkflowStep
from graphs.rag.context import RagContext
from graphs.rag.state import RagState, RagUpdate

Node = Callable[[RagState, Runtime[RagContext]], Awaitable[RagUpdate | Command[Any]]]


def timed(
    name: str,
    node: Node,
    summarize: Callable[[RagUpdate], str],
    *,
    last: bool = False,
    default_context: RagContext | None = None,
) -> Node:
    """Return ``node`` recording a WorkflowStep; the last node also records the total duration.

    ``default_context`` serves runs started without a context (LangGraph Studio's runs).
    """

    async def step(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate | Command[Any]:
        if runtime.context is None and default_context is not None:
            runtime = runtime.override(context=default_context)
        started = datetime.now(UTC)
        t0 = time.perf_counter()
        result = await node(state, runtime)
        elapsed = (time.perf_counter() - t0) * 1000
        update: RagUpdate = result.update if isinstance(result, Command) else result  # type: ignore[assignment]
        out: RagUpdate = {**update, "steps": [WorkflowStep(node=name, started=started.isoformat(),
                                                           duration_ms=round(elapsed, 3),
                                                           summary=summarize(update),
                                                           llm_calls=int(update.get("llm_calls", 0) or 0))]}
        if last:
            steps = state.get("steps", [])
            first = datetime.fromisoformat(steps[0].started) if steps else started
            out["total_duration_ms"] = round((datetime.now(UTC) - first).total_seconds() * 1000, 3)
        return Command(update=out, goto=result.goto) if isinstance(result, Command) else out

    step.__name__ = name
    step.__doc__ = node.__doc__
    return step
