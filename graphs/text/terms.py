"""How much a question's term says: a rare Chinese word (袋鼠) more than a common one (进行), by jieba's
general-domain inverse document frequencies; Latin words alike, entity names more."""

from __future__ import annotations

import functools
import importlib.util
import re
import statistics
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import snowballstemmer

from graphs.text.normalize import has_han

ANCHOR_WEIGHT = 1.5
"""An entity name of the question counts this much more than another term."""
_TYPICAL_IDF = 8.0  # about a content word's idf in jieba's table (公司 3.5, 游戏 7.2, 袋鼠 10.4)


@functools.cache
def _idf() -> tuple[dict[str, float], float]:
    """jieba's idf table (``jieba/analyse/idf.txt``, read once) and its median."""
    spec = importlib.util.find_spec("jieba")
    assert spec is not None and spec.origin is not None, "jieba is a dependency"
    table: dict[str, float] = {}
    with open(Path(spec.origin).parent / "analyse" / "idf.txt", encoding="utf-8") as lines:
        for line in lines:
            word, _, value = line.rstrip().rpartition(" ")
            if word:
                table[word] = float(value)
    return table, statistics.median(table.values())


def dictionary_word(term: str) -> bool:
    """Whether jieba's general-domain table knows the Chinese term as one word (公司, 北京大学; not 拼多多)."""
    return term in _idf()[0]


def term_weight(term: str, *, anchor: bool = False) -> float:
    """A term's weight in [0.3, 2.25]: Chinese by inverse document frequency, Latin words 1, names ×1.5."""
    if has_han(term):
        idf, median = _idf()
        weight = min(1.5, max(0.3, idf.get(term, median) / _TYPICAL_IDF))
    else:
        weight = 1.0
    return weight * (ANCHOR_WEIGHT if anchor else 1.0)


STEM_CREDIT = 0.75
"""An English word found only in another form ("abbreviation" as "abbreviated") counts this much."""


_STEMMERS = threading.local()


def _english_stemmer() -> Any:
    """This thread's Snowball stemmer: one object keeps the word it is stemming as its state, so two threads
    sharing one (the lexicon built in a search thread while the chains stem in another) broke each other's word
    ("IndexError: string index out of range" in a planner's sub-question)."""
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem of an English word."""
    return str(_english_stemmer().stemWord(word))


def found(term: str, text: str) -> float:
    """1 when ``text`` contains the term; half when a Chinese term is not there as a word but each of its
    characters is (the question's word split differs from the passage's: 松有 in 鸡毛松有多高); three quarters
    when an English word is there in another form of the same stem ("founded": "founder"); else 0."""
    if term in text:
        return 1.0
    if has_han(term):
        return 0.5 if len(term) > 1 and all(ch in text for ch in term) else 0.0
    if len(term) >= 5 and term.isascii() and term.isalpha():
        root = stem(term)
        if len(root) >= 4 and re.search(rf"\b{re.escape(root)}", text):
            return STEM_CREDIT
    return 0.0


def weighted_coverage(weights: dict[str, float], text: str,
                      spellings: Mapping[str, Sequence[str]] | None = None) -> float:
    """Share of the terms' total weight found in ``text`` (normalized terms in normalized text; 1.0 with none).
    A term with ``spellings`` (an entity the question names as 老马, a passage as 马斯克 or by its standard
    name) counts as its best-found spelling."""
    total = sum(weights.values())
    if total <= 0:
        return 1.0
    spelled = spellings or {}
    return sum(w * max(found(f, text) for f in spelled.get(t, (t,))) for t, w in weights.items()) / total
