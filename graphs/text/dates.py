"""Rule-based date recognition (Chinese and English) into inclusive YYYYMMDD ranges."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterable
from datetime import date
from typing import NamedTuple

from graphs.domain import DateRange
from graphs.text.identifiers import in_identifier
from graphs.text.units import zh_number

# Full-width digits and separators map 1:1 onto ASCII, so offsets stay valid.
_WIDTH = str.maketrans({chr(0xFF10 + i): str(i) for i in range(10)} | {"－": "-", "／": "/", "．": "."})

_MONTHS: dict[str, int] = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
# The lookahead rejects most positions before trying twenty alternatives.
_MON = "(?=[adfjmnosADFJMNOS])(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_ORD = r"(?:st|nd|rd|th)?"
_NOT_DIGIT_BEFORE = r"(?<![\d])"
_YEAR = r"(?P<y>(?:19|20)\d{2})"

_AMOUNT_AFTER = (r"\s*(?:元|块|万|亿|人|名|位|册|本|个|件|台|辆|天|次|米|公里|千克|公斤|克|吨|"
                 r"(?:yuan|euros?|dollars?|USD|EUR|RMB|CNY|kg|km|people|items?|copies)\b)")
"""A bare four-digit number followed by a currency or a unit is an amount ("1999元", "2025 euros"), not a year."""

_CN_RELATIVE_YEAR = {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "后年": 2}
_CN_RELATIVE_MONTH = {"上个月": -1, "上月": -1, "本月": 0, "这个月": 0, "下个月": 1, "下月": 1}
_EN_RELATIVE = {"last": -1, "previous": -1, "this": 0, "current": 0, "next": 1, "coming": 1}


class DateSpan(NamedTuple):
    """A recognised date expression and its position in the text."""

    start: int
    end: int
    text: str
    range: DateRange


def year_range(year: int) -> DateRange:
    """Return the range covering a whole year."""
    return DateRange(
        start=year * 10000 + 101, end=year * 10000 + 1231, granularity="year", label=f"{year:04d}"
    )


def month_range(year: int, month: int) -> DateRange:
    """Return the range covering a whole month (leap years included)."""
    last = calendar.monthrange(year, month)[1]
    base = year * 10000 + month * 100
    return DateRange(start=base + 1, end=base + last, granularity="month", label=f"{year:04d}-{month:02d}")


def day_range(year: int, month: int, day: int) -> DateRange:
    """Return the range covering a single day."""
    value = year * 10000 + month * 100 + day
    return DateRange(start=value, end=value, granularity="day", label=f"{year:04d}-{month:02d}-{day:02d}")


def _shift_month(today: date, delta: int) -> DateRange:
    """Return the month ``delta`` months away from ``today``."""
    index = today.year * 12 + today.month - 1 + delta
    return month_range(index // 12, index % 12 + 1)


def _valid(year: int, month: int = 1, day: int = 1) -> bool:
    """Return True if the calendar has this date."""
    return 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]


def _ymd(m: re.Match[str], _today: date) -> DateRange | None:
    """Build a day range from y/m/d groups (month may be a name)."""
    year, day = int(m["y"]), int(m["d"])
    month = _MONTHS[m["mon"].lower()] if m.groupdict().get("mon") else int(m["m"])
    return day_range(year, month, day) if _valid(year, month, day) else None


def _ym(m: re.Match[str], _today: date) -> DateRange | None:
    """Build a month range from y/m groups (month may be a name)."""
    year = int(m["y"])
    month = _MONTHS[m["mon"].lower()] if m.groupdict().get("mon") else int(m["m"])
    return month_range(year, month) if _valid(year, month) else None


def _y(m: re.Match[str], _today: date) -> DateRange | None:
    """Build a year range from the y group."""
    return year_range(int(m["y"]))


_CN_DIGIT = {"零": 0, "〇": 0, "○": 0, "Ｏ": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
             "九": 9}
_CN_YEAR = r"(?P<y>[一二][零〇○Ｏ一二三四五六七八九]{3})\s*年"
_CN_MONTH = r"(?:十[一二]?|[一二三四五六七八九])"
_CN_DAY = r"(?:[二三]?十[一二三四五六七八九]?|[一二三四五六七八九])"


def _cn_small(word: str) -> int:
    """十二 → 12, 二十三 → 23, 七 → 7 (a month or a day written in Chinese numerals)."""
    tens, _, units = word.rpartition("十")
    if "十" not in word:
        return _CN_DIGIT[word]
    return (_CN_DIGIT[tens] if tens else 1) * 10 + (_CN_DIGIT[units] if units else 0)


def _cn_numeral_date(m: re.Match[str], _today: date) -> DateRange | None:
    """Build a year, month or day range from a date written in Chinese numerals (二〇二三年, 二零二四年三月十二日)."""
    year = int("".join(str(_CN_DIGIT[ch]) for ch in m["y"]))
    if not 1000 <= year <= 2099:
        return None
    month = _cn_small(m["m"]) if m["m"] else 0
    if not _valid(year, month):
        return year_range(year)
    day = _cn_small(m["d"]) if m["d"] else 0
    return day_range(year, month, day) if _valid(year, month, day) else month_range(year, month)


def _cn_rel_year(m: re.Match[str], today: date) -> DateRange | None:
    """Resolve 去年/今年/明年... against today."""
    return year_range(today.year + _CN_RELATIVE_YEAR[m.group()])


def _cn_rel_month(m: re.Match[str], today: date) -> DateRange | None:
    """Resolve 上个月/本月/下个月 against today."""
    return _shift_month(today, _CN_RELATIVE_MONTH[m.group()])


def _en_rel(m: re.Match[str], today: date) -> DateRange | None:
    """Resolve last/this/next year|month against today."""
    delta = _EN_RELATIVE[m["which"].lower()]
    if m["unit"].lower() == "year":
        return year_range(today.year + delta)
    return _shift_month(today, delta)


_YEAR_WORDS: dict[int, tuple[str, ...]] = {
    -2: ("前年", "the year before last"),
    -1: ("去年", "上年", "上一年", "last year", "previous year", "a year earlier", "the year before"),
    0: ("今年", "本年", "this year", "current year"),
    1: ("明年", "下一年", "next year", "coming year"),
    2: ("后年", "the year after next"),
}
"""The words that name a year by its distance from the year a text is written in, in both languages."""


class Shift(NamedTuple):
    """A time named by its distance from when it is said (去年: a year back; "next month": a month on)."""

    unit: str
    """year or month"""
    by: int


def shift_of(text: str) -> Shift | None:
    """The distance a relative time word names (去年 → year −1, "this year" → year 0, 上个月 → month −1), None for
    any other text (2025年, "in March")."""
    word = text.strip().casefold()
    if word in _CN_RELATIVE_YEAR:
        return Shift("year", _CN_RELATIVE_YEAR[word])
    if word in _CN_RELATIVE_MONTH:
        return Shift("month", _CN_RELATIVE_MONTH[word])
    m = re.fullmatch(r"(last|previous|this|current|next|coming)\s+(year|month)", word)
    return Shift(m[2], _EN_RELATIVE[m[1]]) if m else None


def year_words(by: int) -> tuple[str, ...]:
    """The words, in both languages, that name the year ``by`` years from the one a text is written in (去年 and
    "last year" for −1): a passage that writes one of them states the year the question names the same way."""
    return _YEAR_WORDS.get(by, ())


def shifted_year(shift: Shift, written: int) -> int | None:
    """The year a relative time names when said on ``written`` (YYYYMMDD; a year alone is its 1 January): 去年
    said in 2025 is 2024, 上个月 said in January 2025 is in 2024; None for a month said on a date that gives only
    its year (the month it counts from is unknown)."""
    year, month = written // 10000, written // 100 % 100
    if shift.unit == "year":
        return year + shift.by
    if month < 1 or written % 10000 == 101:
        return None
    return (year * 12 + month - 1 + shift.by) // 12


_Rule = tuple[re.Pattern[str], Callable[[re.Match[str], date], DateRange | None], bool]

# (pattern, builder, relative?) — overlaps are resolved leftmost-longest, so order does not matter.
_RULES: list[_Rule] = [
    (
        re.compile(
            _NOT_DIGIT_BEFORE + r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]", re.A
        ),
        _ymd,
        False,
    ),
    (re.compile(_NOT_DIGIT_BEFORE + r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月", re.A), _ym, False),
    (re.compile(_NOT_DIGIT_BEFORE + r"(?P<y>\d{4})\s*年(?!代)", re.A), _y, False),
    (
        re.compile(
            _NOT_DIGIT_BEFORE + r"(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)", re.A
        ),
        _ymd,
        False,
    ),
    (re.compile(_NOT_DIGIT_BEFORE + r"(?P<y>\d{4})-(?P<m>\d{2})(?![\d-])", re.A), _ym, False),
    (re.compile(_NOT_DIGIT_BEFORE + r"(?P<y>\d{4})/(?P<m>\d{1,2})(?![\d/])", re.A), _ym, False),
    (
        re.compile(r"\b" + _MON + r"\s+(?P<d>\d{1,2})" + _ORD + r",?\s+" + _YEAR + r"\b", re.I | re.A),
        _ymd,
        False,
    ),
    (
        re.compile(
            r"\b(?P<d>\d{1,2})" + _ORD + r"\s+(?:of\s+)?" + _MON + r",?\s+" + _YEAR + r"\b", re.I | re.A
        ),
        _ymd,
        False,
    ),
    (re.compile(r"\b" + _MON + r",?\s+" + _YEAR + r"\b", re.I | re.A), _ym, False),
    (re.compile(r"(?<![A-Za-z\d.,:/\-$¥€£])" + _YEAR + r"(?![\d%]|s\b|年代|" + _AMOUNT_AFTER + ")", re.A), _y, False),
    (
        re.compile(_CN_YEAR + rf"(?!代)(?:\s*(?P<m>{_CN_MONTH})\s*月(?:\s*(?P<d>{_CN_DAY})\s*[日号])?)?"),
        _cn_numeral_date,
        False,
    ),
    (re.compile("|".join(_CN_RELATIVE_YEAR)), _cn_rel_year, True),
    (re.compile("|".join(_CN_RELATIVE_MONTH)), _cn_rel_month, True),
    (
        re.compile(
            r"\b(?P<which>last|previous|this|current|next|coming)\s+(?P<unit>year|month)\b", re.I | re.A
        ),
        _en_rel,
        True,
    ),
]


def _candidates(text: str, today: date, relative: bool) -> list[DateSpan]:
    """Return every date match of every rule, overlapping ones included."""
    folded = text.translate(_WIDTH)
    found: list[DateSpan] = []
    for pattern, build, is_relative in _RULES:
        if is_relative and not relative:
            continue
        for m in pattern.finditer(folded):
            if in_identifier(folded, m.start(), m.end()):
                continue  # 青水公告〔2025〕17号, "Ref. 2023/114", "Room 2021": a name's digits date nothing
            value = build(m, today)
            if value is not None:
                found.append(DateSpan(m.start(), m.end(), text[m.start() : m.end()], value))
    return found


def find_dates(text: str, today: date, *, relative: bool = True) -> list[DateSpan]:
    """Return non-overlapping date expressions, leftmost-longest first, in text order."""
    chosen: list[DateSpan] = []
    last_end = -1
    for span in sorted(_candidates(text, today, relative), key=lambda s: (s.start, s.start - s.end)):
        if span.start >= last_end:
            chosen.append(span)
            last_end = span.end
    return chosen


def first_date(text: str, today: date, *, relative: bool = False) -> int | None:
    """Return YYYYMMDD of the first full or partial date (partial → first day), or None."""
    # Relative words are off by default: a stored document's "last year" is relative to when it was
    # written, not to ``today``.
    spans = find_dates(text, today, relative=relative)
    return spans[0].range.start if spans else None


HEADER_LINES = 8
"""A document's header (its masthead, its minutes' date field) is in this many non-empty lines from its start."""
HEADER_LINE_CHARS = 48
"""A header line without a date label is at most this long ("沅枫日报 2025年6月20日 第3版"): a longer one is prose."""
_DATE_LABEL = re.compile(
    r"^(?:会议|发布|发稿|签发|印发|出版|更新|修订|报告|成文|落款)?(?:日期|时间)|^发布于|^(?:date|dated|published|posted|"
    r"updated|issued|released|meeting date|date of (?:the )?meeting|held on)\b", re.IGNORECASE)
"""A field label that dates the document itself (会议时间：, 发布日期, "Published", "Date:")."""
_LINE_MARKS = re.compile(r"^[\s#>*\-+|_·•]+|[*_|]+")


def dates_itself(line: str) -> bool:
    """Whether a line is a field that dates its document or its meeting ("发布日期：2025年12月28日", "会议时间：…",
    "Published 12 February 2025", "Date: …"): the date of the page, not of an event its prose reports."""
    return _DATE_LABEL.match(_LINE_MARKS.sub("", line).strip()) is not None


def header_date(text: str, today: date) -> int | None:
    """The date a document states of itself in its header (YYYYMMDD): the first day or month on a dated field
    line ("会议时间：2025年8月14日", "Published 4 March 2025") or a short masthead line ("沅枫日报 2025年6月20日 第3版")
    among its first ``HEADER_LINES`` lines; None when its opening states none (a year alone, a date in prose:
    "born 12 May 1981" in a biography's first sentence is not the page's date)."""
    lines = [line for raw in text.splitlines()[: HEADER_LINES * 3] if (line := _LINE_MARKS.sub("", raw).strip())]
    for n, line in enumerate(lines[:HEADER_LINES]):
        labelled = _DATE_LABEL.match(line) is not None
        # a masthead line stands above the prose: the first lines, short, with no sentence ending in them
        if not labelled and (n > 2 or len(line) > HEADER_LINE_CHARS or re.search(r"[。！？]|[a-z]{2}[.!?](?:\s|$)", line)):
            continue
        for span in find_dates(line, today, relative=False):
            if span.range.granularity in ("day", "month"):
                return span.range.start
    return None


_STATED_YEAR = re.compile(r"(?<!\d)((?:1[5-9]|20)\d{2})(?!\d)(?!" + _AMOUNT_AFTER + ")")


def stated_years(text: str) -> list[str]:
    """The years a text writes as numbers (1956, 2024年), each once, amounts left out (1999元, "2025 euros") and
    the digits of names (沪府发〔2024〕3号, "Room 2021", ``in_identifier``)."""
    folded = text.translate(_WIDTH)
    return list(dict.fromkeys(m[1] for m in _STATED_YEAR.finditer(folded) if not in_identifier(folded, m.start(1), m.end(1))))


def sole_date(value: int | None, text: str) -> int | None:
    """The date a chunk is of, for a sentence of it that states none (YYYYMMDD): its stored date where that is its
    document's (explicit metadata, the header's, the title's: a year its text does not write), a day or a month
    (a dateline), or a year where its text writes no other; None where it is only the first of several years the
    chunk writes (this year's figure beside last year's), whose sentences are of the year they state."""
    if not value:
        return None
    if value % 10000 != 101:
        return value  # a day or a month (a dateline, "Jan 6, 2023 ..."), not a year mentioned among others
    years = set(stated_years(text))
    return value if str(value // 10000) not in years or years <= {str(value // 10000)} else None


def date_forms(value: int) -> list[str]:
    """The forms in which a text states a stored date (YYYYMMDD): its year, its month (8月) and its month-day
    (8月14日). A stored year or month is its first day, so a 1 January states only its year and a 1st only its
    month (a year-only date is never read as 1 January)."""
    year, month, day = value // 10000, value // 100 % 100, value % 100
    if not 1 <= month <= 12 or (month == 1 and day == 1):
        return [str(year)]
    return [str(year), f"{month}月", *([f"{month}月{day}日"] if day > 1 else [])]


_DATE_ONLY = re.compile(
    r"^\W*(?:(?:[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})|(?:\d{1,2}\s+[A-Z][a-z]{2,8}\.?\s+\d{4})|"
    r"(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?))[\s.…。,，:：]*$")


_YEAR_LINE = re.compile(r"^\W*(?:1[5-9]|20)\d{2}\s*(?:年度?|年份)?\s*[:：]?\s*$")


def year_line(text: str) -> bool:
    """Whether a line is a year alone ("2023年", "2024:", "1998"): in a timeline or a yearly report, the heading of
    the lines below it, which state that year's facts without writing it ("全年接待观众…", "Revenue rose 8%")."""
    return bool(_YEAR_LINE.match(text))


