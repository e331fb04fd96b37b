"""What an answer carries besides its text: answerability, citations and the workflow's steps."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from graphs.domain.model import Model
from graphs.domain.retrieval import Hit


class Answerability(Model):
    """Whether the retrieved passages support an answer to the question, checked before writing."""

    decision: Literal["answerable", "not_found"]
    score: float = Field(ge=0.0, le=1.0, description="How likely the passages answer the question: the calibrated "
                         "answerability (a probability fitted on the dev sets), or, where a rule decided, the "
                         "weighted share of the question the best evidence covers.")
    reason: str
    attribute: str | None = Field(default=None, description="The attribute the question asks about (the lexicon's "
                                  "name: stock code, mayor, death toll …), when the lexicon knows it.")
    threshold: float | None = Field(default=None, description="The minAnswerability the score was held to.")
    features: dict[str, float] = Field(default_factory=dict, description="What the score read of the best evidence.")
    decided_by: Literal["rule", "score", "lexicon", "meaning", "answer_check"] = Field(
        default="rule", description="What made the decision: a rule before the score (no passage, a name no "
        "passage mentions, a comparison's sides …), the calibrated score held to the threshold, the bilingual "
        "lexicon (a sentence in the other language that states the asked attribute of the subject with a value "
        "of the asked type: answerable whatever the score, which is then shown but not used), meaning (a sentence in "
        "the other language that alone stands out in meaning among that language's sentences, with a value of the "
        "asked type: likewise), or the check of "
        "an LLM's answer (the LLM found no answer, or no sentence of it was supported).")
    rule: str | None = Field(default=None, description="The named veto that refused whatever the score (one of "
                             "graphs/rag/answer/vetoes.json, where its measured fate is kept), when one did.")


class Citation(Model):
    index: int
    id: str
    doc_id: str
    title: str
    source: str | None = None
    page: int | None = None
    section: str | None = None

    @classmethod
    def of(cls, index: int, hit: Hit) -> Citation:
        """The citation numbered ``index`` of a hit: its chunk, document and where in the file it is."""
        return cls(index=index, id=hit.id, doc_id=hit.doc_id, title=hit.title, source=hit.source, page=hit.page,
                   section=hit.section)

    @property
    def location(self) -> str:
        """``notes/a.pdf, p. 3`` / ``guide.md § Setup > Install``: where a reader finds it ('' when unknown)."""
        where = self.source or ""
        if self.page is not None:
            where = f"{where}, p. {self.page}" if where else f"p. {self.page}"
        if self.section:
            where = f"{where} § {self.section}" if where else f"§ {self.section}"
        return where

    @property
    def passage(self) -> int | None:
        """The cited chunk's place in its document, from one (``notes.txt#1`` is passage 2); None if unknown."""
        number = self.id.rpartition("#")[2]
        return int(number) + 1 if number.isdigit() else None


def passages_told_apart(citations: Sequence[Citation]) -> dict[int, str]:
    """``{index: "passage 2"}`` for each citation whose document and place (page, section) another one shares: two
    chunks of a plain-text file read alike in a reference list ("[1] rules (rules.txt)", "[2] rules (rules.txt)")."""
    shared = Counter((c.doc_id, c.page, c.section) for c in citations)
    return {c.index: f"passage {c.passage}" for c in citations
            if shared[(c.doc_id, c.page, c.section)] > 1 and c.passage is not None}


class WorkflowStep(Model):
    node: str
    started: str
    duration_ms: float
    summary: str
    llm_calls: int = Field(default=0, ge=0, description="LLM calls this step made (tried, failed ones included): 0 "
                           "for write_answer when the answerability gate found the passages lacking the asked "
                           "attribute, so the LLM was not asked.")
