"""The analysed question: its entities, intent and complexity, the constraints they become, and routing."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphs.domain.entities import EntityType, MatchKind
from graphs.domain.model import Model

Intent = Literal["factual", "conceptual", "comparison", "procedural", "exploratory"]
Complexity = Literal["simple", "moderate", "complex"]


class DateRange(Model):
    """An inclusive range of dates as YYYYMMDD integers."""

    start: int
    end: int
    granularity: Literal["year", "month", "day"]
    label: str

    def widen(self) -> DateRange | None:
        """Return the enclosing year of a month or day range, None for a year."""
        if self.granularity == "year":
            return None
        year = self.start // 10000
        return DateRange(start=year * 10000 + 101, end=year * 10000 + 1231, granularity="year", label=str(year))


class QueryEntity(Model):
    text: str
    type: EntityType
    source: Literal["gazetteer", "pinyin", "pos", "date_rule", "llm", "title_case"] = "gazetteer"
    confidence: float = 1.0
    date_range: DateRange | None = None


class LogicalRelation(Model):
    operator: Literal["AND", "OR", "NOT"]
    entities: list[str]


class ParsedQuery(Model):
    original_query: str
    entities: list[QueryEntity] = Field(default_factory=list)
    logical_relations: list[LogicalRelation] = Field(default_factory=list)
    intent: Intent = "factual"
    complexity: Complexity = "simple"
    complexity_score: float = Field(default=0.0, ge=0.0, le=1.0)
    complexity_features: dict[str, float] = Field(default_factory=dict)
    """The static features behind the score (length, question words, entities, cues, nesting, bridge)."""
    confidence: float = 0.5
    keywords: list[str] = Field(default_factory=list)
    parser: Literal["llm", "rules"] = "rules"


class ValidatedEntity(Model):
    text: str
    type: EntityType
    standard_name: str | None = None
    match: MatchKind = "none"
    score: float = 0.0
    valid: bool = False
    hierarchy: list[str] = Field(default_factory=list)
    date_range: DateRange | None = None
    negated: bool = False


class Constraint(Model):
    """One filter on the vector search, derived from a validated entity."""

    type: EntityType
    value: str
    date_range: DateRange | None = None
    ancestors: list[str] = Field(default_factory=list, description="Wider values, nearest last.")
    negated: bool = False


class Relaxation(Model):
    type: EntityType
    value: str
    action: Literal["dropped", "widened"]
    new_value: str | None = None
    reason: str


RouteAction = Literal[
    "structured_search", "semantic_search", "hybrid_search", "graph_search", "relax_constraints", "rerank"
]


class RoutingDecision(Model):
    action: RouteAction
    reason: str
