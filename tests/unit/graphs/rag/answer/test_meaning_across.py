"""A question in one language over a file in the other, judged by meaning where the bilingual lexicon lists no
word of what is asked (session 21, own invented files, not the dev sets' sentences): which lines are compared with
the question (those of the subject's passage, its title line left out), what of the question is compared (the
names left out, the codes kept), how a line stands out among them, and when the one that stands out decides."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graphs.domain import Hit
from graphs.rag.answer.answerability import MEANING_STANDS, decide, stated_by_meaning
from graphs.rag.answer.calibration import bundled, judge
from graphs.rag.answer.evidence import (
    MEANING_SLOPE,
    about_subject,
    asked_codes,
    asked_part,
    by_meaning,
    find_evidence,
    other_language,
    sentences_of,
    titled,
)
from graphs.rag.answer.question import Question, question_of
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, hit

MANUAL = hit("hx7#0", "Brellan HX-7 Window Dehumidifier - Owner's Card\n"
                      "E2  Tank full: empty the water tank and refit it.\n"
                      "E4  Coil frozen: switch off for two hours, then restart.\n"
                      "Tank capacity: 2.4 litres\n"
                      "Mains lead length: 1.8 m", title="brellan_hx7_card", dense_score=0.5)
OTHER = hit("kettle#0", "Sorrel K2 Kettle - Care Sheet\nDescale every month with white vinegar.",
            title="sorrel_k2_care", dense_score=0.4)
MINUTES = hit("minutes#0", "柳湾社区合唱团理事会纪要\n时间：2026年5月9日 晚上7点\n地点：社区活动中心三楼排练厅\n"
                           "召集人：邝雨桐\n出席：理事6人", title="柳湾社区合唱团理事会纪要", dense_score=0.5)


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, []).about(hits)


def test_the_best_line_alone_reaches_the_top_of_the_meaning_scale() -> None:
    """Of many lines several stand above their median: only the closest reaches 1.0, the others in proportion (a
    cap tied the refrigerant's line with the heating capacity's); none reaches it when none stands out."""
    sims = {"a": 0.80, "b": 0.79, "c": 0.775, "d": 0.77, "e": 0.765, "f": 0.76}
    scaled = by_meaning(sims)
    assert scaled["a"] == 1.0 and scaled["b"] < 1.0 and scaled["b"] > scaled["c"] > scaled["f"]
    flat = by_meaning({"a": 0.771, "b": 0.770, "c": 0.769, "d": 0.768})
    assert max(flat.values()) < MEANING_STANDS
    assert by_meaning({"only": 0.9}) == {}
    assert MEANING_SLOPE > 0


def test_the_asked_part_leaves_the_names_out_and_keeps_the_codes() -> None:
    q = question("Brellan HX-7 除湿机显示 E4 是什么意思？", [MANUAL])
    part = asked_part(q)
    assert "Brellan" not in part and "E4" in part and "除湿机" in part
    # nothing but a name left: the question itself
    q = question("Brellan HX-7?", [MANUAL])
    assert asked_part(q) == q.text


def test_a_line_is_about_the_subject_its_passage_names() -> None:
    """The card's lines below its first do not repeat the product's name: they are its lines all the same, and
    a line of a kettle's sheet is not."""
    q = question("Brellan HX-7 的水箱容量是多少？", [MANUAL, OTHER])
    lines = {s.text: s for s in sentences_of(q, [MANUAL, OTHER])}
    assert about_subject(q, lines["Tank capacity: 2.4 litres"], [MANUAL, OTHER])
    assert not about_subject(q, lines["Descale every month with white vinegar."], [MANUAL, OTHER])


def test_the_title_line_is_not_compared_by_meaning() -> None:
    """The first line, no sentence mark, naming the subject: closest in meaning to every question about it, never
    the answer."""
    q = question("Brellan HX-7 的水箱容量是多少？", [MANUAL])
    compared = other_language(q, [MANUAL])
    assert "Tank capacity: 2.4 litres" in compared
    assert not any(t.startswith("Brellan HX-7 Window") for t in compared)
    first = next(s for s in sentences_of(q, [MANUAL]) if s.position == 0)
    assert titled(q, first)


def test_a_code_the_first_line_names_is_the_products_not_the_asked_one() -> None:
    """HX-7 is named by the card's first line (the file's name writes hx7): only E4 is asked of a line."""
    q = question("Brellan HX-7 显示 E4 是什么意思？", [MANUAL])
    assert asked_codes(q, MANUAL) == ["e4"]
    # a passage that opens with a code line gives no title line: every code is asked of a line
    table = hit("t#0", "E1 Sensor open\nE4 Coil frozen", title="fault_codes")
    assert set(asked_codes(question("HX-7 显示 E4 是什么意思？", [table]), table)) == {"hx-7", "e4"}


def _judged(text: str, hits: Sequence[Hit], sims: dict[str, float]):  # type: ignore[no-untyped-def]
    q = question(text, hits)
    evidence = find_evidence(q, hits, meaning=by_meaning(sims))
    return q, judge(q, hits, evidence, {})


