"""A question's names and labels found in the passages across languages and spellings (issue 24 #1 and #6): the
bilingual lexicon's label groups (乘客 / "passengers", 记录 / "minutes"), a role label written with its colon, and
a misspelled Latin name read as the passages spell it, never merged with one of two names the files both hold.
Files and sentences invented here."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import label_words, same_label, written_across
from graphs.rag.answer.question import mentioned, near_spelling
from graphs.rag.retrieval_crossing import other_language_terms
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("word", "other", "same"), [
    ("乘客", "passengers", True),
    ("passenger", "乘客人数", True),  # a Chinese label holding the group's word
    ("志愿者", "volunteers", True),
    ("桥墩", "pier", True),
    ("记录", "minutes", True),
    ("营业收入", "revenue", True),  # one attribute's words
    ("乘客", "crew", False),
    ("会费", "members", False),
    ("passengers", "passenger", False),  # one script: compared as written elsewhere
])
def test_two_words_in_different_scripts_name_one_label_by_the_lexicon(word: str, other: str, same: bool) -> None:
    assert same_label(word, other) is same


def test_a_word_of_the_question_is_found_in_the_other_languages_words() -> None:
    report = "a stretch of the coast road fell into the sea after a landslide on tuesday night"
    assert written_across("滑坡", report) == "landslide"
    assert written_across("minutes", "2026年3月理事会 （记录：韩素秋）") == "记录"
    assert written_across("滑坡", "the road reopened on friday") is None
    assert written_across("Orrinford", report) is None  # a name the lexicon does not know


def test_a_label_of_the_question_brings_its_words_in_the_other_language() -> None:
    assert "徒步者" in label_words("How many hikers were airlifted off the ridge?")
    assert "volunteers" in label_words("那次清理河道有多少名志愿者参加？")
    assert label_words("When was the bakery founded?") == ()
    # an English question around a Chinese name is asked of the Chinese passages that write the name
    assert "桥墩" in other_language_terms("How many piers does 望川桥 have?").split()
    # a Chinese question with a Latin name is asked of the English passages: their words only
    assert "桥墩" not in other_language_terms("Corrow Bridge 有几个桥墩？").split()


@pytest.mark.parametrize(("name", "blob", "near"), [
    # one or two letters off, in a product, a person, a place
    ("velmar kettle", "the velmara kettle (1.5 l) costs 39 pounds", "velmara kettle"),
    ("ottilie brandt", "ottilie brand joined the quartet in 2011", "ottilie brand"),
    ("kelsby harbour", "kelsbey harbour was dredged in 1998", "kelsbey harbour"),
    # two names of the files as near as each other: the slip could be of either, it is read as neither
    ("dunmore hal", "dunmore hall hosts the fair; dunmore hale is a farm", None),
    # a model's digits are identity, not a slip
    ("corvel k40", "the corvel k45 weighs 12 kg", None),
])
def test_a_misspelled_name_is_read_as_the_one_near_spelling(name: str, blob: str, near: str | None) -> None:
    assert near_spelling(name, blob) == near


def test_a_name_the_files_spell_exactly_is_never_read_as_its_near_twin() -> None:
    # both "Corrin Jug" and "Corran Bowl" are in the files: each is itself, mentioned as written
    blob = "tp-03 corrin jug ash glaze 1200 32 tp-04 corran bowl shino 22"
    assert mentioned(("corran bowl",), blob) and mentioned(("corrin jug",), blob)
    assert near_spelling("corran bowl", "tp-03 corrin jug ash glaze 1200 32") is None  # the twin is no slip of it


BOOKLET = hit("quarry#0", "The Hallow Quarry steam crane was restored by volunteers between 2019 and 2022. "
                          "On the open weekend in May 2025 the crane carried 146 visitors in its restored cage, "
                          "and 23 volunteers ran the rides.", title="Hallow Quarry open weekend")
MINUTES = hit("guild#0", "一、会费\n会议决定2027年起会费每年180元。\n\n主持：卫澜\n记录：甘棠", title="栖云编织社 2026年理事会纪要")


async def test_a_chinese_question_is_answered_by_an_english_value_of_the_same_counted_noun() -> None:
    decision, reason = await verdict_of("Hallow Quarry 开放周末那次有多少名志愿者负责乘坐活动？", [BOOKLET])
    assert decision == "answerable", reason


async def test_who_took_the_notes_is_answered_by_a_chinese_record_label() -> None:
    decision, reason = await verdict_of("Who took notes at the Qiyun knitting guild's board meeting?", [MINUTES])
    assert decision == "answerable", reason


RESCUE = hit("fell#0", "Heavy snow closed the Corrie Dubh pass on Saturday. "
                       "Mountain rescuers from Glenmorran brought 58 skiers down to the car park by torchlight, "
                       "and 14 volunteers from the village kept the road open.", title="Corrie Dubh pass closed by snow")


async def test_a_count_of_the_asked_noun_in_the_other_languages_words_answers() -> None:
    # a score that refuses everything: only the bilingual lexicon answers (the fit saw almost no such pairs)
    from graphs.rag.answer.answerability import calibrated
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.answers import Bigrams, model_on, question

    q = question("Corrie Dubh 有多少名志愿者保持道路畅通？", [RESCUE])
    found, _, _ = await calibrated(q, [RESCUE], find_evidence(q, [RESCUE]), Bigrams(), model=model_on({}, bias=-8.0))
    assert found.decision == "answerable" and found.decided_by == "lexicon", found.reason
    assert "14 volunteers" in found.reason


async def test_a_count_of_another_noun_in_the_other_language_does_not_answer() -> None:
    from graphs.rag.answer.answerability import counted_across
    from graphs.rag.answer.calibration import judge
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.answers import question

    # the passage counts skiers and volunteers, never passengers: no count of the asked noun is read across
    q = question("Corrie Dubh 有多少名乘客被困？", [RESCUE])
    judgement = judge(q, [RESCUE], find_evidence(q, [RESCUE]), {})
    assert counted_across(q, judgement) is None
