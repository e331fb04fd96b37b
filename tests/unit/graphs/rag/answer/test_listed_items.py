"""One sentence gives values item by item (成人票30元，儿童票15元; "a bun costs £2 and a scone £1"): the answer is
the value of the clause that writes the asked item, and a list that gives the asked kind of value for other items
only is no evidence for an item it never names (graphs/rag/answer/governance.py ``governed_spans``,
``unlisted_item``); a range or a collective of days covers the days inside it (graphs/text/dates.py
``days_named``). Invented passages, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.text.dates import days_named
from graphs.text.governors import item_clauses
from tests.support.answers import verdict_of, write
from tests.support.fakes import hit


@pytest.fixture(autouse=True)
def _held_off_vetoes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """``other_row`` ships off (its fate in vetoes.json); these tests hold its reading with it on, as veto_fates judges it."""
    from graphs.rag.answer import answerability

    shipped = answerability.kept_vetoes()
    monkeypatch.setattr(answerability, "kept_vetoes", lambda: shipped | {'other_row'})



def test_the_unlisted_item_veto_ships_on() -> None:
    import json
    from importlib import resources

    fates = json.loads(resources.files("graphs.rag.answer").joinpath("vetoes.json").read_text(encoding="utf-8"))
    assert fates["vetoes"]["unlisted_item"]["kept"] is True


PASTRY = hit("p#0", "Prices at the Wrenfield kiosk. A plum tart costs £3.40 and an apple turnover costs £2.60.",
             title="Wrenfield kiosk")
GYM = hit("g#0", "收费标准：成人卡每月90元，青少年卡每月45元，60岁以上凭证免费。", title="松涛体育馆收费标准")
ROTA = hit("r#0", "周一、周四由郑佳值班；周二、周五由马骁值班；周三由韩冰值班。", title="枫林苑门岗值班表")
HALLS = hit("h#0", "Halls 1 and 2 seat 40 people each; hall 6 seats 150.", title="Oakhurst venue guide")
BUSES = hit("b#0", "Departures from Elm Quay: the early bus leaves at 06:20, the noon bus at 12:10, and the late one "
                   "at 22:45.", title="Elm Quay bus times")
HOURS = hit("o#0", "开放时间：周一至周五 8:00至20:00；周六 9:00至17:00。", title="青溪图书室开放时间")
CLUBS = hit("c#0", "Clubs: the reading group is chaired by Olu Baptiste, the film club by Mara Quist and the chess "
                   "circle by Tamsin Greer.", title="Hollins library clubs")
POOL = hit("pool#0", "月费：普通会员150元，离休会员80元，学生50元。", title="白鹭湾泳池会员须知")
FEES = hit("f#0", "Late returns cost 15p a day for magazines and 60p a day for games.", title="Birchley library fees")


@pytest.mark.parametrize(("text", "passage", "value"), [
    ("How much is an apple turnover at the Wrenfield kiosk?", PASTRY, "2.60"),
    ("How much is a plum tart at the Wrenfield kiosk?", PASTRY, "3.40"),
    ("松涛体育馆青少年卡每月多少钱？", GYM, "45元"),
    ("枫林苑周五由谁值班？", ROTA, "马骁"),
    ("How many people does hall 6 seat at Oakhurst?", HALLS, "150"),
    ("How much is the late fee for games at Birchley library?", FEES, "60p"),
    # the role the first clause writes is every clause's: the later ones leave it out
    ("Who chairs the film club at Hollins library?", CLUBS, "Mara Quist"),
    ("Who runs the chess circle at Hollins library?", CLUBS, "Tamsin Greer"),
    # a question term glued from several words (泳池离休会员) names the item by each of them
    ("泳池离休会员的月费是多少？", POOL, "80元"),
])
async def test_the_value_of_the_clause_that_writes_the_asked_item_answers(text: str, passage, value: str) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "answerable", reason
    _, _, span, _ = write(text, [passage])
    assert span is not None and value.rstrip("p") in span, span


@pytest.mark.parametrize(("text", "passage", "listed"), [
    ("How much is a cherry pie at the Wrenfield kiosk?", PASTRY, "plum tart"),
    ("松涛体育馆学生卡每月多少钱？", GYM, "成人卡"),
    ("枫林苑周日由谁值班？", ROTA, "郑佳"),
    ("How many people does hall 4 seat at Oakhurst?", HALLS, "hall 6"),
    # the words two clauses share ("a box of") name no item: the asked one (candles) is written by none
    ("How much is a box of candles at the Garth village shop?",
     hit("v#0", "At the Garth village shop a box of matches costs £2, a box of tea costs £5, and a bag of "
                "flour costs £3.", title="Garth village shop"), "box of tea"),
])
async def test_a_list_of_other_items_is_no_evidence_for_the_asked_one(text: str, passage, listed: str) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "not_found", reason
    assert "lists" in reason and listed in reason, reason


async def test_a_range_of_days_covers_the_days_inside_it() -> None:
    decision, reason = await verdict_of("青溪图书室周三几点开门？", [HOURS])
    assert decision == "answerable", reason
    decision, reason = await verdict_of("青溪图书室周日几点开门？", [HOURS])
    assert decision == "not_found", reason


def test_days_named_reads_ranges_lists_and_collectives() -> None:
    assert days_named("周一至周五 8:00至20:00") == frozenset(range(5))
    assert days_named("Monday to Wednesday and Saturdays") == frozenset({0, 1, 2, 5})
    assert days_named("open daily from 7am") == days_named("每天8点开门") == frozenset(range(7))
    assert days_named("周末休息") == days_named("closed at weekends") == frozenset({5, 6})
    assert days_named("周二、周四") == frozenset({1, 3})
    assert days_named("the sun sets late; we wed in June") == frozenset()


def test_item_clauses_cut_at_list_separators_and_join_items_that_share_a_value() -> None:
    text = "票价：成人票30元，儿童票15元，老人免费。"
    label, clauses = item_clauses(text, [(8, 11), (16, 19)])
    assert label == "票价：" and [text[c.start : c.end] for c in clauses] == ["成人票30元，", "儿童票15元，"]
    text = "Rooms 2 and 3 hold 10 people; room 5 holds 28."
    label, clauses = item_clauses(text, [(19, 21), (43, 45)])
    assert label == "" and [text[c.start : c.end].strip() for c in clauses] == ["Rooms 2 and 3 hold 10 people;",
                                                                                 "room 5 holds 28."]


def test_a_weekday_is_found_in_the_range_or_collective_that_covers_it() -> None:
    from graphs.text.terms import found

    assert found("周三", "开放时间：周一至周五 8:00至20:00") == 1.0
    assert found("sundays", "the hall is open daily from 7am to 10pm") == 1.0
    assert found("周日", "开放时间：周一至周五 8:00至20:00；周六 9:00至17:00") == 0.0
    assert found("sun", "open daily") == 0.0  # a word, not a weekday


@pytest.mark.parametrize(("text", "passage"), [
    # a later clause goes on about the first one's subject: a part of it, not another item
    ("葵园社区活动室改造一共花了多少钱？", hit("k#0", "葵园社区活动室改造工程已完工，总投资42万元，其中街道补助30万元。", title="葵园社区简报")),
    ("How many climbers got hurt when the ledge collapsed?",
     hit("c#0", "Nine climbers were injured when the ledge collapsed, three of them seriously.", title="Carnmoor ledge collapse")),
    # a number the question writes as a quantity (an age), not as the name of an item
    ("I'm 19 - what is the yearly membership fee at the Pellow rowing club?",
     hit("m#0", "The annual membership fee at the Pellow rowing club is £40, or £20 for members under 21.",
         title="Pellow rowing club")),
])
async def test_one_subjects_values_are_no_list_of_items(text: str, passage) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "answerable", reason


def test_a_weekday_is_found_only_in_its_own_languages_words() -> None:
    from graphs.text.terms import found

    assert found("sundays", "开放时间为每周二至周日9:00—16:30") == 0.0
    assert found("周三", "open Monday to Friday") == 0.0


@pytest.mark.parametrize(("text", "passage", "value", "other"), [
    ("合唱团周四几点排练？", "合唱团每周一晚7:00和周四午14:30在礼堂排练，周一为声部课。", "14:30", "7:00"),
    ("游泳馆成人卡每月多少钱？", "游泳馆月卡：儿童卡每月60元和成人卡每月120元，均可在前台办理。", "120", "60"),
])
def test_two_values_joined_by_he_are_two_items(text: str, passage: str, value: str, other: str) -> None:
    _, _, span, _ = write(text, [hit("c#0", passage, title="通知")])
    assert span is not None and value in span and other not in span


@pytest.mark.parametrize(("text", "passage", "value", "other"), [
    ("Who looks after the pottery stall at the fair?",
     "The cake stall is looked after by Ines Farrow, a retired baker, and the pottery stall by Tobias Wren.",
     "Tobias Wren", "Ines Farrow"),
    ("书法班周六几点上课？", "书法班每周二晚18:30和周六早9:00在三楼教室上课。", "9:00", "18:30"),
])
def test_the_item_is_the_word_a_sibling_stands_for(text: str, passage: str, value: str, other: str) -> None:
    _, _, span, _ = write(text, [hit("c#0", passage, title="Notice")])
    assert span is not None and value in span and other not in span


def test_a_function_word_is_no_shared_head() -> None:
    _, _, span, _ = write("How much is the small sourdough loaf?",
                          [hit("c#0", "The large sourdough loaf is £4.10, while the small one is £2.70.", title="Prices")])
    assert span is None or "4.10" not in span


@pytest.mark.parametrize(("text", "passage", "expected"), [
    # the words every clause shares ("a case of", "a ticket for") say nothing: the one only the asked clause writes does
    ("How much does a case of soap cost?",
     "A case of shampoo costs 96 yuan, a case of soap costs 72 yuan, and a pack of toilet paper costs 45 yuan.", "72"),
    ("How much is a ticket for the tower?",
     "A ticket for the museum costs 12 euros, a ticket for the tower costs 8 euros.", "8"),
    ("塔楼的门票要多少钱？", "博物馆的门票要12元，塔楼的门票要8元。", "8"),
])
def test_the_clause_that_alone_writes_a_word_of_the_question_gives_the_value(text: str, passage: str,
                                                                             expected: str) -> None:
    _, _, span, _ = write(text, [hit("c#0", passage, title="Prices")])
    assert span is not None and expected in span and not any(
        other in span for other in ("96", "45", "12")), span


@pytest.mark.parametrize(("text", "passage", "listed"), [
    # an item told from its siblings by the number after its word (科目五, the segmenter's 科目 + 五): 科目一's 科目
    # does not write it
    ("白杨驾培中心科目五的报名费是多少？", hit("d#0", "报名费：科目一每人80元；科目二每人120元；科目三每人150元。",
                                   title="白杨驾培中心收费"), "科目一"),
])
async def test_a_sibling_by_number_or_letter_is_not_the_asked_item(text: str, passage, listed: str) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "not_found", reason
    assert "lists" in reason and listed in reason, reason


async def test_the_item_stated_by_another_sentence_is_not_unlisted() -> None:
    # a life told year by year: one sentence lists two other years' events, another states the asked year's
    passage = hit("l#0", "2019年，周明远执导的电影《晚潮》入围影展，同年迁居杭州，准备长住。2008年主演话剧《雨巷》出道，"
                         "此后专注舞台。", title="周明远")
    _, reason = await verdict_of("2008年周明远主演话剧什么出道？", [passage])
    assert "lists" not in reason, reason
    passage = hit("w#0", "In 2016 Hal Brenner opened a bakery on Mill Lane, and the same year he married Ida Kerr. In 2003 "
                         "he won the county pie contest with a rabbit pie.", title="Hal Brenner")
    _, reason = await verdict_of("With what pie did Hal Brenner win the county contest in 2003?", [passage])
    assert "lists" not in reason, reason


TEAS = hit("t#0", "茶名 — K01: 凤凰单丛\n备注 — K01: —\n茶名 — K02: 太平猴魁\n备注 — K02: 可续泡5次\n"
                  "茶名 — K03: 安吉白茶\n备注 — K03: 可续泡4次", title="松风茶舍品鉴表")
COURSES = hit("c#0", "Course — P1: Pottery basics\nLength — P1: 6 weeks\nCourse — P2: Wheel throwing\nLength — P2: —\n"
                     "Course — P3: Glazing\nLength — P3: 4 weeks", title="Elm Street studio courses")


@pytest.mark.parametrize(("text", "passage"), [
    ("松风茶舍的凤凰单丛可以续泡几次？", TEAS),
    ("How many weeks does the Wheel throwing course at Elm Street studio last?", COURSES),
])
async def test_a_cell_of_another_row_is_not_the_asked_items(text: str, passage) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "not_found", reason


@pytest.mark.parametrize("text", [
    "松风茶舍的太平猴魁可以续泡几次？",
    "How many weeks does the Glazing course at Elm Street studio last?",
])
async def test_the_cell_of_the_asked_items_row_is_its_own(text: str) -> None:
    _, reason = await verdict_of(text, [TEAS if "松风" in text else COURSES])
    assert "row" not in reason, reason


ROTA_TABLE = hit("r#1", "周二 — 眼科 韩溪: 上午\n周四 — 眼科 韩溪: —\n周二 — 骨科 魏然: 下午\n周四 — 骨科 魏然: 下午\n"
                        "周二 — 皮肤科 邹宁: 下午\n周四 — 皮肤科 邹宁: 下午\n备注 — 皮肤科 邹宁: 休假\n"
                        "休假期间，邹宁医生的门诊由同科室代诊。", title="南湖医院专家门诊表")


@pytest.mark.parametrize("text", [
    # 下午 of many rows' cells names no row; 休假 is written in the notice's prose too: neither is a row's item
    "南湖医院骨科周四下午是哪位医生出诊？",
    "南湖医院皮肤科邹宁休假期间周二下午谁出诊？",
])
async def test_a_word_many_rows_or_the_prose_write_names_no_other_row(text: str) -> None:
    _, reason = await verdict_of(text, [ROTA_TABLE])
    assert "row" not in reason, reason
