"""rerank_hits: explained scores, one chunk per document unless a weak document's slot goes to a strong one's
next chunk, reranking off, a visible fallback."""

from __future__ import annotations

from typing import Any

from graphs.domain import (
    ParsedQuery,
)
from graphs.rag.nodes.rerank_hits import rerank_hits
from tests.support.fakes import hit, make_context, runtime


async def test_rerank_hits_explains_and_names_the_reranker(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="特斯拉 上海", keywords=["特斯拉", "上海"])
    hits = [hit("a#0", "无关内容", 0.6), hit("b#0", "特斯拉上海超级工厂", 0.5)]
    out = await rerank_hits({"question": "q", "parsed": parsed, "hits": hits, "top_k": 1}, runtime(make_context(tmp_path)))
    assert out["reranker"] == "fusion"
    [best] = out["ranked"]
    assert best.id == "b#0" and best.reranked_score is not None
    assert "lexical" in (best.relevance_explanation or "")


async def test_rerank_keeps_one_chunk_per_document(tmp_path: Any) -> None:
    hits = [hit("a#0", "x"), hit("a#1", "y"), hit("b#0", "z")]
    state = {"question": "q", "parsed": ParsedQuery(original_query="q"), "hits": hits, "enable_reranking": False}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))
    assert [h.id for h in out["ranked"]] == ["a#0", "b#0"]


async def test_rerank_disabled_keeps_search_order(tmp_path: Any) -> None:
    hits = [hit("a#0"), hit("b#0")]
    state = {"question": "q", "parsed": ParsedQuery(original_query="q"), "hits": hits, "enable_reranking": False}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))
    assert out["reranker"] == "none" and [h.id for h in out["ranked"]] == ["a#0", "b#0"]
    assert all(h.reranked_score is None for h in out["ranked"])


async def test_rerank_falls_back_to_fusion_visibly_when_the_reranker_is_down(tmp_path: Any) -> None:
    from dataclasses import replace

    from graphs.rerankers import RerankerUnavailable

    class Down:
        name = "http-rerank:bge"

        async def rerank(self, *args: Any) -> Any:
            raise RerankerUnavailable("http-rerank:bge", "503 from the rerank service")

    ctx = replace(make_context(tmp_path), reranker=Down())
    state = {"question": "q", "parsed": ParsedQuery(original_query="q", keywords=["x"]), "hits": [hit("a#0", "x")]}
    out = await rerank_hits(state, runtime(ctx))
    assert out["degraded"] == ["rerank_hits"] and "fallback" in out["reranker"] and "llm_calls" not in out
    assert out["ranked"][0].reranked_score is not None


# -- a strong document's further chunks take the weak documents' slots ------------------------------------

_REPORT = [  # a long invented annual report: its opening names the subject, a later chunk states the figures
    hit("quarry#0", "Hollin Quarry annual report 2025. Hollin Quarry Ltd cuts limestone near Ebbdale.", 0.9,
        "hybrid", title="Hollin Quarry annual report 2025"),
    hit("quarry#4", "Turnover for the year was 12.7 million pounds; the pit shipped 410,000 tonnes.", 0.6,
        "hybrid", title="Hollin Quarry annual report 2025"),
    hit("quarry#6", "The quarry employs 64 people, eleven of them apprentices.", 0.5, "hybrid",
        title="Hollin Quarry annual report 2025"),
]
_OTHERS = [hit("ferry#0", "A new ferry timetable starts in May.", 0.3, "hybrid", title="Ferry timetable"),
           hit("choir#0", "The choir rehearses on Thursdays.", 0.2, "hybrid", title="Choir notes")]


async def test_a_weak_document_s_slot_goes_to_the_strong_document_s_next_chunk(tmp_path: Any) -> None:
    """Hollin Quarry's opening chunk wins its document's place by the name; the chunk with the turnover scores
    lower and, one chunk a document, lost to documents far behind. Slots of the weak documents go to it first."""
    parsed = ParsedQuery(original_query="What was Hollin Quarry's turnover in 2025?",
                         keywords=["hollin", "quarry", "turnover", "2025"])
    state = {"question": parsed.original_query, "parsed": parsed, "hits": [*_REPORT, *_OTHERS], "top_k": 3}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))  # type: ignore[arg-type]
    assert [h.id for h in out["ranked"]] == ["quarry#0", "quarry#4", "quarry#6"]
    assert "a further chunk of result #1's document" in (out["ranked"][1].relevance_explanation or "")


