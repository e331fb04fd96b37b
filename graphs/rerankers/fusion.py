"""The default reranker: a weighted fusion of dense similarity, keyword coverage, entity match and title match
(no model, no network)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from graphs.domain import Constraint, Hit, ParsedQuery
from graphs.text.normalize import normalize


@dataclass(frozen=True)
class FeatureWeights:
    """How much each reranking feature counts."""

    search: float = 0.4
    dense: float = 0.2
    lexical: float = 0.2
    entity: float = 0.1
    title: float = 0.1


def _coverage(terms: Sequence[str], text: str) -> float:
    if not terms:
        return 0.0
    return sum(1 for t in terms if t in text) / len(terms)


def fusion_features(
    parsed: ParsedQuery, constraints: Sequence[Constraint], hit: Hit, top_score: float = 1.0
) -> dict[str, float]:
    """Compute the reranking features of one hit, each in [0, 1] (``search``: score relative to the best hit)."""
    body = normalize(f"{hit.title} {hit.text}")
    title = normalize(hit.title)
    keywords = [normalize(k) for k in parsed.keywords if k.strip()]
    names = [normalize(c.value) for c in constraints if c.type != "DATE" and not c.negated]
    hit_names = {normalize(n) for values in hit.entities.values() for n in values}
    entity = (
        sum(1 for n in names if n in hit_names or n in body) / len(names) if names else 0.0
    )
    dense = hit.dense_score if hit.dense_score is not None else hit.score
    return {
        "search": max(0.0, min(1.0, hit.score / top_score)) if top_score > 0 else 0.0,
        "dense": max(0.0, min(1.0, dense)),
        "lexical": _coverage(keywords, body),
        "entity": entity,
        "title": max(_coverage(keywords, title), 1.0 if any(n and n == title for n in names) else 0.0),
    }


class FusionReranker:
    """Weighted fusion of dense similarity, keyword coverage, entity match and title match."""

    name = "fusion"

    def __init__(self, weights: FeatureWeights | None = None) -> None:
        self.weights = weights or FeatureWeights()

    def score(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hit: Hit, top_score: float = 1.0
    ) -> Hit:
        """Return the hit with its fused score and an explanation naming the deciding features."""
        features = fusion_features(parsed, constraints, hit, top_score)
        weights = vars(self.weights)
        parts = {k: weights[k] * v for k, v in features.items()}
        total = sum(parts.values())
        ranked = sorted(parts.items(), key=lambda kv: kv[1], reverse=True)
        explanation = ", ".join(f"{k}={features[k]:.2f}(+{v:.2f})" for k, v in ranked if v > 0) or "no feature matched"
        return hit.model_copy(update={"reranked_score": round(total, 4), "relevance_explanation": explanation})

    async def rerank(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> list[Hit]:
        """Score every hit and keep the best ``top_k``."""
        top = max((h.score for h in hits), default=0.0)
        scored = [self.score(parsed, constraints, h, top) for h in hits]
        scored.sort(key=lambda h: h.reranked_score or 0.0, reverse=True)
        return scored[:top_k]
