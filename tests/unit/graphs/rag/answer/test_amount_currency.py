"""An amount is answered in the currency its sentence writes it in: "£12", not "12"; "EUR 1,290"; "US$ 45" — the
short answer and the line that leads the answer. A sentence that writes no currency, or the same number in two,
leaves the number as it was."""

from __future__ import annotations

from graphs.rag.answer.extractive import Written, _in_currency
from graphs.text.units import currency_before
from tests.support.answers import write
from tests.support.fakes import hit


def test_a_price_keeps_its_currency_sign_in_the_short_answer() -> None:
    text = ("The Tidewater Rowing Club hires out its boathouse for parties; the boathouse costs £120 an evening and "
            "the kitchen is included. Members book through the secretary.")
    decision, _, span, answer = write("How much does the boathouse cost an evening?",
                                      [hit("rowing#0", text, title="Tidewater Rowing Club")])
    assert decision != "not_found"
    assert span == "£120"
    assert answer.startswith("£120.")


def test_a_currency_code_or_name_before_the_amount_is_kept() -> None:
    for sentence, number, shown in (("The licence is EUR 1,290 a year.", "1,290", "EUR 1,290"),
                                    ("Tickets cost US$ 45 at the door.", "45", "US$ 45"),
                                    ("年费为人民币800，学生减半。", "800", "人民币800"),
                                    ("押金 ¥300，退房时退还。", "300", "¥300")):
        written = _in_currency(Written(text=f"{number}. {sentence}[1]", span=number, citations=[]))
        assert written.span == shown and written.text.startswith(f"{shown}. "), sentence


def test_no_currency_or_two_currencies_leave_the_number_alone() -> None:
    plain = Written(text="35. The hall seats 35 people.[1]", span="35", citations=[])
    assert _in_currency(plain) == plain
    both = Written(text="20. Entry is £20 or €20 at the gate.[1]", span="20", citations=[])
    assert _in_currency(both) == both
    named = Written(text="Hall B. Hall B costs £35.[1]", span="Hall B", citations=[])
    assert _in_currency(named) == named


def test_where_a_currency_begins() -> None:
    text = "fees: £35 a session, USD 289 a year, 欧元50, room 12"
    assert text[currency_before(text, text.index("35")) or 0:].startswith("£35")
    assert text[currency_before(text, text.index("289")) or 0:].startswith("USD 289")
    assert text[currency_before(text, text.index("50")) or 0:].startswith("欧元50")
    assert currency_before(text, text.index("12")) is None
