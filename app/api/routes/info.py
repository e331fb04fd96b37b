"""``GET /api/adaptive-entity-rag/info``: what a client (the web page) needs to build its forms."""

from __future__ import annotations

from typing import Any, get_args

from fastapi import APIRouter, FastAPI, Request

from app.api.deps import ResourcesDep
from app.api.workspace_scope import principal_of
from app.schemas import API_PATH, AuthInfo, Features, QueryDefaults, QueryRequest, ServiceInfo
from app.services.keys import OPEN
from graphs.domain import ENTITY_TYPES

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])


def _choices(field: str) -> list[str]:
    return list(get_args(QueryRequest.model_fields[field].annotation))


def _default(field: str) -> Any:
    return QueryRequest.model_fields[field].default


def features(app: FastAPI) -> Features:
    """The optional endpoints this app serves, read from its own OpenAPI document."""
    paths = app.openapi().get("paths", {})
    actions: set[str] = set()
    for parameter in paths.get(API_PATH, {}).get("get", {}).get("parameters", []):
        if parameter.get("name") == "action":
            schema = parameter.get("schema", {})
            actions.update(schema.get("enum", []) or ([schema["const"]] if "const" in schema else []))
    return Features(upload=f"{API_PATH}/upload" in paths, jobs="job" in actions,
                    documents={"documents", "document"} <= actions)


@router.get("/info")
async def info(request: Request, resources: ResourcesDep) -> ServiceInfo:
    """The models, reranker, entity types and query choices of this server, and whether it needs API keys."""
    settings = resources.settings
    keyed = principal_of(request) != OPEN  # the guard found keys (AER_API_KEYS or keys.db)
    llm = resources.context.llm_name
    return ServiceInfo(
        version=request.app.version,
        llm_models=[llm] if llm else [],
        embedding_model=resources.embedding_name,
        embedding_note=resources.embedding_note,
        reranker=resources.context.reranker.name,
        entity_types=list(ENTITY_TYPES),
        search_modes=_choices("search_mode"),
        teams=_choices("team"),
        defaults=QueryDefaults(top_k=_default("top_k"), max_retries=_default("max_retries"),
                               max_turns=_default("max_turns")),
        auth=AuthInfo(api_keys=keyed, reads_need_key=keyed and settings.require_key_for_queries),
        features=features(request.app),
    )
