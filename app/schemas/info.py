"""The info resource: what a client (the web page) needs to build its forms."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
)


class AuthInfo(Wire):
    api_keys: bool = Field(description="Whether the server has API keys: writes need one (X-API-Key).")
    reads_need_key: bool = Field(description="Whether queries and reads need a key too.")


class Features(Wire):
    """The document endpoints this server has (a client can check before it uses them)."""

    upload: bool = Field(description="POST /api/adaptive-entity-rag/upload (multipart files).")
    jobs: bool = Field(description="GET ?action=job&id=… (ingest job progress).")
    documents: bool = Field(description="GET ?action=documents and ?action=document&id=… (the inventory).")


class QueryDefaults(Wire):
    top_k: int
    max_retries: int
    max_turns: int


class ServiceInfo(Wire):
    """What the page needs to build its forms: the choices a request may make and how the server is guarded."""

    success: Literal[True] = True
    version: str
    llm_models: list[str] = Field(description="LLM models a query may name in llmModel (empty: no LLM).")
    embedding_model: str
    embedding_note: str | None = Field(
        default=None, description="Why the embedder is not the configured one (a fallback, an older index)."
    )
    reranker: str = Field(description="The reranker that runs when enableReranking is true.")
    entity_types: list[str]
    search_modes: list[str]
    teams: list[str]
    defaults: QueryDefaults
    auth: AuthInfo
    features: Features
