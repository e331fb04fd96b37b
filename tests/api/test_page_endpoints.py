"""What the web page reads: the page and its static files (offline, strict CSP), GET info, graph, evaluations (and
their charts) and the entity search; each under the same API-key guard as the rest of the API."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.routes.web import WEB_DIR
from app.tools.eval_report import write_outputs
from graphs.rag.graph import workflow
from graphs.rag.registry import llm_nodes, registry
from tests.support.apps import URL, running_app

ENTITIES = [
    {"standardName": "Elon Musk", "type": "PERSON", "aliases": ["马斯克", "老马", "Musk"]},
    {"standardName": "马云", "type": "PERSON", "aliases": ["Jack Ma"]},
    {"standardName": "Apple", "type": "ORGANIZATION", "aliases": ["苹果", "苹果公司"]},
    {"standardName": "Apple Watch", "type": "PRODUCT", "aliases": ["苹果手表"]},
    {"standardName": "iPhone", "type": "PRODUCT", "aliases": ["苹果手机"]},
]


def eval_report(dataset: str) -> dict[str, Any]:
    """A report as `aer eval` writes it (the shape app.tools.eval.run_eval returns)."""
    mode = {"recall@2": 0.5, "recall@5": 1.0, "mrr@10": 0.75, "em": None, "f1": None,
            "latency_ms": {"p50": 12.0, "p95": 30.0}, "llm_calls_per_question": 0.0, "wall_s": 0.4,
            "by_type": {"bridge": {"questions": 2, "recall@2": 0.5, "recall@5": 1.0}}}
    return {
        "dataset": dataset, "created": "2026-01-02T03:04:05+00:00", "wall_s": 1.5,
        "config": {"embedder": "e", "chunk_size": 800, "chunk_overlap": 100, "llm": None, "full_top_k": 5},
        "corpus": {"documents": 4, "chunks": 4, "reused": True, "ingest_s": None},
        "questions": {"total": 2, "evaluated": 2}, "modes": {"bm25": mode},
        "notes": ["<script>alert(1)</script> is text, not markup"],
    }


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    root = Path(tmp_path_factory.mktemp("page"))
    with running_app(root / "data", eval_results_dir=root / "eval-results") as c:
        for entity in ENTITIES:
            assert c.post(URL, json={"action": "add-entity", **entity}).status_code == 200
        yield c


# -- the page -------------------------------------------------------------------------------------------------


def test_the_page_is_served_at_the_root_with_a_strict_policy(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert '<main id="main">' in r.text
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert client.head("/").status_code == 200
    for asset in ("static/js/app.js", "static/css/app.css", "static/vendor/dagre.min.js", "static/favicon.svg"):
        assert f'"{asset}"' in r.text, asset
        got = client.get(f"/{asset}")
        assert got.status_code == 200, asset
    assert "javascript" in client.get("/static/js/app.js").headers["content-type"]
    missing = client.get("/static/js/nope.js")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert client.get("/openapi.json").json()["paths"].get("/") is None  # the page is not part of the API


def test_the_page_loads_nothing_from_outside_the_server() -> None:
    """No CDN, no external font or script: every src/href/url()/import in the page's own files is relative."""
    own = [p for p in WEB_DIR.rglob("*") if p.suffix in {".html", ".js", ".css"} and "vendor" not in p.parts]
    assert len(own) >= 8
    external = re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//|url\(\s*["']?(?:https?:)?//|import[^;]*["']https?:""")
    for path in own:
        assert not external.search(path.read_text(encoding="utf-8")), path
    # The vendored library is listed with its licence.
    notes = (WEB_DIR / "THIRD_PARTY.md").read_text(encoding="utf-8")
    for vendored in (WEB_DIR / "static" / "vendor").glob("*.js"):
        assert vendored.name in notes
    assert (WEB_DIR / "static" / "vendor" / "dagre.LICENSE.txt").read_text().startswith("Copyright")


# -- info and graph -------------------------------------------------------------------------------------------


def test_info_names_the_choices_and_the_guard(client: TestClient) -> None:
    body = client.get(f"{URL}/info").json()
    assert body["success"] is True and body["llmModels"] == [] and body["reranker"] == "fusion"
    assert body["embeddingModel"] == "fake-embedder"
    assert "PERSON" in body["entityTypes"] and "graph" in body["searchModes"] and "planner_enhanced" in body["teams"]
    assert body["defaults"] == {"topK": 5, "maxRetries": 3, "maxTurns": 5}
    assert body["auth"] == {"apiKeys": False, "readsNeedKey": False}
    # The documents issue's endpoints are not on this server (yet): the page keeps their views off.
    assert body["features"] == {"upload": True, "jobs": True, "documents": True}


def test_info_reports_keys_and_needs_one_when_reads_do(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys="k1", require_key_for_queries=True) as c:
        assert c.get("/").status_code == 200  # the page itself is open: it asks for the key
        assert c.get("/static/js/app.js").status_code == 200
        for path in ("/info", "/graph", "/evaluations"):
            r = c.get(URL + path)
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized", path
        body = c.get(f"{URL}/info", headers={"X-API-Key": "k1"}).json()
        assert body["auth"] == {"apiKeys": True, "readsNeedKey": True}
    with running_app(tmp_path / "closed-by-default", api_keys="k1") as c:
        assert c.get(f"{URL}/info").status_code == 401
    with running_app(tmp_path / "open-reads", api_keys="k1", require_key_for_queries=False) as c:
        assert c.get(f"{URL}/info").json()["auth"] == {"apiKeys": True, "readsNeedKey": False}


