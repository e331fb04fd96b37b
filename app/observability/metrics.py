"""Prometheus metrics of one process (``GET /metrics``), derived from what the service already records.

The graph's own output is the source of the query metrics: every node's workflow step (its latency), the routing
decisions, the relaxed constraints, the answer status, the LLM calls and the ``degraded`` list. So ``graphs/``
knows nothing of Prometheus, and a run counts the same whether it was answered as JSON, streamed, asked through
the OpenAI-compatible route or an MCP tool. Each ``Metrics`` owns its registry (an app, a test, a CLI process),
so two apps in one process never mix their counts.

Label values are bounded sets (node names, route actions, entity types, HTTP actions and statuses, store names),
never questions, ids or keys.

Workspaces share one ``Metrics`` (one registry, one ``/metrics``): each workspace's resources hold a view of it,
``metrics.for_workspace(name)``, whose request, query and ingest counts carry a ``workspace`` label. The label is
bounded like every other: the first ``MAX_WORKSPACE_LABELS`` (50) names seen keep their own value, any later one
counts as ``other``; a request that reached no workspace (a probe, a scrape, a refused name) has an empty
``workspace``, so a caller inventing names can neither grow the series nor take a slot.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from graphs.domain import Relaxation, RoutingDecision, WorkflowStep
from graphs.embeddings import EmbedderUnavailable
from graphs.rag.registry import llm_nodes
from graphs.stores.base import StoreUnavailable

CONTENT_TYPE = CONTENT_TYPE_LATEST
# Besides the graph's LLM nodes (their declarations: ``graphs.rag.registry``), the chat's follow-up condensing
# calls the LLM and reports its failure as the ``degraded`` entry ``condense_question``.
CONDENSE = "condense_question"
# Node latencies run from under a millisecond (routing) to a minute (a local LLM writing).
NODE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)
MAX_WORKSPACE_LABELS = 50
OTHER_WORKSPACES = "other"
NO_WORKSPACE = ""  # a request that reached no workspace (no workspace name is empty)
UNKNOWN_TOOL = "unknown"  # the tool label of a call naming no tool the server has (callers' names are unbounded)


class WorkspaceLabels:
    """The ``workspace`` label's values: the first ``limit`` names seen keep theirs, later ones are ``other``."""

    def __init__(self, limit: int = MAX_WORKSPACE_LABELS) -> None:
        self.limit = limit
        self._seen: set[str] = set()
        self._lock = threading.Lock()

    def __call__(self, name: str | None) -> str:
        if not name:
            return NO_WORKSPACE
        with self._lock:
            if name in self._seen:
                return name
            if len(self._seen) < self.limit:
                self._seen.add(name)
                return name
        return OTHER_WORKSPACES


