"""The page's workbench services: delete an entity, an entity's knowledge-graph neighbourhood with the passages
behind each edge, the standalone question of a conversation (the follow-up logic of ``/v1/chat/completions``),
and evaluations run from the page as background jobs over the indexed documents."""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from app.container import Resources
from app.errors import ServiceError
from app.observability.metrics import counted_outages
from app.schemas import (
    CarriedName,
    EvalJob,
    EvalReport,
    KgEdge,
    KgNeighbourhood,
    KgNode,
    KgPassage,
    ResolveRequest,
    ResolveResponse,
)
from app.schemas.chat import ChatMessage
from app.services import query as service
from graphs.domain import Chunk
from graphs.ingest.formats.jsonl import JsonlLineError, jsonl_records
from graphs.kg.base import KnowledgeGraph, doc_id_of, doc_node, entity_node, node_kind
from graphs.kg.mentions import canonical, contains_key, name_key

log = logging.getLogger(__name__)

PASSAGE_CHARS = 400
PASSAGES_PER_EDGE = 3


class WorkbenchError(ServiceError):
    """A client-visible failure of the workbench: each transport answers it by its kind and code."""


# -- the knowledge graph -----------------------------------------------------------------------------------------


def _center(resources: Resources, kg: KnowledgeGraph, entity: str | None, node: str | None) -> str:
    """The node id asked for: a node id as given, or an entity by its name or one of its aliases."""
    if node:
        if kg.name(node) is None:
            raise WorkbenchError("not_found", "node_not_found", f"the knowledge graph has no node {node!r}")
        return node
    assert entity is not None
    candidate = entity_node(entity)
    if kg.name(candidate) is not None:
        return candidate
    match = resources.context.entities.lookup(entity)
    if match is not None and kg.name(entity_node(match.entity.standard_name)) is not None:
        return entity_node(match.entity.standard_name)
    raise WorkbenchError("not_found", "entity_not_found", f"the knowledge graph has no entity {entity!r}")


def _passage(chunks: list[Chunk], names: list[str]) -> Chunk | None:
    """The first chunk that names one of ``names`` (at word boundaries), else the document's first chunk."""
    keys = [k for n in names if n and (k := name_key(n)) is not None]
    for chunk in chunks:
        text = canonical(" ".join(p for p in (chunk.title, chunk.section or "", chunk.text) if p))
        if any(contains_key(text, k) for k in keys):
            return chunk
    return chunks[0] if chunks else None


def neighbourhood(resources: Resources, entity: str | None, node: str | None, limit: int) -> KgNeighbourhood:
    """One hop around an entity (or any node): its neighbours, the edges, and a passage per document behind
    each edge (the chunk that names the other end)."""
    kg = resources.context.kg
    if kg is None:
        raise WorkbenchError("unavailable", "knowledge_graph_unavailable", "this server runs without a knowledge graph")
    center = _center(resources, kg, entity, node)
    found = kg.neighbors(center, limit=limit + 1)
    truncated = len(found) > limit
    found = found[:limit]
    behind = kg.edge_documents(center, sorted({n.node for n in found}))
    store = resources.context.entities

    def kg_node(node_id: str, name: str) -> KgNode:
        kind = node_kind(node_id)
        known = store.get(name) if kind == "entity" else None
        return KgNode(id=node_id, name=name, kind=kind, doc_id=doc_id_of(node_id),
                      aliases=list(known.aliases) if known is not None else [])

    nodes = {center: kg_node(center, kg.name(center) or center)}
    chunks: dict[str, list[Chunk]] = {}
    edges = []
    for n in found:
        if n.node not in nodes:
            nodes[n.node] = kg_node(n.node, n.name)
        docs = behind.get((n.node, n.edge), [])
        passages = []
        for doc_id in docs[:PASSAGES_PER_EDGE]:
            if doc_id not in chunks:
                chunks[doc_id] = resources.index.document_chunks(doc_id)
            # the passage that names the other end(s): the entities of the edge, not the document itself
            wanted = [form for end in (center, n.node) if end != doc_node(doc_id)
                      for form in (nodes[end].name, *nodes[end].aliases)]
            chunk = _passage(chunks[doc_id], wanted)
            if chunk is not None:
                text = chunk.text if len(chunk.text) <= PASSAGE_CHARS else chunk.text[:PASSAGE_CHARS] + "…"
                passages.append(KgPassage(doc_id=doc_id, title=chunk.title, chunk_id=chunk.id, text=text))
        source, target = (center, n.node) if n.direction == "out" else (n.node, center)
        edges.append(KgEdge(source=source, target=target, kind=n.edge, weight=n.weight, documents=docs,
                            passages=passages))
    return KgNeighbourhood(center=nodes[center], nodes=list(nodes.values()), edges=edges, truncated=truncated)


