"""Fusion of a dense and a BM25 result list (pure; the Milvus adapter runs both searches)."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from pathlib import Path
from typing import Any

from graphs.domain import Hit
from graphs.stores.base import FusionMethod
from graphs.text.normalize import has_han
from graphs.text.scripts import han_share

PARAMS_FILE = Path(__file__).with_name("fusion_params.json")
"""Fitted by ``aer fit-fusion`` (app/tools/fit_fusion.py) on the eval sets; the file notes the data it was fitted on."""


def load_params(path: Path = PARAMS_FILE) -> dict[str, Any]:
    """The fitted fusion parameters (a missing or broken file is a packaging bug: it raises)."""
    params = json.loads(path.read_text(encoding="utf-8"))
    rrf_k, rrf_w, w_w = params["rrf"]["k"], params["rrf"]["dense_weight"], params["weighted"]["dense_weight"]
    if not (isinstance(rrf_k, int) and rrf_k >= 0 and 0.0 <= rrf_w <= 1.0 and 0.0 <= w_w <= 1.0):
        raise ValueError(f"{path}: fusion parameters out of range: {params}")
    return params


_PARAMS = load_params()
RRF_K: int = _PARAMS["rrf"]["k"]
RRF_DENSE_WEIGHT: float = _PARAMS["rrf"]["dense_weight"]
WEIGHTED_DENSE_WEIGHT: float = _PARAMS["weighted"]["dense_weight"]


def _merge(dense: Sequence[Hit], bm25: Sequence[Hit]) -> dict[str, Hit]:
    """One hit per chunk id carrying both component scores where both channels found it."""
    merged: dict[str, Hit] = {}
    for h in dense:
        merged.setdefault(h.id, h)
    for h in bm25:
        if h.id in merged:
            merged[h.id] = merged[h.id].model_copy(update={"bm25_score": h.bm25_score})
        else:
            merged[h.id] = h
    return merged


def unseen_by_words(question: str, dense: Iterable[Hit], bm25: Iterable[Hit] = ()) -> frozenset[str]:
    """The ids of the dense hits written in the other language than the question's (under a fifth of their
    letters Chinese for a question with Chinese in it, over half for one without) where the BM25 list holds no
    passage of that language: BM25 over the question's words could not rank any of them, whatever they say, so
    its list is no vote against them (``rrf_scores``). Where it ranks some (a name both languages write, the
    lexicon's words of the asked attribute in ``lexical_text``), it could see that language, and its ranks stand.
    The cuts are the answer layer's for a sentence in the other language
    (``graphs.rag.answer.evidence.in_other_language``)."""
    chinese = has_han(question)

    def other(h: Hit) -> bool:
        return han_share(h.text) < 0.2 if chinese else han_share(h.text) > 0.5

    if any(other(h) for h in bm25):
        return frozenset()
    return frozenset(h.id for h in dense if other(h))


def rrf_scores(dense: Sequence[str], bm25: Sequence[str], k: int = RRF_K,
               dense_weight: float = RRF_DENSE_WEIGHT, unseen: Collection[str] = ()) -> dict[str, float]:
    """Weighted RRF of two ranked id lists: sum of weight / (k + rank) over the channels.

    An id in ``unseen`` is one the BM25 channel cannot see (a passage in the other language than the question:
    ``unseen_by_words``): its BM25 rank is imputed from its dense rank. Without it, an English report that the
    dense list ranks first for a Chinese question got one vote against two for the Chinese passages that share
    a word with the question (医院 → a sick-leave rule), and fell out of the top results and the graph route's
    seeds."""
    scores: dict[str, float] = {}
    for weight, ids in ((dense_weight, dense), (1.0 - dense_weight, bm25)):
        for rank, cid in enumerate(ids, start=1):
            scores[cid] = scores.get(cid, 0.0) + weight / (k + rank)
    seen = set(bm25)
    for rank, cid in enumerate(dense, start=1):
        if cid in unseen and cid not in seen:
            scores[cid] += (1.0 - dense_weight) / (k + rank)
    return scores


def weighted_scores(components: dict[str, tuple[float | None, float | None]],
                    dense_weight: float = WEIGHTED_DENSE_WEIGHT) -> dict[str, float]:
    """Weighted sum of the cosine (clamped at 0) and the best-normalized BM25 score per id; a missing channel
    counts 0."""
    return {cid: dense_weight * max(0.0, d or 0.0) + (1.0 - dense_weight) * (b or 0.0)
            for cid, (d, b) in components.items()}


def fused_order(scores: dict[str, float], limit: int) -> list[str]:
    """The ids, best fused score first (ties keep the first channel's order)."""
    return sorted(scores, key=lambda cid: scores[cid], reverse=True)[:limit]


def rrf(dense: Sequence[Hit], bm25: Sequence[Hit], limit: int, k: int = RRF_K,
        dense_weight: float = RRF_DENSE_WEIGHT, question: str | None = None) -> list[Hit]:
    """Weighted reciprocal-rank fusion: sum of weight / (k + rank) over the channels; given the ``question``,
    BM25 is no vote against a passage in its other language (``rrf_scores``)."""
    unseen = unseen_by_words(question, dense, bm25) if question is not None else frozenset()
    scores = rrf_scores([h.id for h in dense], [h.id for h in bm25], k, dense_weight, unseen)
    return _ranked(_merge(dense, bm25), scores, limit)


def weighted(dense: Sequence[Hit], bm25: Sequence[Hit], limit: int,
             dense_weight: float = WEIGHTED_DENSE_WEIGHT) -> list[Hit]:
    """Weighted sum of the cosine (clamped at 0) and the best-normalized BM25 score; a missing channel counts 0."""
    merged = _merge(dense, bm25)
    scores = weighted_scores({cid: (h.dense_score, h.bm25_score) for cid, h in merged.items()}, dense_weight)
    return _ranked(merged, scores, limit)


def _ranked(merged: dict[str, Hit], scores: dict[str, float], limit: int) -> list[Hit]:
    order = fused_order(scores, limit)
    return [merged[cid].model_copy(update={"score": round(scores[cid], 6), "channel": "hybrid"}) for cid in order]


def channel_candidates(limit: int, cap: int = 16384) -> int:
    """How many hits each channel fetches for a fused top ``limit`` (more, so fusion can promote lower-ranked ones;
    at most ``cap``, the backend's top-k limit: Milvus's 16384)."""
    return min(max(2 * limit, 20), cap)


def fuse(dense: Sequence[Hit], bm25: Sequence[Hit], limit: int, fusion: FusionMethod = "rrf",
         dense_weight: float | None = None, question: str | None = None) -> list[Hit]:
    """Hybrid search's fusion of its two channels: weighted RRF or weighted scores (each method's fitted dense
    weight unless given); RRF given the ``question`` counts no BM25 vote against a passage in its other
    language."""
    if fusion == "rrf":
        return rrf(dense, bm25, limit, dense_weight=RRF_DENSE_WEIGHT if dense_weight is None else dense_weight,
                   question=question)
    return weighted(dense, bm25, limit, dense_weight=WEIGHTED_DENSE_WEIGHT if dense_weight is None else dense_weight)
