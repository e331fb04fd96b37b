"""parse_query: the rules without an LLM, the LLM's extraction checked against the question, a visible degradation."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from graphs.domain import (
    ParsedQuery,
)
from graphs.rag.nodes.parse_query import parse_query
from tests.support.fakes import ToolCallingFakeChatModel, make_context, runtime


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


async def test_parse_query_starts_embedding_the_question_that_the_search_then_awaits(tmp_path: Any) -> None:
    """The question's vector is computed while the question is analysed (e5: 30-50 ms on 2 cores), and the
    search node uses that same embedding instead of starting its own."""
    import asyncio
    import dataclasses
    import threading

    from graphs.embeddings import QueryVectors
    from graphs.rag.nodes.search_semantic import search_semantic

    class Slow:
        def __init__(self) -> None:
            self.calls: list[str] = []
            self.started = threading.Event()
            self.release = threading.Event()

        def embed_query(self, text: str) -> list[float]:
            self.calls.append(text)
            self.started.set()
            assert self.release.wait(5)
            return [1.0] * 16

    embedder = Slow()
    ctx = dataclasses.replace(make_context(tmp_path), embedder=embedder, query_vectors=QueryVectors())  # type: ignore[arg-type]
    question = "马斯克创办的公司有哪些？"
    out = await parse_query({"question": question}, runtime(ctx))
    assert set(out) == {"parsed"}  # the vector is not state: the run's search takes it from the context
    assert await asyncio.to_thread(embedder.started.wait, 5)  # embedding, although the analysis is done
    search = asyncio.ensure_future(search_semantic({"question": question, "parsed": out["parsed"]}, runtime(ctx)))
    await asyncio.sleep(0.01)
    assert not search.done()  # the search waits for the prefetched vector
    embedder.release.set()
    assert (await search)["query_vector"] == [1.0] * 16
    assert embedder.calls == [question]
    assert ctx.query_vectors is not None and ctx.query_vectors.joined == 1
    ctx.query_vectors.close()
