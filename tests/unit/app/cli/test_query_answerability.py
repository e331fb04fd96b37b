"""``aer query`` prints what decided the answerability: the score, a rule, or the bilingual lexicon — never the
lexicon's "answerable" beside the low score it overrode."""

from __future__ import annotations

from app.cli.query import answerability_basis
from graphs.domain import Answerability


def test_the_lexicons_decision_is_printed_apart_from_the_score() -> None:
    lexicon = Answerability(decision="answerable", score=0.01, reason="stated across languages …",
                            decided_by="lexicon")
    assert answerability_basis(lexicon).startswith("by the bilingual lexicon")
    assert "0.01 is not used" in answerability_basis(lexicon)
    scored = Answerability(decision="answerable", score=0.83, reason="…", decided_by="score")
    assert answerability_basis(scored) == "score 0.83"
    assert answerability_basis(Answerability(decision="not_found", score=0.0, reason="…", decided_by="rule")) == \
        "by a rule"