def only_a_date(text: str) -> bool:
    """Whether a sentence is no more than a date (a search snippet's dateline "Mar 11, 2022 ...", "2023-06-14"):
    it is in no language and states nothing of what is asked."""
    return bool(_DATE_ONLY.match(text))


_MONTH_WORD = re.compile(r"^(?:(?P<n>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])|(?P<old>[正冬腊]))月"
                         r"(?:份|初|中|底|末|上旬|中旬|下旬)?$")
_MONTH_SPAN = re.compile(r"^(?:[一二三四五六七八九十两\d]{1,4}|[正冬腊])月(?:份|初|中|底|末|上旬|中旬|下旬)?$")
_OLD_MONTHS = {"正": 1, "冬": 11, "腊": 12}


def month_phrase(word: str) -> bool:
    """Whether a word is a month written without its year ("八月份", "12月底", "八九月份"): a time, never a name."""
    return bool(_MONTH_SPAN.match(word))


def month_word(word: str, text: str = "") -> int | None:
    """The month one Chinese word of ``text`` names without its year ("八月份" 8, "12月底" 12, "腊月" 12), or None.
    A bare "X月" counts only where the text goes on with 的, a space or a punctuation mark: in "五月艾" (a plant)
    or "三月街" it begins a name (a "X月份", "X月底" is a month wherever it stands)."""
    m = _MONTH_WORD.match(word)
    if m is None:
        return None
    if word.endswith("月") and text and not re.search(re.escape(word) + r"(?=的|[\s，,。.？?！!、；;：:]|$)", text):
        return None
    return _OLD_MONTHS[m["old"]] if m["old"] else zh_number(m["n"])


