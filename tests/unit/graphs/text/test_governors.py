"""The words that govern a value in its sentence (graphs/text/governors.py): the attribute it is the value of,
the named subject it belongs to, the period it is for — Chinese and English, invented sentences."""

from __future__ import annotations

import pytest

from graphs.text.governors import Governors, governors, relative, same_measure, year_of


def of(sentence: str, value: str, names: tuple[str, ...] = ()) -> Governors:
    start = sentence.index(value)
    return governors(sentence, start, start + len(value), names=names)


@pytest.mark.parametrize(("sentence", "value", "attribute"), [
    # the attribute before the value, words of change between them transparent
    ("2024年，青禾电器净利润由亏转盈，达7.2亿元，同比增长86.4%。", "86.4%", "净利润"),
    ("青禾电器去年销量为41万台，同比增长12%。", "12%", "销量"),
    ("Sales of the Tamsin e-bike rose 18% while profit fell 4%.", "4%", "profit"),
    ("Sales of the Tamsin e-bike rose 18% while profit fell 4%.", "18%", "Sales"),
    # the attribute written right after the value governs it, not the one before
    ("山体滑坡造成7人遇难，另有15人受伤。", "15人", "受伤"),
    ("山体滑坡造成7人遇难，另有15人受伤。", "7人", "遇难"),
    ("The ferry fire left 9 passengers dead and 31 people were injured.", "31", "injured"),
    # a share of the attribute is not the attribute
    ("2023年，岚山乳业在华东市场的销量占其总销量的38%。", "38%", "占比"),
    ("Exports accounted for 27% of the Brenvale dairy's revenue.", "27%", "share"),
])
def test_the_attribute_that_governs_a_value(sentence: str, value: str, attribute: str) -> None:
    assert of(sentence, value).attribute == attribute


def test_no_attribute_word_no_governor() -> None:
    assert of("预计2025年全省经济将增长5.5%。", "5.5%").attribute is None


@pytest.mark.parametrize(("sentence", "value", "names", "subject"), [
    ("青禾电器的销量为41万台，蓝湾电器为37万台。", "37万台", ("青禾电器", "蓝湾电器"), "蓝湾电器"),
    ("青禾电器的销量为41万台，蓝湾电器为37万台。", "41万台", ("青禾电器", "蓝湾电器"), "青禾电器"),
    ("Harbin Dairy sold 3,000 tonnes, while Corlin Foods sold 2,100 tonnes.", "2,100", ("Harbin Dairy",
                                                                                        "Corlin Foods"),
     "Corlin Foods"),
])
def test_the_nearest_name_before_a_value_is_its_subject(sentence: str, value: str, names: tuple[str, ...],
                                                          subject: str) -> None:
    assert of(sentence, value, names).subject == subject


@pytest.mark.parametrize(("sentence", "value", "period", "part"), [
    ("2023年岚山乳业营收为52亿元，2022年为47亿元。", "47亿元", "2022年", None),
    ("2023年岚山乳业营收为52亿元，2022年为47亿元。", "52亿元", "2023年", None),
    ("岚山乳业营收为52亿元，去年同期为47亿元。", "47亿元", "去年同期", None),
    ("2024年上半年，全市新登记汽车18万辆。", "18万辆", "2024年", "上半年"),
    ("In 2022 the Orla plant produced 8,000 cars, against 6,500 a year earlier.", "6,500", "a year earlier", None),
    ("Revenue was $4.1 billion in the third quarter of 2023.", "$4.1 billion", "of 2023", "third quarter"),
    ("Sales of the Tamsin e-bike rose 18% in 2024, after 9% in 2023.", "9%", "in 2023", None),
    # the base of a comparison is not the value's period
    ("2024年，全省粮食产量比上年增长3.1%。", "3.1%", "2024年", None),
    ("In 2024 the Orla plant's output was up 7% from 2023.", "7%", "In 2024", None),
    ("Output was up 7% compared with 2023.", "7%", None, None),
    # a value written right after the base period is the base's own (比X年的Y, "from X's Y")
    ("今年渡口共运送乘客8.6万人次，较2022年的7.9万人次有所回升。", "7.9万人次", "2022年", None),
    ("今年渡口共运送乘客8.6万人次，较2022年的7.9万人次有所回升。", "8.6万人次", "今年", None),
    ("The archive lent 3,420 maps, up from 2021's 2,975 maps.", "2,975", "2021", None),
    ("全县2023年小麦单产比2022年（412公斤）提高了5%。", "412公斤", "2022年", None),
    # a month is when something happened, not a part of the year a figure is for
    ("今年3月，青禾电器召回空调1200台。", "1200台", "今年", None),
])
def test_the_period_a_value_is_for(sentence: str, value: str, period: str | None, part: str | None) -> None:
    found = of(sentence, value.lstrip("$"))
    assert found.period == period
    assert found.part == part


