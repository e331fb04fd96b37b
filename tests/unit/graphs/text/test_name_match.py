"""The cross-language name score: alignment by the word table, by sound and by kind words, and the reading of a
name in a text of the other script (invented names, none from a dev set)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphs.text.name_match import counterpart, features, is_pinyin, score, sound_alike, translations, weights
from graphs.text.scripts import other_script

PAIRS = Path(__file__).resolve().parents[4] / "tests/data/xname_pairs/pairs.jsonl"


@pytest.mark.parametrize(("latin", "han"), [
    ("Dongping Ferry", "东平渡"),  # romanised, kind word translated
    ("brass lamp", "铜灯"),  # everyday compound, word by word
    ("Kilbride", "基尔布赖德"),  # transliterated
    ("linen curtains", "麻窗帘"),
])
def test_true_counterparts_read_as_one(latin: str, han: str) -> None:
    assert score(latin, han) >= weights().threshold
    assert score(han, latin) == score(latin, han)  # either order


@pytest.mark.parametrize(("latin", "han"), [
    ("Dongping Ferry", "东平桥"),  # another kind of thing
    ("Dongping Ferry", "东坪渡"),  # dongping is pinyin: a romanised name reads exactly, 坪 is ping too — same
    ("brass lamp", "玻璃灯"),  # glass lamp: the material differs
    ("linen curtains", "麻袋"),
    ("rye bread", "全麦面包"),
])
def test_false_friends(latin: str, han: str) -> None:
    if han == "东坪渡":  # a homophone is the same romanisation: not a false friend the score can see
        assert score(latin, han) >= weights().threshold
        return
    assert score(latin, han) < weights().threshold


def test_names_of_one_script_are_not_scored() -> None:
    assert score("Dongping Ferry", "Dongping Bridge") == 0.0
    assert score("东平渡", "东平桥") == 0.0


def test_sound_keeps_the_consonants_of_a_transliteration() -> None:
    assert sound_alike("Kilbride", "基尔布赖德") >= 0.8
    assert sound_alike("dongping", "东平") == 1.0  # pinyin itself
    # a pinyin word romanises exactly: another run with the same consonant classes counts little
    assert is_pinyin("dongping") and sound_alike("dongping", "唐平") < 0.5
    assert sound_alike("Kilbride", "罗斯") < 0.5


def test_a_run_of_ordinary_characters_is_no_transliteration() -> None:
    # 件比 ("piece", "than") sounds like "ember"'s consonants but no name is written with them (a CMRC question
    # over 张瑛 and 吴楚帆's drama was answered after reading "ember" as 件比); 尊巴 (Zumba) still is one
    assert sound_alike("ember", "件比") == 0.0 and sound_alike("tonic", "通常") == 0.0
    assert sound_alike("Zumba", "尊巴") >= 0.7 and sound_alike("Marrowby", "马罗比") >= 0.8


def test_a_word_the_table_knows_is_not_read_by_sound() -> None:
    # "paper" is 纸: its p does not make 布 ("cloth") a reading of it
    assert features("paper sack", "布袋")["char_share"] < 1.0


def test_the_table_reads_plurals_and_kind_words() -> None:
    assert "灯" in translations("lamps")
    assert "渡" in translations("ferry")
    assert "桥" in translations("bridge")  # scripts.KIND_SUFFIXES


def test_counterpart_finds_the_name_in_a_text_of_the_other_script() -> None:
    text = "东平渡位于河湾北岸，渡船每日往返八次。附近的东平桥建于1931年。"
    reading = counterpart("Dongping Ferry", text)
    assert reading is not None and reading.counterpart == "东平渡"
    assert "read 'Dongping Ferry' as 东平渡" in reading.why()
    assert counterpart("Dongping Bridge", text).counterpart == "东平桥"  # type: ignore[union-attr]
    # a name the text does not hold is read as nothing, though a near one is there
    assert counterpart("Xiping Ferry", text) is None


def test_counterpart_reads_a_chinese_name_in_english_text() -> None:
    text = "The Kilbride Institute keeps a brass lamp by the door and two linen curtains in the hall."
    assert counterpart("铜灯", text).counterpart == "brass lamp"  # type: ignore[union-attr]
    assert counterpart("基尔布赖德", text).counterpart == "kilbride"  # type: ignore[union-attr]
    assert counterpart("玻璃灯", text) is None  # glass lamp: absent, though a lamp is there


def test_two_things_that_both_exist_are_not_merged() -> None:
    # both read as a transliteration of the name within the margin: neither is taken
    text = "Kilbride and Kilbryde are two farms on the same road."
    assert counterpart("基尔布赖德", text) is None


def test_other_script_falls_back_to_the_fitted_reading() -> None:
    assert other_script("brass lamp", ["门口挂着一盏铜灯，旁边是两幅麻窗帘。"]) == "铜灯"
    assert other_script("铜灯", ["A brass lamp hangs by the door."]) == "brass lamp"


def test_the_bundled_fit_was_measured_on_held_pairs() -> None:
    fit = json.loads((Path(__file__).resolve().parents[4] / "graphs/text/name_match.json").read_text())
    held = fit["measured"]["held"]
    assert held["n"] >= 80 and held["accuracy"] >= 0.8 and held["false_friends"] <= 0.1
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines()]
    assert len(pairs) >= 300 and {p["split"] for p in pairs} == {"dev", "held"}

