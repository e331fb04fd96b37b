"""write_answer: a grounded answer with numbered citations (LLM, or extractive without one)."""

from __future__ import annotations

import logging
import re

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from graphs.domain import Citation, Contradiction, Hit, ParsedQuery
from graphs.llm import LLM_ERRORS, text_call
from graphs.prompts import fenced
from graphs.rag.context import RagContext
from graphs.rag.contradictions import contradictions_in
from graphs.rag.state import RagState, RagUpdate
from graphs.text.normalize import normalize
from graphs.text.question_shapes import arithmetic, trivial

log = logging.getLogger(__name__)

_CJK = re.compile(r"[\u3400-\u9fff]")
_BOUNDARY = re.compile(r"(?<=[。！？!?；;])\s*|(?<=[a-z0-9\"')\]]\.)\s+|\n+", re.IGNORECASE)
_CITED = re.compile(r"\[(\d{1,3})\]")
PASSAGE_CHARS = 1200
EXTRACT_PASSAGES = 3


def is_chinese(text: str) -> bool:
    """Whether the question is (mostly) Chinese."""
    return bool(_CJK.search(text))


def no_results_answer(question: str) -> str:
    """The plain statement that nothing relevant was found."""
    if is_chinese(question):
        return "没有在已索引的文档中找到与该问题相关的内容。"
    return "No relevant information was found in the indexed documents."


def split_sentences(text: str) -> list[str]:
    """Split Chinese and English text into sentences."""
    return [s.strip() for s in _BOUNDARY.split(text) if len(s.strip()) > 1]


def _sentence_score(sentence: str, terms: list[str]) -> float:
    norm = normalize(sentence)
    return sum(1.0 for t in terms if t and t in norm) / max(1, len(terms))


def extractive_answer(parsed: ParsedQuery, names: list[str], hits: list[Hit]) -> tuple[str, list[Citation]]:
    """Pick the best-matching sentence of each top passage, each with its citation."""
    terms = list(dict.fromkeys(normalize(t) for t in [*parsed.keywords, *names] if t.strip()))
    parts: list[str] = []
    citations: list[Citation] = []
    for n, hit in enumerate(hits[:EXTRACT_PASSAGES], start=1):
        sentences = split_sentences(hit.text) or [hit.text[:200]]
        best = max(sentences, key=lambda s: (_sentence_score(s, terms), -sentences.index(s)))
        if n > 1 and _sentence_score(best, terms) == 0:
            continue
        parts.append(f"{best}[{n}]")
        citations.append(Citation.of(n, hit))
    lead = "根据检索到的资料：" if is_chinese(parsed.original_query) else "From the retrieved passages: "
    return lead + " ".join(parts), citations


def format_passages(hits: list[Hit]) -> str:
    """Number the passages for the writer prompt."""
    return "\n\n".join(
        f"[{n}] (doc {h.doc_id}) {fenced(h.title)}\n{fenced(h.text[:PASSAGE_CHARS])}" for n, h in enumerate(hits, start=1)
    )


def _bigrams(text: str) -> set[str]:
    norm = re.sub(r"\W+", "", normalize(text))
    return {norm[i : i + 2] for i in range(len(norm) - 1)}


def attribute(answer: str, hits: list[Hit], threshold: float = 0.5) -> str:
    """Add the best-supporting passage number to each uncited sentence that a passage supports."""
    passages = [_bigrams(h.text) for h in hits]
    out = []
    for sentence in split_sentences(answer) or [answer]:
        grams = _bigrams(_CITED.sub("", sentence))
        if not _CITED.search(sentence) and grams:
            support = [len(grams & p) / len(grams) for p in passages]
            best = max(range(len(hits)), key=lambda i: support[i])
            if support[best] >= threshold:
                sentence = re.sub(r"([。！？!?.；;]?)$", rf"[{best + 1}]\1", sentence, count=1)
        out.append(sentence)
    joiner = "" if is_chinese(answer) else " "
    return joiner.join(out)


def cited(answer: str, hits: list[Hit]) -> list[Citation]:
    """The citations an answer actually uses, in order of first use."""
    numbers = dict.fromkeys(int(m) for m in _CITED.findall(answer))
    return [Citation.of(n, hits[n - 1]) for n in numbers if 1 <= n <= len(hits)]


def disagreement(conflicts: list[Contradiction], hits: list[Hit], chinese: bool) -> str:
    """One sentence per disputed fact, each value with the passages that state it."""
    number = {h.id: n for n, h in enumerate(hits, start=1)}
    out = []
    for c in conflicts:
        sides = [f"{''.join(f'[{number[i]}]' for i in claim.hit_ids if i in number)} {claim.value}".strip()
                 for claim in c.claims]
        out.append(f"资料对“{c.fact}”说法不一：{'；'.join(sides)}。" if chinese
                   else f"Sources disagree on {c.fact}: {'; '.join(sides)}.")
    return ("" if chinese else " ").join(out)


def _states_all_sides(answer: str, conflicts: list[Contradiction], hits: list[Hit]) -> bool:
    """Whether an LLM answer names every disputed value and cites a passage for each."""
    number = {h.id: n for n, h in enumerate(hits, start=1)}
    used = {int(m) for m in _CITED.findall(answer)}
    return all(claim.value in answer and any(number.get(i) in used for i in claim.hit_ids)
               for c in conflicts for claim in c.claims)


