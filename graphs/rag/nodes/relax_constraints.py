"""relax_constraints: widen or drop the lowest-priority constraint."""

from __future__ import annotations

from collections.abc import Sequence

from langgraph.runtime import Runtime

from graphs.domain import Constraint, EntityType, Relaxation
from graphs.rag.context import RagContext
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate


def lowest_priority(constraints: Sequence[Constraint], priority: Sequence[EntityType]) -> int:
    """Index of the constraint to relax: lowest type priority, the last one among equals."""
    rank = {t: i for i, t in enumerate(priority)}
    worst = max(rank.get(c.type, len(rank)) for c in constraints)
    return max(i for i, c in enumerate(constraints) if rank.get(c.type, len(rank)) == worst)


def relax(
    constraints: Sequence[Constraint], priority: Sequence[EntityType]
) -> tuple[list[Constraint], Relaxation]:
    """Widen the lowest-priority constraint along its hierarchy if it has one, else drop it."""
    i = lowest_priority(constraints, priority)
    c = constraints[i]
    rest = [*constraints[:i], *constraints[i + 1 :]]
    if c.negated:
        return rest, Relaxation(type=c.type, value=c.value, action="dropped", reason=f"lowest priority ({c.type}); exclusions go first")
    if c.date_range is not None and (wider := c.date_range.widen()) is not None:
        new = c.model_copy(update={"value": wider.label, "date_range": wider})
        return [*constraints[:i], new, *constraints[i + 1 :]], Relaxation(
            type=c.type, value=c.value, action="widened", new_value=wider.label,
            reason=f"lowest priority ({c.type}): widened {c.value} to the whole year {wider.label}",
        )
    if c.ancestors:
        parent = c.ancestors[-1]
        new = c.model_copy(update={"value": parent, "ancestors": c.ancestors[:-1]})
        return [*constraints[:i], new, *constraints[i + 1 :]], Relaxation(
            type=c.type, value=c.value, action="widened", new_value=parent,
            reason=f"lowest priority ({c.type}): widened {c.value} to {parent} along its hierarchy",
        )
    return rest, Relaxation(type=c.type, value=c.value, action="dropped", reason=f"lowest priority ({c.type}) among {len(constraints)} constraint(s)")


SPEC = NodeSpec(purpose="drop or widen the lowest-priority constraint")


async def relax_constraints(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Relax one constraint and record why."""
    kept, record = relax(state["constraints"], runtime.context.limits.priority)
    return {"constraints": kept, "relaxed": [record], "relaxations": 1, "hits": []}


def summarize(update: RagUpdate) -> str:
    """Describe the relaxation."""
    r: Relaxation = update["relaxed"][-1]
    return f"{r.action} {r.type}={r.value}" + (f" → {r.new_value}" if r.new_value else "") + f"; {len(update['constraints'])} left"
