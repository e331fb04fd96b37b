"""``aer export-dpo``: logged trajectories plus feedback → the ADR's critical-step DPO pairs.

For every question with at least one good and one bad run, the two runs' decisions are aligned per decision
point (D1 initial strategy, D2 continue/stop, D3 strategy switch) and every point where the good run chose
differently becomes a pair ``{decision_point, prompt, chosen, rejected}``; the prompt is the good run's state
at that point. Output: one ``DpoGroup`` per line (JSONL), validated by ``DpoGroup``'s JSON Schema. See
``docs/dpo.md``.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, cast, get_args

import typer
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, model_validator

from app.observability.trajectories import (
    CONTINUE,
    FIRST_ROUTES,
    NO_SWITCH,
    PLAN,
    REPLAN,
    SEARCH_CHANNELS,
    SWITCH,
    SWITCH_UNSPECIFIED,
    DecisionPoint,
    Trajectory,
    TrajectoryLog,
    TrajectoryLogError,
    TrajectoryStep,
)

Label = Literal["good", "bad"]
LABELS: tuple[str, ...] = get_args(Label)
POINTS: tuple[DecisionPoint, ...] = ("D1", "D2", "D3")
DEFAULT_K = 5
# Nodes whose outcome is the prompt's header (question analysis, team), not a line of its history.
CONTEXT_NODES = frozenset({"parse_query", "validate_entities", "configure_team"})
ASK: dict[DecisionPoint, str] = {
    "D1": "Decision D1 (initial strategy): how should retrieval start?",
    "D2": "Decision D2 (continue or stop): retrieve more, or stop and answer with what was found?",
    "D3": "Decision D3 (strategy switch): keep the current strategy, or switch to another one?",
}


class Strict(BaseModel):
    """Export models: snake_case, unknown keys rejected (the schema is the contract)."""

    model_config = ConfigDict(extra="forbid")


class DpoPair(Strict):
    """One preference pair at one critical step."""

    decision_point: DecisionPoint = Field(description="D1 initial strategy, D2 continue/stop, D3 strategy switch.")
    prompt: str = Field(min_length=1, description="The question, its analysis and the state at the decision.")
    chosen: str = Field(min_length=1, description="The good run's decision and its reason.")
    rejected: str = Field(min_length=1, description="The bad run's decision and its reason.")
    chosen_run_id: str = Field(min_length=1)
    rejected_run_id: str = Field(min_length=1)

    @model_validator(mode="after")
    def _differ(self) -> DpoPair:
        if self.chosen == self.rejected:
            raise ValueError("chosen and rejected are the same")
        return self


class DpoGroup(Strict):
    """The pairs of one question (one JSONL line of the export)."""

    question: str = Field(min_length=1)
    question_id: str | None = None
    pairs: list[DpoPair] = Field(min_length=1)


class FeedbackError(ValueError):
    """A feedback, gold or export file that cannot be read; the message names the file and line."""


def dpo_json_schema() -> dict[str, Any]:
    """The JSON Schema of one export line."""
    schema = DpoGroup.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


# -- feedback ---------------------------------------------------------------------------------


def _json_lines(path: Path) -> Iterable[tuple[int, Any]]:
    if not path.is_file():
        raise FeedbackError(f"{path} not found")
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield n, json.loads(line)
            except ValueError as exc:
                raise FeedbackError(f"{path}:{n}: not JSON ({exc})") from exc


def load_feedback(path: Path) -> dict[str, Label]:
    """``{"run_id": ..., "label" | "feedback": "good" | "bad"}`` lines → run id → label (a later line wins)."""
    labels: dict[str, Label] = {}
    for n, item in _json_lines(path):
        if not isinstance(item, dict):
            raise FeedbackError(f"{path}:{n}: expected an object with run_id and label")
        run_id = item.get("run_id")
        if not isinstance(run_id, str) or not run_id:
            raise FeedbackError(f"{path}:{n}: missing run_id")
        value = item.get("label", item.get("feedback"))
        label = value.strip().lower() if isinstance(value, str) else value
        if label not in LABELS:
            raise FeedbackError(f"{path}:{n}: unknown label {value!r} for run {run_id} (expected good or bad)")
        labels[run_id] = cast(Label, label)
    return labels


class GoldQuestion(BaseModel):
    """One line of a gold-ids file (an eval set's ``questions.jsonl``)."""

    model_config = ConfigDict(extra="ignore")

    question_id: str | None = Field(default=None, validation_alias=AliasChoices("question_id", "id"))
    question: str | None = None
    gold_ids: list[str] = Field(default_factory=list)


def load_gold(path: Path) -> list[GoldQuestion]:
    """Read a gold-ids file; each line needs an id or a question."""
    items = []
    for n, item in _json_lines(path):
        try:
            gold = GoldQuestion.model_validate(item)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise FeedbackError(f"{path}:{n}: {'.'.join(map(str, err['loc']))}: {err['msg']}") from exc
        if gold.question_id is None and not (gold.question or "").strip():
            raise FeedbackError(f"{path}:{n}: needs an id (or question_id) or a question")
        items.append(gold)
    return items


_SPACE = re.compile(r"\s+")


def normalize_question(text: str) -> str:
    """Case-, width- and whitespace-insensitive form of a question, without surrounding punctuation."""
    text = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start])[0] in "PZ":
        start += 1
    while end > start and unicodedata.category(text[end - 1])[0] in "PZ":
        end -= 1
    return text[start:end]