_ASKS_DAY = re.compile(
    r"哪一?天|哪一?日|几月几[日号]|几号|什么日子|\b(?:what|which)\s+(?:exact\s+)?(?:date|day)\b|"
    r"\bon\s+what\s+(?:date|day)\b|\bwhat\s+was\s+the\s+date\b", re.IGNORECASE)
_RECURRING = re.compile(
    r"每|通常|一般|平时|平常|周几|星期几|礼拜几|\b(?:every|each|usually|normally|weekly|weekdays?|weekends?)\b|"
    r"\bday\s+of\s+the\s+week\b|\bwhich\s+days\b|\bwhat\s+days\b", re.IGNORECASE)


_SCHEDULE = re.compile(r"闭馆|休馆|休息|营业|开门|关门|上班|上课|开放|\b(?:closed?|open)\b", re.IGNORECASE)
_PAST = re.compile(r"是.{0,24}(?:哪一?天|哪一?日|几号|几月几[日号]).{0,12}的|了|\b(?:did|was|were|had)\b", re.IGNORECASE)


def asks_event_day(question: str) -> bool:
    """Whether a question asks the calendar day of an event (青溪镇的新图书馆是哪天开放的, "On what date did the
    storm hit …", "What date did the tower reopen?"): a day on the calendar, not a weekday, a time of day or an
    opening-hours line. A question about a recurring day (每周哪天闭馆, 博物馆哪天闭馆, "Which day of the week is it
    closed?", "What days is it open?") asks a weekday."""
    if _ASKS_DAY.search(question) is None or _RECURRING.search(question) is not None:
        return False
    # a schedule's verb in the present (博物馆哪天闭馆, "Which day is the shop open?") asks the weekly day; in the
    # past (是哪天开放的, "did … open") the day it happened
    return _SCHEDULE.search(question) is None or _PAST.search(question) is not None