async def kg_neighbourhood(resources: Resources, entity: str | None, node: str | None,
                           limit: int) -> KgNeighbourhood:
    with counted_outages(resources.metrics):
        return await asyncio.to_thread(neighbourhood, resources, entity, node, limit)


# -- follow-up questions -----------------------------------------------------------------------------------------


async def resolve(resources: Resources, body: ResolveRequest) -> ResolveResponse:
    """The standalone question of a conversation, formed as ``/v1/chat/completions`` forms it."""
    messages = [ChatMessage(role=m.role, content=m.content) for m in body.messages]
    resolution = await service.resolve_chat(resources, resources.context, messages)
    return ResolveResponse(
        question=resolution.question, original=resolution.original, mode=resolution.mode,  # type: ignore[arg-type]
        carried_entities=[CarriedName(text=c.text, standard_name=c.standard_name, type=c.type)
                          for c in resolution.carried],
        degraded=resolution.degraded)


# -- evaluations run from the page -------------------------------------------------------------------------------

PAGE_MODES = ("bm25", "dense", "hybrid", "full")
"""The modes a page evaluation may run: fast retrieval baselines and the full graph."""
_STEM = re.compile(r"[^A-Za-z0-9._-]+")


def questions_of(data: bytes, max_questions: int) -> list[Any]:
    """The questions of an uploaded ``questions.jsonl`` (the ``aer eval`` format); WorkbenchError when the file is
    not one: not UTF-8, a line that is not a question (its number and why), none usable, or too many."""
    from app.tools.eval import EvalQuestion

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise WorkbenchError("invalid", "invalid_questions_file", f"the file is not UTF-8 text ({exc.reason})") from exc
    try:
        questions = list(jsonl_records(text, EvalQuestion))
    except JsonlLineError as exc:
        where = exc.field or "line"
        raise WorkbenchError("invalid", "invalid_questions_file", f"line {exc.line_number}: {where}: {exc.message}",
                             {"line": exc.line_number, "field": where}) from exc
    usable = [q for q in questions if q.gold_ids and q.question.strip()]
    if not usable:
        raise WorkbenchError("invalid", "no_questions", "no line has a question and gold_ids (the aer eval format: "
                             '{"id", "question", "answers", "gold_ids", "type"} per line)')
    if len(usable) > max_questions:
        raise WorkbenchError("too_large", "too_many_questions", f"at most {max_questions} questions per evaluation",
                             {"maxQuestions": max_questions, "questions": len(usable)})
    return usable


def dataset_name(filename: str | None) -> str:
    """The report's name: ``page-`` and the file's stem in safe characters."""
    stem = (filename or "questions").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return "page-" + (_STEM.sub("-", stem).strip("-.")[:60] or "questions")


@dataclass
class _Job:
    id: str
    workspace: str
    dataset: str
    modes: list[str]
    questions: list[Any]
    status: str = "queued"
    done: int = 0
    error: str | None = None
    report: EvalReport | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def view(self) -> EvalJob:
        return EvalJob(id=self.id, dataset=self.dataset, status=self.status, modes=self.modes,  # type: ignore[arg-type]
                       questions=len(self.questions), done=self.done, total=len(self.questions) * len(self.modes),
                       error=self.error, report=self.report)


