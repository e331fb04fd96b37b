"""Answerability: the passages support an answer only if every entity the question names occurs in them and the
best evidence covers enough of the question; otherwise the answer is "not found" and the passages are shown as
related, never as the answer."""

from __future__ import annotations

from collections.abc import Sequence

from graphs.domain import Answerability, Hit
from graphs.rag.answer.evidence import Evidence, unspellable
from graphs.rag.answer.question import (
    EVIDENCE_PASSAGES,
    Question,
    mentioned,
    states_codes,
    tagged,
)
from graphs.rag.answer.verdicts import sides_of
from graphs.text.content import has_content
from graphs.text.normalize import normalize

SUPPORTED_FROM = 0.45
"""The best evidence must cover at least this share of the question's (weighted) terms."""


def assess(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence],
           supported_from: float = SUPPORTED_FROM) -> Answerability:
    """Whether the top passages support an answer: every named entity found, enough of the question covered."""
    if not hits:
        return Answerability(decision="not_found", score=0.0, reason="no passage was retrieved")
    termless = not q.weights and not q.anchors  # zero terms are "100% covered" by any passage
    if termless and not has_content(q.text):  # punctuation, emoji, invisible characters: never answerable
        return Answerability(decision="not_found", score=0.0, reason="the question has no term to look for")
    blob = " ".join(f"{normalize(h.title)} {normalize(h.text)} {tagged(h)}" for h in hits[:EVIDENCE_PASSAGES])
    if q.kind in ("comparison", "yes_no") and len(sides := sides_of(q)) == 2:
        # a question about two things is answered from what is said of each
        lost = [name for name in sides if not mentioned((normalize(name),), blob)]
        if lost:
            return Answerability(decision="not_found", score=0.5 * (2 - len(lost)) / 2,
                                 reason=f"no retrieved passage mentions {', '.join(lost)}")
        return Answerability(decision="answerable", score=1.0,
                             reason=f"retrieved passages mention both {sides[0]} and {sides[1]}")
    missing = [forms[0] for forms in q.anchors if not mentioned(forms, blob)]
    top = evidence[0] if evidence else None
    best = top.coverage if top is not None else 0.0
    if missing and top is not None and (by_meaning := _other_language(q, missing, top)):
        # a name the question writes in its language cannot be spelled the same way in a passage of the other
        # language ("the Q3 safety meeting" over 第三季度安全例会): judged there by meaning, not by spelling
        missing = [m for m in missing if m not in by_meaning]
        if not missing and best >= supported_from:
            return Answerability(decision="answerable", score=round(best, 3),
                                 reason=f"the best evidence covers {best:.0%} of the question's terms; "
                                        f"{', '.join(by_meaning)} judged by meaning in a passage in the other "
                                        "language")
    if missing:
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no retrieved passage mentions {', '.join(missing)}")
    if q.codes and top is not None and all(s.semantic is None for s in top.sentences) and (
            lost_codes := [c for c in q.codes if not states_codes([c], blob)]):
        # a code the passages never state ("E9"): its neighbours' lines ("E1: …") do not answer
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no retrieved passage states {', '.join(c.upper() for c in lost_codes)}")
    if top is None or (q.anchors and top.anchored == 0):
        names = ", ".join(forms[0] for forms in q.anchors)
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"the passages that mention {names} say nothing of what is asked")
    if lost := [y for y in q.years if not any(y in s.context for s in top.sentences)]:
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no passage that answers is of {', '.join(lost)}")
    if best < supported_from:
        return Answerability(decision="not_found", score=round(best, 3),
                             reason=f"the best evidence covers {best:.0%} of the question's terms "
                                    f"(< {supported_from:.0%})")
    spelled = "".join(f"; the question's {name!r} is taken as {near!r}, as the passages spell it"
                      for name, near in q.misspelled.items())
    if termless:  # a parse that kept no term (an LLM's): no coverage to claim
        return Answerability(decision="answerable", score=round(best, 3),
                             reason="no term of the question was extracted: the best retrieved passage answers"
                                    + spelled)
    return Answerability(decision="answerable", score=round(best, 3),
                         reason=f"the best evidence covers {best:.0%} of the question's terms"
                                + (f" and names {', '.join(f[0] for f in q.anchors)}" if q.anchors else "") + spelled)


CROSS_NAME_FROM = 0.6
"""A passage in the other language must be at least this close in meaning (rescaled dense score) to stand for
the names of the question that it cannot spell."""


def _other_language(q: Question, missing: Sequence[str], top: Evidence) -> list[str]:
    """The missing names that the best evidence, in the other language than the question's and close in
    meaning, cannot be expected to spell: names without digits or Chinese characters where it is Chinese, and
    Chinese names where it is English (a product code "X300" is written the same in every language)."""
    return [m for m in missing if any(m in unspellable(q, s) for s in top.sentences
                                      if s.semantic is not None and s.semantic >= CROSS_NAME_FROM)]