_ASKS_WHEN = re.compile(r"什么时候|何时|啥时候|哪个时候|\bwhen\b", re.IGNORECASE)
_ASKS_CLOCK = re.compile(r"几点|几时几分|\bwhat\s+time\b|\bat\s+what\s+time\b|\bhow\s+(?:long|late|early)\b",
                         re.IGNORECASE)


ASKS_TIME_OF_DAY = re.compile(
    r"几点(?!建议|意见|要求|原因|理由|注意|内容|好处|区别|不同|看法|体会|措施)|几时(?!候)|什么时刻|哪个时刻|"
    r"\b(?:at\s+)?what\s+time\b(?!\s+(?:zone|period|frame|span|limit|slot)s?\b)", re.IGNORECASE)
_ZH_CLOCK_DIGITS = r"(?:[01]?\d|2[0-4]|[一二两三四五六七八九十]|十[一二])"
_CLOCK = re.compile(
    rf"(?:(?:凌晨|清晨|早上|早晨|上午|中午|下午|傍晚|晚上|晚间|夜间|夜里|深夜|午夜|当晚|当天|次日)\s*)?(?<![\d.:])"
    rf"{_ZH_CLOCK_DIGITS}\s*(?:时|点)(?:\s*(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})\s*分|半|整|钟)?(?!\s*(?:\d|[一二三四五六七八九十]|以上|以下|半?级))|"
    r"(?<![\d.:])(?:[01]?\d|2[0-3])[:：][0-5]\d(?![\d:])(?:\s*(?:a\.m\.|p\.m\.|am\b|pm\b))?|"
    r"(?<![\d.:])(?:1[0-2]|0?[1-9])(?:\.[0-5]\d)?\s*(?:a\.m\.|p\.m\.|am\b|pm\b|o'clock\b)|"
    r"\b(?:noon|midday|midnight)\b", re.IGNORECASE)
