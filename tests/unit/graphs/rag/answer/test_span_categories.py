"""The right sentence and span by category (issue 24, session 16): the calendar day of an event (哪天, "what
date") is no weekday, time of day or opening-hours line; a house number is no day of a month; an amount earned
or sold over a period is revenue, not a unit price; the line of the asked code, not its neighbour's, even when
the product's own code is in the question; a sentence wrapped over lines is one sentence; a report's later prose
is about the subject its lede names; a board's chair is its 董事会主席. Own sentences, written for these tests."""

from __future__ import annotations

import pytest

from graphs.rag.answer.attributes import asked_attribute
from graphs.rag.answer.evidence import asked_codes, find_evidence, other_language, sentences_of
from graphs.text.answer_types import expected_answer
from graphs.text.dates import asks_event_day, asks_when, calendar_day
from graphs.text.sentences import split_sentences
from graphs.text.spans import candidates, of_asked_kind
from tests.support.answers import question, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "event"), [
    ("梅林剧院是哪天重新开张的？", True),
    ("渡口的新码头是哪一天启用的？", True),
    ("On what date did the flood reach the mill?", True),
    ("What date did the museum reopen after the fire?", True),
    ("Which day did the bridge collapse?", True),
    ("运动会哪天举行？", True),
    ("图书馆每周哪天闭馆？", False),          # recurring: a weekday answers
    ("博物馆哪天闭馆？", False),             # a schedule's verb in the present
    ("Which day of the week is the clinic closed?", False),
    ("What days is the pool open?", False),
    ("渡口的新码头是哪一年启用的？", False),   # a year asked, not a day
    ("When did the tower reopen?", False),
])
def test_a_question_asks_the_calendar_day_of_an_event(text: str, event: bool) -> None:
    assert asks_event_day(text) is event


@pytest.mark.parametrize(("span", "day"), [
    ("2023年11月5日", True), ("11月5日", True), ("5 November", True), ("November 2023", True), ("2023-11-05", True),
    ("周三", False), ("星期六", False), ("on Friday", False), ("下午3点", False), ("10:30", False),
    ("7 p.m.", False), ("秋季", False), ("1907", False), ("周三至周日", False),
])
def test_a_calendar_day_is_neither_a_weekday_nor_a_time_nor_a_bare_year(span: str, day: bool) -> None:
    assert calendar_day(span) is day


def test_the_day_of_an_event_skips_the_weekly_schedule() -> None:
    q = "梅林剧院是哪天重新开张的？"
    schedule = "剧院演出时间为每周三至周日晚上7点半，周一周二休息。"
    opened = "2023年11月5日，修缮一新的梅林剧院重新开张，首演剧目座无虚席。"
    assert of_asked_kind(q, "date", schedule, candidates(schedule, "date", q)) == []
    assert [s.text for s in of_asked_kind(q, "date", opened, candidates(opened, "date", q))] == ["2023年11月5日"]
    # a recurring day asked keeps the weekday
    q2 = "梅林剧院每周哪天休息？"
    assert [s.text for s in of_asked_kind(q2, "date", schedule, candidates(schedule, "date", q2))]


def test_the_day_of_an_event_is_asked_of_the_event_not_of_the_hours() -> None:
    q = "梅林剧院是哪天对外开放的？"
    found = asked_attribute(q, expected_answer(q))
    assert found is not None and found.attribute.name == "opened"
    q2 = "梅林剧院的开放时间是什么？"
    found2 = asked_attribute(q2, expected_answer(q2))
    assert found2 is not None and found2.attribute.name == "opening_hours"


@pytest.mark.parametrize("sentence", ["茶馆位于临江镇望湖路27号，由旧粮站改建。", "办事处设在新华小区3栋12号。"])
def test_a_house_number_is_no_day_of_a_month(sentence: str) -> None:
    assert not [s.text for s in candidates(sentence, "date", "哪天开业？") if s.text.endswith("号")]


def test_the_date_sentence_answers_over_the_address_sentence() -> None:
    text = ("临江镇新茶馆开业。新茶馆位于临江镇望湖路27号，由旧粮站改建而成。"
            "2022年9月16日，临江镇新茶馆正式开业，当天接待茶客三百余人。茶馆营业时间为每周二至周日。")
    decision, _, span, _ = write("临江镇那家新茶馆是哪天开业的？", [hit("tea#0", text, title="临江镇新茶馆")])
    assert (decision, span) == ("answerable", "2022年9月16日")


