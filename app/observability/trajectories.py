"""Run trajectories: one graph run as Thought / Action / Observation steps with its decision points.

A trajectory is built from the graph's output state (``OutputState``) after the run, so the graph records
nothing extra: ``steps`` gives the order and timings, and the per-node records (``decisions``,
``searches``, ``expansion``, ``sufficiency``, ``reflections``, ``outcomes``, ``plan``) give what each step
decided and saw. The decision points are the ADR's critical steps that ``app.tools.dpo`` turns into preference
pairs: D1 the initial strategy, D2 continue/stop, D3 a strategy switch. The format is documented in
``docs/dpo.md``; field names are snake_case (a training-data file, not the camelCase API contract).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphs.domain import (
    Constraint,
    ExpansionStep,
    Hit,
    ParsedQuery,
    QueryPlan,
    Reflection,
    RoutingDecision,
    SearchRecord,
    StepOutcome,
    SufficiencyJudgment,
    TeamConfiguration,
    ValidatedEntity,
    WorkflowStep,
)
from graphs.rag.registry import NodeRecord, NodeSpec, spec_of

log = logging.getLogger(__name__)

DecisionPoint = Literal["D1", "D2", "D3"]
FORMAT_VERSION = 1

CONTINUE, STOP, NO_SWITCH, NO_RETRIEVAL, REPLAN = "continue", "stop", "no_switch", "no_retrieval", "replan"
SWITCH = "switch:"
"""Prefix of a D3 decision naming the channel/strategy switched to (``switch:semantic``)."""
SWITCH_UNSPECIFIED = "switch_strategy"
"""A D3 decision whose target is chosen later (the monitor's ``switch_strategy``)."""
PLAN = "plan:"
"""Prefix of a D1 plan decision: the sub-questions' initial strategies joined by ``+``."""

FIRST_ROUTES: tuple[str, ...] = ("structured_search", "semantic_search", "hybrid_search", "graph_search")
SEARCH_CHANNELS: tuple[str, ...] = ("structured", "semantic", "hybrid", "graph")
STRATEGIES: tuple[str, ...] = ("structured", "semantic", "hybrid", "graph", "temporal")

# The search channel a routing action retrieves from (relaxing leads to another structured search).
ACTION_CHANNEL: dict[str, str | None] = {
    "structured_search": "structured", "semantic_search": "semantic", "hybrid_search": "hybrid",
    "graph_search": "graph", "relax_constraints": "structured", "rerank": None,
}


class Record(BaseModel):
    """Trajectory models: snake_case, unknown keys ignored (a newer log stays readable)."""

    model_config = ConfigDict(extra="ignore")


class TrajectoryStep(Record):
    """One node of the run as Thought (why) / Action (what) / Observation (what came back)."""

    index: int = Field(ge=0, description="Position in the run, from 0.")
    node: str
    thought: str = Field(description="Why: the decision's reason, or what the node is for.")
    action: str = Field(description="The node, with its chosen option for a decision: route_query(hybrid_search).")
    observation: str = Field(description="What came back: hit counts, coverage, or the next step's result.")
    duration_ms: float = 0.0
    started: str = ""
    decision_point: DecisionPoint | None = None
    decision: str | None = Field(
        default=None,
        description="The decision point's chosen option: a routing action (D1), continue/stop (D2), "
        "switch:<channel>, switch_strategy or replan (D3), plan:<s1>+<s2> or no_retrieval (D1).",
    )
    choice: str | None = Field(
        default=None, description="The node's own option behind `decision` (relax_constraints, follow_up, retry)."
    )
    options: list[str] = Field(default_factory=list, description="The alternatives that were available, if known.")


class TrajectoryAnalysis(Record):
    """What parse_query and validate_entities made of the question (the decisions' context)."""

    intent: str = ""
    complexity: str = ""
    complexity_score: float = 0.0
    parser: str = ""
    entities: list[str] = Field(default_factory=list, description="text/TYPE → standard name (or 'unknown').")
    constraints: list[str] = Field(default_factory=list, description="TYPE=value filters derived from them.")


class TrajectoryResult(Record):
    doc_ids: list[str] = Field(default_factory=list, description="Ranked document ids, deduplicated, best first.")
    answer: str = ""
    status: str = ""


class TrajectoryTotals(Record):
    duration_ms: float = 0.0
    llm_calls: int = 0
    degraded: list[str] = Field(default_factory=list)


class Trajectory(Record):
    """One graph run."""

    version: int = FORMAT_VERSION
    run_id: str = Field(min_length=1)
    created: str = Field(description="When the run started (its first step), else when it was logged; ISO 8601.")
    question: str
    question_id: str | None = None
    mode: str | None = Field(default=None, description="How the run was made, e.g. the eval mode (full, graph).")
    team: str | None = Field(default=None, description="The master layer's team configuration, if it ran.")
    team_reason: str = ""
    analysis: TrajectoryAnalysis = Field(default_factory=TrajectoryAnalysis)
    steps: list[TrajectoryStep] = Field(default_factory=list)
    result: TrajectoryResult = Field(default_factory=TrajectoryResult)
    totals: TrajectoryTotals = Field(default_factory=TrajectoryTotals)

    def decision_steps(self, point: DecisionPoint | None = None) -> list[TrajectoryStep]:
        """The steps at a decision point (any point when None), in order."""
        return [s for s in self.steps if s.decision_point is not None and point in (None, s.decision_point)]


# -- building a trajectory from a graph output ---------------------------------------------------------

M = TypeVar("M", bound=BaseModel)


def _items(out: Mapping[str, Any], key: str, model: type[M]) -> list[M]:
    """A list of records, accepting domain models or their JSON (a LangGraph server's values)."""
    return [x if isinstance(x, model) else model.model_validate(x) for x in out.get(key) or []]


def _one(out: Mapping[str, Any], key: str, model: type[M]) -> M | None:
    value = out.get(key)
    if value is None:
        return None
    return value if isinstance(value, model) else model.model_validate(value)


def _pct(value: float | None) -> str:
    return "" if value is None else f"coverage {value:.0%}"


def _search_text(record: SearchRecord) -> str:
    where = f" where {record.filter}" if record.filter else ""
    return f"{record.count} hit(s) from {record.channel} search{where}"


def _outcome_text(o: StepOutcome) -> str:
    text = f"{o.sub_question} [{o.strategy}] attempt {o.attempt}: {o.status}, {len(o.hits)} hit(s)"
    route = getattr(o, "route", None)  # the one-path run's routing actions, where recorded
    if route:
        text += f" via {' → '.join(route)}"
    if o.finding:
        text += f"; finding: {o.finding}"
    if o.error:
        text += f"; error: {o.error}"
    return text


def _resolved(e: ValidatedEntity) -> str:
    if not e.valid:
        return "unknown"
    return e.standard_name or (e.date_range.label if e.date_range else e.text)


def _analysis(out: Mapping[str, Any]) -> TrajectoryAnalysis:
    parsed = _one(out, "parsed", ParsedQuery)
    validated = _items(out, "entities", ValidatedEntity)
    if validated:
        entities = [f"{e.text}/{e.type} → {_resolved(e)}" + (" (negated)" if e.negated else "") for e in validated]
    else:
        entities = [f"{e.text}/{e.type}" for e in parsed.entities] if parsed else []
    constraints = [f"{c.type}={'NOT ' if c.negated else ''}{c.value}" for c in _items(out, "constraints", Constraint)]
    if parsed is None:
        return TrajectoryAnalysis(entities=entities, constraints=constraints)
    return TrajectoryAnalysis(intent=parsed.intent, complexity=parsed.complexity,
                         complexity_score=round(parsed.complexity_score, 3), parser=parsed.parser,
                         entities=entities, constraints=constraints)


def _initial_strategies(plan: QueryPlan, outcomes: Sequence[StepOutcome]) -> list[str]:
    """Each sub-question's first strategy: its earliest outcome's (``plan`` holds the final, switched one)."""
    first: dict[str, StepOutcome] = {}
    for o in outcomes:
        if o.sub_question not in first or (o.turn, o.attempt) < (first[o.sub_question].turn,
                                                                   first[o.sub_question].attempt):
            first[o.sub_question] = o
    return [first[sq.id].strategy if sq.id in first else sq.strategy for sq in plan.sub_questions]


class _Walk:
    """Pairs each workflow step with its record (the i-th route_query ↔ decisions[i], ...)."""

    def __init__(self, out: Mapping[str, Any]) -> None:
        self.team = _one(out, "team_config", TeamConfiguration)
        self.plan = _one(out, "plan", QueryPlan)
        self.queues: dict[str, list[Any]] = {
            "route_query": _items(out, "decisions", RoutingDecision),
            "search": _items(out, "searches", SearchRecord),
            "judge_expansion": _items(out, "expansion", ExpansionStep),
            "monitor_sufficiency": _items(out, "sufficiency", SufficiencyJudgment),
            "execute_step": _items(out, "outcomes", StepOutcome),
            "reflect": _group_reflections(_items(out, "reflections", Reflection)),
        }
        self.outcomes: list[StepOutcome] = list(self.queues["execute_step"])
        self.has_d1 = False
        self.channel: str | None = None  # the channel of the last search so far

    def record(self, queue: str) -> Any:
        items = self.queues[queue]
        if not items:
            log.warning("trajectory: a %s step has no matching record", queue)
            return None
        return items.pop(0)

    def leftovers(self, planned: bool) -> list[str]:
        """Records no step consumed (a plan step's searches are its sub-run's: they have no step here)."""
        return [f"{len(v)} {k}" for k, v in self.queues.items() if v and not (planned and k == "search")]


def _group_reflections(reflections: list[Reflection]) -> list[list[Reflection]]:
    """One group per reflect step: reflections of the same turn, in order of first appearance."""
    groups: dict[int, list[Reflection]] = {}
    for r in reflections:
        groups.setdefault(r.turn, []).append(r)
    return list(groups.values())


def _step(walk: _Walk, index: int, ws: WorkflowStep, has_planned_d1: bool) -> TrajectoryStep:
    """The step's fields except the observation of a decision (filled from the next step): what the node
    declares (its purpose as the thought), then what its record says."""
    spec = spec_of(ws.node)
    base: dict[str, Any] = {"index": index, "node": ws.node, "duration_ms": ws.duration_ms, "started": ws.started,
                            "action": ws.node, "observation": ws.summary, "thought": spec.purpose if spec else ""}
    if spec is None or spec.record is None:
        return TrajectoryStep(**base)
    return _DESCRIBE[spec.record](walk, spec, base, has_planned_d1)


def _search_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    """A node that searched: its channel becomes the current one; a search node observes its hits."""
    record: SearchRecord | None = walk.record("search")
    channel = record.channel if record else spec.search_channel
    if channel is not None:
        walk.channel = channel
    if spec.search_channel is not None and record:
        base |= {"observation": _search_text(record)}
    return TrajectoryStep(**base)


def _team_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    team = walk.team
    if team is None:
        return TrajectoryStep(**base)
    base |= {"thought": team.reason, "action": f"{base['node']}({team.name})", "choice": team.name,
             "observation": f"team {team.name}: at most {team.max_turns} turn(s) in {team.time_budget_s:g} s"}
    if team.name == "writer_only" and not has_planned_d1:
        walk.has_d1 = True
        base |= {"decision_point": "D1", "decision": NO_RETRIEVAL,
                 "options": [NO_RETRIEVAL, *FIRST_ROUTES, f"{PLAN}<strategies>"]}
    return TrajectoryStep(**base)


def _plan_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    plan = walk.plan
    if plan is None:
        return TrajectoryStep(**base)
    strategies = _initial_strategies(plan, walk.outcomes)
    listing = "; ".join(f"{sq.id} [{s}] {sq.question}" + (f" (after {', '.join(sq.depends_on)})"
                                                              if sq.depends_on else "")
                        for sq, s in zip(plan.sub_questions, strategies, strict=True))
    decision = PLAN + "+".join(strategies)
    base |= {"thought": f"{plan.reason or plan.pattern + ' plan'}: {listing}", "choice": plan.pattern,
             "action": f"{base['node']}({decision})", "observation": listing}
    if not walk.has_d1:
        walk.has_d1 = True
        base |= {"decision_point": "D1", "decision": decision, "options": [f"{PLAN}<strategies>", *FIRST_ROUTES]}
    return TrajectoryStep(**base)


def _outcome_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    outcome: StepOutcome | None = walk.record("execute_step")
    if outcome:
        base |= {"thought": f"answer sub-question {outcome.sub_question} by {outcome.strategy} search: "
                            f"{outcome.question}", "observation": _outcome_text(outcome)}
    return TrajectoryStep(**base)


def _expansion_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    x: ExpansionStep | None = walk.record("judge_expansion")
    if x is None:
        return TrajectoryStep(**base)
    cov = _pct(x.coverage)
    thought = f"depth {x.depth}, {x.num_results} result(s){', ' + cov if cov else ''}: {x.reason}"
    return TrajectoryStep(**base | {
        "thought": thought, "action": f"{base['node']}({x.decision})", "choice": x.decision,
        "decision_point": "D2", "decision": CONTINUE if x.decision == "expand" else STOP,
        "options": [CONTINUE, STOP],
    })


def _sufficiency_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    j: SufficiencyJudgment | None = walk.record("monitor_sufficiency")
    if j is None:
        return TrajectoryStep(**base)
    thought = f"turn {j.turn}, {j.level}" + (f", {_pct(j.coverage)}" if j.coverage is not None else "") + \
              f": {j.reason}" + (f"; missing: {', '.join(j.missing)}" if j.missing else "")
    point: DecisionPoint = "D3" if j.next == "switch_strategy" else "D2"
    decision = SWITCH_UNSPECIFIED if point == "D3" else STOP if j.next == "answer" else CONTINUE
    return TrajectoryStep(**base | {
        "thought": thought, "action": f"{base['node']}({j.next})", "choice": j.next,
        "decision_point": point, "decision": decision, "options": [CONTINUE, STOP, SWITCH_UNSPECIFIED],
    })


def _reflect_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    group: list[Reflection] | None = walk.record("reflect")
    if not group:
        return TrajectoryStep(**base)
    return TrajectoryStep(**base | _reflect_fields(group, base["node"]))


def _route_step(walk: _Walk, spec: NodeSpec, base: dict[str, Any], has_planned_d1: bool) -> TrajectoryStep:
    d: RoutingDecision | None = walk.record("route_query")
    if d is None:
        return TrajectoryStep(**base)
    base |= {"thought": d.reason, "action": f"{base['node']}({d.action})", "choice": d.action}
    if walk.channel is None:  # nothing searched yet: the initial strategy
        if walk.has_d1:
            return TrajectoryStep(**base)
        walk.has_d1 = True
        return TrajectoryStep(**base | {"decision_point": "D1", "decision": d.action, "options": list(FIRST_ROUTES)})
    options = [CONTINUE, STOP, *(SWITCH + c for c in SEARCH_CHANNELS if c != walk.channel)]
    target = ACTION_CHANNEL[d.action]
    if target is None:
        return TrajectoryStep(**base | {"decision_point": "D2", "decision": STOP, "options": options})
    if target != walk.channel:
        return TrajectoryStep(**base | {"decision_point": "D3", "decision": SWITCH + target, "options": options})
    return TrajectoryStep(**base | {"decision_point": "D2", "decision": CONTINUE, "options": options})


def _reflect_fields(group: list[Reflection], node: str) -> dict[str, Any]:
    """One reflect step: the strongest action of its reflections (replan > switch > retry > abort)."""
    actions = [r.action for r in group]
    thought = "; ".join(f"{r.sub_question} ({r.failure}, attempt {r.attempt}): {r.action}"
                        + (f"→{r.new_strategy}" if r.new_strategy else "") + f" — {r.reason}" for r in group)
    point: DecisionPoint
    decision: str
    if REPLAN in actions:
        point, decision = "D3", REPLAN
    elif "switch_strategy" in actions:
        target = next(r.new_strategy for r in group if r.action == "switch_strategy")
        point, decision = "D3", SWITCH + target if target else SWITCH_UNSPECIFIED
    elif "retry" in actions:
        point, decision = "D2", CONTINUE
    else:
        point, decision = "D2", STOP
    choice = ",".join(dict.fromkeys(actions))
    return {"thought": thought, "action": f"{node}({choice})", "choice": choice, "decision_point": point,
            "decision": decision, "options": [CONTINUE, STOP, *(SWITCH + s for s in STRATEGIES), REPLAN]}


Describe = Callable[[_Walk, NodeSpec, dict[str, Any], bool], TrajectoryStep]
_DESCRIBE: dict[NodeRecord, Describe] = {
    "searches": _search_step, "decisions": _route_step, "team_config": _team_step, "plan": _plan_step,
    "outcomes": _outcome_step, "expansion": _expansion_step, "sufficiency": _sufficiency_step,
    "reflections": _reflect_step,
}
"""How a step reads the record its node declares (``NodeSpec.record``): one describer per kind of record, so a
new node that writes one of these records is described without a line here."""


def _run_of(steps: list[TrajectoryStep], start: int, node: str) -> list[TrajectoryStep]:
    end = start
    while end < len(steps) and steps[end].node == node:
        end += 1
    return steps[start:end]


def _record_of(node: str) -> NodeRecord | None:
    """The record a node declares (a plan step's outcomes, a routing decision...), None for none."""
    spec = spec_of(node)
    return spec.record if spec else None


def build_trajectory(
    run_id: str, out: Mapping[str, Any], *, question_id: str | None = None, mode: str | None = None,
) -> Trajectory:
    """The trajectory of one graph run from its output state (domain models or their JSON)."""
    walk = _Walk(out)
    workflow = _items(out, "steps", WorkflowStep)
    has_planned_d1 = any(_record_of(s.node) in ("decisions", "plan") for s in workflow)
    steps = [_step(walk, i, ws, has_planned_d1) for i, ws in enumerate(workflow)]
    if leftovers := walk.leftovers(planned=any(_record_of(s.node) == "outcomes" for s in workflow)):
        log.warning("trajectory %s: records without a step: %s", run_id, ", ".join(leftovers))
    # a decision's observation is what the step that carried it out saw (all of a round of plan steps)
    for i, step in enumerate(steps):
        if step.decision_point is not None and i + 1 < len(steps):
            nxt = steps[i + 1]
            round_ = [nxt] if _record_of(nxt.node) != "outcomes" else _run_of(steps, i + 1, nxt.node)
            step.observation = " | ".join(s.observation for s in round_)
    ranked = _items(out, "ranked", Hit)
    parsed = _one(out, "parsed", ParsedQuery)
    question = out.get("question") or (parsed.original_query if parsed else "")
    total = out.get("total_duration_ms")
    return Trajectory(
        run_id=run_id,
        created=workflow[0].started if workflow else datetime.now(UTC).isoformat(timespec="milliseconds"),
        question=question, question_id=question_id, mode=mode,
        team=walk.team.name if walk.team else None, team_reason=walk.team.reason if walk.team else "",
        analysis=_analysis(out),
        steps=steps,
        result=TrajectoryResult(doc_ids=list(dict.fromkeys(h.doc_id for h in ranked)),
                                answer=out.get("answer", ""), status=out.get("status", "")),
        totals=TrajectoryTotals(
            duration_ms=round(total if total is not None else sum(s.duration_ms for s in workflow), 3),
            llm_calls=out.get("llm_calls", 0), degraded=list(out.get("degraded") or []),
        ),
    )


# -- the log -----------------------------------------------------------------------------------------


class TrajectoryLogError(ValueError):
    """A trajectory log line that is JSON but not a trajectory."""


class TrajectoryLog:
    """An append-only JSONL file of trajectories, one per line.

    Appends from the threads of one process are serialized by a lock and written with one ``write`` each;
    nothing is fsynced. A line cut short by a crash is skipped on reading (with a warning), and the next
    append starts on a fresh line so that it is not glued to the fragment.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()

    def append(self, trajectory: Trajectory) -> None:
        """Append one trajectory (blocking; from async code use ``aappend``)."""
        line = (trajectory.model_dump_json() + "\n").encode("utf-8")
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a+b") as fh:
                end = fh.seek(0, 2)
                if end:
                    fh.seek(end - 1)
                    if fh.read(1) != b"\n":
                        line = b"\n" + line
                fh.write(line)

    async def aappend(self, trajectory: Trajectory) -> None:
        """Append off the event loop."""
        await asyncio.to_thread(self.append, trajectory)

    def read(self) -> Iterator[Trajectory]:
        """Yield the logged trajectories in order; a missing file is an empty log."""
        if not self.path.is_file():
            return
        with self.path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except ValueError:
                    where = "last line" if not line.endswith("\n") else f"line {n}"
                    log.warning("%s: skipped the truncated %s", self.path, where)
                    continue
                try:
                    yield Trajectory.model_validate(data)
                except ValidationError as exc:
                    err = exc.errors()[0]
                    loc = ".".join(str(p) for p in err["loc"])
                    raise TrajectoryLogError(f"{self.path}:{n}: {loc}: {err['msg']}") from exc
