"""What a quantity measures: the dimension of a number as a passage writes it (its unit or measure word) and the
dimensions a question asks for.

"How many firefighters were sent?" is not answered by "after six hours", nor "多少名医护人员" by "第七届": the
value's own unit says what it measures (a duration, an ordinal), and the question's words say what may answer it
(a count of people). A number with no unit says nothing and fits any question; a question whose words name no
dimension (plain "how much", "多少") allows every value. Dimensions, not attributes: which attribute a value is of
is ``graphs.text.governors``' question; these only say that a length never counts people.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from graphs.text.normalize import has_han

Dimension = str
"""One of: duration, length, weight, area, volume, energy, power, speed, temperature, sound, percent, money,
ordinal, persons, count (counted things with another measure word, or none named)."""

MEASURES = frozenset({"duration", "length", "weight", "area", "volume", "energy", "power", "speed", "temperature",
                      "sound", "percent", "money", "ordinal"})
"""Dimensions of a measure: a value of one of these counts nothing."""

# Chinese classifiers (measure words): the one inventory, by what they count. Every reader of the code base takes
# the groups it needs from here; where a reader needs fewer, the difference is written below with its reason.
PEOPLE_CLASSIFIERS_ZH = frozenset("名位")
"""Classifiers that count people (三名队员, 两位评委)."""
THING_CLASSIFIERS_ZH = frozenset("个辆台家座所艘架场项件部本条只户套届支颗枚首集层例起种")
"""Classifiers that count things, firms, works, events, editions and cases (两辆车, 三家公司, 第七届, 两起事故)."""
TIMES_CLASSIFIER_ZH = frozenset("次")
"""The verbal classifier: how often a thing is done (三次)."""
PIECE_CLASSIFIERS_ZH = frozenset("张把根块瓶盒包双对袋份片粒卷箱组节间栋道盏扇株棵头匹级")
"""Classifiers of objects by their shape or pack (两张票, 一瓶水, 三根管子, 一盏灯)."""
SERVING_CLASSIFIERS_ZH = frozenset("针杯碗趟回副顿剂晚堂轮单罐桶盘")
"""Classifiers of portions, doses and goes (一杯, 打一针, 坐一趟, 住一晚)."""

COUNT_CLASSIFIERS_ZH = PEOPLE_CLASSIFIERS_ZH | THING_CLASSIFIERS_ZH
"""What a count of people or things is written with (18名队员, 12家, 第七届): a "多少名/几家" question's noun
follows one, and so does the counted noun of a value."""
NOT_IN_HAND_ZH = frozenset("所场户届集层例起种")
"""Thing classifiers whose noun is no object counted in hand: institutions, events, households, editions, episodes,
floors, cases, incidents, kinds (两所学校, 三场比赛, 一种方法)."""
OBJECT_CLASSIFIERS_ZH = PEOPLE_CLASSIFIERS_ZH | (THING_CLASSIFIERS_ZH - NOT_IN_HAND_ZH) | PIECE_CLASSIFIERS_ZH
"""What a count of objects in hand is written with (两个滤网, 三根管子): ``counts_things``."""
DOING_CLASSIFIERS_ZH = (TIMES_CLASSIFIER_ZH | SERVING_CLASSIFIERS_ZH
                        | frozenset("个支只台件项套本场条颗") | frozenset("张份瓶盒片把袋包间节粒双"))
"""What a thing done or bought is counted by when a question says it as a verb with a numeral (洗一次牙, 拍一张,
买一杯, 做个): of the thing and piece classifiers only those that end no common word after 一 or 两 (统一部署,
一家人, 一头雾水, 两栋 … keep their characters: 部, 家, 头 are left out)."""
EDGE_CLASSIFIERS_ZH = (PEOPLE_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH
                       | frozenset("个场家件条只辆台座所项") | frozenset("张把间"))
"""The classifiers the segmenter leaves at the front of a counted noun whose numeral it cut off (三名跑者 → 名跑者):
the commonest ones, since a rarer one at a word's front is more often part of the word (头盔, 节能)."""
SET_CLASSIFIERS_ZH = (PEOPLE_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH | frozenset("个家座所条台辆项件支艘套种")
                      | frozenset("份间栋") | frozenset("款类者样处"))
"""The classifiers of a set of candidates a comparison describes by its size instead of naming them (两份报价,
这三座桥, 几家供应商, 两款, 这两类, 两者): the people, thing and piece classifiers such a set is counted by, and the
kind words 款, 类, 者, 样, 处 (``graphs.text.answer_types``)."""
QUANTITY_UNITS_ZH = ("年", "岁", "月", "日", "天", "分钟", "分", "秒", "小时", "周", "米", "公里", "千米", "厘米", "公斤",
                     "千克", "克", "吨", "元", "美元", "港元", "英镑", "欧元", "平方公里", "平方米", "公顷", "亩", "倍", "公分",
                     "毫米", "英里", "英尺", "哩", "桶", "升", "毫升", "千瓦", "兆瓦", "日元", "韩元", "卢布", "澳元", "加元",
                     "人民币", "%", "％", "℃", "度", "人", "册", "页", "字", "席", "票", "股")
"""The units and counted nouns (not classifiers) after which a number is a quantity span (``graphs.text.spans``):
narrower than ``_UNITS_ZH`` below, whose 成, 块, 节, 瓦 are read only once a span is found."""
QUANTITY_WORDS_ZH = tuple(sorted({*COUNT_CLASSIFIERS_ZH, *TIMES_CLASSIFIER_ZH, *QUANTITY_UNITS_ZH},
                                 key=lambda w: (-len(w), w)))
"""Every word after which a number is a quantity span, longest first (日元 before 日, 人民币 before 人)."""


def alternation(words: frozenset[str] | tuple[str, ...]) -> str:
    """A regular-expression group matching any of ``words``, longest first."""
    return "(?:" + "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))) + ")"


_UNITS_ZH: dict[Dimension, tuple[str, ...]] = {
    "duration": ("小时", "分钟", "秒钟", "天", "周", "星期", "个月", "年"),
    "length": ("公里", "千米", "厘米", "毫米", "英里", "英尺", "公分", "米"),
    "weight": ("公斤", "千克", "毫克", "克", "吨", "斤"),
    "area": ("平方公里", "平方米", "平方千米", "公顷", "亩"),
    "volume": ("立方米", "毫升", "升"),
    "energy": ("千瓦时", "瓦时", "毫安时", "度电"),
    "power": ("千瓦", "兆瓦", "瓦", "马力"),
    "speed": ("公里/小时", "千米/小时", "节"),
    "temperature": ("℃", "摄氏度", "度"),  # 多少度, 1300度: a temperature (度电, the longer unit, an energy)
    "sound": ("分贝",),
    "percent": ("%", "％", "个百分点", "成"),
    "money": ("元", "美元", "美金", "港元", "港币", "欧元", "英镑", "日元", "韩元", "卢布", "澳元", "加元", "人民币", "台币",
              "新台币", "法郎", "卢比", "泰铢", "块"),
    "persons": ("人次", "人", "名", "位"),
}
_UNITS_EN: dict[Dimension, tuple[str, ...]] = {
    "duration": ("hours", "hour", "hrs", "hr", "minutes", "minute", "mins", "min", "seconds", "second", "days",
                 "day", "weeks", "week", "months", "month", "years", "year"),
    "length": ("kilometres", "kilometers", "kilometre", "kilometer", "km", "metres", "meters", "metre", "meter",
               "m", "cm", "mm", "miles", "mile", "feet", "foot", "ft", "inches", "inch"),
    "weight": ("kilograms", "kilogram", "kg", "grams", "gram", "g", "tonnes", "tonne", "tons", "ton", "pounds",
               "lb", "lbs"),
    "area": ("square kilometres", "square kilometers", "square metres", "square meters", "square miles",
             "square feet", "km²", "m²", "hectares", "acres"),
    "volume": ("litres", "liters", "litre", "liter", "ml", "cl", "gallons", "gallon", "gal", "cubic metres",
               "cubic meters"),
    "energy": ("kwh", "wh", "mah"),
    "power": ("kw", "mw", "watts", "watt", "w", "horsepower", "hp"),
    "speed": ("km/h", "kph", "mph", "knots"),
    "temperature": ("°c", "°f", "degrees"),
    "sound": ("db", "decibels"),
    "percent": ("%", "percent", "per cent", "percentage points"),
    "money": ("dollars", "euros", "pounds sterling", "yuan", "pence", "cents", "p"),  # 35p: "p." is a clock's p.m.
    "persons": ("people", "persons", "residents", "inhabitants", "workers", "employees", "students", "members",
                "staff", "passengers", "visitors", "volunteers"),
}
_CURRENCY_SIGN = re.compile(r"[$￥¥€£]")
_CURRENCY_CODES = ("USD", "EUR", "GBP", "RMB", "CNY", "HKD", "JPY", "AUD", "CAD", "CHF", "SGD", "NZD", "INR")
"""The currency codes written before an amount ("USD 289") or at the end of a column's name ("price_gbp")."""
_CURRENCY_CODE_BEFORE = re.compile(r"(?:\b(?:" + "|".join(_CURRENCY_CODES) + r"|Rs)|人民币|美元|欧元|港币|港元|英镑|日元)"
                                   r"\.?\s?$", re.IGNORECASE)
