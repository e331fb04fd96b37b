"""What an answer carries besides its text: answerability, citations and the workflow's steps."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphs.domain.model import Model
from graphs.domain.retrieval import Hit


class Answerability(Model):
    """Whether the retrieved passages support an answer to the question, checked before writing."""

    decision: Literal["answerable", "not_found"]
    score: float = Field(ge=0.0, le=1.0, description="Weighted share of the question the best evidence covers.")
    reason: str


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


class WorkflowStep(Model):
    node: str
    started: str
    duration_ms: float
    summary: str
