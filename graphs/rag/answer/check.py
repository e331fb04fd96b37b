"""Checking an LLM's answer against the passages it was given (the writer's pure logic for LLM answers).

A small model writes fluent sentences that no passage supports: a population no passage states, the wrong
person with a citation, the wrong side of a comparison while quoting both correct years, a bare list of
citation numbers. So before an LLM answer is returned:

1. An answer that is only citation markers (or says the passages hold no answer) is not an answer.
2. Every number, year and name a sentence states must occur in a passage the sentence cites (after uncited
   sentences got the citation of the passage that supports them); a sentence that states one no cited
   passage holds is dropped, and so is one that reads as an instruction (a passage's orders, repeated). An
   answer left with no sentence becomes "not found".
3. A comparison's verdict is computed from the values found for each side; an LLM answer whose verdict names
   the other side, or that gives none (its first sentence names one side only, with no comparative word),
   leads with the computed one instead. A sentence that is a question (the question repeated) is dropped.

Each change is returned as a plain sentence, for the response's ``corrections``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from graphs.domain import Hit
from graphs.rag.answer.verdicts import Verdict, direction
from graphs.text.normalize import normalize
from graphs.text.sentences import looks_like_instruction, split_sentences
from graphs.text.spans import stated_facts

NOT_FOUND = "NOT_FOUND"
"""What the writer prompt asks the LLM to reply when the passages do not answer the question."""
_CITED = re.compile(r"\[(\d{1,3})\]")
_ONLY_MARKERS = re.compile(r"^[\s\[\]\d,，、;；.。:：]*$")
_QUESTION_END = re.compile(r"[?？]\s*$")


@dataclass(frozen=True)
class Checked:
    """An LLM answer after the checks: its text ('' when nothing supported is left) and what was changed."""

    text: str
    corrections: list[str] = field(default_factory=list)
    abstained: bool = False
    """The LLM said the passages do not answer the question."""


def abstains(answer: str) -> bool:
    """Whether an LLM answer is the abstention the prompt asks for."""
    return NOT_FOUND in answer.upper().replace(" ", "_")


def only_markers(answer: str) -> bool:
    """Whether an answer is nothing but citation markers and punctuation ("[1] [2] [3]")."""
    return bool(_CITED.search(answer)) and _ONLY_MARKERS.match(answer) is not None


def _folded_digits(text: str) -> str:
    return re.sub(r"[,，]", "", normalize(text))


def unsupported(sentence: str, hits: Sequence[Hit], question: str) -> list[str]:
    """The numbers, years and names of a sentence that none of the passages it cites states (the question's own
    words need no passage). A sentence that cites nothing is checked against no passage."""
    cited = [hits[n - 1] for n in dict.fromkeys(int(m) for m in _CITED.findall(sentence)) if 1 <= n <= len(hits)]
    sources = [_folded_digits(f"{h.title} {h.text}") for h in cited]
    asked = _folded_digits(question)
    missing = []
    for fact in stated_facts(_CITED.sub(" ", sentence)):
        key = _folded_digits(fact)
        if key and key not in asked and not any(key in s for s in sources):
            missing.append(fact)
    # a rate ("per year", 每年) no cited passage states: the small model copies the question's period onto a
    # number the passage gives without one (a ferry's 180-passenger capacity written as "180 passengers per
    # year"), so the question's words do not excuse it here
    stated = {period for s in cited for period, _ in rates(f"{s.title} {s.text}")}
    missing += [said for period, said in rates(_CITED.sub(" ", sentence)) if period not in stated]
    return missing


_RATES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (period, re.compile(pattern, re.IGNORECASE)) for period, pattern in (
        ("year", r"\b(?:per|each|every)\s+(?:year|annum)\b|\bannual(?:ly)?\b|\byearly\b|每年|年均"),
        ("month", r"\b(?:per|each|every)\s+month\b|\bmonthly\b|每月|每个月|月均"),
        ("week", r"\b(?:per|each|every)\s+week\b|\bweekly\b|每周|每星期|每个星期|周均"),
        ("day", r"\b(?:per|each|every)\s+day\b|\bdaily\b|每天|每日|日均"),
        ("hour", r"\b(?:per|each|every)\s+hour\b|\bhourly\b|每小时|每个小时"),
    ))


def rates(text: str) -> list[tuple[str, str]]:
    """``(period, words)`` of each rate a text states: per year / annually / 每年 / 年均 …, per day / 日均 …"""
    return [(period, m.group(0)) for period, pattern in _RATES for m in pattern.finditer(text)]


_PER_OCCASION = re.compile(r"(?:元|块|£|\$|€|¥|\d)\s*/\s*(?:次|公里|千米|km|趟|课时|人次)|每(?:次|趟|节课|公里)|"
                           r"\b(?:per|each|a)\s+(?:session|visit|use|time|lesson|class|ride|trip|journey|km|kilometre|"
                           r"kilometer|mile|booking)\b", re.IGNORECASE)
"""A price by the occasion or the distance, not by a period: 580元/次, 1.2元/公里, 每次, "per session", "per mile"."""


def other_rate(question: str, sentence: str) -> tuple[str, str] | None:
    """The period a question prices by (每月, "monthly", "per year": one) and the other basis the sentence prices by
    instead, when the sentence states no rate of the asked period: another period ("£5 per hour" for the monthly
    permit) or an occasion or a distance (580元/次 for 每月租金, "1.2元/公里" for a monthly fee). None otherwise."""
    asked = {period for period, _ in rates(question)}
    if len(asked) != 1:
        return None
    stated = {period for period, _ in rates(sentence)}
    if asked <= stated:
        return None
    other = [words for _, words in rates(sentence)] or [m[0] for m in _PER_OCCASION.finditer(sentence)]
    return (next(iter(asked)), other[0].strip()) if other else None


def sources_of_facts(sentence: str, hits: Sequence[Hit]) -> list[int]:
    """The passages (1-based) that together state every number, year and name of a sentence (the first passage
    stating each), folded as ``unsupported`` folds them; [] when one of them is in none."""
    texts = [_folded_digits(f"{h.title} {h.text}") for h in hits]
    found: list[int] = []
    for fact in stated_facts(sentence):
        key = _folded_digits(fact)
        where = next((n for n, text in enumerate(texts, start=1) if key in text), None)
        if where is None:
            return []
        found.append(where)
    return list(dict.fromkeys(found))


def verify_answer(answer: str, hits: Sequence[Hit], question: str, verdict: Verdict | None = None,
                 *, chinese: bool = False) -> Checked:
    """The LLM answer with its unsupported sentences dropped and its comparison verdict checked."""
    if abstains(answer):
        return Checked("", ["the LLM found no answer in the passages"], abstained=True)
    if only_markers(answer):
        return Checked("", ["the LLM's answer was only citation markers"])
    kept: list[str] = []
    corrections: list[str] = []
    for sentence in split_sentences(answer) or [answer]:
        if only_markers(sentence):  # "…踢爆[1]。[1]": markers after a sentence's end belong to it
            new = [m for m in _CITED.findall(sentence) if kept and f"[{m}]" not in kept[-1]]
            if new:
                kept[-1] += "".join(f"[{m}]" for m in dict.fromkeys(new))
            continue
        if _QUESTION_END.search(_CITED.sub("", sentence)):
            corrections.append(f"dropped “{_CITED.sub('', sentence).strip()}”: a question is no answer")
        elif looks_like_instruction(sentence):  # a passage's orders, repeated: never part of an answer
            corrections.append(f"dropped “{_CITED.sub('', sentence).strip()}”: it reads as an instruction")
        elif missing := unsupported(sentence, hits, question):
            corrections.append(f"dropped “{_CITED.sub('', sentence).strip()}”: no passage it cites states "
                               f"{', '.join(missing)}")
        else:
            kept.append(sentence)
    if verdict is not None and verdict.span is not None:
        kept, changed = _with_verdict(kept, verdict, chinese)
        corrections += changed
    text = ("" if chinese else " ").join(kept)
    if not _CITED.sub("", text).strip():
        return Checked("", [*corrections, "no supported sentence was left"])
    return Checked(text, corrections)


def _with_verdict(sentences: list[str], verdict: Verdict, chinese: bool) -> tuple[list[str], list[str]]:
    """The sentences led by the computed verdict when the LLM's first named side is not its winner."""
    names = [normalize(s.name) for s in verdict.sides]
    winner = normalize(verdict.span or "")
    first = sentences[0] if sentences else ""
    folded = normalize(first)
    seen = sorted((folded.find(n), n) for n in names if n and n in folded)
    cited = "".join(dict.fromkeys(f"[{s.sentence.hit + 1}]" for s in verdict.sides if s.sentence is not None))
    lead = f"{verdict.text}{cited}"
    if seen and seen[0][1] != winner:
        return [lead, *sentences[1:]], [f"the LLM's verdict contradicted the values found; replaced by “{verdict.text}”"]
    if seen and (len(seen) == 2 or direction(first) is not None):
        return sentences, []  # both sides, the winner first; or the winner alone with a comparative word
    return [lead, *sentences], [f"the LLM's answer gave no verdict: the one computed from the values leads "
                                f"({verdict.text})"]


@dataclass(frozen=True)
class Draft:
    """An LLM's answer as write_answer hands it to check_answer: the reply, with citations added where a
    passage supports an uncited sentence, the verdict computed for a comparison, and the extractive answer
    (a node update) that stands in when the reply is only citation markers."""

    raw: str
    text: str
    verdict: Verdict | None
    fallback: dict[str, Any]