class EvalJobs:
    """The evaluations run from the page, kept in memory (the reports themselves are files, in the workspace's
    results folder); one runs at a time, the others wait their turn; each is found in its own workspace only."""

    KEEP = 20

    def __init__(self) -> None:
        self.jobs: dict[str, _Job] = {}
        self.lock = asyncio.Lock()

    def start(self, resources: Resources, dataset: str, modes: list[str], questions: list[Any]) -> EvalJob:
        job = _Job(id=uuid.uuid4().hex[:16], workspace=resources.settings.workspace, dataset=dataset, modes=modes,
                   questions=questions)
        for old in [j for j in self.jobs.values() if j.status in ("done", "failed")][: max(0, len(self.jobs) - self.KEEP)]:
            self.jobs.pop(old.id, None)
        self.jobs[job.id] = job
        job.task = asyncio.create_task(self._run(resources, job))
        return job.view()

    def get(self, job_id: str, workspace: str) -> EvalJob | None:
        """The job, if it is one of ``workspace``'s (another workspace's evaluation is not found)."""
        job = self.jobs.get(job_id)
        return job.view() if job is not None and job.workspace == workspace else None

    async def _run(self, resources: Resources, job: _Job) -> None:
        async with self.lock:
            job.status = "running"
            try:
                job.report = await run_job(resources, job)
                job.status = "done"
            except Exception as exc:  # the job says why; the server goes on
                log.warning("evaluation %s failed: %s: %s", job.id, type(exc).__name__, exc)
                job.status, job.error = "failed", f"{type(exc).__name__}: {exc}"


async def run_job(resources: Resources, job: _Job) -> EvalReport:
    """Ask every question in each mode of the server's own index, score it as ``aer eval`` does, and write the
    report into the results folder (where the Evaluation tab reads it)."""
    from app.services.evaluations import read_report
    from app.tools.eval import FULL_TOP_K, index_params, retriever, score_question, summarize_mode
    from app.tools.eval_report import write_outputs

    started = time.perf_counter()
    settings = resources.settings
    summaries: dict[str, Any] = {}
    details: dict[str, list[dict[str, Any]]] = {}
    for mode in job.modes:
        call = retriever(mode, resources)
        rows = []
        mode_started = time.perf_counter()
        for q in job.questions:
            with counted_outages(resources.metrics):
                rows.append(score_question(q, await call(q.question, q.id), settings.llm_enabled))
            job.done += 1
        summaries[mode] = summarize_mode(rows, time.perf_counter() - mode_started)
        details[mode] = rows
    documents = await asyncio.to_thread(lambda: len(resources.index.document_ids()))
    notes = ["run from the page against the server's indexed documents"]
    if not settings.llm_enabled:
        notes.append("EM/F1 not computed: no LLM configured (the extractive answer is not a short span)")
    report = {
        "dataset": job.dataset,
        "created": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
        "config": {"modes": job.modes, "limit": None, "types": [], "full_top_k": FULL_TOP_K,
                   "llm": resources.context.llm_name, "answers_scored": settings.llm_enabled,
                   **index_params(settings), "embedder": resources.embedding_name},
        "corpus": {"documents": documents, "chunks": "indexed", "fingerprint": None, "index_dir": "the server's index",
                   "reused": True, "ingest_s": None},
        "questions": {"total": len(job.questions), "evaluated": len(job.questions),
                      "skipped": {"no_gold_ids": 0, "empty_question": 0}},
        "modes": summaries,
        "notes": notes,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    folder = settings.eval_results_dir
    await asyncio.to_thread(write_outputs, report, details, folder)
    return await asyncio.to_thread(read_report, job.dataset, folder / f"eval-{job.dataset}.json")


def parse_modes(value: str | None) -> list[str]:
    """The modes asked for (comma-separated; default the full graph); WorkbenchError for an unknown one."""
    modes = list(dict.fromkeys(m.strip() for m in (value or "full").split(",") if m.strip())) or ["full"]
    if unknown := [m for m in modes if m not in PAGE_MODES]:
        raise WorkbenchError("invalid", "unknown_mode", f"unknown mode(s) {', '.join(unknown)}: choose from "
                             f"{', '.join(PAGE_MODES)}", {"modes": list(PAGE_MODES)})
    return modes
