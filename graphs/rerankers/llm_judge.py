"""An LLM judges the relevance of the top hits: one ranking call (listwise) or one call per passage (pointwise)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from graphs.domain import Constraint, Hit, ParsedQuery
from graphs.llm import LLM_ERRORS, structured_call
from graphs.prompts import PromptLibrary
from graphs.rerankers.base import RerankerUnavailable, RerankResult, ScoredHit, order

log = logging.getLogger(__name__)

JudgeMode = Literal["pointwise", "listwise"]
PASSAGE_CHARS = 1200
REASON_CHARS = 300
# A passage must not be able to close its own fence and speak outside it.
_FENCE = re.compile(r"<\s*/?\s*passage", re.IGNORECASE)


class PassageJudgment(BaseModel):
    passage: int = Field(description="The passage id, exactly as given.")
    relevance: float = Field(ge=0.0, le=1.0, description="How relevant the passage is to the question, 0 to 1.")
    reason: str = Field(description="One sentence naming the fact that decided the relevance.")


class RerankJudgment(BaseModel):
    """The judge's ranking of the passages, most relevant first."""

    ranking: list[PassageJudgment] = Field(description="Every passage exactly once, most relevant first.")


class RelevanceJudgment(BaseModel):
    """The judge's relevance of one passage."""

    relevance: float = Field(ge=0.0, le=1.0, description="How relevant the passage is to the question, 0 to 1.")
    reason: str = Field(description="One sentence naming the fact that decided the relevance.")


def format_passage(number: int, hit: Hit, chars: int = PASSAGE_CHARS) -> str:
    """Fence one passage as data, numbered from 1."""
    title = _FENCE.sub("‹passage", hit.title.strip())
    text = _FENCE.sub("‹passage", hit.text[:chars].strip())
    head = f"Title: {title}\n" if title else ""
    return f'<passage id="{number}">\n{head}{text}\n</passage>'


def describe_entities(constraints: Sequence[Constraint]) -> str:
    """The question's entities for the judge, negations marked."""
    return ", ".join(f"{'not ' if c.negated else ''}{c.value} ({c.type})" for c in constraints) or "none stated"


def _reason(text: str) -> str:
    return " ".join(text.split())[:REASON_CHARS] or "no reason given"


def read_ranking(judgment: RerankJudgment, count: int) -> dict[int, tuple[int, float, str]]:
    """Map 0-based passage index -> (rank position, relevance, reason); unknown ids and repeats are ignored."""
    kept: dict[int, tuple[int, float, str]] = {}
    ignored = 0
    for item in judgment.ranking:
        index = item.passage - 1
        if not 0 <= index < count or index in kept:
            ignored += 1
            continue
        kept[index] = (len(kept), item.relevance, _reason(item.reason))
    if ignored:
        log.warning("llm judge: ignored %d ranking entr(y/ies) naming unknown or repeated passages", ignored)
    return kept


class LLMJudgeReranker:
    """Asks the LLM how relevant each of the top ``top_n`` hits is; the rest follow in their search order."""

    def __init__(
        self,
        llm: BaseChatModel,
        prompts: PromptLibrary,
        mode: JudgeMode = "listwise",
        top_n: int = 8,
        timeout_s: float = 60.0,
        *,
        concurrency: int = 4,
        passage_chars: int = PASSAGE_CHARS,
        llm_name: str | None = None,
    ) -> None:
        if mode not in ("pointwise", "listwise"):
            raise ValueError(f"unknown judge mode {mode!r}")
        self.llm = llm
        self.prompts = prompts
        self.mode: JudgeMode = mode
        self.top_n = max(1, top_n)
        self.timeout_s = timeout_s
        self.concurrency = max(1, concurrency)
        self.passage_chars = passage_chars
        self.name = f"llm-judge:{mode}" + (f":{llm_name}" if llm_name else "")

    def messages(self, parsed: ParsedQuery, constraints: Sequence[Constraint], passages: str) -> list[BaseMessage]:
        """The judge's prompt for the given fenced passages."""
        user = self.prompts.render(
            "rerank_judge.user",
            question=parsed.original_query,
            entities=describe_entities(constraints),
            passages=passages,
        )
        return [SystemMessage(self.prompts.render("rerank_judge.system")), HumanMessage(user)]

    def _unavailable(self, exc: BaseException, calls: int) -> RerankerUnavailable:
        return RerankerUnavailable(self.name, f"{type(exc).__name__}: {exc}"[:REASON_CHARS], llm_calls=calls)

    async def _listwise(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], head: Sequence[Hit]
    ) -> list[ScoredHit]:
        passages = "\n\n".join(format_passage(n, h, self.passage_chars) for n, h in enumerate(head, start=1))
        try:
            judgment = await structured_call(
                self.llm, RerankJudgment, self.messages(parsed, constraints, passages), self.timeout_s
            )
        except LLM_ERRORS as exc:
            raise self._unavailable(exc, 1) from exc
        ranked = read_ranking(judgment, len(head))
        if not ranked:
            raise RerankerUnavailable(self.name, f"the judge ranked none of the {len(head)} passages", llm_calls=1)
        scored = []
        for i, h in enumerate(head):
            if i in ranked:
                position, relevance, reason = ranked[i]
                why = f"{self.name}: relevance {relevance:.2f}, ranked {position + 1} of {len(head)}: {reason}"
                scored.append(ScoredHit(h, relevance, why, (0, position)))
            else:
                why = f"{self.name}: left out of the judge's ranking (treated as irrelevant)"
                scored.append(ScoredHit(h, 0.0, why, (1, i)))
        return scored

    async def _pointwise(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], head: Sequence[Hit]
    ) -> list[ScoredHit]:
        semaphore = asyncio.Semaphore(self.concurrency)

        async def judge(h: Hit) -> RelevanceJudgment:
            async with semaphore:
                messages = self.messages(parsed, constraints, format_passage(1, h, self.passage_chars))
                return await structured_call(self.llm, RelevanceJudgment, messages, self.timeout_s)

        results = await asyncio.gather(*(judge(h) for h in head), return_exceptions=True)
        for r in results:
            if isinstance(r, LLM_ERRORS):
                raise self._unavailable(r, len(head)) from r
            if isinstance(r, BaseException):
                raise r
        return [
            ScoredHit(h, r.relevance, f"{self.name}: relevance {r.relevance:.2f}: {_reason(r.reason)}")
            for h, r in zip(head, results, strict=True)
            if isinstance(r, RelevanceJudgment)
        ]

    async def rerank_counted(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> RerankResult:
        """Judge the top ``top_n`` hits, keep the best ``top_k``, and count the LLM calls."""
        if not hits or top_k <= 0:
            return RerankResult([], 0)
        head, tail = hits[: self.top_n], hits[self.top_n :]
        if self.mode == "listwise":
            scored, calls = await self._listwise(parsed, constraints, head), 1
        else:
            scored, calls = await self._pointwise(parsed, constraints, head), len(head)
        why = f"{self.name}: not judged (beyond the top {self.top_n}); search order kept"
        scored += [ScoredHit(h, None, why) for h in tail]
        return RerankResult(order(scored, top_k), calls)

    async def rerank(
        self, parsed: ParsedQuery, constraints: Sequence[Constraint], hits: Sequence[Hit], top_k: int
    ) -> list[Hit]:
        """Judge the top hits and keep the best ``top_k``."""
        return (await self.rerank_counted(parsed, constraints, hits, top_k)).hits