def test_the_words_that_narrow_an_attribute() -> None:
    assert of("2024年青禾的空调销量首次突破20万台。", "20万台", ("青禾",)).modifier == "空调"
    assert of("青禾电器2024年全年销量为41万台。", "41万台", ("青禾电器",)).modifier == ""
    assert of("青禾电器在华东市场的销量为9万台。", "9万台", ("青禾电器",)).modifier == ""


def test_periods_and_measures() -> None:
    assert year_of("2021年度") == "2021" and year_of("去年") is None
    assert relative("上年同期") and relative("a year earlier") and not relative("2021年")
    assert same_measure("销售量", ["销量"]) and same_measure("全球销量", ["销量"])
    assert same_measure("deaths", ["death toll"]) and not same_measure("injured", ["killed", "death toll"])
    assert not same_measure("净利润", ["销量"]) and not same_measure("受伤", ["死亡", "遇难"])
    assert same_measure("营业收入", ["营收"]) and not same_measure("受伤", ["伤亡"])


def test_parts_of_a_year_are_matched_across_languages() -> None:
    from graphs.text.governors import part_of, same_part

    assert part_of("前三季度") == part_of("the first nine months") == "Q1-Q3"
    assert same_part("前三季度", "What were sales in the first three quarters?")
    assert same_part("上半年", "first-half profit? H1")
    assert not same_part("前三季度", "第三季度单季净利润是多少？")
    assert not same_part("一季度", "What were sales in the third quarter?")


# --- names, dates and places: the role or event that governs them ------------------------------------------------

from graphs.text.governors import carried_over, event_matches, event_of, name_role, role_matches  # noqa: E402


def role_of(sentence: str, name: str) -> tuple[str, ...]:
    start = sentence.index(name)
    return name_role(sentence, start, start + len(name)).roles


@pytest.mark.parametrize(("sentence", "name", "role"), [
    ("颁奖名单：最佳男演员：韩知远《雾港》，最佳导演：宋以宁《北行》。", "宋以宁", "最佳导演"),
    ("本届评委会主席为林叙，评委共七人。", "林叙", "本届评委会主席"),
    ("决赛中，叶书桐夺得女子单打冠军。", "叶书桐", "女子单打冠军"),
    ("该剧由周海川执导，拍摄历时两年。", "周海川", "执导"),
    ("At the Kestrel Open, Mara Velez won the women's doubles title with her sister.", "Mara Velez",
     "women's doubles title"),
    ("The hearing, chaired by Alma Ruiz, lasted four hours.", "Alma Ruiz", "chaired"),
    ("The report came from treasurer Owen Pryce.", "Owen Pryce", "treasurer"),
])
def test_the_role_that_governs_a_name(sentence: str, name: str, role: str) -> None:
    assert role in role_of(sentence, name)


def test_a_name_without_a_role_word_has_no_role() -> None:
    assert role_of("程牧和剧组走遍了海岛。", "程牧") == ()


def test_the_work_a_role_is_given_for() -> None:
    s = "最佳编剧：宋以宁《北行》。"
    start = s.index("宋以宁")
    assert name_role(s, start, start + 3).work == "北行"


