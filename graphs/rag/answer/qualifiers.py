"""The question's qualifiers: what narrows its subject to one fact — the years and dates it names ("2022年",
"10·29"), ordinals ("第十届", "the 3rd"), other numbers and codes, and its rare content words (weighted by
inverse document frequency). RGB-style hard negatives are passages about the same subject and the same kind of
fact for another qualifier (another year, another edition, another place, another person): the evidence that
answers must satisfy the question's qualifiers — in its sentence, or at least in its passage."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphs.text.normalize import has_han, normalize
from graphs.text.terms import term_weight

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")
_DATE = re.compile(r"(?<!\d)(\d{1,2})\s*[·.\-/月]\s*(\d{1,2})(?:日|号)?(?!\d)")
_ORDINAL_ZH = re.compile(r"第([0-9一二三四五六七八九十百零〇两]+)(?:届|次|季|期|轮|代|版|号|批|场|名)")
_ORDINAL_EN = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\b|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|"
                         r"ninth|tenth)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d+(?:\.\d+)?(?![A-Za-z\d.])")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}
_EN_ORDINALS = {w: n for n, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                                            "eighth", "ninth", "tenth"), start=1)}
_ASKING = re.compile(r"哪|什么|多少|谁|几|怎么|如何|是否|为何|为什么|何时")
"""Question words: what is asked, never a qualifier of it."""
RARE_FROM = 1.0
"""A Chinese content word counts as a qualifier from this weight (its idf over a typical word's: 1.0 and up is
rarer than a typical word); English words of the question's relation count when capitalised or of 7 letters+."""


@dataclass(frozen=True)
class Qualifier:
    """One thing the answering evidence must also say, and the forms that say it."""

    kind: str
    """year, date, ordinal, number, code, word"""
    forms: tuple[str, ...]
    weight: float = 1.0


def zh_number(text: str) -> int | None:
    """A Chinese numeral up to the hundreds ("十", "十二", "二十九", "一百零三"), or None."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for ch in text:
        if ch in _ZH_DIGITS:
            current = _ZH_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current


def qualifiers(question: str, relation: dict[str, float], names: Sequence[str] = (),
               attribute_words: Sequence[str] = ()) -> list[Qualifier]:
    """The qualifiers of a question: years, month-day dates, ordinals, other numbers, and rare content words
    of what it asks (not its names, which the rules already require, nor the words of the asked attribute)."""
    out: list[Qualifier] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for m in _YEAR.finditer(question):
        out.append(Qualifier("year", (m[1],)))
        taken.append(m.span())
    for m in _DATE.finditer(question):
        if free(m):
            month, day = int(m[1]), int(m[2])
            if 1 <= month <= 12 and 1 <= day <= 31:
                out.append(Qualifier("date", (f"{month}月{day}日", f"{month}·{day}", f"{month}.{day}", f"{month}-{day}",
                                              f"{month}/{day}", f"{month}月{day}号")))
                taken.append(m.span())
    for m in _ORDINAL_ZH.finditer(question):
        if free(m) and (n := zh_number(m[1])) is not None:
            out.append(Qualifier("ordinal", (m[0], f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd")))
            taken.append(m.span())
    for m in _ORDINAL_EN.finditer(question):
        if free(m):
            n = int(m[1]) if m[1] else _EN_ORDINALS[m[2].lower()]
            out.append(Qualifier("ordinal", (m[0].lower(), f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd")))
            taken.append(m.span())
    folded_names = [normalize(n) for n in names]
    for m in _NUMBER.finditer(question):
        if free(m) and not any(m[0] in n for n in folded_names):
            out.append(Qualifier("number", (m[0],)))
    skip = {normalize(w) for w in attribute_words}
    for term in relation:
        if term in skip or any(term in s or s in term for s in skip if s) or any(term in n for n in folded_names):
            continue
        if _NUMBER.fullmatch(term) or _YEAR.search(term):
            continue
        if has_han(term):
            if len(term) >= 2 and term_weight(term) >= RARE_FROM and not _ASKING.search(term):
                out.append(Qualifier("word", (term,), 0.5))
        elif len(term) >= 7:
            out.append(Qualifier("word", (term,), 0.5))
    return out


def satisfied(found: Sequence[Qualifier], text: str) -> float:
    """Weighted share of the qualifiers that a folded text states (1.0 with none)."""
    if not found:
        return 1.0
    total = sum(q.weight for q in found)
    return sum(q.weight for q in found if any(f in text for f in q.forms)) / total
