"""A rerank HTTP service: Cohere, Jina, vLLM, Infinity, llama.cpp (``documents``) or Hugging Face TEI (``texts``)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

import httpx

from graphs.domain import Constraint, Hit, ParsedQuery
from graphs.rerankers.base import RerankerUnavailable, ScoredHit, check_score, order, passage_text

log = logging.getLogger(__name__)

RerankApi = Literal["cohere", "tei"]


def request_body(api: RerankApi, model: str, query: str, documents: list[str], top_n: int) -> dict[str, Any]:
    """The JSON body: the Cohere/Jina shape by default, TEI's native ``/rerank`` shape for ``tei``."""
    if api == "tei":
        return {"query": query, "texts": documents, "truncate": True, "raw_scores": False}
    return {"model": model, "query": query, "documents": documents, "top_n": top_n}


def parse_scores(reranker: str, payload: Any, count: int) -> dict[int, float]:
    """Map document index -> score from ``{"results": [{index, relevance_score}]}`` or TEI's ``[{index, score}]``."""
    if isinstance(payload, dict) and isinstance(payload.get("results"), list):
        items, key, other = payload["results"], "relevance_score", "score"
    elif isinstance(payload, list):
        items, key, other = payload, "score", "relevance_score"
    else:
        raise RerankerUnavailable(reranker, f"unexpected response shape {type(payload).__name__}")
    scores: dict[int, float] = {}
    for item in items:
        if not isinstance(item, dict):
            raise RerankerUnavailable(reranker, f"result {item!r} is not an object")
        index = item.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise RerankerUnavailable(reranker, f"result index {index!r} is not one of the {count} documents")
        if index in scores:
            raise RerankerUnavailable(reranker, f"document {index} scored twice")
        scores[index] = check_score(reranker, item[key] if key in item else item.get(other))
    if count and not scores:
        raise RerankerUnavailable(reranker, "the service scored none of the documents")
    return scores


class HttpRerankReranker:
    """Scores query-passage pairs with a rerank endpoint (a cross-encoder served over HTTP)."""

    def __init__(
        self,
        url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 10.0,
        client: httpx.AsyncClient | None = None,
        api: RerankApi = "cohere",
    ) -> None:
        self.url = url
        self.model = model
        self.api: RerankApi = api
        self.timeout = timeout
        self.name = f"http-rerank:{model}"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # Without an injected client each call opens its own: safe across event loops (CLI, tests, server).
        self._client = client

    async def _post(self, body: dict[str, Any]) -> Any:
        try:
            if self._client is not None:
                response = await self._client.post(self.url, json=body, headers=self._headers, timeout=self.timeout)
            else:
                async with httpx.AsyncClient(timeout=self.timeout) as client:
                    response = await client.post(self.url, json=body, headers=self._headers)
        except httpx.TimeoutException as exc:
            raise RerankerUnavailable(self.name, f"no answer within {self.timeout:g}s from {self.url}") from exc
        except httpx.HTTPError as exc:
            raise RerankerUnavailable(self.name, f"{type(exc).__name__} calling {self.url}: {exc}") from exc
        if response.status_code >= 400:
            raise RerankerUnavailable(self.name, f"HTTP {response.status_code} from {self.url}: {response.text[:200]}")
        try:
            return response.json()
        except ValueError as exc:
            raise RerankerUnavailable(self.name, f"malformed JSON from {self.url}") from exc

    async def rerank(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> list[Hit]:
        """Score every hit with the service and keep the best ``top_k``."""
        if not hits or top_k <= 0:
            return []
        documents = [passage_text(h) for h in hits]
        body = request_body(self.api, self.model, parsed.original_query, documents, min(top_k, len(hits)))
        scores = parse_scores(self.name, await self._post(body), len(hits))
        return order(
            [
                ScoredHit(hits[i], s, f"{self.name}: query-passage relevance {s:.3f} (search rank {i + 1}, {hits[i].channel})")
                for i, s in sorted(scores.items())
            ],
            top_k,
        )
