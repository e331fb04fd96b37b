"""Known-entity matching with an Aho-Corasick automaton over normalized text, and of Chinese names written
in pinyin ("renzhengfei", "Ma Huateng", "Rén Zhèngfēi")."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple, cast

import ahocorasick

from graphs.domain import EntityMetadata, QueryEntity
from graphs.text.normalize import has_han, normalize, pinyin_variants, toneless

_ODD_SPACE = re.compile(r"\s{2,}|[^\S ]")
_SPACES = re.compile(r"\s+")
# Letters and digits of alphabetic scripts; CJK (U+2E80 and up) never needs word boundaries.
_CJK_START = 0x2E80
# A run of up to four Latin words (pinyin may carry tone marks or apostrophes: "Xi'an").
_LATIN_RUN = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:['’]?[A-Za-z\u00C0-\u024F]+)*")
MAX_PINYIN_WORDS = 4
MIN_PINYIN_KEY = 5
"""Shorter spellings ("ma", "lijun" is fine) collide with ordinary Latin words too often to count as a name."""


class GazetteerMatch(NamedTuple):
    """One known surface form found in a text."""

    start: int
    end: int
    surface: str
    key: str
    entities: tuple[EntityMetadata, ...]


def is_word_char(ch: str) -> bool:
    """Return True for a letter or digit of a script that separates words with spaces."""
    return ch.isalnum() and ord(ch) < _CJK_START


def _fold_chars(text: str) -> tuple[str, list[int]]:
    """Fold width/case per character and collapse whitespace, keeping each output char's source index."""
    chars: list[str] = []
    index: list[int] = []
    in_space = False
    for i, ch in enumerate(text):
        if ch.isspace():
            if not in_space:
                chars.append(" ")
                index.append(i)
            in_space = True
            continue
        in_space = False
        if chars and unicodedata.combining(ch):
            # A decomposed accent: compose it onto the previous char, as whole-string NFKC would.
            composed = unicodedata.normalize("NFKC", chars[-1] + ch)
            if len(composed) == 1:
                chars[-1] = composed
                continue
        folded = ch.lower() if ch.isascii() else unicodedata.normalize("NFKC", ch).casefold()
        chars.extend(folded)
        index.extend([i] * len(folded))
    return "".join(chars), index


def _to_simplified(folded: str) -> str:
    """Convert Han characters to simplified with ``normalize``, keeping the length unchanged."""
    core = folded.strip(" ")
    lead = len(folded) - len(folded.lstrip(" "))
    converted = normalize(core)
    if len(converted) == len(core):
        return folded[:lead] + converted + folded[lead + len(core) :]
    # Phrase conversion changed the length: fall back to character by character.
    singles = (normalize(c) if has_han(c) else c for c in folded)
    return "".join(s if len(s) == 1 else c for s, c in zip(singles, folded, strict=True))


def _collapse_spaces(text: str) -> tuple[str, list[int]]:
    """Collapse whitespace runs to one space, keeping each output char's source index."""
    parts: list[str] = []
    index: list[int] = []
    position = 0
    for m in _SPACES.finditer(text):
        parts.extend([text[position : m.start()], " "])
        index.extend(range(position, m.start() + 1))
        position = m.end()
    parts.append(text[position:])
    index.extend(range(position, len(text)))
    return "".join(parts), index


def _fold_fast(text: str) -> tuple[str, list[int] | None] | None:
    """Fold text whose NFKC form is itself and whose case folding keeps its length; else None."""
    if not unicodedata.is_normalized("NFKC", text):
        return None
    folded = text.casefold()
    # Case folding only ever expands characters, so an unchanged length means one char per char.
    if len(folded) != len(text):
        return None
    return _collapse_spaces(folded) if _ODD_SPACE.search(folded) else (folded, None)


def fold_aligned(text: str) -> tuple[str, list[int] | None]:
    """Return ``text`` folded like ``normalize`` and the source index of each folded char (None: identity)."""
    fast = _fold_fast(text)
    folded, index = fast if fast is not None else _fold_chars(text)
    if has_han(folded):
        folded = _to_simplified(folded)
    return folded, index


def _source_end(index: list[int], end: int, length: int) -> int:
    """Return the source offset just past folded char ``end - 1`` (accents composed onto it included)."""
    if end >= len(index):
        return length
    following = index[end]
    return following if following > index[end - 1] else index[end - 1] + 1


