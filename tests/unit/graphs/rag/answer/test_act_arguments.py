"""who / where / which answers bound to the asked act (i24-who14): the place a sentence gives for the asked act
after its preposition (in either language), a table cell read as its row's statement only, and a comparison's
sides cut where the question goes on to say what is done with them. The sentences are invented for these tests,
in domains no set of the project uses."""

from __future__ import annotations

import pytest

from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.verdicts import bare_side, sides_of
from graphs.text.spans import candidates, place_adjuncts
from tests.support.answers import question, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "sentence", "place"), [
    # the phrase after the act's preposition, whether or not any word of it is a name a tagger knows
    ("Where does Greta Lind teach the pottery class?",
     "Greta Lind teaches the beginners' pottery class every Thursday evening in the back room of the Corn Exchange.",
     "back room of the Corn Exchange"),
    # a time after the act's first preposition is no place: the next one is
    ("Where do the bell ringers practise?", "The bell ringers practise on Tuesday nights in the tower loft.",
     "tower loft"),
    # the phrase ends at a time written after it
    ("Where do the kayak club members gather?", "The kayak club members gather at the slipway hut at 7 am.",
     "slipway hut"),
    # a kind noun before the name it is ("the city of …") gives the name
    ("Where is the mill headquartered?", "The mill is headquartered in the city of Carrowford and employs 80.",
     "Carrowford"),
    # Chinese: what 在 frames right before the asked verb
    ("石门镇老年合唱团在哪排练？", "合唱团由孙玉梅指导，每周三下午在镇文化站二楼排练。", "镇文化站二楼"),
    ("孙玉梅原来在哪里任教？", "孙玉梅原来在县第二中学任教。", "县第二中学"),
])
def test_the_place_of_the_asked_act_is_the_phrase_its_preposition_frames(text: str, sentence: str, place: str) -> None:
    assert [s.text for s in place_adjuncts(sentence, text)] == [place]


@pytest.mark.parametrize(("text", "sentence"), [
    # the act's preposition frames a time only
    ("Where do the bell ringers practise?", "The bell ringers practise on Tuesday nights at eight."),
    # a bare common noun after in: the act's material or subject, no place
    ("Where did Anke Moll learn to weave baskets?", "Anke Moll learned to weave baskets in split willow."),
    ("Where does Tobin Ash teach his night class?", "Tobin Ash teaches a night class in furniture restoration."),
    # 哪个镇 asks a name of that kind, no act: the tagger's names answer it, not what 在 frames before 镇
    ("公司总部设在哪个镇？", "总部设在龙湾镇。"),
    # 在 frames a clause of its own (a verb inside), not a place
    ("他们在哪排练？", "他们在会上宣布后开始排练。"),
    # 于 frames a time
    ("颁奖典礼在哪举行？", "颁奖典礼将于当地时间12日举行。"),
    # the asked act is the whole word after 在哪 (上课), not its first character (上 of 在会议上)
    ("夜校在哪上课？", "夜校的安排在会议上讨论过，具体时间另行通知。"),
])
def test_no_place_where_the_preposition_frames_none(text: str, sentence: str) -> None:
    assert place_adjuncts(sentence, text) == []


def test_the_place_answer_of_an_untagged_facility_in_a_written_answer() -> None:
    h = hit("club#0", "Sessions for the Orme juniors are run by Ida Fenn. The Orme juniors meet in the old rope store "
                      "behind the harbour office.", title="Orme sailing club")
    decision, _, span, _ = write("Where do the Orme juniors meet?", [h])
    assert decision == "answerable" and span == "old rope store behind the harbour office"


def test_a_table_cell_is_its_rows_statement_not_its_neighbours() -> None:
    # the Tern 7's row is the one to read: the Tern 5's "plant" cell above it shares the asked word, not the subject
    table = hit("models#0", "Assembly sites\nbuilt at — Tern 5: Dundalk plant\nsupplier — Tern 5: Arva Metals\n"
                            "built at — Tern 7: Ennis works\nsupplier — Tern 7: Birr Castings", title="Tern models")
    q = question("Which plant builds the Tern 7?", [table])
    best = find_evidence(q, [table])[0]
    assert best.sentences[0].text == "built at — Tern 7: Ennis works"


@pytest.mark.parametrize(("side", "bare"), [
    ("雾溪红茶都买半斤装的话", "雾溪红茶"),  # an adverb, a verb, a quantity and a conditional after the name
    ("松岭蜂蜜如果买三瓶", "松岭蜂蜜"),  # a conjunction starting the condition
    ("禾丰贸易", "禾丰贸易"),  # a name whose last word jieba tags a verbal noun stays whole
    ("青岩陶社的拉坯体验课", "青岩陶社的拉坯体验课"),  # 的 joins the studio to its course: one noun phrase
    ("青柚理发店洗一次头", "青柚理发店洗头"),  # a shop and its service: the verb is the side's, no condition follows
])
def test_a_chinese_side_is_its_noun_phrase(side: str, bare: str) -> None:
    assert bare_side(side) == bare


def test_an_english_side_offered_as_a_measure_is_the_thing_measured() -> None:
    q = question("Which is cheaper, a crate of Galloway Gold or a crate of Solway Red?", [])
    assert sides_of(q) == ["Galloway Gold", "Solway Red"]


def test_a_relative_where_asks_no_place_of_an_act() -> None:
    # the question asks which river; "where" only describes the town: no phrase after a preposition is its answer
    sentence = "The Marden tannery has its yard at the end of a lane beside the River Oust, in the town of Selby Cross."
    question_ = "Which river runs past the town where the Marden tannery has its yard?"
    phrase = "end of a lane beside the River Oust"
    assert phrase not in [s.text for s in candidates(sentence, "place", question_)]
    assert phrase in [s.text for s in candidates(sentence, "place", "Where does the Marden tannery have its yard?")]


def test_a_chinese_where_asks_the_place_of_its_act() -> None:
    sentence = "合唱团由孙玉梅指导，每周三下午在镇文化站二楼排练。"
    assert "镇文化站二楼" in [s.text for s in candidates(sentence, "place", "石门镇老年合唱团在哪排练？")]
