"""The answerability fit and the calibration figures of aer eval: the logistic regression, the threshold kept
within the false "not found" budget on every set, the fixed held-aside split, ECE and the risk-coverage curve."""

from __future__ import annotations

import numpy as np

from app.tools.calibration import calibration, ece, plot, risk_coverage
from app.tools.fit_answerability import Example, choose_threshold, fit, held_aside, predict, rates, validate


def test_the_fit_separates_what_the_features_separate() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.1 * rng.normal(size=400) > 0).astype(float)
    model = fit(x, y)
    p = predict(model, x)
    assert ((p > 0.5) == (y == 1)).mean() > 0.9
    assert abs(model[2][0]) > 5 * abs(model[2][1])  # the informative feature carries the weight


def test_the_threshold_keeps_false_not_found_within_budget_on_every_set() -> None:
    p = np.array([0.9, 0.8, 0.7, 0.2, 0.1, 0.35, 0.3, 0.25, 0.05, 0.6])
    y = np.array([1, 1, 1, 0, 0, 1, 1, 1, 0, 0])
    groups = ["a"] * 5 + ["b"] * 5
    t = choose_threshold(p, y, groups, max_false=0.0)
    for g in ("a", "b"):
        mask = np.array(groups) == g
        assert rates(p[mask], y[mask], t)["false_not_found"] == 0.0
    assert t <= 0.25


def test_the_held_aside_split_is_fixed() -> None:
    ids = [f"q{i}" for i in range(500)]
    aside = [i for i in ids if held_aside(i)]
    assert aside == [i for i in ids if held_aside(i)]
    assert 120 < len(aside) < 180  # 30 %, as aer eval's all · held tables


def test_the_held_aside_split_is_the_one_the_eval_tables_report() -> None:
    import hashlib

    ids = [f"x{i}" for i in range(300)]
    assert [i for i in ids if held_aside(i)] == [
        i for i in ids if int(hashlib.sha256(i.encode()).hexdigest()[:8], 16) % 100 < 30]


def test_own_file_sets_are_left_out_with_their_family_and_public_sets_alone() -> None:
    from app.tools.fit_answerability import OWN_FILES, family, is_own, threshold_group

    assert family("blind16b") == family("blind14") == "blind"
    assert family("absent_attribute8") == "absent_attribute" and family("xlang_own5") == "xlang_own"
    assert family("rgb_zh_reject_dev") == "rgb_zh_reject_dev" and not is_own("hotpotqa_sample")
    assert is_own("newuser11") and is_own("span_own")
    assert threshold_group("roles_own") == threshold_group("multihop_own3") == OWN_FILES
    assert threshold_group("cmrc2018_trial") == "cmrc2018_trial"


def test_every_own_file_set_of_the_tests_is_in_an_own_family() -> None:
    """A new own-file set (kinds_own, names_own, who_own, dates_own2 were not) is an own-file fold with its 'held'
    split and the own-file threshold group, not a public set split by hash and held to its own budget."""
    from pathlib import Path

    from app.tools.fit_answerability import OWN_FILES, is_own, threshold_group

    data = Path(__file__).resolve().parents[2] / "data"
    sets = [d.name for d in sorted(data.iterdir()) if (d / "questions.jsonl").is_file()
            and not (d / "corpus.jsonl").is_file()]
    assert len(sets) > 40
    outside = [s for s in sets if s != "llm_trial" and not is_own(s)]
    assert outside == []
    assert all(threshold_group(s) == OWN_FILES for s in sets if s != "llm_trial")


def test_leave_one_dataset_out_leaves_a_family_out_whole() -> None:
    rng = np.random.default_rng(3)
    examples = [Example(ds, f"{ds}{i}", i % 2, False, {"lexical": i % 2 + 0.3 * float(rng.normal())})
                for ds in ("blind14", "blind15", "hotpotqa_sample", "cmrc2018_trial") for i in range(40)]
    table = validate(examples, ["lexical"])
    assert set(table) == {"blind", "hotpotqa_sample", "cmrc2018_trial"}
    assert table["blind"]["dev"]["n"] == 80


def test_an_own_file_set_gives_its_not_found_questions_and_keeps_its_own_split(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    from app.tools.fit_answerability import _sample

    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "kiln.md").write_text("# Kiln log\n\nThe kiln was fired on 3 May by Ilse Varga.\n")
    rows = [{"id": "k1", "question": "Who fired the kiln?", "answers": ["Ilse Varga"], "files": ["kiln.md"],
             "split": "dev"},
            {"id": "k2", "question": "How hot did the kiln get?", "answers": [], "notFound": True, "split": "held"},
            {"id": "k3", "question": "Was the kiln fired in May?", "answers": ["yes"], "files": ["kiln.md"],
             "split": "dev"}]
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    picked = {q.id: q for q in _sample(tmp_path, 50)}
    assert set(picked) == {"k1", "k2"}  # a yes/no question keeps its own rules
    assert picked["k2"].not_found and picked["k2"].held and not picked["k1"].not_found and not picked["k1"].held


