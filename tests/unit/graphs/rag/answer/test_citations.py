"""Citations: sentences a passage supports get its marker."""

from __future__ import annotations

from graphs.rag.answer.citations import attribute
from tests.support.fakes import hit


def test_attribute_cites_uncited_sentences_a_passage_supports() -> None:
    passages = [hit("a#0", "SpaceX was founded in 2002 by Elon Musk."), hit("b#0", "特斯拉是一家电动汽车公司。")]
    assert attribute("SpaceX was founded in 2002. Paris is nice.", passages) == "SpaceX was founded in 2002[1]. Paris is nice."
    assert attribute("特斯拉是电动汽车公司。", passages) == "特斯拉是电动汽车公司[2]。"
    assert attribute("Already cited [2].", passages) == "Already cited [2]."