def label_by_gold(trajectories: Iterable[Trajectory], gold: Sequence[GoldQuestion], k: int = DEFAULT_K) -> dict[str, Label]:
    """Good when every gold document is in a run's top ``k`` ranked documents, else bad.

    A run is matched on question_id when it and a gold line share one, else on the normalized question text
    (never to a gold line with a different id); runs with no match, or whose gold has no ids, get no label.
    """
    by_id = {g.question_id: g for g in gold if g.question_id is not None}
    by_text: dict[str, list[GoldQuestion]] = {}
    for g in gold:
        if g.question:
            by_text.setdefault(normalize_question(g.question), []).append(g)
    labels: dict[str, Label] = {}
    for t in trajectories:
        match = by_id.get(t.question_id) if t.question_id is not None else None
        if match is None:
            candidates = [g for g in by_text.get(normalize_question(t.question), [])
                          if g.question_id is None or t.question_id is None]
            match = candidates[0] if candidates else None
        if match is None or not match.gold_ids:
            continue
        labels[t.run_id] = "good" if set(match.gold_ids) <= set(t.result.doc_ids[:k]) else "bad"
    return labels


# -- pairs ------------------------------------------------------------------------------------


@dataclass
class _Run:
    t: Trajectory
    d1: TrajectoryStep | None
    d2: list[TrajectoryStep]
    """The continue/stop view: D2 steps and D3 steps (a switch continues retrieval)."""
    d3: int | None
    """Position in ``d2`` of the first switch."""

    @classmethod
    def of(cls, t: Trajectory) -> _Run:
        d1 = next(iter(t.decision_steps("D1")), None)
        d2 = [s for s in t.steps if s.decision_point in ("D2", "D3")]
        d3 = next((i for i, s in enumerate(d2) if s.decision_point == "D3"), None)
        return cls(t, d1, d2, d3)


def _d2_label(step: TrajectoryStep) -> str:
    return (step.decision or CONTINUE) if step.decision_point == "D2" else CONTINUE


def _decision_text(label: str, step: TrajectoryStep) -> str:
    """``label (the node's own option): reason``, e.g. ``continue (relax_constraints): 0 results under ...``."""
    head = f"{label} ({step.choice})" if step.choice and step.choice != label else label
    return f"{head}: {step.thought}" if step.thought else head


def _family(option: str) -> str:
    return f"{PLAN}<strategies>" if option.startswith(PLAN) else option


def _options(point: DecisionPoint, step: TrajectoryStep, *labels: str) -> list[str]:
    if point == "D1":
        base = list(step.options or FIRST_ROUTES)
    elif point == "D2":
        base = [CONTINUE, "stop"]
    else:
        switches = [o for o in step.options if o.startswith(SWITCH) or o in (SWITCH_UNSPECIFIED, REPLAN)]
        base = [NO_SWITCH, *(switches or (SWITCH + c for c in SEARCH_CHANNELS))]
    for label in labels:
        if _family(label) not in base:
            base.append(_family(label))
    return base


def _history_line(s: TrajectoryStep) -> str:
    if s.decision_point is not None and s.decision:
        return f"{s.node} chose {_decision_text(s.decision, s)}"
    if s.choice:
        return f"{s.node} chose {s.choice}" + (f": {s.thought}" if s.thought else "")
    return f"{s.node}: {s.observation}"


