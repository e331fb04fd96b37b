"""BM25 in numpy with collection-wide statistics: the scorer of the in-process search mirror.

The analyzer and the formula are those of Milvus Lite's BM25 function (``FunctionType.BM25`` over a jieba
field): jieba's search-mode cut, tokens stripped and lower-cased, stop words dropped; a query term counted
as often as the question repeats it;

    score(d) = Σ_t  w_t · idf_t · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d| / avgdl)),
    idf_t    = ln((N − df_t + 0.5) / (df_t + 0.5) + 1)

with |d| the document's token count after stop words. Milvus Lite computes N, df and avgdl per segment, so
the same passage scores differently in a segment of 100 rows and one of 8,192 (an incremental API ingest makes
many small segments); here they are computed over every live row, as Milvus standalone does, so the ranking
does not depend on how the rows were written. On one segment both give the same scores.

Milvus Lite scores each posting in a Python loop (about 0.2-0.4 s a search at 100k rows, most of the query
time of the hybrid route) and keeps its postings as Python tuples (several hundred MB at 100k rows). Here the
postings are numpy arrays, sorted by term once ("sealed") plus a short unsorted tail for the rows added since,
so a search is a handful of array operations over the postings of the question's terms.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

# Milvus Lite's defaults when the index names none (Milvus standalone defaults to k1 = 1.2): the collection's
# index states them explicitly (graphs/stores/milvus/), so every backend scores alike.
DEFAULT_K1 = 1.5
DEFAULT_B = 0.75
# Rows kept unsorted before they are merged into the term-sorted postings (a merge sorts every posting).
TAIL_ROWS = 4096


class UnsupportedAnalyzer(ValueError):
    """Analyzer parameters this module cannot reproduce exactly."""


@dataclass(frozen=True)
class Analyzer:
    """jieba's search-mode tokens, stripped, lower-cased, stop words removed (Milvus Lite's jieba analyzer)."""

    stop_words: frozenset[str] = frozenset()

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Analyzer:
        """The analyzer of Milvus ``analyzer_params``; only the jieba tokenizer (search mode) is supported."""
        tokenizer = params.get("tokenizer") or params.get("type")
        mode = "search"
        if isinstance(tokenizer, dict):
            mode = tokenizer.get("mode") or "search"
            if tokenizer.get("dict"):
                raise UnsupportedAnalyzer("a custom jieba dictionary")
            tokenizer = tokenizer.get("type")
        if tokenizer != "jieba" or mode != "search":
            raise UnsupportedAnalyzer(f"tokenizer {tokenizer!r} (mode {mode!r})")
        stop: set[str] = set()
        for f in params.get("filter") or []:
            if isinstance(f, dict):
                if f.get("type") != "stop":
                    raise UnsupportedAnalyzer(f"filter {f!r}")
                stop.update(str(w) for w in f.get("stop_words") or [])
            elif f != "lowercase":
                raise UnsupportedAnalyzer(f"filter {f!r}")
        return cls(frozenset(stop))

    def tokens(self, text: str) -> list[str]:
        jieba = quiet_jieba()
        out = (t.strip().lower() for t in jieba.cut_for_search(text) if t.strip())
        return [t for t in out if t not in self.stop_words]

    def term_counts(self, text: str) -> Counter[str]:
        return Counter(self.tokens(text))


def quiet_jieba() -> Any:
    """jieba, imported with its dictionary-loading DEBUG lines silenced: its import sets its own logger to DEBUG
    (over any level set before), so ``aer`` commands that tokenize here first printed "Building prefix dict"."""
    import jieba

    if jieba.default_logger.level < logging.WARNING:
        jieba.setLogLevel(logging.WARNING)
    return jieba


SHARED_CUTS = 4096
"""Most texts whose cut ``shared_cuts`` keeps waiting for their second reader (a longer write cuts the rest twice)."""


class _SharedCuts:
    """The state behind ``shared_cuts``: jieba's own ``cut_for_search``, the cuts kept, how many blocks are open."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.original: Any = None
        self.kept: dict[str, tuple[str, ...]] = {}
        self.hits = 0
        """Cuts read from the kept ones (the tests and the bench count them)."""

    def cut(self, sentence: Any, HMM: bool = True) -> Iterator[str]:
        original = self.original
        if original is None or not isinstance(sentence, str) or HMM is not True:
            return iter(tuple((original or _jieba_cut)(sentence, HMM)))
        with self.lock:
            kept = self.kept.pop(sentence, None)
            if kept is not None:
                self.hits += 1
                return iter(kept)
        tokens = tuple(original(sentence, HMM))
        with self.lock:
            if len(self.kept) < SHARED_CUTS:
                self.kept[sentence] = tokens
        return iter(tokens)


