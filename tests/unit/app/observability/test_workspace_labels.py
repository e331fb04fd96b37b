"""The ``workspace`` label of the metrics (bounded: the first 50 names, then ``other``) and ``aer.workspace`` on
the spans of a workspace's tracing view."""

from __future__ import annotations

from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from app.observability.metrics import MAX_WORKSPACE_LABELS, Metrics, WorkspaceLabels
from app.observability.tracing import Tracing


def samples(metrics: Metrics) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(metrics.render().decode()) for s in family.samples}


def test_the_first_fifty_names_keep_their_label_then_other() -> None:
    labels = WorkspaceLabels()
    names = [f"ws{i}" for i in range(MAX_WORKSPACE_LABELS + 7)]
    assert [labels(n) for n in names] == names[:MAX_WORKSPACE_LABELS] + ["other"] * 7
    assert labels("ws3") == "ws3" and labels("ws55") == "other"  # a name keeps the value it got first
    assert labels(None) == labels("") == ""


def test_views_share_one_registry_and_count_under_their_workspace() -> None:
    metrics = Metrics()
    a, b = metrics.for_workspace("a"), metrics.for_workspace("b")
    a.run({"status": "answered", "answer_mode": "extractive"})
    b.run({"status": "no_results", "answer_mode": "none"})
    b.run({"status": "no_results", "answer_mode": "none"})
    a.ingested("upload", 3, 7)
    b.ingest_job("queued")
    metrics.request("query", 200, 0.01, "a")
    metrics.request("health", 200, 0.01, None)
    got = samples(b)  # any view renders the one registry
    assert got[("aer_queries_total", frozenset({("status", "answered"), ("answer_mode", "extractive"),
                                                ("workspace", "a")}))] == 1
    assert got[("aer_queries_total", frozenset({("status", "no_results"), ("answer_mode", "none"),
                                                ("workspace", "b")}))] == 2
    assert got[("aer_not_found_answers_total", frozenset({("workspace", "b")}))] == 2
    assert ("aer_not_found_answers_total", frozenset({("workspace", "a")})) not in got
    assert got[("aer_ingested_documents_total", frozenset({("action", "upload"), ("workspace", "a")}))] == 3
    assert got[("aer_ingested_chunks_total", frozenset({("action", "upload"), ("workspace", "a")}))] == 7
    assert got[("aer_ingest_jobs_total", frozenset({("state", "queued"), ("workspace", "b")}))] == 1
    assert got[("aer_requests_total", frozenset({("action", "query"), ("status", "200"), ("workspace", "a")}))] == 1
    assert got[("aer_requests_total", frozenset({("action", "health"), ("status", "200"), ("workspace", "")}))] == 1


def test_many_workspaces_and_invented_names_never_grow_the_series_past_the_bound() -> None:
    metrics = Metrics(max_workspaces=3)
    for i in range(20):
        metrics.for_workspace(f"w{i}").run({"status": "answered", "answer_mode": "extractive"})
    workspaces = {dict(labels)["workspace"] for (name, labels) in samples(metrics) if name == "aer_queries_total"}
    assert workspaces == {"w0", "w1", "w2", "other"}
    other = ("aer_queries_total", frozenset({("status", "answered"), ("answer_mode", "extractive"),
                                            ("workspace", "other")}))
    assert samples(metrics)[other] == 17


def test_a_workspace_view_marks_its_spans_and_the_process_tracer_does_not() -> None:
    exporter = InMemorySpanExporter()
    tracing = Tracing.to_exporter(exporter)
    with tracing.for_workspace("team-a").span("rag.query", {"aer.run_id": "r1"}):
        pass
    with tracing.for_workspace("team-b").span("mcp.tool query", current=False):
        pass
    with tracing.span("GET /healthz"):
        pass
    spans = {s.name: dict(s.attributes or {}) for s in exporter.get_finished_spans()}
    assert spans["rag.query"] == {"aer.run_id": "r1", "aer.workspace": "team-a"}
    assert spans["mcp.tool query"] == {"aer.workspace": "team-b"}
    assert "aer.workspace" not in spans["GET /healthz"]
    tracing.for_workspace("team-a").shutdown()  # a view leaves the shared provider running
    with tracing.span("after"):
        pass
    assert "after" in {s.name for s in exporter.get_finished_spans()}
    tracing.shutdown()