def build_prompt(t: Trajectory, step: TrajectoryStep, point: DecisionPoint, options: Sequence[str]) -> str:
    """The run's state at ``step``: question, analysis, team, the steps before it, then what is decided."""
    a = t.analysis
    lines = [
        "You control the retrieval of a question-answering system over a document corpus.",
        f"Question: {t.question}",
        f"Query analysis: intent {a.intent or 'unknown'}, complexity {a.complexity or 'unknown'} "
        f"(score {a.complexity_score:.2f})" + (f", parsed by {a.parser}" if a.parser else ""),
        f"Entities: {'; '.join(a.entities) or 'none'}",
        f"Constraints: {', '.join(a.constraints) or 'none'}",
    ]
    if t.team:
        lines.append(f"Team: {t.team}" + (f" ({t.team_reason})" if t.team_reason else ""))
    history = [s for s in t.steps if s.index < step.index and s.node not in CONTEXT_NODES]
    lines.append("Steps so far:" + ("" if history else " none"))
    lines += [f"{n}. {_history_line(s)}" for n, s in enumerate(history, start=1)]
    lines += [ASK[point], f"Options: {', '.join(options)}"]
    return "\n".join(lines)


def _pair(point: DecisionPoint, good: _Run, g_step: TrajectoryStep, g_label: str, bad: _Run,
          b_step: TrajectoryStep | None, b_label: str) -> DpoPair:
    rejected = _decision_text(b_label, b_step) if b_step is not None else b_label
    return DpoPair(
        decision_point=point,
        prompt=build_prompt(good.t, g_step, point, _options(point, g_step, g_label, b_label)),
        chosen=_decision_text(g_label, g_step), rejected=rejected,
        chosen_run_id=good.t.run_id, rejected_run_id=bad.t.run_id,
    )


def _d1_pairs(good: _Run, bad: _Run) -> list[DpoPair]:
    g, b = good.d1, bad.d1
    if g is None or b is None or g.decision is None or b.decision is None or g.decision == b.decision:
        return []
    return [_pair("D1", good, g, g.decision, bad, b, b.decision)]


def _d2_pairs(good: _Run, bad: _Run) -> list[DpoPair]:
    pairs = []
    for g, b in zip(good.d2, bad.d2, strict=False):
        g_label, b_label = _d2_label(g), _d2_label(b)
        if g_label != b_label:
            pairs.append(_pair("D2", good, g, g_label, bad, b, b_label))
    return pairs


def _aligned(run: _Run, k: int) -> TrajectoryStep | None:
    """The run's continue/stop step at position ``k`` (its last one when it has fewer)."""
    return run.d2[min(k, len(run.d2) - 1)] if run.d2 else None


def _d3_pairs(good: _Run, bad: _Run) -> list[DpoPair]:
    if good.d3 is None and bad.d3 is None:
        return []
    if good.d3 is not None:
        g = good.d2[good.d3]
        g_label = g.decision or SWITCH_UNSPECIFIED
        if bad.d3 is not None:
            b = bad.d2[bad.d3]
            b_label = b.decision or SWITCH_UNSPECIFIED
            return [] if b_label == g_label else [_pair("D3", good, g, g_label, bad, b, b_label)]
        return [_pair("D3", good, g, g_label, bad, _aligned(bad, good.d3), NO_SWITCH)]
    assert bad.d3 is not None
    g_step = _aligned(good, bad.d3)
    if g_step is None:  # the good run never came to a continue/stop decision: no state to ask at
        return []
    b = bad.d2[bad.d3]
    return [_pair("D3", good, g_step, NO_SWITCH, bad, b, b.decision or SWITCH_UNSPECIFIED)]


PAIRS_AT = {"D1": _d1_pairs, "D2": _d2_pairs, "D3": _d3_pairs}


def export_dpo(trajectories: Iterable[Trajectory], labels: Mapping[str, Label]) -> list[DpoGroup]:
    """Group labelled runs by question and pair each good run with each bad run, per decision point.

    Runs are ordered by (created, run_id), groups by their earliest run, pairs by decision point, then good
    run, then bad run; identical pairs (same point, prompt, chosen and rejected) are kept once.
    """
    groups: dict[str, list[Trajectory]] = {}
    for t in trajectories:
        if labels.get(t.run_id) in LABELS:
            groups.setdefault(normalize_question(t.question), []).append(t)
    out = []
    for runs in sorted((sorted(g, key=lambda t: (t.created, t.run_id)) for g in groups.values()),
                       key=lambda g: (g[0].created, g[0].run_id)):
        goods = [_Run.of(t) for t in runs if labels[t.run_id] == "good"]
        bads = [_Run.of(t) for t in runs if labels[t.run_id] == "bad"]
        seen: set[tuple[str, str, str, str]] = set()
        pairs = []
        for point in POINTS:
            for good in goods:
                for bad in bads:
                    for p in PAIRS_AT[point](good, bad):
                        key = (p.decision_point, p.prompt, p.chosen, p.rejected)
                        if key not in seen:
                            seen.add(key)
                            pairs.append(p)
        if pairs:
            question_id = next((t.question_id for t in runs if t.question_id is not None), None)
            out.append(DpoGroup(question=runs[0].question, question_id=question_id, pairs=pairs))
    return out


