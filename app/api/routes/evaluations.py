"""``GET /api/adaptive-entity-rag/evaluations``: the latest ``aer eval`` reports in ``AER_EVAL_RESULTS_DIR``
(read-only), and each report's chart."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from markdown_it import MarkdownIt

from app.api.deps import resources_of
from app.api.errors import ApiError
from app.schemas import API_PATH, EvalReport, EvalReports
from app.tools.eval_report import render_markdown

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])
REPORT = re.compile(r"^eval-(?P<dataset>.+)\.json$")
# Raw HTML in a report is escaped (html=False); tables are on, as the reports are mostly tables.
MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def report_files(folder: Path) -> dict[str, Path]:
    """Dataset name -> its eval-<dataset>.json in ``folder`` (none when the folder does not exist)."""
    if not folder.is_dir():
        return {}
    return {m["dataset"]: p for p in folder.iterdir() if p.is_file() and (m := REPORT.match(p.name))}


def read_report(dataset: str, path: Path) -> EvalReport:
    """One report as the page shows it; ValueError (with the reason) when it cannot be read."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        md_path = path.with_suffix(".md")
        markdown = md_path.read_text(encoding="utf-8") if md_path.is_file() else render_markdown(report)
    except OSError as exc:  # its text carries the server's full path: the file's name and the reason only
        raise ValueError(f"{path.name}: {type(exc).__name__}: {exc.strerror or 'cannot be read'}") from exc
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"{path.name}: {type(exc).__name__}: {exc}") from exc
    if not isinstance(report, dict):
        raise ValueError(f"{path.name}: not a JSON object")
    created = report.get("created")
    return EvalReport(
        dataset=dataset, created=created if isinstance(created, str) else None,
        modified_at=path.stat().st_mtime, markdown=markdown, html=MARKDOWN.render(markdown),
        chart=path.with_suffix(".png").is_file(), report=report,
    )


def read_reports(folder: Path) -> EvalReports:
    """Every readable report in ``folder``, newest first, and why the others could not be read."""
    reports, errors = [], []
    for dataset, path in report_files(folder).items():
        try:
            reports.append(read_report(dataset, path))
        except ValueError as exc:
            errors.append(str(exc))
    reports.sort(key=lambda r: r.modified_at, reverse=True)
    return EvalReports(reports=reports, errors=sorted(errors))


@router.get("/evaluations")
async def evaluations(request: Request) -> EvalReports:
    """The latest ``aer eval`` report of each dataset (tables, notes, whether a chart exists)."""
    folder = resources_of(request).settings.eval_results_dir
    return await asyncio.to_thread(read_reports, folder)


@router.get(
    "/evaluations/{dataset}/chart",
    response_class=FileResponse,
    responses={200: {"content": {"image/png": {}}, "description": "The report's bar chart (PNG)."}},
)
async def evaluation_chart(request: Request, dataset: str) -> FileResponse:
    """The bar chart of a dataset's report; 404 when there is no such report or it has no chart."""
    folder = resources_of(request).settings.eval_results_dir
    # Only names found in the folder are served: a dataset is never joined into a path.
    path = (await asyncio.to_thread(report_files, folder)).get(dataset)
    chart = path.with_suffix(".png") if path is not None else None
    if chart is None or not chart.is_file():
        raise ApiError(404, "not_found", f"no chart for an evaluation named {dataset!r}")
    return FileResponse(chart, media_type="image/png")
