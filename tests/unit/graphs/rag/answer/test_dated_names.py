"""A year written inside a Chinese question's opening phrase ("2025年青枫植物园的…") is the question's year, not part
of a name a passage must spell; the year then picks its own value of a sentence that gives two years' values."""

from __future__ import annotations

from tests.support.answers import question, write
from tests.support.fakes import hit

FEES = [hit("f#0", "本园自2026年3月起调整年卡价格：2026年年卡为260元，2025年为200元。\n儿童凭身份证明免票入园。",
            title="青枫植物园年卡说明")]


def test_a_year_before_the_name_is_the_questions_year_not_the_name() -> None:
    q = question("2025年青枫植物园的年卡多少钱？", FEES)
    assert ("青枫植物园",) in q.anchors and not any("2025" in forms[0] for forms in q.anchors)
    assert q.years == ("2025",)


def test_each_year_reads_its_own_value_of_a_sentence_with_two_years() -> None:
    decision, reason, span, _ = write("2025年青枫植物园的年卡多少钱？", FEES)
    assert decision == "answerable", reason
    assert span is not None and "200" in span
    decision, reason, span, _ = write("2026年青枫植物园的年卡多少钱？", FEES)
    assert decision == "answerable", reason
    assert span is not None and "260" in span


def test_a_year_no_sentence_gives_is_not_answered() -> None:
    decision, _, _, _ = write("2024年青枫植物园的年卡多少钱？", FEES)
    assert decision == "not_found"
