"""Rule-based consistency check: results that state different values for the same fact about one subject
("张三的老师是李四" vs "张三的老师是王五"; "Acme was founded in 1990" vs "... founded in 1991").

Only values of the same attribute of the same subject count: the sentence must be about the subject (its
passage is titled with it, or the sentence opens with it: "华为于1987年在深圳成立" is about 华为, not 深圳), a
question that asks for a list expects several values, and a year is the value only of a question about a date."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphs.domain import Claim, Contradiction, Hit
from graphs.text.normalize import normalize

_SENTENCE = re.compile(r"(?<=[。！？!?；;])|(?<=[a-z0-9\"')\]]\.)\s+|\n+", re.IGNORECASE)
_CN_VALUE = r"(?:是|为|叫|乃|：|:)\s*(?P<v>[\u4e00-\u9fff·A-Za-z]{2,12}?)(?=[，。；、,.;！!？?\s（(的]|$)"
_EN_NAME = r"(?P<v>(?:[A-Z][\w'\-]*|\d[\d,.]*)(?:\s+(?:[A-Z][\w'\-]*|of|de|van|von|der|la))*)"
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")
_STOP_RELATIONS = frozenset({"what", "who", "which", "when", "where", "how", "is", "was", "the", "a", "an", "of",
                             "是", "谁", "什么", "哪", "哪个", "哪里", "多少", "的", "了"})


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def _values(sentence: str, relation: str, subject: str, *, dates: bool = True) -> list[str]:
    """The values a sentence gives for ``relation``: a name after "relation is/was/是" (or before "is/was
    the relation"), or else a year near it; never the subject or the relation itself."""
    rel = re.escape(relation)
    out: list[str] = []
    if re.search(r"[\u4e00-\u9fff]", relation):
        out += [m["v"] for m in re.finditer(rel + _CN_VALUE, sentence)]
    else:
        out += [m["v"] for m in re.finditer(rf"\b{rel}\b(?:\s+of\s+[^,.;]+?)?\s+(?:is|was|are|were|:)\s+(?:the\s+)?"
                                            + _EN_NAME, sentence, re.IGNORECASE)]
        out += [m["v"] for m in re.finditer(_EN_NAME + rf"\s+(?:is|was)\s+(?:the\s+)?(?:[\w']+\s+){{0,3}}{rel}\b",
                                            sentence)]
    out = [v for v in (x.strip(" ,.") for x in out) if v and not _same(v, subject) and not _same(v, relation)]
    if not out and dates:
        at = sentence.lower().find(relation.lower())
        if at >= 0 and (m := _YEAR.search(sentence[at : at + len(relation) + 40])):
            out.append(m[1])
    return out


def _same(a: str, b: str) -> bool:
    na, nb = normalize(a), normalize(b)
    return na == nb or na in nb or nb in na


OPENING = 6
"""A sentence is about the subject it names within its first this many characters (Chinese) or words."""


_LONGER_NAME = re.compile(r"\w|\s\d")  # folded text: a letter right after it, or a number ("hd 56")


def opens_with(sentence: str, subject: str) -> bool:
    """Whether a folded sentence names the folded subject at its opening (its grammatical subject, mostly), and
    not as the start of a longer Latin name ("heinkel hd 56" is not "heinkel hd")."""
    at = sentence.find(subject)
    if at < 0:
        return False
    if subject.isascii() and _LONGER_NAME.match(sentence, at + len(subject)):
        return False
    head = sentence[:at]
    return len(head.split()) <= 3 if head.isascii() else len(head) <= OPENING


def find_contradictions(subject: str | None, relations: Sequence[str], hits: Sequence[Hit],
                        limit: int = 5, *, dates: bool = True) -> list[Contradiction]:
    """Facts on which the top results disagree: for each relation term of the question, the values that
    sentences about the subject (opening with it, or in a document titled with it) state, when two documents
    differ. ``dates``: whether a year near the relation counts as its value (a question about a date)."""
    if not subject or not relations:
        return []
    subj = normalize(subject)
    found: list[Contradiction] = []
    for relation in dict.fromkeys(r for r in relations if normalize(r) not in _STOP_RELATIONS and len(r) > 1):
        claims: list[tuple[str, str, str]] = []  # (value, doc_id, hit_id)
        for hit in hits[:limit]:
            about = opens_with(normalize(hit.title), subj)
            for sentence in _sentences(hit.text):
                if not (about or opens_with(normalize(sentence), subj)):
                    continue
                for value in _values(sentence, relation, subject, dates=dates)[:1]:
                    claims.append((value, hit.doc_id, hit.id))
        groups: list[tuple[str, list[str], set[str]]] = []
        for value, doc, hit_id in claims:
            for g in groups:
                if _same(g[0], value):
                    if hit_id not in g[1]:
                        g[1].append(hit_id)
                    g[2].add(doc)
                    break
            else:
                groups.append((value, [hit_id], {doc}))
        docs = [g[2] for g in groups]
        if len(groups) >= 2 and any(not (docs[0] & d) for d in docs[1:]):
            found.append(Contradiction(fact=f"{subject} — {relation}",
                                       claims=[Claim(value=v, hit_ids=ids) for v, ids, _ in groups]))
    return found
