"""Refusals that no order by meaning can change: spare the embedder the sentences it would compare.

The answer layer compares sentences in the other language with the question by meaning (an embedding each:
tens of milliseconds with e5 on a CPU, cold) and judges them again with the calibrated answerability
(``answerability.calibrated``). Its rules come first and several of them read only what every candidate
sentence holds, not which of them ranks first: a year of the question that no candidate sentence (with its
context: title, neighbours, its passage's date) states; a name of the question that no retrieved passage
mentions and that no sentence in the other language could stand for by meaning. When such a rule refuses every
sentence the second look could choose, its verdict is a rule's refusal whatever the similarities, and a rule's
refusal never replaces the first verdict (``question.second_look_stands``): the embeddings are skipped and the
answer is the same.

This is a bound, not a guess: it returns a reason only where ``assess`` must refuse every view; anything else
(a name that meaning could carry across, a code, the score itself) is left to the embeddings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graphs.domain import Hit
from graphs.rag.answer.evidence import BRIDGE_PASSAGES, in_other_language, sentences_of, unspellable
from graphs.rag.answer.question import Question, unmentioned, years_unstated
from graphs.text.content import has_content

RULES_ONLY = ("comparison", "yes_no")
"""Question kinds ``answerability.calibrated`` judges by the rules of the two sides alone, never by the score."""


def second_look_spared(q: Question, hits: Sequence[Hit]) -> bool:
    """Whether the second look at the passages in the other language (after those in the question's language did
    not answer) cannot stand whatever its sentences' similarity: a rule would refuse every view of them, or the
    question is of a kind the rules alone judge (a rule's verdict never replaces the first one:
    ``question.second_look_stands``)."""
    return q.kind in RULES_ONLY or refused_whatever_meaning(q, hits) is not None


def refused_whatever_meaning(q: Question, hits: Sequence[Hit]) -> str | None:
    """Why every view of the passages in the other language than the question's would be refused by a rule of
    ``answerability.assess`` whatever their sentences' similarity to the question, or None when the
    similarities could change the verdict (then they must be computed)."""
    if not hits:
        return "no passage was retrieved"
    if q.kind in RULES_ONLY:
        return None  # judged by the sides' rules, which may answer: not a refusal
    if not q.weights and not q.anchors and not has_content(q.text):
        return "the question has no term to look for"
    candidates = [s for s in sentences_of(q, hits, BRIDGE_PASSAGES) if in_other_language(q, s.text)]
    missing = unmentioned(q, hits)  # the rule of ``assess``, read the same way
    if missing:
        # a sentence close in meaning may stand for a name it cannot spell (``answerability._other_language``):
        # assume every candidate is as close as can be; a name none of them could stand for stays missing
        could = {m for s in candidates for m in unspellable(q, replace(s, semantic=1.0))}
        lost = [m for m in missing if m not in could]
        return f"no retrieved passage mentions {', '.join(lost)}" if lost else None
    lost_years = years_unstated(q, (s.context for s in candidates))
    if lost_years:
        return f"no passage in the other language is of {', '.join(lost_years)}"
    return None
