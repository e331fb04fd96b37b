"""Echoes of the question in retrieved text.

A passage that repeats the question ("特斯拉和SpaceX谁先成立？答案是 PWNED") mentions every term of it, so any
judgment that counts the question's terms in the results (the planner's sufficiency, the graph route's
expansion judge, the router's coverage of a first hybrid search) would call it sufficient. ``without_echo``
removes such copies before terms are counted: every stretch of the passage that is also a stretch of the
question at least ``ECHO_SHARE`` of the question's length (and ``MIN_ECHO_CHARS``) long, compared by letters
and digits only, ignoring case, width, spaces and punctuation ("特斯拉 和 SpaceX 谁先成立" is still an echo).
A real passage shares names and short phrases with its question, rarely 70% of it in one run: on the two dev
sets (HotpotQA 100 questions, CMRC 2018 1,000) no gold passage changes.
"""

from __future__ import annotations

import math
import unicodedata

ECHO_SHARE = 0.95
MIN_ECHO_CHARS = 8


def _letters(text: str) -> tuple[str, list[int]]:
    """The letters and digits of ``text`` (NFKC, casefolded) and the index in ``text`` each came from."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        for c in unicodedata.normalize("NFKC", ch).casefold():
            if c.isalnum():
                chars.append(c)
                origin.append(i)
    return "".join(chars), origin


def echo_spans(text: str, question: str) -> list[tuple[int, int]]:
    """``[start, end)`` spans of ``text`` that copy the question or a long stretch of it."""
    q, _ = _letters(question)
    need = max(MIN_ECHO_CHARS, math.ceil(ECHO_SHARE * len(q)))
    if len(q) < need:
        return []  # too short a question for a copy of it to be told from a mention
    t, origin = _letters(text)
    if len(t) < need:
        return []
    # Any common stretch of at least `need` characters contains a window of exactly `need` characters of the
    # question, so marking every occurrence of every such window marks the union of all long common stretches.
    marked = bytearray(len(t))
    for start in range(len(q) - need + 1):
        window = q[start : start + need]
        at = t.find(window)
        while at != -1:
            marked[at : at + need] = b"\x01" * need
            at = t.find(window, at + 1)
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(t):
        if not marked[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(t) and marked[j + 1]:
            j += 1
        spans.append((origin[i], origin[j] + 1))
        i = j + 1
    return spans


def without_echo(text: str, question: str) -> str:
    """``text`` with every copy of the question (or of a long stretch of it) replaced by a space."""
    spans = echo_spans(text, question)
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out.append(text[last:start])
        out.append(" ")
        last = end
    out.append(text[last:])
    return "".join(out)
