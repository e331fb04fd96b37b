"""The English stemmer used from several threads at once (a search thread builds the attribute lexicon while a
planner's sub-question stems in another): every thread gets the stems a single thread gets."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from graphs.text.terms import stem


def test_stems_are_the_same_from_many_threads_at_once() -> None:
    words = [f"{root}{ending}" for root in ("harbour", "found", "assembl", "relocat", "nation", "generat", "condition")
             for ending in ("", "s", "ed", "ing", "ation", "ational", "izations", "fulness", "iveness", "ically")]
    words = [f"{w}{'x' * n}" for n in range(12) for w in words]  # distinct words: the cache does not hide a race
    stem.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        threaded = list(pool.map(stem, words * 4))
    stem.cache_clear()
    alone = [stem(w) for w in words * 4]
    assert threaded == alone
