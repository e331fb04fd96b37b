"""Tables read as a person reads them: a row named by its key without its aside (the qualifier in brackets), a
cell line never joined to the next, a side offered with the verb it is used with, a table of entities as columns
turned over (``graphs.ingest.formats.base.entities_as_rows``) and answered by the model asked. Invented tables."""

from __future__ import annotations

from graphs.ingest.formats.base import table_sentences
from graphs.rag.answer.evidence import names_row, row_texts
from graphs.rag.answer.verdicts import _comparative, written_sides
from graphs.text.fields import Field, addressed, row_key_forms
from graphs.text.normalize import normalize
from graphs.text.sentences import passage_sentences
from tests.support.answers import question, write
from tests.support.fakes import hit


def test_a_row_key_is_named_by_its_head_without_its_aside() -> None:
    assert row_key_forms("学生票（18岁以下）")[-1] == "学生票" and row_key_forms("成人票") == ("成人票",)
    assert names_row("学生票的价格是多少？", "学生票（18岁以下）")
    assert names_row("How much is the Meeting room for an hour?", "Meeting room (first floor)")
    assert not names_row("How much is the Meeting room for an hour?", "Board room (first floor)")
    assert addressed(Field(label="票价", row="学生票（18岁以下）", value="15元", start=0), "学生票多少钱？")


def test_a_qualified_row_answers_its_column_and_not_the_asides_number() -> None:
    lines = table_sentences([["票种", "票价（元）", "有效期（天）"], ["成人票", "40", "1"], ["学生票（18岁以下）", "15", "3"],
                             ["老人票（70岁以上）", "10", "7"]], header=True)
    passages = [hit("t#0", "\n".join(lines), title="青枫植物园门票价格")]
    decision, reason, span, _ = write("青枫植物园的老人票有效期是几天？", passages)
    assert decision == "answerable", reason
    assert span is not None and "7" in span and "70" not in span


def test_an_english_qualified_row_is_read_for_its_own_cell() -> None:
    lines = table_sentences([["Room", "Seats", "Hourly rate (GBP)"], ["Meeting room (first floor)", "14", "18"],
                             ["Board room (under 12s not admitted)", "10", "25"], ["Hall", "90", "40"]], header=True)
    passages = [hit("r#0", "\n".join(lines), title="Alder Street centre room hire")]
    assert len(passage_sentences(passages[0].text)) == len(lines)  # each cell a line of its own
    decision, reason, span, _ = write("How many seats does the Board room at Alder Street centre have?", passages)
    assert decision == "answerable", reason
    assert span is not None and "10" in span and "12" not in span


def test_a_table_cell_line_is_not_joined_to_the_next_as_a_wrapped_sentence() -> None:
    text = ("Notes — Conference suite (second floor): Projector and screen included\n"
            "Seats — Quiet room (bookable by members only): 6")
    assert passage_sentences(text) == text.splitlines()


def test_a_spec_table_of_models_as_columns_answers_the_model_asked() -> None:
    lines = table_sentences([["Specification", "Vela K2", "Vela K4"], ["Heating power", "1.2 kW", "2.0 kW"],
                             ["Tank volume", "30 L", "50 L"], ["Net weight", "14 kg", "19 kg"]], header=True)
    passages = [hit("k#0", "\n".join(lines), title="Vela K2 / K4 water heater manual")]
    decision, reason, span, _ = write("What is the tank volume of the Vela K4?", passages)
    assert decision == "answerable", reason
    assert span is not None and "50" in span


def test_a_chinese_spec_table_of_models_as_columns_compares_the_two_models() -> None:
    lines = table_sentences([["项目", "QS-1", "QS-2"], ["额定功率", "800 W", "1200 W"], ["容量", "1.5 升", "2.2 升"],
                             ["净重", "2.4 千克", "3.1 千克"]], header=True)
    passages = [hit("q#0", "\n".join(lines), title="青松电热水壶 QS-1 / QS-2 说明书")]
    decision, reason, span, _ = write("QS-1 和 QS-2 哪个更轻？", passages)
    assert decision == "answerable", reason
    assert span is not None and "QS-1" in span


def test_a_side_offered_with_the_verb_it_is_used_with_is_the_thing_itself() -> None:
    passages = [hit("m#0", "售价 — 雅座包厢: 88元\n售价 — 散座: 30元\n售价 — 茶点: 20元", title="云溪茶社价目")]
    q = question("在云溪茶社，坐散座还是坐雅座包厢，哪个便宜一些？", passages)
    blob = normalize(passages[0].text)
    assert written_sides(q, blob) == ["散座", "雅座包厢"]


def test_the_comparative_said_is_the_adjective_not_the_noun_before_it() -> None:
    assert _comparative("两家店，哪家运费低一些？", "min_number") == "更低"
    assert _comparative("哪样便宜些？", "min_number") == "更便宜"


def test_a_row_keyed_by_a_code_is_named_by_its_word_cells() -> None:
    lines = table_sentences([["编号", "品名", "规格", "单价（元）", "库存（件）"], ["QF-201", "陶瓷刀", "18 cm", "95", "12"],
                             ["QF-305", "竹砧板", "40×28 cm", "68", "30"], ["QF-410", "铸铁锅", "26 cm", "320", "—"]],
                            header=True)
    texts = row_texts([hit("c#0", "\n".join(lines), title="青峰厨具价目")])
    assert texts["QF-201"] == "QF-201 陶瓷刀" and texts["QF-305"] == "QF-305 竹砧板"
    english = table_sentences([["Item", "Price (GBP)"], ["Bread knife", "24"], ["Bread board", "18"]], header=True)
    assert row_texts([hit("e#0", "\n".join(english), title="Kitchen shop")])["Bread knife"] == "Bread knife"