"""A time of day as Chinese and English write it: 凌晨2时50分, 下午5点, 三点半, 8:30, 19:45, "7.52 am", "9 pm",
"noon" (not a wind force, 7级, nor a count after it: 3点建议 has no 点 of the clock)."""


def asks_time_of_day(question: str) -> bool:
    """Whether a question asks a time of day (几点, 几时, "what time", "at what time"): a clock time answers it, a
    calendar day alone does not."""
    return ASKS_TIME_OF_DAY.search(question) is not None


def clock_times(text: str) -> list[tuple[int, int, str]]:
    """The times of day ``text`` writes (``_CLOCK``), as (start, end, text)."""
    return [(m.start(), m.end(), m[0]) for m in _CLOCK.finditer(text) if m[0].strip()]


def clock_time(span: str) -> bool:
    """Whether a span writes a time of day (2025年11月22日上午9点, "7.52 am")."""
    return _CLOCK.search(span) is not None


def asks_when(question: str) -> bool:
    """Whether a question asks when an event happened or happens once (什么时候发生的, "When did the fire start?"),
    the calendar day the evidence gives being its most complete answer over a weekday or a time of day; not a
    recurring time ("When does the library usually open?"), a clock time asked as such (几点, "what time") or a
    schedule in the present."""
    if _ASKS_WHEN.search(question) is None or _ASKS_CLOCK.search(question) or _RECURRING.search(question):
        return False
    return _SCHEDULE.search(question) is None or _PAST.search(question) is not None


_DAY_OF_CALENDAR = re.compile(
    r"\d\s*[月日号]|[一二三四五六七八九十]\s*[月日号]|\d{4}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|"
    rf"\b{_MON}(?![a-z])", re.IGNORECASE)


def calendar_day(span: str) -> bool:
    """Whether a date span names a day or a month of the calendar (2024年4月23日, "7 September", 4月, "May 2021"),
    or a day by its distance from the day it is written (前天, "yesterday": ``on_calendar`` dates it), not only a weekday, a time of day, a season or a year (周二, "on Saturday", 上午9时, 夏季, 1889): what a
    question that asks the day of an event (``asks_event_day``) takes."""
    return _DAY_OF_CALENDAR.search(span) is not None or RELATIVE_DAY.search(span) is not None


_ASKS_YEAR = re.compile(r"哪一?年(?!级)|何年|什么年份|\b(?:in\s+)?(?:what|which)\s+year\b", re.IGNORECASE)
_NAMES_YEAR = re.compile(r"(?<!\d)(?:1\d{3}|20\d{2})(?!\d)|[零〇一二三四五六七八九]{4}\s*年|[前去今明后]年|[本上下]一?年度|本年|"
                         r"\b(?:last|this|next)\s+year\b", re.IGNORECASE)


def asks_year(question: str) -> bool:
    """Whether a question asks the year of something (哪一年成立, 何年, "in what year", "which year"): a date that
    names no year (5日, "on Saturday", 3月) cannot answer it."""
    return _ASKS_YEAR.search(question) is not None


def names_year(span: str) -> bool:
    """Whether a date span names a year, written out or relative (1998, 2026年3月1日, 一九九八年, 去年, "last
    year"), as opposed to a day, a month or a weekday only (5日, 3月, "on Saturday")."""
    return _NAMES_YEAR.search(span) is not None


_ASKS_DEADLINE = re.compile(
    r"最晚|最迟|截止|截至|期限|[天日号]前|之前|以前|\bdeadline\b|\b(?:no|not)\s+later\s+than\b|"
    r"\b(?:by|until|till)\s+(?:what|which|when)\b|\b(?:what|which\s+(?:date|day)|when)\b.*\b(?:by|until)\s*[?？.]?\s*$|"
    r"\bdue\s+(?:by|on)\b|\bwhen\b.*\bdue\b", re.IGNORECASE)
