"""configure_team: the master layer. From the question's complexity and shape, put a team on it:
writer-only (nothing to retrieve), executor-inclusive (one retrieval path: route_query and the searches)
or planner-enhanced (a plan of sub-questions). Each team has its own turn and time budget."""

from __future__ import annotations

import time

from langgraph.runtime import Runtime
from langgraph.types import Command

from graphs.domain import TeamConfiguration, TeamName
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.edges import TEAM_NODE, TeamNode
from graphs.rag.planning import decompose
from graphs.rag.question import validated_mentions
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.rag.teams import configured
from graphs.text.question_shapes import trivial


def choose_team(state: RagState, limits: RagLimits, *, has_llm: bool, has_kg: bool) -> tuple[TeamName, str]:
    """The team and why: the caller's choice, else a trivial question → writer-only; a message that asks several
    things, a comparison or a temporal question (or, with an LLM, any complex one) → planner; everything else →
    one path."""
    choice = state.get("team", "auto")
    if choice != "auto":
        return choice, "caller asked for it"
    if (mode := state.get("search_mode", "auto")) != "auto":
        return "executor_inclusive", f"caller chose the {mode} search mode: one retrieval path"
    question, parsed = state["question"], state["parsed"]
    if why := trivial(question):
        return "writer_only", why
    plan = decompose(question, parsed, validated_mentions(state), has_kg)
    if plan is not None and plan.pattern in ("compound", "comparison", "temporal"):
        return "planner_enhanced", f"{plan.pattern} question: {plan.reason}"
    if has_llm and parsed.complexity == "complex":
        return "planner_enhanced", f"complex question (score {parsed.complexity_score:.2f}): the LLM plans sub-questions"
    return "executor_inclusive", f"{parsed.complexity} {parsed.intent} question: one adaptive retrieval path"


def team_configuration(state: RagState, limits: RagLimits, *, has_llm: bool, has_kg: bool) -> TeamConfiguration:
    """The chosen team with its budgets."""
    name, reason = choose_team(state, limits, has_llm=has_llm, has_kg=has_kg)
    return configured(name, reason, limits, max_turns=state.get("max_turns"),
                      complexity_score=state["parsed"].complexity_score)


SPEC = NodeSpec(purpose="choose the team: writer only, one retrieval path or a plan", record="team_config")


async def configure_team(state: RagState, runtime: Runtime[RagContext]) -> Command[TeamNode]:
    """Record the team configuration and hand the question to it."""
    ctx = runtime.context
    team = team_configuration(state, ctx.limits, has_llm=ctx.llm is not None, has_kg=ctx.kg is not None)
    update: RagUpdate = {"team_config": team, "started_at": time.time()}
    return Command(update=update, goto=TEAM_NODE[team.name])


def summarize(update: RagUpdate) -> str:
    """Describe the configuration."""
    t: TeamConfiguration = update["team_config"]
    return f"{t.name} (≤{t.max_turns} turn(s), {t.time_budget_s:.0f} s): {t.reason}"