def test_leave_one_dataset_out_measures_each_set_with_a_model_fitted_on_the_others() -> None:
    rng = np.random.default_rng(1)
    examples = []
    for ds in ("a", "b", "c"):
        for i in range(60):
            label = i % 2
            examples.append(Example(ds, f"{ds}{i}", label, held_aside(f"{ds}{i}"),
                                    {"lexical": label + 0.3 * float(rng.normal()), "similarity": 0.5}))
    table = validate(examples, ["lexical", "similarity"])
    assert set(table) == {"a", "b", "c"}
    assert all(row["dev"]["auroc"] > 0.9 for row in table.values())


def test_ece_and_the_risk_coverage_curve() -> None:
    assert ece(np.array([0.9, 0.9, 0.1, 0.1]), np.array([1, 1, 0, 0])) < 0.11
    assert ece(np.array([0.9, 0.9]), np.array([0, 0])) > 0.8
    curve = risk_coverage(np.array([0.9, 0.8, 0.3]), np.array([1, 0, 0]))
    assert [pt["coverage"] for pt in curve] == [round(1 / 3, 4), round(2 / 3, 4), 1.0]
    assert [pt["risk"] for pt in curve] == [0.0, 0.5, round(2 / 3, 4)]


def test_calibration_of_eval_rows_counts_unanswerable_answers_as_wrong(tmp_path) -> None:  # type: ignore[no-untyped-def]
    answerable = [{"answerability": 0.9, "contained": 1.0}, {"answerability": 0.6, "contained": 0.0}]
    unanswerable = [{"answerability": 0.7, "contained": 0.0}, {"answerability": 0.1}]
    out = calibration(answerable, unanswerable)
    assert out["questions"] == 4 and out["risk_coverage"][0] == {"threshold": 0.9, "coverage": 0.25, "risk": 0.0}
    assert out["risk_coverage"][-1]["risk"] == 0.75
    png = plot(out, tmp_path / "rc.png", "set")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_an_abstained_answerable_question_counts_as_right_for_the_score() -> None:
    # abstaining on an answerable question is a miss of coverage, not an answer wrongly given
    out = calibration([{"answerability": 0.2, "abstained": 1.0, "contained": 0.0}], [{"answerability": 0.1}])
    assert out["risk_coverage"][0] == {"threshold": 0.2, "coverage": 0.5, "risk": 0.0}


def test_examples_the_rules_refuse_score_zero_and_are_not_fitted_on() -> None:
    from app.tools.fit_answerability import fit_on, gates

    examples = [Example("a", f"a{i}", i % 2, False, {"lexical": float(i % 2)}) for i in range(40)]
    examples.append(Example("a", "ruled", 1, False, {"lexical": 1.0}, ruled=True))
    assert gates(examples).tolist() == [False] * 40 + [True]
    model, threshold = fit_on(examples, ["lexical"])
    x = np.array([[1.0], [1.0]])
    assert predict(model, x, np.array([False, True])).tolist()[1] == 0.0 and 0 < threshold < 1


def test_a_snapshot_replays_to_the_features_the_collection_computed() -> None:
    """The fit re-derives every feature from what it saved (question, analysis, ranked passages, similarities):
    a feature added later is computed on the same examples without running the graph or the embedder again."""
    import json

    from app.tools.fit_answerability import replay, snapshot
    from graphs.rag.answer.calibration import judge
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import question_of
    from graphs.text.answer_types import expected_answer
    from graphs.text.query_analysis import analyze_query
    from tests.support.fakes import TODAY, gazetteer_of, hit

    text = "How many runners finished the 2023 Riverton Marathon?"
    hits = [hit("race#0", "In 2021, 4,200 runners finished the Riverton Marathon.", title="Riverton Marathon")]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    sims = {"In 2021, 4,200 runners finished the Riverton Marathon.": 0.71}
    row = json.loads(json.dumps(snapshot("set", "q1", 0, text, parsed, [], hits, sims, False)))
    q = question_of(text, expected_answer(text), parsed, []).about(hits)
    expected = judge(q, hits, find_evidence(q, hits), sims).features
    replayed = replay(row)
    assert replayed.features == expected and replayed.label == 0 and replayed.dataset == "set"
    assert replayed.features["similarity"] == 0.71 and replayed.features["qualifier_conflict"] == 1.0


