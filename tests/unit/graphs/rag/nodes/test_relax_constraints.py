"""relax_constraints. Relaxation order: lowest priority first; widen along hierarchy or date granularity before dropping."""

from __future__ import annotations

from typing import Any

from graphs.domain import (
    DEFAULT_PRIORITY,
    Constraint,
    DateRange,
)
from graphs.rag.nodes.relax_constraints import lowest_priority, relax, relax_constraints
from tests.support.fakes import make_context, runtime

MARCH = DateRange(start=20240301, end=20240331, granularity="month", label="2024-03")
YEAR = DateRange(start=20240101, end=20241231, granularity="year", label="2024")
Y2024 = YEAR


def test_priority_order_drops_other_then_concept_then_date() -> None:
    cs = [Constraint(type=t, value=t.lower()) for t in DEFAULT_PRIORITY]
    order = []
    while cs:
        cs, record = relax(cs, DEFAULT_PRIORITY)
        order.append(record.type)
    assert order == list(reversed(DEFAULT_PRIORITY))


def test_location_widens_along_hierarchy_before_dropping() -> None:
    cs = [Constraint(type="PERSON", value="p"), Constraint(type="LOCATION", value="朝阳", ancestors=["中国", "北京"])]
    cs, first = relax(cs, DEFAULT_PRIORITY)
    assert (first.action, first.value, first.new_value) == ("widened", "朝阳", "北京")
    cs, second = relax(cs, DEFAULT_PRIORITY)
    assert (second.action, second.new_value) == ("widened", "中国")
    cs, third = relax(cs, DEFAULT_PRIORITY)
    assert third.action == "dropped" and [c.type for c in cs] == ["PERSON"]


def test_month_widens_to_year_then_drops() -> None:
    cs, first = relax([Constraint(type="DATE", value="2024-03", date_range=MARCH)], DEFAULT_PRIORITY)
    assert first.action == "widened" and cs[0].date_range == YEAR
    cs, second = relax(cs, DEFAULT_PRIORITY)
    assert second.action == "dropped" and cs == []


def test_custom_priority_is_respected() -> None:
    priority = ("DATE", "LOCATION", "PERSON", "ORGANIZATION", "PRODUCT", "EVENT", "CONCEPT", "OTHER")
    cs = [Constraint(type="DATE", value="2024", date_range=YEAR), Constraint(type="PERSON", value="p")]
    assert lowest_priority(cs, priority) == 1  # type: ignore[arg-type]


def test_ties_relax_the_last_constraint_of_the_type() -> None:
    cs = [Constraint(type="PERSON", value="a"), Constraint(type="PERSON", value="b")]
    _, record = relax(cs, DEFAULT_PRIORITY)
    assert record.value == "b"


async def test_relax_constraints_drops_date_before_location(tmp_path: Any) -> None:
    constraints = [Constraint(type="ORGANIZATION", value="Apple"), Constraint(type="LOCATION", value="北京", ancestors=["中国"]),
                   Constraint(type="DATE", value="2024", date_range=Y2024)]
    out = await relax_constraints({"question": "q", "constraints": constraints}, runtime(make_context(tmp_path)))
    assert out["constraints"] == constraints[:2]
    assert out["relaxations"] == 1 and out["hits"] == []
    assert (out["relaxed"][0].type, out["relaxed"][0].action) == ("DATE", "dropped")
