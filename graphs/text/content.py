"""Whether a text says anything: the one content check every question passes (API, chat, MCP, CLI, graph).

A question of punctuation (``?``, ``。``, ``...``), symbols or emoji (``🍎``), control characters, combining
marks, zero-width or BOM characters has no term to search for or to find in a passage: its answerability
would be "covers 100% of its (zero) terms". It is refused (``empty_question``), never answered.

Meaningful content is a letter (any script: Latin, Han, kana, Hangul, …) or a number (digits of any script,
Roman numerals, ①) after NFKC. The Hangul fillers are letters to Unicode (``Lo``) yet invisible and default
ignorable, so they do not count.
"""

from __future__ import annotations

import unicodedata

EMPTY_QUESTION = "empty_question"
"""The error code of a question with no meaningful content."""
EMPTY_QUESTION_MESSAGE = ("the question has no letter or digit (only punctuation, symbols, emoji, spaces or "
                          "invisible characters): there is nothing to search for")
# Letters to Unicode that render as nothing (Hangul fillers, Khmer inherent vowels): default ignorable.
_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u17b4\u17b5\u3164\uffa0")


def has_content(text: str) -> bool:
    """Whether ``text`` holds a visible letter or number of any script (after NFKC)."""
    for ch in unicodedata.normalize("NFKC", text):
        if ch in _INVISIBLE_LETTERS:
            continue
        if unicodedata.category(ch)[0] in "LN":
            return True
    return False
