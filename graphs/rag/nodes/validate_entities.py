"""validate_entities: normalize entities to standard names and derive search constraints."""

from __future__ import annotations

import asyncio

from langgraph.runtime import Runtime

from graphs.domain import Constraint, EntityMatch, ParsedQuery, QueryEntity, ValidatedEntity
from graphs.rag.context import RagContext
from graphs.rag.question import validate_one
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.base import EntityStore


def _negated_texts(parsed: ParsedQuery) -> set[str]:
    return {t for r in parsed.logical_relations if r.operator == "NOT" for t in r.entities}


def to_constraints(entities: list[ValidatedEntity]) -> list[Constraint]:
    """One constraint per distinct valid entity."""
    out: dict[tuple[str, str], Constraint] = {}
    for e in entities:
        if not e.valid or e.standard_name is None:
            continue
        out.setdefault(
            (e.type, e.standard_name),
            Constraint(type=e.type, value=e.standard_name, date_range=e.date_range, ancestors=e.hierarchy,
                       negated=e.negated),
        )
    return list(out.values())


def _lookup_all(store: EntityStore, entities: list[QueryEntity]) -> list[EntityMatch | None]:
    return [None if e.type == "DATE" else store.lookup(e.text) for e in entities]


SPEC = NodeSpec(purpose="normalize the entities against the entity store")


async def validate_entities(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Match every parsed entity in the entity store; unknown ones stay free-text keywords."""
    parsed = state["parsed"]
    matches = await asyncio.to_thread(_lookup_all, runtime.context.entities, parsed.entities)
    negated = _negated_texts(parsed)
    validated = [validate_one(e, m, e.text in negated) for e, m in zip(parsed.entities, matches, strict=True)]
    return {"entities": validated, "constraints": to_constraints(validated)}


def summarize(update: RagUpdate) -> str:
    """Describe the normalization."""
    parts = [
        f"{e.text}→{e.standard_name} ({e.match} {e.score:.2f})" if e.valid else f"{e.text}: unknown"
        for e in update["entities"]
    ]
    return "; ".join(parts) or "no entities to validate"