_DEADLINE_BEFORE = re.compile(
    r"(?:最晚|最迟|截止|截至|不晚于|不迟于|须于|需于|应于|限于|限期|务必于|deadline|(?:no|not)\s+later\s+than|by|"
    r"until|till|before|due(?:\s+(?:on|by))?)[\s：:为在到至于是的要前]{0,4}$", re.IGNORECASE)
_DEADLINE_AFTER = re.compile(r"^\s*(?:之?前|以前|为止|截止|止)")
_DEADLINE_TERM = re.compile(r"^(?:最晚|最迟|截止|截至|期限|[天日号]前|之前|以前|deadline|until)$",
                            re.IGNORECASE)
DEADLINE_WORDS = ("最晚", "最迟", "截止", "截至", "之前", "以前", "不晚于", "为止", "deadline", "no later than",
                  "not later than", "until", "closing date")
"""The words, in both languages, by which a sentence sets a date as the latest one (最迟须于…前, "no later than");
not "by" or "before", which a folded text holds everywhere ("nearby", "before the storm")."""


def asks_deadline(question: str) -> bool:
    """Whether a question asks the latest date by which something must be done (最晚要在哪天前建好, 报名截止到哪天,
    "By what date must …", "Until what date …", "What is the deadline …"): the date a sentence sets as a limit."""
    return _ASKS_DEADLINE.search(question) is not None


def deadline_at(text: str, start: int, end: int) -> bool:
    """Whether the date at ``text[start:end]`` is set as a limit: a deadline word before it ("no later than 31
    March", 最迟须于5月20日, "until 12 May", 截止日期为…) or after it (5月20日前, 3月31日之前, …为止)."""
    return (_DEADLINE_BEFORE.search(text[max(0, start - 24):start]) is not None
            or _DEADLINE_AFTER.match(text[end:end + 4]) is not None)


def deadline_forms(term: str) -> tuple[str, ...]:
    """A question's deadline word ("最晚", jieba's "天前" of 哪天前, "deadline") and the words that state a limit in
    either language (``DEADLINE_WORDS``); () for any other term: 最晚 is stated by 最迟须于…前 or "no later than"."""
    return (term, *(w for w in DEADLINE_WORDS if w != term)) if _DEADLINE_TERM.match(term) else ()


_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_RELATIVE_DAYS = {"大前天": -3, "前天": -2, "前日": -2, "昨天": -1, "昨日": -1, "今天": 0, "今日": 0, "当天": 0,
                  "明天": 1, "明日": 1, "后天": 2, "yesterday": -1, "today": 0, "tomorrow": 1}
_DAY_WORD = re.compile(r"^(?:on\s+)?(?P<en>monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|"
                       r"^(?:周|星期|礼拜)(?P<zh>[一二三四五六日天])|^(?P<rel>大前天|前天|前日|昨天|昨日|今天|今日|当天|明天|"
                       r"明日|后天|yesterday|today|tomorrow)", re.IGNORECASE)
_AHEAD = re.compile(r"\b(?:will|shall|is\s+(?:due|set|expected|scheduled)|are\s+(?:due|set|expected|scheduled)|"
                    r"from|until|next|coming)\b|将|要|拟|计划|预计|定于|起", re.IGNORECASE)
RELATIVE_YEAR = re.compile(r"本年度|上一?年度|下一?年度|本年(?!级)|今年|去年|明年|\b(?:this|last|next)\s+year\b",
                           re.IGNORECASE)
"""A year named by its distance from the year the text is of (本年度, 今年, "last year"): a report's lines say "this
year" of the year its title states."""
_RELATIVE_YEARS = {"本年度": 0, "本年": 0, "今年": 0, "this year": 0, "上年度": -1, "上一年度": -1, "去年": -1,
                   "last year": -1, "下年度": 1, "下一年度": 1, "明年": 1, "next year": 1}


def period_year(texts: Iterable[str]) -> int | None:
    """The year a document is of by its title or heading (``texts``, in that order): the one year the first of them
    that states any states ("Harbour Rowing Club — 2024 Annual Report", 松溪合唱团2023年度工作总结); None where it states
    several (a span of years: "2019–2024 review") or none does."""
    for text in texts:
        if years := stated_years(text):
            return int(years[0]) if len(years) == 1 else None
    return None


def in_year(span: str, year: int | None) -> int | None:
    """The year a relative year (本年度, "last year") names in a text of ``year``; None for another span or no year."""
    rel = _RELATIVE_YEARS.get(" ".join(span.strip().casefold().split()))
    return None if rel is None or not year else year + rel


RELATIVE_DAY = re.compile(r"大前天|前天|前日|昨天|昨日|明天|后天|\b(?:yesterday|tomorrow)\b", re.IGNORECASE)
"""A day named by its distance from the day the text is written (前天, "yesterday")."""


