"""Evaluations: the ``aer eval`` reports, and an evaluation run from the page."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from app.schemas.base import (
    WIRE_TIME,
    Wire,
)


class EvalReport(Wire):
    """One ``aer eval`` report (eval-<dataset>.json and .md) as the page shows it."""

    dataset: str
    created: str | None = Field(default=None, description="When the eval ran (from the report).")
    modified_at: str = Field(description=f"The report file's modification time ({WIRE_TIME}).")
    markdown: str = Field(description="The Markdown report (eval-<dataset>.md; rendered from the JSON if absent).")
    html: str = Field(description="The Markdown report as HTML (tables; raw HTML in it is escaped).")
    chart: bool = Field(description="Whether eval-<dataset>.png exists (GET …/evaluations/{dataset}/chart).")
    report: dict[str, Any] = Field(description="The JSON report as written by `aer eval`.")


class EvalReports(Wire):
    success: Literal[True] = True
    reports: list[EvalReport] = Field(description="The latest report of each dataset, newest first.")
    errors: list[str] = Field(default_factory=list, description="Report files that could not be read, and why.")




class EvalJob(Wire):
    """An evaluation run from the page: the uploaded questions asked of the indexed documents."""

    success: Literal[True] = True
    id: str
    dataset: str = Field(description="The report's name (eval-<dataset>.json in the results folder).")
    status: Literal["queued", "running", "done", "failed"]
    modes: list[str]
    questions: int
    done: int = Field(description="Questions asked so far (over every mode).")
    total: int = Field(description="Questions to ask in all (questions × modes).")
    error: str | None = None
    report: EvalReport | None = Field(default=None, description="The report, once done.")
