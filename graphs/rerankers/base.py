"""What every reranker shares: the protocol (each names itself so the response can say which one ran), the
typed outage, the counted result, ordering and fallback."""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from graphs.domain import Constraint, Hit, ParsedQuery
from graphs.rerankers.fusion import FusionReranker

log = logging.getLogger(__name__)


@runtime_checkable
class Reranker(Protocol):
    """Reorders hits for a query and explains each score."""

    name: str

    async def rerank(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> list[Hit]: ...


class RerankerUnavailable(RuntimeError):
    """A reranker could not score the hits (service down, model missing, invalid LLM output)."""

    def __init__(self, reranker: str, message: str, *, llm_calls: int = 0) -> None:
        super().__init__(f"{reranker} unavailable: {message}")
        self.reranker = reranker
        self.reason = message
        # LLM calls made before the failure still count towards the request's llm_calls.
        self.llm_calls = llm_calls


@dataclass(frozen=True)
class RerankResult:
    """Reranked hits and the LLM calls it took to rank them."""

    hits: list[Hit]
    llm_calls: int = 0


@runtime_checkable
class CountingReranker(Protocol):
    """A reranker that also reports the LLM calls it made (returned, so concurrent requests never mix)."""

    name: str

    async def rerank_counted(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> RerankResult: ...


@dataclass(frozen=True)
class RerankOutcome:
    """What the rerank node records: the hits, who ranked them, the LLM calls, and any degradation."""

    hits: list[Hit]
    reranker: str
    llm_calls: int = 0
    degraded: bool = False
    error: str | None = None


@dataclass(frozen=True)
class ScoredHit:
    """A hit with the score a reranker gave it, and the why."""

    hit: Hit
    score: float | None
    explanation: str
    tiebreak: tuple[int, ...] = field(default=())


def passage_text(hit: Hit) -> str:
    """The text a reranker scores: title line, then body."""
    return f"{hit.title}\n{hit.text}" if hit.title.strip() else hit.text


def check_score(reranker: str, value: object) -> float:
    """Return a finite float score (numpy scalars included), or raise RerankerUnavailable."""
    if isinstance(value, bool | str | bytes):
        raise RerankerUnavailable(reranker, f"score {value!r} is not a number")
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError) as exc:
        raise RerankerUnavailable(reranker, f"score {value!r} is not a number") from exc
    if not math.isfinite(number):
        raise RerankerUnavailable(reranker, f"score {number} is not finite")
    return number


def order(scored: Sequence[ScoredHit], top_k: int) -> list[Hit]:
    """Sort by score (unscored last, ties by tiebreak then input order), cut to top_k, set the scores."""
    keyed = sorted(
        enumerate(scored),
        key=lambda p: (p[1].score is None, -(p[1].score or 0.0), p[1].tiebreak, p[0]),
    )
    return [
        s.hit.model_copy(update={
            "reranked_score": None if s.score is None else round(s.score, 4),
            "relevance_explanation": s.explanation,
        })
        for _, s in keyed[: max(0, top_k)]
    ]


async def rerank_counted(
    reranker: Reranker, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
) -> RerankResult:
    """Run any reranker, counting LLM calls when it reports them."""
    if isinstance(reranker, CountingReranker):
        return await reranker.rerank_counted(parsed, constraints, hits, top_k)
    return RerankResult(await reranker.rerank(parsed, constraints, hits, top_k))


async def rerank_or_fallback(
    reranker: Reranker,
    parsed: ParsedQuery,
    constraints: Sequence[Constraint],
    hits: Sequence[Hit],
    top_k: int,
    fallback: Reranker | None = None,
) -> RerankOutcome:
    """Rerank; when the reranker is unavailable, rank with the fallback (fusion) and say so."""
    try:
        result = await rerank_counted(reranker, parsed, constraints, hits, top_k)
    except RerankerUnavailable as exc:
        backup = fallback or FusionReranker()
        log.warning("rerank: %s; falling back to %s", exc, backup.name)
        ranked = await backup.rerank(parsed, constraints, hits, top_k)
        return RerankOutcome(
            hits=ranked,
            reranker=f"{backup.name} (fallback: {reranker.name} unavailable)",
            llm_calls=exc.llm_calls,
            degraded=True,
            error=str(exc),
        )
    return RerankOutcome(hits=result.hits, reranker=reranker.name, llm_calls=result.llm_calls)
