"""search_structured: the filter built from the constraints, the search record, the question's vector reused."""

from __future__ import annotations

from typing import Any

from graphs.domain import (
    Constraint,
    SearchRecord,
)
from graphs.rag.nodes.search_structured import search_structured
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime


async def test_search_structured_filters_on_constraints(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("a#0")])
    state = {"question": "q", "constraints": [Constraint(type="PERSON", value='Bad "name" || id != ""')]}
    out = await search_structured(state, runtime(make_context(tmp_path, index)))
    assert [h.id for h in out["hits"]] == ["a#0"]
    record = out["searches"][0]
    assert record.channel == "structured" and record.count == 1 and record.filter == index.calls[0][1]
    assert '|| id != ""' not in (record.filter or "").replace('\\"', "")  # the value stays inside its literal


def test_search_record_type_is_stable() -> None:
    assert SearchRecord(channel="hybrid", filter=None, count=0, duration_ms=1.0).count == 0


async def test_relaxed_search_reuses_the_question_vector(tmp_path: Any) -> None:
    from unittest.mock import patch

    ctx = make_context(tmp_path, ScriptedIndex(respond=lambda ch, expr: []))
    state = {"question": "q", "constraints": [Constraint(type="PERSON", value="p")]}
    with patch.object(type(ctx.embedder), "embed_query", autospec=True, return_value=[0.5] * 16) as embed:
        first = await search_structured(state, runtime(ctx))
        second = await search_structured({**state, **first}, runtime(ctx))
    assert embed.call_count == 1
    assert first["query_vector"] == second["query_vector"] == [0.5] * 16
