"""An answering sentence whose subject points back to the one before it ("这是…", "该馆…", "It was …") is shown with
that sentence, where it does not name the question's subject itself: alone it does not say what it is about."""

from __future__ import annotations

from graphs.rag.answer.extractive import POINTS_BACK
from tests.support.answers import write
from tests.support.fakes import hit


def test_a_demonstrative_opening_brings_the_sentence_it_points_to() -> None:
    text = ("2021年3月2日，比亚迪西安基地的二期电池工厂在西安高新区投产，比亚迪总裁出席。这是比亚迪在西北地区建设的最大一座"
            "电池工厂，年产能20GWh。工厂全部采用光伏供电。")
    decision, _, _, answer = write("比亚迪在西安建了什么工厂？", [hit("byd-xian#0", text, title="比亚迪西安基地")])
    assert decision != "not_found"
    assert "二期电池工厂在西安高新区投产" in answer


def test_an_english_pronoun_opening_brings_its_antecedent() -> None:
    text = ("The Marlowe Reading Room opened in the old customs house of Port Ellery in 1932. It was designed by the "
            "architect Hester Vane as a free library for dock workers. Today it holds 40,000 volumes.")
    decision, _, _, answer = write("Who designed the reading room of Port Ellery?",
                                   [hit("marlowe#0", text, title="Marlowe Reading Room")])
    assert decision != "not_found"
    assert "Hester Vane" in answer
    assert "old customs house of Port Ellery" in answer


def test_a_sentence_that_names_the_subject_stands_alone() -> None:
    text = ("华为在东莞松山湖建有研发园区。这是华为最大的研发基地之一，园区面积约1900亩。园区内有12个建筑组团。")
    _, _, _, answer = write("华为松山湖园区面积多少？", [hit("hw#0", text, title="华为松山湖")])
    assert "1900亩" in answer


def test_what_points_back() -> None:
    for sentence in ("这是特斯拉在美国以外建设的第一座整车工厂", "该公司成立于1998年", "它位于河口", "It was founded in 1851.",
                     "This is the oldest bridge in the county.", "They held the title until 1990."):
        assert POINTS_BACK.match(sentence), sentence
    for sentence in ("这些年来销量翻番", "Italy is a country.", "The factory opened in 2019.", "Its population is 4,000.",
                     "该"):
        assert not POINTS_BACK.match(sentence), sentence