"""A currency written as its code or name before the amount ("USD 289", "EUR 1,290", 人民币500): money, as a sign is."""
_CURRENCY_BEFORE = re.compile(r"(?:(?:\b(?:US|HK|NZ|AU|A|C|S))?[$￥¥€£]|" + _CURRENCY_CODE_BEFORE.pattern.removesuffix("$")
                              + r")\s?$", re.IGNORECASE)
"""A currency sign (£, US$, ¥) or code (EUR, 人民币) that ends where an amount begins."""


def currency_before(text: str, start: int) -> int | None:
    """Where a currency sign or code written right before ``text[start]`` begins (£35, US$ 20, EUR 1,290,
    人民币500: the amount at ``start`` is money in it); None when none is."""
    m = _CURRENCY_BEFORE.search(text, max(0, start - 8), start)
    return m.start() if m is not None else None


_MAGNITUDE = re.compile(r"^(?:多|余|万|亿|千|百|十)+|^(?:[\s-]*(?:million|billion|thousand|hundred|trillion))+",
                        re.IGNORECASE)
_NUMERAL = re.compile(r"(?:\d[\d,，.]*|[零〇一二两三四五六七八九十百千万亿]+|\b(?:one|two|three|four|five|six|seven|"
                      r"eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|dozen)\b)", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(r"第\s*$")
_ORDINAL_EN = re.compile(r"^\d+(?:st|nd|rd|th)\b|^(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
                         r"tenth)\b", re.IGNORECASE)


def _unit_pattern(units: tuple[str, ...], latin: bool) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    return re.compile(rf"^\s*(?:{alternatives})(?![a-z]|(?<=p)\.)" if latin else rf"^\s*(?:{alternatives})",
                      re.IGNORECASE)


_ZH = {d: _unit_pattern(u, False) for d, u in _UNITS_ZH.items()}
_EN = {d: _unit_pattern(u, True) for d, u in _UNITS_EN.items()}


def value_dimension(text: str, start: int, end: int) -> Dimension | None:
    """The dimension of the quantity written at ``text[start:end]`` (a number with its unit or measure word, as
    ``graphs.text.spans`` cuts it): an ordinal after 第 or with an ordinal ending, the unit written after the
    numeral (a magnitude, 万 or "million", skipped), money by its currency sign; "count" for another measure
    word (辆, 届, "games"); None for a bare number."""
    value = text[start:end]
    if _ORDINAL_BEFORE.search(text[max(0, start - 2) : start]) or _ORDINAL_EN.match(value.strip()):
        return "ordinal"
    if _CURRENCY_SIGN.search(text[max(0, start - 1) : end]) or _CURRENCY_CODE_BEFORE.search(text, max(0, start - 5),
                                                                                               start):
        return "money"
    numeral = _NUMERAL.search(value)
    if numeral is None:
        return None
    rest = _MAGNITUDE.sub("", value[numeral.end() :].lstrip())
    if not rest.strip():
        rest = _MAGNITUDE.sub("", text[end : end + 24].lstrip())
    else:
        rest += text[end : end + 12]  # a unit the span cut short ("38 km" of "38 km/h") is read whole
    if (dimension := _unit_dimension(rest)) is not None:
        if dimension == "length" and (_SPEED_BEFORE.search(text, max(0, start - 8), start)
                                      or _SPEED_AFTER.match(text, end)):
            return "speed"  # 时速60公里, 风速每秒20米, "12 miles an hour": a length per time
        return dimension  # the longest unit: 公里/小时 a speed, not 公里 a length; "km/h", not "km"
    word = re.match(r"\s*([\u4e00-\u9fff]|[a-z]+)", rest, re.IGNORECASE)
    return "count" if word is not None and value[numeral.end() :].strip() else None


_ASK_ZH = re.compile(r"(?:多少|几)\s*(?:万|亿|千|百)?\s*(?P<unit>[^\s，,。？?的是为]{1,4})")
_ASK_EN = re.compile(r"\bhow\s+many\s+(?P<unit>(?:square\s+|cubic\s+)?[a-z²/]+(?:\s+[a-z]+)?)", re.IGNORECASE)
_ASK_ORDINAL = re.compile(r"第\s*(?:几|多少)|\b(?:what|which) (?:place|position|rank)\b|\branked\b.*\bwhat\b",
                          re.IGNORECASE)
_ASKS: tuple[tuple[re.Pattern[str], frozenset[Dimension]], ...] = (
    (re.compile(r"多久|多长时间|几点|多少时间|\bhow long (?:does|did|do|will|would|can|could|has|have|had)\b|"
                r"\bhow long\b.*\b(?:take|last|lasted|run|stay|wait)\b", re.IGNORECASE), frozenset({"duration"})),
    (re.compile(r"多远|多高|多深|多宽|\bhow (?:far(?:\s+(?:away|off|out|up|down))?|tall|high|deep|wide)\b",
                re.IGNORECASE), frozenset({"length"})),
    (re.compile(r"多长(?!时间)|\bhow long is\b|\bhow long are\b|\bhow long was\b", re.IGNORECASE),
     frozenset({"length", "duration"})),
    (re.compile(r"多重|\bhow heavy\b|\bhow much does .+ weigh\b|\bweigh\b", re.IGNORECASE), frozenset({"weight"})),
    (re.compile(r"多快|\bhow fast\b", re.IGNORECASE), frozenset({"speed"})),
    (re.compile(r"多热|多冷|\bhow (?:hot|cold|warm)\b|\b(?:hottest|coldest|warmest)\b", re.IGNORECASE),
     frozenset({"temperature"})),
    (re.compile(r"百分之(?:几|多少)|多少个百分点|\bwhat (?:percentage|per ?cent|share|proportion)\b", re.IGNORECASE),
     frozenset({"percent"})),
    (re.compile(r"多少钱|几块钱|(?:交|缴|付|花|收|赔|退|补|报销|领)(?:纳|费|取|款)?了?(?:多少|几)(?:万|千|百)?(?:元|块|钱|$|？|\?)|"
                r"\bhow much (?:money\b|(?:is|are|was|were|will|would)\b(?!\s+(?:(?:the|its|their|a|an)\s+)?(?:weight|water|"
                r"rain|time|space|room|power|energy|fuel|load|heavier|longer|bigger|faster|further|farther|higher)\b)"
                r"(?!.*\bweigh)|"
                r"(?:does|do|did|will|would|can|could|should)\b.*\b(?:cost|costs|charge|charges|charged|pay|pays|paid|"
                r"spend|earn|earns|get|gets|receive|receives|make|makes|owe|worth|raise|raised)\b)", re.IGNORECASE),
     frozenset({"money"})),
)
"""The question words of a dimension (多远, "how heavy"); money by the verbs of paying and being paid ("how much
do volunteers get per mile", "how much is the deposit", 一年要交多少钱), whatever the role of the amount."""

MONEY_HEADS_ZH = "费价金租款薪税贴"
"""The characters that end a Chinese word for an amount of money in any role (会费, 押金, 租金, 会员价, 罚款, 月薪,
印花税, 补贴): a question asking 押金是多少 or 多少会费 asks money, whatever the word before the head."""
_MONEY_WORD_ZH = re.compile(rf"[\u4e00-\u9fff]{{0,4}}[{MONEY_HEADS_ZH}]$")
_MONEY_ASKED_ZH = re.compile(rf"(?P<noun>[\u4e00-\u9fff]{{1,4}}[{MONEY_HEADS_ZH}])(?:是|为|要|需要|得|大概|大约|约|一共|共|总共|"
                             r"每[\u4e00-\u9fff]|一[年月天晚次人])*(?:多少|几)")


_PER_UNIT = re.compile(r"\s*(?:(?:为|是)?(?:每|按)[\u4e00-\u9fff]{1,3}|\s(?:per|a|an|each)\s+[a-z]+)$")


def dimension_word(word: str) -> Dimension | None:
    """The dimension a word of a quantity names (温度 and 最高控制温度 a temperature, "weight" a weight, 会费 and
    "deposit" money), or None."""
    w = _PER_UNIT.sub("", word.strip().casefold())  # 逾重行李费为每公斤: the fee, by the kilogram
    if money_word(w):
        return "money"
    if (d := _ATTRIBUTE_DIMENSION.get(w)) is not None:
        return d
    return next((d for n, d in _ATTRIBUTE_DIMENSION.items() if has_han(n) and has_han(w) and w.endswith(n)), None)


def label_dimension(label: str) -> Dimension | None:
    """The dimension a table column's header names by a word of it or its unit ("Length (m)", 长度米, "weight_kg",
    "list_price_eur", 价格（元）), or None ("Built", 建成年份)."""
    bare = re.sub(r"[(（\[][^)）\]]*[)）\]]", " ", label.casefold())
    words = [w for w in re.split(r"[\s_/\-]+", bare) if w]
    if (d := dimension_word(bare.strip()) or next((d for w in words if (d := dimension_word(w))), None)) is not None:
        return d
    if has_han(bare) and (d := next((d for n, d in _ATTRIBUTE_DIMENSION.items() if has_han(n) and n in bare), None)):
        return d  # 长度米, 票价元: the dimension's word inside the header
    unit = re.search(r"[(（\[]([^)）\]]+)[)）\]]", label)
    return _unit_dimension(unit[1].strip(), whole=True) if unit else (
        _unit_dimension(words[-1], whole=True) if words and not has_han(words[-1]) and len(words) > 1 else None)


def money_word(word: str) -> bool:
    """Whether a word names an amount of money by its head (会费, 押金, 会员价; "fee", "deposit", "allowance")."""
    w = word.strip().casefold()
    if _ATTRIBUTE_DIMENSION.get(w) == "money":
        return True  # 价格, 费用, "price"
    if has_han(w):
        return len(w) >= 2 and bool(_MONEY_WORD_ZH.search(w))  # 租 alone is a verb (租帐篷)
    return _MONEY_NOUN_EN.fullmatch(f" {w}") is not None


OUTLAY_WORDS = ("投资", "总投资", "出资", "投入", "造价", "总造价", "资金", "拨款", "开支", "支出", "花费", "耗资",
                "investment", "funding", "grant", "spending", "expenditure", "outlay", "capital cost")
"""Nouns of money put into something (总投资, 出资, "the funding"): money whatever the verb a question asks it with
(一共要投多少钱, 花了多少钱, "how much was spent on"): no head of ``MONEY_HEADS_ZH`` marks them, and a value they
govern is the amount the project, the purchase or the repair took."""


_ATTRIBUTE_DIMENSION: dict[str, Dimension] = {
    "speed": "speed", "时速": "speed", "速度": "speed", "weight": "weight", "重量": "weight", "height": "length",
    "length": "length", "depth": "length", "width": "length", "distance": "length", "高度": "length",
    "长度": "length", "深度": "length", "宽度": "length", "距离": "length", "area": "area", "面积": "area",
    "temperature": "temperature", "温度": "temperature", "气温": "temperature", "duration": "duration",
    "时长": "duration", **dict.fromkeys(("price", "cost", "fee", "prize money", "salary", "budget", "fine", "deposit",
                                       "charge", "allowance", "rent", "fare", "subscription", "wage", "奖金",
                                       "价格", "售价", "票价", "费用", "租金", "工资", "薪酬", "预算", "罚款",
                                       "赔偿", "赔偿金", *OUTLAY_WORDS), "money")}
"""A quantity asked by its noun ("what is the top speed", 时速是多少) and the dimension its value has."""


_MONEY_NOUN_EN = re.compile(r"\s*(?:(?:prize|cash|grant|award|bonus|ticket)\s+)?(?:money|" + "|".join(
    sorted((n for n, d in _ATTRIBUTE_DIMENSION.items() if d == "money" and not has_han(n)), key=len, reverse=True))
    + r")s?\b", re.IGNORECASE)


def money_noun_at(text: str, at: int) -> bool:
    """Whether the words at ``text[at:]`` name an amount of money ("prize money", "fee", "the budget" …): "how much"
    before them asks money."""
    return _MONEY_NOUN_EN.match(text, at) is not None


def _nouns(han: bool) -> str:
    """The asked-quantity nouns of one script as a regex alternation, longest first (赔偿金 before 赔偿)."""
    return "|".join(sorted((n for n in _ATTRIBUTE_DIMENSION if has_han(n) == han), key=len, reverse=True))


_ATTRIBUTE_EN = re.compile(r"^\s*what(?:'?s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+|its\s+)?(?:[a-z]+\s+)?"
                           rf"(?P<noun>{_nouns(han=False)})\b", re.IGNORECASE)
_ATTRIBUTE_ZH = re.compile(rf"(?P<noun>{_nouns(han=True)})(?:是|为|有|大约|约|了|获得|得到|拿到)*(?:多少|几)")


def _named_dimension(unit: str) -> Dimension | None:
    """The dimension a question's measure word names (小时 of 多少小时, "km" of "how many km"), else None."""
    for table in (_ZH, _EN):
        for dimension, pattern in table.items():
            if (m := pattern.match(unit)) is not None and (m.end() == len(unit) or not unit[m.end()].isalpha()
                                                            or "\u4e00" <= unit[0] <= "\u9fff"):
                return dimension
    return None


@functools.lru_cache(maxsize=256)
def asked_dimensions(question: str) -> frozenset[Dimension] | None:
    """The dimensions a question's quantity may have (``None``: any). 多少小时 / "how many hours" → a duration;
    多少名 / 多少人 / "how many people" → people counted; "how many <things>" / 多少辆 → a count of them; 多久 /
    "how long does it take" → a duration; "how tall", 多远 → a length; "how heavy" → a weight; plain "how much" /
    多少 with no measure word → any."""
    if _ASK_ORDINAL.search(question):
        return frozenset({"ordinal"})  # 第几位, "in which place did she finish": a rank, not a count
    for pattern, dimensions in _ASKS:
        if pattern.search(question):
            return dimensions
    if (m := _ASK_EN.search(question)) is not None:
        unit = m["unit"].casefold()
        named = _named_dimension(unit)
        if named is not None and named != "persons":
            return frozenset({named})
        return frozenset({"persons", "count"}) if named == "persons" else frozenset({"count", "persons"})
    for pattern in (_ATTRIBUTE_EN, _ATTRIBUTE_ZH):
        if (m := pattern.search(question)) is not None:
            return frozenset({_ATTRIBUTE_DIMENSION[m["noun"].casefold()]})
    if _MONEY_ASKED_ZH.search(question) is not None:
        return frozenset({"money"})  # 押金是多少, 停车费一次多少: a word of money by its head (``MONEY_HEADS_ZH``)
    if (m := _ASK_ZH.search(question)) is not None:
        named = _named_dimension(m["unit"])
        if named is not None:
            return frozenset({named}) if named != "persons" else frozenset({"persons"})
        if _COUNTED_THING.match(m["unit"]):
            return frozenset({"count", "persons"})
        if money_word(m["unit"]):
            return frozenset({"money"})  # 交多少会费, 多少押金
        if (noun := next((n for n in _ATTRIBUTE_DIMENSION if has_han(n) and m["unit"].startswith(n)), None)) is not None:
            return frozenset({_ATTRIBUTE_DIMENSION[noun]})  # 获得了多少奖金: money, not a score of 96.4分
    return None


_CLASSIFIER_ZH = re.compile(rf"(?:万|亿|千|百|多|余)*{alternation(COUNT_CLASSIFIERS_ZH)}")
_QUESTION_NOUN_ZH = re.compile(rf"(?:多少|几)\s*(?:万|亿|千|百)?\s*{alternation(COUNT_CLASSIFIERS_ZH)}(?P<noun>[\u4e00-\u9fff]{{2,6}})")
_PIECE_NOUN_ZH = re.compile(rf"(?:多少|几)\s*(?:万|亿|千|百)?\s*{alternation(PIECE_CLASSIFIERS_ZH)}(?P<noun>[\u4e00-\u9fff]{{2,6}})")
_ANY_CLASSIFIER_ZH = COUNT_CLASSIFIERS_ZH | PIECE_CLASSIFIERS_ZH | SERVING_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH
_NO_COUNTED_ZH = frozenset({"时间", "钱", "距离", "次数", "人次", "资金", "经费", "费用", "面积", "体积", "容量", "岁数"})
"""What 多少 asks that is an amount or a measure, not a noun counted (多少时间, 多少经费)."""
_BARE_NOUN_ZH = re.compile(r"多少(?P<noun>[\u4e00-\u9fff]{2,4}?)(?:[？?。，,！!]|$)")
_COUNTED_THING = re.compile(alternation(THING_CLASSIFIERS_ZH | TIMES_CLASSIFIER_ZH))
"""A measure word of counted things or times, not of people (个, 次, 辆): the value counts, it measures nothing."""
_FUNCTION_ZH = re.compile(r"[为有达共约近逾超是了的和与及、，,。：:；;（(）)第等计合达至到仅只已还]")
_STOP_EN = frozenset({"and", "or", "in", "at", "of", "on", "for", "by", "to", "from", "with", "per", "the", "a",
                      "an", "was", "were", "is", "are", "did", "do", "does", "have", "has", "had", "will", "can",
                      "could", "would", "been", "be", "that", "which", "who", "than", "more", "less", "each",
                      "there", "this", "these", "those", "it", "its", "their", "his", "her", "as", "so", "since",
                      "after", "before", "during", "while", "when", "where", "not", "also", "only", "about"})
_GENERIC_EN = frozenset({"people", "persons", "times", "things", "items", "units", "ones", "kinds", "types"})
_SAME_EN = (frozenset({"employee", "staff", "worker", "personnel"}),
            frozenset({"people", "person", "resident", "inhabitant", "citizen", "individual"}),
            frozenset({"passenger", "traveller", "traveler", "rider"}))


def _head(word: str) -> str:
    word = word.casefold()
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


_PAST_EN = re.compile(r"[a-z]{2,}ed|got|went|came|ran|fell|left|broke|took|won|lost|held|hit|saw|gave|made|"
                      r"stayed|swam|flew|fled|rode|drove|sold|bought|caught|kept|stood|drew|brought", re.IGNORECASE)
"""A verb in the past after a counted noun ("how many ewes got out", "how many fish escaped"): no part of the noun."""


def _words_after(text: str, at: int, limit: int = 2) -> list[str]:
    out: list[str] = []
    for m in re.finditer(r"[A-Za-z][A-Za-z-]*", text[at : at + 40]):
        if m[0].casefold() in _STOP_EN or (out and text[at + m.start() - 1] != " ") or _PAST_EN.fullmatch(m[0]):
            break
        out.append(m[0])
        if len(out) == limit:
            break
    return out if text[at : at + 1] in (" ", "") and out else []


@functools.lru_cache(maxsize=256)
def question_noun(question: str) -> str | None:
    """The noun a "how many" question counts ("firefighters" of "how many firefighters were sent", 医护人员 of
    多少名医护人员), or None (a generic one: people, times; a unit; none written)."""
    if (m := _QUESTION_NOUN_ZH.search(question)) is not None:
        return m["noun"]
    if (m := _BARE_NOUN_ZH.search(question)) is not None and dimension_word(m["noun"]) is None \
            and not money_word(m["noun"]) and not m["noun"].startswith(QUANTITY_WORDS_ZH) \
            and m["noun"][0] not in _ANY_CLASSIFIER_ZH and m["noun"] not in _NO_COUNTED_ZH:
        return m["noun"]  # 转移了多少群众: the noun a count asks with no measure word
    if (m := re.search(r"\bhow\s+many\s+", question, re.IGNORECASE)) is not None:
        words = _words_after(question, m.end() - 1)
        if words and _named_dimension(words[0].casefold()) in (None, "persons") \
                and words[0].casefold() not in _GENERIC_EN:
            return " ".join(words)
    return None


def counted_asked(question: str) -> str | None:
    """The noun a count question counts, by any classifier (病床 of 多少张病床, 床位 of 几张床位, as well as
    ``question_noun``'s 医护人员 of 多少名医护人员 and "beds" of "how many beds"), or None."""
    if (noun := question_noun(question)) is not None:
        return noun
    m = _PIECE_NOUN_ZH.search(question)
    return m["noun"] if m is not None else None


def counts_any(text: str) -> bool:
    """Whether ``text`` writes a number with a counted noun of its own (3辆救护车, 病床20张, "212 people")."""
    return any(counted_noun(text, m.start(), m.end()) is not None for m in _NUMERAL.finditer(text))


def counted_noun(text: str, start: int, end: int) -> str | None:
    """The noun written right after a count (跑者 of 约1.8万名跑者, "crew" of "9 crew"), or None."""
    value = text[start:end]
    if re.search(r"[\u4e00-\u9fff]", value + text[end : end + 1]):
        m = re.match(r"[\u4e00-\u9fff]{2,4}", text[end:]) if _CLASSIFIER_ZH.search(value[-2:]) else None
        if m is not None:
            return m[0]
        # the noun right before the count when nothing follows it (志愿者3200人, 补给站18个)
        before = re.search(r"([\u4e00-\u9fff]{2,4})$", _FUNCTION_ZH.split(text[max(0, start - 6) : start])[-1])
        return before[1] if before else None
    if re.search(r"[A-Za-z]{2,}\s*$", value) and not _NUMERAL.fullmatch(value.strip()):
        return None  # a unit or measure word inside the span ("six hours"); "one" of "one batch" is the count
    words = _words_after(text, end)
    return " ".join(words) if words else None


def same_noun(asked: str, found: str) -> bool:
    """Whether a value's counted noun is the question's (one inside the other, two characters in common for
    Chinese; the same head word or one of a few interchangeable ones for English)."""
    if re.search(r"[\u4e00-\u9fff]", asked):
        return asked in found or found in asked or any(asked[i : i + 2] in found for i in range(len(asked) - 1))
    heads = {_head(w) for w in found.split()}
    asked_heads = {_head(w) for w in asked.split()}  # "league goals", "passengers travelled": any word of it
    return bool(asked_heads & heads) or any(asked_heads & group and heads & group for group in _SAME_EN)


PART_HAN = 3
"""Chinese characters the question does not write, in a modifier joined by 的 right before a count, that make it a
count of a part of what is asked (功能团体界别选举的30个议席 for 立法会有多少个议席; 派出 or 全体 alone do not)."""

_WHOLE_ZH = re.compile(r"来自|全|所有|各|总|共|合计|累计|截至|目前|现有|如今|今年|去年|本届|本年|当年|年底|年末")
_WHOLE_EN = frozenset({"total", "more", "some", "other", "such", "all", "overall", "combined", "registered", "estimated",
                       "reported", "confirmed", "officially", "approximately", "roughly", "nearly", "around", "over",
                       "under", "almost", "just", "exactly", "full"})


def part_counted(question: str, noun: str, text: str, start: int, end: int) -> bool:
    """Whether the count at ``text[start:end]`` counts a part of what the question counts (``noun``, its
    ``question_noun``): the counted noun narrowed by words the question does not write — a modifier joined by 的
    right before the count (功能团体界别选举的30个议席 for 多少个议席), a word fused before the noun (23名女运动员 for
    多少名运动员), English lower-case words between the count and the noun ("14 cross-country athletes", "23
    female athletes" for "how many athletes"); the modifier counts even where a snippet cuts the noun off
    (功能团体界别选举的30个 ...). A whole-denoting or dated modifier (来自全国各地的, 截至去年底的,
    "total") and a capitalised word ("64 Norwegian athletes": the subject's own) narrow nothing."""
    found = counted_noun(text, start, end)
    if found is not None and not same_noun(noun, found):
        return False
    folded = question.casefold()
    if has_han(noun):
        if found is not None and text[end:].lstrip().startswith(found) and (at := found.find(noun[:2])) > 0 \
                and any(ch not in folded for ch in found[:at]):
            return True
        before = text[max(0, start - 16) : start].rstrip()
        if not before.endswith("的"):
            return False
        modifier = _FUNCTION_ZH.split(before[:-1])[-1][-12:]
        return not _WHOLE_ZH.search(modifier) and sum(1 for ch in modifier if has_han(ch) and ch not in folded) >= PART_HAN
    if found is None:
        return False
    heads = {_head(w) for w in noun.split()}
    words = found.split()
    modifiers = words[: next((i for i, w in enumerate(words) if _head(w) in heads), 0)]
    return any(w.islower() and w.casefold() not in folded and w.casefold() not in _WHOLE_EN for w in modifiers)


_MODEL_NAME_BEFORE = re.compile(r"(?:^|[^A-Za-z])[a-z]?[A-Z][A-Za-z]*\s?$")
_BARE = re.compile(r"\s*\d+\s*$")
_NAME_GOES_ON = re.compile(r"^(?:\s*$|\s*[.,;:!?)）\]，。；：、]|[\u4e00-\u9fff]|\s+[A-Z])")
_MEASURE_AFTER_ZH = re.compile(r"^\s*(?:万|亿|千|百|多|余|年|月|日|号|时|点|分|秒|个|名|位|人|元|%|％)")


def model_number(text: str, start: int, end: int) -> bool:
    """Whether the bare number at ``text[start:end]`` ends a product's or model's name rather than measuring
    anything: written right after a capitalised Latin word, with no unit or measure word after it ("AirPods Pro 2",
    "Model 3的售价", "iPhone 15 Pro"), as opposed to "Revenue rose 40 %" or "Pro 2 units"."""
    if not _BARE.match(text[start:end]) or _MEASURE_AFTER_ZH.match(text[end:]):
        return False
    before = text[max(0, start - 24) : start]
    return bool(_MODEL_NAME_BEFORE.search(before)) and bool(_NAME_GOES_ON.match(text[end : end + 3]))


_THING_ZH = re.compile(rf"\s*{alternation(OBJECT_CLASSIFIERS_ZH)}(?!月|小时|钟头|星期|礼拜|工作日)[\u4e00-\u9fff]")
_THING_EN = re.compile(r"\s+(?:[a-z]+[\s-]){0,2}?([a-z]{3,})\b", re.IGNORECASE)


def counts_things(text: str, end: int) -> bool:
    """Whether the bare numeral ending at ``end`` counts the things named right after it: a Chinese measure word
    and a noun (两个滤网, not 3个月), or an English noun that is no unit, stop word or comparison ("One
    dehumidifier", "two spare filters"; not "six months", "3 of the", "40 or more")."""
    if _THING_ZH.match(text, end):
        return True
    m = _THING_EN.match(text, end)
    if m is None:
        return False
    words = text[end : m.end()].split()
    if any(w.casefold().strip("-") in _STOP_EN for w in words):
        return False
    return _named_dimension(m[1].casefold()) is None and not any(
        _named_dimension(w.casefold().strip("-")) is not None for w in words)


_ASKS_DISTANCE = re.compile(r"多远|多长的距离|距离|射程|\bhow far\b|\bdistance\b|\brange\b|\breach\b", re.IGNORECASE)
_SMALL_LENGTH = re.compile(r"(?:毫米|厘米|公分|(?:mm|cm|millimet(?:re|er)s?|centimet(?:re|er)s?|inch(?:es)?)(?![a-z]))",
                           re.IGNORECASE)


def asks_distance(question: str) -> bool:
    """Whether a question asks a distance (多远, "how far", a range, "how far does the signal reach"): a length
    between two places or things, never a size written in millimetres or centimetres."""
    return _ASKS_DISTANCE.search(question) is not None


def fits(question: str, text: str, start: int, end: int) -> bool:
    """Whether the quantity at ``text[start:end]`` may answer the question by what it measures: not a measure of
    another dimension than the question asks (six hours for "how many firefighters", 第七届 for 多少名), not an
    ordinal for a count, not a count of another noun than the question counts (1.8万名跑者 for 多少名医护人员)."""
    if model_number(text, start, end) or enumerator(text, start, end):
        return False  # "Vela Pro 3": a name, whatever quantity is asked; "1." of a list: an item's number
    noun = question_noun(question)
    if noun is not None and (found_noun := counted_noun(text, start, end)) is not None \
            and not same_noun(noun, found_noun):
        return False  # 1.8万名跑者 for 多少名医护人员, "9 crew" for "how many passengers"
    if noun is not None and part_counted(question, noun, text, start, end):
        return False  # 功能界别的30个议席 for 多少个议席, "14 cross-country athletes" for "how many athletes"
    asked = asked_dimensions(question)
    if asked is None:
        # a quantity asked without a measure word (总奖金, 售价是多少, "what was the prize money") is an amount or a
        # count: an ordinal (第73届, "the 3rd") ranks, it measures nothing
        return value_dimension(text, start, end) != "ordinal"
    found = value_dimension(text, start, end)
    if found == "length" and asks_distance(question) and _SMALL_LENGTH.match(_MAGNITUDE.sub(
            "", text[(n.end() if (n := _NUMERAL.search(text, start, end)) else end) : end + 12].lstrip())):
        return False  # "how far does the signal reach" is no hex key's 4 mm: a distance is not written in mm or cm
    if found is None:
        # a bare numeral that counts the things named right after it ("One dehumidifier", "two lanes", 两个滤网)
        # measures nothing: a question asking only a measure (how long, how heavy, 多久, 几天) is not answered by it
        return not (asked <= MEASURES and counts_things(text, end))
    if found == "count":
        return "count" in asked  # 七届, "12 games": counted things, never people asked by 名 / 人 alone
    return found in asked


_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
              "九": 9}


