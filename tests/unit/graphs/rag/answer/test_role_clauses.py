"""The role a name takes in a later clause of its sentence ("X以2比1战胜对手，夺得男子单打冠军", "X beat Y 6-3, 6-4 and
won the mixed doubles title") and the work an English award is given for ("won Best Actress for her role in
Harbour Lights") govern that name: another title or another work is no evidence for the asked one, the twin
sentence with the asked title or work answers. Invented passages (graphs/text/governors.name_role)."""

from __future__ import annotations

import pytest

from graphs.text.governors import name_role
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "other", "twin"), [
    ("2025年澜江杯女子单打冠军是谁？",
     "2025年澜江杯女子单打决赛前一天，叶书桐以2比1战胜对手，夺得女子双打冠军。",
     "2025年澜江杯女子单打决赛中，叶书桐以2比1战胜对手，夺得女子单打冠军。"),
])
async def test_a_later_clause_or_an_awarded_work_governs_the_name(text: str, other: str, twin: str) -> None:
    decision, reason = await verdict_of(text, [hit("a#0", other, title="a")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of(text, [hit("a#0", twin, title="a")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("sentence", "name", "roles", "work"), [
    ("决赛中，林岚以2比1战胜对手，夺得男子单打冠军。", "林岚", ("男子单打冠军",), None),
    ("决赛中，林岚以2比1战胜周渡，夺得男子单打冠军。", "周渡", (), None),  # the opponent takes no title
    ("Ines Moravec beat Lena Ortiz 6-3, 6-4 and won the mixed doubles title.", "Ines Moravec",
     ("mixed doubles title",), None),
    ("Ines Moravec beat Lena Ortiz 6-3, 6-4 and won the mixed doubles title.", "Lena Ortiz", (), None),
    ("Mara Quinn won Best Actress for her role in Harbour Lights.", "Mara Quinn", ("Best Actress",), "Harbour Lights"),
    ("Mara Quinn won Best Actress for The Long River, the jury said.", "Mara Quinn", ("Best Actress",),
     "The Long River"),
])
def test_name_role_across_clauses(sentence: str, name: str, roles: tuple[str, ...], work: str | None) -> None:
    at = sentence.find(name)
    found = name_role(sentence, at, at + len(name))
    assert found.roles == roles and found.work == work


LANJIANG = "2025年澜江杯决赛中，叶书桐以2比1战胜对手，夺得男子单打冠军。"
LANJIANG_WOMEN = "2025年澜江杯决赛中，叶书桐以2比1战胜对手，夺得女子单打冠军。"
FENWICK = "At the Fenwick Cup in May, Maya Lund won the women's singles title."
GALA = ("Tin Lantern and Cold Harbour shared the evening. Ilse Marr won Best Actress for her role in "
        "Tin Lantern, and Tobi Grant won Best Actor for Cold Harbour.")


@pytest.mark.parametrize(("text", "other", "twin"), [
    # the asked title is given a holder only in a passage about another tournament
    ("2025年澜江杯女子单打冠军是谁？", [LANJIANG, FENWICK], [LANJIANG_WOMEN, FENWICK]),
    # the asked award is given for another work, the asked work wins another award (actor is not actress)
    ("Who won Best Actress for Cold Harbour?", [GALA], [GALA.replace("in Tin Lantern", "in Cold Harbour")]),
])
async def test_a_holder_of_another_subject_or_work_does_not_rescue(text: str, other: list[str],
                                                                   twin: list[str]) -> None:
    hits = [hit(f"p{i}#0", p, title="Fenwick Cup" if p == FENWICK else "news") for i, p in enumerate(other)]
    decision, reason = await verdict_of(text, hits)
    assert decision == "not_found", reason
    hits = [hit(f"p{i}#0", p, title="Fenwick Cup" if p == FENWICK else "news") for i, p in enumerate(twin)]
    decision, reason = await verdict_of(text, hits)
    assert decision == "answerable", reason