class Metrics:
    """The service's counters and histograms in their own registry; ``for_workspace`` gives a workspace's view."""

    def __init__(self, max_workspaces: int = MAX_WORKSPACE_LABELS) -> None:
        # no ``<name>_created`` series beside every counter and histogram (prometheus_client's default): they
        # doubled the scrape (894 lines after a short session) and no dashboard reads them. The switch is the
        # library's, process-wide, and this process's only registries are these.
        disable_created_metrics()
        self.registry = CollectorRegistry(auto_describe=True)
        self.workspace_label = WorkspaceLabels(max_workspaces)
        self.workspace = NO_WORKSPACE
        """The label value this view counts its queries and ingests under (see ``for_workspace``)."""
        r = self.registry
        self.requests = Counter("aer_requests", "HTTP requests by action, status and workspace.",
                                ["action", "status", "workspace"], registry=r)
        self.request_seconds = Histogram("aer_request_duration_seconds", "HTTP request latency (a streamed "
                                         "response until its last byte), by action, status and workspace.",
                                         ["action", "status", "workspace"], buckets=REQUEST_BUCKETS, registry=r)
        self.queries = Counter("aer_queries", "Graph runs (answered questions) by answer status, mode and "
                               "workspace.", ["status", "answer_mode", "workspace"], registry=r)
        self.not_found = Counter("aer_not_found_answers", "Answers that found nothing relevant (status "
                                 "no_results), by workspace.", ["workspace"], registry=r)
        self.node_seconds = Histogram("aer_node_duration_seconds", "Latency of each graph node (one observation "
                                      "per node run).", ["node"], buckets=NODE_BUCKETS, registry=r)
        self.route_decisions = Counter("aer_route_decisions", "Routing decisions by action.", ["action"], registry=r)
        self.relaxations = Counter("aer_relaxations", "Relaxed search constraints by entity type and kind "
                                   "(dropped or widened).", ["type", "kind"], registry=r)
        self.llm_calls = Counter("aer_llm_calls", "LLM calls made by graph nodes and follow-up condensing.",
                                 registry=r)
        self.llm_failures = Counter("aer_llm_failures", "Runs in which a node's LLM call failed (it fell back to "
                                    "its rule path), by node.", ["node"], registry=r)
        self.degradations = Counter("aer_degradations", "Runs in which a node degraded (an LLM or reranker "
                                    "failed and a fallback ran), by node.", ["node"], registry=r)
        self.store_errors = Counter("aer_store_errors", "Store or embedder outages that failed a request, by "
                                    "store.", ["store"], registry=r)
        self.ingested_documents = Counter("aer_ingested_documents", "Documents written (added or replaced), by "
                                          "the ingest path (add-documents: a request or its job, upload, mcp) "
                                          "and workspace.", ["action", "workspace"], registry=r)
        self.ingested_chunks = Counter("aer_ingested_chunks", "Chunks written, by the ingest path and workspace.",
                                       ["action", "workspace"], registry=r)
        self.ingest_jobs = Counter("aer_ingest_jobs", "Ingest jobs that reached each state, by workspace.",
                                   ["state", "workspace"], registry=r)
        self.followups = Counter("aer_chat_followups", "OpenAI-compatible chat turns by how the question was "
                                 "formed: standalone, condensed by the LLM, with entities carried over, or "
                                 "restated (the question before asked of the new subject a follow-up names).",
                                 ["mode"], registry=r)
        self.mcp_tools = Counter("aer_mcp_tool_calls", "MCP tool calls by tool and outcome (ok, or error: the "
                                 "service failed or refused it, a refusal before it ran included: bad arguments, "
                                 "an unknown workspace, a key without the role; an unknown tool counts as "
                                 f"{UNKNOWN_TOOL!r}).", ["tool", "outcome"], registry=r)

    def for_workspace(self, name: str | None) -> Metrics:
        """This registry's view for one workspace: the same counters, its queries and ingests labelled with the
        workspace (``other`` past the first 50 names)."""
        view = copy.copy(self)
        view.workspace = self.workspace_label(name)
        return view

    def request(self, action: str, status: int, seconds: float, workspace: str | None = None) -> None:
        """Count one HTTP request and its latency (``workspace``: the one it was served from; None when it
        reached none)."""
        label = self.workspace_label(workspace)
        self.requests.labels(action, str(status), label).inc()
        self.request_seconds.labels(action, str(status), label).observe(seconds)

    def run(self, out: Mapping[str, Any]) -> None:
        """Count one graph run from its output state."""
        self.queries.labels(out.get("status", "answered"), out.get("answer_mode", "none"), self.workspace).inc()
        if out.get("status") == "no_results":
            self.not_found.labels(self.workspace).inc()
        steps: Iterable[WorkflowStep] = out.get("steps", [])
        for step in steps:
            self.node_seconds.labels(step.node).observe(step.duration_ms / 1000)
        decisions: Iterable[RoutingDecision] = out.get("decisions", [])
        for decision in decisions:
            self.route_decisions.labels(decision.action).inc()
        relaxed: Iterable[Relaxation] = out.get("relaxed", [])
        for relaxation in relaxed:
            self.relaxations.labels(relaxation.type, relaxation.action).inc()
        if calls := out.get("llm_calls", 0):
            self.llm_calls.inc(calls)
        for node in out.get("degraded", []):
            self.degradation(node)

    def degradation(self, node: str) -> None:
        """Count a node that degraded (and, for an LLM node, an LLM failure)."""
        self.degradations.labels(node).inc()
        if node == CONDENSE or node in llm_nodes():
            self.llm_failures.labels(node).inc()

    def store_error(self, store: str) -> None:
        """Count an outage of ``store`` (``milvus``, ``sqlite``, ``redis``, ``knowledge graph``, ``embedder``...)."""
        self.store_errors.labels(store).inc()

    def ingested(self, action: str, documents: int, chunks: int) -> None:
        """Count documents and chunks written by an ingest path (``add-documents``, ``upload``, ``mcp``: the
        action that brought them in; a job counts under the action that queued it, as each batch is written)."""
        self.ingested_documents.labels(action, self.workspace).inc(documents)
        self.ingested_chunks.labels(action, self.workspace).inc(chunks)

    def ingest_job(self, state: str) -> None:
        """Count an ingest job entering ``state`` (``queued``, ``running``, ``succeeded``, ``failed``...)."""
        self.ingest_jobs.labels(state, self.workspace).inc()

    def render(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)


@contextmanager
def counted_outages(metrics: Metrics) -> Iterator[None]:
    """Count a store or embedder outage in the metrics (the caller still answers it: 503)."""
    try:
        yield
    except StoreUnavailable as exc:
        metrics.store_error(exc.store)
        raise
    except EmbedderUnavailable:
        metrics.store_error("embedder")
        raise
