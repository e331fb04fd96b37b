"""Short answers of a given kind inside a sentence: names (people, organizations, places, titles), dates,
numbers with their unit, in Chinese and English. The extractive writer picks one as its ``answerSpan``."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import NamedTuple

from graphs.text.answer_types import AnswerType
from graphs.text.dates import find_dates
from graphs.text.entity_spotting import pos_spans, title_case_spans
from graphs.text.normalize import normalize


class Span(NamedTuple):
    """A candidate answer at ``sentence[start:end]``."""

    start: int
    end: int
    text: str
    type: str | None = None
    """What the tagger says it names (PERSON, LOCATION, ORGANIZATION …), when it says."""


_NO_DAY = date(1, 1, 1)  # dates in passages are absolute: no "last year" to resolve
_YEAR = re.compile(r"(?<![\d.])(?:1[0-9]{3}|20[0-9]{2})(?:\s*年)?(?!\d|\.\d)")  # "in 1849." ends a sentence
_ZH_NUMERAL = "零〇一二两三四五六七八九十百千万亿"
_CLASSIFIER_ZH = (r"(?:个|位|名|年|岁|月|日|天|次|人|家|种|本|部|条|项|只|件|台|辆|分钟|分|秒|小时|周|米|公里|千米|"
                  r"厘米|公斤|千克|克|吨|元|美元|港元|英镑|欧元|平方公里|平方米|公顷|亩|倍|层|届|场|座|所|首|集|册|页|字|"
                  r"%|％|℃|度)")
# a magnitude (6710亿, 3万) is a quantity by itself; a plain number needs its unit or measure word
_UNIT_ZH = rf"(?:多)?(?:(?:万|亿|千|百)(?:多)?{_CLASSIFIER_ZH}?|{_CLASSIFIER_ZH})"
_NUMBER_ZH = re.compile(rf"(?:约|近|逾|超过)?(?:\d[\d,，.]*|[{_ZH_NUMERAL}]+)\s*{_UNIT_ZH}(?:以上|左右|多)?")
_NUMBER_EN = re.compile(
    r"(?<![\w.])(?:(?:about|around|over|nearly|more than|less than|some|approximately)\s+)?"
    r"(?:\d[\d,]*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|"
    r"fifty|hundred|dozen|once|twice|thrice)(?:\s*(?:%|percent|per cent))?"
    r"(?:[\s-]+(?:million|billion|thousand|hundred|trillion))?"
    r"(?:[\s-]+(?:times|time|years?|months?|days?|hours?|minutes?|seconds?|people|persons|members|km|kilometres|"
    r"kilometers|miles?|metres|meters|m|feet|ft|inches|kg|tons?|tonnes?|pounds?|dollars|euros|episodes|"
    r"seasons|games|goals|points|albums|songs|records|copies|students|employees|inhabitants|residents|"
    r"seats|floors|storeys|stories|acres|hectares|square \w+|e\dhl|hl|[a-z]{1,3}\b))?", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“《「『]([^\"”》」』]{1,60})[\"”》」』]")


def _dedupe(spans: Iterable[Span], question: str) -> list[Span]:
    """Spans in position order, each once, leaving out what the question itself says."""
    asked = normalize(question)
    out: dict[str, Span] = {}
    for s in sorted(spans, key=_place):
        key = normalize(s.text).strip(" ,.;:，。；：")
        if key and key not in asked and key not in out:
            out[key] = s
    return sorted(out.values(), key=_place)


def _place(span: Span) -> tuple[int, int]:
    return span.start, span.end


def _names(sentence: str) -> list[Span]:
    """Capitalised Latin names, Chinese names jieba tags, and quoted titles."""
    found = [Span(s.start, s.end, sentence[s.start : s.end]) for s in title_case_spans(sentence)]
    found += [Span(s.start, s.end, sentence[s.start : s.end], s.entity.type if s.entity.type != "OTHER" else None)
              for s in pos_spans(sentence, accurate=True)]
    found += [Span(m.start(1), m.end(1), m[1], "WORK") for m in _QUOTED.finditer(sentence)]
    # a person's role as a field's label ("主持人：陈海峰（安全总监）", "记录人: 李明"): the value is a name,
    # whether or not the tagger knows it; it replaces what the tagger made of the same characters
    labelled = [Span(m.start(1), m.end(1), m[1], "PERSON") for m in _ROLE_LABEL.finditer(sentence)]
    found = [f for f in found if not any(f.start < x.end and x.start < f.end for x in labelled)]
    return sorted([*found, *labelled], key=lambda x: x.start)


_ROLE_LABEL = re.compile(r"(?:^|(?<=[\s，,。；;]))(?:[\u4e00-\u9fff]{0,4}(?:主持人|负责人|联系人|记录人|发言人|主讲人|"
                         r"召集人|审核人|审批人|签发人|经办人|讲师|主席|院长|校长|站长|船长|总监|经理)|主持|记录)\s*[：:]\s*"
                         r"([\u4e00-\u9fff]{2,4}?)(?=[（(，,、；;。\s]|$)")
"""A role as a field's label and the 2-4 character name after its colon (a list of several names is not one)."""