def test_the_unanswerable_example_drops_every_passage_that_states_the_answer_and_refills_from_deeper() -> None:
    """Not only the gold passages: another passage that states the gold answer would make the "negative" an
    answerable example; the passages ranked below move up so the example keeps a full top 5."""
    from types import SimpleNamespace

    from app.tools.eval import FULL_TOP_K
    from app.tools.fit_answerability import negatives
    from tests.support.fakes import hit

    ranked = [hit("g1#0", "青石大桥全长1260米，2009年通车。"),  # gold
              hit("echo#0", "报道称，青石大桥全长1260米。"),  # not gold, states the answer
              *(hit(f"n{i}#0", f"青石大桥第{i}次检修于周末进行。") for i in range(8))]
    q = SimpleNamespace(gold_ids=["g1"], answers=["1260米"])
    left = negatives(ranked, q)
    assert [h.doc_id for h in left] == [f"n{i}" for i in range(FULL_TOP_K)]


def test_a_replay_reads_only_the_similarities_the_runtime_computes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A snapshot collected under a larger sentence cap holds similarities of sentences the runtime never embeds
    (SIMILARITY_SENTENCES): the replay leaves them out, so the fit reads what the runtime will read. A collection
    stopped midway leaves a cut last line: skipped."""
    import json

    from app.tools.fit_answerability import replay, snapshot, snapshot_rows
    from graphs.rag.answer.calibration import SIMILARITY_SENTENCES, candidate_sentences
    from graphs.rag.answer.evidence import find_evidence
    from graphs.rag.answer.question import question_of
    from graphs.text.answer_types import expected_answer
    from graphs.text.query_analysis import analyze_query
    from tests.support.fakes import TODAY, gazetteer_of, hit

    text = "How long is the Ostrava ring road?"
    hits = [hit(f"road#{i}", f"The Ostrava ring road section {i} was opened in {2001 + i} and is {10 + i} km long.",
                title=f"Ostrava ring road {i}") for i in range(5)]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    q = question_of(text, expected_answer(text), parsed, []).about(hits)
    embedded = candidate_sentences(find_evidence(q, hits))
    assert len(embedded) == SIMILARITY_SENTENCES
    sims = {h.text: 0.5 for h in hits} | {t: 0.6 for t in embedded}
    unseen = next(h.text for h in hits if h.text not in embedded)
    sims[unseen] = 0.99  # a sentence the runtime never embeds: it must not set the feature
    row = snapshot("set", "q1", 1, text, parsed, [], hits, sims, False)
    path = tmp_path / "snap.jsonl"
    line = json.dumps(row, ensure_ascii=False)
    path.write_text(line + "\n" + line[: len(line) // 2], encoding="utf-8")
    rows = snapshot_rows(path)
    assert len(rows) == 1
    replayed = replay(rows[0]).features
    assert replayed["similarity"] == 0.6 and replayed["similarity_margin"] == 0.0  # not 0.6 − 0.99


def test_the_similarity_ships_only_if_no_left_out_set_gets_worse() -> None:
    from app.tools.fit_answerability import regressions

    def table(fnf: float, nf: float, e: float) -> dict[str, object]:
        return {"held_aside": {"false_not_found": fnf, "not_found_unanswerable": nf, "ece": e}}

    without = {"a": table(0.10, 0.80, 0.10), "b": table(0.05, 0.90, 0.20)}
    assert regressions({"a": table(0.11, 0.79, 0.12), "b": table(0.0, 0.95, 0.15)}, without) == []
    assert regressions({"a": table(0.13, 0.80, 0.10), "b": table(0.05, 0.87, 0.23)}, without) == [
        "a: false_not_found 0.100 → 0.130", "b: not_found_unanswerable 0.900 → 0.870", "b: ece 0.200 → 0.230"]


def test_an_example_the_rules_with_the_score_refuse_is_gated_as_the_runtime_gates_it() -> None:
    """``ruled_out`` runs with the score at runtime (the lexicon's attribute stated nowhere in the passage): such an
    example scores 0 whatever the weights, so the fit must not read it, as it does not read ``assess``'s refusals."""
    from app.tools.fit_answerability import refused_before_score
    from graphs.rag.answer.calibration import judge
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.answers import question
    from tests.support.fakes import hit

    mill = hit("mill#0", "Tarrow Mill was founded in 1872 beside the river weir and grinds spelt and rye.",
               title="Tarrow Mill")
    for text, refused in (("What is the stock code of Tarrow Mill?", True), ("When was Tarrow Mill founded?", False)):
        q = question(text, [mill])
        evidence = find_evidence(q, [mill])
        assert refused_before_score(q, [mill], evidence, judge(q, [mill], evidence, {})) is refused, text


def test_a_feature_rare_in_the_fitted_material_moves_the_score_no_more_than_a_common_one() -> None:
    # "the other language" holds on 2 of 400 fitted examples, both refused: unfloored it stands ~14 spreads out
    # wherever it holds and sends every such example to ~0; floored, it pulls as far as its weight over the floor
    rng = np.random.default_rng(1)
    coverage = rng.uniform(size=400)
    y = (coverage + 0.2 * rng.normal(size=400) > 0.5).astype(float)
    rare = np.zeros(400)
    negatives = np.flatnonzero(y == 0)
    rare[negatives[np.argsort(-coverage[negatives])[:2]]] = 1.0  # the best covered of the refused
    x = np.column_stack([coverage, rare])
    crossing = np.array([[0.9, 1.0]])  # well covered, in the other language
    unfloored = predict(fit(x, y, floor=0.0), crossing)[0]
    floored = predict(fit(x, y), crossing)[0]
    assert unfloored < 0.1 and floored > unfloored + 0.25


def test_each_group_weighs_the_same_in_the_fit() -> None:
    from app.tools.fit_answerability import balanced

    w = balanced(["public"] * 30 + ["own files"] * 10)
    assert abs(w[:30].sum() - w[30:].sum()) < 1e-9
    assert abs(w.mean() - 1.0) < 1e-9
    # a group of many examples whose feature points one way no longer outvotes a small group where it points the
    # other: the weighted fit leaves the feature near zero instead of carrying the big group's sign
    x = np.array([[1.0]] * 30 + [[0.0]] * 30 + [[1.0]] * 10 + [[0.0]] * 10)
    y = np.array([1.0] * 27 + [0.0] * 3 + [1.0] * 3 + [0.0] * 27 + [1.0] * 1 + [0.0] * 9 + [1.0] * 9 + [0.0] * 1)
    groups = ["public"] * 60 + ["own files"] * 20
    plain = fit(x, y)[2][0]
    even = fit(x, y, weights=balanced(groups))[2][0]
    assert plain > 0 and abs(even) < plain / 2


def _replayed_with(text: str, passages: list[tuple[str, str]], answers: list[str], label: int = 1) -> Example:
    import json

    from app.tools.fit_answerability import replay, snapshot
    from graphs.text.query_analysis import analyze_query
    from tests.support.fakes import TODAY, gazetteer_of, hit

    hits = [hit(f"{doc}#0", sentence, title=doc) for doc, sentence in passages]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    row = snapshot("set", "q1", label, text, parsed, [], hits, {}, False, answers=answers)
    return replay(json.loads(json.dumps(row, ensure_ascii=False)))


def test_an_answerable_example_is_labelled_by_the_line_the_writer_chooses_not_by_the_gold_nearby() -> None:
    """The gold in the top passages does not make an example one to answer: the line the extractive writer would
    give must state it. The same passages are a positive for the gold the chosen line states and a negative for a
    gold another passage states (answering it gives a wrong answer); the label by retrieval stays alongside."""
    english = ("What is the deposit for a kayak at Lakeside Rentals?",
               [("kayaks", "The deposit for a kayak at Lakeside Rentals is 50 euros."),
                ("boards", "At Lakeside Rentals paddle boards cost 80 euros a day.")])
    chinese = ("湖畔租赁的皮划艇押金是多少？",
               [("kayaks", "湖畔租赁的皮划艇押金为300元。"),
                ("boards", "湖畔租赁的桨板每天租金为120元。")])
    for (text, passages), stated, elsewhere in ((english, "50 euros", "80 euros"), (chinese, "300元", "120元")):
        right = _replayed_with(text, passages, [stated])
        wrong = _replayed_with(text, passages, [elsewhere])
        assert (right.label, right.chosen) == (1, 1)
        assert (wrong.label, wrong.chosen) == (1, 0)
        assert right.features == wrong.features  # the same question over the same passages: only the label moves


def test_an_unanswerable_example_stays_negative_and_one_without_gold_forms_keeps_the_retrieved_label() -> None:
    from app.tools.fit_answerability import labelled

    passages = [("kayaks", "The deposit for a kayak at Lakeside Rentals is 50 euros.")]
    negative = _replayed_with("What is the deposit for a kayak at Lakeside Rentals?", passages, [], label=0)
    unlabelled = _replayed_with("What is the deposit for a kayak at Lakeside Rentals?", passages, [])
    assert negative.chosen == 0 and unlabelled.chosen is None
    wrong = _replayed_with("What is the deposit for a kayak at Lakeside Rentals?", passages, ["65 euros"])
    by_line, kept = labelled([negative, unlabelled, wrong], "chosen")
    assert [e.label for e in by_line] == [0, 1, 0] and kept == 1
    by_retrieval, kept = labelled([negative, unlabelled, wrong], "retrieved")
    assert [e.label for e in by_retrieval] == [0, 1, 1] and kept == 0
