"""Numbers that are part of a name (own invented examples, Chinese and English): a document number's year, a
model code, a numbered room, route or form, a standard, a version, a telephone number are no date, year, count or
amount; a question that asks for such a name keeps them."""

from __future__ import annotations

from datetime import date

from graphs.text.dates import find_dates, stated_years
from graphs.text.identifiers import asks_identifier, identifier_spans, in_identifier
from graphs.text.spans import candidates

_TODAY = date(2026, 5, 1)


def _spans(text: str) -> list[str]:
    return [text[a:b] for a, b in identifier_spans(text)]


def test_names_with_digits_are_found_in_both_languages() -> None:
    assert _spans("梧州水务公告〔2024〕第8号") == ["梧州水务公告〔2024〕第8号"]
    assert _spans("咨询热线：0773-55012019，分机 2023。") == ["热线：0773-55012019", "分机 2023"]
    assert _spans("依据GB/T 50015-2019，会议在508室举行，系统版本 v4.0.2。第9条") == [
        "GB/T 50015-2019", "508室", "版本 v4.0.2", "第9条"]
    assert _spans("See case file Ref. 2021/77; take Route 16 to Gate D7 and Room 2018.") == [
        "2021/77", "16", "D7", "2018"]
    assert _spans("The KV-2025 pump meets ISO 14001:2015; file Form 2290; call 0800 2020 414.") == [
        "KV-2025", "ISO 14001:2015", "2290", "0800 2020 414"]


def test_dates_counts_and_amounts_are_no_names() -> None:
    for text in ("It opened on 4 May 2019 and seats 40 guests for 1,200 pounds.", "2019年3月开工，投资1500万元，共12人。",
                 "In FY2024 revenue rose; the 2019-2020 season; 2023.5.14; mid-2024", "form 2 groups of 30"):
        assert not [s for s in _spans(text) if "2019" in s or "2024" in s or "30" in s or "40" in s], text


def test_a_names_year_dates_nothing() -> None:
    text = "鹿城供电公告〔2025〕第3号：6月2日停电。Ref. 2019/31, Room 2021."
    assert [d.text for d in find_dates(text, _TODAY)] == ["6月2日"] or all(
        "2025" not in d.text and "2019" not in d.text and "2021" not in d.text for d in find_dates(text, _TODAY))
    assert stated_years(text) == []
    assert stated_years("该所建于1998年，文号〔2025〕4号") == ["1998"]


def test_a_names_digits_are_no_count_unless_the_name_is_asked() -> None:
    sentence = "值班室在312室，分机 4418，共有值班员6人。"
    assert [c.text for c in candidates(sentence, "number", "值班员有多少人？")] == ["6人"]
    assert any("4418" in c.text for c in candidates(sentence, "number", "值班室的分机号是多少？"))
    english = "The desk is in Room 14 on Route 9, extension 2210, and has 3 staff."
    assert [c.text for c in candidates(english, "number", "How many staff does the desk have?")] == ["3"]
    assert in_identifier(english, english.index("2210"), english.index("2210") + 4)
    assert asks_identifier("What is the desk's extension?") and asks_identifier("分机号是多少？")
    assert not asks_identifier("How many staff does it have?") and not asks_identifier("What is the number of seats?")


def test_a_names_year_is_no_date_span() -> None:
    sentence = "Notice Ref. 2024/18: the road closes on 12 June."
    assert [c.text for c in candidates(sentence, "date", "When does the road close?")] == ["12 June"]
    zh = "临时通告〔2026〕第5号：3月8日起封路。"
    assert [c.text for c in candidates(zh, "date", "什么时候封路？")] == ["3月8日"]


def test_a_fields_telephone_number_is_no_date() -> None:
    # the label names what is asked (reopening, 开放), its value is a telephone number: no date is stated
    from tests.support.answers import write
    from tests.support.fakes import hit

    notice = hit("pool#0", "Lido closure notice\nReopening enquiries: 0161 555 0199 (24 hours)\n"
                           "The boiler is being repaired.", title="lido closure notice")
    _, _, span, _ = write("When does the lido reopen?", [notice])
    assert span is None or "0161" not in span
    zh = hit("gym#0", "体育馆闭馆通知\n开放咨询热线：0731-8822 4400（24小时）\n馆内正在维修。", title="体育馆闭馆通知")
    _, _, span, _ = write("体育馆什么时候开放？", [zh])
    assert span is None or "0731" not in span
