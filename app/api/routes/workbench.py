"""The page's workbench: an entity's knowledge-graph neighbourhood (``GET …/kg/neighbourhood``), the standalone
question of a conversation (``POST …/conversation/resolve``: the follow-up logic of ``/v1/chat/completions``),
and evaluations run over the indexed documents (``POST …/evaluation-jobs`` with a ``questions.jsonl``, then
``GET …/evaluation-jobs/{id}``). The logic lives in ``app/services/workbench.py``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import JSONResponse

from app.api.deps import ResourcesDep
from app.api.errors import ApiError
from app.schemas import API_PATH, EvalJob, KgNeighbourhood, ResolveRequest, ResolveResponse
from app.services import workbench
from graphs.domain import NO_CONTROL_CHARS

read_router = APIRouter(prefix=API_PATH, tags=["workbench"])
"""Reads (a key only where reads need one)."""
corpus_router = APIRouter(prefix=API_PATH, tags=["workbench"])
"""Reads that return documents' text (the passages behind the knowledge graph's edges): a key whenever keys
exist, as for ``?action=document``."""
router = APIRouter(prefix=API_PATH, tags=["workbench"])
"""An evaluation run is a write (it writes a report); following it is a read."""


def _jobs(request: Request) -> workbench.EvalJobs:
    jobs = getattr(request.app.state, "eval_jobs", None)
    if jobs is None:
        jobs = request.app.state.eval_jobs = workbench.EvalJobs()
    return jobs


@corpus_router.get("/kg/neighbourhood", responses={404: {"description": "entity_not_found, node_not_found"},
                                                  503: {"description": "knowledge_graph_unavailable"}})
async def kg_neighbourhood(
    request: Request,
    resources: ResourcesDep,
    entity: Annotated[str | None, Query(max_length=256, pattern=NO_CONTROL_CHARS,
                                        description="An entity's name or alias.", examples=["马斯克"])] = None,
    node: Annotated[str | None, Query(max_length=300, pattern=NO_CONTROL_CHARS,
                                      description="Or a node id (doc:<id>, entity:<name>).")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 30,
) -> KgNeighbourhood:
    """The knowledge graph one hop around an entity (or a node): its neighbours (documents and entities), the
    edges, and for each edge the documents behind it with the passage that names its ends."""
    request.state.action = "kg"
    if not (entity and entity.strip()) and not (node and node.strip()):
        raise ApiError(422, "invalid_request", "entity or node is required",
                       [{"loc": ["query", "entity"], "msg": "Field required", "type": "missing"}])
    return await workbench.kg_neighbourhood(resources, (entity or "").strip() or None,
                                            (node or "").strip() or None, limit)


@read_router.post("/conversation/resolve")
async def resolve(request: Request, resources: ResourcesDep, body: ResolveRequest) -> ResolveResponse:
    """The question to ask for a conversation: the last user message, made standalone when it follows others
    (an LLM condenses it; without one the earlier questions' entities are carried), exactly as
    ``/v1/chat/completions`` does. The page then asks that question."""
    request.state.action = "resolve"
    return await workbench.resolve(resources, body)


@router.post("/evaluation-jobs", status_code=202,
             responses={202: {"description": "The evaluation is queued: follow it with GET …/evaluation-jobs/{id}"},
                        413: {"description": "too_many_questions, file_too_large"},
                        422: {"description": "invalid_questions_file, no_questions, unknown_mode"}})
async def start_evaluation(
    request: Request,
    resources: ResourcesDep,
    file: Annotated[UploadFile, File(description="questions.jsonl in the `aer eval` format: one "
                                     '{"id", "question", "answers", "gold_ids", "type"} per line.')],
    modes: Annotated[str | None, Form(description="Comma-separated: bm25, dense, hybrid, full (default full).",
                                      max_length=100)] = None,
) -> JSONResponse:
    """Ask the file's questions of the indexed documents in the background and score them as ``aer eval`` does
    (Recall@2/5, MRR; answers contained); the report lands in the results folder as eval-page-<file>.json."""
    request.state.action = "evaluate"
    settings = resources.settings
    if file.size is not None and file.size > settings.eval_max_file_bytes:
        raise ApiError(413, "file_too_large", f"the questions file is over {settings.eval_max_file_bytes} bytes",
                       {"maxFileBytes": settings.eval_max_file_bytes, "bytes": file.size})
    chosen = workbench.parse_modes(modes)
    questions = workbench.questions_of(await file.read(), settings.eval_max_questions)
    job = _jobs(request).start(resources, workbench.dataset_name(file.filename), chosen, questions)
    return JSONResponse(job.model_dump(by_alias=True, mode="json"), status_code=202)


@router.get("/evaluation-jobs/{job_id}", responses={404: {"description": "job_not_found"}})
async def evaluation_job(request: Request, resources: ResourcesDep, job_id: str) -> EvalJob:
    """An evaluation's status and progress (questions asked of the total), and its report once done; an
    evaluation of another workspace is not found here."""
    request.state.action = "evaluation-job"
    job = _jobs(request).get(job_id, resources.settings.workspace)
    if job is None:
        raise ApiError(404, "job_not_found", f"no evaluation job with id {job_id!r}")
    return job
