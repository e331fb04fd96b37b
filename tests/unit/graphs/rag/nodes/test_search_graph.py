"""search_graph: the graph route's seeds from a global search and the names in the question."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import Hit, SearchRecord
from graphs.kg.base import doc_node
from graphs.rag.nodes.search_graph import search_graph, summarize
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime
from tests.support.graph_route import kg


def _index() -> ScriptedIndex:
    def respond(channel: str, expr: str | None) -> list[Hit]:
        if channel == "bm25":
            return [hit("film#0", "Kiss and Tell is a 1945 film.", 2.0, "bm25", title="Kiss and Tell", bm25_score=2.0)]
        return [hit("film#0", "Kiss and Tell is a 1945 film.", 0.8, channel, title="Kiss and Tell"),
                hit("temple#0", "Shirley Temple was an actress.", 0.6, channel, title="Shirley Temple")]

    return ScriptedIndex(respond=respond)


async def test_search_graph_seeds_the_best_documents_at_depth_zero(tmp_path: Path) -> None:
    g = kg(tmp_path, [("film", "Kiss and Tell", "Kiss and Tell is a 1945 film starring Shirley Temple."),
                      ("temple", "Shirley Temple", "Shirley Temple was an actress and a diplomat.")])
    ctx = make_context(tmp_path, _index(), kg=g, seed_k=2)
    out = await search_graph({"question": "Which government position did the star of Kiss and Tell hold?"},
                             runtime(ctx))
    assert set(out) == {"graph_nodes", "frontier", "depth", "bm25_scale", "query_vector", "lexical_text",
                        "searches", "hits", "breadth", "seed_links"}
    assert out["lexical_text"].startswith("Which government position did the star of Kiss and Tell hold?")
    assert (out["depth"], out["hits"], out["bm25_scale"], out["breadth"]) == (0, [], 2.0, [])
    # the two best documents, and the entity the question names (its title is an entity too)
    assert list(out["graph_nodes"]) == [doc_node("film"), doc_node("temple"), "entity:kiss and tell"]
    film = out["graph_nodes"][doc_node("film")]
    assert (film.hop, film.seed, film.edge, film.fts) == (0, True, "named", 1.0)  # the question names its title
    assert out["searches"] == [SearchRecord(channel="graph", filter=None, count=3,
                                            duration_ms=out["searches"][0].duration_ms)]
    assert doc_node("film") in out["frontier"]
    assert summarize(out) == "2 seed document(s): Kiss and Tell, Shirley Temple; named entities: Kiss and Tell"


async def test_search_graph_without_a_knowledge_graph_is_a_contract_bug(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="needs a knowledge graph"):
        await search_graph({"question": "q"}, runtime(make_context(tmp_path)))


async def test_search_graph_raises_an_outage_instead_of_seeding_nothing(tmp_path: Path) -> None:
    ctx = make_context(tmp_path, ScriptedIndex(fail=True), kg=kg(tmp_path, []))
    with pytest.raises(StoreUnavailable):
        await search_graph({"question": "q"}, runtime(ctx))