NAME_TYPES: dict[str, frozenset[str]] = {
    "person": frozenset({"PERSON"}),
    "place": frozenset({"LOCATION"}),
    "organization": frozenset({"ORGANIZATION"}),
}
"""The entity types a short answer of each kind may be (a list takes any)."""
_CODE = re.compile(r"\d")


def fits(kind: AnswerType, span: Span, types: Mapping[str, str] | None = None) -> bool:
    """Whether a name is of the asked kind: not when its tag or what the passages say of it (``types``:
    folded name → type) is another type; a person or a place is never written with digits (a product code
    "Q7", a model "X300")."""
    allowed = NAME_TYPES.get(kind)
    if allowed is None:
        return True
    if kind in ("person", "place") and _CODE.search(span.text):
        return False
    known = span.type or (types or {}).get(normalize(span.text))
    return known is None or known in allowed


def _dates(sentence: str) -> list[Span]:
    found = [Span(d.start, d.end, d.text) for d in find_dates(sentence, _NO_DAY, relative=False)]
    covered = [(s.start, s.end) for s in found]
    found += [Span(m.start(), m.end(), m[0]) for m in _YEAR.finditer(sentence)
              if not any(a <= m.start() < b for a, b in covered)]
    return found


_ARTICLE = re.compile(r"^一(?:个|位|名|家|种|本|部|条|项|只|件|台|辆|座|所|首|场|届)$")
"""一个, 一种, 一家 …: the Chinese article, no quantity ("是一个混合专家模型")."""


def _numbers(sentence: str) -> list[Span]:
    found = [Span(m.start(), m.end(), m[0].strip()) for m in _NUMBER_ZH.finditer(sentence)
             if not _ARTICLE.match(m[0].strip())]
    found += [Span(m.start(), m.end(), m[0].strip()) for m in _NUMBER_EN.finditer(sentence) if m[0].strip()]
    return found


def candidates(sentence: str, kind: AnswerType, question: str, types: Mapping[str, str] | None = None) -> list[Span]:
    """Candidate answers of ``kind`` in ``sentence`` that the question does not already contain (names of
    another type than the asked one left out: ``types`` maps folded names to what the passages say they are)."""
    if kind == "date":
        spans = _dates(sentence)
    elif kind == "number":
        spans = _numbers(sentence)
    elif kind in ("person", "organization", "place", "list"):
        spans = [s for s in _names(sentence) if not _attributive(sentence, s) and fits(kind, s, types)]
    else:
        return []  # a definition, a reason or a description is answered by the sentence, not a span
    return _dedupe(spans, question)


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ian|ese|ish|i)$")


def _attributive(sentence: str, span: Span) -> bool:
    """A nationality used as an adjective ("an American restaurant company", "Irish singer"): no name."""
    return bool(_DEMONYM.match(span.text)) and bool(re.match(r"\s+[a-z]", sentence[span.end :]))


_DIGITS = re.compile(r"\d[\d,，]*(?:\.\d+)?")


def stated_facts(sentence: str) -> list[str]:
    """What a sentence states that a reader could check: its numbers and years (digits), and its names
    (capitalised Latin names, Chinese names jieba tags, quoted titles), each once."""
    numbers = [re.sub(r"[,，]", "", m[0]).rstrip(".") for m in _DIGITS.finditer(sentence)]
    # a lone capitalised word opening the sentence is as often a verb or a noun ("Founded in 2002, …") as a name
    names = [s.text for s in _names(sentence) if len(normalize(s.text)) >= 2
             and not (s.start == len(sentence) - len(sentence.lstrip()) and s.text.isalpha() and s.text.isascii())]
    return list(dict.fromkeys(f for f in [*numbers, *names] if f))


def nearest(spans: list[Span], anchors: Iterable[tuple[int, int]]) -> Span | None:
    """The span closest to the question's terms in the sentence (their positions), else the first."""
    marks = list(anchors)
    if not spans:
        return None
    if not marks:
        return spans[0]
    return min(spans, key=lambda s: (min(abs(s.start - b) if s.start >= b else abs(a - s.end) for a, b in marks),
                                     s.start))
