"""Optional OpenTelemetry tracing (``AER_TRACING=true``): a span per request and one per graph node.

Off by default; then every call here is a no-op on OpenTelemetry's no-op tracer. On, spans go through a batch
processor to the OTLP/HTTP exporter, which reads the standard variables itself (``OTEL_EXPORTER_OTLP_ENDPOINT``,
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``, ``OTEL_EXPORTER_OTLP_HEADERS``, ``OTEL_SERVICE_NAME``,
``OTEL_RESOURCE_ATTRIBUTES``...). The SDK and the exporter are the ``tracing`` extra.

The node spans are made from what the graph already records, after the run: each node's workflow step gives
the span its start and duration, and the node's update (the graph's ``updates`` stream) its attributes — the
routing decision, the hits, the relaxed constraint, the answer status — so ``graphs/`` imports no tracing.
A request's ``traceparent`` header continues the caller's trace. The provider is this process's own (not
OpenTelemetry's global one), so tests and several apps in one process never share spans.

Workspaces share one provider: each workspace's resources hold ``tracing.for_workspace(name)``, whose spans (the
run's ``rag.query``, a chat's follow-up, an MCP tool call) carry ``aer.workspace``; the request span gets it
from the request once its workspace is known.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

from opentelemetry import propagate, trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode

from graphs.domain import WorkflowStep

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

SERVICE_NAME = "adaptive-entity-rag"
INSTRUMENTATION = "adaptive_entity_rag"
AttributeValue = str | bool | int | float | Sequence[str]
WORKSPACE_ATTRIBUTE = "aer.workspace"


class TracingUnavailable(RuntimeError):
    """``AER_TRACING=true`` without the OpenTelemetry SDK installed."""


def _provider(exporter: SpanExporter, *, batch: bool) -> TracerProvider:
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
    except ImportError as exc:  # pragma: no cover - the dev extra installs it
        raise TracingUnavailable('AER_TRACING needs the OpenTelemetry SDK: pip install -e ".[tracing]"') from exc
    resource = Resource.create()
    if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):  # no OTEL_SERVICE_NAME
        resource = resource.merge(Resource({"service.name": SERVICE_NAME}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(exporter) if batch else SimpleSpanProcessor(exporter))
    return provider


class Tracing:
    """This process's tracer: real with a provider, OpenTelemetry's no-op tracer without one."""

    def __init__(self, provider: TracerProvider | None = None, workspace: str | None = None) -> None:
        self.provider = provider
        self.tracer: trace.Tracer = provider.get_tracer(INSTRUMENTATION) if provider else trace.NoOpTracer()
        self.workspace = workspace
        """Set on every span this view starts as ``aer.workspace`` (None: the process's own spans)."""

    def for_workspace(self, name: str | None) -> Tracing:
        """The same tracer, its spans marked with the workspace ``name``."""
        view = Tracing.__new__(Tracing)
        view.provider, view.tracer, view.workspace = self.provider, self.tracer, name
        return view

    @classmethod
    def from_settings(cls, enabled: bool) -> Tracing:
        """Off, or spans to the OTLP/HTTP exporter configured by the ``OTEL_*`` variables."""
        if not enabled:
            return cls()
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        except ImportError as exc:
            raise TracingUnavailable('AER_TRACING needs the OTLP exporter: pip install -e ".[tracing]"') from exc
        return cls(_provider(OTLPSpanExporter(), batch=True))

    @classmethod
    def to_exporter(cls, exporter: SpanExporter) -> Tracing:
        """Spans handed to ``exporter`` as each ends (the SDK's in-memory exporter in tests, or the console)."""
        return cls(_provider(exporter, batch=False))

    @property
    def enabled(self) -> bool:
        """Whether spans are recorded."""
        return self.provider is not None

    @contextmanager
    def span(self, name: str, attributes: Mapping[str, AttributeValue] | None = None, *,
             kind: SpanKind = SpanKind.INTERNAL, current: bool = True,
             carrier: Mapping[str, str] | None = None) -> Iterator[Span]:
        """A span around the block; an exception marks it failed. ``current=False`` keeps it out of the context
        (in an async generator, whose resumption may run in another context); ``carrier`` (request headers)
        continues a caller's trace."""
        parent = propagate.extract(carrier) if carrier is not None else None
        if self.workspace is not None:
            attributes = {**(attributes or {}), WORKSPACE_ATTRIBUTE: self.workspace}
        if current:
            with self.tracer.start_as_current_span(name, context=parent, kind=kind, attributes=attributes) as span:
                yield span
            return
        span = self.tracer.start_span(name, context=parent, kind=kind, attributes=attributes)
        try:
            yield span
        except BaseException as exc:
            span.record_exception(exc)
            span.set_status(Status(StatusCode.ERROR, type(exc).__name__))
            raise
        finally:
            span.end()

    def record_run(self, span: Span, out: Mapping[str, Any],
                   updates: Sequence[tuple[str, Mapping[str, Any]]] | None) -> None:
        """Describe a finished graph run on its span and add a child span per node run.

        ``updates``: each node's update in order (the graph's ``updates`` stream); without them (a run on a
        LangGraph server) the spans come from the output's workflow steps alone.
        """
        if not self.enabled:
            return
        span.set_attributes(run_attributes(out))
        parent = trace.set_span_in_context(span)
        node_runs = updates if updates is not None else [(s.node, {"steps": [s]}) for s in out.get("steps", [])]
        for node, update in node_runs:
            for step in update.get("steps", []):
                start = _ns(step.started)
                child = self.tracer.start_span(step.node or node, context=parent, start_time=start,
                                               attributes=node_attributes(step, update))
                child.end(end_time=start + int(step.duration_ms * 1_000_000))

    def shutdown(self) -> None:
        """Export what is buffered and stop (a workspace's view leaves it to the process's own)."""
        if self.provider is not None and self.workspace is None:
            self.provider.shutdown()


def _ns(started: str) -> int:
    return int(datetime.fromisoformat(started).timestamp() * 1_000_000_000)


def run_attributes(out: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """A graph run's outcome as span attributes: route, status, counts, LLM use and degradations."""
    attrs: dict[str, AttributeValue] = {
        "aer.route": [d.action for d in out.get("decisions", [])],
        "aer.status": str(out.get("status", "")),
        "aer.answer_mode": str(out.get("answer_mode", "")),
        "aer.results": len(out.get("ranked", [])),
        "aer.citations": len(out.get("citations", [])),
        "aer.relaxations": len(out.get("relaxed", [])),
        "aer.llm_calls": int(out.get("llm_calls", 0)),
        "aer.degraded": list(out.get("degraded", [])),
    }
    if team := out.get("team_config"):
        attrs["aer.team"] = team.name
    return attrs


def node_attributes(step: WorkflowStep, update: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """One node run as span attributes: its summary and what its update decided and counted."""
    attrs: dict[str, AttributeValue] = {"aer.node": step.node, "aer.summary": step.summary,
                                        "aer.duration_ms": step.duration_ms}
    if decisions := update.get("decisions"):
        attrs["aer.decision"] = decisions[-1].action
        attrs["aer.decision.reason"] = decisions[-1].reason
    if team := update.get("team_config"):
        attrs["aer.decision"] = team.name
    if expansion := update.get("expansion"):
        attrs["aer.decision"] = expansion[-1].decision
    if sufficiency := update.get("sufficiency"):
        attrs["aer.decision"] = sufficiency[-1].level
    if plan := update.get("plan"):
        attrs["aer.decision"] = plan.pattern
        attrs["aer.sub_questions"] = len(plan.sub_questions)
    if "hits" in update and isinstance(update["hits"], list):
        attrs["aer.hits"] = len(update["hits"])
    if searches := update.get("searches"):
        attrs["aer.search.channel"] = searches[-1].channel
        attrs["aer.search.results"] = sum(s.count for s in searches)
        if searches[-1].filter:
            attrs["aer.search.filter"] = searches[-1].filter
    if relaxed := update.get("relaxed"):
        attrs["aer.relaxed"] = [f"{r.action} {r.type}={r.value}" for r in relaxed]
    if "ranked" in update:
        attrs["aer.ranked"] = len(update["ranked"])
        attrs["aer.reranker"] = str(update.get("reranker", ""))
    if "entities" in update:
        attrs["aer.entities"] = len(update["entities"])
        attrs["aer.entities.valid"] = sum(1 for e in update["entities"] if e.valid)
    if parsed := update.get("parsed"):
        attrs["aer.intent"] = parsed.intent
        attrs["aer.complexity"] = parsed.complexity
        attrs["aer.parser"] = parsed.parser
    if outcomes := update.get("outcomes"):
        attrs["aer.step.status"] = [o.status for o in outcomes]
    if "status" in update:
        attrs["aer.status"] = str(update["status"])
        attrs["aer.answer_mode"] = str(update.get("answer_mode", ""))
        attrs["aer.citations"] = len(update.get("citations", []))
    if "answer_check" in update:
        attrs["aer.answer_check"] = str(update["answer_check"])
    if calls := update.get("llm_calls"):
        attrs["aer.llm_calls"] = int(calls)
    if degraded := update.get("degraded"):
        attrs["aer.degraded"] = list(degraded)
    return attrs
