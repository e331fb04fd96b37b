"""Whether the answering sentence states the asked relation for the asked subject, read by its structure.

A sentence about the subject can hold a value of the asked type and still not state what is asked. Three readings,
each general over wording and language, and one veto (``answerability._unstated``) over them:

- **The slot is filled, not a heading.** A heading offered as the answer ("Minutes of the Board Meeting" for who
  took them, "2. OPERATIONS REPORT") states nothing of anyone. A form's line whose values are blanks to fill in ("Signed as a correct record: ______
  (Chair)", 记录人：________) names no one and no date: with its blanks and the caption of a blank taken out, it must
  still hold a value of the asked type.
- **The asked rank is not contradicted.** A noun the question writes, qualified in the sentence by another rank than
  the asked one and never by it (the first mayor of 1836 for "the current mayor", 首任台长 for 现任台长, 台长 for
  副台长: ``qualifiers.other_rank``).
- **A quantity's role fits the attribute.** A length written as a way to somewhere (距镇中心约18公里, "右转约3公里",
  "2 km upstream of the bridge", "400 m from the station") is a distance: it answers "how far", not an aperture,
  a height or a focal length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graphs.rag.answer.evidence import SECTION_NUMBER, heading
from graphs.rag.answer.qualifiers import Rank, other_rank
from graphs.text.answer_types import AnswerType
from graphs.text.spans import candidates
from graphs.text.units import asks_distance, value_dimension

BLANK = re.compile(r"_{3,}|＿{2,}|…{3,}|\.{5,}|·{5,}|-{5,}|—{3,}|（\s*）|\(\s*\)|\[\s*\]|【\s*】")
"""A run left to be filled in by hand (underscores, dots, dashes) or an empty bracket."""
_CAPTION = re.compile(r"[（(]\s*[^()（）]{0,24}[)）]")
"""A blank's caption, "(Chair)", （签字）: what the blank is for, never its value."""

_ROUTE_BEFORE = re.compile(
    r"(?:(?<![焦间轴跨行株孔层车步])距离?|(?<![隔分脱偏游剥])离(?![心子婚开])|相距|相隔|[左右]转|直行|前行|沿|步行|车程|"
    r"驾车|开车|往|向[东南西北]|行驶|骑行)[^\s，。,；;]{0,8}?\s*(?:约|大约|大概|近|仅|只有|约有)?\s*$")
"""Chinese words before a length that make it a way to somewhere: 距镇中心约, 右转约, 沿河步行."""
_ROUTE_AFTER = re.compile(
    r"\s*(?:away|off|out|(?:up|down)(?:stream|hill|river)|inland|offshore|(?:to\s+the\s+)?(?:north|south|east|west)"
    r"(?:east|west)?|from|of\s+(?:the\s+)?[A-Z]|along|beyond|past|further|farther|drive|walk|ride|by\s+road|"
    r"(?:'s|s')?\s*(?:drive|walk|ride))\b", re.IGNORECASE)
"""English words after a length that make it a way to somewhere: "400 m from the station", "2 km upstream of"."""
_ROUTE_BEFORE_EN = re.compile(r"\b(?:drive|walk|ride|hike|travel|go|continue|turn\s+\w+)\s+(?:for\s+)?(?:about\s+|around\s+|roughly\s+)?$",
                              re.IGNORECASE)


@dataclass(frozen=True)
class Unstated:
    """Why the answering sentence does not state what is asked."""

    reading: str
    """slot, heading, title (its passage's title line, ``answerability._unstated``), rank or distance"""
    asked: str = ""
    stated: str = ""


_AFTER_LABEL = re.compile(r"[:：]\s*")
"""A label's colon: the value follows it."""


def blank_slot(sentence: str, kind: AnswerType, question: str) -> bool:
    """The sentence is a form's line whose values are left blank: every label's colon is followed by a blank, or, with no label, nothing of the asked type is left once its blanks are taken out (a
    capitalised opener, "Signed ____", is no name)."""
    if not BLANK.search(sentence):
        return False
    values = [m.end() for m in _AFTER_LABEL.finditer(sentence) if m.end() < len(sentence)]
    if values:
        return all(BLANK.match(sentence, at) for at in values)
    filled = _CAPTION.sub(" ", BLANK.sub(" ", sentence))
    return not [v for v in candidates(filled, kind, question) if v.start > 0]


def route_distance(sentence: str, start: int, end: int) -> bool:
    """The length at ``sentence[start:end]`` is written as the way to somewhere (from, away, upstream of; 距, 离,
    右转约): a distance between places, not a size of a thing."""
    if value_dimension(sentence, start, end) != "length":
        return False
    return bool(_ROUTE_BEFORE.search(sentence[max(0, start - 14): start])
                or _ROUTE_BEFORE_EN.search(sentence[max(0, start - 24): start])
                or _ROUTE_AFTER.match(sentence, end))


def unstated(question: str, kind: str, sentence: str, lengths: list[tuple[int, int]],
             span: tuple[int, int] | None = None) -> Unstated | None:
    """Why ``sentence`` does not state the asked relation (``None`` when nothing structural says so). ``kind`` is the
    asked answer type; ``lengths`` the spans of the answer's quantity of the asked type (for "number" questions);
    ``span`` the short answer offered in it."""
    if kind in ("person", "date", "place", "number", "organization") and blank_slot(sentence, kind, question):  # type: ignore[arg-type]
        return Unstated("slot")
    if span is not None and kind in ("person", "date", "place", "number") and heading(sentence, styled=True) and sentence[span[0]:span[1]].strip() in sentence \
            and len(sentence[span[0]:span[1]].strip()) >= 0.6 * len(SECTION_NUMBER.sub("", sentence).strip()):
        # the short answer is the heading itself ("Minutes of the Board Meeting" for who took the minutes); not for
        # an organisation or a thing asked, which a title line may name
        return Unstated("heading")
    if (ranks := other_rank(question, sentence)) is not None:
        asked: Rank = ranks[0]
        return Unstated("rank", asked, ranks[1])
    if kind == "number" and lengths and not asks_distance(question) and all(
            route_distance(sentence, a, b) for a, b in lengths):
        return Unstated("distance")
    return None