def zh_number(text: str) -> int | None:
    """A Chinese numeral up to the hundreds ("十", "十二", "二十九", "一百零三"), or None."""
    if text.isdigit():
        return int(text)
    total, current = 0, 0
    for ch in text:
        if ch in _ZH_DIGITS:
            current = _ZH_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
        else:
            return None
    return total + current


Direction = str
"""Which way a length runs: height, width (a diameter too), length or depth."""

_ASKED_DIRECTION: tuple[tuple[Direction, re.Pattern[str]], ...] = (
    ("height", re.compile(r"\bhow\s+(?:tall|high)\b|\bheight\b|多高|高度|有多高|海拔", re.IGNORECASE)),
    ("width", re.compile(r"\bhow\s+wide\b|\bwidth\b|\bdiameter\b|多宽|宽度|直径|口径", re.IGNORECASE)),
    ("depth", re.compile(r"\bhow\s+deep\b|\bdepth\b|多深|深度", re.IGNORECASE)),
    ("length", re.compile(r"\blength\b|多长(?!时间)|长度|全长", re.IGNORECASE)),
)
_STATED_AFTER_EN: tuple[tuple[Direction, re.Pattern[str]], ...] = (
    ("height", re.compile(r"^\s*(?:tall|high|in\s+height)\b", re.IGNORECASE)),
    ("width", re.compile(r"^\s*(?:wide|across|in\s+(?:width|diameter)|broad)\b", re.IGNORECASE)),
    ("depth", re.compile(r"^\s*(?:deep|in\s+depth)\b", re.IGNORECASE)),
    ("length", re.compile(r"^\s*(?:long|in\s+length)\b", re.IGNORECASE)),
)
_STATED_BEFORE: tuple[tuple[Direction, re.Pattern[str]], ...] = (
    ("height", re.compile(r"(?:\b(?:height|elevation)\s+of|(?<![提升增])高度?|海拔)\s*(?:约|达|为|是|有|of)?\s*$",
                          re.IGNORECASE)),
    ("width", re.compile(r"(?:\b(?:width|diameter)\s+of|宽度?|直径|口径)\s*(?:约|达|为|是|有|of)?\s*$", re.IGNORECASE)),
    ("depth", re.compile(r"(?:\bdepth\s+of|深度?)\s*(?:约|达|为|是|有|of)?\s*$", re.IGNORECASE)),
    ("length", re.compile(r"(?:\blength\s+of|(?<![增成延生擅特队家])长度?|全长)\s*(?:约|达|为|是|有|of)?\s*$", re.IGNORECASE)),
)


