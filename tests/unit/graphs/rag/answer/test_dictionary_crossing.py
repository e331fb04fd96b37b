"""A question in one language over a line in the other that states the answer in everyday words the hand-written
lexicons do not list: the general dictionary carries the question's words over (``bilingual``), in the evidence's
coverage, the qualifiers, the value chosen and the decision (``answerability.stated_by_words``). Examples of my own
(a gym, a car park, a translation rate card), in both directions."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from graphs.rag.answer.attributes import written_across
from graphs.rag.answer.evidence import (
    _single,
    crossed_marks,
    in_other_language,
    sentences_of,
    unwritten_specific,
)
from graphs.rag.retrieval_crossing import dictionary_terms, other_language_terms
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_crosslang import _ask, question

GYM = hit("gym#0", "健身房开放时间为早上六点，关闭时间为晚上十点。", title="健身房须知", dense_score=0.1)
PARKING = hit("park#0", "The car park closes at 11 pm. Parking costs 5 yuan an hour.", title="Parking", dense_score=0.1)


async def test_an_english_question_is_answered_by_the_chinese_line_that_writes_its_words(tmp_path: Path) -> None:
    """"closed" is 关闭, "time" 时间: the line states what is asked; its value is the one next to 关闭 (written once),
    not the opening time next to the first 时间."""
    out = await _ask(tmp_path, "What time is the gym closed?", [GYM])
    assert out["status"] == "answered", out.get("answerability")
    assert str(out["answer"]).startswith("晚上十点")
    assert out["answerability"].decided_by == "lexicon"  # type: ignore[attr-defined]


async def test_a_chinese_question_is_answered_by_the_english_line(tmp_path: Path) -> None:
    out = await _ask(tmp_path, "停车场几点关门？", [PARKING])
    assert out["status"] == "answered", out.get("answerability")
    assert "11 pm" in str(out["answer"])


@pytest.mark.parametrize(("text", "hits"), [
    ("Who repaired the lift?", [GYM]),  # the gym's hours write no repair nor lift
    ("停车场的经理是谁？", [PARKING]),  # the car park's line names no manager
    ("What time does the pool close?", [GYM]),  # the gym's closing time is no pool's
])
async def test_a_line_that_does_not_write_the_words_does_not_answer(tmp_path: Path, text: str, hits: list) -> None:
    out = await _ask(tmp_path, text, hits)
    assert out["status"] == "no_results", out.get("answer")


def test_the_value_is_next_to_the_word_written_once() -> None:
    q = question("What time is the gym closed?", [GYM])
    text = GYM.text.casefold()
    marks = crossed_marks(q, text)
    closed = text.index("关闭") + 1  # 闭 of 关闭: "closed" is 闭着, a particle glued on
    assert (closed, closed + 1) in marks
    assert not any(text[a:b] == "时间" for a, b in marks)  # written twice: it tells no clause
    # a sentence in the question's own language has none
    assert crossed_marks(q, "the gym closes at ten") == []


def test_a_compound_abbreviation_is_written_by_its_parts() -> None:
    assert written_across("中译法", "chinese → french: £120 per 1,000 words") == "chinese french"
    assert written_across("中译法", "english → french: £120") is None  # 中 is not written


def test_retrieval_reads_the_dictionary_words_of_the_other_language() -> None:
    assert "健身房" in other_language_terms("When is the gym closed?").split()
    assert "parking lot" in other_language_terms("停车场几点关门？") or "car" in other_language_terms("停车场几点关门？")
    assert "春节" in other_language_terms("Is it open during the Spring Festival?").split()


class PoolFirst:
    """An embedder that finds the pool's line closest to any question (e5 across languages often ranks a line on
    another topic first)."""

    def _vector(self, text: str) -> list[float]:
        return [1.0, 0.0] if "游泳池" in text or text.startswith("What") else [0.8, 0.6]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


async def test_the_line_that_writes_the_words_is_chosen_over_the_one_meaning_prefers(tmp_path: Path) -> None:
    import dataclasses

    from graphs.domain import ParsedQuery
    from graphs.rag.nodes.write_answer import write_answer
    from graphs.text.query_analysis import analyze_query
    from tests.support.fakes import TODAY, gazetteer_of, make_context, runtime

    club = hit("club#0", "游泳池开放时间为早上七点至晚上九点。\n\n健身房关闭时间为晚上十点半。\n\n会员卡年费为1200元。",
               title="会所须知", dense_score=0.1)
    text = "What time does the gym close?"
    ctx = dataclasses.replace(make_context(tmp_path), embedder=PoolFirst())  # type: ignore[arg-type]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    out = await write_answer({"question": text, "parsed": ParsedQuery(**parsed.model_dump()), "ranked": [club]},
                             runtime(ctx))  # type: ignore[arg-type]
    assert out["status"] == "answered", out.get("answerability")
    assert str(out["answer"]).startswith("晚上十点半"), out["answer"]


async def test_of_two_values_under_the_same_word_the_one_the_translated_word_names(tmp_path: Path) -> None:
    """时间 twice (the lexicon's word of a time): the clause of 午餐 ("lunch", written once) holds the answer."""
    camp = hit("camp#0", "早餐时间为上午七点半，午餐时间为中午十二点半。", title="夏令营作息", dense_score=0.1)
    out = await _ask(tmp_path, "What time is lunch?", [camp])
    assert out["status"] == "answered", out.get("answerability")
    assert str(out["answer"]).startswith("中午十二点半"), out["answer"]



def test_an_english_aside_of_a_chinese_page_does_not_write_a_chinese_word() -> None:
    """A Chinese news page gives a tournament's English name in brackets: its "Open" is no 公开赛 of the question's
    other tournament, nor its "Spain" the question's 西班牙; an English page writes them."""
    page = "2024年湖畔公开赛（英语：2024 lakeside open），是巡回赛之一，在西班牙（spain）举行。"
    assert written_across("公开赛", page) is None and written_across("西班牙", page) is None
    assert written_across("西班牙", "the lakeside open is held in spain every may.") == "spain"


# --- the guard: a specific word asked that the line of the other language does not write (examples of my own)

HARBOUR = hit("harbour#0", "The harbour's first lighthouse was built in 1868 on the northern breakwater. "
              "It is among the town's best-known landmarks.", title="Harbour history", dense_score=0.1)
LOCKERS = hit("locker#0", "储物柜押金为50元，退柜时全额退还。游泳馆每周一闭馆。", title="游泳馆须知", dense_score=0.1)


def _by_meaning(q, hits: list) -> list:  # type: ignore[no-untyped-def]
    """The sentences of the other language as the comparison by meaning leaves the best of them (1.0)."""
    return [dataclasses.replace(s, semantic=1.0) for s in sentences_of(q, hits) if in_other_language(q, s.text)]


def test_a_specific_word_the_line_does_not_write_is_not_stood_for_by_meaning() -> None:
    """月球 (the Moon: the dictionary writes it "moon") is written by no line of the harbour's history: the line that
    stands out by meaning among a few, with no height in it, is no statement about the Moon's lighthouse, so
    neither meaning nor the dictionary covers the question."""
    q = question("月球上的第一座灯塔有多高？", [HARBOUR])
    lines = _by_meaning(q, [HARBOUR])
    assert lines and all("月球" in unwritten_specific(q, s) for s in lines)
    assert all(_single(q, s).coverage < 0.6 for s in lines)
    assert not unwritten_specific(question("这座灯塔有多高？", [HARBOUR]), lines[0])  # 灯塔 is written
    # with a value of the asked kind by it (1868 for 哪一年), meaning may still stand for the word: a paraphrase
    # the dictionary lacks must not refuse a line that holds the asked value
    built = question("月球上的第一座灯塔是哪一年建成的？", [HARBOUR])
    line = _by_meaning(built, [HARBOUR])[0]
    assert "月球" in unwritten_specific(built, line) and _single(built, line).coverage > 0.6


def test_an_english_question_s_specific_word_is_looked_for_in_its_chinese_words() -> None:
    """"locker" is 储物柜, written: no guard; "sauna" (桑拿) is not, so the pool's line does not state its fee."""
    written = question("How much is the locker deposit?", [LOCKERS])
    line = next(s for s in sentences_of(written, [LOCKERS]) if "储物柜" in s.text)
    assert unwritten_specific(written, line) == []
    sauna = question("How much is the sauna deposit?", [LOCKERS])
    line = next(s for s in sentences_of(sauna, [LOCKERS]) if "储物柜" in s.text)
    assert "sauna" in unwritten_specific(sauna, line)


def test_a_word_the_question_quotes_in_the_line_s_letters_is_written_as_asked() -> None:
    """用户手册里的 warranty 怎么翻译: an English line that speaks of the warranty writes "warranty"; one that only
    translates other words of the question ("translate", "manual") does not state it."""
    says = hit("guide#0", "The warranty is translated as 保修 throughout the manual.", title="Style guide", dense_score=0.1)
    other = hit("scope#0", "The studio will translate the user manual into French.", title="Contract", dense_score=0.1)
    q = question("用户手册里的 warranty 应该怎么翻译？", [says, other])
    by_line = {s.text: unwritten_specific(q, s) for s in sentences_of(q, [says, other])}
    assert by_line["The studio will translate the user manual into French."] == ["warranty"]
    assert "warranty" not in by_line["The warranty is translated as 保修 throughout the manual."]


def test_only_a_specific_word_s_translations_join_the_search() -> None:
    """"boiler" (锅炉) is a word few texts write: its Chinese word joins BM25; "museum" (博物馆, on every label of a
    museum's page) does not, nor 同意 ("agree", in every contract)."""
    assert "锅炉" in dictionary_terms("Who repaired the boiler?")
    assert "博物馆" not in dictionary_terms("Which museum exhibit is older?")
    assert not {"agree", "consent"} & set(dictionary_terms("谁同意的？"))
