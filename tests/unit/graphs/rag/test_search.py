"""graphs/rag/search.py: a passage in the other language than the question is scored on that crossing's scale (e5
scores it far lower than a passage in the question's language, answering or not; the service's thresholds were set
on USE, which does not); USE and unfitted embedders are left as they are."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings

from graphs.domain import Hit
from graphs.rag.context import RagContext
from graphs.rag.nodes.search_hybrid import search_hybrid
from graphs.rag.nodes.search_semantic import search_semantic
from graphs.rag.search import across_languages
from graphs.vectors import CROSSING_SCALES, SCORE_SCALES, EmbedderFingerprint, crossing_scale
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime

E5 = "multilingual-e5-small-q4"


class FingerprintedFake(Embeddings):
    """A fake embedder that says which model it stands in for."""

    def __init__(self, name: str) -> None:
        self.inner = DeterministicFakeEmbedding(size=16)
        self.fingerprint = EmbedderFingerprint(name, 16)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def as_model(tmp_path: Path, name: str, index: ScriptedIndex | None = None) -> RagContext:
    return dataclasses.replace(make_context(tmp_path, index), embedder=FingerprintedFake(name))


# invented passages: a ferry timetable in Chinese, a bakery's opening hours in English
ZH_ANSWER = "晨帆渡轮每天早上六点四十分从北码头开出第一班船，单程票价十二元。"
ZH_OTHER = "北码头的候船厅去年翻修，新增了母婴室和自助售票机。"
EN_ANSWER = "The Larkspur Bakery opens at 7 a.m. on weekdays and closes at 3 p.m."
EN_OTHER = "Larkspur Bakery was founded by two sisters who trained in Lyon."


def test_the_crossing_map_sends_e5_s_anchors_onto_use_s_and_is_the_identity_elsewhere() -> None:
    e5 = crossing_scale(E5)
    assert e5.map(e5.low) == pytest.approx(e5.to_low) and e5.map(e5.high) == pytest.approx(e5.to_high)
    assert e5.map(e5.high) > e5.map(e5.low)  # monotone: the order among other-language passages is kept
    assert crossing_scale("use-multilingual-v3").map(0.3) == 0.3 and crossing_scale(None).map(-0.1) == -0.1
    assert set(CROSSING_SCALES) <= set(SCORE_SCALES)  # on the service's scale: only after an embedder's own map


@pytest.mark.parametrize("question, answer, other_language", [
    ("What time does the first ferry leave the north pier?", ZH_ANSWER, EN_OTHER),
    ("拉克斯珀面包店工作日几点开门？", EN_ANSWER, ZH_OTHER),
])
def test_an_other_language_passage_is_rescored_and_ranked_with_the_question_s_own(
        tmp_path: Path, question: str, answer: str, other_language: str) -> None:
    ctx = as_model(tmp_path, E5)
    scale = crossing_scale(E5)
    # as e5 scores them: the answering passage in the other language below an unrelated one in the question's
    hits = [hit("own#0", other_language, 0.12, "semantic"), hit("answer#0", answer, 0.05, "semantic")]
    got = across_languages(ctx, question, hits, rank=True)
    assert [h.id for h in got] == ["answer#0", "own#0"]
    assert got[0].score == got[0].dense_score == pytest.approx(scale.map(0.05))
    assert got[1] == hits[0]  # the question's own language: unchanged


def test_a_fused_list_keeps_its_order_and_score_and_moves_only_the_dense_score(tmp_path: Path) -> None:
    ctx = as_model(tmp_path, E5)
    fused = [hit("own#0", EN_OTHER, 0.03, "hybrid", dense_score=0.2), hit("zh#0", ZH_ANSWER, 0.02, "hybrid",
                                                                       dense_score=0.0)]
    got = across_languages(ctx, "When does the first ferry leave?", fused, rank=False)
    assert [h.id for h in got] == ["own#0", "zh#0"] and [h.score for h in got] == [0.03, 0.02]
    assert got[1].dense_score == pytest.approx(crossing_scale(E5).map(0.0)) and got[0] == fused[0]
    no_dense = Hit(id="bm#0", doc_id="bm", title="bm", text=ZH_ANSWER, score=0.4, channel="hybrid")
    assert across_languages(ctx, "When does the first ferry leave?", [no_dense], rank=False) == [no_dense]


@pytest.mark.parametrize("name", ["use-multilingual-v3", "text-embedding-3-small", None])
def test_use_and_unfitted_embedders_are_left_as_they_are(tmp_path: Path, name: str | None) -> None:
    ctx = make_context(tmp_path) if name is None else as_model(tmp_path, name)
    hits = [hit("own#0", EN_OTHER, 0.12, "semantic"), hit("answer#0", ZH_ANSWER, 0.05, "semantic")]
    assert across_languages(ctx, "What time does the first ferry leave?", hits, rank=True) == hits


async def test_the_search_nodes_score_other_language_passages_on_the_crossing_scale(tmp_path: Path) -> None:
    rows = {"semantic": [hit("own#0", EN_OTHER, 0.12, "semantic"), hit("zh#0", ZH_ANSWER, 0.05, "semantic")],
            "hybrid": [hit("own#0", EN_OTHER, 0.03, "hybrid", dense_score=0.12),
                       hit("zh#0", ZH_ANSWER, 0.02, "hybrid", dense_score=0.05)]}
    ctx = as_model(tmp_path, E5, ScriptedIndex(respond=lambda channel, expr: rows.get(channel, [])))
    state = {"question": "What time does the first ferry leave the north pier?"}
    semantic = await search_semantic(state, runtime(ctx))  # type: ignore[arg-type]
    assert [h.id for h in semantic["hits"]] == ["zh#0", "own#0"]
    hybrid = await search_hybrid(state, runtime(ctx))  # type: ignore[arg-type]
    assert [h.id for h in hybrid["hits"]] == ["own#0", "zh#0"]  # the fusion's order
    assert hybrid["hits"][1].dense_score == pytest.approx(crossing_scale(E5).map(0.05))
