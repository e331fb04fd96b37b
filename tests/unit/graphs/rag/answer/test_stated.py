"""The answering sentence states the asked relation: a filled slot, the asked rank, a quantity of the asked role."""

from __future__ import annotations

import pytest

from graphs.rag.answer.evidence import heading
from graphs.rag.answer.qualifiers import asked_ranks, other_rank
from graphs.rag.answer.stated import blank_slot, route_distance, unstated


@pytest.mark.parametrize(("line", "blank"), [
    ("Witnessed by: ____________ (Treasurer)", True),
    ("签收人：＿＿＿＿＿＿", True),
    ("Approved ........................ (Head of Works)", True),
    ("验收日期：__________    负责人：__________", True),
    ("Treasurer: Mabel Quint   Auditor: __________", False),  # one slot filled: the line names someone
    ("负责人：韩秋实", False),
    ("The hall was booked by Dorian Vale for the evening.", False),
])
def test_a_form_line_whose_values_are_blanks_names_no_one(line: str, blank: bool) -> None:
    assert blank_slot(line, "person", "Who signed it off?") is blank


@pytest.mark.parametrize(("line", "is_heading"), [
    ("Report of the Harvest Committee", True),
    ("4. TREASURER'S STATEMENT", True),
    ("二、场地安排", True),
    ("Mabel Quint", False),  # a name alone
    ("2. Mabel Quint", False),  # a numbered list item
    ("3. 2019年首次参赛", False),
    ("The treasurer read the statement", False),
    ("场地由文化站提供", False),
])
def test_a_heading_is_read_by_its_shape(line: str, is_heading: bool) -> None:
    assert heading(line, styled=True) is is_heading


@pytest.mark.parametrize(("question", "sentence", "found"), [
    ("Who is the present warden of Ashcombe Priory?", "Its first warden, Oswin Tate, was installed in 1702.",
     ("current", "first")),
    ("Who chairs the Fenwick allotment society now?", "The society's former chair, Lorna Biggs, stood down in 2019.",
     ("current", "former")),
    ("石桥村现任村支书是谁？", "石桥村首任村支书为谭守业，任职至1968年。", ("current", "first")),
    ("石桥村的副村长是谁？", "石桥村村长为谭德宽，2020年当选。", ("deputy", "principal")),
    ("Who was the founding editor of the Wexby Gazette?", "The current editor of the Wexby Gazette is Rhona Pike.",
     ("first", "current")),
    # stated as asked, or no rank at all: nothing contradicted
    ("Who is the current warden of Ashcombe Priory?", "The current warden, Ines Marlow, took office in 2021.", None),
    ("Who is the warden of Ashcombe Priory?", "Its first warden, Oswin Tate, was installed in 1702.", None),
    ("石桥村现任村支书是谁？", "石桥村村支书由谭新民担任。", None),
    # "first" of another noun than the asked one
    ("Who is the current captain of the Hollin cricket club?",
     "In the first match of the season the captain, Reuben Hale, scored 54.", None),
])
def test_the_asked_rank_is_not_contradicted(question: str, sentence: str, found: tuple[str, str] | None) -> None:
    assert other_rank(question, sentence) == found


def test_asked_ranks_read_adverbs_and_words_in_both_languages() -> None:
    assert asked_ranks("目前由谁负责图书室？") == {"current"}
    assert asked_ranks("Who was the inaugural director?") == {"first"}
    assert asked_ranks("How many pupils does the school have?") == frozenset()


@pytest.mark.parametrize(("sentence", "value", "route"), [
    ("沿山路向东步行约2.5公里即到观景台。", "约2.5公里", True),
    ("农场离高速出口约6公里。", "约6公里", True),
    ("The quarry lies 3 miles east of Dunmere.", "3 miles", True),
    ("Keep on the towpath for 800 m past the lock.", "800 m", True),
    ("The chimney is 62 m tall.", "62 m", False),
    ("镜筒长1.6米，重85公斤。", "1.6米", False),
])
def test_a_length_written_as_a_way_to_somewhere_is_a_distance(sentence: str, value: str, route: bool) -> None:
    start = sentence.index(value)
    assert route_distance(sentence, start, start + len(value)) is route


def test_unstated_names_its_reading() -> None:
    s = "The viewpoint is 4 km from the visitor centre."
    start = s.index("4 km")
    assert unstated("How wide is the viewpoint terrace?", "number", s, [(start, start + 4)]).reading == "distance"
    assert unstated("How far is the viewpoint from the visitor centre?", "number", s, [(start, start + 4)]) is None
    assert unstated("谁负责验收？", "person", "验收人：________", []).reading == "slot"
    found = unstated("Who is the current warden?", "person", "Its first warden, Oswin Tate, came in 1702.", [])
    assert found is not None and (found.reading, found.asked, found.stated) == ("rank", "current", "first")


