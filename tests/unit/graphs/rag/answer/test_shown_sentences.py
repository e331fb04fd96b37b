"""The sentences an answer shows beside the answering one add to what is asked: no line that only dates its page,
no title or heading line, no table cell of another column, no other passage's sentence about something else
(``extractive.adds_nothing``). Invented passages of a community garden and a tool library."""

from __future__ import annotations

from graphs.rag.answer.evidence import Sentence, sentences_of
from graphs.rag.answer.extractive import adds_nothing
from graphs.text.fields import field_of
from tests.support.answers import question, write
from tests.support.fakes import hit

_BEDS = "\n".join(["plot size — Bed 7: 6 m²", "annual rent — Bed 7: 35 EUR", "tenant — Bed 7: Mira Osei",
                   "plot size — Bed 9: 9 m²", "annual rent — Bed 9: 48 EUR", "tenant — Bed 9: Tom Lund"])
_PLOTS = "\n".join(["地块类型 — 青竹园: 菜地", "供应商 — 青竹园: Hortus", "面积 — 青竹园: 9平方米", "年租金 — 青竹园: 480元",
                    "地块类型 — 松风园: 花圃", "供应商 — 松风园: Verda", "面积 — 松风园: 6平方米"])


def test_a_cell_whose_row_ends_in_a_number_is_a_cell_not_a_clock() -> None:
    """"annual rent — Bed 7: 35 EUR" is a table cell (ingest writes a space after its colon), not "7:35" o'clock."""
    f = field_of("annual rent — Bed 7: 35 EUR")
    assert f is not None and (f.label, f.row, f.value) == ("annual rent", "Bed 7", "35 EUR")
    assert field_of("We meet at 7:35") is None and field_of("开门时间 — 3号馆: 10:00") is not None
    decision, _, span, text = write("What is the annual rent of Bed 9?", [hit("beds.csv#0", _BEDS, title="beds")])
    assert decision == "answerable" and span == "48 EUR" and "annual rent — Bed 9: 48 EUR[1]" in text


def test_a_cell_of_another_column_is_not_shown_beside_the_asked_one() -> None:
    decision, _, span, text = write("青竹园的年租金是多少？", [hit("地块.csv#0", _PLOTS, title="地块")])
    assert decision == "answerable" and span and "480" in span
    assert "地块类型" not in text and "供应商" not in text and "面积" not in text
    decision, _, span, text = write("How big is Bed 9?", [hit("beds.csv#0", _BEDS, title="beds")])
    assert decision == "answerable" and span and span.startswith("9 m") and "tenant" not in text and "annual rent" not in text


def _sentences(question_text: str, hits: list) -> tuple[object, list[Sentence]]:
    q = question(question_text, hits)
    return q, sentences_of(q, hits)


def test_a_date_line_or_a_title_line_adds_nothing_to_an_answer() -> None:
    minutes = "工具馆管理小组会议纪要\n日期：2027年4月3日\n本次会议由组长钟晓岚主持。电钻每次最多借用三天。"
    hits = [hit("纪要.md#0", minutes, title="工具馆管理小组会议纪要")]
    q, said = _sentences("电钻每次最多借用几天？", hits)
    answer = next(s for s in said if "三天" in s.text)
    dated = next(s for s in said if s.text.startswith("日期"))
    assert adds_nothing(q, hits, answer, dated, spanned=True)  # type: ignore[arg-type]
    chair = next(s for s in said if "主持" in s.text)
    assert not adds_nothing(q, hits, answer, answer, spanned=True)  # type: ignore[arg-type]
    when, said_when = _sentences("工具馆管理小组会议是哪一天开的？", hits)
    dated_when = next(s for s in said_when if s.text.startswith("日期"))
    assert not adds_nothing(when, hits, chair, dated_when, spanned=True)  # type: ignore[arg-type]
    guide = "Tool Library Guide\nThe librarian on duty is Noor Haddad. Drills may be kept for three days."
    hits = [hit("guide.md#0", guide, title="Tool Library Guide")]
    q, said = _sentences("Who is the librarian on duty?", hits)
    answer = next(s for s in said if "Noor" in s.text)
    titled = next((s for s in said if s.text.strip() == "Tool Library Guide"), None)
    if titled is not None:
        assert adds_nothing(q, hits, answer, titled, spanned=True)  # type: ignore[arg-type]
    heading = Sentence(hit=0, position=9, text="Tool Library Guide", folded="tool library guide", context="", names=())
    assert adds_nothing(q, hits, answer, heading, spanned=True)  # type: ignore[arg-type]


def test_another_passages_sentence_about_the_subject_stays_beside_an_answer_of_the_attribute_word() -> None:
    """An answering sentence that holds only the asked attribute's word ("charged … per day") does not drop another
    passage's line that names the subject (the headlamp's own fee): it may be the right one."""
    hits = [hit("rules.md#0", "Gear returned late is charged 8 euros per day.", title="Rules"),
            hit("gear.csv#0", "rental fee — Headlamp: 8 euros", title="gear")]
    q, said = _sentences("How much does the club charge for a headlamp?", hits)
    answer = next(s for s in said if s.hit == 0)
    line = next(s for s in said if s.hit == 1)
    assert not adds_nothing(q, hits, answer, line, spanned=True)  # type: ignore[arg-type]
    zh = [hit("规则.md#0", "逾期归还的装备每天收取8元。", title="规则"), hit("装备.csv#0", "租金 — 头灯: 8元", title="装备")]
    q, said = _sentences("俱乐部租头灯收多少钱？", zh)
    answer = next(s for s in said if s.hit == 0)
    line = next(s for s in said if s.hit == 1)
    assert not adds_nothing(q, zh, answer, line, spanned=True)  # type: ignore[arg-type]


def test_without_a_short_answer_a_cell_of_another_column_stays() -> None:
    """No short answer: the line the words chose may be of the wrong column (members' fee for 非会员), and the line
    beside it the right one, so both are shown."""
    hits = [hit("beds.csv#0", _BEDS, title="beds")]
    q, said = _sentences("What is the annual rent of Bed 9?", hits)
    rent = next(s for s in said if s.text.startswith("annual rent — Bed 9"))
    size = next(s for s in said if s.text.startswith("plot size — Bed 9"))
    assert adds_nothing(q, hits, rent, size, spanned=True)  # type: ignore[arg-type]
    assert not adds_nothing(q, hits, rent, size, spanned=False)  # type: ignore[arg-type]
