"""File formats: text and structure out of real Markdown, text, HTML, PDF and DOCX files (made by the tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import DocumentSection
from graphs.ingest.formats import FileParseError, clean_text, parse_file, reflow
from graphs.ingest.loaders import FileSpec, discover, load_file, load_files, without_title
from tests.support.documents import (
    DOCX_BLOCKS,
    HTML,
    MARKDOWN,
    PDF_PAGES,
    docx_bytes,
    pdf_bytes,
    write_broken,
    write_folder,
)


def sections(parsed_sections: list[DocumentSection]) -> list[tuple[str | None, int | None, str]]:
    return [(s.section, s.page, s.text) for s in parsed_sections]


def test_markdown_headings_are_sections_and_the_first_h1_is_the_title() -> None:
    parsed = parse_file(MARKDOWN.encode(), "tea.md", ".md")
    assert parsed.title == "Tea Handbook"
    assert [(s, p) for s, p, _ in sections(parsed.sections)] == [
        ("Tea Handbook", None), ("Tea Handbook > Green tea", None), ("Tea Handbook > Black tea", None)]
    assert "80 degrees Celsius" in parsed.sections[1].text and "Black tea" not in parsed.sections[1].text


def test_markdown_front_matter_title_tables_and_code() -> None:
    source = "---\ntitle: Setup notes\n---\n# Install\n\nRun `pip install x`.\n\n| k | v |\n|---|---|\n| a | 1 |\n\n```\ncode here\n```\n"
    parsed = parse_file(source.encode(), "n.md", ".md")
    assert parsed.title == "Setup notes"
    [(section, _, text)] = sections(parsed.sections)
    assert section == "Install" and text == "Run pip install x.\n\nv — a: 1\n\ncode here"


def test_html_sections_without_scripts_navigation_or_footers() -> None:
    parsed = parse_file(HTML.encode(), "bike.html", ".html")
    assert parsed.title == "Bicycle Care"
    assert sections(parsed.sections) == [
        ("Bicycle Care", None, "A clean chain lasts longer."),
        ("Bicycle Care > Tyres", None, "Inflate road tyres to six bar before every long ride.\n\nPressure — Road: 6 bar"),
    ]


CARDS = """<html><head><title>Film club, March</title></head><body>
<nav><a href="/">Home</a></nav>
<h1>Film club programme</h1>
<p>All screenings start at 19:30 in the Lantern Room. Members 6, guests 9.</p>
<table><tr><th>Film</th><th>Runtime</th></tr><tr><td>Low Tide</td><td>101 min</td></tr>
<tr><td>雨夜列车</td><td>94分钟</td></tr></table>
<article><h2>Low Tide</h2><p>A ferry captain's last summer on the estuary.</p></article>
<article><h2>雨夜列车</h2><p>一列夜车上的七个陌生人。导演：周晴。</p></article>
<p>The restored print of Low Tide was lent by the county archive.</p>
<footer>© the club</footer></body></html>"""

STORY = """<html><head><title>Harbour news</title></head><body>
<nav><a href="/">Home</a> <a href="/sport">Sport</a></nav>
<div class="promo">Subscribe for 1 a week.</div>
<article><h1>Ferry runs aground</h1><p>The morning ferry ran aground on the sandbar at 07:52 on Tuesday.
All 41 passengers were taken off by the lifeboat crew within the hour; nobody was hurt.</p>
<p>The harbour master said the channel had silted after the storm and would be dredged next week.</p></article>
<footer>© Harbour news</footer></body></html>"""


def test_a_page_of_several_article_cards_is_read_whole() -> None:
    """A page of several ``<article>`` cards (a programme's films) was read as its first card alone: its table,
    its other cards and the text around them were lost."""
    text = "\n".join(s.text for s in parse_file(CARDS.encode(), "films.html", ".html").sections)
    for said in ("19:30", "Runtime — Low Tide: 101 min", "94分钟", "七个陌生人", "ferry captain", "county archive"):
        assert said in text, said
    assert "Home" not in text and "© the club" not in text


def test_a_lone_article_holding_the_story_is_read_without_the_page_furniture() -> None:
    text = "\n".join(s.text for s in parse_file(STORY.encode(), "ferry.html", ".html").sections)
    assert "07:52" in text and "dredged next week" in text
    assert "Subscribe" not in text


def test_pdf_pages_are_sections_with_their_numbers_and_the_metadata_title() -> None:
    parsed = parse_file(pdf_bytes(PDF_PAGES, title="Orchid Report"), "r.pdf", ".pdf")
    assert parsed.title == "Orchid Report"
    assert [(s.page, s.text) for s in parsed.sections] == [
        (1, "Annual report of the Orchid Company. The company was founded in 1998 in Rotterdam."),
        (2, "Results In 2024 the Orchid Company sold forty thousand greenhouse sensors."),
        (3, "Outlook The company plans a second factory in Porto in 2026."),
    ]


def test_a_chinese_pdf_keeps_its_text() -> None:
    parsed = parse_file(pdf_bytes([["北京是中国的首都。"]], font="STSong-Light"), "zh.pdf", ".pdf")
    assert parsed.sections[0].text == "北京是中国的首都。"


def test_an_encrypted_pdf_is_refused_by_name() -> None:
    with pytest.raises(FileParseError) as info:
        parse_file(pdf_bytes([["secret"]], password="pw"), "secret.pdf", ".pdf")
    assert info.value.code == "encrypted_file" and "secret.pdf" in str(info.value)


@pytest.mark.parametrize("data", [b"%PDF-1.4 garbage", b"not a pdf at all", pdf_bytes(PDF_PAGES)[:300]])
def test_a_damaged_pdf_is_corrupt(data: bytes) -> None:
    with pytest.raises(FileParseError) as info:
        parse_file(data, "bad.pdf", ".pdf")
    assert info.value.code in ("corrupt_file", "empty_document")


def test_docx_headings_are_sections_and_tables_are_rows() -> None:
    parsed = parse_file(docx_bytes(DOCX_BLOCKS), "h.docx", ".docx")
    assert parsed.title == "员工手册"
    assert [(s, t) for s, _, t in sections(parsed.sections)] == [
        ("员工手册", "本手册适用于全体员工。"),
        ("员工手册 > 年假", "每位员工每年享有十五天带薪年假，年假须提前两周申请。"),
        ("员工手册 > 病假", "病假超过三天需要提供医院证明。"),
    ]
    assert parse_file(docx_bytes(DOCX_BLOCKS, title="Handbook 2025"), "h.docx", ".docx").title == "Handbook 2025"


@pytest.mark.parametrize("data", [docx_bytes(DOCX_BLOCKS)[:700], b"PK\x03\x04 broken zip", b"plain text"])
def test_a_corrupt_docx_is_refused_by_name(data: bytes) -> None:
    with pytest.raises(FileParseError) as info:
        parse_file(data, "broken.docx", ".docx")
    assert info.value.code == "corrupt_file" and "broken.docx" in str(info.value)


def test_text_in_another_encoding_is_decoded() -> None:
    text = "北京是中华人民共和国的首都，也是全国的政治和文化中心。" * 3
    assert parse_file(text.encode("gb18030"), "zh.txt", ".txt").sections[0].text == text


@pytest.mark.parametrize("text", ["Café crème brûlée costs 40 kronor.", "Le garçon a mangé une crêpe à Noël.",
                                  "Señor Núñez está en España.", "Smörgåsbord för två, tack.",
                                  "Ça coûte 5 € — «très» cher!"])
def test_short_western_text_in_a_legacy_encoding_is_not_read_as_another_code_page(text: str) -> None:
    """Latin-1 / Windows-1252 text fits cp1250 equally well; it must not come back as 'crčme' or 'Seńor'."""
    encoding = "cp1252" if "€" in text or "«" in text else "latin-1"
    assert parse_file(text.encode(encoding), "note.txt", ".txt").sections[0].text == text


@pytest.mark.parametrize(("text", "encoding"), [
    ("麦穗坊的电话是123。", "gbk"), ("会费由35欧元调整为40欧元。", "gbk"), ("酸面包每个28元。", "gb18030"),
    ("麥穗坊的電話是123。", "big5"), ("會費由35歐元調整為40歐元。", "big5"),
    ("안녕하세요 반갑습니다. 오늘 날씨가 좋네요.", "cp949"), ("東京は日本の首都です。", "shift_jis"),
])
def test_a_short_cjk_text_is_not_read_as_another_scripts_mojibake(text: str, encoding: str) -> None:
    """A short GBK or Big5 file fits CP949, johab or UTF-16 as well: it must not come back as Hangul syllables
    mixed with Han ("찝乾렌돨든"); a Korean or Japanese one keeps its own script."""
    assert parse_file(text.encode(encoding), "note.txt", ".txt").sections[0].text == text


@pytest.mark.parametrize("text", ["日期,金额\n3月,120\n", "合计,272\n", "肥料,上午\n", "割草机,976\n",
                                  "星期,安排\n周三,浇水\n"])
def test_a_short_gbk_table_is_not_read_as_big5(text: str) -> None:
    """Excel's CSV on a Chinese Windows is GBK; a short one fits Big5 as well, as pure Han (or Han and kana):
    "日期,金额" came back as "゜ヽ,踢塗" and "合计" as "磁數". The commonly written characters win, then GBK."""
    assert parse_file(text.encode("gbk"), "table.csv", ".txt").sections[0].text == text.strip()


@pytest.mark.parametrize(("text", "encoding"), [("Привет, как дела? Москва.", "cp1251"),
                                                ("Zażółć gęślą jaźń w Łodzi.", "cp1250")])
def test_a_better_fitting_code_page_still_wins(text: str, encoding: str) -> None:
    assert parse_file(text.encode(encoding), "note.txt", ".txt").sections[0].text == text



@pytest.mark.parametrize(("data", "code"), [(b"\x00\x01\x02binary", "unreadable_text"), (b"  \n\n ", "empty_document")])
def test_unreadable_or_empty_text(data: bytes, code: str) -> None:
    with pytest.raises(FileParseError) as info:
        parse_file(data, "x.txt", ".txt")
    assert info.value.code == code


def test_an_unsupported_type_is_refused() -> None:
    with pytest.raises(FileParseError) as info:
        parse_file(b"x", "x.exe", ".exe")
    assert info.value.code == "unsupported_file_type"


def test_clean_text_drops_control_characters_and_surrogates() -> None:
    assert clean_text("a\x00b\x0cc\ud83dd\r\ne  \u3000f\n\n\n\ng") == "ab\ncd\ne f\n\ng"


def test_reflow_joins_lines_inside_paragraphs() -> None:
    assert reflow("The quick brown\nfox jum-\nps over.\n\n北京是中国\n的首都。") == "The quick brown fox jumps over.\n\n北京是中国的首都。"


def test_a_file_becomes_one_document_with_its_title_and_sections() -> None:
    [doc] = load_file(MARKDOWN.encode(), "guides/tea.md", doc_id="kb/guides/tea.md", source="guides/tea.md")
    assert (doc.id, doc.title, doc.source) == ("kb/guides/tea.md", "Tea Handbook", "guides/tea.md")
    assert [s.section for s in doc.sections] == [None, "Green tea", "Black tea"]  # the title is not repeated
    assert doc.text == "\n\n".join(s.text for s in doc.sections)
    [plain] = load_file(b"Just text.", "notes/todo.txt", doc_id="todo", source="notes/todo.txt")
    assert plain.title == "todo"  # no title in the file: its name


def test_a_jsonl_file_gives_its_documents_and_names_a_bad_line() -> None:
    good = b'{"id": "a", "text": "x"}\n{"id": "b", "title": "B", "text": "y", "metadata": {"date": "2024"}}\n'
    docs = load_file(good, "c.jsonl", doc_id="ignored", source="c.jsonl")
    assert [(d.id, d.source) for d in docs] == [("a", "c.jsonl"), ("b", "c.jsonl")]
    with pytest.raises(FileParseError, match=r"c\.jsonl:3: id: "):
        load_file(good + b'{"id": "", "text": "z"}\n', "c.jsonl", doc_id="x", source="c.jsonl")
    with pytest.raises(FileParseError, match=r"c\.jsonl:1: Invalid JSON"):
        load_file(b'{"id": "a", "text": "x", "metadata": {"k": "\\ud83d"}}', "c.jsonl", doc_id="x", source="c.jsonl")


def test_files_fail_alone_and_a_repeated_id_is_an_error_of_the_second_file() -> None:
    loads = load_files([
        FileSpec("a.md", b"# A\n\ntext", "same"),
        FileSpec("secret.pdf", pdf_bytes([["x"]], password="pw"), "secret.pdf"),
        FileSpec("b.md", b"# B\n\ntext", "same"),
        FileSpec("c.txt", b"c text", "c.txt"),
    ])
    assert [(load.name, [d.id for d in load.documents], load.error.code if load.error else None) for load in loads] == [
        ("a.md", ["same"], None), ("secret.pdf", [], "encrypted_file"), ("b.md", [], "invalid_document"),
        ("c.txt", ["c.txt"], None)]


def test_without_title_strips_the_title_from_heading_paths() -> None:
    parts = [DocumentSection(text="a", section="T"), DocumentSection(text="b", section="T > S"),
             DocumentSection(text="c", section="Other"), DocumentSection(text="d", section="Tea > S")]
    assert [p.section for p in without_title(parts, "T")] == [None, "S", "Other", "Tea > S"]


def test_discover_walks_a_folder_with_globs_and_skips_hidden_files(tmp_path: Path) -> None:
    write_folder(tmp_path)
    write_broken(tmp_path / "broken")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "notes.md").write_text("hidden")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    everything = [f.relative for f in discover(tmp_path)]
    assert everything == ["beijing.pdf", "bike.html", "broken/broken.docx", "broken/secret.pdf", "guides/tea.md",
                          "handbook.docx", "office.txt", "report.pdf"]
    assert [f.relative for f in discover(tmp_path, include=["*.pdf"], exclude=["broken/*"])] == [
        "beijing.pdf", "report.pdf"]
    assert [f.relative for f in discover(tmp_path, include=["guides/*", "*.txt"])] == ["guides/tea.md", "office.txt"]
    assert [f.relative for f in discover(tmp_path / "office.txt")] == ["office.txt"]


def test_an_entity_list_given_to_ingest_says_to_import_it() -> None:
    entity = '{"standardName": "星河科技", "type": "ORGANIZATION", "aliases": ["Xinghe"]}\n'
    with pytest.raises(FileParseError) as refused:
        load_file(entity.encode(), "entities.jsonl", doc_id="entities.jsonl", source="entities.jsonl")
    assert refused.value.code == "invalid_jsonl"
    assert "entities.jsonl:1: id: Field required (an entity, not a document" in str(refused.value)
    assert "aer entities import" in str(refused.value)
    # a document line missing its id is not taken for an entity
    with pytest.raises(FileParseError) as plain:
        load_file(b'{"title": "t", "text": "x"}\n', "c.jsonl", doc_id="c.jsonl", source="c.jsonl")
    assert "entities import" not in str(plain.value)


def test_a_heading_closed_before_any_text_keeps_its_words() -> None:
    """A letterhead in a smaller heading above the title ("## 青水银行（Qingshui Bank）城东支行" over "# 存款证明")
    opens the next section's text instead of vanishing with the heading path; headings with text are unchanged."""
    text = "## 青水银行（Qingshui Bank）城东支行\n\n# 存款证明\n\n兹证明储户在本行存款五万元。\n\n## 说明\n\n本证明一式两份。\n"
    parsed = parse_file(text.encode(), "letter.md", ".md")
    assert [(s, t) for s, _, t in sections(parsed.sections)] == [
        ("存款证明", "青水银行（Qingshui Bank）城东支行\n\n兹证明储户在本行存款五万元。"),
        ("存款证明 > 说明", "本证明一式两份。"),
    ]
    english = "## Agenda\n\n## Minutes\n\nThe meeting opened at 7 pm.\n"
    assert [t for _, _, t in sections(parse_file(english.encode(), "notes.md", ".md").sections)] == [
        "Agenda\n\nThe meeting opened at 7 pm."]