def on_calendar(span: str, sentence: str, written: int | None) -> str | None:
    """The calendar date a weekday or a relative day names (on Sunday, 周日, 前天, "yesterday") in a text written on
    ``written`` (YYYYMMDD, a day: a dateline, a header's date), written as the sentence's language writes dates
    ("4 May 2025", 2025年9月16日); None when the span is no such day or the written date is not a day. A weekday
    is the last one on or before the written day, or the next one on or after it where the sentence speaks
    ahead ("will reopen on Friday", 将于周五)."""
    m = _DAY_WORD.match(span.strip())
    if m is None or not written or written % 100 == 0:
        return None
    try:
        day = date(written // 10000, written // 100 % 100, written % 100)
    except ValueError:
        return None
    if day.month == 1 and day.day == 1:
        return None  # a year stored as its first day: no day to count from
    if m["rel"]:
        when = day.toordinal() + _RELATIVE_DAYS[m["rel"].casefold()]
    else:
        weekday = _WEEKDAYS_EN.index(m["en"].casefold()) if m["en"] else _WEEKDAY_ZH[m["zh"]]
        back = (day.weekday() - weekday) % 7
        ahead = (weekday - day.weekday()) % 7
        when = day.toordinal() + (ahead if _AHEAD.search(sentence) else -back)
    found = date.fromordinal(when)
    if re.search(r"[\u4e00-\u9fff]", sentence):
        return f"{found.year}年{found.month}月{found.day}日"
    return f"{found.day} {calendar.month_name[found.month]} {found.year}"


_CLAUSE = re.compile(r"[^，,；;。！？!?]+")
_PLANNED = re.compile(r"预计|计划|原计划|拟于|拟在|将于|将在|定于|下次|下一次|届时|\b(?:will|shall|next|due|scheduled|"
                      r"expected|planned|plans?\s+to|intends?\s+to)\b", re.IGNORECASE)
"""A clause that writes a plan or a later event (预计4月初补录, "the fair will be held on 19 April"): its date is
that event's, not the date of what the rest of its sentence reports."""


def without_planned(text: str) -> str:
    """``text`` less its clauses that write a plan or a later event (``_PLANNED``): what it reports as done."""
    return " ".join(m[0] for m in _CLAUSE.finditer(text) if not _PLANNED.search(m[0]))


_REPORTED_BEFORE = re.compile(r"\b(?:said|says|told\s+\w+|announced|confirmed|reported|added|stated|warned|"
                              r"explained)\s+(?:on\s+|late\s+on\s+|early\s+on\s+)?$", re.IGNORECASE)
_REPORTED_AFTER = re.compile(r"^\s*(?:上午|下午|晚间|晚上)?\s*(?:表示|称|说|介绍|通报|宣布|透露|指出|证实|回应)")
_ASKS_REPORT = re.compile(r"\b(?:say|said|announce|announced|confirm|confirmed|report|reported|state|stated)\b|"
                          r"表示|宣布|通报|证实|回应|发布|公布|透露", re.IGNORECASE)


def reported_on(question: str, text: str, start: int, end: int) -> bool:
    """Whether the date at ``text[start:end]`` is the day something was said of the event ("…, investigators said
    on Wednesday", 消防部门周三表示), not the event's own, where the question does not ask when it was said."""
    if _ASKS_REPORT.search(question):
        return False
    return (_REPORTED_BEFORE.search(text[max(0, start - 30):start]) is not None
            or _REPORTED_AFTER.match(text[end:end + 8]) is not None)


_DAY_NAME = (r"(?:\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?|mon|tues?|thu(?:rs?)?|fri|(?-i:Wed|Sat|Sun))\b\.?|"
             r"(?:周|星期|礼拜)[一二三四五六日天])")
"""A weekday's name: in full, abbreviated ("Mon", "Thurs"; "Sat", "Sun" and "Wed" capitalised only: also words) or
in Chinese (周一, 星期六, 礼拜天)."""
_DAY_RANGE = re.compile(rf"({_DAY_NAME})\s*(?:至|到|~|～|–|—|-|\bto\b|\bthrough\b|\bthru\b|\buntil\b)\s*({_DAY_NAME})",
                        re.IGNORECASE)
_ONE_DAY = re.compile(_DAY_NAME, re.IGNORECASE)
_EVERY_DAY = re.compile(r"每天|每日|天天|全天候|全年无休|\b(?:daily|every\s+day|each\s+day|seven\s+days(?:\s+a\s+week)?|"
                        r"7\s+days\s+a\s+week|all\s+week)\b", re.IGNORECASE)
_WORKDAYS = re.compile(r"工作日|\bweekdays\b|\bworking\s+days\b", re.IGNORECASE)
_WEEKEND = re.compile(r"周末|双休日|\bweekends?\b", re.IGNORECASE)
_DAY_PREFIXES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def _day_number(word: str) -> int | None:
    w = word.casefold().strip(". ")
    if w[:1] in ("周", "星", "礼"):
        return _WEEKDAY_ZH.get(w[-1])
    return next((n for n, p in enumerate(_DAY_PREFIXES) if w.startswith(p)), None)


_DAY_TERM = re.compile(rf"^(?:on\s+)?{_DAY_NAME}$", re.IGNORECASE)


def day_term(term: str) -> frozenset[int]:
    """The weekday a question's term is (周日, "sundays"), else none."""
    return days_named(term) if _DAY_TERM.match(term.strip()) else frozenset()


def days_named(text: str) -> frozenset[int]:
    """The weekdays (0 = Monday … 6 = Sunday) a text names, ranges and collectives spelled out: 周一至周五 and
    "Monday to Friday" are the five working days, 周末 and "weekends" Saturday and Sunday, 每天 and "daily" every
    day. A list of days names each of them (周一、周三); a day outside every range it writes is not named."""
    days: set[int] = set()
    if _EVERY_DAY.search(text):
        return frozenset(range(7))
    if _WORKDAYS.search(text):
        days |= set(range(5))
    if _WEEKEND.search(text):
        days |= {5, 6}
    rest = text
    for m in _DAY_RANGE.finditer(text):
        a, b = _day_number(m[1]), _day_number(m[2])
        if a is not None and b is not None:
            days |= {(a + i) % 7 for i in range((b - a) % 7 + 1)}
        rest = rest.replace(m[0], " ")
    days |= {n for m in _ONE_DAY.finditer(rest) if (n := _day_number(m[0])) is not None}
    return frozenset(days)


_ORDINAL = r"(?:第\s*[一二三四五1-5]\s*个?|最后一个|倒数第一个)"
_EN_ORDINAL = r"(?:first|second|third|fourth|1st|2nd|3rd|4th|last|final)"
_EN_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
RECURRENCE = re.compile(
    rf"每\s*个?\s*月(?:的)?\s*(?:{_ORDINAL}\s*)?(?:(?:周|星期|礼拜)[一二三四五六日天]|\d{{1,2}}\s*[日号]|工作日|月[初底末])|"
    r"每\s*个?\s*(?:周|星期|礼拜)[一二三四五六日天](?:\s*[、和及与至到~～-]\s*(?:周|星期|礼拜)?[一二三四五六日天])*|"
    r"每年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?|隔周(?:周|星期)?[一二三四五六日天]?|每天|每日|平日|平时|工作日|双休日|周末|"
    rf"\b(?:(?:on\s+)?the\s+)?{_EN_ORDINAL}\s+(?:{_EN_DAYS}|weekday|day)\s+of\s+(?:each|every|the)\s+month\b|"
    rf"\b(?:every|each)\s+(?:other\s+|second\s+)?(?:{_EN_DAYS}|weekday|weekend|day|morning|evening|night|week|"
    r"fortnight|month)\b|"
    rf"\b{_EN_DAYS}s(?:\s*(?:,|and|&|or)\s*{_EN_DAYS}s)*\b|\b(?:on\s+)?weekdays\b|\b(?:at\s+)?weekends\b|\bdaily\b",
    re.IGNORECASE)
"""A time that recurs, as a schedule writes it: 每月第一个周六, 每周二、周四, 每月5日, 平日, 工作日, "the last Friday
of each month", "every other Thursday", "every weekday", "Tuesdays and Thursdays", "daily": the answer to when
something happens that happens again and again."""
_ONCE_ZH = re.compile(r"是.{0,8}(?:什么时候|何时|啥时候).{0,16}的")
"""是…什么时候…的: the Chinese of one event in the past (是什么时候搬到河边的)."""
_ASKS_RECURRING_WHEN = re.compile(r"什么时候|何时|啥时候|哪些?天|哪几天|\bwhen\b|\bwhat\s+days?\b|\bwhich\s+days?\b",
                                  re.IGNORECASE)


_TO_CLOCK = re.compile(r"^\s*(?:(?:morning|afternoon|evening|night)s?\s*)?(?:from|at|between|,)?\s*$|"
                       r"^\s*(?:的)?\s*$", re.IGNORECASE)
_CLOCK_RANGE = re.compile(r"^\s*(?:至|到|~|～|–|—|-|\bto\b|\buntil\b|\btill\b|\band\b)\s*$", re.IGNORECASE)


def recurring_times(text: str) -> list[tuple[int, int, str]]:
    """The recurring times ``text`` writes (``RECURRENCE``), as (start, end, text), each with the hours written
    right after it (每周二、周四晚上7点至9点, "every weekday from 8:30 to 17:00")."""
    clocks = clock_times(text)
    out = []
    for m in RECURRENCE.finditer(text):
        if not m[0].strip():
            continue
        start, end = m.start(), m.end()
        joined = _TO_CLOCK
        for a, b, _ in clocks:
            if a < end:
                continue
            if not joined.match(text[end:a]):
                break
            end, joined = b, _CLOCK_RANGE
        out.append((start, end, text[start:end].strip()))
    return out


def asks_recurring_when(question: str) -> bool:
    """Whether a when-question may be answered by a recurring time (什么时候排练, "When are the meetings held?",
    "When is the showroom open on weekdays?", "What days is rubbish collected?"): any when-question but one in
    the past (did, was, 了: one event, "When did it open its second shop?") or one that asks a year, a day of the
    calendar or a clock time as such. A sentence that dates one event still answers
    by its date (``spans.of_asked_kind`` keeps the calendar's dates for ``asks_when``)."""
    return _ASKS_RECURRING_WHEN.search(question) is not None and _PAST.search(question) is None \
        and _ONCE_ZH.search(question) is None \
        and not asks_year(question) and not asks_event_day(question) and not asks_time_of_day(question)
