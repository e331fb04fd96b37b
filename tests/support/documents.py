"""Real files for the ingest tests, made here (no network, nothing committed): Markdown, text, HTML, PDF (with
pages, Chinese text, and an encrypted one, by reportlab) and DOCX (with headings, and a corrupt one, by
python-docx)."""

from __future__ import annotations

import io
from pathlib import Path

MARKDOWN = """# Tea Handbook

Tea is the most consumed drink after water.

## Green tea

Green tea leaves are steamed or pan-fired right after picking, so they do not oxidize.
Brew green tea at 80 degrees Celsius for two minutes.

## Black tea

Black tea is fully oxidized. Brew black tea with boiling water for four minutes.
"""

TEXT = """Office hours

The Lisbon office is open from 9 to 17 on weekdays.
Visitors sign in at the front desk on the ground floor.
"""

HTML = """<!doctype html>
<html><head><title>Bicycle Care</title><style>body { color: red }</style></head>
<body><nav>Home | Shop | About</nav>
<h1>Bicycle Care</h1>
<p>A clean chain lasts longer.</p>
<h2>Tyres</h2>
<p>Inflate road tyres to <b>six bar</b> before every long ride.</p>
<table><tr><th>Tyre</th><th>Pressure</th></tr><tr><td>Road</td><td>6 bar</td></tr></table>
<script>console.log("not text")</script>
<footer>Copyright notice</footer>
</body></html>
"""

PDF_PAGES = [
    ["Annual report of the Orchid Company.", "The company was founded in 1998 in Rotterdam."],
    ["Results", "In 2024 the Orchid Company sold forty thousand greenhouse sensors."],
    ["Outlook", "The company plans a second factory in Porto in 2026."],
]


def pdf_bytes(pages: list[list[str]], *, title: str = "", password: str | None = None, font: str | None = None) -> bytes:
    """A PDF with one page per list of lines (``font``: a CID font such as ``STSong-Light`` for Chinese)."""
    from reportlab.lib import pdfencrypt
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    encrypt = pdfencrypt.StandardEncryption(password, canPrint=0) if password else None
    pdf = canvas.Canvas(buffer, encrypt=encrypt)
    if title:
        pdf.setTitle(title)
    if font:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.cidfonts import UnicodeCIDFont

        pdfmetrics.registerFont(UnicodeCIDFont(font))
    for lines in pages:
        if font:
            pdf.setFont(font, 12)
        y = 780
        for line in lines:
            pdf.drawString(72, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def docx_bytes(blocks: list[tuple[int | None, str]], *, title: str = "") -> bytes:
    """A DOCX of ``(heading level or None for a paragraph, text)`` blocks."""
    import docx

    document = docx.Document()
    document.core_properties.title = title
    for level, text in blocks:
        if level is None:
            document.add_paragraph(text)
        else:
            document.add_heading(text, level=level)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


DOCX_BLOCKS: list[tuple[int | None, str]] = [
    (1, "员工手册"),
    (None, "本手册适用于全体员工。"),
    (2, "年假"),
    (None, "每位员工每年享有十五天带薪年假，年假须提前两周申请。"),
    (2, "病假"),
    (None, "病假超过三天需要提供医院证明。"),
]


def write_folder(root: Path) -> dict[str, Path]:
    """A folder of one file per format (and a nested one), plus an encrypted PDF and a corrupt DOCX."""
    (root / "guides").mkdir(parents=True, exist_ok=True)
    files = {
        "md": root / "guides" / "tea.md",
        "txt": root / "office.txt",
        "html": root / "bike.html",
        "pdf": root / "report.pdf",
        "docx": root / "handbook.docx",
        "zh_pdf": root / "beijing.pdf",
    }
    files["md"].write_text(MARKDOWN, encoding="utf-8")
    files["txt"].write_text(TEXT, encoding="utf-8")
    files["html"].write_text(HTML, encoding="utf-8")
    files["pdf"].write_bytes(pdf_bytes(PDF_PAGES, title="Orchid Company Annual Report"))
    files["docx"].write_bytes(docx_bytes(DOCX_BLOCKS))
    files["zh_pdf"].write_bytes(pdf_bytes([["北京是中国的首都。"], ["故宫位于北京市中心，建于明朝永乐年间。"]],
                                          font="STSong-Light"))
    return files


def write_broken(root: Path) -> dict[str, Path]:
    """An encrypted PDF and a corrupt DOCX (a truncated one)."""
    root.mkdir(parents=True, exist_ok=True)
    files = {"encrypted": root / "secret.pdf", "corrupt": root / "broken.docx"}
    files["encrypted"].write_bytes(pdf_bytes([["top secret numbers"]], password="hunter2"))
    files["corrupt"].write_bytes(docx_bytes(DOCX_BLOCKS)[:700])
    return files
