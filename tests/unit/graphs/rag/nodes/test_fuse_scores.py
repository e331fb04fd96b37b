"""fuse_scores: the worked example of cross-layer fusion and the request's weights."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from graphs.domain import FusionWeights, Hit
from graphs.kg.base import doc_node
from graphs.rag.nodes import fuse_scores
from graphs.stores.filters import Filter
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime
from tests.support.graph_route import node, parsed


def _chunk(doc: str, dense: float, bm25: float) -> tuple[Hit, Hit]:
    return (hit(f"{doc}#0", f"text of {doc}", dense, "structured", title=doc, dense_score=dense),
            hit(f"{doc}#0", f"text of {doc}", bm25, "bm25", title=doc, dense_score=None, bm25_score=bm25))


async def test_fusion_worked_example_a_c_b(tmp_path: Path) -> None:
    """Seeds a and b, c one hop from a: 0.5·vector + 0.2·bm25 + 0.3·graph gives a 0.75, c 0.55, b 0.50, so a
    relevant neighbour outranks a weak seed; a chunk both channels return counts once."""
    chunks = {"a": _chunk("a", 0.8, 0.25), "b": _chunk("b", 0.3, 0.25), "c": _chunk("c", 0.75, 0.5)}

    def respond(channel: str, expr: str | None) -> list[Hit]:
        picked = [d for d in chunks if f"'{d}'" in (expr or "") or f'"{d}"' in (expr or "")]
        return [chunks[d][1 if channel == "bm25" else 0] for d in picked]

    ctx = make_context(tmp_path, ScriptedIndex(respond=respond))
    nodes = {n.node: n for n in (node("a", vector=0.8, fts=0.25), node("b", vector=0.3, fts=0.25),
                                 node("c", hop=1, vector=0.75, fts=0.5, via=doc_node("a"), edge="title_link"))}
    state: Any = {"question": "q", "graph_nodes": nodes, "query_vector": [0.0] * 16, "bm25_scale": 1.0,
                  "use_evidence_selection": False, "top_k": 5, "parsed": parsed("q", [])}
    out = await fuse_scores.fuse_scores(state, runtime(ctx))
    assert [(h.doc_id, round(h.score, 4)) for h in out["hits"]] == [("a", 0.75), ("c", 0.55), ("b", 0.5)]
    c = out["hits"][1]
    assert (c.hop, c.graph_score, c.dense_score, c.bm25_score, c.channel) == (1, 0.25, 0.75, 0.5, "graph")
    assert "0.5×vector 0.750 + 0.2×fts 0.500 + 0.3×graph 0.250 = 0.550" in (c.relevance_explanation or "")
    assert len({h.id for h in out["hits"]}) == len(out["hits"])


async def test_fusion_weights_come_from_the_request(tmp_path: Path) -> None:
    chunks = {"a": _chunk("a", 0.8, 0.25)}
    ctx = make_context(tmp_path, ScriptedIndex(respond=lambda ch, expr: [chunks["a"][1 if ch == "bm25" else 0]]))
    w = FusionWeights(vector=0.0, fts=1.0, graph=0.0)
    state: Any = {"question": "q", "graph_nodes": {doc_node("a"): node("a")}, "query_vector": [0.0] * 16,
                  "bm25_scale": 1.0, "use_evidence_selection": False, "fusion_weights": w, "parsed": parsed("q", [])}
    out = await fuse_scores.fuse_scores(state, runtime(ctx))
    assert out["hits"][0].score == pytest.approx(0.25)
    # a run started over the LangGraph API carries the weights as plain JSON
    as_json = await fuse_scores.fuse_scores({**state, "fusion_weights": w.model_dump()}, runtime(ctx))
    assert as_json["hits"][0].score == pytest.approx(0.25)


async def test_fuse_scores_reads_the_question_s_lexical_text_from_the_state(tmp_path: Path) -> None:
    """The words BM25 reads (the question's, then the other language's: they read the entity store's gazetteer)
    are computed once a question, by the seed search, and carried in the state: fuse_scores computes them again
    only for a state without them."""
    asked: list[str] = []

    class Recording(ScriptedIndex):
        def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]:
            asked.append(text)
            return super().search_bm25(text, filter=filter, limit=limit, raw=raw)

    chunks = {"a": _chunk("a", 0.8, 0.25)}
    base = make_context(tmp_path, Recording(respond=lambda ch, expr: [chunks["a"][1 if ch == "bm25" else 0]]))
    reads: list[int] = []

    def gazetteer() -> Any:
        reads.append(1)
        return base.gazetteer()

    ctx = dataclasses.replace(base, gazetteer=gazetteer)  # type: ignore[arg-type]
    state: Any = {"question": "How many staff does Qinglan have?", "graph_nodes": {doc_node("a"): node("a")},
                  "query_vector": [0.0] * 16, "bm25_scale": 1.0, "use_evidence_selection": False,
                  "parsed": parsed("How many staff does Qinglan have?", [])}
    carried = await fuse_scores.fuse_scores({**state, "lexical_text": "carried words"}, runtime(ctx))
    assert asked == ["carried words"] and reads == []
    again = await fuse_scores.fuse_scores(state, runtime(ctx))
    assert reads == [1] and asked[1].startswith("How many staff does Qinglan have?")
    assert [h.id for h in carried["hits"]] == [h.id for h in again["hits"]]
