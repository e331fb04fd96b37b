"""Words of the question the evidence can be expected to state (issue 24, false "not found" on unseen files): a
token the segmenter glued from a content character and a character of grammar (its HMM's guess: 牙要 of 补一颗牙要花,
要交) and a demonstrative with its classifier (那场, 这台) are no qualifiers; a word of the table is; and a compound
of the asked one's head that the bilingual lexicon lists under the same attribute (the yearly fee for the
membership fee) is the asked attribute, not a sibling (a sibling the lexicon does not join, 年假 for 病假, still
is). Invented questions and passages."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import same_attribute
from graphs.rag.answer.calibration import asked_of, question_qualifiers
from graphs.rag.answer.qualifiers import content_word
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_absent_attribute_kinds import _decide
from tests.unit.graphs.rag.answer.test_attributes import question


@pytest.mark.parametrize(("term", "word"), [
    ("牙要", ""), ("要交", ""), ("都有", ""),  # grammar glued to a character: an artefact of the segmentation
    ("那场", ""), ("这台", ""), ("那位", ""),  # a demonstrative and its classifier point, they state nothing
    ("定金", "定金"), ("音乐会", "音乐会"), ("烘干", "烘干"),  # words of the table stay
    ("桨手", "桨手"),  # a word the table lacks, with no grammar at its edges: the question's own word
])
def test_the_content_word_of_a_term(term: str, word: str) -> None:
    assert content_word(term) == word


@pytest.mark.parametrize(("text", "not_qualifier", "qualifier"), [
    ("柳岸诊所补一颗牙要花多少钱？", "牙要", None),
    ("明镜眼镜店配眼镜要交多少定金？", "要交", None),
    ("那场星河音乐会的门票要多少钱？", "那场", "星河"),  # a rare word of the question stays one
])
def test_artefacts_and_pointers_are_no_qualifiers(text: str, not_qualifier: str, qualifier: str | None) -> None:
    q = question(text, [])
    words = {f for x in question_qualifiers(q, asked_of(q)) if x.kind == "word" for f in x.forms}
    assert not_qualifier not in words
    if qualifier is not None:
        assert qualifier in words


def test_the_lexicon_joins_compounds_of_one_attribute_and_not_siblings() -> None:
    assert same_attribute("会费", "年费") and same_attribute("membership fee", "annual fee")
    assert not same_attribute("病假", "年假") and not same_attribute("sick leave", "annual leave")


POOL_RULES = hit("pool#0", "一、会费\n柳岸游泳馆成人会员年费为300元，学生会员年费为150元。会费每年3月缴纳。",
                 title="柳岸游泳馆会员须知")
CLUB_RULES = hit("club#0", "Fees. The annual fee for a junior member of the Weyfield Rowing Club is 90 pounds. "
                           "The membership fee is paid each January.", title="Weyfield Rowing Club rules")


@pytest.mark.parametrize(("text", "passage"), [
    ("柳岸游泳馆的学生会员一年交多少会费？", POOL_RULES),
    ("What membership fee does a junior member of the Weyfield Rowing Club pay?", CLUB_RULES),
])
async def test_a_compound_the_lexicon_joins_to_the_asked_one_is_the_asked_attribute(text: str, passage: object) -> None:
    decision, _, reason = await _decide(text, [passage])  # type: ignore[list-item]
    assert decision == "answerable", reason