def _jieba_cut(sentence: Any, HMM: bool = True) -> Iterator[str]:
    return iter(quiet_jieba().dt.cut_for_search(sentence, HMM))


_CUTS = _SharedCuts()


@contextlib.contextmanager
def shared_cuts() -> Iterator[None]:
    """Within the block, jieba's search-mode cut of a text is made once for its first two readers.

    Milvus Lite runs in this process and its BM25 function cuts every written passage with
    ``jieba.cut_for_search``; the search mirror then analyzes the same passage again (``Analyzer``): two cuts of
    every text, about 31 % of the CPU of a 100k ingest (py-spy, session 17). While a block is open,
    ``jieba.cut_for_search`` keeps each text's cut until a second call for the same text reads it (whichever of
    the two comes first), so a write through Lite and the mirror cuts each passage once. jieba's cut is a
    function of the text and its dictionary, which nothing here changes while a block is open; what is kept is
    dropped when the last block closes, and at most ``SHARED_CUTS`` cuts wait at once. Any other caller of
    ``cut_for_search`` meanwhile (a question's BM25 search) gets the same tokens it would have got."""
    jieba = quiet_jieba()
    with _CUTS.lock:
        if _CUTS.depth == 0:
            _CUTS.original = jieba.cut_for_search
            jieba.cut_for_search = _CUTS.cut
        _CUTS.depth += 1
    try:
        yield
    finally:
        with _CUTS.lock:
            _CUTS.depth -= 1
            if _CUTS.depth == 0:
                jieba.cut_for_search = _CUTS.original
                _CUTS.original = None
                _CUTS.kept.clear()


def shared_cut_hits() -> int:
    """Cuts read from ``shared_cuts``' kept ones since the process started."""
    return _CUTS.hits


class Growable:
    """A numpy array that grows by doubling (rows appended at the end)."""

    def __init__(self, dtype: Any, width: int | None = None) -> None:
        self._shape_tail = () if width is None else (width,)
        self._data = np.zeros((16, *self._shape_tail), dtype=dtype)
        self.size = 0

    def extend(self, values: np.ndarray) -> None:
        need = self.size + len(values)
        if need > len(self._data):
            grown = np.zeros((max(need, 2 * len(self._data)), *self._shape_tail), dtype=self._data.dtype)
            grown[: self.size] = self._data[: self.size]
            self._data = grown
        self._data[self.size : need] = values
        self.size = need

    @property
    def view(self) -> np.ndarray:
        return self._data[: self.size]

    def adopt(self, values: np.ndarray) -> None:
        """Hold ``values`` itself (no copy) as the contents."""
        self._data = values.reshape(-1, *self._shape_tail)
        if len(self._data) == 0:
            self._data = np.zeros((16, *self._shape_tail), dtype=self._data.dtype)
        self.size = len(values)

    def replace(self, values: np.ndarray) -> None:
        self._data = np.array(values, dtype=self._data.dtype, copy=True).reshape(-1, *self._shape_tail)
        if len(self._data) == 0:
            self._data = np.zeros((16, *self._shape_tail), dtype=self._data.dtype)
        self.size = len(values)


