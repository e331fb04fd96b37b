"""A name written in the other script: how passages in Chinese spell a Latin name of the question and the
reverse, by pinyin ("Qingtan City Library" → 青檀, 林登 → "Linden") and by the aliases the passages write in
brackets ("奥克米尔（Oakmere）", "Kestrel Cycles (隼鸟单车)").

A Chinese name romanised in pinyin reads back exactly ("qingtan" = 青檀); a foreign name written in Chinese
characters reads back only roughly ("lindeng" for Linden, "aokemier" for Oakmere), so a near pinyin reading
counts for names of two to four characters, and the bracketed alias a passage gives settles the rest."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable

from rapidfuzz import fuzz

from graphs.text.normalize import has_han, normalize, pinyin_variants

NEAR_PINYIN = 90.0
"""rapidfuzz ratio from which a pinyin reading of Chinese characters spells a Latin word of a name."""
MIN_LATIN = 4
"""Latin words shorter than this are never matched by pinyin (too many readings come near)."""

_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_LATIN_WORD = re.compile(r"[a-z][a-z'’-]*")
_ALIAS_PREFIX = r"(?:英文名称?|英文|英语|中文名称?|中文|简称|又名|原名|(?i:english name|chinese name|a\.k\.a\.?))?[:：]?\s*"
_HAN_THEN_LATIN = re.compile(rf"([\u3400-\u9fff]{{2,16}})\s*[（(]\s*{_ALIAS_PREFIX}([A-Za-z][\w .&'’-]{{1,60}}?)\s*[)）]")
_LATIN_THEN_HAN = re.compile(rf"((?:[A-Z][\w'’&.-]*\s+){{0,5}}[A-Z][\w'’&.-]*)\s*[（(]\s*{_ALIAS_PREFIX}"
                             r"([\u3400-\u9fff]{2,16})\s*[)）]")

GENERIC = frozenset([
    "city", "town", "village", "county", "district", "province", "state", "country", "river", "lake", "mountain",
    "mount", "island", "bay", "port", "harbour", "harbor", "library", "museum", "university", "college", "school",
    "hospital", "park", "station", "airport", "bridge", "street", "road", "avenue", "square", "hall", "centre",
    "center", "company", "group", "corporation", "bank", "hotel", "church", "temple", "market", "theatre",
    "theater", "club", "team", "festival", "marathon", "conference", "meeting", "committee", "council", "bureau",
    "office", "department", "ministry", "public", "national", "central", "new", "old", "north", "south", "east",
    "west", "upper", "lower", "great", "little", "international", "people", "republic", "the", "of", "and",
])
"""Words of a Latin name that say what kind of thing it is: translated, never transliterated (City, Library)."""


def han_share(text: str) -> float:
    """Share of Chinese characters among a text's letters."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(has_han(ch) for ch in letters) / len(letters) if letters else 0.0


def in_script_of_other(name: str, text: str) -> bool:
    """Whether a text is written in the other script than a name: mostly Chinese for a Latin name, under a
    fifth Chinese for a Chinese one (the same cut as a sentence in the other language than a question's)."""
    return han_share(text) < 0.2 if has_han(name) else han_share(text) > 0.5


def aliases(texts: Iterable[str]) -> list[tuple[str, str]]:
    """The (Chinese, Latin) name pairs the texts write one after the other in brackets, folded: "奥克米尔（Oakmere）"
    → ("奥克米尔", "oakmere"); "杭州隼鸟单车有限公司（英文名 Kestrel Cycles）" → (…, "kestrel cycles")."""
    pairs: list[tuple[str, str]] = []
    for text in texts:
        pairs += [(normalize(m[1]), normalize(m[2])) for m in _HAN_THEN_LATIN.finditer(text)]
        pairs += [(normalize(m[2]), normalize(m[1])) for m in _LATIN_THEN_HAN.finditer(text)]
    return list(dict.fromkeys(pairs))


_ORG_SUFFIX = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|公司|集团)$")
_FUNCTION = re.compile(r"[在于的和与是从到为将由把被向位]")
HAN_NAME = 4
"""Characters kept of the Chinese run before a bracketed Latin alias (the name ends the run)."""


