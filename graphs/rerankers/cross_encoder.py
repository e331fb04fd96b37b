"""A local sentence-transformers cross-encoder (loaded lazily from a local folder, never downloaded)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from graphs.domain import Constraint, Hit, ParsedQuery
from graphs.rerankers.base import RerankerUnavailable, ScoredHit, check_score, order, passage_text

log = logging.getLogger(__name__)

INSTALL_HINT = "install sentence-transformers (pip install 'sentence-transformers>=3') to use the cross-encoder reranker"


class CrossEncoderModel(Protocol):
    """The part of ``sentence_transformers.CrossEncoder`` used here."""

    def predict(self, sentences: list[tuple[str, str]], *, batch_size: int, show_progress_bar: bool) -> Any: ...


def load_cross_encoder(path: Path, max_length: int, device: str | None, name: str) -> CrossEncoderModel:
    """Load a CrossEncoder from a local folder only."""
    try:
        from sentence_transformers import CrossEncoder
    except ImportError as exc:
        raise RerankerUnavailable(name, INSTALL_HINT) from exc
    if not path.is_dir():
        raise RerankerUnavailable(name, f"model folder {path} not found (models are never downloaded)")
    try:
        model: CrossEncoderModel = CrossEncoder(
            str(path), max_length=max_length, device=device, local_files_only=True
        )
    except (OSError, ValueError, RuntimeError) as exc:
        raise RerankerUnavailable(name, f"cannot load {path}: {exc}") from exc
    return model


class CrossEncoderReranker:
    """Scores each (question, passage) pair jointly with a cross-encoder, off the event loop."""

    def __init__(
        self,
        model_path: str | Path,
        batch_size: int = 16,
        max_length: int = 512,
        *,
        device: str | None = None,
        model: CrossEncoderModel | None = None,
    ) -> None:
        self.model_path = Path(model_path)
        self.batch_size = batch_size
        self.max_length = max_length
        self.device = device
        self.name = f"cross-encoder:{self.model_path.name}"
        self._model = model
        # One load, and one predict at a time: fast tokenizers are not safe to share across threads.
        self._lock = threading.Lock()

    def load(self) -> CrossEncoderModel:
        """Load the model now (blocking); called lazily, or at warm-up."""
        with self._lock:
            if self._model is None:
                self._model = load_cross_encoder(self.model_path, self.max_length, self.device, self.name)
            return self._model

    def score(self, query: str, passages: list[str]) -> list[float]:
        """Score the pairs (blocking)."""
        model = self.load()
        with self._lock:
            try:
                raw = model.predict(
                    [(query, p) for p in passages], batch_size=self.batch_size, show_progress_bar=False
                )
            except (RuntimeError, ValueError, MemoryError) as exc:
                raise RerankerUnavailable(self.name, f"{type(exc).__name__}: {exc}") from exc
        scores = [check_score(self.name, s) for s in list(raw)]
        if len(scores) != len(passages):
            raise RerankerUnavailable(self.name, f"{len(scores)} scores for {len(passages)} passages")
        return scores

    async def rerank(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> list[Hit]:
        """Score every hit with the cross-encoder and keep the best ``top_k``."""
        if not hits or top_k <= 0:
            return []
        scores = await asyncio.to_thread(self.score, parsed.original_query, [passage_text(h) for h in hits])
        return order(
            [
                ScoredHit(h, s, f"{self.name}: query-passage relevance {s:.3f} (search rank {i + 1}, {h.channel})")
                for i, (h, s) in enumerate(zip(hits, scores, strict=True))
            ],
            top_k,
        )