def gather_rows(row_ptr: np.ndarray, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For row-major postings, the row pointer of the rows ``keep`` (in that order) and the positions of
    their postings in the old arrays."""
    keep = np.asarray(keep, dtype=np.int64)
    lens = np.diff(row_ptr)[keep]
    new_ptr = np.zeros(len(keep) + 1, dtype=np.int64)
    np.cumsum(lens, out=new_ptr[1:])
    # A kept posting's old position: its row's old start plus its offset within the row.
    take = np.repeat(row_ptr[keep] - new_ptr[:-1], lens) + np.arange(new_ptr[-1])
    return new_ptr, take


class BM25Postings:
    """Term statistics and postings of rows numbered 0..n-1 (a row can be killed, never changed)."""

    def __init__(self, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> None:
        self.k1 = float(k1)
        self.b = float(b)
        self.vocab: dict[str, int] = {}
        self._df = Growable(np.int64)  # live rows holding each term
        self._doc_len = Growable(np.float64)  # per row; 0 once killed
        self._alive = Growable(np.bool_)
        # Row-major postings (what rows hold): row_ptr[r]..row_ptr[r+1] index terms/tfs.
        self._row_ptr = Growable(np.int64)
        self._row_ptr.extend(np.zeros(1, dtype=np.int64))
        self._terms = Growable(np.int32)
        self._tfs = Growable(np.float32)
        # Term-major copy of the postings of rows [0, sealed_rows): the rows of term t are
        # sorted_rows[term_ptr[t]:term_ptr[t+1]].
        self._sealed_rows = 0
        self._term_ptr = np.zeros(1, dtype=np.int64)
        self._sorted_rows = np.zeros(0, dtype=np.int32)
        self._sorted_tfs = np.zeros(0, dtype=np.float32)
        self.live = 0
        self._total_len = 0.0

    @property
    def rows(self) -> int:
        return self._alive.size

    def add(self, counts: Sequence[Counter[str] | dict[str, float]]) -> None:
        """Append one row per term-count mapping."""
        terms: list[int] = []
        tfs: list[float] = []
        ptr: list[int] = []
        lens: list[float] = []
        end = self._row_ptr.view[-1]
        for row in counts:
            length = 0.0
            for term, tf in row.items():
                tid = self.vocab.get(term)
                if tid is None:
                    tid = self.vocab[term] = len(self.vocab)
                terms.append(tid)
                tfs.append(float(tf))
                length += float(tf)
            end += len(row)
            ptr.append(end)
            lens.append(length)
        if len(self.vocab) > self._df.size:
            self._df.extend(np.zeros(len(self.vocab) - self._df.size, dtype=np.int64))
        term_arr = np.asarray(terms, dtype=np.int32)
        self._terms.extend(term_arr)
        self._tfs.extend(np.asarray(tfs, dtype=np.float32))
        self._row_ptr.extend(np.asarray(ptr, dtype=np.int64))
        self._doc_len.extend(np.asarray(lens, dtype=np.float64))
        self._alive.extend(np.ones(len(counts), dtype=np.bool_))
        np.add.at(self._df.view, term_arr, 1)
        self.live += len(counts)
        self._total_len += float(sum(lens))
        if self.rows - self._sealed_rows > max(TAIL_ROWS, self._sealed_rows // 8):
            self.seal()

    def kill(self, rows: Iterable[int]) -> None:
        """Remove rows from the statistics and from every result."""
        alive = self._alive.view
        ptr = self._row_ptr.view
        for r in rows:
            if not alive[r]:
                continue
            alive[r] = False
            np.subtract.at(self._df.view, self._terms.view[ptr[r] : ptr[r + 1]], 1)
            self._total_len -= float(self._doc_len.view[r])
            self.live -= 1

    def seal(self) -> None:
        """Sort every posting by term (after a bulk load; searches then read only their terms' postings)."""
        n_terms = len(self.vocab)
        terms = self._terms.view
        row_of = np.repeat(np.arange(self.rows, dtype=np.int32), np.diff(self._row_ptr.view))
        order = np.argsort(terms, kind="stable")
        self._sorted_rows = row_of[order]
        self._sorted_tfs = self._tfs.view[order]
        self._term_ptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(np.bincount(terms, minlength=n_terms), out=self._term_ptr[1:])
        self._sealed_rows = self.rows

    @classmethod
    def from_arrays(
        cls, row_ptr: np.ndarray, terms: np.ndarray, tfs: np.ndarray, vocab: Sequence[str],
        k1: float = DEFAULT_K1, b: float = DEFAULT_B,
    ) -> BM25Postings:
        """Postings of rows given row-major (``export``'s arrays), all live, sorted by term."""
        out = cls(k1, b)
        out.vocab = {term: tid for tid, term in enumerate(vocab)}
        if len(out.vocab) != len(vocab):
            raise ValueError("the vocabulary repeats a term")
        out._row_ptr.replace(np.asarray(row_ptr, dtype=np.int64))
        out._terms.replace(np.asarray(terms, dtype=np.int32))
        out._tfs.replace(np.asarray(tfs, dtype=np.float32))
        n = len(row_ptr) - 1
        row_of = np.repeat(np.arange(n), np.diff(out._row_ptr.view))
        doc_len = np.bincount(row_of, weights=out._tfs.view.astype(np.float64), minlength=n)
        out._doc_len.replace(doc_len)
        out._alive.replace(np.ones(n, dtype=np.bool_))
        out._df.replace(np.bincount(out._terms.view, minlength=len(vocab)).astype(np.int64))
        out.live = n
        out._total_len = float(doc_len.sum())
        out.seal()
        return out

    def compacted(self, keep: np.ndarray) -> BM25Postings:
        """A copy holding only the rows ``keep`` (in that order), renumbered 0..len(keep)-1."""
        row_ptr, terms, tfs, vocab = self.export()
        new_ptr, take = gather_rows(row_ptr, keep)
        return BM25Postings.from_arrays(new_ptr, terms[take], tfs[take], vocab, self.k1, self.b)

    def export(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
        """(row_ptr, term ids, tfs, vocabulary in id order) of every row, for persistence."""
        vocab = [""] * len(self.vocab)
        for term, tid in self.vocab.items():
            vocab[tid] = term
        return self._row_ptr.view.copy(), self._terms.view.copy(), self._tfs.view.copy(), vocab

    def scores(self, query: Counter[str], mask: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(rows, scores) of every live row (within ``mask``) holding a query term, unordered."""
        n = self.live
        if n == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        avgdl = self._total_len / n if self._total_len > 0 else 1.0
        df = self._df.view
        rows_parts: list[np.ndarray] = []
        weight_parts: list[np.ndarray] = []
        tail_terms: np.ndarray | None = None
        for term, qtf in query.items():
            tid = self.vocab.get(term)
            if tid is None or df[tid] <= 0:
                continue
            idf = math.log((n - df[tid] + 0.5) / (df[tid] + 0.5) + 1.0)
            if tid + 1 < len(self._term_ptr):
                a, z = self._term_ptr[tid], self._term_ptr[tid + 1]
                rows, tfs = self._sorted_rows[a:z], self._sorted_tfs[a:z]
            else:
                rows, tfs = np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32)
            if self.rows > self._sealed_rows:  # the tail: rows added since the last sort
                if tail_terms is None:
                    start = self._row_ptr.view[self._sealed_rows]
                    tail_terms = self._terms.view[start:]
                    tail_rows = np.repeat(
                        np.arange(self._sealed_rows, self.rows, dtype=np.int32),
                        np.diff(self._row_ptr.view[self._sealed_rows :]),
                    )
                    tail_tfs = self._tfs.view[start:]
                hit = np.flatnonzero(tail_terms == tid)
                rows = np.concatenate([rows, tail_rows[hit]])
                tfs = np.concatenate([tfs, tail_tfs[hit]])
            if not len(rows):
                continue
            tf = tfs.astype(np.float64)
            norm = tf + self.k1 * (1.0 - self.b + self.b * self._doc_len.view[rows] / avgdl)
            rows_parts.append(rows)
            weight_parts.append(float(qtf) * idf * tf * (self.k1 + 1.0) / norm)
        if not rows_parts:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        all_rows = np.concatenate(rows_parts)
        totals = np.bincount(all_rows, weights=np.concatenate(weight_parts), minlength=self.rows)
        matched = np.zeros(self.rows, dtype=np.bool_)
        matched[all_rows] = True
        matched &= self._alive.view
        if mask is not None:
            matched &= mask[: self.rows]
        found = np.flatnonzero(matched)
        return found, totals[found]