def _edges_ok(folded: str, start: int, end: int) -> bool:
    """Return True unless a latin-script edge of the match touches another letter or digit."""
    if is_word_char(folded[start]) and start > 0 and is_word_char(folded[start - 1]):
        return False
    return not (is_word_char(folded[end - 1]) and end < len(folded) and is_word_char(folded[end]))


class Gazetteer:
    """Find known entity names and aliases in text: longest leftmost non-overlapping matches."""

    def __init__(self, surface_forms: Iterable[tuple[str, EntityMetadata]]) -> None:
        """Index each (surface form, entity) pair under its normalized form."""
        self._entities: dict[str, list[EntityMetadata]] = {}
        for surface, entity in surface_forms:
            key = normalize(surface)
            if key:
                bucket = self._entities.setdefault(key, [])
                if entity not in bucket:
                    bucket.append(entity)
        self._pinyin: dict[str, list[EntityMetadata]] = {}
        for key, entities in self._entities.items():
            if sum(1 for ch in key if has_han(ch)) >= 2:
                for spelled in pinyin_variants(key):
                    if len(spelled) >= MIN_PINYIN_KEY:
                        bucket = self._pinyin.setdefault(spelled, [])
                        bucket.extend(e for e in entities if e not in bucket)
        self._automaton = ahocorasick.Automaton()
        for key in self._entities:
            self._automaton.add_word(key, key)
        if self._entities:
            self._automaton.make_automaton()

    def __len__(self) -> int:
        """Return the number of distinct normalized surface forms."""
        return len(self._entities)

    def __contains__(self, surface: object) -> bool:
        """Return True if ``surface`` normalizes to a known form."""
        return isinstance(surface, str) and normalize(surface) in self._entities

    def lookup(self, surface: str) -> tuple[EntityMetadata, ...]:
        """Return the entities whose name or alias normalizes like ``surface``."""
        return tuple(self._entities.get(normalize(surface), ()))

    def matches(self, text: str) -> list[GazetteerMatch]:
        """Return longest leftmost non-overlapping matches in text order, offsets into ``text``."""
        if not self._entities or not text:
            return []
        folded, index = fold_aligned(text)
        candidates = [
            (end + 1 - len(key), end + 1, key)
            for end, key in self._automaton.iter(folded)
            if _edges_ok(folded, end + 1 - len(key), end + 1)
        ]
        candidates.sort(key=lambda c: (c[0], c[0] - c[1]))
        found: list[GazetteerMatch] = []
        last_end = 0
        for start, end, key in candidates:
            if start < last_end:
                continue
            last_end = end
            src_start, src_end = (
                (start, end) if index is None else (index[start], _source_end(index, end, len(text)))
            )
            entities = tuple(self._entities[key])
            found.append(GazetteerMatch(src_start, src_end, text[src_start:src_end], key, entities))
        return found

    def pinyin_matches(self, text: str) -> list[GazetteerMatch]:
        """Runs of Latin words that spell a known Chinese name or alias in pinyin, with or without spaces or
        tone marks ("renzhengfei", "Ren Zhengfei", "Rén Zhèngfēi"); longest first, in text order."""
        if not self._pinyin:
            return []
        words = list(_LATIN_RUN.finditer(text))
        # each word folded once, and where a run must break (only words separated by spaces form one name): a
        # run's key is its words' keys joined (``toneless`` drops the spaces), so a long English text costs one
        # fold a word, not one for each run it starts (a 1 MB upload spent 36 s of its 50 s of tagging here)
        folded = [toneless(m[0]) for m in words]
        breaks = [bool(text[a.end() : b.start()].strip()) for a, b in itertools.pairwise(words)]
        found: list[GazetteerMatch] = []
        i = 0
        while i < len(words):
            for n in range(min(MAX_PINYIN_WORDS, len(words) - i), 0, -1):
                parts = folded[i : i + n]
                if any(breaks[i : i + n - 1]) or None in parts:
                    continue
                key = "".join(cast(list[str], parts))
                if key in self._pinyin:
                    run = words[i : i + n]
                    start, end = run[0].start(), run[-1].end()
                    found.append(GazetteerMatch(start, end, text[start:end], key, tuple(self._pinyin[key])))
                    i += n
                    break
            else:
                i += 1
        return found

    def find(self, text: str) -> list[QueryEntity]:
        """Return the known entities of ``text`` (type of the first entity indexed under that form)."""
        return [
            QueryEntity(text=m.surface, type=m.entities[0].type, source="gazetteer", confidence=1.0)
            for m in self.matches(text)
        ]

