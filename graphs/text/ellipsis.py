"""Elliptical questions: one that leaves out what it asks and leans on the question before it.

Two shapes. One names only a new subject and keeps the rest of the question before it ("书法班呢？", "那割草机呢？",
"What about the e-bike?", "And for the Tuesday class?"): ``elliptical_subject`` finds the subject and ``restated``
writes the earlier question over it (the earlier question's topic swapped for it). The other opens or ends by
leaning on what was said ("那…", "还有…", "另外…", "also …", "how about …", "…呢？"): ``is_elliptical`` reads both as
elliptical. One home for the conversation's follow-ups (``app.services.chat``) and a message's parts
(``graphs.rag.parts``): each had its own patterns, and a follow-up read as elliptical on one side was not on the other.
"""

from __future__ import annotations

import re

from graphs.text.entity_spotting import tagged_words
from graphs.text.normalize import has_han

_SUBJECT_ZH = re.compile(r"^(?:那|那么|还有)?([\u4e00-\u9fffA-Za-z0-9·]{2,16}?)呢[？?]?$")
_SUBJECT_EN = re.compile(r"^(?:and\s+)?(?:what|how)\s+about\s+(.+?)\s*\??$|^and\s+(?:for\s+)?(the\s+.+?)\s*\?$",
                         re.IGNORECASE)
_LEANING = re.compile(r"^\s*(?:那|那么|还有|另外|and\b|also\b|what about\b|how about\b|what of\b)|呢\s*[？?]*\s*$",
                      re.IGNORECASE)


def elliptical_subject(question: str) -> str | None:
    """The new subject of a question that names only it ("书法班" of "书法班呢？", "the e-bike" of "What about the
    e-bike?"); None for any other question."""
    text = question.strip()
    if m := _SUBJECT_ZH.match(text):
        return m[1]
    if m := _SUBJECT_EN.match(text):
        return m[1] or m[2]
    return None


def is_elliptical(question: str) -> bool:
    """Whether the question leans on the one before it: it names only a new subject, or it opens or ends with a
    word that continues the conversation ("那…", "还有…", "also …", "…呢？")."""
    return elliptical_subject(question) is not None or _LEANING.search(question) is not None


_LETTER = re.compile(r"[^\W_]")
_POINTER = re.compile(r"[他她它]|\b(?:he|she|it|they|him|her|them|his|its|their)\b", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_BEFORE_ARTICLE = re.compile(r"\b(?:the|a|an)\s+$", re.IGNORECASE)


def restated(previous: str, subject: str, topic: str) -> str | None:
    """The earlier question asked of the new subject (``topic``: what the earlier question is about, as written in
    it): "借割草机要交多少押金？" of "借电钻要交多少押金？", "电钻" and "割草机"; "Who presents the Evening Drift?" of "Who
    presents the Morning Tide Show?", "Morning Tide Show" and "the Evening Drift" (one article). None when the topic
    is not written in it, is no words, or points back itself (its subject is elsewhere in the conversation)."""
    if len(_LETTER.findall(topic)) < 2 or _POINTER.search(topic) or topic not in previous:
        return None  # no topic ("？" of "哪一年成立的？"), or one that points back ("he born" of "When was he born?")
    at = previous.index(topic)
    if _BEFORE_ARTICLE.search(previous[:at]):
        subject = _ARTICLE.sub("", subject)
    return previous[:at] + subject + previous[at + len(topic):]


def _qualifies(word: str, flag: str | None) -> bool:
    """A noun or an ordinal that qualifies the noun after it (三号 of 三号冷库; not 多少, 几)."""
    tag = flag or ""
    return has_han(word) and (tag.startswith("n") or (tag.startswith("m") and not word.startswith(("多", "几"))))


def same_kind(previous: str, subject: str) -> str | None:
    """The thing of the earlier Chinese question that the new subject stands in for: the noun ending as the subject
    ends (its head: 机, 课, 票), with the nouns right before it — "地板打磨机" of "地板打磨机的押金是多少？" for 瓷砖切割机,
    "陶艺课" of "周六的陶艺课几点开始？" for 木工课. The earlier question's topic reading takes its attribute along
    ("地板打磨机的押金" gave "瓷砖切割机是多少？"). None when no word of the earlier question ends so."""
    # the nouns and ordinals before it belong to it (三号冷库), an asking number does not (多少, 几)
    if not (has_han(subject) and has_han(previous)):
        return None
    words = tagged_words(previous)
    for i, (word, _) in enumerate(words):
        if word.endswith(subject[-1]) and word != subject and has_han(word):
            start = i
            while start > 0 and _qualifies(*words[start - 1]):
                start -= 1
            return "".join(w for w, _ in words[start:i + 1])
    return None