@pytest.mark.parametrize(("role", "question", "matches"), [
    ("最佳电视剧编剧", "《北行》的编剧是谁？", True),
    ("最佳女主角", "《北行》的编剧是谁？", False),
    ("男子双打冠军", "谁是男子单打冠军？", False),
    ("世锦赛冠军", "2025年澜江杯女子单打冠军是谁？", False),
    ("2025年澜江杯女子单打冠军", "2025年澜江杯女子单打冠军是谁？", True),
    ("执导", "Who directed 北行?", True),
    ("women's singles final", "Who won the men's singles at Kestrel?", False),
    ("men's singles final", "Who won the men's singles at Kestrel?", True),
    ("Olympic champion", "Who won the men's singles at Kestrel?", False),
    ("treasurer", "Who chaired the meeting?", False),
    ("最佳导演", "北行讲了什么故事？", None),
])
def test_whether_a_role_is_the_asked_one(role: str, question: str, matches: bool | None) -> None:
    assert role_matches(role, question) is matches


@pytest.mark.parametrize(("sentence", "value", "event"), [
    ("2025年青湾茶博会新闻发布会于3月2日在临江宾馆举行。", "临江宾馆", "新闻发布会"),
    ("2025年青湾茶博会新闻发布会于3月2日在临江宾馆举行。", "3月2日", "新闻发布会"),
    ("4月9日，澜江马拉松启动仪式在江滨公园举行。", "4月9日", "启动仪式"),
    ("The press conference was held on 4 June at the Pier Hall.", "4 June", "press conference"),
])
def test_the_event_that_governs_a_date_or_place(sentence: str, value: str, event: str) -> None:
    start = sentence.index(value)
    assert event_of(sentence, start, start + len(value)).event == event


def test_no_event_noun_no_event() -> None:
    s = "青湾茶叶于3月2日上市。"
    assert event_of(s, s.index("3月2日"), s.index("3月2日") + 4).event is None


@pytest.mark.parametrize(("event", "question", "matches"), [
    ("开幕式", "冬季运动会什么时候开幕？", True),
    ("新闻发布会", "青湾X3什么时候发布？", True),
    ("新闻发布会", "2025年青湾茶博会在哪里举行？", False),
    ("launch event", "When was the Vela X2 launched?", True),
    ("press conference", "When does the Vela summit open?", False),
])
def test_whether_an_event_is_the_asked_one(event: str, question: str, matches: bool) -> None:
    assert event_matches(event, question) is matches


@pytest.mark.parametrize(("sentence", "value", "carried"), [
    ("该公司全年营收为52亿元。", "52亿元", True),
    ("其销量同比增长9%。", "9%", True),
    ("Its revenue rose 6% to $1.2 billion.", "6%", True),
    ("The company shipped 40,000 units.", "40,000", True),
    ("岚山乳业全年营收为52亿元。", "52亿元", False),
    ("Harbin Dairy's revenue rose 6%.", "6%", False),
])
def test_a_clause_that_opens_with_a_pronoun_carries_the_subject_over(sentence: str, value: str, carried: bool) -> None:
    assert carried_over(sentence, sentence.index(value)) is carried


@pytest.mark.parametrize(("role", "question", "matches"), [
    ("董事会主席兼前首席执行官", "青禾集团的新任首席执行官是谁？", False),
    ("是由韩知远领衔主演", "电影《北行》的主演是谁？", True),
    ("全英赛女单冠军", "2025年澜江杯女单冠军是谁？", False),
    ("Olympic champion", "Who won the women's singles at the Kestrel Open?", False),
])
def test_a_role_of_another_competition_or_a_former_holder(role: str, question: str, matches: bool) -> None:
    assert role_matches(role, question) is matches


def test_a_phrase_without_a_role_word_compares_with_nothing() -> None:
    from graphs.text.governors import role_matches

    assert role_matches("written", "Who wrote the ballad after the storm of 1921?") is None
    assert role_matches("最佳女主角", "谁获得了最佳编剧？") is False


def test_scope_and_manner_words_do_not_narrow_the_attribute() -> None:
    text = "截至昨晚，全市紧急转移安置群众8600人，其中老人1200人。"
    start = text.index("8600人")
    gov = governors(text, start, start + len("8600人"), attributes=["群众"])
    assert gov.attribute == "群众" and gov.modifier in ("", "转移安置")