def test_the_sentence_that_does_not_contradict_the_asked_rank_is_the_evidence() -> None:
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.fakes import hit
    from tests.unit.graphs.rag.answer.test_attributes import question

    guide = hit("c1", "Dunmere Lifeboat Station was opened in 1871; its first coxswain was Amos Kellow. "
                      "Since 2019 the coxswain has been Bryony Hale.")
    current = question("Who is the current coxswain of Dunmere Lifeboat Station?", [guide])
    assert "Bryony Hale" in find_evidence(current, [guide])[0].sentences[0].text
    first = question("Who was the first coxswain of Dunmere Lifeboat Station?", [guide])
    assert "Amos Kellow" in find_evidence(first, [guide])[0].sentences[0].text
    # no other sentence names a coxswain: the contradicted one stays first (the veto refuses it), no unrelated
    # sentence answers in its place
    history = hit("c2", "Dunmere Lifeboat Station was opened in 1871 beside the harbour. Its first coxswain was "
                        "Amos Kellow. The boathouse was rebuilt in 1994.")
    asked = question("Who is the current coxswain of Dunmere Lifeboat Station?", [history])
    assert "Amos Kellow" in find_evidence(asked, [history])[0].sentences[0].text


@pytest.mark.parametrize(("text", "passage", "refused"), [
    ("Who is the current coxswain of Dunmere Lifeboat Station?",
     "Dunmere Lifeboat Station was opened in 1871; its first coxswain was Amos Kellow.", True),
    ("Who was the first coxswain of Dunmere Lifeboat Station?",
     "Dunmere Lifeboat Station was opened in 1871; its first coxswain was Amos Kellow.", False),
    ("Who inspected the Dunmere boathouse?", "Dunmere boathouse, 3 May. Inspected by: ____________ (Surveyor)", True),
    ("Who inspected the Dunmere boathouse?", "Dunmere boathouse, 3 May. Inspected by: Colm Ferris (Surveyor)", False),
    ("Who took the minutes of the Dunmere crew meeting?",
     "DUNMERE LIFEBOAT\nMinutes of the Crew Meeting\n\nDate: 3 May 2026\nPresent: eight crew.", True),
    ("How wide is the Dunmere slipway?", "The Dunmere slipway lies about 2 km south of the harbour wall.", True),
    ("How far is the Dunmere slipway from the harbour wall?",
     "The Dunmere slipway lies about 2 km south of the harbour wall.", False),
])
def test_the_unstated_veto_reads_the_answering_sentence(text: str, passage: str, refused: bool) -> None:
    from graphs.rag.answer.answerability import vetoes
    from graphs.rag.answer.calibration import describe
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.fakes import hit
    from tests.unit.graphs.rag.answer.test_attributes import Bigrams, question

    found = hit("c1", passage)
    q = question(text, [found])
    judged = describe(q, [found], find_evidence(q, [found]), Bigrams())
    assert ("unstated" in vetoes(q, judged, "dunmere", "what is asked", [found])) is refused


@pytest.mark.parametrize(("text", "passage", "veto", "refused"), [
    # the lexicon's attribute stated nowhere in the passage: a person of it holds another relation
    ("Who founded the Harrowgate Bell Works?",
     "The Harrowgate Bell Works is run by Maud Penrose, who took over the workshop from her uncle in 2009.",
     "unstated_attribute", True),
    ("Who founded the Harrowgate Bell Works?", "The Harrowgate Bell Works was founded by Maud Penrose in 1921.",
     "unstated_attribute", False),
    ("青禾竹编社的创始人是谁？", "青禾竹编社目前由社长邝玉芬负责日常管理，每周六上午对外开放参观。", "unstated_attribute", True),
    ("青禾竹编社的创始人是谁？", "青禾竹编社由邝玉芬于1998年创办，最初只有六名社员。", "unstated_attribute", False),
    # the attribute named, and no value of the asked type next to it: a name far from it is another's
    ("Who is the director of the Ashby Rope Museum?",
     "The director of the Ashby Rope Museum explained that the new gallery, which opened after two winters of work "
     "on its oak roof and stone floor, owes its design to Tom Kell.", "unfilled", True),
    ("Who is the director of the Ashby Rope Museum?",
     "The director of the Ashby Rope Museum, Nell Varga, explained that the new gallery opened after two winters "
     "of work on its oak roof.", "unfilled", False),
    ("渡仙桥这次修缮的项目负责人是谁？",
     "据渡仙桥修缮的项目负责人介绍，新桥墩全部采用本地开采的青石在现场砌筑，桥面拆下来的旧石板也都经过清洗和编号，最后又按原来的位置归安。",
     "unfilled", True),
    ("渡仙桥这次修缮的项目负责人是谁？",
     "渡仙桥修缮的项目负责人钟立衡介绍，新桥墩全部采用本地开采的青石在现场砌筑，桥面拆下来的旧石板也都经过清洗和编号，最后又按原来的位置归安。",
     "unfilled", False),
    # a passage's title line names its subject and states no one's role
    ("Who runs the Harrowgate Bell Works?",
     "Cairnhold Heritage Trail › Sites › Harrowgate Bell Works\n\nThe works yard is open to visitors at weekends.",
     "unstated", True),
])
def test_the_stated_relation_vetoes_read_the_attribute_and_its_value(text: str, passage: str, veto: str,
                                                                     refused: bool) -> None:
    from graphs.rag.answer.answerability import vetoes
    from graphs.rag.answer.calibration import describe
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.fakes import hit
    from tests.unit.graphs.rag.answer.test_attributes import Bigrams, question

    found = hit("c1", passage)
    q = question(text, [found])
    judged = describe(q, [found], find_evidence(q, [found]), Bigrams())
    assert (veto in vetoes(q, judged, "x", "what is asked", [found])) is refused


