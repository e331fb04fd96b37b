"""The master layer: team configurations, the plan of sub-questions, its steps, sufficiency and reflection."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphs.domain.answer import Answerability, Citation
from graphs.domain.model import Model
from graphs.domain.retrieval import Hit

TeamName = Literal["writer_only", "executor_inclusive", "planner_enhanced"]
"""The master layer's team configurations: no retrieval, one retrieval path, or a plan of sub-questions."""


class TeamConfiguration(Model):
    """Which team the master layer put on a question, why, and its budgets."""

    name: TeamName
    reason: str
    max_turns: int = Field(ge=0, description="Most retrieval turns (searches, or plan rounds) the team may take.")
    time_budget_s: float = Field(gt=0, description="Wall-clock budget; past it the team answers with what it has.")
    complexity_score: float = 0.0


Strategy = Literal["structured", "semantic", "hybrid", "graph", "temporal"]
"""How a sub-question is retrieved; ``temporal`` is a hybrid search ordered by date."""


class SubQuestion(Model):
    """One node of the plan's DAG."""

    id: str
    question: str
    strategy: Strategy
    depends_on: list[str] = Field(default_factory=list)
    entity: str | None = None
    """The entity the sub-question is about: a document titled with it ranks first among its results."""
    reason: str = ""
    status: Literal["pending", "done", "failed", "aborted"] = "pending"
    attempts: int = 0


class QueryPlan(Model):
    """The planner's DAG of sub-questions."""

    sub_questions: list[SubQuestion]
    pattern: Literal["comparison", "bridge", "temporal", "compound", "single", "llm"]
    """``compound``: a message that asks several things, one step per part, each part answered on its own."""
    planner: Literal["llm", "rules"] = "rules"
    reason: str = ""


class PartAnswer(Model):
    """What one step's run answered: its answer decision, text, short answer and citations (numbered in the
    step's own ranked results). A message that asks several things is answered part by part from these (then
    ``sub_question`` and ``question`` say which part, and the citations are numbered in the whole answer's)."""

    sub_question: str = ""
    question: str = ""
    status: Literal["answered", "no_results"]
    answer: str
    answer_span: str | None = None
    answerability: Answerability | None = None
    citations: list[Citation] = Field(default_factory=list)


class StepOutcome(Model):
    """One execution of one sub-question (a plan step)."""

    sub_question: str
    question: str
    strategy: Strategy
    attempt: int
    turn: int
    status: Literal["ok", "empty", "error", "timeout"]
    hits: list[Hit] = Field(default_factory=list)
    finding: str = ""
    """The step's short answer, handed to the sub-questions that depend on it."""
    error: str | None = None
    duration_ms: float = 0.0
    route: list[str] = Field(default_factory=list)
    """The routing actions the step's retrieval took."""
    answered: PartAnswer | None = None
    """The step's own answer decision and answer (its run ends with write_answer and check_answer)."""


SufficiencyLevel = Literal["fully_sufficient", "partially_sufficient", "contradictory", "insufficient", "max_turns"]
"""The ADR's sufficiency levels."""


class SufficiencyJudgment(Model):
    """The monitor's judgment after one turn, and what it does next."""

    turn: int
    level: SufficiencyLevel
    reason: str
    missing: list[str] = Field(default_factory=list)
    next: Literal["answer", "continue", "follow_up", "switch_strategy", "reflect"] = "answer"
    judge: Literal["llm", "rules"] = "rules"
    coverage: float | None = None


class Claim(Model):
    value: str
    hit_ids: list[str]


class Contradiction(Model):
    """Sources that disagree on one fact."""

    fact: str
    claims: list[Claim]


class Reflection(Model):
    """What the reflection step did about one failed step."""

    sub_question: str
    failure: str
    action: Literal["retry", "switch_strategy", "replan", "abort"]
    reason: str
    attempt: int
    turn: int = 0
    new_strategy: Strategy | None = None
