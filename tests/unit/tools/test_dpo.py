"""Critical-step DPO export: feedback loaders, pair alignment per decision point, schema validation, CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from app.cli import cli
from app.observability.trajectories import Trajectory, TrajectoryLog, build_trajectory
from app.tools.dpo import (
    DpoGroup,
    DpoPair,
    FeedbackError,
    GoldQuestion,
    dpo_json_schema,
    export_dpo,
    label_by_gold,
    load_feedback,
    load_gold,
    normalize_question,
    pair_counts,
    read_export,
    write_export,
)
from graphs.domain import RoutingDecision, SearchRecord
from tests.support.runs import (
    APPLE_FILTER,
    APPLE_Q,
    COMPARE_Q,
    FOUNDER_Q,
    graph_run,
    hybrid_semantic_run,
    hybrid_stop_run,
    planner_run,
    structured_fallback_run,
    structured_relax_run,
)

HEADER_APPLE = (
    "You control the retrieval of a question-answering system over a document corpus.\n"
    f"Question: {APPLE_Q}\n"
    "Query analysis: intent factual, complexity simple (score 0.20), parsed by rules\n"
    "Entities: 2024年/DATE → 2024; 苹果/ORGANIZATION → 苹果公司; 北京/LOCATION → 北京\n"
    "Constraints: ORGANIZATION=苹果公司, LOCATION=北京\n"
    "Team: executor_inclusive (simple factual question: one adaptive retrieval path)\n"
)
D1_APPLE = ("structured_search: 3 validated constraint(s) (DATE=2024, ORGANIZATION=苹果公司, LOCATION=北京) and "
            "factual intent: filtered vector search")


def runs() -> list[Trajectory]:
    """Three questions, each with a good and a bad run (eval ids on the trajectories)."""
    return [
        build_trajectory("apple-good", structured_relax_run(), question_id="q1", mode="full"),
        build_trajectory("apple-bad", structured_fallback_run(), question_id="q1", mode="full"),
        build_trajectory("founder-good", graph_run(), question_id="q2", mode="full"),
        build_trajectory("founder-bad", hybrid_semantic_run(), question_id="q2", mode="full"),
        build_trajectory("compare-good", planner_run(), question_id="q3", mode="full"),
        build_trajectory("compare-bad", hybrid_stop_run(), question_id="q3", mode="full"),
    ]


LABELS = {"apple-good": "good", "apple-bad": "bad", "founder-good": "good", "founder-bad": "bad",
          "compare-good": "good", "compare-bad": "bad"}


def summary(groups: list[DpoGroup]) -> list[tuple[str | None, list[tuple[str, str, str, str, str]]]]:
    """Per group: (point, chosen head, rejected head, chosen run, rejected run) — a head is the text before ': '."""
    return [(g.question_id, [(p.decision_point, p.chosen.split(": ")[0], p.rejected.split(": ")[0],
                              p.chosen_run_id, p.rejected_run_id) for p in g.pairs]) for g in groups]


# -- pairs -----------------------------------------------------------------------------------------


def test_export_pairs_per_decision_point() -> None:
    groups = export_dpo(runs(), LABELS)
    assert [(g.question, g.question_id) for g in groups] == [(APPLE_Q, "q1"), (FOUNDER_Q, "q2"), (COMPARE_Q, "q3")]
    assert summary(groups) == [
        ("q1", [("D3", "no_switch (relax_constraints)", "switch:semantic (semantic_search)", "apple-good",
                 "apple-bad")]),
        ("q2", [("D1", "graph_search", "hybrid_search", "founder-good", "founder-bad"),
                ("D3", "no_switch (expand)", "switch:semantic (semantic_search)", "founder-good", "founder-bad")]),
        ("q3", [("D1", "plan:structured+structured (comparison)", "hybrid_search", "compare-good", "compare-bad"),
                ("D2", "continue (reflect)", "stop (rerank)", "compare-good", "compare-bad"),
                ("D3", "switch:semantic (switch_strategy)", "no_switch (rerank)", "compare-good", "compare-bad")]),
    ]
    assert pair_counts(groups) == {"D1": 2, "D2": 1, "D3": 3}


def test_no_switch_against_a_fallback_asks_at_the_good_runs_state() -> None:
    [apple] = export_dpo(runs()[:2], LABELS)
    [pair] = apple.pairs
    assert pair.prompt == HEADER_APPLE + (
        "Steps so far:\n"
        f"1. route_query chose {D1_APPLE}\n"
        f"2. search_structured: 0 hit(s) from structured search where {APPLE_FILTER}\n"
        "Decision D3 (strategy switch): keep the current strategy, or switch to another one?\n"
        "Options: no_switch, switch:semantic, switch:hybrid, switch:graph"
    )
    assert pair.chosen == f"no_switch (relax_constraints): 0 results under {APPLE_FILTER}; relaxation 1 of 3"
    assert pair.rejected == "switch:semantic (semantic_search): 0 results and retries exhausted: semantic fallback"


def test_initial_strategy_pair() -> None:
    [group] = export_dpo(runs()[2:4], LABELS)
    d1 = group.pairs[0]
    assert d1.decision_point == "D1"
    assert d1.prompt.endswith(
        "Constraints: none\nSteps so far: none\nDecision D1 (initial strategy): how should retrieval start?\n"
        "Options: structured_search, semantic_search, hybrid_search, graph_search"
    )
    assert "Team:" not in d1.prompt  # a run without the master layer
    assert d1.chosen == ("graph_search: moderate question with no entity to filter on: seed search, then adaptive "
                         "knowledge-graph expansion")
    assert d1.rejected == "hybrid_search: no validated entities to filter on: dense + BM25 hybrid search"
    d3 = group.pairs[1]
    assert d3.prompt.endswith("2. search_graph: 3 hit(s) from graph search\n"
                              "Decision D3 (strategy switch): keep the current strategy, or switch to another one?\n"
                              "Options: no_switch, switch:structured, switch:semantic, switch:hybrid, switch:graph")
    assert d3.chosen == "no_switch (expand): depth 0, 3 result(s), coverage 40%: the seeds do not name the founder"


def test_planner_against_one_search() -> None:
    [group] = export_dpo(runs()[4:], LABELS)
    d1, d2, d3 = group.pairs
    assert d1.chosen == ("plan:structured+structured (comparison): one step per compared entity: "
                         "q1 [structured] 2023 revenue of Apple; q2 [structured] 2023 revenue of Microsoft")
    assert d1.prompt.endswith("Options: plan:<strategies>, structured_search, semantic_search, hybrid_search, "
                              "graph_search")
    assert "Team: planner_enhanced (comparison question: one step per entity)" in d1.prompt
    assert d2.prompt.endswith(
        "3. execute_step: q2 [structured] attempt 1: empty, 0 hit(s)\n"
        "Decision D2 (continue or stop): retrieve more, or stop and answer with what was found?\n"
        "Options: continue, stop")
    assert d2.chosen == ("continue (reflect): turn 1, insufficient, coverage 50%: q2 empty: reflect on the failed "
                         "step(s); missing: Microsoft revenue")
    assert d2.rejected == "stop (rerank): 5 result(s) from hybrid search: rerank and write"
    assert "4. monitor_sufficiency chose continue (reflect)" in d3.prompt
    assert d3.prompt.endswith("Options: no_switch, switch:structured, switch:semantic, switch:hybrid, switch:graph, "
                              "switch:temporal, replan")
    assert d3.chosen.startswith("switch:semantic (switch_strategy): q2 (empty, attempt 1): switch_strategy→semantic")
    assert d3.rejected == "no_switch (rerank): 5 result(s) from hybrid search: rerank and write"


def test_continue_against_stop_at_the_same_step() -> None:
    good = build_trajectory("g", structured_relax_run())
    stopped = structured_relax_run(start=30)
    stopped["decisions"] = [*stopped["decisions"][:1],
                            stopped["decisions"][2].model_copy(update={"reason": "turn budget spent (1 of 1 searches)"})]
    stopped["searches"] = stopped["searches"][:1]
    stopped["steps"] = [*stopped["steps"][:5], stopped["steps"][8], *stopped["steps"][9:]]
    bad = build_trajectory("b", stopped)
    [group] = export_dpo([bad, good], {"g": "good", "b": "bad"})
    [pair] = group.pairs
    assert (pair.decision_point, pair.chosen_run_id, pair.rejected_run_id) == ("D2", "g", "b")
    assert pair.chosen == f"continue (relax_constraints): 0 results under {APPLE_FILTER}; relaxation 1 of 3"
    assert pair.rejected == "stop (rerank): turn budget spent (1 of 1 searches)"


def relax_then_fallback_run() -> Trajectory:
    """Structured 0, relax, structured 0 again, then the semantic fallback: its switch is its 2nd D2/D3 step."""
    out = structured_relax_run(start=30)
    fallback = RoutingDecision(action="semantic_search", reason="0 results and retries exhausted: semantic fallback")
    rerank = RoutingDecision(action="rerank", reason="2 result(s) from semantic search: rerank and write")
    steps = out["steps"]
    out |= {
        "decisions": [*out["decisions"][:2], fallback, rerank],
        "searches": [out["searches"][0], out["searches"][1].model_copy(update={"count": 0}),
                     SearchRecord(channel="semantic", filter=None, count=2, duration_ms=8.0)],
        "steps": [*steps[:8], steps[8].model_copy(update={"summary": "semantic_search: ..."}),
                  steps[7].model_copy(update={"node": "search_semantic"}), *steps[8:]],
    }
    return build_trajectory("late-switch", out)


def test_a_later_switch_is_asked_at_the_good_runs_step_at_the_same_position() -> None:
    good = build_trajectory("g", structured_relax_run())
    [group] = export_dpo([good, relax_then_fallback_run()], {"g": "good", "late-switch": "bad"})
    d2, d3 = group.pairs
    assert (d2.decision_point, d2.chosen, d2.rejected) == (
        "D2", "stop (rerank): 3 result(s) from structured search: rerank and write",
        "continue (semantic_search): 0 results and retries exhausted: semantic fallback")
    assert d3.decision_point == "D3"
    assert d3.chosen == "no_switch (rerank): 3 result(s) from structured search: rerank and write"
    assert d3.rejected == "switch:semantic (semantic_search): 0 results and retries exhausted: semantic fallback"
    assert "5. search_structured: 3 hit(s) from structured search where org == " in d3.prompt
    assert d3.prompt.endswith("Options: no_switch, switch:semantic, switch:hybrid, switch:graph")


def test_identical_runs_give_no_pairs_and_duplicates_are_kept_once() -> None:
    same = [build_trajectory("g", structured_relax_run()), build_trajectory("b", structured_relax_run(start=30))]
    assert export_dpo(same, {"g": "good", "b": "bad"}) == []
    twins = [*runs()[:2], build_trajectory("apple-bad-2", structured_fallback_run(start=40), question_id="q1")]
    [group] = export_dpo(twins, LABELS | {"apple-bad-2": "bad"})
    assert [(p.decision_point, p.rejected_run_id) for p in group.pairs] == [("D3", "apple-bad")]


def test_only_labelled_questions_with_both_kinds_are_exported() -> None:
    assert export_dpo(runs(), {"apple-good": "good", "founder-bad": "bad"}) == []
    assert export_dpo(runs(), {}) == []
    both_good = LABELS | {"apple-bad": "good"}
    assert [g.question_id for g in export_dpo(runs(), both_good)] == ["q2", "q3"]


def test_order_is_deterministic() -> None:
    expected = export_dpo(runs(), LABELS)
    shuffled = runs()
    random.Random(7).shuffle(shuffled)
    assert export_dpo(shuffled, LABELS) == expected


def test_questions_are_grouped_by_normalized_text() -> None:
    other = structured_fallback_run()
    other["question"] = f"  {APPLE_Q}？ "
    [group] = export_dpo([build_trajectory("g", structured_relax_run()), build_trajectory("b", other)],
                         {"g": "good", "b": "bad"})
    assert group.question == APPLE_Q and group.pairs[0].rejected_run_id == "b"
    assert normalize_question(" Who  founded\tTesla? ") == normalize_question("who founded tesla") == "who founded tesla"
    assert normalize_question("ＡＢＣ。") == "abc"


# -- feedback --------------------------------------------------------------------------------------


def test_load_feedback(tmp_path: Path) -> None:
    path = tmp_path / "feedback.jsonl"
    path.write_text('{"run_id": "a", "label": "good"}\n\n{"run_id": "b", "feedback": "Bad"}\n'
                    '{"run_id": "a", "label": "bad"}\n', encoding="utf-8")
    assert load_feedback(path) == {"a": "bad", "b": "bad"}  # a later line wins


@pytest.mark.parametrize(("text", "error"), [
    ('{"run_id": "a", "label": "good"}\n{"run_id": "b", "label": "meh"}\n',
     r"feedback\.jsonl:2: unknown label 'meh' for run b \(expected good or bad\)"),
    ('{"label": "good"}\n', r"feedback\.jsonl:1: missing run_id"),
    ('{"run_id": "a"}\n', r"feedback\.jsonl:1: unknown label None"),
    ('{"run_id": "a", "label": "good"}\n{"run_id": \n', r"feedback\.jsonl:2: not JSON"),
    ('["a", "good"]\n', r"feedback\.jsonl:1: expected an object"),
])
def test_bad_feedback_names_the_line(tmp_path: Path, text: str, error: str) -> None:
    path = tmp_path / "feedback.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FeedbackError, match=error):
        load_feedback(path)


def test_missing_feedback_file(tmp_path: Path) -> None:
    with pytest.raises(FeedbackError, match=r"nope\.jsonl not found"):
        load_feedback(tmp_path / "nope.jsonl")


def write_gold(path: Path) -> Path:
    """An eval set's questions.jsonl (extra keys ignored)."""
    rows = [
        {"id": "q1", "question": APPLE_Q, "answers": ["Vision Pro"], "gold_ids": ["d7", "d3"], "type": "factual"},
        {"id": "q2", "question": FOUNDER_Q, "gold_ids": ["tesla", "musk"]},
        {"question_id": "q3", "gold_ids": ["apple-10k", "msft-10k"]},
    ]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_gold_labels_on_top_k(tmp_path: Path) -> None:
    gold = load_gold(write_gold(tmp_path / "questions.jsonl"))
    assert gold[2] == GoldQuestion(question_id="q3", gold_ids=["apple-10k", "msft-10k"])
    assert label_by_gold(runs(), gold) == LABELS
    # every good run ranks its two gold documents first and second
    assert label_by_gold(runs(), gold, k=2) == LABELS
    assert set(label_by_gold(runs(), gold, k=1).values()) == {"bad"}
    partial = build_trajectory("partial", structured_relax_run(doc_ids=("d7", "d9", "d1")), question_id="q1")
    assert label_by_gold([partial], gold) == {"partial": "bad"}


