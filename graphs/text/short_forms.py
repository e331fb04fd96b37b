"""Short forms of names: the initials of a name written in capitals ("MSRA", "TFA", "U.S.") and the short form a
passage defines in parentheses after the full name ("The Maravian Space Research Agency (MSRA) is …",
"西岭航天局（XSA）是 …", "Pellmark Football Club (PFC)").

A question that writes a short form asks about the full name a passage writes (and the reverse), and a first
hop that names "the MSRA" reaches the passage titled "Maravian Space Research Agency": both are the same name.
Only capitalised words make initials (lower-case running text would spell any acronym: "the first album" for
TFA), and only a short form of two letters or more that is written in capitals counts.
"""

from __future__ import annotations

import re

from graphs.text.normalize import normalize

MINOR_WORDS = frozenset({"of", "the", "and", "for", "de", "la", "le", "du", "des", "von", "van", "der", "&", "in",
                         "on", "at", "a", "an", "to"})
"""Words a name's initials skip ("Bank of England" → BOE is not written; "BoE" is, and "University of Tolland"
→ UT)."""

_SHORT = re.compile(r"(?<![A-Za-z0-9.])((?:[A-Z]\.){2,6}|[A-Z][A-Za-z&]{0,2}[A-Z][A-Z&]{0,5})(?![A-Za-z0-9])")
"""A short form as written: two to eight capitals (with a lower-case letter or an ampersand inside: "BoE",
"AT&T"), or capitals with dots ("U.S.")."""

_DEFINED = re.compile(r"[(（]\s*((?:[A-Z]\.){2,6}|[A-Z][A-Za-z&]{0,2}[A-Z][A-Z&]{0,5})\s*[)）]")
_CAPITAL_RUN = re.compile(r"((?:[A-Z][\w'’-]*|of|the|and|for|de|la|du|von|van|der|&)(?:\s+(?:[A-Z][\w'’-]*|of|the|"
                          r"and|for|de|la|du|von|van|der|&))*)\s*$")


def key(short: str) -> str:
    """A short form as compared: its letters, folded ("U.S." → "us", "AT&T" → "at&t")."""
    return short.replace(".", "").casefold()


def short_forms(text: str) -> list[str]:
    """The short forms a text writes (as written: "MSRA", "U.S.")."""
    return list(dict.fromkeys(m[1] for m in _SHORT.finditer(text)))


def initials(name: str) -> str:
    """The folded initials of a name's capitalised words, minor words skipped ("Tollish Football Association" →
    "tfa"); "" for a name of fewer than two such words or with a word in lower case."""
    words = [w for w in re.split(r"[\s-]+", name.strip()) if w and w.casefold() not in MINOR_WORDS]
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return ""
    return "".join(w[0] for w in words).casefold()


def stands_for(short: str, name: str) -> bool:
    """Whether a short form is the initials of a name ("TFA" / "Tollish Football Association"; "BoE" / "Bank of
    England" by its capitals)."""
    letters = key(short).replace("&", "")
    full = initials(name)
    if len(letters) < 2 or not full:
        return False
    if letters == full:
        return True
    # the short form's own capitals may keep a minor word ("BoE": Bank of England)
    words = [w for w in re.split(r"[\s-]+", name.strip()) if w and w != "&"]
    return letters == "".join(w[0] for w in words).casefold()


def defined(text: str, title: str = "") -> dict[str, str]:
    """The short forms a passage defines, folded, each with the full name it stands for (folded): the capitals
    in parentheses right after the passage's title or after a run of capitalised words whose initials they are
    ("The Maravian Space Research Agency (MSRA)", "西岭航天局（XSA）"); and the initials of a title of two
    capitalised words or more (the passage is about the name its short form names)."""
    out: dict[str, str] = {}
    folded_title = normalize(title)
    for m in _DEFINED.finditer(text):
        before = text[max(0, m.start() - 120) : m.start()].rstrip()
        if folded_title and normalize(before).endswith(folded_title):
            out.setdefault(key(m[1]), folded_title)
            continue
        run = _CAPITAL_RUN.search(before)
        if run is None:
            continue
        words = run[1].split()
        # the shortest tail of the run whose initials the short form is ("The Maravian Space Research Agency")
        for start in range(len(words) - 1, -1, -1):
            name = " ".join(words[start:])
            if stands_for(m[1], name):
                out.setdefault(key(m[1]), normalize(name))
                break
    if title and (letters := initials(title)) and len(letters) >= 2:
        out.setdefault(letters, folded_title)
    return out


_ASKS_SHORT = re.compile(r"\b(?:acronyms?|initialisms?|initials|abbreviations?|abbreviated|short(?:ened)?\s+(?:name|form)"
                         r"|letters?\s+(?:it|they)\s+(?:is|are|was|were)\s+known\s+by)\b|缩写|简称", re.IGNORECASE)
_LETTER_COUNT = re.compile(r"\b(two|three|four|five|six|seven|eight|[2-8])[-\s]letter\b|([2-8两三四五六七八])个?字母",
                           re.IGNORECASE)
_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "两": 2, "三": 3, "四": 4,
           "五": 5, "六": 6, "七": 7, "八": 8}


def asked_short_form(question: str) -> int | None:
    """Whether a question asks for a short form ("known by which four-letter acronym?", "by what initials is it
    known?", "的英文缩写是什么"): the letters it says the short form has, 0 where it does not say; None when it asks
    no short form."""
    if _ASKS_SHORT.search(question) is None:
        return None
    m = _LETTER_COUNT.search(question)
    if m is None:
        return 0
    word = (m[1] or m[2]).casefold()
    return int(word) if word.isdigit() else _COUNTS.get(word, 0)


def defined_short_forms(text: str) -> list[str]:
    """The short forms a text defines in parentheses after what they stand for, whatever its case ("live-action
    role-playing (LARP)", "the Vessarian National Rowing Council (VNRC)"), as written, in order."""
    return list(dict.fromkeys(m[1] for m in _DEFINED.finditer(text) if m.start() > 0))
