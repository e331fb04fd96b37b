"""Every sentence of an extractive answer states what the question asks of its subject, or is the hop to it: a
sentence of another file that only shares the question's words (the same shop, another fact of it) is not glued
on before the one that answers. Own material (a bakery chain, a hiking club), in English and Chinese, nobody
tuned for."""

from __future__ import annotations

import pytest

from tests.support.answers import write
from tests.support.fakes import hit

CASES = [
    # a "why": the other file's sentence names the same event but no reason
    ("Why was the Lakeside shop closed?", [
        hit("shops.md#0", "The Lakeside shop was closed in 2023 and its staff moved to the new kitchen.", title="Shops"),
        hit("news-2023.txt#0", "The Lakeside shop closed because the rent doubled.", title="News 2023")],
     "because the rent doubled", "new kitchen"),
    # a "why" answered in one sentence: the next sentence of the file (another fact) is not run on
    ("Why did the Station shop close?", [
        hit("shops.pdf#0", "The Harbour shop opened in 2018. The Station shop opened in 2021 and closed in 2024 "
                           "because the station was rebuilt. Every shop bakes its sourdough with the same starter.",
            title="Wheatear Bakery shops guide")],
     "because the station was rebuilt", "sourdough"),
    ("湖畔店为什么关门？", [
        hit("门店.md#0", "湖畔店于2023年关门，员工调到了新厨房。", title="门店"),
        hit("新闻.txt#0", "湖畔店关门是因为房租翻了一倍。", title="2023年新闻")],
     "因为房租翻了一倍", "新厨房"),
    ("徒步俱乐部为什么取消了秋季远足？", [
        hit("通知.md#0", "徒步俱乐部取消了秋季远足，并退还了报名费。", title="通知"),
        hit("公告.md#0", "由于山路塌方，徒步俱乐部取消了秋季远足。", title="公告")],
     "由于山路塌方", "报名费"),
    # a number: the other file's sentence names the shop and its loaves but no number; the question names the
    # shop, so no hop through it is needed
    ("How many loaves does the Riverside shop bake each morning?", [
        hit("ovens.md#0", "The Riverside shop bakes its loaves each morning in a wood oven.", title="Ovens"),
        hit("riverside.md#0", "Each morning the Riverside shop bakes 240 loaves.", title="Riverside shop")],
     "240 loaves", "wood oven"),
    ("河畔店每天早上烤多少个面包？", [
        hit("烤炉.md#0", "河畔店每天早上用柴火炉烤面包。", title="烤炉"),
        hit("河畔店.md#0", "河畔店每天早上烤240个面包。", title="河畔店")],
     "240个面包", "柴火炉"),
]


@pytest.mark.parametrize(("question", "hits", "stated", "unrelated"), CASES, ids=[c[0] for c in CASES])
def test_no_sentence_of_another_file_is_glued_on(question: str, hits: list, stated: str, unrelated: str) -> None:
    decision, _, _, text = write(question, hits)
    assert decision == "answerable"
    assert stated in text and unrelated not in text, text
    assert len(hits) == 1 or ("[1]" not in text and "[2]" in text), text


def test_a_real_hop_stays_cited() -> None:
    # the question only describes the shop ("the shop with the wood oven"): the sentence that names it is the hop
    hits = [hit("ovens.md#0", "The Riverside shop is the only one with a wood oven.", title="Ovens"),
            hit("riverside.md#0", "Each morning the Riverside shop bakes 240 loaves.", title="Riverside shop")]
    *_, text = write("How many loaves does the shop with the wood oven bake each morning?", hits)
    assert "240" in text and "[1]" in text and "[2]" in text, text
