"""write_answer: a grounded answer with numbered citations (LLM, or extractive without one)."""

from __future__ import annotations

import logging
import re

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from graphs.domain import Citation, Hit, ParsedQuery
from graphs.llm import LLM_ERRORS, text_call
from graphs.rag.context import RagContext
from graphs.rag.state import RagState, RagUpdate
from graphs.text.normalize import normalize

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
        citations.append(Citation(index=n, id=hit.id, doc_id=hit.doc_id, title=hit.title))
    lead = "根据检索到的资料：" if is_chinese(parsed.original_query) else "From the retrieved passages: "
    return lead + " ".join(parts), citations


def format_passages(hits: list[Hit]) -> str:
    """Number the passages for the writer prompt."""
    return "\n\n".join(
        f"[{n}] (doc {h.doc_id}) {h.title}\n{h.text[:PASSAGE_CHARS]}" for n, h in enumerate(hits, start=1)
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
    return [
        Citation(index=n, id=hits[n - 1].id, doc_id=hits[n - 1].doc_id, title=hits[n - 1].title)
        for n in numbers
        if 1 <= n <= len(hits)
    ]


async def write_answer(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Write the answer from the ranked hits."""
    ctx = runtime.context
    question = state["question"]
    hits = state.get("ranked", [])
    if not hits:
        return {"answer": no_results_answer(question), "citations": [], "answer_mode": "none", "status": "no_results"}
    names = [c.value for c in state.get("constraints", []) if c.type != "DATE"]
    if ctx.llm is not None:
        messages = [
            SystemMessage(ctx.prompts.render("write_answer.system")),
            HumanMessage(ctx.prompts.render("write_answer.user", passages=format_passages(hits), question=question)),
        ]
        try:
            answer = await text_call(ctx.llm, messages, ctx.limits.llm_timeout_s)
        except LLM_ERRORS as exc:
            log.warning("write_answer: LLM failed (%s); writing an extractive answer", type(exc).__name__)
            text, citations = extractive_answer(state["parsed"], names, hits)
            return {"answer": text, "citations": citations, "answer_mode": "extractive", "status": "answered",
                    "degraded": ["write_answer"], "llm_calls": 1}
        if answer:
            answer = attribute(answer, hits)
            return {"answer": answer, "citations": cited(answer, hits), "answer_mode": "llm", "status": "answered",
                    "llm_calls": 1}
    text, citations = extractive_answer(state["parsed"], names, hits)
    return {"answer": text, "citations": citations, "answer_mode": "extractive", "status": "answered"}


def summarize(update: RagUpdate) -> str:
    """Describe the answer."""
    return f"{update['answer_mode']} answer with {len(update['citations'])} citation(s); {update['status']}"