@pytest.mark.parametrize(("text", "passage", "answer"), [
    ("Who runs the Harrowgate Bell Works?",
     "Cairnhold Heritage Trail › Sites › Harrowgate Bell Works\n\nThe Harrowgate Bell Works is run by Maud Penrose.",
     "Maud Penrose"),
    ("青禾竹编社作坊由谁经营？", "云栖古镇导览 › 手作工坊 › 青禾竹编社作坊与展厅介绍\n\n青禾竹编社作坊由邝玉芬经营。", "邝玉芬"),
])
def test_a_title_line_is_never_the_answering_sentence_of_a_who_question(text: str, passage: str, answer: str) -> None:
    from graphs.rag.answer.answerability import vetoes
    from graphs.rag.answer.calibration import answering, describe
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.fakes import hit
    from tests.unit.graphs.rag.answer.test_attributes import Bigrams, question

    found = hit("c1", passage)
    q = question(text, [found])
    judged = describe(q, [found], find_evidence(q, [found]), Bigrams())
    assert answer in answering(judged.evidence[0]).text
    assert "unstated" not in vetoes(q, judged, "x", "what is asked", [found])


@pytest.mark.parametrize(("text", "passage", "line"), [
    ("白石茶社十月份那次季度工作会议是谁主持的？",
     "白石茶社2025年第三季度工作会议纪要\n主持：柯明远\n记录：温小满\n\n会上，温小满汇报了白石茶社第三季度的工作情况：十月份茶叶销售收入"
     "比上季度增长两成，会议室的电费也有所上涨。", "主持：柯明远"),
    ("Who chaired the Pinefold Rowing Club's autumn committee meeting?",
     "Pinefold Rowing Club autumn committee meeting\nChair: Oliver Brandt\nSecretary: Ruth Amsel\n\nAt the autumn "
     "committee meeting, Ruth Amsel reported that the Pinefold Rowing Club's boathouse roof repair was finished in "
     "October.", "Chair: Oliver Brandt"),
])
def test_a_challenger_that_states_less_of_the_asked_attribute_is_not_chosen(
        monkeypatch: pytest.MonkeyPatch, text: str, passage: str, line: str) -> None:
    from graphs.rag.answer import calibration
    from graphs.rag.answer.evidence import find_evidence
    from tests.support.fakes import hit
    from tests.unit.graphs.rag.answer.test_attributes import question

    found = hit("c1", passage)
    q = question(text, [found])
    evidence = find_evidence(q, [found])
    assert line in calibration.answering(evidence[0]).text
    # a challenger sharing far more of the question's words, whose sentence never states the attribute
    monkeypatch.setattr(calibration, "preference", lambda f: 10.0 * (1.0 - f["attribute_stated"]))
    judged = calibration.judge(q, [found], evidence, {})
    assert line in calibration.answering(judged.evidence[0]).text


@pytest.mark.parametrize(("line", "plain", "styled"), [
    ("## Opening hours", True, True),  # a Markdown heading, read so by every caller
    ("2026年第二季度工作会议纪要", True, True),  # a short line naming a kind of document
    ("三、报名办法", True, True),  # a Chinese ordinal section's heading: heads the lines below it for every caller
    ("5. TICKETS AND BOARDING", False, True),
    ("报名截止日期为6月30日。", False, False),
    ("Tickets are sold at the pier.", False, False),
])
def test_one_heading_detector_for_evidence_and_the_veto(line: str, plain: bool, styled: bool) -> None:
    assert heading(line) is plain
    assert heading(line, styled=True) is styled
