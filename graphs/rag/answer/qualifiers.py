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
_NEXT_WORD = re.compile(r"\s+([A-Za-z][\w-]*)")
_VERSION = re.compile(r"\b([A-Z][A-Za-z-]*[A-Za-z]|[a-z]+[A-Z][A-Za-z]*)\s+v?(\d+(?:\.\d+)*)(?![\w.]*\d)")
"""A name and its number, as a question writes a version or a model ("Corvane 1.0", "Route 66", "iPhone 15")."""
_NOT_NAMES = {"in", "on", "at", "by", "of", "the", "since", "before", "after", "from", "to", "until", "and", "or",
              "than", "about", "around", "over", "under", "page", "chapter", "step", "figure", "table", "top",
              "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
              "dec"}
_SENTENCE_VERSION = re.compile(r"\b([a-z][\w-]*)\s+v?(\d+(?:\.\d+)*)(?![\w.]*\d)")
_MONTHS_EN = {m: n for n, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"), start=1)}
_MONTH_WORDS = "|".join(_MONTHS_EN)
DATE_EN = re.compile(rf"\b({_MONTH_WORDS})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                      rf"({_MONTH_WORDS})\b", re.IGNORECASE)
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
    """year, date, ordinal, number, version, code, word"""
    forms: tuple[str, ...]
    weight: float = 1.0
    counter: str = ""
    """An English ordinal's noun ("conference" of "the second conference"; folded): another ordinal of the same
    noun is another edition. A version's name ("corvane" of "Corvane 1.0")."""


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
    for m in _VERSION.finditer(question):
        if free(m) and not _YEAR.fullmatch(m[2]) and m[1].lower() not in _NOT_NAMES:
            out.append(Qualifier("version", (f"{m[1].lower()} {m[2]}",), counter=m[1].lower()))
            taken.append(m.span())
    for m in _DATE.finditer(question):
        if free(m):
            month, day = int(m[1]), int(m[2])
            if 1 <= month <= 12 and 1 <= day <= 31:
                out.append(Qualifier("date", (f"{month}月{day}日", f"{month}·{day}", f"{month}.{day}", f"{month}-{day}",
                                              f"{month}/{day}", f"{month}月{day}号")))
                taken.append(m.span())
    for m in DATE_EN.finditer(question):
        month = _MONTHS_EN[(m[1] or m[4]).lower()]
        day = int(m[2] or m[3])
        if free(m) and 1 <= day <= 31:
            name = (m[1] or m[4]).lower()
            out.append(Qualifier("date", (f"{month}月{day}日", f"{name} {day}", f"{day} {name}", f"{month}·{day}",
                                          f"{month}/{day}")))
            taken.append(m.span())
    for m in _ORDINAL_ZH.finditer(question):
        if free(m) and (n := zh_number(m[1])) is not None:
            out.append(Qualifier("ordinal", (m[0], f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd")))
            taken.append(m.span())
    for m in _ORDINAL_EN.finditer(question):
        if free(m):
            n = int(m[1]) if m[1] else _EN_ORDINALS[m[2].lower()]
            noun = _NEXT_WORD.match(question, m.end())
            out.append(Qualifier("ordinal", (m[0].lower(), f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd"),
                                 counter=noun[1].lower() if noun else ""))
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


# ---------------------------------------------------------------------------- binding to the evidence sentence

_SENTENCE_DATE = re.compile(rf"(?<!\d)(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*[日号]|(?<!\d)(\d{{1,2}})·(\d{{1,2}})(?!\d)|"
                            rf"\b({_MONTH_WORDS})\s+(\d{{1,2}})\b|\b(\d{{1,2}})\s+({_MONTH_WORDS})\b", re.IGNORECASE)
_NUMERIC_ORDINAL_EN = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\b", re.IGNORECASE)
_ORDINAL_NOUN_EN = re.compile(r"\b(?:(\d{1,3})(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|"
                              r"ninth|tenth))\s+([a-z][\w-]*)", re.IGNORECASE)
"""An English ordinal and the word after it (the noun it counts, or the name's first word)."""


@dataclass(frozen=True)
class Conflict:
    """The answering sentence states another value of a qualifier's kind, and not the question's."""

    kind: str
    """year, date, ordinal, version, place, organization"""
    asked: str
    stated: str


@dataclass(frozen=True)
class Binding:
    """How the question's qualifiers bind to one answering sentence."""

    bound: float
    """Weighted share of the qualifiers the sentence states, with its immediate context (its passage's title,
    the sentence before it) and its chunk's own date (1.0 with none)."""
    conflicts: tuple[Conflict, ...] = ()


def _month_days(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _SENTENCE_DATE.finditer(text):
        if m[1]:
            month, day = int(m[1]), int(m[2])
        elif m[3]:
            month, day = int(m[3]), int(m[4])
        elif m[5]:
            month, day = _MONTHS_EN[m[5].lower()], int(m[6])
        else:
            month, day = _MONTHS_EN[m[8].lower()], int(m[7])
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append((month, day))
    return out


def _ordinals(text: str) -> list[tuple[int, str]]:
    """(number, counter) of a text's ordinals: 第十届 → (10, 届); numeric English ones ("3rd") → (3, "")."""
    out = [(n, m[0][-1]) for m in _ORDINAL_ZH.finditer(text) if (n := zh_number(m[1])) is not None]
    return out + [(int(m[1]), "") for m in _NUMERIC_ORDINAL_EN.finditer(text)]


def _asked_ordinal(q: Qualifier) -> tuple[int, str] | None:
    found = _ordinals(q.forms[0])
    if found:
        return found[0]
    word = q.forms[0].lower()
    return (_EN_ORDINALS[word], "") if word in _EN_ORDINALS else None


def _conflict(q: Qualifier, sentence: str) -> Conflict | None:
    """Another value of the qualifier's kind that the sentence states (the sentence does not state the
    question's): another year, another month-day, another ordinal of the same counter (第十四届 for 第十五届)."""
    if q.kind == "year":
        other = [y for y in _YEAR.findall(sentence) if y != q.forms[0]]
        return Conflict("year", q.forms[0], other[0]) if other else None
    if q.kind == "date":
        month, day = (int(x) for x in re.findall(r"\d+", q.forms[0])[:2])
        other = [md for md in _month_days(sentence) if md != (month, day)]
        return Conflict("date", q.forms[0], f"{other[0][0]}月{other[0][1]}日") if other else None
    if q.kind == "ordinal" and (asked := _asked_ordinal(q)) is not None:
        other = [o for o in _ordinals(sentence) if o[1] == asked[1] and o[0] != asked[0]]
        if other:
            n, counter = other[0]
            return Conflict("ordinal", q.forms[0], f"第{n}{counter}" if counter else f"#{n}")
        counted = [m for m in _ORDINAL_NOUN_EN.finditer(sentence) if q.counter and m[3].lower() == q.counter
                   and _ordinal_number(m) != asked[0]]
        if counted:  # "the fourth northern skies conference" for "the second Northern Skies Conference"
            return Conflict("ordinal", f"{q.forms[0]} {q.counter}", counted[0][0].lower())
    if q.kind == "version":
        versions = [m for m in _SENTENCE_VERSION.finditer(sentence)
                    if m[1].lower() == q.counter and f"{m[1].lower()} {m[2]}" != q.forms[0]]
        if versions:  # corvane 2.0 for corvane 1.0
            return Conflict("version", q.forms[0], versions[0][0].lower())
    return None


def _ordinal_number(m: re.Match[str]) -> int:
    return int(m[1]) if m[1] else _EN_ORDINALS[m[2].lower()]


def _states_kind(q: Qualifier, sentence: str) -> bool:
    """Whether a sentence states a value of the qualifier's kind (any year, month-day or ordinal)."""
    if q.kind == "year":
        return bool(_YEAR.search(sentence))
    if q.kind == "date":
        return bool(_month_days(sentence))
    if q.kind == "version":
        return any(m[1].lower() == q.counter for m in _SENTENCE_VERSION.finditer(sentence))
    return q.kind == "ordinal" and (bool(_ordinals(sentence)) or any(
        m[3].lower() == q.counter for m in _ORDINAL_NOUN_EN.finditer(sentence) if q.counter))


def bind(found: Sequence[Qualifier], sentence: str, near: str = "", date: int | None = None) -> Binding:
    """Bind the question's qualifiers to an answering sentence (folded): the share it states with its
    immediate context ``near`` (folded: title, the sentence before) and its chunk's own date (YYYYMMDD), and
    the qualifiers it contradicts — it states no form of one but another value of its kind (a sentence giving
    the attribute for 2021 is no evidence for a question about 2022, even in a passage that mentions 2022), or,
    stating no value of that kind itself ("本届", "that year"), its immediate context gives another."""
    if not found:
        return Binding(1.0)
    dated = []
    if date:
        year, month, day = date // 10000, date // 100 % 100, date % 100
        dated = [str(year)] + ([f"{month}月{day}日"] if month and day else [])
    text = f"{near} {sentence}"
    total = sum(q.weight for q in found)
    stated, conflicts = 0.0, []
    for q in found:
        if any(f in text for f in q.forms) or (q.kind in ("year", "date") and any(f in dated for f in q.forms)):
            stated += q.weight
        elif (c := _conflict(q, sentence) or (_conflict(q, near) if not _states_kind(q, sentence) else None)):
            conflicts.append(c)  # the sentence's own value, else (本届, "that year") the one its context gives
    return Binding(stated / total, tuple(conflicts))


def other_names(asked: Sequence[tuple[tuple[str, ...], str]], sentence: str, names: dict[str, str],
                skip: str | None = None) -> list[Conflict]:
    """Named qualifiers the sentence replaces: the question names a place or an organization (``asked``: its
    folded spellings and type) that the sentence (folded) does not, while the sentence names another of that
    type (``names``: folded name → type) — the growth of 中国 for a question about 美国, the sales of another
    maker. ``skip``: the type of the answer itself (the place that answers a where question is no conflict)."""
    out = []
    for forms, kind in asked:
        spelled = [f for f in forms if f]
        if kind not in ("LOCATION", "ORGANIZATION") or kind == skip or not spelled or any(f in sentence
                                                                                       for f in spelled):
            continue
        other = [n for n, k in names.items() if k == kind and n and not any(n in f or f in n for f in spelled)]
        if other:
            out.append(Conflict("place" if kind == "LOCATION" else "organization", spelled[0], other[0]))
    return out
