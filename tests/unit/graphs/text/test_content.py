"""The one content check of every question, and the answerability of a question with no terms."""

from __future__ import annotations

import pytest

from graphs.domain import ParsedQuery
from graphs.rag.answering import assess, find_evidence, question_of
from graphs.text.answer_types import expected_answer
from graphs.text.content import has_content
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, hit

CONTENT_FREE = ["", "?", "？", "。", "-", "...", "……", "\u0000", "🍎", "🍎🍏 ?!", "\u200b", "\ufeff", "\u200b\ufeff \u2060",
                "\u3164", "\u115f\u1160", "\uffa0", "\u034f", "\u0301", "\ue000", "\ufdd0", "\uffff", "\u0378",
                "$%^&*", "→ ← ∑", "\u202e\u202d", " \t\n\u3000"]
CONTENT = ["a", "中", "7", "①", "Ⅻ", "ｱ", "한", "ё", "x\u200b", "🍎 apple", "٣", "?q"]


@pytest.mark.parametrize("text", CONTENT_FREE)
def test_text_without_a_letter_or_digit_has_no_content(text: str) -> None:
    assert not has_content(text)


@pytest.mark.parametrize("text", CONTENT)
def test_any_visible_letter_or_digit_of_any_script_is_content(text: str) -> None:
    assert has_content(text)


@pytest.mark.parametrize("text", ["?", "。", "...", "🍎", "\u200b", "-"])
def test_a_question_with_no_terms_is_never_answerable(text: str) -> None:
    # any passage "covers 100%" of zero terms: the verdict must not say so
    hits = [hit("d1", "Apple released the iPhone in 2007.", title="Apple")]
    q = question_of(text, expected_answer(text), analyze_query(text, gazetteer_of([]), TODAY), [])
    verdict = assess(q, hits, find_evidence(q, hits))
    assert verdict.decision == "not_found" and verdict.score == 0.0
    assert "100%" not in verdict.reason


def test_a_parse_that_kept_no_term_claims_no_coverage() -> None:
    # an LLM's parse may keep no keyword: the question has content, so it is judged, but nothing is "100% covered"
    text = "When was SpaceX founded?"
    hits = [hit("spacex#0", "SpaceX was founded in 2002.", title="SpaceX")]
    q = question_of(text, expected_answer(text), ParsedQuery(original_query=text), [])
    assert not q.weights and not q.anchors
    verdict = assess(q, hits, find_evidence(q, hits))
    assert "%" not in verdict.reason
