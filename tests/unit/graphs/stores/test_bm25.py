"""The numpy BM25 of the search mirror: Milvus Lite's analyzer and scores on one segment, collection-wide
statistics across writes, kills and compaction."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from milvus_lite.analyzer.factory import create_analyzer
from milvus_lite.analyzer.hash import term_to_id
from milvus_lite.index.sparse_inverted import SparseInvertedIndex

from graphs.stores.bm25 import Analyzer, BM25Postings, UnsupportedAnalyzer
from graphs.stores.milvus import DEFAULT_ANALYZER

WORDS = ["北京", "上海", "人工智能", "投资", "芯片", "Apple", "apple", "iPhone", "the", "of", "发布", "新能源汽车",
         "量子计算", "的", "公司", "2024年", "Beijing", "launch", "event", "。", "，", "!", " "]
texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
ANALYZER = Analyzer.from_params(DEFAULT_ANALYZER)
CORPUS = [
    "星河科技在北京发布了人工智能芯片",
    "蓝海集团投资新能源汽车，投资额同比增长",
    "Apple launched the iPhone in Beijing",
    "上海的量子计算公司获得投资",
    "",
    "人工智能 人工智能 人工智能 投资",
    "The launch event of the chip",
]


def lite_scores(docs: list[str], query: str) -> dict[int, float]:
    """Milvus Lite's own BM25 over ``docs`` as one segment: row -> score."""
    lite = create_analyzer(DEFAULT_ANALYZER)
    index = SparseInvertedIndex(k1=1.5, b=0.75)
    index.build([dict(Counter(lite.analyze(d))) for d in docs])
    q = {tid: float(n) for tid, n in Counter(lite.analyze(query)).items()}
    ids, dists = index.search([q], top_k=len(docs))
    return {int(i): -float(d) for i, d in zip(ids[0], dists[0], strict=True) if i >= 0}


def ours(docs: list[str], query: str) -> dict[int, float]:
    postings = BM25Postings(1.5, 0.75)
    postings.add([ANALYZER.term_counts(d) for d in docs])
    rows, scores = postings.scores(ANALYZER.term_counts(query))
    return dict(zip(rows.tolist(), scores.tolist(), strict=True))


def test_analyzer_reproduces_milvus_lites_jieba_analyzer() -> None:
    lite = create_analyzer(DEFAULT_ANALYZER)
    for text in [*CORPUS, "Which new investments target autonomous driving?", "2024年苹果在北京发布的产品"]:
        assert ANALYZER.tokens(text) == lite.tokenize(text)
    assert "the" not in ANALYZER.tokens("The launch") and "的" not in ANALYZER.tokens("北京的公司")


@pytest.mark.parametrize(
    "params",
    [
        {"tokenizer": "standard"},
        {"tokenizer": {"type": "jieba", "mode": "exact"}},
        {"tokenizer": {"type": "jieba", "dict": ["自定义"]}},
        {"tokenizer": "jieba", "filter": ["asciifolding"]},
        {"tokenizer": "jieba", "filter": [{"type": "length", "max": 10}]},
        {},
    ],
)
def test_analyzers_it_cannot_reproduce_are_refused(params: dict[str, object]) -> None:
    with pytest.raises(UnsupportedAnalyzer):
        Analyzer.from_params(params)


def test_scores_equal_milvus_lites_on_one_segment() -> None:
    for query in ["人工智能 投资", "Apple iPhone", "投资 投资 北京", "launch", "不存在的词"]:
        expected, got = lite_scores(CORPUS, query), ours(CORPUS, query)
        assert got.keys() == expected.keys()
        for row, score in expected.items():
            assert got[row] == pytest.approx(score, rel=1e-5)


@settings(max_examples=60, deadline=None, database=None)
@given(docs=st.lists(texts, min_size=1, max_size=12), query=texts)
def test_any_corpus_and_query_score_as_milvus_lite_does(docs: list[str], query: str) -> None:
    expected, got = lite_scores(docs, query), ours(docs, query)
    assert got.keys() == expected.keys()
    for row, score in expected.items():
        assert got[row] == pytest.approx(score, rel=1e-5, abs=1e-9)
    # Lite hashes terms to 32 bits; the mirror keeps the strings (no collision can merge two terms).
    assert all(isinstance(term_to_id(t), int) for t in ANALYZER.tokens(query))


def fresh(docs: list[Counter[str]], query: Counter[str]) -> dict[int, float]:
    postings = BM25Postings()
    postings.add(docs)
    rows, scores = postings.scores(query)
    return dict(zip(rows.tolist(), scores.tolist(), strict=True))


