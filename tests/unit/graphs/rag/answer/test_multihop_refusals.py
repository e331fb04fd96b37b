"""Multi-hop questions the answer layer refused although both hops were retrieved (#24), by category, on own
sentences: a year that qualifies a work ("a 1931 atlas", "the 2009 film") states when it appeared and is not
the attribute a question asks; comparisons written without "or" ("Between A and B, which …?", "A and B …. Which
…?"); short forms against full names. Each has a twin that must stay "not found"."""

from __future__ import annotations

from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.attributes import asked_attribute, lexicon, stated_at
from graphs.rag.answer.evidence import find_evidence
from graphs.text.answer_types import expected_answer
from tests.support.answers import question, write
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams

RELEASED = next(a for a in lexicon() if a.name == "released")


def test_a_year_written_as_a_works_adjective_states_when_it_appeared() -> None:
    for sentence in ("Tidelines is a 1931 atlas of the northern coast compiled by Edda Morn.",  # not a work noun
                     "He moved to Orvik in 1931 and wrote books there.",
                     "在2010年的电影节上，她获得了最佳新人奖。"):
        assert stated_at(RELEASED, sentence) == [], sentence
    for sentence in ("Tidelines is a 1931 novel by the Orvish writer Edda Morn.",
                     "Salt and Iron is a 2009 Orvish war film directed by Kai Brenn.",
                     "It was remade as Lantern Street (2014 film).",
                     "《雾港》是一部2009年的国产悬疑电影，由导演方宁执导。"):
        assert stated_at(RELEASED, sentence), sentence


def test_a_year_that_narrows_a_work_in_the_question_asks_nothing() -> None:
    asked = asked_attribute("Where was the director of the 2009 film Salt and Iron born?", "place")
    assert asked is not None and asked.attribute.name == "birthplace"


async def test_the_shipped_score_answers_a_book_question_from_its_year_adjective() -> None:
    book = hit("tide#0", "Tidelines is a 1931 novel by the Orvish writer Edda Morn. It tells of a lighthouse keeper "
                         "and his daughters.", title="Tidelines")
    q = question("In which year was the novel Tidelines published?", [book])
    verdict, _, _ = await calibrated(q, [book], find_evidence(q, [book]), Bigrams())
    assert verdict.decision == "answerable" and verdict.features["attribute_stated"] == 1.0, verdict.reason
    _, _, span, answer = write(q.text, [book])
    assert "1931" in f"{span} {answer}"
    # the twin: the passage gives no year of any kind
    plain = hit("tide#0", "Tidelines is a novel by the Orvish writer Edda Morn. It tells of a lighthouse keeper.",
                title="Tidelines")
    q = question(q.text, [plain])
    verdict, _, _ = await calibrated(q, [plain], find_evidence(q, [plain]), Bigrams())
    assert verdict.decision == "not_found"


def test_comparisons_offered_without_or_are_comparisons() -> None:
    for text in ("Between Edda Morn and Kai Brenn, who was born earlier?",
                 "Orvik and Skarhavn were both fishing ports. Which was founded first?",
                 "Between the Tarn Dam and the Holt Bridge, which was completed later?"):
        assert expected_answer(text) == "comparison", text
    for text in ("Edda Morn and Kai Brenn founded Tarn Press. Who was the first editor?",  # an ordinal's rank
                 "When was the band formed between 1990 and 1995, which first played in Orvik?",
                 "Who was the first mayor of Orvik and Skarhavn?"):
        assert expected_answer(text) != "comparison", text


def test_a_pair_named_before_the_question_is_compared() -> None:
    orvik = hit("orvik#0", "Orvik is a fishing port on the Skarn coast. It was founded in 1188.", title="Orvik")
    skar = hit("skar#0", "Skarhavn is a fishing port in the north. It was founded in 1342.", title="Skarhavn")
    decision, _, span, _ = write("Orvik and Skarhavn were both fishing ports. Which was founded first?", [orvik, skar])
    assert decision == "answerable" and span == "Orvik"
    decision, _, span, _ = write("Between Orvik and Skarhavn, which was founded later?", [orvik, skar])
    assert decision == "answerable" and span == "Skarhavn"
    # the twin: one side has no passage
    decision, _, _, _ = write("Orvik and Halden were both fishing ports. Which was founded first?", [orvik, skar])
    assert decision == "not_found"
