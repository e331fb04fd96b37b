"""A question's light verb "get" is no word of what it asks in any form ("How many lambs got out"),
and a value governed by a synonym of the asked word in one label group of the lexicon is the asked value ("eleven
people were injured" for "how many people got hurt"). Sentences invented here, a new domain each."""

from __future__ import annotations

import pytest

from graphs.text.query_analysis import extract_keywords
from tests.support.answers import verdict_of
from tests.support.fakes import hit

QUARRY = hit("quarry#0", "A rock face at the Hollins Edge quarry gave way on Tuesday morning. Eleven people were "
                         "injured, two of them seriously, the county fire service said.", title="Hollins Edge quarry")
QUARRY_DEAD = hit("quarry#0", "A rock face at the Hollins Edge quarry gave way on Tuesday morning. Two people died "
                              "at the scene, the county fire service said.", title="Hollins Edge quarry")


@pytest.mark.parametrize("text", ["How many lambs got out through the broken gate?",
                                  "How many votes has the mayor gotten so far?",
                                  "Which river are the salmon getting into?"])
def test_get_in_any_inflection_is_no_keyword(text: str) -> None:
    # "get" is a light verb whatever its form; "made", "shown", "told" are not (who made the bell, the code shown)
    words = extract_keywords(text)
    assert not {"got", "gotten", "getting"} & set(words), words


async def test_a_synonym_of_one_label_group_governs_the_asked_value() -> None:
    decision, reason = await verdict_of("How many people got hurt when the rock face at Hollins Edge gave way?",
                                     [QUARRY])
    assert decision == "answerable", reason


async def test_the_dead_are_not_the_hurt() -> None:
    # the twin: a count of the dead does not answer how many were hurt
    decision, reason = await verdict_of("How many people got hurt when the rock face at Hollins Edge gave way?",
                                     [QUARRY_DEAD])
    assert decision == "not_found", reason