def _han_name(run: str, latin: str) -> str:
    """The name that ends a Chinese run written before its alias ``latin``: after the last function character,
    without a company suffix, the ending (2-6 characters) whose reading is nearest the alias, else its last
    ``HAN_NAME`` ("公司在英国布里斯代尔" → "布里斯代尔", "杭州隼鸟单车有限公司" → "隼鸟单车")."""
    core = _ORG_SUFFIX.sub("", run) or run
    core = _FUNCTION.split(core)[-1] or core
    endings = [core[-k:] for k in range(2, min(6, len(core)) + 1)]
    best = max(endings, key=lambda e: (_reading_ratio(e, latin), -len(e)), default=core)
    return best if _reading_ratio(best, latin) >= 50 else core[-HAN_NAME:]


def _alias_of(name: str, pairs: list[tuple[str, str]]) -> str | None:
    """The other-script spelling of a folded name from the bracketed aliases: the Latin of a Chinese name that
    ends the Chinese run ("奥克米尔" in "英国奥克米尔（Oakmere）"), the Chinese of a Latin name."""
    for han, latin in pairs:
        if has_han(name) and len(name) >= 2 and (han.endswith(name) or name in han):
            return latin
        if not has_han(name) and (latin == name or (len(name) >= MIN_LATIN and name in latin.split())):
            return _han_name(han, latin)
    for han, latin in pairs:  # the question's name may hold the alias with more words ("oakmere town")
        if has_han(name) and han in name:
            return latin
        if not has_han(name) and latin in name and len(latin) >= MIN_LATIN:
            return _han_name(han, latin)
    return None


def _distinctive(name: str) -> list[str]:
    """The Latin words of a name that are transliterated, not translated, and the runs they join into
    ("song mingyuan" → "song", "mingyuan", "songmingyuan")."""
    words = [w for w in _LATIN_WORD.findall(name) if w not in GENERIC]
    joined = ["".join(words[i : i + 2]) for i in range(len(words) - 1)]
    return [w for w in [*joined, *words] if len(w) >= MIN_LATIN]


def _han_windows(blob: str) -> set[str]:
    return {run[i : i + k] for run in _HAN_RUN.findall(blob) for k in (2, 3, 4)
            for i in range(len(run) - k + 1)}


@functools.lru_cache(maxsize=65536)
def _char_readings(ch: str) -> tuple[str, ...]:
    """A Chinese character's toneless pinyin readings (its polyphones), cached per character."""
    return pinyin_variants(ch)


def _readings(han: str, limit: int = 8) -> list[str]:
    """A run's pinyin readings, built from its characters' (a window of a passage is read once per character,
    not once per window: thousands of windows per question)."""
    return ["".join(parts) for parts in itertools.islice(itertools.product(*map(_char_readings, han)), limit)]


def _reads_as(han: str, latin: str) -> bool:
    return _reading_ratio(han, latin) >= NEAR_PINYIN


def other_script(name: str, texts: Iterable[str]) -> str | None:
    """How the texts spell a folded name of the question in the other script, or None: by a bracketed alias
    they write, else by pinyin (a Latin word of the name read as Chinese characters of the texts, or the
    Chinese name read as a Latin word of the texts)."""
    texts = list(texts)
    if (alias := _alias_of(name, aliases(texts))) is not None:
        return alias
    blob = " ".join(normalize(t) for t in texts)
    if has_han(name):
        if not 2 <= len(name) <= 8:
            return None
        latin = _LATIN_WORD.findall(blob)
        # single words, and two in a row: a Chinese person's name is written in two ("Chen Xiaomei")
        words = {w for w in latin if len(w) >= MIN_LATIN and w not in GENERIC}
        words |= {f"{a} {b}" for a, b in itertools.pairwise(latin) if a not in GENERIC and b not in GENERIC}
        # the name's leading characters romanised ("林登" of 林登公共图书馆 → "linden")
        for k in range(min(4, len(name)), 1, -1):
            head = name[:k]
            found = sorted(w for w in words if _reads_as(head, w))
            if found:
                return found[0]
        return None
    windows = _han_windows(blob)
    for word in _distinctive(name):
        scored = [(r, w) for w in windows if (r := _reading_ratio(w, word)) >= NEAR_PINYIN]
        if scored:
            return max(scored, key=lambda rw: (rw[0], len(rw[1]), rw[1]))[1]
    return None


def _reading_ratio(han: str, latin: str) -> float:
    latin = latin.replace(" ", "")
    if not any(r[:1] == latin[:1] for r in _char_readings(han[0])):
        return 0.0  # a reading that starts with another letter is never near enough
    return max((fuzz.ratio(reading, latin) for reading in _readings(han)), default=0.0)