INCOMPLETE = {"en": "(The search stopped at its budget: this answer may be incomplete.)",
              "zh": "（检索已达到预算上限，答案可能不完整。）"}


def _finish(answer: str, state: RagState, conflicts: list[Contradiction], hits: list[Hit], *,
            llm: bool = False) -> str:
    """Add the disagreement (always to an extractive answer; to an LLM's when it did not state every side)
    and the incompleteness note."""
    chinese = is_chinese(state["question"])
    if conflicts and not (llm and _states_all_sides(answer, conflicts, hits)):
        answer = f"{answer}{'' if chinese else ' '}{disagreement(conflicts, hits, chinese)}"
    if state.get("possibly_incomplete"):
        answer = f"{answer}{'' if chinese else ' '}{INCOMPLETE['zh' if chinese else 'en']}"
    return answer


async def direct_answer(state: RagState, ctx: RagContext) -> RagUpdate:
    """The writer-only team: computed arithmetic, or a reply that needs no documents."""
    question = state["question"]
    if (value := arithmetic(question)) is not None:
        return {"answer": f"{question.strip().rstrip('?？=')} = {value}".replace("  ", " "), "citations": [],
                "answer_mode": "direct", "status": "answered"}
    if ctx.llm is not None:
        messages = [SystemMessage(ctx.prompts.render("write_answer.direct")), HumanMessage(question)]
        try:
            text = await text_call(ctx.llm, messages, ctx.limits.llm_timeout_s)
            return {"answer": text, "citations": [], "answer_mode": "direct", "status": "answered", "llm_calls": 1}
        except LLM_ERRORS as exc:
            log.warning("write_answer: LLM failed (%s); rule-based reply", type(exc).__name__)
            degraded: RagUpdate = {"degraded": ["write_answer"], "llm_calls": 1}
    else:
        degraded = {}
    if trivial(question):
        text = ("你好！我根据已索引的文档回答问题，并给出引用。请问想了解什么？" if is_chinese(question)
                else "Hello! I answer questions from the indexed documents, with citations. What would you like to know?")
        return {"answer": text, "citations": [], "answer_mode": "direct", "status": "answered", **degraded}
    text = ("这个问题需要检索文档才能回答（本次选择了不检索的配置）。" if is_chinese(question)
            else "This question needs a search of the documents; the writer-only team does not search.")
    return {"answer": text, "citations": [], "answer_mode": "none", "status": "no_results", **degraded}


async def write_answer(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Write the answer from the ranked hits, stating any disagreement between them."""
    ctx = runtime.context
    question = state["question"]
    team = state.get("team_config")
    if team is not None and team.name == "writer_only":
        return await direct_answer(state, ctx)
    hits = state.get("ranked", [])
    if not hits:
        return {"answer": no_results_answer(question), "citations": [], "answer_mode": "none", "status": "no_results"}
    names = [c.value for c in state.get("constraints", []) if c.type != "DATE"]
    conflicts = contradictions_in(state, hits)
    found: RagUpdate = {"contradictions": conflicts} if conflicts else {}
    if ctx.llm is not None:
        messages = [
            SystemMessage(ctx.prompts.render("write_answer.system")),
            HumanMessage(ctx.prompts.render("write_answer.user", passages=format_passages(hits), question=question)),
        ]
        if conflicts:
            # the rule stays in the system role; the disputed values (quoted from passages) go in the user turn
            number = {h.id: n for n, h in enumerate(hits, start=1)}
            facts = "\n".join(fenced(f"- {c.fact}: " + "; ".join(
                f"{cl.value} ({', '.join(f'[{number[i]}]' for i in cl.hit_ids if i in number)})" for cl in c.claims))
                for c in conflicts)
            messages.insert(1, SystemMessage(ctx.prompts.render("write_answer.contradictions")))
            messages.append(HumanMessage(f"<disagreements>\n{facts}\n</disagreements>"))
        try:
            answer = await text_call(ctx.llm, messages, ctx.limits.llm_timeout_s)
        except LLM_ERRORS as exc:
            log.warning("write_answer: LLM failed (%s); writing an extractive answer", type(exc).__name__)
            text, citations = extractive_answer(state["parsed"], names, hits)
            text = _finish(text, state, conflicts, hits)
            return {"answer": text, "citations": cited(text, hits) or citations, "answer_mode": "extractive",
                    "status": "answered", "degraded": ["write_answer"], "llm_calls": 1, **found}
        if answer:
            answer = _finish(attribute(answer, hits), state, conflicts, hits, llm=True)
            return {"answer": answer, "citations": cited(answer, hits), "answer_mode": "llm", "status": "answered",
                    "llm_calls": 1, **found}
    text, citations = extractive_answer(state["parsed"], names, hits)
    text = _finish(text, state, conflicts, hits)
    return {"answer": text, "citations": cited(text, hits) or citations, "answer_mode": "extractive",
            "status": "answered", **found}


def summarize(update: RagUpdate) -> str:
    """Describe the answer."""
    return f"{update['answer_mode']} answer with {len(update['citations'])} citation(s); {update['status']}"
