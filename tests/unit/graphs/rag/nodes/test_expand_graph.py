"""expand_graph: one hop from the frontier, scored against the question; a visited set; its record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphs.domain import Hit
from graphs.kg.base import doc_node
from graphs.rag.nodes.expand_graph import expand_graph, summarize
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime
from tests.support.graph_route import kg, node

DOCS = [("film", "Kiss and Tell", "Kiss and Tell is a 1945 film starring Shirley Temple."),
        ("temple", "Shirley Temple", "Shirley Temple was an actress and later a diplomat.")]


def _index() -> ScriptedIndex:
    def respond(channel: str, expr: str | None) -> list[Hit]:
        if "temple" not in (expr or ""):
            return []
        if channel == "bm25":
            return [hit("temple#0", DOCS[1][2], 1.0, "bm25", title="Shirley Temple", bm25_score=1.0)]
        return [hit("temple#0", DOCS[1][2], 0.7, channel, title="Shirley Temple")]

    return ScriptedIndex(respond=respond)


def _state(**extra: Any) -> dict[str, Any]:
    seed = node("film", vector=0.6, fts=0.5)
    return {"question": "Which position did the star of Kiss and Tell hold?", "graph_nodes": {seed.node: seed},
            "frontier": [seed.node], "depth": 0, "query_vector": [0.1] * 16, "bm25_scale": 2.0, **extra}


async def test_expand_graph_adds_the_neighbour_one_hop_from_its_parent(tmp_path: Path) -> None:
    ctx = make_context(tmp_path, _index(), kg=kg(tmp_path, DOCS))
    state = _state()
    out = await expand_graph(state, runtime(ctx))  # type: ignore[arg-type]
    assert set(out) == {"graph_nodes", "frontier", "depth", "searches"}
    assert out["depth"] == 1 and list(out["graph_nodes"]) == [doc_node("film"), doc_node("temple")]
    temple = out["graph_nodes"][doc_node("temple")]
    assert (temple.hop, temple.seed, temple.via, temple.path[0], temple.path[-1]) == (
        1, False, doc_node("film"), doc_node("film"), doc_node("temple"))
    assert (temple.vector, temple.fts) == (0.7, 0.5)  # BM25 over the breadth search's best (2.0)
    assert out["frontier"] == [doc_node("temple")]
    [record] = out["searches"]
    assert (record.channel, record.filter, record.count) == ("graph", "1 neighbour document(s) of 1 node(s)", 1)
    assert summarize(out) == "hop 1: 1 new document(s): Shirley Temple; next frontier 1"
    assert list(state["graph_nodes"]) == [doc_node("film")]  # the state itself is not changed


async def test_expand_graph_does_not_revisit_a_node(tmp_path: Path) -> None:
    ctx = make_context(tmp_path, _index(), kg=kg(tmp_path, DOCS))
    seen = node("temple", hop=1, seed=False)
    state = _state()
    state["graph_nodes"] = {**state["graph_nodes"], seen.node: seen}
    out = await expand_graph(state, runtime(ctx))  # type: ignore[arg-type]
    assert out["graph_nodes"] == state["graph_nodes"] and out["frontier"] == []
    assert out["searches"][0].count == 0


async def test_expand_graph_raises_an_outage_instead_of_finding_no_neighbour(tmp_path: Path) -> None:
    ctx = make_context(tmp_path, ScriptedIndex(fail=True), kg=kg(tmp_path, DOCS))
    with pytest.raises(StoreUnavailable):
        await expand_graph(_state(), runtime(ctx))  # type: ignore[arg-type]