def asked_direction(question: str) -> Direction | None:
    """The way the length a question asks runs ("how tall", 多高 → height; 多宽, "diameter" → width; 多深 →
    depth; 全长, "length" → length), or None (a distance, or no length asked: "how long does it take")."""
    found = [d for d, pattern in _ASKED_DIRECTION if pattern.search(question)]
    return found[0] if len(found) == 1 else None


def stated_direction(text: str, start: int, end: int) -> Direction | None:
    """The way the length at ``text[start:end]`` runs as the sentence says it ("2.4 metres across", "45 m tall",
    宽3米, 直径2.4米, "a depth of 12 m"), or None when it does not say (a plain "45 metres"); None for a value that
    is no length."""
    if value_dimension(text, start, end) != "length":
        return None
    after = text[end : end + 16]
    before = text[max(0, start - 14) : start]
    found = {d for d, pattern in _STATED_AFTER_EN if pattern.match(after)}
    found |= {d for d, pattern in _STATED_BEFORE if pattern.search(before)}
    return next(iter(found)) if len(found) == 1 else None


_EVERY_BEFORE = re.compile(r"(?:\bevery|\beach|每隔|每)\s*(?:约|大约|about|around|roughly)?\s*$", re.IGNORECASE)
_ASKS_INTERVAL = re.compile(r"\bhow\s+often\b|\bhow\s+frequent|\bevery\s+how\b|\binterval\b|\bfrequency\b|多久一[次班趟]|"
                            r"每隔多|隔多久|多长时间一[次班趟]|间隔|频率|每.{0,6}(?:多久|多长时间)", re.IGNORECASE)


