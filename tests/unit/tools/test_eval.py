"""Eval metrics, answer scoring, mode parsing, report rendering and the content-hash reuse logic."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer

from app.settings import Settings
from app.tools.eval import (
    MODES,
    EvalQuestion,
    Outcome,
    answer_tokens,
    clean_prediction,
    contains_answer,
    doc_ranking,
    eval_data_dir,
    eval_settings,
    exact_match,
    f1_score,
    fingerprint,
    hit_at_k,
    index_params,
    normalize_answer,
    parse_modes,
    prepare_index,
    read_manifest,
    recall_at_k,
    reciprocal_rank,
    removed_passages,
    score_question,
    states_answer,
    summarize_mode,
    write_manifest,
)
from app.tools.eval_report import render_markdown, write_outputs


def test_doc_ranking_dedupes_chunks_keeping_first_rank() -> None:
    assert doc_ranking(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("ranked", "gold", "k", "expected"),
    [
        (["a", "b", "c"], ["a", "c"], 2, 0.5),
        (["a", "b", "c"], ["a", "c"], 5, 1.0),
        (["x", "y"], ["a"], 5, 0.0),
        ([], ["a"], 2, 0.0),
        (["a"], [], 2, 0.0),
        (["a", "b"], ["b", "b"], 1, 0.0),
    ],
)
def test_recall_at_k(ranked: list[str], gold: list[str], k: int, expected: float) -> None:
    assert recall_at_k(ranked, gold, k) == expected


@pytest.mark.parametrize(
    ("ranked", "expected"),
    [(["g"], 1.0), (["x", "g"], 0.5), (["x", "y", "g", "g2"], 1 / 3), (["x"] * 9 + ["g"], 0.1), (["x"] * 10 + ["g"], 0.0)],
)
def test_reciprocal_rank_counts_the_first_gold_within_ten(ranked: list[str], expected: float) -> None:
    assert reciprocal_rank(ranked, {"g", "g2"}) == pytest.approx(expected)


def test_normalize_answer_is_squad_style() -> None:
    assert normalize_answer("The  Eiffel-Tower, in Paris!") == "eiffel tower in paris"
    assert normalize_answer("Ａ１２３") == "a123"  # full width folded


def test_tokens_are_words_in_english_and_characters_in_chinese() -> None:
    assert answer_tokens("An apple a day") == ["apple", "day"]
    assert answer_tokens("《泡泡堂》4分钟") == ["泡", "泡", "堂", "4", "分", "钟"]
    assert answer_tokens("iPhone 15发布") == ["iphone", "15", "发", "布"]


@pytest.mark.parametrize(
    ("prediction", "answers", "em", "f1"),
    [
        ("the Eiffel Tower", ["Eiffel Tower"], 1.0, 1.0),
        ("Paris", ["London", "paris."], 1.0, 1.0),
        ("in Paris France", ["Paris"], 0.0, 0.5),
        ("Berlin", ["Paris"], 0.0, 0.0),
        ("", ["Paris"], 0.0, 0.0),
        ("", [""], 1.0, 1.0),
        ("踢爆", ["踢爆"], 1.0, 1.0),
        ("4 分钟。", ["4分钟"], 1.0, 1.0),
        ("大约4分钟", ["4分钟"], 0.0, 0.75),
        ("盛大游戏", ["盛大网络"], 0.0, 0.5),
        ("anything", [], 0.0, 0.0),
    ],
)
def test_exact_match_and_f1(prediction: str, answers: list[str], em: float, f1: float) -> None:
    assert exact_match(prediction, answers) == em
    assert f1_score(prediction, answers) == pytest.approx(f1)


def test_clean_prediction_drops_citation_markers() -> None:
    assert clean_prediction("It was finished in 1889 [1][2].") == "It was finished in 1889 ."


def test_parse_modes_accepts_repeats_and_commas() -> None:
    assert parse_modes(None) == list(MODES)
    assert parse_modes(["bm25,dense", "Dense", "full"]) == ["bm25", "dense", "full"]
    with pytest.raises(typer.BadParameter, match="unknown mode"):
        parse_modes(["bm25,sparse"])


@pytest.mark.parametrize(("ranked", "gold", "expected"), [
    (["x", "y", "a"], ["a", "b"], 1.0),  # one of two positives is enough
    (["x", "y", "z", "w", "v", "a"], ["a"], 0.0),  # sixth is outside the top 5
    (["x"], [], 0.0),
])
def test_hit_at_5_counts_any_positive(ranked: list[str], gold: list[str], expected: float) -> None:
    assert hit_at_k(ranked, gold, 5) == expected


def _question(**kw: Any) -> EvalQuestion:
    return EvalQuestion(id="q", question="?", answers=["Paris"], gold_ids=["a", "b"], type="bridge").model_copy(update=kw)


def test_score_question_scores_answers_only_when_asked() -> None:
    out = Outcome(docs=["a", "x", "b"], latency_ms=3.0, answer="Paris [1]", route="hybrid_search")
    row = score_question(_question(), out, score_answers=False)
    assert (row["recall@2"], row["recall@5"], row["mrr"]) == (0.5, 1.0, 1.0)
    assert "em" not in row and row["route"] == "hybrid_search"
    scored = score_question(_question(), out, score_answers=True)
    assert (scored["em"], scored["f1"]) == (1.0, 1.0)
    assert "em" not in score_question(_question(answers=[]), out, score_answers=True)


def test_summarize_mode_averages_and_counts_routes() -> None:
    rows = [
        score_question(_question(), Outcome(["a", "b"], 10.0, route="hybrid_search"), False),
        score_question(_question(type="comparison"), Outcome(["x"], 30.0, llm_calls=2, route="structured_search",
                                                             relaxations=1), False),
    ]
    s = summarize_mode(rows, wall_s=1.0)
    assert (s["recall@2"], s["mrr@10"], s["em"], s["llm_calls_per_question"]) == (0.5, 0.5, None, 1.0)
    assert s["hit@5"] == 0.5  # the first question has a gold passage in its top 5, the second none
    assert s["latency_ms"] == {"p50": 20.0, "p95": 29.0, "mean": 20.0}
    assert s["routes"] == {"hybrid_search": 1, "structured_search": 1}
    assert s["relaxations"] == {"0": 1, "1": 1}
    assert s["by_type"]["comparison"] == {"questions": 1, "recall@2": 0.0, "recall@5": 0.0, "mrr@10": 0.0}


def test_graph_route_counts_hops_and_expansion_llm_calls_per_question() -> None:
    rows = [
        score_question(_question(), Outcome(["a"], 10.0, route="hybrid_search"), False),
        score_question(_question(), Outcome(["a"], 10.0, llm_calls=3, route="graph_search", expansion_llm_calls=1,
                                            hops=1), False),
        score_question(_question(), Outcome(["a"], 10.0, llm_calls=2, route="graph_search", expansion_llm_calls=0,
                                            hops=0), False),
    ]
    g = summarize_mode(rows, wall_s=1.0)["graph_route"]
    assert g == {"questions": 2, "hops": {"0": 1, "1": 1}, "expansion_llm_calls_per_question": round(1 / 3, 3)}
    report = _report()
    report["modes"]["full"] = summarize_mode(rows, 0.3)
    assert "full: graph route for 2 question(s) (0 hop(s) 1, 1 hop(s) 1); expansion LLM calls per question 0.33" \
        in render_markdown(report)


def test_teams_are_counted_with_their_llm_calls_and_recall() -> None:
    rows = [
        score_question(_question(), Outcome(["a", "b"], 10.0, llm_calls=4, route="rerank", team="planner_enhanced"),
                       False),
        score_question(_question(), Outcome(["x"], 10.0, llm_calls=2, route="hybrid_search",
                                            team="executor_inclusive"), False),
        score_question(_question(), Outcome(["a"], 10.0, llm_calls=0, route="structured_search",
                                            team="executor_inclusive"), False),
    ]
    teams = summarize_mode(rows, 0.1)["teams"]
    assert teams == {"executor_inclusive": {"questions": 2, "llm_calls_per_question": 1.0, "recall@5": 0.25},
                     "planner_enhanced": {"questions": 1, "llm_calls_per_question": 4.0, "recall@5": 1.0}}
    report = _report()
    report["modes"]["full"] = summarize_mode(rows, 0.3)
    assert "full: teams: executor_inclusive 2 (LLM calls/q 1.00, R@5 0.250); planner_enhanced 1" in render_markdown(report)


def _report() -> dict[str, Any]:
    rows = [score_question(_question(), Outcome(["a", "b"], 10.0, route="hybrid_search"), False)]
    return {
        "dataset": "tiny", "created": "2026-01-01T00:00:00+00:00", "wall_s": 1.0,
        "config": {"embedder": "e", "chunk_size": 800, "chunk_overlap": 100, "llm": None, "full_top_k": 5},
        "corpus": {"documents": 2, "chunks": 2, "reused": True, "ingest_s": None},
        "questions": {"total": 1, "evaluated": 1},
        "modes": {"bm25": summarize_mode(rows, 0.1), "full": summarize_mode(rows, 0.2)},
        "notes": ["EM/F1 not computed: no LLM configured"],
    }


def test_render_markdown_has_one_row_per_mode_and_nulls_as_dashes() -> None:
    md = render_markdown(_report())
    assert "| bm25 | 1.000 | 1.000 | 1.000 | 1.000 | – | – | 10.0 | 10.0 |" in md  # R@2, R@5, hit@5, MRR
    assert "| full |" in md and "first route hybrid_search 1" in md and "no LLM configured" in md


def test_write_outputs_writes_json_markdown_details_and_chart(tmp_path: Path) -> None:
    paths = write_outputs(_report(), {"bm25": [{"id": "q"}]}, tmp_path / "out")
    assert sorted(p.name for p in paths) == sorted(
        ["eval-tiny.json", "eval-tiny.md", "eval-tiny-questions.jsonl", "eval-tiny.png"]
    )
    assert json.loads((tmp_path / "out" / "eval-tiny.json").read_text())["modes"]["full"]["em"] is None
    assert (tmp_path / "out" / "eval-tiny.png").read_bytes()[:4] == b"\x89PNG"


# -- content-hash reuse ------------------------------------------------------------------------


def _corpus(folder: Path, text: str = "hello") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "corpus.jsonl"
    path.write_text(json.dumps({"id": "d1", "title": "T", "text": text, "metadata": {}}) + "\n", encoding="utf-8")
    return path


def test_fingerprint_changes_with_corpus_embedder_and_chunking(tmp_path: Path) -> None:
    corpus = _corpus(tmp_path / "a")
    params = {"embedder": "use", "chunk_size": 800, "chunk_overlap": 100}
    base = fingerprint(corpus, params)
    assert base == fingerprint(_corpus(tmp_path / "b"), dict(reversed(params.items())))
    assert len(base) == 12
    assert fingerprint(_corpus(tmp_path / "c", "hello!"), params) != base
    assert fingerprint(corpus, params | {"embedder": "openai"}) != base
    assert fingerprint(corpus, params | {"chunk_size": 500}) != base


def test_index_params_name_the_embedder_and_chunking() -> None:
    use = index_params(Settings(_env_file=None, embedding_provider="use"))  # type: ignore[call-arg]
    assert use["embedder"] == "use-multilingual-v3"
    assert isinstance(use["chunk_size"], int) and isinstance(use["chunk_overlap"], int)
    openai = Settings(_env_file=None, embedding_provider="openai", embedding_model="m")  # type: ignore[call-arg]
    assert index_params(openai)["embedder"] == "m"


def test_eval_settings_use_own_lite_file_never_the_service_stores(tmp_path: Path) -> None:
    base = Settings(_env_file=None, data_dir=tmp_path, milvus_uri="http://milvus:19530", redis_url="redis://r")  # type: ignore[call-arg]
    folder = eval_data_dir(tmp_path, "ds", "abc")
    s = eval_settings(base, folder)
    assert folder == tmp_path / "eval" / "ds-abc"
    assert (s.milvus_target(), s.redis_url, s.sqlite_path().parent) == (str(folder / "milvus.db"), None, folder)


def test_manifest_is_read_only_for_the_same_fingerprint(tmp_path: Path) -> None:
    assert read_manifest(tmp_path, "abc") is None
    write_manifest(tmp_path, {"fingerprint": "abc", "chunks": 3})
    assert read_manifest(tmp_path, "abc") == {"fingerprint": "abc", "chunks": 3}
    assert read_manifest(tmp_path, "def") is None
    (tmp_path / "manifest.json").write_text("{broken", encoding="utf-8")
    assert read_manifest(tmp_path, "abc") is None


class _CountingEmbedder:
    """Embeds a text as its length; counts the passages it embedded."""

    name = "counting"
    dimension = 2

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += texts
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [float(len(text)), 1.0]


class _FakeResources:
    """Just enough of Resources for prepare_index: an index that counts, an ingestor that embeds, close()."""

    def __init__(self, settings: Settings, stored: dict[Path, int]) -> None:
        self.settings = settings
        self.stored = stored
        self.context = self
        self.index = self
        self.ingestor = self
        self.embedder = _CountingEmbedder()
        self.closed = False

    def count(self, filter: str | None = None) -> int:
        return self.stored.get(self.settings.data_dir, 0)

    def ingest(self, docs: list[Any], progress: Any = None) -> Any:
        self.embedder.embed_documents([d.text for d in docs])
        self.stored[self.settings.data_dir] = len(docs)
        return type("Report", (), {"documents": len(docs), "chunks": len(docs)})()

    def close(self) -> None:
        self.closed = True


def test_prepare_index_ingests_once_then_reuses_until_the_corpus_changes(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny"
    _corpus(dataset)
    settings = Settings(_env_file=None, data_dir=tmp_path / "data")  # type: ignore[call-arg]
    stored: dict[Path, int] = {}  # chunks in each eval folder's index
    opened: list[_FakeResources] = []
    logs: list[str] = []

    def opener(s: Settings) -> Any:
        opened.append(_FakeResources(s, stored))
        return opened[-1]

    def prepare(**kw: Any) -> Any:
        return prepare_index(dataset, settings, log=logs.append, opener=opener, **kw)

    first = prepare()
    assert not first.reused and stored == {first.folder: 1}
    assert first.folder.parent == tmp_path / "data" / "eval" and first.folder.name.startswith("tiny-")
    assert opened[-1].settings.data_dir == first.folder and (first.folder / "manifest.json").is_file()
    second = prepare()
    assert second.reused and second.folder == first.folder and len(opened) == 2
    assert logs[-1].startswith("reused eval index")

    stored[first.folder] = 99  # the index no longer matches its manifest: ingest again
    third = prepare()
    assert not third.reused and opened[-2].closed and stored[first.folder] == 1
    assert prepare(reingest=True).reused is False

    _corpus(dataset, "changed text")
    fourth = prepare()
    assert not fourth.reused and fourth.folder != first.folder


def test_eval_ingest_reuses_passage_vectors_across_reingests(tmp_path: Path) -> None:
    dataset = tmp_path / "tiny"
    _corpus(dataset)
    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        eval_vector_cache=tmp_path / "vectors")
    opened: list[_FakeResources] = []
    logs: list[str] = []

    def opener(s: Settings) -> Any:
        opened.append(_FakeResources(s, {}))
        return opened[-1]

    prepare_index(dataset, settings, log=logs.append, opener=opener)
    assert len(opened[-1].embedder.embedded) == 1 and any(p.name.endswith(".vectors.npy")
                                                         for p in (tmp_path / "vectors").iterdir())
    prepare_index(dataset, settings, log=logs.append, opener=opener, reingest=True)
    assert opened[-1].embedder.embedded == []  # the same chunk text: its vector comes from the cache
    assert "1 from the cache, 0 embedded" in " ".join(logs)
    _corpus(dataset, "changed text")
    prepare_index(dataset, settings, log=logs.append, opener=opener)
    assert opened[-1].embedder.embedded == ["changed text"]  # a changed text misses
    assert opened[-1].ingestor.embedder is opened[-1].embedder  # the service's embedder is put back


def test_the_answerability_score_is_recorded_and_its_calibration_reported() -> None:
    from app.tools.eval import calibration_of

    out = Outcome(docs=["a"], latency_ms=1.0, answer="Paris [1]", route="hybrid_search", answerability=0.8,
                  features={"coverage": 0.9})
    row = score_question(_question(), out, score_answers=False)
    assert row["answerability"] == 0.8 and row["features"] == {"coverage": 0.9}
    gone = {"answerability": 0.3, "abstained": 0.0, "contained": 0.0}
    calibrated = calibration_of({"full": [row], "unanswerable:full": [gone], "bm25": [{"id": "q"}]})
    assert set(calibrated) == {"full"} and calibrated["full"]["questions"] == 2
    report = {**_report(), "calibration": calibrated}
    assert "| full | 2 |" in render_markdown(report) and "ECE" in render_markdown(report)


def test_the_held_aside_part_is_reported_apart_from_the_tuning_part() -> None:
    from app.tools.dense_recall import held_aside

    ids = [f"q{n}" for n in range(40)]
    held = [i for i in ids if held_aside(i)]
    assert held and len(held) < len(ids)
    # every held-aside question finds its gold passage, every tuning question misses it
    rows = [score_question(_question(id=i), Outcome(["a"] if i in held else ["x"], 1.0), False) for i in ids]
    parts = summarize_mode(rows, wall_s=1.0)["parts"]
    assert parts["held_aside"]["questions"] == len(held) and parts["tuning"]["questions"] == len(ids) - len(held)
    assert parts["held_aside"]["hit@5"] == 1.0 and parts["tuning"]["hit@5"] == 0.0


@pytest.mark.parametrize(("text", "answers", "expected"), [
    ("当地时间14日，渡轮恢复通航。", ["5月14日"], True),  # the day without its month
    ("５月１４日渡轮恢复通航", ["5月14日"], True),  # full width
    ("4月14日渡轮停航检修", ["5月14日"], False),  # another month's 14th
    ("全年GDP增长4%，好于预期。", ["4%"], True),  # a number inside a word
    ("失业率为14%。", ["4%"], False),  # not inside a longer number
    ("全年客流1,260,300人次", ["1260300人次"], True),  # thousands separators
    ("总投资2.35亿，由市财政承担。", ["2.35亿元"], True),  # the number with its magnitude, the unit left out
    ("The ferry resumed on May 14 after repairs.", ["May 14, 2024"], True),
    ("The ferry resumed on May 4 after repairs.", ["May 14, 2024"], False),
])
def test_the_unanswerable_protocol_finds_a_gold_answer_written_otherwise(text: str, answers: list[str],
                                                                         expected: bool) -> None:
    assert states_answer(text, answers) is expected


def test_the_unanswerable_protocol_removes_every_passage_that_states_a_gold_answer(tmp_path: Path) -> None:
    docs = [{"id": "gold", "title": "渡轮", "text": "5月14日，渡轮恢复通航。"},
            {"id": "leak", "title": "新闻", "text": "当地时间14日，渡轮恢复通航。"},
            {"id": "other", "title": "新闻", "text": "渡轮公司发布了夏季时刻表。"}]
    (tmp_path / "corpus.jsonl").write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                                           encoding="utf-8")
    picked = [_question(question="渡轮什么时候恢复通航？", answers=["5月14日"], gold_ids=["gold"])]
    assert removed_passages(tmp_path, picked) == {"gold", "leak"}
    assert removed_passages(tmp_path, picked, "gold-ids") == {"gold"}


def test_a_number_is_one_token_however_it_is_written() -> None:
    # a Chinese numeral and its digits are the same answer; a number glued to Latin letters ("GDP3%") is still
    # the number; both sides are folded alike
    assert answer_tokens("八强") == ["8", "强"]
    assert answer_tokens("二十三人") == ["23", "人"]
    assert answer_tokens("二〇一九年") == ["2019", "年"]
    assert contains_answer("小组第二，最终晋级16强。", ["十六"]) == 1.0
    assert contains_answer("统计局称GDP4%的增速快于预期。", ["4%"]) == 1.0
    assert contains_answer("统计局称GDP4%的增速快于预期。", ["14%"]) == 0.0
    assert contains_answer("He scored 16 goals.", ["six"]) == 0.0