def test_the_graph_endpoint_has_every_node_and_edge_of_the_compiled_graph(client: TestClient) -> None:
    body = client.get(f"{URL}/graph").json()
    drawable = workflow.get_graph()
    assert [n["id"] for n in body["nodes"]] == list(drawable.nodes)
    assert {(e["source"], e["target"], e["conditional"]) for e in body["edges"]} == {
        (e.source, e.target, e.conditional) for e in drawable.edges}
    assert ("relax_constraints", "search_structured", False) in {
        (e["source"], e["target"], e["conditional"]) for e in body["edges"]}
    # every node a run reports as a step is drawable
    assert {"parse_query", "route_query", "write_answer", "plan_query", "execute_step"} <= {n["id"] for n in body["nodes"]}


def test_the_graph_endpoint_gives_each_node_its_declared_label_llm_flag_and_purpose(client: TestClient) -> None:
    nodes = {n["id"]: n for n in client.get(f"{URL}/graph").json()["nodes"]}
    assert nodes["parse_query"] == {"id": "parse_query", "label": "parse_query", "usesLlm": True,
                                    "purpose": registry()["parse_query"].spec.purpose}
    assert {n for n, body in nodes.items() if body["usesLlm"]} == llm_nodes()
    assert (nodes["__start__"]["label"], nodes["__end__"]["label"], nodes["__end__"]["usesLlm"]) == (
        "start", "end", False)


# -- evaluations ----------------------------------------------------------------------------------------------


def test_evaluations_list_the_reports_newest_first_with_html_tables_and_charts(client: TestClient) -> None:
    folder: Path = client.app.state.resources.settings.eval_results_dir  # type: ignore[attr-defined]
    assert client.get(f"{URL}/evaluations").json() == {"success": True, "reports": [], "errors": []}
    write_outputs(eval_report("older"), {"bm25": []}, folder)
    write_outputs(eval_report("newer"), {"bm25": []}, folder)
    newer = folder / "eval-newer.json"
    older_time = (folder / "eval-older.json").stat().st_mtime
    os.utime(newer, (older_time + 10, older_time + 10))
    (folder / "eval-broken.json").write_text("{not json", encoding="utf-8")
    body = client.get(f"{URL}/evaluations").json()
    assert [r["dataset"] for r in body["reports"]] == ["newer", "older"]
    assert len(body["errors"]) == 1 and body["errors"][0].startswith("eval-broken.json: JSONDecodeError")
    report = body["reports"][0]
    assert report["chart"] is True and report["created"] == "2026-01-02T03:04:05+00:00"
    assert report["report"]["modes"]["bm25"]["recall@5"] == 1.0
    assert "<table>" in report["html"] and "<td>bm25</td>" in report["html"]
    # raw HTML in a report is escaped, never passed through
    assert "<script>" not in report["html"] and "&lt;script&gt;" in report["html"]
    chart = client.get(f"{URL}/evaluations/newer/chart")
    assert chart.status_code == 200 and chart.headers["content-type"] == "image/png" and chart.content[:4] == b"\x89PNG"


@pytest.mark.parametrize("name", ["missing", "..", "../eval-results/eval-newer", "eval-newer", "newer.png"])
def test_a_chart_is_served_only_for_a_report_in_the_folder(client: TestClient, name: str) -> None:
    r = client.get(f"{URL}/evaluations/{name}/chart")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_report_without_its_markdown_is_rendered_from_the_json(tmp_path: Path) -> None:
    with running_app(tmp_path / "data", eval_results_dir=tmp_path / "out") as c:
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "eval-json-only.json").write_text(json.dumps(eval_report("json-only")), encoding="utf-8")
        [report] = c.get(f"{URL}/evaluations").json()["reports"]
        assert report["markdown"].startswith("## Eval: json-only") and report["chart"] is False
        assert c.get(f"{URL}/evaluations/json-only/chart").status_code == 404


# -- entity search --------------------------------------------------------------------------------------------


def names(client: TestClient, **params: Any) -> tuple[int, list[str]]:
    r = client.get(URL, params={"action": "entities", **params})
    assert r.status_code == 200, r.text
    body = r.json()
    return body["total"], [e["standardName"] for e in body["entities"]]


def test_entity_search_finds_names_and_aliases_best_first(client: TestClient) -> None:
    assert names(client, q="苹果") == (3, ["Apple", "Apple Watch", "iPhone"])  # alias itself, then longer aliases
    assert names(client, q="apple") == (2, ["Apple", "Apple Watch"])  # the name itself, then a name starting with it
    assert names(client, q="马") == (2, ["马云", "Elon Musk"])  # in a name before in an alias
    assert names(client, q="苹果", type="PRODUCT") == (2, ["Apple Watch", "iPhone"])
    assert names(client, q="masike") == (1, ["Elon Musk"])  # no name contains it: the pinyin match
    assert names(client, q="Iphnoe") == (1, ["iPhone"])  # the fuzzy match
    assert names(client, q="nothing like it") == (0, [])
    assert names(client, q="苹果", offset=1, limit=1) == (3, ["Apple Watch"])
    assert names(client, q="  ") == (5, sorted(e["standardName"] for e in ENTITIES))  # blank: the plain list


def test_entity_search_rejects_bad_input_in_the_error_shape(client: TestClient) -> None:
    r = client.get(URL, params={"action": "entities", "q": "x" * 257})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = client.get(URL, params={"action": "entities", "q": "a", "type": "ANIMAL"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_entity_type"
