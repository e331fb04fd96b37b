"""Three ways a quantity question went wrong on a user's files, with own examples: a value that measures something
else (a duration for "how many", a count of another noun), a quantity attribute asked as "what is the …" whose
evidence holds no number, and a run-in label ("Warranty.") that states what the sentences under it are about."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.evidence import find_evidence, label, sentences_of
from tests.support.answers import rule_verdict
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams, model_on, question

DRILL = hit("drill#0", "The evacuation drill at Fenwick Tower ended after 25 minutes. Wardens then checked every floor.",
            title="Fenwick Tower drill")
DRILL_COUNT = hit("drill#1", "The evacuation drill at Fenwick Tower involved 14 wardens and ended after 25 minutes.",
                  title="Fenwick Tower drill")
FAIR = hit("fair#0", "第九届青禾书市昨日开幕，共有参展出版社86家。", title="青禾书市")
FAIR_COUNT = hit("fair#1", "第九届青禾书市昨日开幕，共有参展出版社86家，志愿者240名。", title="青禾书市")


@pytest.mark.parametrize(("text", "without", "with_it", "value"), [
    ("How many wardens took part in the Fenwick Tower evacuation drill?", DRILL, DRILL_COUNT, "14"),
    ("青禾书市共有多少名志愿者？", FAIR, FAIR_COUNT, "240"),
])
async def test_a_count_is_not_answered_by_another_measure_or_another_noun(text: str, without: Hit, with_it: Hit,
                                                                         value: str) -> None:
    from graphs.rag.answer.answerability import calibrated
    from graphs.rag.answer.evidence import typed_span

    answers_all = model_on({}, bias=8.0)  # a score that answers everything: the rule alone refuses
    verdict = await rule_verdict(question(text, [without]), [without])
    assert verdict.decision == "not_found" and verdict.decided_by == "rule", verdict.reason
    q = question(text, [with_it])
    evidence = find_evidence(q, [with_it])
    verdict, _, _ = await calibrated(q, [with_it], evidence, Bigrams(), model=answers_all)
    assert verdict.decision == "answerable", verdict.reason
    span = typed_span(q, evidence[0].sentences[0])
    assert span is not None and value in span.text


KETTLE = hit("kettle#0", "The Brume K2 kettle has a 1.7 litre jug. Its speed dial sets the boil from gentle to rapid.",
             title="Brume K2")
KETTLE_POWER = hit("kettle#1", "The Brume K2 kettle has a 1.7 litre jug and heats at 3 kW, boiling a litre in 90 seconds.",
                   title="Brume K2")


async def test_what_is_the_quantity_needs_a_number() -> None:
    from graphs.rag.answer.answerability import measured

    verdict = await rule_verdict(question("What is the top speed of the Brume K2 kettle?", [KETTLE]), [KETTLE])
    # refused by the measure's unit written nowhere (a speed dial is no speed), before the typed-value rule
    assert verdict.decision == "not_found" and ("holds no number" in verdict.reason
                                                or "gives a speed" in verdict.reason), verdict.reason
    assert measured(question("Who is the top speed skater of Brume?", [KETTLE]), None) is None


MANUAL = hit("manual#0", "Brume K2 kettle: owner notes\n\nCleaning. Descale the jug monthly with citric acid.\n\n"
             "Guarantee. The heating plate is covered for 3 years and the lid for 1 year.", title="Brume K2 notes")


def test_a_run_in_label_is_no_sentence_and_states_what_follows() -> None:
    assert label("Guarantee.") and label("Error codes:") and label("保修：")
    assert not label("The lid broke.") and not label("It works.")
    q = question("How long is the guarantee on the Brume K2 kettle?", [MANUAL])
    sentences = sentences_of(q, [MANUAL])
    assert all(s.text.strip() not in ("Cleaning.", "Guarantee.") for s in sentences)
    covered = next(s for s in sentences if "covered" in s.text)
    assert covered.under == "Guarantee"


async def test_a_value_under_the_label_of_the_asked_attribute_answers() -> None:
    from graphs.rag.answer.answerability import calibrated
    from graphs.rag.answer.calibration import describe

    q = question("How long is the warranty on the Brume K2 kettle's heating plate?", [MANUAL.model_copy(
        update={"text": MANUAL.text.replace("Guarantee.", "Warranty.")})])
    hits = [MANUAL.model_copy(update={"text": MANUAL.text.replace("Guarantee.", "Warranty.")})]
    judged = describe(q, hits, find_evidence(q, hits), Bigrams())
    assert judged.features["attribute_stated"] == 1.0 and judged.features["span_near"] == 1.0
    verdict, _, _ = await calibrated(q, hits, find_evidence(q, hits), Bigrams())
    assert verdict.decision == "answerable", verdict.reason