def test_gold_matches_text_when_a_side_has_no_id() -> None:
    no_id = [build_trajectory("g", structured_relax_run()), build_trajectory("b", structured_fallback_run())]
    gold = [GoldQuestion(question_id="q1", question=f"{APPLE_Q} ", gold_ids=["d7", "d3"])]
    assert label_by_gold(no_id, gold) == {"g": "good", "b": "bad"}
    other_id = [build_trajectory("x", structured_relax_run(), question_id="zz")]
    assert label_by_gold(other_id, gold) == {}  # a different id is another question, even with the same text
    assert label_by_gold(no_id, [GoldQuestion(question=APPLE_Q, gold_ids=[])]) == {}  # no gold: no label


def test_bad_gold_line(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text('{"id": "q1", "gold_ids": ["a"]}\n{"gold_ids": ["b"]}\n', encoding="utf-8")
    with pytest.raises(FeedbackError, match=r"gold\.jsonl:2: needs an id"):
        load_gold(path)
    path.write_text('{"id": "q1", "gold_ids": "a"}\n', encoding="utf-8")
    with pytest.raises(FeedbackError, match=r"gold\.jsonl:1: gold_ids: Input should be a valid list"):
        load_gold(path)


# -- schema ----------------------------------------------------------------------------------------


def test_export_validates_and_a_broken_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "dpo.jsonl"
    groups = export_dpo(runs(), LABELS)
    assert write_export(groups, path) == 3
    assert len(read_export(path)) == 3
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert set(first) == {"question", "question_id", "pairs"}
    assert set(first["pairs"][0]) == {"decision_point", "prompt", "chosen", "rejected", "chosen_run_id",
                                      "rejected_run_id"}
    broken = json.loads(lines[1])
    broken["pairs"][0]["decision_point"] = "D4"
    path.write_text("\n".join([lines[0], json.dumps(broken), lines[2]]) + "\n", encoding="utf-8")
    with pytest.raises(FeedbackError, match=r"dpo\.jsonl:2: pairs\.0\.decision_point: Input should be 'D1', 'D2' or 'D3'"):
        read_export(path)
    path.write_text(lines[0] + "\n" + lines[1][:40] + "\n", encoding="utf-8")
    with pytest.raises(FeedbackError, match=r"dpo\.jsonl:2: not JSON"):
        read_export(path)


def test_pair_rules() -> None:
    pair = {"decision_point": "D2", "prompt": "p", "chosen": "stop: enough", "rejected": "continue: more",
            "chosen_run_id": "a", "rejected_run_id": "b"}
    DpoPair.model_validate(pair)
    with pytest.raises(ValidationError, match="chosen and rejected are the same"):
        DpoPair.model_validate(pair | {"rejected": "stop: enough"})
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        DpoPair.model_validate(pair | {"score": 1})
    with pytest.raises(ValidationError, match="at least 1 item"):
        DpoGroup.model_validate({"question": "q", "pairs": []})


def test_json_schema() -> None:
    schema = dpo_json_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["question", "pairs"] and schema["additionalProperties"] is False
    pair = schema["$defs"]["DpoPair"]
    assert pair["properties"]["decision_point"]["enum"] == ["D1", "D2", "D3"]
    assert pair["required"] == ["decision_point", "prompt", "chosen", "rejected", "chosen_run_id", "rejected_run_id"]


# -- command ---------------------------------------------------------------------------------------


@pytest.fixture
def logged(tmp_path: Path) -> Path:
    log = TrajectoryLog(tmp_path / "trajectories.jsonl")
    for t in runs():
        log.append(t)
    return log.path


def invoke(*args: str) -> tuple[int, str]:
    """Exit code and output, with the error panel's borders and line wrapping removed."""
    result = CliRunner().invoke(cli, ["export-dpo", *args])
    return result.exit_code, " ".join(result.output.replace("│", " ").split())


def test_cli_export_with_feedback(tmp_path: Path, logged: Path) -> None:
    feedback = tmp_path / "feedback.jsonl"
    feedback.write_text("".join(json.dumps({"run_id": r, "label": v}) + "\n" for r, v in LABELS.items()))
    out = tmp_path / "out" / "dpo.jsonl"
    code, output = invoke("--trajectories", str(logged), "--feedback", str(feedback), "--out", str(out))
    assert code == 0, output
    assert "6 trajectories, 6 labelled (3 good, 3 bad)" in output
    assert f"wrote {out}: 3 question(s), 6 pair(s): D1 2, D2 1, D3 3" in output
    assert [g.model_dump() for g in map(DpoGroup.model_validate_json, out.read_text().splitlines())] == [
        g.model_dump() for g in export_dpo(runs(), LABELS)]
    code, output = invoke("--validate", str(out))
    assert (code, output) == (0, "valid: 3 question(s), 6 pair(s): D1 2, D2 1, D3 3")


def test_cli_export_with_gold_and_k(tmp_path: Path, logged: Path) -> None:
    gold = write_gold(tmp_path / "questions.jsonl")
    out = tmp_path / "dpo.jsonl"
    code, output = invoke("--trajectories", str(logged), "--gold", str(gold), "--out", str(out))
    assert code == 0, output
    assert "D1 2, D2 1, D3 3" in output
    code, output = invoke("--trajectories", str(logged), "--gold", str(gold), "--k", "1", "--out", str(out))
    assert code == 0, output
    assert "6 labelled (0 good, 6 bad)" in output and "0 question(s), 0 pair(s): D1 0, D2 0, D3 0" in output
    assert out.read_text() == ""
    code, output = invoke("--trajectories", str(logged), "--gold", str(gold), "--mode", "graph", "--out", str(out))
    assert "0 trajectories" in output and "0 question(s)" in output


def test_cli_schema_and_invalid_export(tmp_path: Path) -> None:
    code, output = invoke("--schema")
    assert code == 0 and json.loads(output) == dpo_json_schema()
    bad = tmp_path / "dpo.jsonl"
    bad.write_text('{"question": "q", "pairs": []}\n')
    code, output = invoke("--validate", str(bad))
    assert code == 1 and "dpo.jsonl:1: pairs: List should have at least 1 item" in output


def test_cli_errors(tmp_path: Path, logged: Path) -> None:
    code, output = invoke("--trajectories", str(logged), "--out", str(tmp_path / "o.jsonl"))
    assert code == 2 and "give --feedback or --gold" in output
    code, output = invoke("--trajectories", str(tmp_path / "none.jsonl"), "--feedback", str(logged),
                          "--out", str(tmp_path / "o.jsonl"))
    assert code == 2 and "none.jsonl not found" in output
    code, output = invoke("--feedback", str(logged), "--out", str(tmp_path / "o.jsonl"))
    assert code == 2 and "--trajectories is required" in output
    code, output = invoke("--trajectories", str(logged), "--feedback", str(tmp_path / "fb.jsonl"),
                          "--out", str(tmp_path / "o.jsonl"))
    assert code == 2 and "fb.jsonl not found" in output
    feedback = tmp_path / "feedback.jsonl"
    feedback.write_text('{"run_id": "apple-good", "label": "great"}\n')
    code, output = invoke("--trajectories", str(logged), "--feedback", str(feedback), "--out", str(tmp_path / "o"))
    assert code == 2 and "feedback.jsonl:1: unknown label 'great'" in output
    assert not (tmp_path / "o").exists()
