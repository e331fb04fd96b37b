"""Who / which / where answers name the thing asked from the sentence that states the asked act: beside the noun after
"which" (which firm, 哪家公司), which says what kind of name answers, the act after it is what the sentence must
state; a name answer is its sentence, with no runner-up sentence glued on. Own material (a parish council, a
village clinic, a rowing regatta), in English and Chinese, nobody tuned for."""

from __future__ import annotations

import pytest

from tests.support.answers import question, write
from tests.support.fakes import hit

TENDER = hit("minutes.md#0", "Three firms tendered for the Dunmore footbridge: Carrick Build, Oakley Civil and Marsh "
                             "& Finch. The parish council chose Marsh & Finch to rebuild the Dunmore footbridge. The "
                             "Dunmore footbridge has been closed since the February floods.", title="Parish minutes")


@pytest.mark.parametrize(("text", "act", "noun"), [
    ("Which firm will rebuild the Dunmore footbridge?", "rebuild", "firm"),
    ("Which company supplied the regatta's boats?", "supplied", "company"),
    ("哪家公司收购了溪头村的老酒坊？", "收购", "公司"),
])
def test_the_asked_act_after_the_asked_noun_is_focus_too(text: str, act: str, noun: str) -> None:
    focus = question(text, [TENDER]).focus
    assert act in focus and noun in focus, focus


def test_the_sentence_that_states_the_act_answers_which_firm() -> None:
    decision, _, span, text = write("Which firm will rebuild the Dunmore footbridge?", [TENDER])
    assert decision == "answerable"
    assert span is not None and "Finch" in span, (span, text)
    # the sentence that states the act leads; the one listing the bids may follow (it names firms of its own)
    assert "chose Marsh" in text and ("tendered" not in text or text.index("chose") < text.index("tendered")), text


@pytest.mark.parametrize(("text", "hits", "answer", "unrelated"), [
    ("Where should the Dunmore litter pick volunteers meet?",
     [hit("minutes.md#0", "Dunmore litter pick volunteers should meet at the Saltings slipway. The Dunmore litter "
                          "pick starts on Sunday at nine and volunteers bring gloves.", title="Parish minutes")],
     "Saltings", "gloves"),
    ("Who won the Tarnby regatta sculls race?",
     [hit("regatta.md#0", "Ines Holloway won the Tarnby regatta sculls race in a record time.", title="Regatta"),
      hit("club.md#0", "The Tarnby regatta sculls race is rowed over 900 metres and the Tarnby regatta is held "
                       "each June.", title="Club notes")],
     "Ines Holloway", "900 metres"),
])
def test_a_name_answer_is_its_sentence_alone(text: str, hits: list, answer: str, unrelated: str) -> None:
    decision, _, _, written = write(text, hits)
    assert decision == "answerable" and answer in written
    assert unrelated not in written, written


@pytest.mark.parametrize(("text", "sentence", "name"), [
    ("Which company sponsored the Tarnby regatta?", "The Tarnby regatta was organised by Tarnby Rowing Club and "
     "sponsored by Halvern Boats Ltd, which also lent the umpire launch.", "Halvern Boats Ltd"),
    ("Who seconded the Dunmore motion?", "The Dunmore motion was proposed by Alma Whitcombe and seconded by Hugh "
     "Pennock after a short debate.", "Hugh Pennock"),
])
def test_of_two_names_the_one_next_to_the_asked_act_answers(text: str, sentence: str, name: str) -> None:
    from graphs.rag.answer.evidence import sentences_of, typed_span

    hits = [hit("news.md#0", sentence, title="News")]
    q = question(text, hits)
    span = typed_span(q, sentences_of(q, hits)[0])
    assert span is not None and span.text == name, span
