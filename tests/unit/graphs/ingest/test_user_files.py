"""Files as a new user's own tools write them: a PDF laid out in paragraphs (a word processor's or reportlab's
platypus), CSV/TSV tables with units in the headers, Chinese lines broken next to a number."""

from __future__ import annotations

import io

import pytest

from graphs.ingest.formats import parse_file, reflow, table_sentences, with_unit
from graphs.ingest.loaders import SUPPORTED_SUFFIXES, load_file


def platypus_pdf(title: str, paragraphs: list[str], *, meta_title: bool = True, cjk: bool = False) -> bytes:
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

    styles = getSampleStyleSheet()
    body, head = styles["BodyText"], styles["Heading1"]
    if cjk:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.cidfonts import UnicodeCIDFont

        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
        body.fontName = head.fontName = "STSong-Light"
        body.wordWrap = "CJK"
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, title=title if meta_title else "")
    story = [Paragraph(title, head), Spacer(1, 8)]
    for p in paragraphs:
        story += [Paragraph(p, body), Spacer(1, 6)]
    doc.build(story)
    return buffer.getvalue()


LONG = ("The Kestrel K9 kettle boils one litre of water in three minutes and switches itself off when the water "
        "boils; its base is made of brushed steel and the handle stays cool to the touch while it heats.")


def test_pdf_paragraphs_stay_apart_and_the_printed_title_is_no_sentence() -> None:
    pdf = platypus_pdf("Kestrel kettle guide", [LONG, "The K9 is made in Bolton.", "Descale it monthly."])
    [page] = parse_file(pdf, "k.pdf", ".pdf").sections
    paragraphs = page.text.split("\n\n")
    assert paragraphs == [LONG, "The K9 is made in Bolton.", "Descale it monthly."]  # wrapped lines joined back


def test_pdf_title_line_without_metadata_is_its_own_paragraph() -> None:
    pdf = platypus_pdf("Orchid sensors", ["The S2 sensor weighs 40 grams.", "It is made in Porto."], meta_title=False)
    [page] = parse_file(pdf, "o.pdf", ".pdf").sections
    assert page.text.split("\n\n")[:2] == ["Orchid sensors", "The S2 sensor weighs 40 grams."]


def test_chinese_pdf_articles_stay_apart_and_a_number_broken_from_its_unit_joins() -> None:
    clause = "第二条 住宿标准：一线城市每晚不超过620元，二线城市每晚不超过470元，其他城市每晚不超过360元，超出部分自理。"
    pdf = platypus_pdf("报销办法", ["第一条 本办法适用于全体员工。", clause], cjk=True)
    [page] = parse_file(pdf, "z.pdf", ".pdf").sections
    assert page.text.split("\n\n") == ["第一条 本办法适用于全体员工。", clause]
    assert reflow("不超过350\n元。") == "不超过350元。" and reflow("共有\n24支乐队") == "共有24支乐队"


@pytest.mark.parametrize(("head", "cell", "expected"), [
    ("Price (USD)", "1,299", ("Price", "1,299 USD")),
    ("交货周期（天）", "10", ("交货周期", "10天")),
    ("Share [%]", "12.5", ("Share", "12.5%")),
    ("Weight (kg)", "about 4", ("Weight (kg)", "about 4")),  # not a bare number: left alone
    ("Model (2024)", "7", ("Model (2024)", "7")),  # a year in brackets is no unit
])
def test_a_header_unit_goes_onto_a_bare_number(head: str, cell: str, expected: tuple[str, str]) -> None:
    assert with_unit(head, cell) == expected


def test_table_rows_keep_the_unit_of_their_column() -> None:
    rows = [["Model", "Battery life (hours)", "Lead time"], ["Pika P1", "9", "3 weeks"]]
    assert table_sentences(rows, header=True) == ["Battery life — Pika P1: 9 hours", "Lead time — Pika P1: 3 weeks"]


def test_csv_and_tsv_are_documents_of_row_sentences() -> None:
    assert ".csv" in SUPPORTED_SUFFIXES and ".tsv" in SUPPORTED_SUFFIXES
    csv_data = "型号,售价（元）,续航\nLumo L2,499,6小时\nLumo L4,799,9小时\n".encode()
    [doc] = load_file(csv_data, "prices/灯具.csv", doc_id="prices/灯具.csv", source="prices/灯具.csv")
    assert doc.id == "prices/灯具.csv" and doc.title == "灯具"
    assert doc.text.split("\n") == ["售价 — Lumo L2: 499元", "续航 — Lumo L2: 6小时",
                                    "售价 — Lumo L4: 799元", "续航 — Lumo L4: 9小时"]
    tsv = parse_file(b"city\tdays\nOslo\t4\n", "t.tsv", ".tsv")
    assert tsv.sections[0].text == "days — Oslo: 4"


def test_a_csv_without_a_header_row_keeps_its_cells_together() -> None:
    parsed = parse_file(b"2021,Oslo,4\n2022,Bergen,5\n", "n.csv", ".csv")
    assert parsed.sections[0].text == "2021 | Oslo | 4\n2022 | Bergen | 5"


def test_a_semicolon_csv_in_gbk_is_read() -> None:
    rows = [("不锈钢螺丝", 120), ("橡胶垫片", 80), ("铜质螺母", 45), ("弹簧垫圈", 300), ("膨胀螺栓", 60)]
    data = ("物料名称;库存数量\n" + "".join(f"{n};{k}\n" for n, k in rows)).encode("gb18030")  # Excel's CSV on Chinese Windows
    assert parse_file(data, "g.csv", ".csv").sections[0].text.split("\n") == [f"库存数量 — {n}: {k}" for n, k in rows]


def test_a_title_taken_from_the_file_name_reads_underscores_as_spaces() -> None:
    # a plain-text file states no title: its name does, as a user writes it ("the harlow kettle manual")
    doc = load_file(b"Descale every 90 days.", "manuals/harlow_kx-20_manual.txt", doc_id="m",
                    source="manuals/harlow_kx-20_manual.txt")[0]
    assert doc.title == "harlow kx-20 manual"
    assert load_file(b"x", "_.txt", doc_id="u", source="_.txt")[0].title == "_"
