"""What the own-material generators (``tests/data/newuser*/make_files.py`` and ``gen_questions.py``) share: the
writers of files the way a user's own tools make them (a PDF with reportlab, a DOCX with python-docx, a CSV, UTF-8
text) and the writer of a set's ``questions.jsonl`` with its split fixed up front.

Each generator runs as a script from the repository root (``.venv/bin/python tests/data/newuser3/make_files.py``);
``sys.path`` there holds the script's folder, so a generator puts the repository root on it before importing this
module (``tests/data/newuser*/`` do: ``sys.path.insert(0, str(Path(__file__).resolve().parents[3]))``)."""

from __future__ import annotations

import csv
import json
from collections.abc import Collection, Hashable, Sequence
from pathlib import Path
from typing import Any

FIXED_TIME = (2026, 1, 2, 3, 4, 5)  # the time a ``stable`` PDF or DOCX says it was written


def pdf(path: Path, title: str, paragraphs: list[str], *, cjk: bool = False, stable: bool = False) -> None:
    """A one-column A4 PDF: the title as a heading, then one paragraph each (``cjk``: a CID font that draws Chinese,
    wrapped as CJK; ``stable``: reportlab's invariant mode, the same bytes on every run)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    body, head = styles["BodyText"], styles["Heading1"]
    if cjk:
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
        body.fontName = head.fontName = "STSong-Light"
        body.wordWrap = "CJK"
    doc = SimpleDocTemplate(str(path), pagesize=A4, title=title, invariant=1 if stable else None)
    story = [Paragraph(title, head), Spacer(1, 8)]
    for p in paragraphs:
        story += [Paragraph(p, body), Spacer(1, 6)]
    doc.build(story)


def docx(path: Path, title: str, blocks: Sequence[tuple[str, str | Sequence[Sequence[str]]]], *,
         stable: bool = False) -> None:
    """A DOCX: the title as a level-1 heading, then blocks (``("h", text)``: a level-2 heading; ``("t", rows)``: a
    Word table, its first row the header as a user types it; else a paragraph). ``stable``: the properties' times
    and the zip members' times fixed, the same bytes on every run."""
    import datetime
    import io
    import zipfile

    from docx import Document

    d = Document()
    d.core_properties.title = title
    if stable:
        when = datetime.datetime(*FIXED_TIME)
        d.core_properties.created = d.core_properties.modified = d.core_properties.last_printed = when
    d.add_heading(title, level=1)
    for kind, content in blocks:
        if kind == "t":
            rows = [list(r) for r in content]
            table = d.add_table(rows=len(rows), cols=max(len(r) for r in rows))
            for cells, values in zip(table.rows, rows, strict=True):
                for cell, value in zip(cells.cells, values, strict=False):
                    cell.text = value
        elif kind == "h":
            d.add_heading(str(content), level=2)
        else:
            d.add_paragraph(str(content))
    if not stable:
        d.save(str(path))
        return
    buf = io.BytesIO()
    d.save(buf)
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            out.writestr(zipfile.ZipInfo(item.filename, date_time=FIXED_TIME), src.read(item.filename),
                         compress_type=zipfile.ZIP_DEFLATED)


def csv_file(path: Path, rows: Sequence[Sequence[str]], *, encoding: str = "utf-8") -> None:
    """A CSV (the csv module's dialect: CRLF line ends), the first row its header; ``encoding`` as the user's tool
    saves it (``utf-8-sig``: Excel's "CSV UTF-8" with a byte-order mark; ``gbk``: Excel's CSV on a Chinese Windows)."""
    with open(path, "w", encoding=encoding, newline="") as f:
        csv.writer(f).writerows(rows)


def markdown_page(path: Path, title: str, text: str) -> None:
    """A one-section Markdown file: ``# title``, a blank line, the text (UTF-8, one trailing newline)."""
    path.write_text(f"# {title}\n\n{text}\n", encoding="utf-8")


def alternate_splits(keys: Sequence[Hashable]) -> list[str]:
    """The split of each question, fixed before any run: among the questions of one key (a category, or a
    category and a language) they alternate dev, held, dev, ... in the order listed."""
    seen: dict[Hashable, int] = {}
    splits = []
    for key in keys:
        n = seen.get(key, 0)
        seen[key] = n + 1
        splits.append("dev" if n % 2 == 0 else "held")
    return splits


def write_jsonl(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """One JSON object a line, UTF-8 unescaped, a newline after the last."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def write_questions(folder: Path, prefix: str, questions: Sequence[tuple[Any, ...]], *,
                    held: Collection[str] | None = None) -> int:
    """Write ``folder/questions.jsonl`` from ``(category, question, answers, files[, category shown])`` tuples:
    ids ``<prefix>01``…, ``answers`` empty = not found, and within each category the questions alternate dev,
    held, dev, ... in the order listed (the split is fixed here, before any run). A fifth element relabels the
    question's category and keeps its place in the split of the category it is listed under. ``held``: the ids
    held aside instead (the others dev), for a set that holds back less than half."""
    ids = [f"{prefix}{i:02d}" for i in range(1, len(questions) + 1)]
    if held is not None and not set(held) <= set(ids):
        raise ValueError(f"held ids not among the questions: {sorted(set(held) - set(ids))}")
    splits = (alternate_splits([q[0] for q in questions]) if held is None
              else ["held" if i in held else "dev" for i in ids])
    rows = [{"id": f"{prefix}{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": files,
             "category": relabel[0] if relabel else cat, "split": split}
            for i, ((cat, q, answers, files, *relabel), split) in enumerate(zip(questions, splits, strict=True),
                                                                             start=1)]
    write_jsonl(folder / "questions.jsonl", rows)
    print(len(rows), "questions")
    return len(rows)