def pair_counts(groups: Iterable[DpoGroup]) -> dict[str, int]:
    """Pairs per decision point (every point listed, zeros included)."""
    counts: dict[str, int] = dict.fromkeys(POINTS, 0)
    for g in groups:
        for p in g.pairs:
            counts[p.decision_point] += 1
    return counts


def write_export(groups: Iterable[DpoGroup], path: Path) -> int:
    """Write one group per line; returns the number of groups."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [g.model_dump_json() + "\n" for g in groups]
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines)


def read_export(path: Path) -> list[DpoGroup]:
    """Read and validate an export; a bad line raises ``FeedbackError`` naming its number."""
    groups = []
    for n, item in _json_lines(path):
        try:
            groups.append(DpoGroup.model_validate(item))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(map(str, err["loc"])) or "line"
            raise FeedbackError(f"{path}:{n}: {where}: {err['msg']}") from exc
    return groups


# -- command ----------------------------------------------------------------------------------


def _counts_line(groups: Sequence[DpoGroup]) -> str:
    counts = pair_counts(groups)
    return (f"{len(groups)} question(s), {sum(counts.values())} pair(s): "
            + ", ".join(f"{p} {n}" for p, n in counts.items()))


def _need_file(path: Path | None, option: str) -> Path:
    if path is None:
        raise typer.BadParameter(f"{option} is required", param_hint=option)
    if not path.is_file():
        raise typer.BadParameter(f"{path} not found", param_hint=option)
    return path


def export_dpo_command(
    trajectories: Annotated[
        Path | None, typer.Option("--trajectories", dir_okay=False, help="Trajectory log (JSONL).")
    ] = None,
    feedback: Annotated[
        Path | None, typer.Option("--feedback", dir_okay=False, help='JSONL of {"run_id", "label": good|bad}.')
    ] = None,
    gold: Annotated[
        Path | None,
        typer.Option("--gold", dir_okay=False, help="Gold-ids JSONL (an eval set's questions.jsonl)."),
    ] = None,
    k: Annotated[int, typer.Option("--k", min=1, help="--gold: a run is good when all gold ids are in its top k.")] = (
        DEFAULT_K
    ),
    out: Annotated[Path | None, typer.Option("--out", dir_okay=False, help="Where to write the pairs (JSONL).")] = None,
    mode: Annotated[
        list[str] | None, typer.Option("--mode", help="Only trajectories logged with this mode (repeatable).")
    ] = None,
    schema: Annotated[bool, typer.Option("--schema", help="Print the JSON Schema of an export line.")] = False,
    validate: Annotated[
        Path | None, typer.Option("--validate", dir_okay=False, help="Validate an export file and exit.")
    ] = None,
) -> None:
    """Export critical-step DPO pairs (D1 strategy, D2 continue/stop, D3 switch) from logged trajectories."""
    if schema:
        typer.echo(json.dumps(dpo_json_schema(), indent=2, ensure_ascii=False))
        return
    if validate is not None:
        try:
            groups = read_export(_need_file(validate, "--validate"))
        except FeedbackError as exc:
            typer.secho(f"invalid: {exc}", fg="red", err=True)
            raise typer.Exit(1) from exc
        typer.echo(f"valid: {_counts_line(groups)}")
        return
    log_path = _need_file(trajectories, "--trajectories")
    if feedback is None and gold is None:
        raise typer.BadParameter("give --feedback or --gold", param_hint="--feedback/--gold")
    if feedback is not None and gold is not None:
        raise typer.BadParameter("give only one of --feedback and --gold", param_hint="--feedback/--gold")
    if out is None:
        raise typer.BadParameter("--out is required", param_hint="--out")
    try:
        runs = list(TrajectoryLog(log_path).read())
        if mode:
            runs = [t for t in runs if t.mode in mode]
        if feedback is not None:
            labels = load_feedback(_need_file(feedback, "--feedback"))
        else:
            labels = label_by_gold(runs, load_gold(_need_file(gold, "--gold")), k)
    except (FeedbackError, TrajectoryLogError) as exc:
        raise typer.BadParameter(str(exc)) from exc
    labelled = [t for t in runs if t.run_id in labels]
    good = sum(labels[t.run_id] == "good" for t in labelled)
    typer.echo(f"{len(runs)} trajectories, {len(labelled)} labelled ({good} good, {len(labelled) - good} bad)")
    groups = export_dpo(runs, labels)
    write_export(groups, out)
    typer.echo(f"wrote {out}: {_counts_line(groups)}")
