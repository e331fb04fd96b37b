"""A question's date orders the structured search; it does not wall off the passage that answers. The
minutes' paragraph "会议批准推广预算120万元" states no date, while another paragraph of the same project is
dated: a hard date filter returned only the dated one, and the answer came from it."""

from __future__ import annotations

from typing import Any

from graphs.domain import Constraint, DateRange, ParsedQuery
from graphs.rag.nodes.rerank_hits import rerank_hits
from graphs.rag.nodes.search_structured import date_first, search_structured, without_dates
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime

Y2026 = DateRange(start=20260101, end=20261231, granularity="year", label="2026")
PRODUCT = Constraint(type="PRODUCT", value="Lumo L4")
IN_2026 = Constraint(type="DATE", value="2026", date_range=Y2026)
DATED = hit("launch#0", "Lumo L4 的上市日期定为2026年5月20日。", 0.8, date=20260520)
UNDATED = hit("minutes#2", "会议批准 Lumo L4 的推广预算为120万元。", 0.7)


def by_filter(channel: str, expr: str | None) -> list[Any]:
    return [DATED] if expr and "date" in expr else [DATED, UNDATED]


async def test_the_undated_passage_that_answers_follows_the_dated_ones(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=by_filter)
    state = {"question": "2026年Lumo L4的推广预算是多少？", "constraints": [PRODUCT, IN_2026]}
    out = await search_structured(state, runtime(make_context(tmp_path, index)))
    assert [h.id for h in out["hits"]] == ["launch#0", "minutes#2"]
    assert [expr is not None and "date" in expr for _, expr in index.calls] == [True, False]
    [record] = out["searches"]
    assert record.count == 2 and "date >= 20260101" in (record.filter or "") and "without the date" in record.filter


async def test_the_reranker_then_puts_the_answering_passage_first(tmp_path: Any) -> None:
    ctx = make_context(tmp_path, ScriptedIndex(respond=by_filter))
    state: dict[str, Any] = {"question": "2026年Lumo L4的推广预算是多少？", "constraints": [PRODUCT, IN_2026]}
    found = await search_structured(state, runtime(ctx))
    parsed = ParsedQuery(original_query=state["question"], keywords=["Lumo L4", "推广预算"])
    out = await rerank_hits({**state, **found, "parsed": parsed, "top_k": 1}, runtime(ctx))
    assert [h.id for h in out["ranked"]] == ["minutes#2"]


async def test_nothing_of_that_date_still_goes_to_relaxation(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [] if expr and "date" in expr else [UNDATED])
    out = await search_structured({"question": "q", "constraints": [PRODUCT, IN_2026]},
                                  runtime(make_context(tmp_path, index)))
    assert out["hits"] == [] and len(index.calls) == 1  # relax_constraints widens the date and says so


def test_a_negated_date_stays_a_filter_and_no_date_changes_nothing() -> None:
    negated = IN_2026.model_copy(update={"negated": True})
    assert without_dates([PRODUCT, negated]) is None and without_dates([PRODUCT]) is None
    assert without_dates([PRODUCT, IN_2026, negated]) == [PRODUCT, negated]
    assert without_dates([IN_2026]) == []


def test_date_first_keeps_each_hit_once_within_the_limit() -> None:
    a, b, c = hit("a#0"), hit("b#0"), hit("c#0")
    assert [h.id for h in date_first([a, b], [b, c, a], 3)] == ["a#0", "b#0", "c#0"]
    assert [h.id for h in date_first([a, b], [c], 2)] == ["a#0", "b#0"]