@pytest.mark.parametrize(("text", "attribute"), [
    ("桔园农场2022年在网上一共卖了多少钱？", "revenue"),
    ("这家面包店去年赚了多少钱？", "revenue"),
    ("How much did the bakery make in 2022?", "revenue"),
    ("How much did the charity run raise last spring?", "revenue"),
    ("这种柑橘卖多少钱一斤？", "price"),           # a unit price
    ("桔园农场的柑橘每斤卖了多少钱？", "price"),
    ("一张门票卖多少钱？", "price"),               # present tense: a price
    ("How much does a guided tour cost?", "price"),
    ("How much did the old mill sell for?", "price"),  # one sale's price
])
def test_an_amount_earned_over_a_period_is_revenue_not_a_price(text: str, attribute: str) -> None:
    found = asked_attribute(text, expected_answer(text))
    assert found is not None and found.attribute.name == attribute


def test_a_count_sold_is_no_revenue() -> None:
    found = asked_attribute("去年工厂一共卖出了多少台？", "number")
    assert found is None or found.attribute.name != "revenue"


TABLE = ("Fault codes\n"
         "R1  Pump jammed. The impeller cannot spin. Clear the inlet grille.\n"
         "R2  Filter clogged. Flow has dropped below half. Rinse the cartridge.\n"
         "R3  Tank dry. The float switch reports no water left above the intake. Refill the tank.\n"
         "R4  Heater fault. The element does not warm up.")


def test_the_products_own_code_in_the_question_is_not_the_asked_one() -> None:
    hits = [hit("fountain#4", TABLE, title="brookline f20 fountain manual")]
    q = question("My F20 fountain shows R3, what is wrong?", hits)
    assert asked_codes(q, hits[0]) == ["r3"]
    best = find_evidence(q, hits)[0]
    assert best.coded and best.sentences[0].text.startswith("R3")


def test_the_line_of_the_asked_code_is_weighed_by_meaning_first() -> None:
    hits = [hit("fountain#4", TABLE, title="brookline f20 fountain manual")]
    q = question("我的F20屏幕上显示R3，是出了什么故障？", hits)
    assert other_language(q, hits, most=2)[0].startswith("R3")


def test_the_neighbouring_code_is_not_shown_beside_the_asked_one() -> None:
    hits = [hit("fountain#4", TABLE, title="brookline f20 fountain manual")]
    _, _, _, text = write("What does R3 mean on the F20 fountain?", hits)
    assert "Tank dry" in text and "Pump jammed" not in text and "Filter clogged" not in text


WRAPPED = ("HARBOUR TIMES, 3 May 2024 — The ferry company's new chief executive, Marguerite\n"
           "Okonkwo-Baines, said the timetable would change in June. Tickets will cost more from\n"
           "next year, the company added.\n"
           "\n"
           "Timetable\n"
           "- Mondays: 7 sailings\n"
           "Model                        | Value\n"
           "Speed                        | 18 knots")


def test_a_sentence_wrapped_over_lines_is_one_sentence() -> None:
    parts = split_sentences(WRAPPED)
    assert any("Marguerite\nOkonkwo-Baines, said" in p for p in parts)
    assert any(p.startswith("Tickets will cost more from\nnext year") for p in parts)
    # a heading, a list item and a table row stay lines of their own
    assert "Timetable" in parts and "- Mondays: 7 sailings" in parts
    assert any(p.startswith("Speed") for p in parts)
    # a long Markdown heading, a comma-separated row
    assert split_sentences("## Flooding closes the riverside market for the third weekend this season\nStall holders "
                           "met on Monday.")[0].endswith("season")
    assert len(split_sentences("Rabies shot,Vaccine,80,each,given yearly at the clinic's front desk\n"
                               "Distemper,Vaccine,90,each")) == 2


def test_a_wrapped_name_is_read_whole() -> None:
    hits = [hit("harbour#0", WRAPPED, title="harbour times ferry")]
    q = question("Who is the chief executive of the ferry company?", hits)
    texts = [s.text for s in sentences_of(q, hits)]
    assert any("Marguerite Okonkwo-Baines, said" in t for t in texts)


def test_later_prose_of_a_report_is_about_the_subject_its_lede_names() -> None:
    lede = hit("report#0", "A flash flood swept through the Tolley Vale Cider Fair on Sunday afternoon, "
                           "soaking stalls and visitors alike. Organisers closed the fair early.",
               title="valley news flood report")
    later = hit("report#2", "The flood came on Sunday 14 July 2024, about an hour after the first heavy rain. "
                            "Volunteers moved the generators uphill.",
                title="valley news flood report")
    other = hit("notes#0", "The flood came on 2 March 2021 at the Hollin ford, well before the market opened.",
                title="river notes")
    q = question("On what date did the flood hit the Tolley Vale Cider Fair?", [lede, later, other])
    best = find_evidence(q, [lede, later, other])[0]
    assert best.span is not None and best.span.text.startswith(("Sunday 14 July 2024", "14 July 2024"))


