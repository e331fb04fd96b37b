from datetime import date

import pytest

from graphs.text.dates import (
    date_forms,
    day_range,
    find_dates,
    first_date,
    header_date,
    month_phrase,
    month_range,
    month_word,
    sole_date,
    stated_years,
    year_range,
)

TODAY = date(2025, 6, 15)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024年", [("2024年", 20240101, 20241231, "year", "2024")]),
        ("2024年3月", [("2024年3月", 20240301, 20240331, "month", "2024-03")]),
        ("2024年2月", [("2024年2月", 20240201, 20240229, "month", "2024-02")]),
        ("2023年2月", [("2023年2月", 20230201, 20230228, "month", "2023-02")]),
        ("1900年2月", [("1900年2月", 19000201, 19000228, "month", "1900-02")]),
        ("2000年2月", [("2000年2月", 20000201, 20000229, "month", "2000-02")]),
        ("2024年3月5日", [("2024年3月5日", 20240305, 20240305, "day", "2024-03-05")]),
        ("2024年12月31号", [("2024年12月31号", 20241231, 20241231, "day", "2024-12-31")]),
        ("2024-03", [("2024-03", 20240301, 20240331, "month", "2024-03")]),
        ("2024-03-15", [("2024-03-15", 20240315, 20240315, "day", "2024-03-15")]),
        ("2024/3/5", [("2024/3/5", 20240305, 20240305, "day", "2024-03-05")]),
        ("2024/3", [("2024/3", 20240301, 20240331, "month", "2024-03")]),
        ("2024.3.5", [("2024.3.5", 20240305, 20240305, "day", "2024-03-05")]),
        ("２０２４年３月", [("２０２４年３月", 20240301, 20240331, "month", "2024-03")]),
        ("in 2024", [("2024", 20240101, 20241231, "year", "2024")]),
        ("2024", [("2024", 20240101, 20241231, "year", "2024")]),
        ("March 2024", [("March 2024", 20240301, 20240331, "month", "2024-03")]),
        ("in Feb. 2024", [("Feb. 2024", 20240201, 20240229, "month", "2024-02")]),
        ("march, 2024", [("march, 2024", 20240301, 20240331, "month", "2024-03")]),
        ("March 5, 2024", [("March 5, 2024", 20240305, 20240305, "day", "2024-03-05")]),
        ("5th of March 2024", [("5th of March 2024", 20240305, 20240305, "day", "2024-03-05")]),
        ("Apple在March 2024发布", [("March 2024", 20240301, 20240331, "month", "2024-03")]),
        ("2024年苹果在北京发布的产品", [("2024年", 20240101, 20241231, "year", "2024")]),
        ("在2024发布", [("2024", 20240101, 20241231, "year", "2024")]),
        (
            "2020年和2021年",
            [("2020年", 20200101, 20201231, "year", "2020"), ("2021年", 20210101, 20211231, "year", "2021")],
        ),
        (
            "from 1999 to 2001",
            [("1999", 19990101, 19991231, "year", "1999"), ("2001", 20010101, 20011231, "year", "2001")],
        ),
        # years and dates written in Chinese numerals
        ("成立于二〇〇八年", [("二〇〇八年", 20080101, 20081231, "year", "2008")]),
        ("于二零二二年三月当选", [("二零二二年三月", 20220301, 20220331, "month", "2022-03")]),
        ("一九九九年十二月二十日", [("一九九九年十二月二十日", 19991220, 19991220, "day", "1999-12-20")]),
        ("二〇二三年十三月", [("二〇二三年", 20230101, 20231231, "year", "2023")]),
        ("三十年代", []),
        # Invalid parts fall back to the widest valid reading.
        ("2023年2月30日", [("2023年2月", 20230201, 20230228, "month", "2023-02")]),
        ("2024年13月", [("2024年", 20240101, 20241231, "year", "2024")]),
    ],
)
def test_absolute_dates(text: str, expected: list[tuple[str, int, int, str, str]]) -> None:
    found = [
        (s.text, s.range.start, s.range.end, s.range.granularity, s.range.label)
        for s in find_dates(text, TODAY)
    ]
    assert found == expected


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("前年", "2023"),
        ("去年", "2024"),
        ("今年", "2025"),
        ("明年", "2026"),
        ("后年", "2027"),
        ("last year", "2024"),
        ("This Year", "2025"),
        ("next year", "2026"),
        ("上个月", "2025-05"),
        ("本月", "2025-06"),
        ("下个月", "2025-07"),
        ("last month", "2025-05"),
    ],
)
def test_relative_dates(text: str, label: str) -> None:
    (span,) = find_dates(text, TODAY)
    assert (span.text, span.range.label) == (text, label)


