"""A relation chain's short answer to a "who" is a person (#24 §4): a chain that ends in a street, a river or a
firm, or in a sentence that does not write the asked role, answers nothing (the evidence writer answers from the
sentence that states the role, in either language)."""

from __future__ import annotations

import pytest

from graphs.text.governors import names_asked_role
from graphs.text.spans import named_kind
from tests.support.answers import question
from tests.support.fakes import hit


@pytest.mark.parametrize(("name", "kind"), [("Tanner Lane", "LOCATION"), ("River Sele", "LOCATION"),
                                            ("Harwick Weaving Company", "ORGANIZATION"), ("东湖大道", "LOCATION"),
                                            ("青禾集团", "ORGANIZATION"), ("Edwin Marsh", None), ("王小山", None)])
def test_a_names_own_kind_word_says_it_is_no_person(name: str, kind: str | None) -> None:
    assert named_kind(name) == kind


@pytest.mark.parametrize(("text", "sentence", "states"), [
    ("Mabel Keene 所在的公司现在的总经理是谁？", "Its mill stands on Tanner Lane in Oldbury.", False),
    ("Mabel Keene 所在的公司现在的总经理是谁？", "The managing director since 2020 has been Edwin Marsh.", True),
    ("Who is the general manager of Harwick Weaving Company?", "总经理：马文", True),
    ("Who chaired the meeting?", "Chair: Edwin Marsh", None),  # a role asked by a verb: not judged here
])
def test_a_sentence_writes_the_asked_role_in_either_language(text: str, sentence: str, states: bool | None) -> None:
    assert names_asked_role(text, sentence) is states


@pytest.mark.parametrize(("text", "sentence", "value", "other"), [
    ("这次矿难有多少名矿工遇难？", "矿难中共有12名矿工死亡。", "12名", False),  # one act by the lexicon: the death toll
    ("这次矿难有多少名矿工获救？", "矿难中共有12名矿工受伤，其余全部升井。", "12名", True),
    ("How many miners died in the collapse?", "Twelve miners were killed in the collapse.", "Twelve", False),
    ("How many miners were rescued?", "Four miners were injured.", "Four", True),
])
def test_a_count_of_another_act_is_no_candidate_unless_the_lexicon_joins_the_acts(
        text: str, sentence: str, value: str, other: bool) -> None:
    from graphs.rag.answer.evidence import of_another_act
    from graphs.text.spans import Span

    start = sentence.index(value)
    q = question(text, [hit("m#0", sentence, title="Mine")])
    assert of_another_act(q, sentence, Span(start, start + len(value), value)) is other
