"""The seed's action endpoint (``/api/adaptive-entity-rag``): its 200 bodies by action and one request example
per action for the OpenAPI document."""

from __future__ import annotations

from typing import Any, Literal, get_args

from app.schemas.documents import (
    AddDocumentsRequest,
    AddDocumentsResponse,
    DeleteDocumentRequest,
    DeleteDocumentResponse,
    DocumentListResponse,
    DocumentResponse,
)
from app.schemas.entities import (
    AddEntityRequest,
    AddEntityResponse,
    DeleteEntityRequest,
    DeleteEntityResponse,
    EntityListResponse,
    RemoveAliasRequest,
)
from app.schemas.jobs import CancelJobRequest, JobListResponse, JobResponse
from app.schemas.query import QueryRequest, QueryResponse

ACTION_REQUESTS = (QueryRequest, AddEntityRequest, AddDocumentsRequest, DeleteDocumentRequest, RemoveAliasRequest,
                   DeleteEntityRequest, CancelJobRequest)
"""The request bodies of ``POST /api/adaptive-entity-rag``, one per action (the route's union is made of them)."""
ACTIONS: tuple[str, ...] = tuple(get_args(m.model_fields["action"].annotation)[0] for m in ACTION_REQUESTS)
"""The POST actions' names (what an unknown action's error lists)."""

ReadAction = Literal["entities", "documents", "document", "job", "jobs"]
"""The reads of ``GET /api/adaptive-entity-rag?action=``."""
READ_ACTIONS: tuple[str, ...] = get_args(ReadAction)

# Every action of the endpoint, POST and GET, has its MCP tool (app/mcp_server.py builds exactly these) or the
# reason it has none; tests/api/test_mcp_tools.py walks ACTIONS and READ_ACTIONS against both.
MCP_TOOLS: dict[str, str] = {
    "query": "query", "add-entity": "add_entity", "remove-alias": "remove_alias", "delete-entity": "delete_entity",
    "add-documents": "add_documents", "delete-document": "delete_document",
    "entities": "list_entities", "documents": "list_documents",
}
"""Action -> the MCP tool that runs it."""
NO_MCP_TOOL: dict[str, str] = {
    "document": "a tool's answer cites the passages it used (query's citations carry their text); a whole "
                "document with its chunks is read over the REST API",
    "job": "add_documents indexes before it answers (no background job to poll)",
    "jobs": "add_documents indexes before it answers (no background job to list)",
    "cancel-job": "add_documents indexes before it answers (no background job to cancel)",
}
"""Action -> why MCP has no tool for it."""

ReadResponse = EntityListResponse | DocumentListResponse | DocumentResponse | JobResponse | JobListResponse
"""The answers of ``GET ?action=entities|documents|document|job|jobs``."""

ActionResponse = (QueryResponse | AddEntityResponse | AddDocumentsResponse | DeleteDocumentResponse | DeleteEntityResponse
                  | JobResponse)
"""The answers of the POST actions (remove-alias answers like add-entity, cancel-job with the job)."""
"""The 200 body of ``POST /api/adaptive-entity-rag``, by action."""


# One example per action for the OpenAPI document (Swagger UI's "Try it out" starts from the first); each
# succeeds on the demo corpus (`aer demo`), in this order (tests/api/test_openapi_examples.py posts them).
REQUEST_EXAMPLES: dict[str, dict[str, Any]] = {
    "query": {
        "summary": "Ask a question",
        "value": {"action": "query", "question": "马斯克创办的公司有哪些？", "topK": 3},
    },
    "query-options": {
        "summary": "Ask with options: hybrid search, no reranking",
        "value": {"action": "query", "question": "什么是机器学习？", "topK": 5, "searchMode": "hybrid",
                  "enableReranking": False, "team": "auto"},
    },
    "query-stream": {
        "summary": "Ask and stream the steps as server-sent events",
        "value": {"action": "query", "question": "2024年苹果在北京发布的产品", "stream": True},
    },
    "add-entity": {
        "summary": "Add an entity with aliases (an alias owned by another entity is a 409)",
        "value": {"action": "add-entity", "standardName": "Jensen Huang", "type": "PERSON",
                  "aliases": ["黄仁勋", "老黄"], "relatedEntities": ["NVIDIA"]},
    },
    "add-documents": {
        "summary": "Add (or replace) documents",
        "value": {"action": "add-documents", "documents": [{
            "id": "su7-launch", "title": "小米SU7发布", "text": "2024年3月28日，雷军在北京发布了小米首款电动汽车SU7。",
            "metadata": {"date": "2024-03-28", "entities": {"PERSON": ["雷军"], "LOCATION": ["北京"]}}}]},
    },
    "remove-alias": {
        "summary": "Remove an alias from an entity (the chunks that named it only by that alias lose the tag)",
        "value": {"action": "remove-alias", "standardName": "Jensen Huang", "aliases": ["老黄"]},
    },
    "delete-document": {
        "summary": "Delete a document (this one exists once the add-documents example ran; else 404)",
        "value": {"action": "delete-document", "id": "su7-launch"},
    },
    "delete-entity": {
        "summary": "Delete an entity and its aliases (the chunks lose its tag; the documents stay)",
        "value": {"action": "delete-entity", "standardName": "Jensen Huang"},
    },
}
