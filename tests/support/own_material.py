"""What the own-material generators (``tests/data/newuser*/make_files.py`` and ``gen_questions.py``) share: the
writers of files the way a user's own tools make them (a PDF with reportlab, a DOCX with python-docx, a CSV, UTF-8
text) and the writer of a set's ``questions.jsonl`` with its split fixed up front.

Each generator runs as a script from the repository root (``.venv/bin/python tests/data/newuser3/make_files.py``);
``sys.path`` there holds the script's folder, so a generator puts the repository root on it before importing this
module (``tests/data/newuser*/`` do: ``sys.path.insert(0, str(Path(__file__).resolve().parents[3]))``)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def pdf(path: Path, title: str, paragraphs: list[str], *, cjk: bool = False) -> None:
    """A one-column A4 PDF: the title as a heading, then one paragraph each (``cjk``: a CID font that draws Chinese,
    wrapped as CJK)."""
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
    doc = SimpleDocTemplate(str(path), pagesize=A4, title=title)
    story = [Paragraph(title, head), Spacer(1, 8)]
    for p in paragraphs:
        story += [Paragraph(p, body), Spacer(1, 6)]
    doc.build(story)


def docx(path: Path, title: str, blocks: list[tuple[str, str]]) -> None:
    """A DOCX: the title as a level-1 heading, then blocks (``("h", text)``: a level-2 heading; else a paragraph)."""
    from docx import Document

    d = Document()
    d.core_properties.title = title
    d.add_heading(title, level=1)
    for kind, text in blocks:
        if kind == "h":
            d.add_heading(text, level=2)
        else:
            d.add_paragraph(text)
    d.save(str(path))


def csv_file(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """A UTF-8 CSV (the csv module's dialect: CRLF line ends), the first row its header."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)


def write_questions(folder: Path, prefix: str, questions: Sequence[tuple[Any, ...]]) -> int:
    """Write ``folder/questions.jsonl`` from ``(category, question, answers, files[, category shown])`` tuples:
    ids ``<prefix>01``…, ``answers`` empty = not found, and within each category the questions alternate dev,
    held, dev, ... in the order listed (the split is fixed here, before any run). A fifth element relabels the
    question's category and keeps its place in the split of the category it is listed under."""
    seen: dict[str, int] = {}
    lines = []
    for i, (cat, q, answers, files, *relabel) in enumerate(questions, start=1):
        n = seen.get(cat, 0)
        seen[cat] = n + 1
        split = "dev" if n % 2 == 0 else "held"
        lines.append(json.dumps({"id": f"{prefix}{i:02d}", "question": q, "answers": answers,
                                 "notFound": not answers, "files": files,
                                 "category": relabel[0] if relabel else cat, "split": split},
                                ensure_ascii=False))
    (folder / "questions.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(len(lines), "questions")
    return len(lines)