def interval(text: str, start: int) -> bool:
    """Whether the duration at ``text[start:]`` is the gap between recurring events ("every 40 seconds", 每隔15分钟,
    每40秒一班): how often something happens, not how long one of them lasts."""
    return _EVERY_BEFORE.search(text[max(0, start - 16) : start]) is not None


def asks_interval(question: str) -> bool:
    """Whether a question asks how often something happens ("how often", 多久一班, 每隔多长时间), not how long it
    lasts."""
    return _ASKS_INTERVAL.search(question) is not None


PHYSICAL = frozenset({"length", "weight", "area", "volume", "energy", "power", "speed", "temperature", "sound"})
"""Dimensions a value has only with its unit written: a passage that writes no unit of one gives no such value
(a count, a date or a price never answers "how fast" or "in km/h"). Not durations, money or percentages, which a
passage also writes in words (半天, "a third", "free") or as bare cells of a priced table."""

_IN_UNITS_EN = re.compile(r"\b(?:in|into)\s+(?P<unit>(?:square\s+|cubic\s+)?[a-z°²/]+)(?:\s+or\s+(?P<other>[a-z°²/]+))?",
                          re.IGNORECASE)
_IN_UNITS_ZH = re.compile(r"(?:以|用|按)\s*(?P<unit>[^\s，,。？?的计]{1,5})\s*(?:计|来算|为单位|表示)")