@settings(max_examples=40, deadline=None, database=None)
@given(
    docs=st.lists(texts, min_size=2, max_size=30),
    kill=st.sets(st.integers(0, 29)),
    split=st.integers(1, 29),
    seal_first=st.booleans(),
    query=texts,
)
def test_incremental_writes_and_kills_score_like_one_bulk_build(
    docs: list[str], kill: set[int], split: int, seal_first: bool, query: str
) -> None:
    """Statistics are collection-wide: rows added in pieces (sorted or in the tail) and rows killed give the
    scores of one build of the live rows, whatever the order of writes."""
    counts = [ANALYZER.term_counts(d) for d in docs]
    kill = {k for k in kill if k < len(docs)}
    postings = BM25Postings()
    postings.add(counts[:split])
    if seal_first:
        postings.seal()
    postings.add(counts[split:])
    postings.kill(sorted(kill))
    postings.kill(sorted(kill))  # killing twice changes nothing
    rows, scores = postings.scores(ANALYZER.term_counts(query))
    got = dict(zip(rows.tolist(), scores.tolist(), strict=True))
    live = [i for i in range(len(docs)) if i not in kill]
    expected = fresh([counts[i] for i in live], ANALYZER.term_counts(query))
    assert {live[r]: s for r, s in expected.items()} == pytest.approx(got)
    compacted = postings.compacted(np.asarray(live))
    rows, scores = compacted.scores(ANALYZER.term_counts(query))
    assert dict(zip(rows.tolist(), scores.tolist(), strict=True)) == pytest.approx(expected)


def test_mask_restricts_rows_without_changing_statistics() -> None:
    postings = BM25Postings()
    postings.add([ANALYZER.term_counts(d) for d in CORPUS])
    query = ANALYZER.term_counts("人工智能 投资")
    rows, scores = postings.scores(query)
    mask = np.zeros(len(CORPUS), dtype=bool)
    mask[[1, 5]] = True
    masked_rows, masked_scores = postings.scores(query, mask)
    assert masked_rows.tolist() == [1, 5]
    assert masked_scores.tolist() == pytest.approx([s for r, s in zip(rows, scores, strict=True) if r in (1, 5)])


def test_export_and_rebuild_keep_every_score() -> None:
    postings = BM25Postings()
    postings.add([ANALYZER.term_counts(d) for d in CORPUS])
    rebuilt = BM25Postings.from_arrays(*postings.export())
    query = ANALYZER.term_counts("Apple 投资 北京")
    for a, b in zip(postings.scores(query), rebuilt.scores(query), strict=True):
        assert a.tolist() == pytest.approx(b.tolist())
    with pytest.raises(ValueError, match="repeats"):
        BM25Postings.from_arrays(np.array([0, 1]), np.array([0]), np.array([1.0]), ["x", "x"])


def test_empty_index_and_unknown_terms_find_nothing() -> None:
    postings = BM25Postings()
    assert [a.tolist() for a in postings.scores(Counter({"x": 1}))] == [[], []]
    postings.add([Counter({"a": 1})])
    postings.kill([0])
    assert [a.tolist() for a in postings.scores(Counter({"a": 1}))] == [[], []]


def test_tokenizing_keeps_jiebas_dictionary_loading_quiet() -> None:
    # jieba's import sets its logger to DEBUG, over a level set before it: `aer entities remove-alias` printed
    # "Building prefix dict ..." twice on stderr; the analyzer quietens it after importing it
    import logging

    import jieba

    jieba.default_logger.setLevel(logging.DEBUG)
    assert ANALYZER.tokens("星河科技员工手册") != []
    assert jieba.default_logger.level >= logging.WARNING


def test_shared_cuts_cut_each_text_once_for_its_two_readers() -> None:
    # Milvus Lite's BM25 function and the mirror's analyzer each cut a written passage: inside the block the
    # second reader gets the first one's cut, the same tokens jieba gives outside it
    import jieba

    from graphs.stores.bm25 import shared_cut_hits, shared_cuts

    own = jieba.cut_for_search
    text = "滨江图书馆周一闭馆，借阅期限为三十天 (the Riverside library lends books for 30 days)"
    expected = list(jieba.cut_for_search(text))
    lite = create_analyzer(DEFAULT_ANALYZER)
    before = shared_cut_hits()
    with shared_cuts():
        assert jieba.cut_for_search is not own
        lite_terms = lite.analyze(text)  # Lite's cut first, as an upsert makes it
        ours_counts = ANALYZER.term_counts(text)  # the mirror's: read from it
        assert shared_cut_hits() == before + 1
        assert list(jieba.cut_for_search(text)) == expected  # a third reader cuts again, the same tokens
        assert list(jieba.cut_for_search(text, HMM=False)) == list(own(text, HMM=False))
    assert jieba.cut_for_search is own  # restored when the block closes
    assert lite_terms == lite.analyze(text)
    assert ours_counts == ANALYZER.term_counts(text)


def test_shared_cuts_nest_and_keep_at_most_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    import jieba

    from graphs.stores import bm25
    from graphs.stores.bm25 import shared_cut_hits, shared_cuts

    own = jieba.cut_for_search
    monkeypatch.setattr(bm25, "SHARED_CUTS", 2)
    with shared_cuts():
        with shared_cuts():
            for text in ("一号文本", "二号文本", "三号文本"):
                list(jieba.cut_for_search(text))
            assert len(bm25._CUTS.kept) == 2  # the third text's cut is not kept: its second reader cuts again
        assert jieba.cut_for_search is not own  # the outer block is still open
        before = shared_cut_hits()
        assert list(jieba.cut_for_search("三号文本")) == list(own("三号文本"))
        assert shared_cut_hits() == before
    assert jieba.cut_for_search is own and not bm25._CUTS.kept
