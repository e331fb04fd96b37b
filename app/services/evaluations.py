"""The ``aer eval`` reports in the results folder, read as the page shows them (the evaluations route and the
workbench's evaluation jobs read them here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from markdown_it import MarkdownIt

from app.schemas import EvalReport, EvalReports
from app.schemas.base import wire_time
from app.tools.eval_report import render_markdown

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
        modified_at=wire_time(path.stat().st_mtime), markdown=markdown, html=MARKDOWN.render(markdown),
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
    reports.sort(key=lambda r: (r.modified_at, r.dataset), reverse=True)
    return EvalReports(reports=reports, errors=sorted(errors))