def named_dimensions(question: str) -> frozenset[Dimension]:
    """The physical dimensions (``PHYSICAL``) a question asks a value of: by the unit it names the value in ("in
    km/h or knots", "in metres", 以公里/小时计), or by its question word ("how fast", 多重, "how heavy"). Empty when
    it names none (a plain "how much", 多少, "how many beds", a duration or a price)."""
    named: set[Dimension] = set()
    for m in _IN_UNITS_EN.finditer(question):
        for unit in (m["unit"], m["other"]):
            if unit and (d := _unit_dimension(unit.casefold(), whole=True)) in PHYSICAL:
                named.add(d)
    for m in _IN_UNITS_ZH.finditer(question):
        if (d := _unit_dimension(m["unit"], whole=True)) in PHYSICAL:
            named.add(d)
    if not named and (asked := asked_dimensions(question)) is not None and asked <= PHYSICAL:
        named.update(asked)
    return frozenset(named)


_SPEED_BEFORE = re.compile(r"(?:时速|每小时|每秒|秒速|风速|航速|车速|速度)\s*(?:为|达到?|约|是|超过|高达)?\s*$")
_SPEED_AFTER = re.compile(r"\s*(?:[a-z]+\s+)?(?:an?|per)\s+(?:hour|second)\b|\s*(?:米|公里|千米)?\s*(?:每|/)\s*(?:秒|小时)",
                          re.IGNORECASE)
