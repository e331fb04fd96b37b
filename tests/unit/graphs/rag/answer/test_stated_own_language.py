"""A line in the question's language that names the subject and states the asked attribute with a value next to
it (a table cell under the attribute's column) is answerable by the lexicon, whatever share of the question's
everyday words it repeats (``answerability.stated_in_own_language``, ``calibration.headed_cell``). Invented lines."""

from __future__ import annotations

import re

import pytest

from graphs.rag.answer.answerability import stated_in_own_language
from graphs.rag.answer.attributes import lexicon, stated_at
from graphs.rag.answer.calibration import headed_cell
from graphs.text.spans import Span

MET = {"other_language": 0.0, "attribute_known": 1.0, "attribute_stated": 1.0, "span_near": 1.0, "anchored": 1.0,
       "anchored_sentence": 1.0, "group_word_unmet": 0.0, "value_missing": 0.0, "qualifier_conflict": 0.0,
       "qualified": 1.0, "qualifier_bound": 1.0}


def _span(text: str, value: str) -> Span:
    at = text.index(value)
    return Span(at, at + len(value), value)


@pytest.mark.parametrize(("line", "value"), [
    ("fare adult — Silver Gull harbour crossing to Pellow Island: EUR 12.50", "EUR 12.50"),
    ("票价 — 银鸥号 港口至白沙岛 往返航线 成人: 85元", "85元"),
])
def test_a_cells_column_header_governs_its_value_however_long_the_row_key(line: str, value: str) -> None:
    price = next(a for a in lexicon() if a.name == "price")
    marks = stated_at(price, line)
    assert marks and headed_cell(line, marks, [_span(line, value)])


def test_words_of_the_attribute_in_the_row_key_or_prose_govern_nothing() -> None:
    price = next(a for a in lexicon() if a.name == "price")
    prose = "The price list was revised in spring, and the Silver Gull now carries 48 passengers a crossing."
    assert not headed_cell(prose, stated_at(price, prose), [_span(prose, "48")])
    # the attribute's word is in the row's key, not the column's header: the header (seats) says what 48 is
    row = "seats — Silver Gull (ticket office at pier 2): 48"
    marks = [m.span() for m in re.finditer("ticket", row)]
    assert not headed_cell(row, marks, [_span(row, "48")])


def test_every_part_met_in_the_questions_language_states_what_is_asked() -> None:
    assert stated_in_own_language(MET, conflicts=False)
    assert stated_in_own_language({**MET, "qualified": 0.0, "qualifier_bound": 0.0}, conflicts=False)


@pytest.mark.parametrize("unmet", [
    {"other_language": 1.0},  # across languages: the lexicon's other rule decides
    {"attribute_known": 0.0},  # no attribute of the lexicon asked
    {"attribute_stated": 0.5},  # the attribute stated only elsewhere in the passage
    {"span_near": 0.5},  # a value, not next to the attribute's words
    {"anchored": 0.5},  # a name of the question missing
    {"anchored_sentence": 0.0},  # the answering line names not the subject
    {"qualifier_bound": 0.5},  # a year or date of the question not bound to the line
    {"qualifier_conflict": 1.0},  # another year or edition
    {"value_missing": 1.0},
    {"group_word_unmet": 1.0},
])
def test_any_part_unmet_leaves_the_decision_to_the_score(unmet: dict[str, float]) -> None:
    assert not stated_in_own_language({**MET, **unmet}, conflicts=False)


def test_a_conflict_leaves_the_decision_to_the_score() -> None:
    assert not stated_in_own_language(MET, conflicts=True)
