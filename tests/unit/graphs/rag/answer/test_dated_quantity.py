"""A quantity is no clock reading or calendar date: "10" of "open 10:00–17:00" does not price a ticket, an order's
date does not say what was paid (graphs/rag/answer/answerability.py ``dated_quantity``, the ``dated_quantity``
veto). Invented passages, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.answerability import dated_quantity
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.fixture(autouse=True)
def _held_off_vetoes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dated_quantity`` ships off (its fate in vetoes.json); these tests hold its reading with it on, as veto_fates judges it."""
    from graphs.rag.answer import answerability

    shipped = answerability.kept_vetoes()
    monkeypatch.setattr(answerability, "kept_vetoes", lambda: shipped | {'dated_quantity'})



@pytest.mark.parametrize(("question", "text", "value", "found"), [
    ("How much is a day ticket for the Fenwick craft fair?", "The fair is open 10:00–17:00 on 3 and 4 June.", "10",
     "a time of day"),
    ("How much did Ada Moss pay for her new boiler?", "Fitting date: 14 March 2025 (boiler and flue)",
     "14 March 2025", "a date"),
    ("柳湾游园会的门票多少钱？", "游园会每天9:30开园，17:00闭园。", "30", "a time of day"),
    ("柳湾游园会的门票多少钱？", "游园会每天9:30开园，17:00闭园。", "9", "a time of day"),
])
def test_a_time_or_date_is_no_quantity(question: str, text: str, value: str, found: str) -> None:
    at = text.index(value)
    assert dated_quantity(question, text, at, at + len(value)) == found


@pytest.mark.parametrize(("question", "text", "value"), [
    ("How much is a day ticket for the Fenwick craft fair?", "A day ticket costs £8 on 3 June.", "8"),
    ("How much did the club spend on paint in 2024?", "2024_spend — Paint: 1450", "1450"),  # a bare number, no year
    ("柳湾游园会的门票多少钱？", "门票每人20元，6月1日起售。", "20"),
    ("How long does the ferry take?", "The ferry leaves at 10:15 and takes 40 minutes.", "40"),
    # a duration asked may be answered near a date: not this rule's to judge
    ("活动持续几天？", "活动自5月3日起持续5天。", "5"),
])
def test_a_quantity_beside_a_time_or_date_is_one(question: str, text: str, value: str) -> None:
    at = text.rindex(value) if value == "5" else text.index(value)
    assert dated_quantity(question, text, at, at + len(value)) is None


async def test_a_price_asked_over_opening_hours_is_not_found() -> None:
    passage = hit("f#0", "The Fenwick craft fair is open 10:00–17:00 on 3 and 4 June at the Corn Exchange.",
                  title="Fenwick craft fair")
    decision, reason = await verdict_of("How much is a day ticket for the Fenwick craft fair?", [passage])
    assert decision == "not_found", reason