_BRACKETED_UNIT = re.compile(r"[(（\[]\s*(?P<unit>[^()（）\[\]\d]{1,12}?)\s*[)）\]]")


def writes_dimension(text: str, dimensions: frozenset[Dimension]) -> bool:
    """Whether ``text`` writes a value of one of ``dimensions``: a numeral with a unit of it right after (28公里,
    "25 knots", 3.5 t), or a column or label naming that unit in brackets ("Speed (km/h)", 面积（平方米）) whose values
    then stand bare."""
    for m in _NUMERAL.finditer(text):
        if value_dimension(text, m.start(), m.end()) in dimensions:
            return True
    return any(_unit_dimension(m["unit"].strip().casefold(), whole=True) in dimensions
               for m in _BRACKETED_UNIT.finditer(text))


_LITRE = re.compile(r"^\s*L(?![A-Za-z/])")
"""The litre's symbol, a capital L after a number ("4.5 L", "6.5L"; not "25 L/day", a rate): written as a spec
table writes a capacity. Capital only: a small "l" after a number is too often something else."""


def _unit_dimension(text: str, whole: bool = False) -> Dimension | None:
    """The dimension of the longest unit written at the start of ``text`` (公里/小时 a speed, not 公里 a length;
    "km/h" not "km"); with ``whole``, only a unit that is all of ``text``."""
    best: tuple[int, Dimension] | None = None
    if (litre := _LITRE.match(text)) is not None and (not whole or litre.end() == len(text.rstrip())):
        best = (litre.end(), "volume")
    for table in (_ZH, _EN):
        for dimension, pattern in table.items():
            m = pattern.match(text)
            if m is not None and (not whole or m.end() == len(text.rstrip())) and (best is None or m.end() > best[0]):
                best = (m.end(), dimension)
    return best[1] if best is not None else None


def unit_word(word: str) -> Dimension | None:
    """The dimension of a unit written as all of ``word`` ("kg" a weight, "km/h" a speed, 公斤), or None."""
    return _unit_dimension(word, whole=True)


_ENUMERATOR = re.compile(r"\d{1,2}\s*(?:[.、．](?!\d)|[)）])")
_ITEM_START = re.compile(r"(?:^|[\n。；;：:])[ \t]*[(（]?[ \t]*$")


