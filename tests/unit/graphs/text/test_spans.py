"""Number spans: what a sentence writes as a count, price or measure (``graphs.text.spans.candidates``)."""

from __future__ import annotations

from graphs.text.spans import candidates


def test_an_item_s_marker_opening_its_line_is_no_value() -> None:
    """A checklist's or a numbered list's marker ("☐ 3. 与人力资源部确认…", "2. The fee is £5", "(4) 押金500元")
    numbers the item: no count, price or measure; the values after it stay, and a year or a decimal does too."""
    for sentence, values in (("☐ 3. 与人力资源部确认入职日期，请至少提前3个工作日告知。", ["3个"]),
                             ("2. The fee is £5 a day.", ["5"]), ("(4) 押金500元", ["500元"]), ("3、押金500元", ["500元"]),
                             ("☐ 3.", []), ("3 people came.", ["3 people"]), ("3.5 km long", ["3.5 km"]),
                             ("2025. 10 people", ["2025", "10 people"])):
        assert [c.text for c in candidates(sentence, "number", "多少？")] == values, sentence