def test_relative_month_crosses_year() -> None:
    assert [s.range.label for s in find_dates("上个月和下个月", date(2025, 1, 10))] == ["2024-12", "2025-02"]


@pytest.mark.parametrize(
    "text",
    [
        "1800",
        "3000元",
        "12345",
        "1990s",
        "1990年代",
        "电话 13912345678",
        "version 2.2024",
        "页码 99",
        "3月5日",
    ],
)
def test_not_dates(text: str) -> None:
    assert find_dates(text, TODAY) == []


def test_offsets_point_into_the_input() -> None:
    text = "发布于２０２４年３月的产品"
    (span,) = find_dates(text, TODAY)
    assert text[span.start : span.end] == span.text == "２０２４年３月"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Founded in March 1998 and closed in 2005.", 19980301),
        ("成立于2001年，2010年上市", 20010101),
        ("2019-07-04 发布", 20190704),
        ("no date here", None),
        ("去年发布", None),
    ],
)
def test_first_date(text: str, expected: int | None) -> None:
    assert first_date(text, TODAY) == expected


def test_first_date_relative_on_request() -> None:
    assert first_date("去年发布", TODAY, relative=True) == 20240101


def test_range_helpers() -> None:
    assert year_range(2024).model_dump() == {
        "start": 20240101,
        "end": 20241231,
        "granularity": "year",
        "label": "2024",
    }
    assert month_range(2024, 2).end == 20240229
    assert month_range(2100, 2).end == 21000228
    assert day_range(2024, 3, 5).label == "2024-03-05"
    assert month_range(2024, 3).widen() == year_range(2024)


@pytest.mark.parametrize("text", ["建议零售价 — Vireo S1: 1999元", "门票2025元一张", "It sells for 2019 euros.",
                                  "Stock: 1980 items", "共1950人参赛"])
def test_an_amount_with_its_unit_is_not_a_year(text: str) -> None:
    assert first_date(text, date(2026, 1, 1)) is None


def test_a_year_next_to_an_amount_is_still_a_year() -> None:
    assert first_date("In 2019 it cost 2025 euros.", date(2026, 1, 1)) == 20190101


@pytest.mark.parametrize(("word", "month"), [("八月份", 8), ("十二月底", 12), ("3月份", 3), ("腊月", 12), ("十一月", 11),
                                             ("八九月份", None), ("月份", None), ("八月十五", None), ("岁月", None)])
def test_month_word(word: str, month: int | None) -> None:
    assert month_word(word) == month


def test_month_phrase_takes_ranges_of_months() -> None:
    assert month_phrase("八九月份") and month_phrase("二三月份") and not month_phrase("八月十五") and not month_phrase("月亮")


@pytest.mark.parametrize(("word", "text", "month"), [("五月", "什么是五月艾？", None), ("八月", "八月的理事会谁主持？", 8),
                                                     ("三月", "三月街在哪座城市", None), ("十月", "会议定在十月，地点未定", 10),
                                                     ("八月份", "八月份例会在哪开", 8)])
def test_a_bare_month_before_more_of_a_word_begins_a_name(word: str, text: str, month: int | None) -> None:
    assert month_word(word, text) == month


@pytest.mark.parametrize(("text", "expected"), [
    # a dated field line of the header (minutes, a notice), in either language, behind markdown marks
    ("# 松溪村水利协会第二次会员大会纪要\n\n- **开会日期：** 2024年11月2日（星期六）\n- 地点：村委会", 20241102),
    ("Orchard Lane Allotment Society\nMinutes of the committee\nDate: 9 October 2023\nPresent: five members",
     20231009),
    # a short masthead line above the prose
    ("RIVERSIDE GAZETTE\nTuesday, 12 August 2025\n\nA landslip closed the coast road overnight.", 20250812),
    ("西岭晚报 2024年7月3日 第5版\n本报讯 连日降雨导致……", 20240703),
    ("Notice\nPublished in May 2022\nThe pool closes for repairs.", 20220501),
    # a date in the prose of the opening is not the document's own
    ("Ilse Marrow\nIlse Marrow (born 4 June 1977) is a cellist who has taught in Ghent since 2004.", None),
    ("年度报告\n2023年3月，基金会迁入新址，此后每年举办两次义卖。", None),
    # a year alone dates no header
    ("Annual review 2024\nThe trust had a busy year.", None),
    ("no date at all", None),
])
def test_the_date_a_document_states_in_its_header(text: str, expected: int | None) -> None:
    assert header_date(text, TODAY) == expected