def test_documents_close_to_the_best_keep_their_places() -> None:
    """A question about two documents keeps both: only a document under the share of the best gives way; the
    added chunks follow the strong documents, the weak ones still fitting follow them."""
    from graphs.rag.nodes.rerank_hits import further_chunks, share_slots

    a, b = hit("mill#0", score=1.0), hit("barn#0", score=0.7)
    weak = hit("pond#0", score=0.2)
    further = further_chunks([a, hit("mill#3", score=0.4), b, hit("barn#2", score=0.3), weak])
    assert [h.id for h in further] == ["mill#3", "barn#2"]
    assert [h.id for h in share_slots([a, b, weak], further, 3, 0.5)] == ["mill#0", "barn#0", "mill#3"]
    assert [h.id for h in share_slots([a, b, weak], further, 5, 0.5)] == [
        "mill#0", "barn#0", "mill#3", "barn#2", "pond#0"]
    # share 0 (the graph route, whose expansion chose its documents): only the slots no document filled
    assert [h.id for h in share_slots([a, b, weak], further, 3, 0.0)] == ["mill#0", "barn#0", "pond#0"]
    assert [h.id for h in share_slots([a, b, weak], further, 4, 0.0)] == ["mill#0", "barn#0", "pond#0", "mill#3"]


async def test_on_the_graph_route_only_a_document_far_behind_yields_its_slot(tmp_path: Any) -> None:
    """The graph expansion chose its documents (a bridge page may score well under the seed's), but a breadth-search
    page at a tenth of the best one's score gives its slot to the best document's next chunk (the manual's error
    code list was dropped for three pages of an unrelated wiki)."""
    hits = [hit("manual#7", "status LED", 0.73, "graph"), hit("wiki#2", "organ", 0.07, "graph"),
            hit("bridge#0", "the town", 0.3, "graph"), hit("manual#8", "E05 water ingress", 0.66, "graph")]
    state = {"question": "q", "parsed": ParsedQuery(original_query="q"), "hits": hits, "top_k": 3}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))
    assert out["reranker"] == "graph-fusion"
    assert [h.id for h in out["ranked"]] == ["manual#7", "bridge#0", "manual#8"]


# -- the second hop of a bridge question -------------------------------------------------------------

_GAME = ("Glass Orchard is a puzzle game developed by Lumen Works. Its soundtrack was composed by Mara Voss. "
         "It was released in 2011.")
_BRIDGE_DOCS = [("orchard", "Glass Orchard", _GAME),
                ("voss", "Mara Voss", "Mara Voss (born 1971) is a Finnish musician known for ambient choral music."),
                ("lumen", "Lumen Works", "Lumen Works is a studio in Tampere.")]


def _bridge_state(**extra: Any) -> dict[str, Any]:
    question = "Which genre is the composer of the Glass Orchard soundtrack known for?"
    parsed = ParsedQuery(original_query=question, keywords=["genre", "composer", "glass orchard", "soundtrack", "known"])
    hits = [hit("orchard#0", _GAME, 0.8, "hybrid", title="Glass Orchard"),
            hit("other#0", "Orchard glass is a kind of greenhouse.", 0.5, "hybrid", title="Orchard glass"),
            hit("third#0", "A soundtrack album.", 0.4, "hybrid", title="Third")]
    return {"question": question, "parsed": parsed, "hits": hits, "top_k": 3, "query_vector": [0.1] * 16, **extra}


def _bridge_index(fail: bool = False) -> Any:
    from graphs.domain import Hit
    from tests.support.fakes import ScriptedIndex

    def respond(channel: str, expr: str | None) -> list[Hit]:
        if "voss" not in (expr or ""):
            return []
        return [hit("voss#0", _BRIDGE_DOCS[1][2], 0.41, channel, title="Mara Voss", bm25_score=0.2)]

    return ScriptedIndex(respond=respond, fail=fail)


async def test_rerank_promotes_the_document_the_top_passage_names_for_the_question(tmp_path: Any) -> None:
    from tests.support.graph_route import kg

    ctx = make_context(tmp_path, _bridge_index(), kg=kg(tmp_path, _BRIDGE_DOCS))
    out = await rerank_hits(_bridge_state(), runtime(ctx))
    docs = [h.doc_id for h in out["ranked"]]
    assert docs[docs.index("orchard") + 1] == "voss" and len(docs) == 3 and "lumen" not in docs
    bridge = out["ranked"][docs.index("voss")]
    assert bridge.hop == 1 and "second hop" in (bridge.relevance_explanation or "")


