"""The API contract, one module per resource: ``base`` (the wire conventions and the constrained strings checked at
the door), ``query``, ``entities``, ``documents``, ``jobs``, ``actions`` (the seed's action endpoint), ``info``,
``graph``, ``kg``, ``conversation``, ``evaluations``, and ``chat`` (the OpenAI-compatible chat). Every model of the
first ones is importable from here (``from app.schemas import QueryRequest``)."""

from app.schemas.actions import REQUEST_EXAMPLES, ActionResponse, ReadAction, ReadResponse
from app.schemas.base import (
    API_PATH,
    CODED_ERRORS,
    MAX_QUESTION_CHARS,
    NAME_MAX_CHARS,
    NAME_RULES,
    UNSAFE_STRING,
    DocumentId,
    EntityAlias,
    EntityName,
    NewDocumentId,
    Question,
    Wire,
    WireRequest,
    check_strings,
    not_blank,
    with_content,
)
from app.schemas.conversation import CarriedName, ConversationTurn, ResolveRequest, ResolveResponse
from app.schemas.documents import (
    AddDocumentsRequest,
    AddDocumentsResponse,
    DeleteDocumentRequest,
    DeleteDocumentResponse,
    DocumentFileOptions,
    DocumentIn,
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
from app.schemas.evaluations import EvalJob, EvalReport, EvalReports
from app.schemas.graph import GraphEdge, GraphNode, GraphStructure
from app.schemas.info import AuthInfo, Features, QueryDefaults, ServiceInfo
from app.schemas.jobs import CancelJobRequest, JobListResponse, JobResponse
from app.schemas.kg import KgEdge, KgNeighbourhood, KgNode, KgPassage
from app.schemas.query import (
    LLMUsage,
    MasterLayer,
    PlanStepResult,
    QueryAnalysis,
    QueryRequest,
    QueryResponse,
    RetrievalDetails,
    RoutingSummary,
    TopResult,
    Workflow,
    numbered_from_one,
    to_response,
)

__all__ = ["API_PATH", "CODED_ERRORS", "MAX_QUESTION_CHARS", "NAME_MAX_CHARS", "NAME_RULES", "REQUEST_EXAMPLES", "UNSAFE_STRING", "ActionResponse", "AddDocumentsRequest", "AddDocumentsResponse", "AddEntityRequest", "AddEntityResponse", "AuthInfo", "CancelJobRequest", "CarriedName", "ConversationTurn", "DeleteDocumentRequest", "DeleteDocumentResponse", "DeleteEntityRequest", "DeleteEntityResponse", "DocumentFileOptions", "DocumentId", "DocumentIn", "DocumentListResponse", "DocumentResponse", "EntityAlias", "EntityListResponse", "EntityName", "EvalJob", "EvalReport", "EvalReports", "Features", "GraphEdge", "GraphNode", "GraphStructure", "JobListResponse", "JobResponse", "KgEdge", "KgNeighbourhood", "KgNode", "KgPassage", "LLMUsage", "MasterLayer", "NewDocumentId", "PlanStepResult", "QueryAnalysis", "QueryDefaults", "QueryRequest", "QueryResponse", "Question", "ReadAction", "ReadResponse", "RemoveAliasRequest", "ResolveRequest", "ResolveResponse", "RetrievalDetails", "RoutingSummary", "ServiceInfo", "TopResult", "Wire", "WireRequest", "Workflow", "check_strings", "not_blank", "numbered_from_one", "to_response", "with_content"]
