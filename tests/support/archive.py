"""A small workspace for the archive tests: a deterministic embedder with a fingerprint, the demo's entities and
first documents ingested through a job, and the top passages of a few questions through the real graph."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding

from app.cli import demo_dir
from app.container import Resources
from app.schemas import QueryRequest
from app.services.query import answer
from app.settings import Settings
from graphs.domain import Document, EntityMetadata
from graphs.embeddings import EmbedderFingerprint

QUESTIONS = ["Who founded SpaceX?", "马斯克创办了哪些公司？", "What did Apple release in 2007?",
             "特斯拉的首席执行官是谁？", "Tim Cook"]


class Fake(DeterministicFakeEmbedding):
    """A deterministic embedder with a name and a fingerprint, counting what it embeds."""

    name: str = "fake-archive"
    calls: int = 0
    selection_note: str | None = None

    @property
    def fingerprint(self) -> EmbedderFingerprint:
        return EmbedderFingerprint(self.name, self.size, "1")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += len(texts)
        return super().embed_documents(texts)


def settings(data_dir: Path, **kw: Any) -> Settings:
    return Settings(data_dir=data_dir, _env_file=None, **kw)  # type: ignore[call-arg]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def fill_workspace(res: Resources, docs: int = 14) -> None:
    """Entities, documents through a job (job history), and a graph built from both."""
    for raw in read_jsonl(demo_dir() / "entities.jsonl")[:12]:
        res.ingestor.upsert_entity(EntityMetadata.model_validate(raw))
    documents = [Document.model_validate(d) for d in read_jsonl(demo_dir() / "corpus.jsonl")[:docs]]
    assert res.jobs is not None
    job = res.jobs.store.create("ingest", documents)
    res.jobs.run_job(job)
    res.index.flush()


def top_passages(res: Resources) -> list[list[str]]:
    async def ask() -> list[list[str]]:
        out = []
        for q in QUESTIONS:
            body = (await answer(res, QueryRequest(question=q))).model_dump(by_alias=True, mode="json")
            out.append([h["id"] for h in body["retrievalDetails"]["topResults"]])
        return out

    return asyncio.run(ask())