async def test_rerank_adds_no_second_hop_after_a_filtered_search_or_without_a_graph(tmp_path: Any) -> None:
    from graphs.domain import SearchRecord
    from tests.support.graph_route import kg

    ctx = make_context(tmp_path, _bridge_index(), kg=kg(tmp_path, _BRIDGE_DOCS))
    where = "organization == 'Lumen Works'"
    constrained = _bridge_state(searches=[SearchRecord(channel="structured", filter=where, count=3, duration_ms=1.0)])
    assert "voss" not in [h.doc_id for h in (await rerank_hits(constrained, runtime(ctx)))["ranked"]]
    no_graph = make_context(tmp_path, _bridge_index())
    assert "voss" not in [h.doc_id for h in (await rerank_hits(_bridge_state(), runtime(no_graph)))["ranked"]]


async def test_rerank_second_hop_store_outage_is_an_error_not_a_shorter_list(tmp_path: Any) -> None:
    import pytest

    from graphs.stores.base import StoreUnavailable
    from tests.support.graph_route import kg

    ctx = make_context(tmp_path, _bridge_index(fail=True), kg=kg(tmp_path, _BRIDGE_DOCS))
    with pytest.raises(StoreUnavailable):
        await rerank_hits(_bridge_state(), runtime(ctx))


# -- a chain of relations: the bridge's passage names the next one ----------------------------------------------

_FILM = "Salt Meadow is a 1952 drama film directed by Oren Vask. It was shot in Brittany."
_CHAIN_DOCS = [("meadow", "Salt Meadow", _FILM),
               ("vask", "Oren Vask", "Oren Vask (1901-1977) was a film director. He was the son of Ilse Vask, a "
                                     "painter, and grew up in Riga."),
               ("ilse", "Ilse Vask", "Ilse Vask (1870-1950) was a painter born in Tartu.")]


def _chain_state(question: str, keywords: list[str]) -> dict[str, Any]:
    parsed = ParsedQuery(original_query=question, keywords=keywords)
    hits = [hit("meadow#0", _FILM, 0.8, "hybrid", title="Salt Meadow"),
            hit("salt#0", "Salt is a mineral.", 0.5, "hybrid", title="Salt"),
            hit("x#0", "A meadow.", 0.4, "hybrid", title="X"), hit("y#0", "Y.", 0.3, "hybrid", title="Y")]
    return {"question": question, "parsed": parsed, "hits": hits, "top_k": 4, "query_vector": [0.1] * 16}


def _chain_index() -> Any:
    from graphs.domain import Hit
    from tests.support.fakes import ScriptedIndex

    def respond(channel: str, expr: str | None) -> list[Hit]:
        return [hit(f"{d}#0", text, 0.4, channel, title=title, bm25_score=0.1)
                for d, title, text in _CHAIN_DOCS[1:] if f'"{d}"' in (expr or "")]

    return ScriptedIndex(respond=respond)


async def test_a_chain_of_relations_is_followed_through_each_passage_to_the_next(tmp_path: Any) -> None:
    from tests.support.graph_route import kg

    ctx = make_context(tmp_path, _chain_index(), kg=kg(tmp_path, _CHAIN_DOCS))
    question = "Where was the mother of the director of film Salt Meadow born?"
    out = await rerank_hits(_chain_state(question, ["mother", "director", "film", "salt meadow", "born"]),
                            runtime(ctx))
    assert [h.doc_id for h in out["ranked"]][:3] == ["meadow", "vask", "ilse"]
    assert out["ranked"][2].path == ["doc:vask", "doc:ilse"]
    # without a relation left to follow, the chain stops at the director (his passage holds the answer)
    out = await rerank_hits(_chain_state("Where was the director of film Salt Meadow born?",
                                         ["director", "film", "salt meadow", "born"]), runtime(ctx))
    assert [h.doc_id for h in out["ranked"]][:2] == ["meadow", "vask"] and "ilse" not in [h.doc_id for h in out["ranked"]]


# -- a described bridge in a user's files: the next document titled by the name the first hop writes ----------

_CENTRE = ("青松社区活动中心位于临河区桂花路 12 号枫林苑小区二楼，由街道办管理。开放时间为每天 8:00–21:00。")
_RULES_HEAD = "枫林苑小区垃圾分类管理规定：本规定适用于枫林苑小区全体住户，由物业服务中心负责执行。"
_RULES_FEES = "其他垃圾每天 19:00–21:00 收运；可回收物每周三上午收运。"