def test_the_forms_a_stored_date_is_stated_in() -> None:
    assert date_forms(20241102) == ["2024", "11月", "11月2日"]
    assert date_forms(20240101) == ["2024"]  # a year-only date is not 1 January
    assert date_forms(20240701) == ["2024", "7月"]  # a month-only date is not its 1st day


def test_the_years_a_text_writes() -> None:
    assert stated_years("1956年修复桥墩，2024年再修，花费1998元；in 1956 again; 2030 euros") == ["1956", "2024"]


def test_a_chunk_is_of_its_date_only_where_it_writes_no_other_year() -> None:
    assert sole_date(20240312, "会议讨论了2024年的预算。记录人：柴映秋") == 20240312
    assert sole_date(20240312, "记录人：柴映秋") == 20240312  # the header's date, no year written
    assert sole_date(20240101, "In 2024 the club ran 71 courses; in 2025, 96.") is None
    assert sole_date(20230106, "Jan 6, 2023 ... 2021年的冠军在第二轮退赛。") == 20230106  # a dateline's day
    assert sole_date(None, "2024") is None
    # a date its text does not write is its document's (metadata, the header's): it stands beside other years
    assert sole_date(20230105, "2021年美网冠军在奥克兰站第二轮退赛。") == 20230105


def test_relative_words_name_a_distance_read_against_the_date_a_text_is_written() -> None:
    from graphs.text.dates import Shift, shift_of, shifted_year, year_words

    assert shift_of("去年") == Shift("year", -1) and shift_of("This year") == Shift("year", 0)
    assert shift_of("上个月") == Shift("month", -1) and shift_of("2024年") is None
    assert shifted_year(Shift("year", -1), 20250212) == 2024
    assert shifted_year(Shift("month", -1), 20250115) == 2024  # last month said in January
    assert shifted_year(Shift("month", 1), 20250101) is None  # a year alone: no month to count from
    assert "last year" in year_words(-1) and "去年" in year_words(-1)


@pytest.mark.parametrize(("span", "sentence", "written", "expected"), [
    ("on Sunday", "The barn burned down on Sunday night.", 20240703, "30 June 2024"),
    ("on Wednesday", "The barn burned down on Wednesday night.", 20240703, "3 July 2024"),
    ("on Friday", "The lane will reopen on Friday.", 20240703, "5 July 2024"),
    ("前天", "前天下午，村口的老桥被洪水冲垮。", 20240301, "2024年2月28日"),
    ("周六", "图书馆将于周六恢复开放。", 20240301, "2024年3月2日"),
    ("yesterday", "The mayor resigned yesterday.", 20240301, "29 February 2024"),
    ("on Sunday", "The barn burned down on Sunday night.", 20240101, None),  # a year alone
    ("3月5日", "3月5日开会。", 20240301, None),  # already a calendar day
])
def test_a_weekday_or_relative_day_on_the_calendar(span: str, sentence: str, written: int, expected: str | None) -> None:
    from graphs.text.dates import on_calendar

    assert on_calendar(span, sentence, written) == expected


@pytest.mark.parametrize(("question", "asked"), [
    ("水渠最晚要在哪天前修好？", True),
    ("报名截止到几号？", True),
    ("By what date must the forms be sent?", True),
    ("When does the form have to be handed in by?", True),
    ("What is the deadline for the grant?", True),
    ("When did the bridge open?", False),
    ("水渠是哪天修好的？", False),
])
def test_a_deadline_question(question: str, asked: bool) -> None:
    from graphs.text.dates import asks_deadline

    assert asks_deadline(question) is asked


def test_a_date_set_as_a_limit_and_a_field_that_dates_the_page() -> None:
    from graphs.text.dates import dates_itself, deadline_at

    text = "会议于4月2日召开，要求水渠最迟于5月10日前修好。"
    assert deadline_at(text, text.index("5月10日"), text.index("5月10日") + 5)
    assert not deadline_at(text, text.index("4月2日"), text.index("4月2日") + 4)
    english = "The hall was booked on 2 May and must be cleared no later than 9 May."
    assert deadline_at(english, english.index("9 May"), english.index("9 May") + 5)
    assert dates_itself("发布日期：2024年1月5日") and dates_itself("Published 5 January 2024")
    assert not dates_itself("灯会于10月26日开幕。")


@pytest.mark.parametrize(("line", "alone"), [("2023年", True), ("2024:", True), ("1998", True), ("2022 年度", True),
                                             ("2023年全年接待观众9,900人次", False), ("12,750", False),
                                             ("In 2023 the hall reopened.", False)])
def test_a_year_alone_on_its_line_is_a_year_line(line: str, alone: bool) -> None:
    from graphs.text.dates import year_line

    assert year_line(line) is alone
