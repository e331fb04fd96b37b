"""Client-side fusion of dense and BM25 lists: the arithmetic and the merged component scores."""

from __future__ import annotations

import pytest

from graphs.stores import fusion
from tests.support.fakes import hit


def dense(*ids: str) -> list:
    return [hit(i, score=0.9 - n * 0.1, channel="semantic") for n, i in enumerate(ids)]


def bm25(*ids: str) -> list:
    return [hit(i, score=1.0 - n * 0.2, channel="bm25", dense_score=None, bm25_score=1.0 - n * 0.2)
            for n, i in enumerate(ids)]


def test_rrf_arithmetic_and_component_scores() -> None:
    out = fusion.rrf(dense("a#0", "b#0"), bm25("b#0", "c#0"), limit=3, k=5, dense_weight=0.3)
    assert [h.id for h in out] == ["b#0", "c#0", "a#0"]
    assert out[0].score == pytest.approx(0.3 / 7 + 0.7 / 6, abs=1e-6)
    assert out[1].score == pytest.approx(0.7 / 7, abs=1e-6) and out[2].score == pytest.approx(0.3 / 6, abs=1e-6)
    assert (out[0].dense_score, out[0].bm25_score) == (pytest.approx(0.8), 1.0)
    assert all(h.channel == "hybrid" for h in out)


def test_weighted_sums_clamped_cosine_and_bm25() -> None:
    out = fusion.weighted(dense("a#0", "b#0"), bm25("b#0", "c#0"), limit=2, dense_weight=0.6)
    assert [h.id for h in out] == ["b#0", "a#0"]
    assert out[0].score == pytest.approx(0.6 * 0.8 + 0.4 * 1.0)


def test_limit_and_empty_lists() -> None:
    assert fusion.rrf([], [], limit=5) == []
    assert len(fusion.rrf(dense("a#0", "b#0", "c#0"), [], limit=2)) == 2


def passages(*rows: tuple[str, str]) -> list:
    return [hit(i, text, score=0.9 - n * 0.1, channel="semantic") for n, (i, text) in enumerate(rows)]


def lexical(*rows: tuple[str, str]) -> list:
    return [hit(i, text, score=1.0 - n * 0.2, channel="bm25", dense_score=None, bm25_score=1.0 - n * 0.2)
            for n, (i, text) in enumerate(rows)]


def test_bm25_is_no_vote_against_a_passage_in_the_other_language() -> None:
    """A Chinese question over an English report: BM25 ranks only the Chinese passages sharing its words (a
    sick-leave rule for 医院); the report the dense list ranks first keeps its place, its BM25 rank imputed from
    its dense rank."""
    question = "那次仓库起火后，受伤的搬运工被送到了哪家医院？"
    report = ("fire#0", "Two porters hurt in the warehouse fire were taken to St Brennan's Hospital.")
    leave = ("leave#0", "员工因病需要去医院就诊的，可申请病假，并提交医院出具的证明。")
    menu = ("menu#0", "医院食堂的菜单每周更新一次。")
    dense_list = passages(report, leave, menu)
    ranked = lexical(leave, menu)
    blind = fusion.rrf(dense_list, ranked, limit=3, k=5, dense_weight=0.4)
    assert blind[0].id == "leave#0"  # without the question: one vote against two
    out = fusion.rrf(dense_list, ranked, limit=3, k=5, dense_weight=0.4, question=question)
    assert [h.id for h in out] == ["fire#0", "leave#0", "menu#0"]
    assert out[0].score == pytest.approx(0.4 / 6 + 0.6 / 6, abs=1e-6)
    # the passages in the question's own language are scored as before
    assert out[1].score == pytest.approx(blind[0].score)


def test_a_bm25_list_that_ranks_passages_of_the_other_language_keeps_its_ranks() -> None:
    """Where BM25 ranks a passage of the other language (a name both write, the lexicon's words of the asked
    attribute), it could see that language: nothing is imputed. An English question is blind to a mostly Chinese
    passage, not to an English line naming a Chinese place, nor is a Chinese question to a Chinese line that
    names a product in Latin letters."""
    rows = (("zh#0", "保修期为三年，自购买之日起计算。"), ("zh#1", "滤芯每三个月更换一次。"),
            ("en#0", "The warranty lasts three years."))
    dense_list = passages(*rows)
    question = "How long is the warranty?"
    assert fusion.unseen_by_words(question, dense_list) == {"zh#0", "zh#1"}
    assert fusion.unseen_by_words(question, dense_list, lexical(rows[2])) == {"zh#0", "zh#1"}
    assert fusion.unseen_by_words(question, dense_list, lexical(rows[2], rows[1])) == set()
    out = fusion.rrf(dense_list, lexical(rows[2], rows[1]), limit=3, k=5, dense_weight=0.4, question=question)
    assert out == fusion.rrf(dense_list, lexical(rows[2], rows[1]), limit=3, k=5, dense_weight=0.4)
    mixed = passages(("a#0", "The Nanxi (南溪) depot opens at six."), ("b#0", "保修期 — AeroClean A350：三年"))
    assert fusion.unseen_by_words(question, mixed) == set()
    assert fusion.unseen_by_words("AeroClean A350 的保修期多长？", mixed) == {"a#0"}