def test_a_chair_is_the_boards_chairperson_across_languages() -> None:
    from graphs.rag.answer.governance import unstated_role

    hits = [hit("board#0", "The trust is run by seven trustees. Its chair since 2019 has been Odile Ferrant.",
                title="Marrow Lane Trust")]
    q = question("Marrow Lane Trust 的董事会主席是谁？", hits)
    assert unstated_role(q, hits) is None


def test_a_name_misspelled_inside_a_longer_name_is_mentioned_by_a_loosely_titled_page() -> None:
    page = hit("festival#0", "Wennet Harbour Folk Festival draws a crowd\n\nThe opening night was held on the quay. "
                             "The weather held. The festival's artistic director, Oonagh Prewitt, introduced every "
                             "act herself.", title="wennet folk festival")
    q = question("Who is the artistic director of the Wennett Harbour Folk Festival?", [page])
    best = find_evidence(q, [page])[0]
    assert best.anchored == 1.0 and best.span is not None and best.span.text == "Oonagh Prewitt"
    # the name counts as covered where the page writes it loosely, as a correctly spelled question's would
    assert best.coverage == 1.0


@pytest.mark.parametrize(("text", "kind"), [
    ("What's the address of the pottery school in Wendle?", "place"),
    ("What is the venue of the spring auction?", "place"),
    ("临江镇新茶馆的地址是什么？", "place"),
])
def test_an_address_asked_is_a_place(text: str, kind: str) -> None:
    assert expected_answer(text) == kind


@pytest.mark.parametrize(("sentence", "question", "address"), [
    ("新茶馆位于临江镇望湖路27号，由旧粮站改建而成。", "临江镇新茶馆的地址是什么？", "望湖路27号"),
    ("档案室设在县政府大院二楼，地址是平川县东关街9号。", "档案室的地址在哪里？", "东关街9号"),
    ("The ticket office is now at 14 Mill Street, Wendle, next to the old bank.", "What's the address of the ticket office?",
     "14 Mill Street"),
])
def test_an_address_is_a_street_and_its_number(sentence: str, question: str, address: str) -> None:
    found = of_asked_kind(question, "place", sentence, candidates(sentence, "place", question))
    assert [s.text for s in found] == [address]


def test_the_address_sentence_answers_not_the_headline() -> None:
    # the headline holds no street and number: the sentence that does leads
    text = ("临江日报·社区新闻\n\n临江镇新茶馆开门迎客 老粮站变身文化客厅\n\n"
            "2022年9月16日，临江镇新茶馆正式开业，当天接待茶客三百余人。\n\n"
            "新茶馆位于临江镇望湖路27号，由旧粮站改建而成。")
    decision, _, _, answer = write("临江镇新茶馆的地址是什么？", [hit("tea#0", text, title="临江镇新茶馆开业")])
    assert decision == "answerable" and answer.startswith("新茶馆位于临江镇望湖路27号")
    assert "开门迎客" not in answer


@pytest.mark.parametrize(("text", "once"), [
    ("When did the flood barrier at Ostry Quay fail?", True),
    ("松岗水库的溢洪道是什么时候启用的？", True),
    ("When was the old tram depot pulled down?", True),
    ("When does the swimming pool open on weekdays?", False),  # a schedule
    ("What time did the train leave?", False),  # a clock time asked as such
    ("图书馆一般什么时候闭馆？", False),
])
def test_a_question_asks_when_an_event_happened(text: str, once: bool) -> None:
    assert asks_when(text) is once


@pytest.mark.parametrize(("question", "sentence", "span"), [
    ("When did the flood barrier at Ostry Quay fail?",
     "The barrier gave way shortly after 03:10 on Sunday 16 November 2025, flooding the lower quay.",
     "16 November 2025"),
    ("松岗水库的溢洪道是什么时候启用的？", "溢洪道于6月2日（星期一）上午10时首次开闸泄洪。", "6月2日"),
])
def test_when_an_event_happened_is_its_calendar_day_not_its_weekday_or_time(question: str, sentence: str,
                                                                            span: str) -> None:
    assert [s.text for s in of_asked_kind(question, "date", sentence, candidates(sentence, "date", question))] == [span]


def test_when_the_sentence_gives_no_calendar_day_its_weekday_still_answers() -> None:
    q, sentence = "When did the ferry sail again?", "The ferry sailed again on Friday, after the pier was checked."
    assert [s.text for s in of_asked_kind(q, "date", sentence, candidates(sentence, "date", q))] == ["on Friday"]
