"""A table row answers with the cell of the asked column, never the first numeric cell: the column the bilingual lexicon
names across languages (押金 over "Deposit", "deposit" over 押金), the column of the asked year (2024年实际 for 2024),
the row named by meaning across languages or by its name beside its code. Tables and questions invented here, written
as ingest writes them (``table_sentences``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from graphs.domain import Hit
from graphs.ingest.formats.base import table_sentences
from graphs.rag.answer.attributes import group_names_label
from graphs.rag.answer.evidence import (
    LEXICON_LEAD,
    column_year,
    columns_by_meaning,
    find_evidence,
    lexicon_labels,
    rows_by_own_word,
    table_labels,
)
from graphs.text.fields import Field, field_of, row_key_forms
from tests.support.answers import question
from tests.support.fakes import DownEmbedder, EmbedderContext, hit


def _table(doc: str, rows: list[list[str]], title: str) -> Hit:
    return hit(f"{doc}#0", "\n".join(table_sentences(rows, header=True)), title=title)


TOOLS = _table("tools", [["工具", "日租金（元）", "押金（元）"], ["Cordless drill", "12", "200"],
                         ["Tile cutter", "30", "600"], ["Pressure washer", "25", "450"]], "工具租借价目")
ROOMS = _table("rooms", [["Room", "Nightly rate", "Deposit"], ["Garden suite", "£140", "£300"],
                         ["Attic room", "£95", "£150"]], "Harefield guest house rates")
BUDGET = _table("budget", [["编号", "项目", "2023年实际", "2024年实际", "2025年预算"], ["R1", "舞台灯光租赁", "3200", "4100", "4500"],
                           ["R2", "场地清洁", "900", "1500", "1600"], ["R3", "海报印刷", "700", "650", "800"]],
                "剧社年度收支")
LEDGER = _table("ledger", [["line", "item", "FY2023 actual", "FY2024 actual"], ["K1", "Rehearsal hall hire", "2,150", "2,420"],
                           ["K2", "Costume fabric", "1,300", "980"]], "Players' accounts")


def best(q: Any, hits: list[Hit]) -> tuple[str, str | None]:
    e = find_evidence(q, hits)[0]
    return e.sentences[e.span_in].text, e.span.text if e.span else None


def test_the_lexicon_names_a_column_in_either_language() -> None:
    assert group_names_label("押金是多少", "Deposit") and group_names_label("押金是多少", "Deposit (yuan)")
    assert group_names_label("how much is the deposit", "押金") and group_names_label("how much is the deposit", "押金（元）")
    assert not group_names_label("押金是多少", "Nightly rate") and not group_names_label("how much is the deposit", "日租金")
    assert lexicon_labels("押金是多少", table_labels([ROOMS])) == ["Deposit"]
    assert lexicon_labels("what is the deposit", table_labels([TOOLS])) == ["押金"]
    assert lexicon_labels("一晚多少钱", table_labels([ROOMS])) == []
    # a label that negates the group's word names its complement: 非会员价 is no member price
    assert group_names_label("会员价是多少", "会员价") and not group_names_label("会员价是多少", "非会员价")
    assert group_names_label("非会员价是多少", "非会员价")


def test_the_named_column_leads_its_table_whatever_its_meaning() -> None:
    # meaning puts the nightly rate first (both columns are money); the lexicon's label is the asked one
    groups = [("Nightly rate", "Deposit")]
    sims = {"Nightly rate": 0.84, "Deposit": 0.81}
    assert columns_by_meaning(groups, sims) == {"Nightly rate": 0.84 - 0.81}
    assert columns_by_meaning(groups, sims, ["Deposit"]) == {"Deposit": LEXICON_LEAD}
    # two labels named: meaning ranks those two only
    three = [("Deposit", "Deposit refund", "Nightly rate")]
    found = columns_by_meaning(three, {"Deposit": 0.80, "Deposit refund": 0.78, "Nightly rate": 0.9},
                               ["Deposit", "Deposit refund"])
    assert set(found) == {"Deposit"}


def test_a_chinese_question_over_english_headers_takes_the_named_column_of_its_row() -> None:
    q = question("Garden suite 的押金是多少？", [ROOMS])
    read = replace(q, columns={"Deposit": LEXICON_LEAD})
    assert best(read, [ROOMS]) == ("Deposit — Garden suite: £300", "300")


def test_an_english_question_over_chinese_headers_takes_the_named_column_of_its_row() -> None:
    q = question("What is the deposit for the tile cutter?", [TOOLS])
    read = replace(q, columns={"押金": LEXICON_LEAD})
    text, span = best(read, [TOOLS])
    assert text == "押金 — Tile cutter: 600元" and span is not None and "600" in span


def test_a_row_named_by_a_word_only_its_key_writes_leaves_out_the_other_rows_cells() -> None:
    # "Attic" names "Attic room" alone (the other key writes no such word): the garden suite's deposit is no evidence
    q = replace(question("Attic 房的押金是多少？", [ROOMS]), columns={"Deposit": LEXICON_LEAD})
    found = find_evidence(q, [ROOMS])
    assert all("Garden suite" not in s.text for e in found for s in e.sentences)
    assert best(q, [ROOMS]) == ("Deposit — Attic room: £150", "150")
    assert rows_by_own_word("Attic 房的押金是多少？", ["Garden suite", "Attic room"]) == {"Attic room"}
    # a word every row writes names none of them; nor does a word of two rows
    assert rows_by_own_word("Python 周末班有几节课？", ["Python 入门（周末班）", "Python 进阶（工作日晚班）"]) == set()
    assert rows_by_own_word("How much is the drill?", ["Cordless drill", "Hammer drill", "Tile cutter"]) == set()


def test_a_row_keyed_by_a_code_is_named_by_its_name() -> None:
    assert row_key_forms("K1 Rehearsal hall hire") == ("k1 rehearsal hall hire", "rehearsal hall hire")
    assert "舞台灯光租赁" in row_key_forms("R1 舞台灯光租赁")
    assert row_key_forms("Attic room") == ("attic room",)
    assert row_key_forms("Room 101") == ("room 101",)  # a number after the name is no code before it


def test_the_column_of_the_asked_year_answers_and_another_year_s_does_not() -> None:
    assert best(question("2024年舞台灯光租赁花了多少钱？", [BUDGET]), [BUDGET]) == ("2024年实际 — R1 舞台灯光租赁: 4100", "4100")
    assert best(question("2023年场地清洁花了多少钱？", [BUDGET]), [BUDGET]) == ("2023年实际 — R2 场地清洁: 900", "900")
    text, span = best(question("How much did the players spend on costume fabric in 2024?", [LEDGER]), [LEDGER])
    assert text == "FY2024 actual — K2 Costume fabric: 980" and span == "980"
    found = find_evidence(question("How much did rehearsal hall hire cost in 2023?", [LEDGER]), [LEDGER])
    other = next(e for e in found if e.sentences[0].text.startswith("FY2024 actual — K1"))
    assert other.span is None  # the 2024 column states nothing of 2023


def test_column_year_reads_the_header_s_year_only_for_a_question_that_writes_one() -> None:
    cell = Field(label="2024年实际", row="R1 舞台灯光租赁", value="4100", start=0)
    assert column_year(question("2024年舞台灯光租赁花了多少钱？", []), cell) is True
    assert column_year(question("2023年舞台灯光租赁花了多少钱？", []), cell) is False
    assert column_year(question("舞台灯光租赁花了多少钱？", []), cell) is None
    assert column_year(question("2024年舞台灯光租赁花了多少钱？", []), replace(cell, label="实际")) is None


def test_a_cell_with_a_long_row_key_is_still_a_cell() -> None:
    f = field_of("2024_actual — E1 Darkroom chemicals (developer, stop bath, fixer and rinse aid): 1180")
    assert f is not None and f.label == "2024_actual" and f.value == "1180"
    assert f.row == "E1 Darkroom chemicals (developer, stop bath, fixer and rinse aid)"
    assert field_of("The society spent more on darkroom chemicals than on paper in 2024, as the notes say: 1180") is None


async def test_the_lexicon_s_column_is_read_with_or_without_the_embedder(monkeypatch: Any) -> None:
    import graphs.rag.nodes.write_answer as node
    from graphs.rag.answer.calibration import QuestionSide
    from tests.support.answers import Bigrams

    q = question("Garden suite 的押金是多少？", [ROOMS])
    up = Bigrams()
    read, failed = await node._with_columns(q, [ROOMS], EmbedderContext(up), QuestionSide(up, q.text))  # type: ignore[arg-type]
    assert not failed and read.columns.get("Deposit") == LEXICON_LEAD and "Nightly rate" not in read.columns
    monkeypatch.setattr(node, "EMBEDDER_ERRORS", (RuntimeError,))
    down = DownEmbedder()
    read, failed = await node._with_columns(q, [ROOMS], EmbedderContext(down), QuestionSide(down, q.text))  # type: ignore[arg-type]
    assert failed and read.columns == {"Deposit": LEXICON_LEAD}
    # a question the lexicon names no column of: nothing read without the embedder
    plain = question("Garden suite 一晚多少钱？", [ROOMS])
    same, failed = await node._with_columns(plain, [ROOMS], EmbedderContext(down), QuestionSide(down, plain.text))  # type: ignore[arg-type]
    assert failed and same is plain
