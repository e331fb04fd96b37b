"""The sentence that states the asked time of day leads the evidence (i24-values15): the subject's sentences holding
a time are weighed by meaning against what the question asks of its subject (``asked_act``), the clause deciding
between two times of one sentence; a sentence holding no time never answers a 几点 question. Files and sentences
invented here; the similarities are given (the node computes them with the embedder)."""

from __future__ import annotations

from graphs.domain import Hit
from graphs.rag.answer.evidence import (
    Evidence,
    asked_act,
    by_asked_value,
    clauses_to_weigh,
    find_evidence,
    value_candidates,
)
from graphs.rag.answer.question import Question
from graphs.text.spans import Span
from tests.support.answers import question
from tests.support.fakes import hit

FLOOD = hit("flood#0", "鹿鸣桥附近的河堤昨夜发生管涌。值班员说，河堤是在凌晨1时10分开始渗水的，"
                       "抢险队于凌晨2时整赶到。鹿鸣桥于次日上午10时恢复通行。", title="鹿鸣桥河堤管涌情况说明")
MILL = hit("mill#0", "The Otterby mill lost power in the storm. Staff left the building at 6.10 pm and the roof "
                     "collapsed at 9.45 pm. Power came back the next morning.", title="Otterby mill storm report")


Candidates = list[tuple[Evidence, Span, str]]


def _candidates(text: str, hits: list[Hit]) -> tuple[Question, list[Evidence], Candidates]:
    q = question(text, hits)
    found = find_evidence(q, hits)
    return q, found, value_candidates(q, hits, found)


def test_only_sentences_holding_a_time_are_candidates() -> None:
    _, _, cands = _candidates("鹿鸣桥那段河堤是几点开始渗水的？", [FLOOD])
    assert {span.text for _, span, _ in cands} == {"凌晨1时10分", "凌晨2时整", "上午10时"}
    assert all("发生管涌" not in e.sentences[0].text for e, _, _ in cands)


def test_the_sentence_closest_in_meaning_leads_with_its_time() -> None:
    q, found, cands = _candidates("鹿鸣桥那段河堤是几点开始渗水的？", [FLOOD])
    seep = next(e.sentences[0].text for e, s, _ in cands if s.text == "凌晨1时10分")
    reopen = next(e.sentences[0].text for e, s, _ in cands if s.text == "上午10时")
    # the act asked, without the subject the reopening sentence repeats
    assert asked_act(q) == "几点开始渗水的？"
    clauses = {c: (0.9 if "渗水" in c else 0.8) for c in clauses_to_weigh(cands)}
    led = by_asked_value(found, cands, {seep: 0.88, reopen: 0.84, **clauses})
    assert led[0].sentences[0].text == seep
    assert led[0].span is not None and led[0].span.text == "凌晨1时10分"


def test_the_clause_picks_between_two_times_of_one_sentence() -> None:
    _, found, cands = _candidates("What time did the roof of the Otterby mill collapse?", [MILL])
    sentence = next(e.sentences[0].text for e, _, _ in cands)
    clauses = clauses_to_weigh(cands)
    assert len(clauses) == 2 and any("collapsed at 9.45 pm" in c for c in clauses)
    sims = {sentence: 0.85, **{c: (0.83 if "collapsed" in c else 0.78) for c in clauses}}
    led = by_asked_value(found, cands, sims)
    assert led[0].span is not None and led[0].span.text == "9.45 pm"


def test_a_question_of_another_kind_has_no_candidates() -> None:
    _, _, cands = _candidates("鹿鸣桥河堤是哪一天发生管涌的？", [FLOOD])
    assert cands == []


WORKSHOP = hit("workshop#0", "工坊对公众开放，开放时间为每周二至周日9:00—16:30。", title="青藤木工坊 参观须知")
HARBOUR = hit("harbour#0", "The harbour office answers the phone from 8.30 am. Moorings are let by the season.",
              title="Tollan harbour notes")


def test_a_time_in_another_document_or_language_is_no_candidate() -> None:
    # no name the tagger knows: the best evidence's document only, and never a sentence of the other language
    _, found, cands = _candidates("What time does the phone line of the harbour office open?", [HARBOUR, WORKSHOP])
    assert found and all(e.sentences[0].text.startswith("The harbour office") for e, _, _ in cands)
    assert [s.text for _, s, _ in cands] == ["8.30 am"]


FERRY = hit("ferry#0", "The Saltings ferry runs a winter service. Boarding starts at 7.40 am at the north slip. "
                       "The last crossing ends at 5.15 pm on the south bank.", title="Saltings ferry winter notice")


def test_a_sentence_stating_the_other_end_of_the_event_is_no_candidate() -> None:
    """Asked when it ends, the start's sentence does not lead however close in meaning (a timetable's Starts cell
    beside its Ends cell, a notice's boarding time beside its last crossing)."""
    q, found, cands = _candidates("What time does the Saltings ferry service end?", [FERRY])
    start = next(e.sentences[0].text for e, s, _ in cands if s.text == "7.40 am")
    end = next(e.sentences[0].text for e, s, _ in cands if s.text == "5.15 pm")
    sims = {start: 0.9, end: 0.8, **{c: 0.8 for c in clauses_to_weigh(cands)}}
    led = by_asked_value(found, cands, sims, q.text)
    assert led[0].span is not None and led[0].span.text == "5.15 pm"
    # without the question's phase the closest sentence leads, as before
    assert by_asked_value(found, cands, sims)[0].span.text == "7.40 am"  # type: ignore[union-attr]


CLASSES = hit("classes#0", "青松社区书画班简介。书画班每周三晚18:45和周日早8:15上课，每次九十分钟。", title="青松社区书画班")
FERRIES = hit("ferries#0", "Carrick Point ferries. The first ferry leaves at 06:40 on weekdays and at 08:10 on Sundays.",
              title="Carrick Point ferry times")


def test_of_a_list_of_items_times_only_the_asked_items_is_a_candidate() -> None:
    # a list gives each item its time (周三 and 周日, weekdays and Sundays): the other item's is no candidate, so
    # meaning never picks it; a narrative's times all stay (the mill above: left, collapsed)
    _, _, cands = _candidates("书画班周日几点上课？", [CLASSES])
    assert {span.text for _, span, _ in cands} == {"8:15"}
    _, _, cands = _candidates("What time does the first Carrick Point ferry leave on Sundays?", [FERRIES])
    assert {span.text for _, span, _ in cands} == {"08:10"}
    _, _, cands = _candidates("What time did the roof of the Otterby mill collapse?", [MILL])
    assert {span.text for _, span, _ in cands} == {"6.10 pm", "9.45 pm"}