def _centre_index(calls: list[str] | None = None) -> Any:
    from graphs.domain import Hit
    from tests.support.fakes import ScriptedIndex

    def respond(channel: str, expr: str | None) -> list[Hit]:
        title = "枫林苑小区垃圾分类管理规定（2025年版）"
        head = hit("rules#0", _RULES_HEAD, 0.3, "hybrid", title=title, bm25_score=2.0)
        fees = hit("rules#1", _RULES_FEES, 0.4, "hybrid", title=title, bm25_score=3.0)
        if expr is None:  # the search by the question and the anchor's words: the line sharing most words first
            return [hit("centre#0", _CENTRE, 0.9, "hybrid", title="青松社区活动中心简介"), head, fees]
        return [fees, head] if '"rules"' in expr else []

    return ScriptedIndex(respond=respond)


def _centre_state(question: str, **features: float) -> dict[str, Any]:
    parsed = ParsedQuery(original_query=question, keywords=["可回收物", "收运"], complexity_features=features)
    hits = [hit("centre#0", _CENTRE, 0.9, "hybrid", title="青松社区活动中心简介"),
            hit("park#0", "桂花公园每天 6:00 开放。", 0.3, "hybrid", title="桂花公园"),
            hit("pool#0", "游泳馆周一闭馆。", 0.2, "hybrid", title="游泳馆须知")]
    return {"question": question, "parsed": parsed, "hits": hits, "top_k": 3, "query_vector": [0.1] * 16}


async def test_a_described_bridge_brings_the_document_titled_by_the_name_the_first_hop_writes(tmp_path: Any) -> None:
    ctx = make_context(tmp_path, _centre_index())
    out = await rerank_hits(_centre_state("青松社区活动中心所在的小区，可回收物每周哪天收运？"), runtime(ctx))
    docs = [h.doc_id for h in out["ranked"]]
    assert docs[:2] == ["centre", "rules"] and len(docs) == 3
    # of the bridge's document, the passage that answers the question, not its opening
    assert out["ranked"][1].id == "rules#1" and "枫林苑小区" in (out["ranked"][1].relevance_explanation or "")


async def test_no_searched_bridge_without_a_description_or_for_a_name_the_question_writes(tmp_path: Any) -> None:
    ctx = make_context(tmp_path, _centre_index())
    plain = await rerank_hits(_centre_state("青松社区活动中心几点开门？"), runtime(ctx))
    assert "rules" not in [h.doc_id for h in plain["ranked"]]
    named = await rerank_hits(_centre_state("青松社区活动中心所在的枫林苑小区，可回收物每周哪天收运？"), runtime(ctx))
    assert "rules" not in [h.doc_id for h in named["ranked"]]


async def test_a_described_bridge_in_english_reaches_the_building_page(tmp_path: Any) -> None:
    from graphs.domain import Hit
    from tests.support.fakes import ScriptedIndex

    flat = hit("unit#0", "A quiet one-bedroom flat on the third floor of Marlow Wharf.", 0.8, "hybrid",
               title="Unit 4C, Marlow Wharf — For Sale")
    wharf = hit("wharf#0", "Marlow Wharf was converted into 30 flats in 2003.", 0.3, "hybrid",
                title="Marlow Wharf — building history", bm25_score=1.0)

    def respond(channel: str, expr: str | None) -> list[Hit]:
        return [flat, wharf] if expr is None else [wharf] if '"wharf"' in (expr or "") else []

    question = "In which year was the building that contains Unit 4C converted into flats?"
    state = {"question": question, "parsed": ParsedQuery(original_query=question, complexity_features={"nesting": 1.0}),
             "hits": [flat, hit("sale#0", "Flats for sale.", 0.4, "hybrid", title="Sales")], "top_k": 2,
             "query_vector": [0.1] * 16}
    out = await rerank_hits(state, runtime(make_context(tmp_path, ScriptedIndex(respond=respond))))
    assert [h.doc_id for h in out["ranked"]] == ["unit", "wharf"]


def test_the_bridge_takes_the_place_of_a_passage_that_does_not_name_it() -> None:
    from graphs.rag.nodes.rerank_hits import with_bridge

    ranked = [hit("centre#0", "青松社区活动中心简介"), hit("centre#1", "位于枫林苑小区二楼。"), hit("centre#2", "开放时间")]
    bridge = hit("rules#1", "可回收物每周三收运。")
    assert [h.id for h in with_bridge(ranked, bridge, "枫林苑小区", 3)] == ["centre#0", "rules#1", "centre#1"]
    assert [h.id for h in with_bridge(ranked, bridge, "枫林苑小区", 4)] == ["centre#0", "rules#1", "centre#1",
                                                                             "centre#2"]