def enumerator(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` numbers an item of a list or a section ("1." / "2、" / "（3）" at the
    start of a line or a sentence): it counts nothing and measures nothing."""
    m = _ENUMERATOR.match(text, start)
    return m is not None and m.end() >= end and _ITEM_START.search(text, 0, start) is not None \
        and not re.match(r"\s*\d", text[m.end() :])


def asking_words(question: str) -> frozenset[str]:
    """The words of the question's phrase that asks a dimension ("how far away", 多远, "how much does … cost"'s
    "how", "much"): they say what kind of value is asked, no passage that states it writes them."""
    out: set[str] = set()
    for pattern, _ in _ASKS:
        for m in pattern.finditer(question):
            if m.end() - m.start() <= 24:  # the question word itself, not the words a money verb spans
                words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]+", m[0])
                out.update(w.casefold() for w in words)
                # and a Chinese run's parts around its 多少 / 几 (百分之 of 百分之多少: a segmenter's word of it)
                out.update(p for w in words for p in re.split(r"多少|几", w) if p and p != w)
    return frozenset(out)


def of_dimension(text: str, dimensions: frozenset[Dimension] | None) -> bool:
    """Whether ``text`` (a field's value, with its column header) writes a value of one of ``dimensions`` (None or
    empty: nothing asked, False)."""
    return bool(dimensions) and writes_dimension(text, dimensions or frozenset())


_AUX_EN = r"(?:(?:were|was|had|have|has|are|is|did)\s+)?(?:(?:all|later|also|then|eventually|reportedly)\s+)?"


def does_the_asked(question: str, text: str, start: int, end: int) -> bool:
    """Whether the count at ``text[start:end]`` is the subject of the question's own verb: "63 got out" for "how many
    ewes got out", "41,200 trout had escaped" for "how many fish escaped" — the verb written right after the value
    (or after its counted noun), not the whole the part is taken from ("a flock of 540 ewes")."""
    m = re.search(r"\bhow\s+many\s+", question, re.IGNORECASE)
    if m is None:
        return False
    words = re.findall(r"[A-Za-z]+", question[m.end() :])
    noun = _words_after(question, m.end() - 1)
    verb = next((w for w in words[len(noun) :] if w.casefold() not in _STOP_EN), None)
    if not noun or verb is None or not _PAST_EN.fullmatch(verb):
        return False
    stem = re.escape(verb.casefold()[:max(3, len(verb) - 2)])
    end = (n.end() if (n := _NUMERAL.search(text, start, end)) is not None else end)  # "63 got": the numeral's end
    return re.match(rf"\s*(?:[A-Za-z-]+\s+){{0,2}}?{_AUX_EN}{stem}", text[end : end + 48], re.IGNORECASE) is not None \
        and not re.match(r"\s*(?:[A-Za-z-]+\s+){0,2}?(?:of|in|from)\b", text[end : end + 24], re.IGNORECASE)


_LIGHT_ZH = frozenset("的了着过是在有被将已把和与及等中里内上下之也都又还就共约其一这那该此各每个名位人均全部都再又并曾")
"""Characters of a Chinese clause that say nothing of which act it states (particles, the passive 被, scope words):
left out when a count's predicate is compared with the question's words."""
_PREDICATE_ZH = re.compile(r"[^，,。；;！？!?：:、\s（(）)]{0,12}")
_ACT_EN = re.compile(rf"\s*{_AUX_EN}([a-z]+)\b", re.IGNORECASE)


IRREGULAR_PAST = {"drew": "draw", "drawn": "draw", "took": "take", "taken": "take", "saw": "see", "seen": "see",
                  "fell": "fall", "fallen": "fall", "got": "get", "left": "leave", "held": "hold", "kept": "keep",
                  "caught": "catch", "brought": "bring", "lost": "lose", "won": "win", "ran": "run", "went": "go",
                  "came": "come", "gave": "give", "given": "give", "made": "make", "fled": "flee"}
"""English irregular past forms by their base (the stemmer does not join "fell" and "fall")."""
_NO_ACT_ZH = frozenset({"有", "是", "为", "共有", "一共", "总共", "共计", "合计", "大约", "大概"})


@functools.lru_cache(maxsize=256)
def _asked_acts_zh(question: str, noun: str) -> tuple[str, ...]:
    """The verbs a Chinese count question says of what it counts, in its clause that holds 多少 / 几 (困 of
    吊厢里一共困了多少名游客, 转移 of 一共转移了多少群众); none for 一共有多少名志愿者."""
    from graphs.text.entity_spotting import tagged_words  # lazy: the tagger loads jieba

    clause = next((c for c in re.split(r"[，,；;。：:]", question) if re.search(r"多少|几", c)), question)
    head = tagged_words(noun)[0][0]  # 矿工 of 矿工遇难, which the question's pattern reads on into its verb
    return tuple(w for w, flag in tagged_words(clause) if (flag or "").startswith(("v", "a")) and flag != "vn"
                 and w not in _NO_ACT_ZH and w not in head and head not in w)


def other_act(question: str, text: str, start: int, end: int) -> str | None:
    """The predicate the count at ``text[start:end]`` is said of when it is another act than the one the question
    counts by, else None: right after its counted noun (the question's) the clause goes on with a predicate of its
    own that shares no content word with the question (出现身体不适 of 共有3名游客出现身体不适 for 吊厢里一共困了多少名
    游客; "fell" of "3 visitors fell ill" for "how many visitors were trapped"): it counts those who did that, a part
    of the whole or another set. A count its clause ends with (吊厢内共有96名游客，), one whose predicate the question
    writes (96名游客被困; "96 visitors were trapped"), and any count for a question that names no act of its own
    beside the noun have none. Words of one act that share nothing (遇难 and 死亡, "killed" and "died") are the
    relation lexicon's to join (``graphs.rag.answer.evidence``)."""
    noun = counted_asked(question)
    if noun is not None and has_han(noun):
        after = text[end : end + 3 + len(noun)]
        at = after.find(noun[:2])
        if 0 <= at <= 2 and (at == 0 or has_han(text[end : end + 1])):
            tail = text[end + at + (len(noun) if after[at:].startswith(noun) else 2) :]
        elif text[start:end].rstrip().endswith(tuple(PEOPLE_CLASSIFIERS_ZH | {"人"})) and has_han(text[end : end + 1]):
            tail = text[end:]  # 3人均被送往医院: people counted with no noun, the predicate right after
        else:
            return None
        said = _PREDICATE_ZH.match(tail)[0]  # type: ignore[index]
        predicate = {ch for ch in said if has_han(ch) and ch not in _LIGHT_ZH}
        asked = {ch for word in _asked_acts_zh(question, noun) for ch in word if ch not in _LIGHT_ZH}
        return said if len(predicate) >= 2 and asked and not predicate & asked else None
    m = re.search(r"\bhow\s+many\s+", question, re.IGNORECASE)
    if m is None:
        return None
    noun_words = _words_after(question, m.end() - 1)
    rest = [w for w in re.findall(r"[A-Za-z]+", question[m.end() :])[len(noun_words) :] if w.casefold() not in _STOP_EN]
    if not noun_words or not rest or not _PAST_EN.fullmatch(rest[0]):
        return None  # "how many visitors were there": no act of the question's own to compare
    numeral = _NUMERAL.search(text, start, end)
    after = text[numeral.end() if numeral is not None else end :]
    heads = {_head(w) for w in noun_words}
    found = list(re.finditer(r"[A-Za-z-]+", after[:40]))
    if not found or found[0].start() > 1 or _head(found[0][0]) not in heads:
        return None  # the noun right after the numeral, as the question counts it
    from graphs.text.terms import stem

    asked = {stem(IRREGULAR_PAST.get(w.casefold(), w.casefold())) for w in re.findall(r"[A-Za-z]+", question)}
    act = _ACT_EN.match(after, found[0].end())
    if act is None or not _PAST_EN.fullmatch(act[1]) or act[1].casefold() in _STOP_EN:
        return None
    return act[1] if stem(IRREGULAR_PAST.get(act[1].casefold(), act[1].casefold())) not in asked else None


# ---------------------------------------------------------------------------- a thing's size or rating

_SIZE_UNITS: tuple[tuple[str, str, bool], ...] = (
    # (canonical unit, its spellings, whether a spelling must follow the number with no space or one space and be
    # written in capitals: a bare letter is a unit only so, "32A", "40 L"; "3 a day" is no current)
    ("A", r"A", True), ("A", r"amps?|amperes?|安培?", False),
    ("L", r"L", True), ("L", r"litres?|liters?|公?升", False),
    ("ml", r"ml|mL|毫升", False),
    ("W", r"W", True), ("W", r"watts?|瓦", False),
    ("kW", r"kW|kw|kilowatts?|千瓦", False),
    ("V", r"V", True), ("V", r"volts?|伏", False),
    ("kg", r"kg|kilos?|kilograms?|公斤|千克", False),
    ("GB", r"GB|gigabytes?", False), ("TB", r"TB|terabytes?", False),
    ("inch", r"inch(?:es)?|in\.|英寸|寸", False),
    ("cm", r"cm|centimetres?|centimeters?|厘米|公分", False),
    ("m2", r"m²|m2|sq\.?\s?m|square\s+met(?:re|er)s?|平方米|平米|㎡", False),
    ("seat", r"seats?|seater|座位?|人座", False),
    ("person", r"persons?|people|man|人间|人房|人份", False),
    ("hp", r"hp|匹", False),
)
_SIZE_LETTERS = {u for u, _, letter in _SIZE_UNITS if letter}
_SIZE = re.compile(r"(?<![A-Za-z0-9_.,/:-])(?<![A-Za-z0-9_.,/:]-)(\d+(?:\.\d+)?)(?:(?P<gap>\s|-)?(?P<unit>"
                   + "|".join(f"(?P<u{i}>{spelled})" for i, (_, spelled, _) in enumerate(_SIZE_UNITS))
                   + r"))(?![A-Za-z0-9\u00b2])")
_BOUND_BEFORE = re.compile(r"(?:\b(?:over|above|under|below|up\s+to|more\s+than|less\s+than|fewer\s+than|at\s+least|"
                           r"at\s+most|exceeding|max(?:imum)?\.?|min(?:imum)?\.?|from|to|and|or|between|per|each|every)\s*|[<>≤≥]\s*|"
                           r"\d\s*(?:[A-Za-z]{1,6}|[\u4e00-\u9fff]{1,2})?\s*[~～至到–—-]\s*|"
                           r"超过|不超过|不足|低于|高于|大于|小于|最多|最少|至少|最大|最小|以内|和|或|及|、|每|按)$", re.IGNORECASE)
_BOUND_AFTER = re.compile(r"^(?:\s*(?:\+|or\s+(?:more|less|above|below|over|under)|and\s+(?:above|over|under|below|up)|"
                          r"max(?:imum)?\b|min(?:imum)?\b|[~～至到–—-]\s*\d|to\s+\d|以上|以下|以内|及以上|及以下|起)|"
                          r"\s*(?:or|and|/|、|,|，)\s*\d)", re.IGNORECASE)


@dataclass(frozen=True)
class Size:
    """A number with the unit of a thing's size or rating ("a 32A hook-up", "40 L backpack", 60升, "a 4-person
    tent", 3人间): the value that tells one variant of an item from its siblings. ``bounded``: written as a bound or
    a range, or beside another value ("over 23 kg", 10-20 kg, 16A or 32A), which covers more than its own value."""

    value: float
    unit: str
    start: int
    end: int
    bounded: bool


def sizes(text: str) -> list[Size]:
    """Every size or rating a text writes (``Size``), with its canonical unit (L for 升 and "litres", A for 安 and
    "amps"): not a time, a price or a count (a duration or an amount is what a question asks, not which variant)."""
    out: list[Size] = []
    for m in _SIZE.finditer(text):
        i = next(int(k[1:]) for k, v in m.groupdict().items() if k[0] == "u" and k[1:].isdigit() and v is not None)
        unit, _, letter = _SIZE_UNITS[i]
        if letter and (m["gap"] == "-" or not m["unit"].isupper()):
            continue  # a bare letter is a unit in capitals, right after the number or one space after it
        before, after = text[max(0, m.start() - 14) : m.start()], text[m.end() : m.end() + 14]
        bounded = bool(_BOUND_BEFORE.search(before) or _BOUND_AFTER.match(after))
        out.append(Size(float(m[1]), unit, m.start(), m.end(), bounded))
    return out
