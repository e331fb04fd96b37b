"""Questions in one language over files in the other (issue 24): the bilingual lexicon grown by category — what a
policy pays (allowances, subsidies, 补贴/补助/津贴), what a device or a site does when the power fails (停电/断电,
"power failure", "blackout"), who keeps a club's money (司库, treasurer), who took the minutes however it is asked
(谁做的记录, "who wrote up the notes"), what a container holds (能装, "holds 12 litres"), a membership fee (会员费);
a question word's phrase (多少钱, like "how much") giving way to the attribute the question names; a nameless
question carried across by the lexicon's words of what it is about; a single capitalised word the passages write
only in the other script ("Tieguanyin" / 铁观音) taken for a name. Sentences invented here."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from graphs.domain import Hit
from graphs.rag.answer.attributes import asked_attribute
from graphs.rag.answer.evidence import find_evidence, sentences_of, unspellable
from graphs.rag.answer.question import Question, carried_by_lexicon, question_of
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import analyze_query
from tests.support.answers import ask_with, not_stated, stated_across
from tests.support.fakes import TODAY, gazetteer_of, hit


@pytest.mark.parametrize(("question", "sentence", "name"), [
    # what a policy pays
    ("What overtime meal allowance does Dunmore Printing pay?", "加班餐补每人每次25元，由部门统一申领。", "allowance"),
    ("敦摩印刷的夜班津贴是多少？", "Night-shift staff receive an allowance of 12 pounds per shift.", "allowance"),
    ("How much is the housing subsidy at Dunmore Printing?", "公司为外地员工提供住房补贴，每月600元。", "allowance"),
    ("新员工每月有多少交通补助？", "New hires get a travel stipend of 50 euros a month.", "allowance"),
    # what happens when the power fails
    ("What does the Vesta R2 freezer do after a power cut?", "断电后，冰柜会在来电时自动恢复原设定温度。", "power_outage"),
    ("R2 冰柜停电以后需要重新设置吗？", "After a blackout the R2 restores its last temperature setting.", "power_outage"),
    # who keeps the money, who took the minutes
    ("Who is the treasurer of the Gorsey Lane bowls club?", "戈西巷草地滚球俱乐部的司库是邵文静。", "treasurer"),
    ("戈西巷俱乐部的司库是谁？", "The club's treasurer, Owen Pryce, presented the accounts.", "treasurer"),
    ("Who wrote up the notes of the bowls club's April meeting?", "记录：邵文静", "secretary"),
    ("滚球俱乐部四月例会是谁做的记录？", "Minutes taken by Owen Pryce.", "secretary"),
    # what a container holds, what a member pays
    ("Vesta R2 冰柜能装多少升？", "The Vesta R2 holds 180 litres of frozen food.", "capacity"),
    ("How much water can the Vesta kettle hold?", "维斯塔电水壶容积为1.7升。", "capacity"),
    ("Gorsey Lane 滚球俱乐部的会员费是多少？", "The membership fee is 60 pounds a season.", "annual_fee"),
    # how long something lasted
    ("How long did the blackout at the Vesta plant last?", "工厂停电共持续了三个小时。", "duration"),
])
def test_the_attribute_is_asked_in_one_language_and_stated_in_the_other(question: str, sentence: str,
                                                                        name: str) -> None:
    stated_across(question, sentence, name)


@pytest.mark.parametrize(("question", "sentence"), [
    # "allowed" is no allowance (the word's stem "allow" starts it): the allowance is matched as a whole word
    ("What meal allowance does Dunmore Printing pay?", "Pets are not allowed in the canteen."),
    # a Wi-Fi outage is no power failure
    ("R2 冰柜停电以后会怎样？", "A Wi-Fi outage stopped the app for an hour."),
    # a holding company holds no quantity
    ("Vesta R2 冰柜能装多少升？", "Vesta is owned by a holding company in Leeds."),
    # the chair is not the treasurer
    ("戈西巷俱乐部的司库是谁？", "The meeting was chaired by Owen Pryce."),
])
def test_a_sentence_of_another_attribute_does_not_state_the_asked_one(question: str, sentence: str) -> None:
    not_stated(question, sentence)


@pytest.mark.parametrize(("question", "name"), [
    ("出差时每天的住宿补贴是多少钱？", "allowance"),  # 多少钱 gives way to the allowance it asks the amount of
    ("夜班津贴一共多少钱？", "allowance"),
    ("博物馆门票多少钱？", "price"),  # 门票 is itself a price
    ("这台冰柜多少钱？", "price"),  # nothing else named: the question word's phrase asks the price
])
def test_a_question_words_phrase_gives_way_to_the_named_attribute(question: str, name: str) -> None:
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None and asked.attribute.name == name


def test_how_long_something_lasted_asks_a_duration_not_a_length() -> None:
    assert asked_attribute("How long did the strike at the depot last?", "number").attribute.name == "duration"  # type: ignore[union-attr]
    assert asked_attribute("How long is the Vesta R2 power cord?", "number") is None


PRICES = hit("tea#0", "价格 — 铁观音: 88元\n价格 — 大红袍: 120元", title="松风茶馆价目表", dense_score=0.3)


def _question(text: str, hits: list[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, []).about(hits)


def test_a_capitalised_word_the_passages_write_in_the_other_script_is_a_name() -> None:
    """"Tieguanyin" is written 铁观音 in the Chinese price list: a name the passages must mention, so the row of
    another tea (大红袍) is not taken for its price by meaning alone."""
    q = _question("How much is a pot of Tieguanyin at Songfeng Teahouse?", [PRICES])
    assert ("tieguanyin", "铁观音") in q.anchors
    other_row = next(s for s in sentences_of(q, [PRICES]) if "大红袍" in s.text)
    assert "tieguanyin" not in unspellable(q, dataclasses.replace(other_row, semantic=0.9))


class Concepts:
    """An embedder by bilingual concepts (the test's stand-in for e5 across languages)."""

    WORDS: tuple[tuple[str, ...], ...] = (("power", "停电", "blackout"), ("depot", "仓库"), ("camera", "摄像"))

    def _vector(self, text: str) -> list[float]:
        t = text.casefold()
        v = np.array([1.0 if any(w in t for w in words) else 0.0 for words in self.WORDS] + [0.3])
        return list(v / np.linalg.norm(v))

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


LOG = hit("log#0", "Depot log. The gate camera was replaced on 3 May. The night shift lasted nine hours.",
          title="Depot log")
OUTAGE = hit("outage#0", "5月9日凌晨港区仓库突然停电，备用电源随即启动。停电共持续40分钟，冷库温度没有变化。",
             title="仓库停电记录", dense_score=0.3)


async def _ask(tmp_path: Path, text: str, hits: list[Hit]) -> dict[str, object]:
    return await ask_with(Concepts(), tmp_path, text, hits)


async def test_a_nameless_question_is_carried_across_by_what_it_is_about(tmp_path: Path) -> None:
    """"How long did the power failure at the depot last?" names nothing; the English log's duration is another
    thing's (a night shift), the Chinese record states the power failure (停电) and how long it lasted: answered
    from it. Before, the second look at the other language needed a name linked across scripts."""
    out = await _ask(tmp_path, "How long did the power failure at the depot last?", [LOG, OUTAGE])
    assert out["status"] == "answered", out.get("answerability")
    assert "40分钟" in str(out["answer"])


def test_a_question_naming_only_the_asked_attribute_is_not_carried() -> None:
    """"How long did it last?" says nothing of what lasted: a duration of anything would do."""
    q = _question("How long did it last?", [OUTAGE])
    assert not carried_by_lexicon(q, find_evidence(q, [OUTAGE]))
    q = _question("How long did the power failure last?", [OUTAGE])
    assert carried_by_lexicon(q, find_evidence(q, [OUTAGE]))
