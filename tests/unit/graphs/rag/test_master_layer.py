"""The master layer: team configuration, the planner and its executor, the sufficiency monitor, the
consistency check and the reflection after failures."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from graphs.domain import (
    Hit,
    QueryPlan,
    StepOutcome,
    SubQuestion,
)
from graphs.rag.edges import after_plan_query, plan_steps
from graphs.rag.graph import workflow
from graphs.rag.planning import (
    by_date,
    check_plan,
    decompose,
    first_hop,
    merge_hits,
    named_first,
    ready_steps,
)
from graphs.stores.base import StoreUnavailable
from graphs.text.question_shapes import arithmetic, comparison_pair, thanks, trivial
from tests.support.fakes import ScriptedIndex, hit, make_context
from tests.support.plans import parsed
from tests.support.plans import plan_of as _plan
from tests.support.plans import sub_question as _sq


@dataclass
class TextIndex(ScriptedIndex):
    """A fake index that answers by the text (or vector-less question) it is asked with."""

    by_text: Callable[[str], list[Hit]] = lambda text: []
    texts: list[str] = field(default_factory=list)
    failures: list[BaseException] = field(default_factory=list)

    def _by(self, text: str) -> list[Hit]:
        self.texts.append(text)
        if self.failures:
            raise self.failures.pop(0)
        return self.by_text(text)

    def search_hybrid(self, vector: Sequence[float], text: str, *, filter: str | None, limit: int,
                      fusion: str = "rrf", dense_weight: float | None = None,
                      question: str | None = None) -> list[Hit]:
        return self._by(text)[:limit]

    def search_bm25(self, text: str, *, filter: str | None, limit: int, raw: bool = False) -> list[Hit]:
        return self._by(text)[:limit]


# ---------------------------------------------------------------------------- rules


@pytest.mark.parametrize(("question", "value"), [("what is 12*(3+4)?", "84"), ("3 ÷ 4 =", "0.75"),
                                                 ("计算 2^10", "1024"), ("What is Python?", None),
                                                 ("2024", None), ("__import__('os')", None)])
def test_arithmetic_is_computed_safely(question: str, value: str | None) -> None:
    assert arithmetic(question) == value


def test_trivial_questions() -> None:
    assert trivial("Hello!") and trivial("你好") and trivial("1+1?")
    assert trivial("Who founded SpaceX?") is None
    assert thanks("thanks a lot!") and thanks("谢谢您。") and not thanks("你好") and not thanks("Thanks to whom?")


@pytest.mark.parametrize(("question", "names", "pair"), [
    ("Are Christopher Nolan and Sathish Kalathil both film directors?", ["Christopher Nolan", "Sathish Kalathil"],
     ("Christopher Nolan", "Sathish Kalathil")),
    ("Which came first the forming of The Dandy Warhols or the birth of Robert Young?",
     ["Dandy Warhols", "Robert Young"], ("Dandy Warhols", "Robert Young")),
    ("马斯克和乔布斯谁先出生？", ["马斯克", "乔布斯"], ("马斯克", "乔布斯")),
    ("Who founded SpaceX and Tesla?", ["SpaceX", "Tesla"], None),  # no comparison cue
])
def test_comparison_pairs(question: str, names: list[str], pair: tuple[str, str] | None) -> None:
    found = comparison_pair(question, names)
    assert (found and (found[0].text, found[1].text)) == pair or (found is None and pair is None)


def test_decompose_comparison_temporal_and_bridge() -> None:
    q = "Are Christopher Nolan and Sathish Kalathil both film directors?"
    plan = decompose(q, parsed(q, "Christopher Nolan", "Sathish Kalathil"), [], has_kg=True)
    assert plan is not None and plan.pattern == "comparison"
    assert [(s.question, s.strategy, s.entity, s.depends_on) for s in plan.sub_questions] == [
        ("Are Christopher Nolan both film directors?", "hybrid", "Christopher Nolan", []),
        ("Are Sathish Kalathil both film directors?", "hybrid", "Sathish Kalathil", []),
    ]
    zh = "马斯克和乔布斯谁先出生？"
    plan = decompose(zh, parsed(zh, "马斯克", "乔布斯"), ["马斯克"], has_kg=False)
    assert plan and [(s.question, s.strategy) for s in plan.sub_questions] == [("马斯克谁先出生？", "structured"),
                                                                              ("乔布斯谁先出生？", "hybrid")]
    t = "How did Tesla's prices change over time?"
    plan = decompose(t, parsed(t, "Tesla", intent="exploratory"), [], has_kg=True)
    assert plan and plan.pattern == "temporal" and plan.sub_questions[0].strategy == "temporal"
    b = "What language were books translated into during the era of Haymo of Faversham?"
    plan = decompose(b, parsed(b, "Haymo of Faversham", intent="factual", bridge=1.0), [], has_kg=True)
    assert plan and plan.pattern == "bridge"
    assert [(s.id, s.question, s.depends_on) for s in plan.sub_questions] == [
        ("q1", "What is the era of Haymo of Faversham?", []), ("q2", b, ["q1"])]
    assert decompose("What is SpaceX?", parsed("What is SpaceX?", "SpaceX", intent="factual"), [], True) is None


@pytest.mark.parametrize(("question", "anchor", "hop"), [
    ("When was the town where the Brewmaster K9 is assembled founded?", "Brewmaster K9",
     "Which town is it where the Brewmaster K9 is assembled?"),
    ("What river flows through the city that hosted Expo 2030?", "Expo 2030", "Which city is it that hosted Expo 2030?"),
    ("Who is the spouse of the author of The Salt Orchard?", "The Salt Orchard", "Who is the author of The Salt Orchard?"),
    ("谁是青禾科技的创始人的妻子？", "青禾科技", "青禾科技的创始人是谁？"),
    ("澄湖大桥的设计单位的总部在哪里？", "澄湖大桥", "澄湖大桥的设计单位是什么？"),
    ("Who founded Nordbryg?", "Nordbryg", None),
])
def test_a_bridge_plan_first_asks_which_entity_the_question_describes(question: str, anchor: str,
                                                                      hop: str | None) -> None:
    assert first_hop(question, anchor) == hop
    plan = decompose(question, parsed(question, anchor, intent="factual", bridge=1.0), [], has_kg=True)
    assert plan is not None and plan.sub_questions[0].question == (hop or anchor)
    assert plan.sub_questions[1].depends_on == ["q1"]


def test_check_plan_rejects_cycles_unknown_ids_and_size() -> None:
    def plan(*steps: tuple[str, list[str]]) -> QueryPlan:
        return QueryPlan(pattern="llm", sub_questions=[SubQuestion(id=i, question=f"q {i}", strategy="hybrid",
                                                                   depends_on=d) for i, d in steps])
    assert check_plan(plan(("q1", []), ("q2", ["q1"])), 5) is None
    assert "cycle" in (check_plan(plan(("q1", ["q2"]), ("q2", ["q1"])), 5) or "")
    assert "unknown" in (check_plan(plan(("q1", ["q9"])), 5) or "")
    assert "at most" in (check_plan(plan(*[(f"q{i}", []) for i in range(6)]), 5) or "")
    assert "unique" in (check_plan(plan(("q1", []), ("q1", [])), 5) or "")


def test_ready_steps_follow_the_dag() -> None:
    steps = [SubQuestion(id="q1", question="a", strategy="hybrid"),
             SubQuestion(id="q2", question="b", strategy="hybrid", depends_on=["q1"])]
    plan = QueryPlan(pattern="bridge", sub_questions=steps)
    assert [s.id for s in ready_steps(plan)] == ["q1"]
    done = plan.model_copy(update={"sub_questions": [steps[0].model_copy(update={"status": "done"}), steps[1]]})
    assert [s.id for s in ready_steps(done)] == ["q2"]


def test_merge_interleaves_and_named_first_and_date_order() -> None:
    plan = QueryPlan(pattern="comparison", sub_questions=[SubQuestion(id="q1", question="a", strategy="hybrid"),
                                                          SubQuestion(id="q2", question="b", strategy="hybrid")])
    out = [StepOutcome(sub_question="q1", question="a", strategy="hybrid", attempt=1, turn=1, status="ok",
                       hits=[hit("a1#0"), hit("x#0"), hit("a2#0")]),
           StepOutcome(sub_question="q2", question="b", strategy="hybrid", attempt=1, turn=1, status="ok",
                       hits=[hit("b1#0"), hit("x#1")])]
    # a comparison keeps one result per chunk (its two sides may be two chunks of one document) ...
    assert [h.id for h in merge_hits(plan, out)] == ["a1#0", "b1#0", "x#0", "x#1", "a2#0"]
    # ... any other plan one per document
    bridge = plan.model_copy(update={"pattern": "bridge"})
    assert [h.doc_id for h in merge_hits(bridge, out)] == ["a1", "b1", "x", "a2"]
    hits = [hit("a#0", title="Frozen Ever After"), hit("b#0", title="Frozen (2013 film)"), hit("c#0", title="Frozen")]
    assert [h.doc_id for h in named_first(hits, "Frozen")] == ["b", "c", "a"]
    dated = [hit("a#0", "In 2019 it grew."), hit("b#0", "no year"), hit("c#0", "Founded 2003.")]
    assert [h.doc_id for h in by_date(dated)] == ["c", "a", "b"]


# ---------------------------------------------------------------------------- team configuration


async def test_writer_only_answers_without_retrieval(tmp_path: Path) -> None:
    index = ScriptedIndex()
    out = await workflow.ainvoke({"question": "what is 12*(3+4)?"}, context=make_context(tmp_path, index))
    assert out["team_config"].name == "writer_only"
    assert out["answer"].endswith("= 84") and out["answer_mode"] == "direct" and out["status"] == "answered"
    assert index.calls == [] and not out.get("searches")
    greeting = await workflow.ainvoke({"question": "你好"}, context=make_context(tmp_path, index))
    assert greeting["answer_mode"] == "direct" and "文档" in greeting["answer"] and index.calls == []
    # thanks are answered as thanks, not with a hello (谢谢 was answered 你好！)
    for said, reply in (("谢谢！", "不客气"), ("Thank you very much.", "You're welcome"), ("多谢", "不客气")):
        out = await workflow.ainvoke({"question": said}, context=make_context(tmp_path, index))
        assert out["answer"].startswith(reply) and out["status"] == "answered" and index.calls == [], out["answer"]


async def test_executor_path_keeps_its_turn_budget(tmp_path: Path) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("x#0", "机器学习相关的一段弱匹配文字。", 0.05, ch)])
    ctx = make_context(tmp_path, index, executor_max_turns=1)
    out = await workflow.ainvoke({"question": "什么是机器学习？"}, context=ctx)
    assert len(out["searches"]) == 1  # a weak semantic result would call for hybrid search next
    assert "turn budget spent" in out["decisions"][-1].reason and out["possibly_incomplete"] is True
    assert "不完整" in out["answer"]
    roomy = await workflow.ainvoke({"question": "什么是机器学习？"}, context=make_context(tmp_path, index))
    assert len(roomy["searches"]) == 2 and not roomy.get("possibly_incomplete")


# ---------------------------------------------------------------------------- planner end to end


def _corpus(text: str) -> list[Hit]:
    docs = {"nolan": hit("nolan#0", "Christopher Nolan is a British-American film director.", 0.6, "hybrid",
                         title="Christopher Nolan"),
            "kalathil": hit("kalathil#0", "Sathish Kalathil is an Indian film director and writer.", 0.6, "hybrid",
                            title="Sathish Kalathil"),
            "other": hit("other#0", "Film directors direct films.", 0.3, "hybrid", title="Film director")}
    out = [d for key, d in docs.items() if key in text.lower() or (key == "kalathil" and "sathish" in text.lower())]
    return [*out, docs["other"]]


async def test_comparison_plan_runs_both_steps_in_parallel_and_merges(tmp_path: Path) -> None:
    index = TextIndex(by_text=_corpus)
    ctx = make_context(tmp_path, index)
    q = "Are Christopher Nolan and Sathish Kalathil both film directors?"
    visited: list[list[str]] = []
    async for update in workflow.astream({"question": q}, context=ctx, stream_mode="updates"):
        visited.append(list(update))
    assert ["execute_step", "execute_step"] in visited or visited.count(["execute_step"]) == 2
    first_round = next(i for i, v in enumerate(visited) if "execute_step" in v)
    # both steps ran in the same superstep, before the monitor
    assert visited[first_round + 1] == ["execute_step"] or visited[first_round] == ["execute_step", "execute_step"]
    out = await workflow.ainvoke({"question": q}, context=ctx)
    assert out["team_config"].name == "planner_enhanced" and out["plan"].pattern == "comparison"
    assert {o.sub_question for o in out["outcomes"] if o.turn == 1} == {"q1", "q2"}
    assert [h.doc_id for h in out["ranked"][:2]] == ["nolan", "kalathil"]
    assert out["reranker"] == "plan-merge"
    assert out["sufficiency"][-1].next == "answer"
    assert {c.doc_id for c in out["citations"]} >= {"nolan", "kalathil"}


async def test_dependent_step_receives_its_parents_finding(tmp_path: Path) -> None:
    def corpus(text: str) -> list[Hit]:
        if "Vienna" in text:
            return [hit("lang#0", "In Vienna books were translated into Latin.", 0.6, "hybrid", title="Vienna")]
        if "Haymo" in text:
            return [hit("haymo#0", "Haymo of Faversham lived in Vienna.", 0.6, "hybrid", title="Haymo of Faversham")]
        return []

    index = TextIndex(by_text=corpus)
    q = "What language were books translated into during the era of Haymo of Faversham?"
    out = await workflow.ainvoke({"question": q, "team": "planner_enhanced"}, context=make_context(tmp_path, index))
    assert out["plan"].pattern == "bridge"
    q2 = next(o for o in out["outcomes"] if o.sub_question == "q2")
    assert "Vienna" in q2.question and q2.turn == 2  # the parent's finding travelled with the dependent step
    assert {h.doc_id for h in out["ranked"]} >= {"haymo", "lang"}


async def test_temporal_plan_orders_results_by_date(tmp_path: Path) -> None:
    index = TextIndex(by_text=lambda t: [hit("c#0", "In 2021 the price fell.", 0.6, "hybrid"),
                                         hit("a#0", "In 2008 the price was set.", 0.5, "hybrid"),
                                         hit("b#0", "By 2015 the price rose.", 0.4, "hybrid")])
    out = await workflow.ainvoke({"question": "How did the price of the Roadster change over time?"},
                              context=make_context(tmp_path, index))
    assert out["plan"].pattern == "temporal"
    assert [h.doc_id for h in out["ranked"]] == ["a", "b", "c"]


# ---------------------------------------------------------------------------- sufficiency levels


def test_edges_send_one_step_per_ready_sub_question() -> None:
    state = {"question": "q", "plan": _plan(_sq("q1"), _sq("q2"), _sq("q3", ["q1"])), "turn": 0, "top_k": 3}
    sends = plan_steps(state)  # type: ignore[arg-type]
    assert [s.arg["sub_question"].id for s in sends] == ["q1", "q2"] and {s.node for s in sends} == {"execute_step"}
    assert all(s.arg["turn"] == 1 and s.arg["top_k"] == 3 for s in sends)
    assert after_plan_query({"question": "q", "plan": _plan()}) == "rerank_hits"  # type: ignore[typeddict-item]


# ---------------------------------------------------------------------------- contradictions


async def test_writer_states_a_disagreement_with_both_citations(tmp_path: Path) -> None:
    hits = [hit("a#0", "张三的老师是李四，两人在北京相识。", 0.6, "hybrid"),
            hit("b#0", "据记载，张三的老师是王五。", 0.5, "hybrid")]
    index = ScriptedIndex(respond=lambda ch, expr: hits)
    out = await workflow.ainvoke({"question": "张三的老师是谁？", "search_mode": "hybrid"},
                              context=make_context(tmp_path, index))
    [conflict] = out["contradictions"]
    assert {c.value for c in conflict.claims} == {"李四", "王五"}
    assert "说法不一" in out["answer"] and "[1] 李四" in out["answer"] and "[2] 王五" in out["answer"]
    assert {c.doc_id for c in out["citations"]} == {"a", "b"}


async def test_agreeing_sources_are_not_a_contradiction(tmp_path: Path) -> None:
    hits = [hit("a#0", "张三的老师是李四。", 0.6, "hybrid"), hit("b#0", "据记载，张三的老师是李四。", 0.5, "hybrid")]
    out = await workflow.ainvoke({"question": "张三的老师是谁？", "search_mode": "hybrid"},
                              context=make_context(tmp_path, ScriptedIndex(respond=lambda ch, expr: hits)))
    assert not out.get("contradictions") and "说法不一" not in out["answer"]


# ---------------------------------------------------------------------------- reflection


async def test_reflection_retries_after_an_injected_failure(tmp_path: Path) -> None:
    index = TextIndex(by_text=_corpus, failures=[StoreUnavailable("milvus", "connection reset")])
    q = "Are Christopher Nolan and Sathish Kalathil both film directors?"
    out = await workflow.ainvoke({"question": q, "search_mode": "auto", "team": "planner_enhanced"},
                              context=make_context(tmp_path, index))
    [failed] = [o for o in out["outcomes"] if o.status == "error"]
    assert "StoreUnavailable" in (failed.error or "")
    [r] = out["reflections"]
    assert (r.sub_question, r.action) == (failed.sub_question, "retry")
    retried = [o for o in out["outcomes"] if o.sub_question == failed.sub_question]
    assert [o.status for o in retried] == ["error", "ok"] and retried[1].attempt == 2
    assert [h.doc_id for h in out["ranked"][:2]] == ["nolan", "kalathil"]  # the other step's result was kept


async def test_every_step_failing_on_a_store_outage_is_a_503_not_an_empty_answer(tmp_path: Path) -> None:
    index = ScriptedIndex(fail=True)
    with pytest.raises(StoreUnavailable):
        await workflow.ainvoke({"question": "Are Christopher Nolan and Sathish Kalathil both film directors?",
                             "team": "planner_enhanced"}, context=make_context(tmp_path, index))


async def test_a_step_past_its_time_limit_is_a_timeout_the_reflection_handles(tmp_path: Path) -> None:
    class Slow(TextIndex):
        slow_once: bool = True

        def _by(self, text: str) -> list[Hit]:
            if self.slow_once:
                self.slow_once = False
                time.sleep(0.5)
            return super()._by(text)

    index = Slow(by_text=_corpus)
    out = await workflow.ainvoke({"question": "What is Christopher Nolan known for?", "team": "planner_enhanced"},
                              context=make_context(tmp_path, index, step_timeout_s=0.2))
    assert [o.status for o in out["outcomes"]][:1] == ["timeout"]
    assert out["reflections"][0].action == "retry"
    assert out["outcomes"][-1].status == "ok" and out["ranked"]
