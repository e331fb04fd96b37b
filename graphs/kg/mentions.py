"""Name mentions in text: title keys, a canonical token form, and an n-gram lookup index.

Text is folded (NFKC, case, traditional → simplified Chinese) and split into tokens: a run of
letters/digits is one token, and every CJK character is a token of its own. A name's *key* is its
tokens joined with a space between two non-CJK tokens and nothing otherwise, so a key occurs in a
text exactly when it equals one of the text's token n-grams: Latin names match whole words only,
CJK names match as substrings, and punctuation or spacing differences ("AC/DC", "iPhone 15发布会")
do not matter.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

from graphs.text.normalize import normalize

MAX_WORDS = 8
"""The most Latin words a matchable name may have."""
MAX_CJK = 12
"""The most CJK characters a matchable name may have."""
MIN_KEY_CHARS = 2

_CJK_RANGES = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff"
_TOKEN = re.compile(f"([{_CJK_RANGES}])|[^\\W_{_CJK_RANGES}]+")
_CJK = re.compile(f"[{_CJK_RANGES}]")
# A trailing disambiguation such as "Lilu (mythology)" or "北京（城市）".
_PARENTHETICAL = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def fold(text: str) -> str:
    """Fold width, case and Chinese script as the entity store does (uncached: texts are long)."""
    return normalize.__wrapped__(text)


def is_cjk(token: str) -> bool:
    """Whether a token is a single CJK character."""
    return len(token) == 1 and _CJK.match(token) is not None


def tokenize(text: str) -> list[str]:
    """The tokens of already-folded text: letter/digit runs and single CJK characters."""
    return [m.group(0) for m in _TOKEN.finditer(text)]


def join_tokens(tokens: Sequence[str]) -> str:
    """The canonical string of a token sequence: a space only between two non-CJK tokens."""
    out: list[str] = []
    prev_cjk = True
    for token in tokens:
        cjk = is_cjk(token)
        if out and not cjk and not prev_cjk:
            out.append(" ")
        out.append(token)
        prev_cjk = cjk
    return "".join(out)


def canonical(text: str) -> str:
    """Fold and re-join ``text`` so that every name key it mentions is a substring of the result."""
    return join_tokens(tokenize(fold(text)))


def strip_disambiguation(title: str) -> str:
    """Drop a trailing parenthetical ("Lilu (mythology)" → "Lilu") unless nothing would be left."""
    stripped = _PARENTHETICAL.sub("", title)
    return stripped if stripped.strip() else title


def name_key(name: str) -> str | None:
    """The lookup key of a title or entity name, or None when it must never match.

    Names shorter than two characters, made only of digits, or longer than ``MAX_WORDS`` words /
    ``MAX_CJK`` CJK characters are not matchable.
    """
    tokens = tokenize(strip_disambiguation(normalize(name)))
    if not tokens or all(t.isdigit() for t in tokens) or not _within_limits(tokens):
        return None
    key = join_tokens(tokens)
    return key if len(key) >= MIN_KEY_CHARS else None


def _within_limits(tokens: Sequence[str]) -> bool:
    cjk = sum(1 for t in tokens if is_cjk(t))
    return cjk <= MAX_CJK and len(tokens) - cjk <= MAX_WORDS


def contains_key(canonical_text: str, key: str) -> bool:
    """Whether ``key`` occurs in a canonical text at token boundaries (whole words for Latin ends)."""
    return next(key_spans(canonical_text, key), None) is not None


def key_spans(canonical_text: str, key: str) -> Iterator[tuple[int, int]]:
    """The (start, end) of each occurrence of ``key`` in a canonical text at token boundaries."""
    if not key:
        return
    need_left = not is_cjk(key[0])
    need_right = not is_cjk(key[-1])
    start = canonical_text.find(key)
    while start >= 0:
        end = start + len(key)
        left_ok = not need_left or start == 0 or not _is_word_char(canonical_text[start - 1])
        right_ok = not need_right or end == len(canonical_text) or not _is_word_char(canonical_text[end])
        if left_ok and right_ok:
            yield start, end
        start = canonical_text.find(key, start + 1)


def covered_by(canonical_text: str, value: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether every occurrence of ``value`` in a canonical text, as a token run or inside a longer word
    ("Harbour" in "Harbourlight"), overlaps one of ``spans`` (a longer name's occurrences), and it occurs at all:
    the value was only ever a piece of that name ("欧阳明" of "欧阳明华", "青川" of "青川镇")."""
    key = canonical(value)
    if not key or not spans:
        return False
    start = canonical_text.find(key)
    if start < 0:
        return False
    while start >= 0:
        end = start + len(key)
        if not any(s < end and start < e for s, e in spans):
            return False
        start = canonical_text.find(key, start + 1)
    return True


def _is_word_char(ch: str) -> bool:
    """A letter or digit that is not CJK: one that would continue a Latin token."""
    return ch.isalnum() and not is_cjk(ch)


class MentionIndex:
    """Name keys → the ids carrying them, answering "which keys occur in this text" by n-gram lookup.

    A lookup walks the text's token n-grams from each position and stops as soon as the n-gram is not
    a prefix of any key, so its cost grows with the text, not with the number of names.
    """

    def __init__(self) -> None:
        self._ids: dict[str, set[str]] = {}
        self._prefixes: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, key: str, ident: str) -> None:
        """Record that ``ident`` carries ``key``."""
        ids = self._ids.get(key)
        if ids is None:
            self._ids[key] = {ident}
            self._prefixes.update(_prefixes(key))
        else:
            ids.add(ident)

    def discard(self, key: str, ident: str) -> None:
        """Forget that ``ident`` carries ``key`` (no error if it did not)."""
        ids = self._ids.get(key)
        if ids is None or ident not in ids:
            return
        ids.discard(ident)
        if not ids:
            del self._ids[key]
            self._prefixes.subtract(_prefixes(key))
            for prefix in _prefixes(key):
                if self._prefixes[prefix] <= 0:
                    del self._prefixes[prefix]

    def ids(self, key: str) -> frozenset[str]:
        """The ids carrying ``key``."""
        return frozenset(self._ids.get(key, ()))

    def find_tokens(self, tokens: Sequence[str]) -> dict[str, frozenset[str]]:
        """Every key equal to a token n-gram of ``tokens`` (1..MAX_WORDS words, up to MAX_CJK CJK)."""
        found: dict[str, frozenset[str]] = {}
        ids, prefixes = self._ids, self._prefixes
        cjk_flags = [is_cjk(t) for t in tokens]
        for start in range(len(tokens)):
            parts: list[str] = []
            words = cjk = 0
            prev_cjk = True
            for i in range(start, len(tokens)):
                token, token_cjk = tokens[i], cjk_flags[i]
                if token_cjk:
                    cjk += 1
                else:
                    words += 1
                if cjk > MAX_CJK or words > MAX_WORDS:
                    break
                if parts and not token_cjk and not prev_cjk:
                    parts.append(" ")
                parts.append(token)
                prev_cjk = token_cjk
                key = "".join(parts)
                hit = ids.get(key)
                if hit:
                    found[key] = frozenset(hit)
                if key not in prefixes:
                    break
        return found

    def find(self, text: str) -> dict[str, frozenset[str]]:
        """Every key that ``text`` (raw, unfolded) mentions, with the ids carrying it."""
        return self.find_tokens(tokenize(fold(text)))


def _prefixes(key: str) -> Iterable[str]:
    """The proper token prefixes of a key (what a lookup must keep extending past)."""
    tokens = tokenize(key)
    return [join_tokens(tokens[:n]) for n in range(1, len(tokens))]
