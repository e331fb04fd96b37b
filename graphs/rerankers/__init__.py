"""Every reranker: the default fusion, a local cross-encoder, a rerank HTTP service, an LLM judge; and
``build_reranker``, which makes the configured one."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from langchain_core.language_models import BaseChatModel

from graphs.prompts import PromptLibrary
from graphs.rerankers.base import (
    CountingReranker,
    Reranker,
    RerankerUnavailable,
    RerankOutcome,
    RerankResult,
    rerank_counted,
    rerank_or_fallback,
)
from graphs.rerankers.cross_encoder import CrossEncoderReranker
from graphs.rerankers.fusion import FusionReranker
from graphs.rerankers.http_rerank import HttpRerankReranker, RerankApi
from graphs.rerankers.llm_judge import JudgeMode, LLMJudgeReranker, RelevanceJudgment, RerankJudgment

RerankerKind = Literal["fusion", "cross-encoder", "http", "llm"]

__all__ = [
    "CountingReranker",
    "CrossEncoderReranker",
    "FusionReranker",
    "HttpRerankReranker",
    "LLMJudgeReranker",
    "RelevanceJudgment",
    "RerankJudgment",
    "RerankOutcome",
    "RerankResult",
    "Reranker",
    "RerankerKind",
    "RerankerUnavailable",
    "build_reranker",
    "rerank_counted",
    "rerank_or_fallback",
]


def build_reranker(
    kind: RerankerKind,
    *,
    model_path: str | Path | None = None,
    url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    api: RerankApi = "cohere",
    timeout_s: float = 10.0,
    llm: BaseChatModel | None = None,
    llm_name: str | None = None,
    prompts: PromptLibrary | None = None,
    judge_mode: JudgeMode = "listwise",
    top_n: int = 8,
    llm_timeout_s: float = 60.0,
) -> Reranker:
    """The configured reranker; a missing setting is a ValueError at start-up, not a failure per request."""
    if kind == "fusion":
        return FusionReranker()
    if kind == "cross-encoder":
        if not model_path:
            raise ValueError("the cross-encoder reranker needs a local model folder (AER_RERANK_MODEL_PATH)")
        return CrossEncoderReranker(model_path)
    if kind == "http":
        if not url:
            raise ValueError("the http reranker needs the endpoint URL (AER_RERANK_URL)")
        return HttpRerankReranker(url, model or "default", api_key=api_key, timeout=timeout_s, api=api)
    if kind == "llm":
        if llm is None:
            raise ValueError("the llm reranker needs an LLM (AER_LLM_BASE_URL or AER_LLM_API_KEY)")
        return LLMJudgeReranker(
            llm, prompts or PromptLibrary(), judge_mode, top_n, llm_timeout_s, llm_name=llm_name
        )
    raise ValueError(f"unknown reranker {kind!r}; expected one of fusion, cross-encoder, http, llm")
