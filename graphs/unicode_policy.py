"""One Unicode policy for every name, id and file name the service stores, and for "is there any text".

What a reader cannot see must not tell two names apart or hide what a name says. Refused anywhere in an
entity name or alias, a document id or an uploaded file's name:

- controls and line or paragraph separators (``Cc``, ``Zl``, ``Zp``), unpaired surrogates (``Cs``);
- bidirectional embeddings, overrides, isolates and marks (U+202A-202E, U+2066-2069, U+200E/F, U+061C):
  ``gpj.\\u202eexe-trav8.md`` shows as ``8vart-exe.jpg`` ("Trojan Source");
- invisible formatting characters (``Cf``: zero-width space, word joiner, BOM, soft hyphen, tags ...); the
  zero-width (non-)joiners are kept in names only, where emoji sequences and some scripts need them;
- characters that are letters or marks by category but draw nothing: the Hangul fillers (U+115F, U+1160,
  U+3164, U+FFA0), the combining grapheme joiner U+034F, the Khmer inherent vowels U+17B4/5, the Mongolian
  vowel separator U+180E, the braille blank U+2800;
- private-use code points (``Co``: no agreed glyph) and noncharacters or unassigned code points (``Cn``:
  U+FDD0-FDEF, U+xFFFE/xFFFF, U+0378 ...; unassigned as of the Python's Unicode database).

``visible_text`` answers whether a text has anything to read at all (a document of only whitespace,
zero-width characters or a BOM is empty).
"""

from __future__ import annotations

import unicodedata
from typing import Literal

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
JOINERS = frozenset("\u200c\u200d")
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5\u180e\u2800")

Kind = Literal["name", "id", "file name"]


def char_problem(ch: str, kind: Kind = "id") -> str | None:
    """Why one character may not be part of a name, id or file name (None when it may)."""
    code = f"U+{ord(ch):04X}"
    category = unicodedata.category(ch)
    if ch in BIDI_CONTROLS:
        return f"contains a bidirectional control character ({code})"
    if category in ("Cc", "Zl", "Zp"):
        return f"contains a control character ({code})"
    if category == "Cs":
        return f"contains an unpaired surrogate ({code})"
    if category == "Cf" and not (kind == "name" and ch in JOINERS):
        return f"contains an invisible formatting character ({code})"
    if ch in BLANK_LOOKING:
        return f"contains an invisible character ({code}, drawn as nothing)"
    if category == "Co":
        return f"contains a private-use character ({code})"
    if category == "Cn":
        what = "noncharacter" if _noncharacter(ord(ch)) else "unassigned code point"
        return f"contains a {what} ({code})"
    return None


def _noncharacter(cp: int) -> bool:
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE


def text_problem(text: str, kind: Kind = "id") -> str | None:
    """The first character problem of ``text`` (see ``char_problem``), or None."""
    for ch in text:
        if (problem := char_problem(ch, kind)) is not None:
            return problem
    return None


def visible(ch: str) -> bool:
    """Whether a character draws something: not whitespace, not a control or format character, not a
    blank-looking letter."""
    return not (ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp", "Zs")
                or ch in BLANK_LOOKING)


def visible_text(text: str) -> bool:
    """Whether ``text`` has any character to read (whitespace, zero-width characters and BOMs are none)."""
    return any(visible(ch) for ch in text)
