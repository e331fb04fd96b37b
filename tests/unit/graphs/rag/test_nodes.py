"""Node tests: each node called directly with a built state and a Runtime of fakes."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from graphs.domain import (
    Answerability,
    Constraint,
    DateRange,
    ParsedQuery,
    QueryEntity,
    RoutingDecision,
    SearchRecord,
)
from graphs.rag.nodes.parse_query import parse_query
from graphs.rag.nodes.relax_constraints import relax_constraints
from graphs.rag.nodes.rerank_hits import rerank_hits
from graphs.rag.nodes.route_query import route_query
from graphs.rag.nodes.search_structured import search_structured
from graphs.rag.nodes.validate_entities import validate_entities
from graphs.rag.nodes.write_answer import write_answer
from tests.support.answers import write_and_check
from tests.support.fakes import ScriptedIndex, ToolCallingFakeChatModel, hit, make_context, runtime

Y2024 = DateRange(start=20240101, end=20241231, granularity="year", label="2024")


def llm_replying(*messages: AIMessage) -> ToolCallingFakeChatModel:
    return ToolCallingFakeChatModel(messages=iter(messages))


def extraction_call(**args: Any) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "QueryExtraction", "args": args, "id": "call-1"}])


async def test_parse_query_without_llm_uses_rules(tmp_path: Any) -> None:
    out = await parse_query({"question": "马斯克创办的公司有哪些？"}, runtime(make_context(tmp_path)))
    assert set(out) == {"parsed"}
    assert out["parsed"].parser == "rules"
    assert [(e.text, e.type) for e in out["parsed"].entities] == [("马斯克", "PERSON")]


async def test_parse_query_with_llm_merges_rule_dates_and_dictionary_hits(tmp_path: Any) -> None:
    llm = llm_replying(extraction_call(
        entities=[{"text": "北京", "type": "LOCATION"}, {"text": "2024年", "type": "DATE"}, {"text": "火星", "type": "LOCATION"}],
        negated=[], intent="factual", complexity="moderate", keywords=["产品"], confidence=0.9))
    out = await parse_query({"question": "2024年苹果在北京发布的产品"}, runtime(make_context(tmp_path, llm=llm)))
    parsed: ParsedQuery = out["parsed"]
    assert out["llm_calls"] == 1 and parsed.parser == "llm"
    kinds = {(e.text, e.type, e.source) for e in parsed.entities}
    assert ("苹果", "ORGANIZATION", "gazetteer") in kinds  # the LLM missed it, the dictionary did not
    assert ("2024年", "DATE", "date_rule") in kinds  # dates always carry a rule-computed range
    assert all(e.text != "火星" for e in parsed.entities)  # not in the question: invented
    assert parsed.complexity == "moderate"


async def test_parse_query_keeps_the_rules_complexity_when_the_llm_calls_a_bridge_question_simple(
    tmp_path: Any,
) -> None:
    llm = llm_replying(extraction_call(entities=[], negated=[], intent="factual", complexity="simple",
                                       keywords=["director"], confidence=0.8))
    question = "Who is the mother of the director of the film that won the 1998 Golden Lion?"
    out = await parse_query({"question": question}, runtime(make_context(tmp_path, llm=llm)))
    assert out["parsed"].parser == "llm" and out["parsed"].complexity == "complex"
    assert out["parsed"].complexity_score >= 0.55 and out["parsed"].complexity_features["llm_complexity"] == 0.0


async def test_parse_query_degrades_visibly_on_invalid_llm_output(tmp_path: Any) -> None:
    llm = llm_replying(AIMessage(content="", tool_calls=[{"name": "QueryExtraction", "args": {"intent": "nonsense"}, "id": "c"}]))
    out = await parse_query({"question": "什么是机器学习？"}, runtime(make_context(tmp_path, llm=llm)))
    assert out["degraded"] == ["parse_query"] and out["llm_calls"] == 1
    assert out["parsed"].parser == "rules" and out["parsed"].intent == "conceptual"


async def test_validate_entities_normalizes_and_builds_constraints(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="q", entities=[
        QueryEntity(text="魔都", type="LOCATION"), QueryEntity(text="老马", type="PERSON"),
        QueryEntity(text="Iphone", type="OTHER"), QueryEntity(text="量子纠缠", type="CONCEPT", source="pos"),
        QueryEntity(text="2024年", type="DATE", source="date_rule", date_range=Y2024),
    ])
    out = await validate_entities({"question": "q", "parsed": parsed}, runtime(make_context(tmp_path)))
    got = [(e.text, e.standard_name, e.type, e.valid) for e in out["entities"]]
    assert got == [("魔都", "上海", "LOCATION", True), ("老马", "Elon Musk", "PERSON", True),
                   ("Iphone", "iPhone", "PRODUCT", True), ("量子纠缠", None, "CONCEPT", False),
                   ("2024年", "2024", "DATE", True)]
    assert [(c.type, c.value) for c in out["constraints"]] == [
        ("LOCATION", "上海"), ("PERSON", "Elon Musk"), ("PRODUCT", "iPhone"), ("DATE", "2024")]
    assert out["constraints"][0].ancestors == ["中国"]


@pytest.mark.parametrize("spelled", ["masike 创办了哪些公司？", "What did Ma Si Ke found?", "Mǎ Sīkè 的公司"])
async def test_a_chinese_name_written_in_pinyin_becomes_its_entity(tmp_path: Any, spelled: str) -> None:
    ctx = make_context(tmp_path)
    parsed = (await parse_query({"question": spelled}, runtime(ctx)))["parsed"]
    (person,) = [e for e in parsed.entities if e.source == "pinyin"]
    out = await validate_entities({"question": spelled, "parsed": parsed}, runtime(ctx))
    (valid,) = [e for e in out["entities"] if e.text == person.text]
    assert (valid.standard_name, valid.type, valid.match) == ("Elon Musk", "PERSON", "pinyin")
    assert [(c.type, c.value) for c in out["constraints"]] == [("PERSON", "Elon Musk")]


async def test_route_query_appends_one_decision_and_goes_there(tmp_path: Any) -> None:
    state = {"question": "q", "parsed": ParsedQuery(original_query="q", intent="conceptual"), "constraints": []}
    out = await route_query(state, runtime(make_context(tmp_path)))
    assert out.update == {"decisions": [RoutingDecision(action="semantic_search", reason="conceptual question: pure vector search over meaning")]}
    assert out.goto == "search_semantic"


async def test_relax_constraints_drops_date_before_location(tmp_path: Any) -> None:
    constraints = [Constraint(type="ORGANIZATION", value="Apple"), Constraint(type="LOCATION", value="北京", ancestors=["中国"]),
                   Constraint(type="DATE", value="2024", date_range=Y2024)]
    out = await relax_constraints({"question": "q", "constraints": constraints}, runtime(make_context(tmp_path)))
    assert out["constraints"] == constraints[:2]
    assert out["relaxations"] == 1 and out["hits"] == []
    assert (out["relaxed"][0].type, out["relaxed"][0].action) == ("DATE", "dropped")


async def test_search_structured_filters_on_constraints(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("a#0")])
    state = {"question": "q", "constraints": [Constraint(type="PERSON", value='Bad "name" || id != ""')]}
    out = await search_structured(state, runtime(make_context(tmp_path, index)))
    assert [h.id for h in out["hits"]] == ["a#0"]
    record = out["searches"][0]
    assert record.channel == "structured" and record.count == 1 and record.filter == index.calls[0][1]
    assert '|| id != ""' not in (record.filter or "").replace('\\"', "")  # the value stays inside its literal


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


async def test_write_answer_extractive_cites_passages(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="马斯克创办了哪些公司？", keywords=["马斯克", "创办", "公司"])
    ranked = [hit("spacex#0", "SpaceX成立于2002年。马斯克创办了SpaceX公司。"), hit("tesla#0", "特斯拉是电动车公司。")]
    out = await write_answer({"question": parsed.original_query, "parsed": parsed, "ranked": ranked},
                             runtime(make_context(tmp_path)))
    assert out["answer_mode"] == "extractive" and out["status"] == "answered"
    assert "马斯克创办了SpaceX公司。[1]" in out["answer"]
    assert out["citations"][0].doc_id == "spacex"


async def test_write_answer_with_llm_keeps_only_real_citations(tmp_path: Any) -> None:
    llm = llm_replying(AIMessage(content="SpaceX was founded in 2002 [1][7]."))
    parsed = ParsedQuery(original_query="When was SpaceX founded?")
    out = await write_and_check({"question": parsed.original_query, "parsed": parsed, "ranked": [hit("spacex#0", "2002")]},
                             runtime(make_context(tmp_path, llm=llm)))
    assert out["answer_mode"] == "llm" and out["llm_calls"] == 1
    assert [c.index for c in out["citations"]] == [1]


async def test_write_answer_says_when_nothing_was_found(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="What is X?")
    out = await write_answer({"question": "What is X?", "parsed": parsed, "ranked": []}, runtime(make_context(tmp_path)))
    assert out == {"answer": "No relevant information was found in the indexed documents.", "citations": [],
                   "answer_span": None, "related": [], "answer_mode": "none", "status": "no_results",
                   "answerability": Answerability(decision="not_found", score=0.0, reason="no passage was retrieved")}


def test_search_record_type_is_stable() -> None:
    assert SearchRecord(channel="hybrid", filter=None, count=0, duration_ms=1.0).count == 0


def test_attribute_cites_uncited_sentences_a_passage_supports() -> None:
    from graphs.rag.answer.citations import attribute

    passages = [hit("a#0", "SpaceX was founded in 2002 by Elon Musk."), hit("b#0", "特斯拉是一家电动汽车公司。")]
    assert attribute("SpaceX was founded in 2002. Paris is nice.", passages) == "SpaceX was founded in 2002[1]. Paris is nice."
    assert attribute("特斯拉是电动汽车公司。", passages) == "特斯拉是电动汽车公司[2]。"
    assert attribute("Already cited [2].", passages) == "Already cited [2]."


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


async def test_relaxed_search_reuses_the_question_vector(tmp_path: Any) -> None:
    from unittest.mock import patch

    ctx = make_context(tmp_path, ScriptedIndex(respond=lambda ch, expr: []))
    state = {"question": "q", "constraints": [Constraint(type="PERSON", value="p")]}
    with patch.object(type(ctx.embedder), "embed_query", autospec=True, return_value=[0.5] * 16) as embed:
        first = await search_structured(state, runtime(ctx))
        second = await search_structured({**state, **first}, runtime(ctx))
    assert embed.call_count == 1
    assert first["query_vector"] == second["query_vector"] == [0.5] * 16
