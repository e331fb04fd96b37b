"""The relation a comparison asks about, and the sentences that state it in either language."""

from __future__ import annotations

import pytest

from graphs.text.relations import asked_relation, states


@pytest.mark.parametrize(("question", "relation"), [
    ("特斯拉和SpaceX谁先成立？", "founded"),
    ("Which magazine was started first, Arthur's Magazine or First for Women?", "founded"),
    ("Who was born first, Kate Bush or Tori Amos?", "born"),
    ("哪部电影先上映？", "released"),
    ("Which is taller, the Eiffel Tower or the Shard?", None),
])
def test_the_relation_asked_about(question: str, relation: str | None) -> None:
    assert asked_relation(question) == relation


def test_a_sentence_states_the_relation_in_either_language_by_any_of_its_words() -> None:
    assert states("founded", "Tesla Motors was incorporated in California in July 2003.")
    assert states("founded", "马斯克于2002年创办太空探索技术公司。")
    assert states("founded", "The company was founded by two engineers.")
    assert not states("founded", "特斯拉于2019年11月21日发布电动皮卡Cybertruck。")
    assert states("released", "特斯拉于2019年11月21日发布电动皮卡Cybertruck。")