def _sims(q: Question, hits: Sequence[Hit], best: str, top: float = 0.83) -> dict[str, float]:
    """Similarities of the compared lines: ``best`` at ``top``, the others near 0.78 (e5's level on a topic)."""
    return {t: (top if best in t else 0.78 - 0.002 * i) for i, t in enumerate(other_language(q, hits))}


def test_the_line_that_alone_stands_out_in_meaning_states_what_is_asked() -> None:
    """"Who called the meeting" over Chinese minutes whose 召集人 line no lexicon entry lists: the line that alone
    stands out in meaning, with a person's name in it, states it."""
    q = question("Who convened the Liuwan community choir's board meeting?", [MINUTES])
    _, judgement = _judged(q.text, [MINUTES], _sims(q, [MINUTES], "召集人"))
    assert "召集人" in judgement.evidence[0].sentences[0].text
    assert stated_by_meaning(q, judgement, [MINUTES])
    verdict = decide(q, judgement, 0.99, bundled(), [MINUTES])
    assert verdict.decision == "answerable" and verdict.decided_by == "meaning"
    assert "stands out in meaning" in verdict.reason


def test_no_line_stands_out_alone_no_decision_by_meaning() -> None:
    q = question("Who convened the Liuwan community choir's board meeting?", [MINUTES])
    flat = {t: 0.78 for t in other_language(q, [MINUTES])}
    _, judgement = _judged(q.text, [MINUTES], flat)
    assert not stated_by_meaning(q, judgement, [MINUTES])


@pytest.mark.parametrize("asked", ["E2", "E7"])
def test_a_code_question_is_decided_by_meaning_only_on_the_line_of_its_code(asked: str) -> None:
    """The line that stands out must be the asked code's: E2's line does not state what E4 (or an unlisted E7)
    means."""
    q = question(f"Brellan HX-7 除湿机显示 {asked} 是什么意思？", [MANUAL])
    _, judgement = _judged(q.text, [MANUAL], _sims(q, [MANUAL], "E2  Tank full"))
    assert stated_by_meaning(q, judgement, [MANUAL]) is (asked == "E2")


def test_a_question_in_the_files_language_is_never_decided_by_meaning() -> None:
    q = question("柳湾社区合唱团理事会的召集人是谁？", [MINUTES])
    _, judgement = _judged(q.text, [MINUTES], {})
    assert not stated_by_meaning(q, judgement, [MINUTES])


def test_by_meaning_the_line_not_the_cards_title_leads_the_evidence() -> None:
    """The title line names the product and nothing asked; the tank's line, which only its card names the
    product of, stands out in meaning and leads, carrying the card's name (before, the title line led by its
    names and the passage's dense score, and the question was refused: "no number for the capacity")."""
    q = question("Brellan HX-7 的水箱能装多少升水？", [MANUAL])
    evidence = find_evidence(q, [MANUAL], meaning=by_meaning(_sims(q, [MANUAL], "Tank capacity")))
    lead = evidence[0].sentences[0]
    assert lead.text == "Tank capacity: 2.4 litres"
    assert evidence[0].anchored == 1.0
    title = next(s for e in evidence for s in e.sentences if s.position == 0)
    assert title.semantic == 0.0



def test_another_attributes_words_are_not_read_across_languages() -> None:
    """The value is governed by words the English question cannot write (库存数量 of a stock list's row for "in
    stock", 分红总额 for "the total dividend"): ``misgoverned`` reads another attribute there, and across languages
    that finding refuses nothing (it did: "the passages give 库存 (36), not its oats")."""
    from graphs.rag.answer.answerability import vetoes
    from graphs.rag.answer.governance import misgoverned

    for text, asked in [("库存数量 — 燕麦片: 36\n库存数量 — 罐头豆: 58",
                         "How many bags of oats does the Shiqiao food bank have in stock?"),
                        ("一、审议通过2025年度财务报告，全年分红总额为36万元。\n二、决定购置冷藏车一辆。",
                         "What was the total dividend the Baishi fishery co-op paid out for 2025?")]:
        h = hit("x#0", text, title="石桥社区食物银行库存表", dense_score=0.5)
        q = question(asked, [h])
        judgement = judge(q, [h], find_evidence(q, [h]), {})
        found = misgoverned(q, judgement, [h])
        assert found is not None and found.attribute and not found.subject
        assert "misgoverned" not in vetoes(q, judgement, "x", "what is asked", [h])


def test_another_years_value_is_still_refused_across_languages() -> None:
    """A year is written alike in both languages: 2024's revenue in the Chinese report is not the 2025 revenue the
    English question asks, whatever words govern it."""
    from graphs.rag.answer.answerability import vetoes
    from graphs.rag.answer.governance import misgoverned

    h = hit("x#0", "2024年合作社全年实现销售收入约318万元，较上年增长一成。", title="青岚蜂业合作社年报", dense_score=0.5)
    q = question("What was the Qinglan bee cooperative's sales revenue in 2025?", [h])
    judgement = judge(q, [h], find_evidence(q, [h]), {})
    found = misgoverned(q, judgement, [h])
    assert found is not None and found.period == "2024年" and not found.subject
    assert "misgoverned" in vetoes(q, judgement, "Qinglan", "revenue", [h])
