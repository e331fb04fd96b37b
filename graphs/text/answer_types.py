"""The kind of answer a question expects, in Chinese and English: a person, an organization, a date or year,
a place, a number (with its unit), yes or no, a list, a definition, a comparison's verdict, or some other
phrase. The extractive writer leads with a short answer of that kind; answerability looks for one."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from graphs.text.dates import ASKS_TIME_OF_DAY
from graphs.text.units import MEASURES, PHYSICAL, SET_CLASSIFIERS_ZH, alternation, asked_dimensions

AnswerType = Literal[
    "person", "organization", "date", "place", "number", "yes_no", "list", "definition", "comparison", "other"
]

_I = re.IGNORECASE

# Comparisons that ask for a verdict between two named things ("which was founded first, A or B?",
# "A和B谁先成立？"); "Are A and B both ...?" is a yes/no question (below).
_COMPARATIVE_EN = re.compile(
    r"(?:\b(?:which|who|what)\b.{0,80}?|(?:^|[,:;]\s*)(?:is|are|was|were|does|do|did|would|will)\b[^?]{0,80}?\bor\b[^?]{0,80}?)"
    r"\b(?:first|earlier|later|last|older|oldest|elder|eldest|younger|youngest|newer|newest|"
    r"larger|largest|bigger|biggest|smaller|smallest|longer|longest|shorter|shortest|higher|highest|taller|"
    r"tallest|more|most|fewer|less|least|greater|heavier|faster|closer|farther|further|earliest|latest|"
    r"cheaper|cheapest|pricier|priciest|costlier|dearer|lighter|lightest|quieter|quietest|louder|loudest|noisier|"
    r"slower|slowest|lower|lowest|wider|widest|narrower|deeper|deepest|stronger|strongest|weaker|warmer|colder|"
    r"hotter|cooler|newer)\b", _I)
_COMPARATIVE_ZH = re.compile(
    r"谁先|谁后|谁更|谁早|谁晚|哪个更|哪一个更|哪家更|哪位更|哪个先|哪个早|哪个晚|哪家先|哪家早|更早|更晚|更大|更小|更多|更少|"
    r"更高|更低|更长|更短|更久|更老|更年轻|较早|较晚|较大|较小|较多|较少|更便宜|更贵|更实惠|较便宜|较贵|哪个便宜|哪个贵|谁便宜|谁贵|"
    # a choice word, then the comparative a few words on ("哪一款运行起来更安静", "哪座桥建得比较早")
    r"(?:哪|谁)[^，,。；;？?]{0,12}?(?:更|较|比较)[\u4e00-\u9fff]")
_CHOICE = re.compile(r"\bor\b|还是|或者|或是", _I)
_DESCRIBED_ZH = re.compile(rf"(?:两|二|三|四|五|几|这两|这三|这几|那两){alternation(SET_CLASSIFIERS_ZH)}"
                           r"[^，,。？?；;]{0,12}?(?:里|中|之中|当中|之间|里面|相比)?[，,]?\s*(?:哪|谁)")
"""Candidates the question describes as a set of a size, not by their names ("两份报价里，哪一家…", "这三座桥中哪座…",
"几家供应商里谁…"): what is compared are the set's members the documents list."""
_DESCRIBED_EN = re.compile(r"\b(?:of|between|among|from|in)\s+(?:the|these|those|its|their|both|all|(?:the\s+)?"
                           r"[A-Za-z][\w-]*(?:\s+[A-Z][\w-]*)*['’]s?)\s+(?:two|three|four|five|2|3|4|5|several)\b|"
                           r"\b(?:the|these|those|both)\s+(?:two|three|four|2|3|4)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\b.{0,60}?"
                           r"\b(?:which|who)\b|\b(?:which|who)\b.{0,60}?\b(?:of|between|among)\s+(?:the|these|those|its|their|both)\s+"
                           r"(?:two|three|four|2|3|4)\b", _I)
"""The English described set: "Of the three quotes, which …", "Which of the two lighthouses …", "the two ferries
… which", an owner's set ("Which of the Trust's two lighthouses …")."""
_ADJECTIVE_ZH = "(?:早|晚|老|新|久|大|小|多|少|高|低|长|短|快|慢|轻|重|近|远|旧|便宜|贵|实惠|划算)"
_CHOSEN_ZH = re.compile(rf"(?:哪|谁)[^，,。；;？?]{{0,10}}?(?:(?:最|更|较|比较)?(?:便宜|贵|实惠|划算)|(?:最|更|较){_ADJECTIVE_ZH}|"
                        rf"{_ADJECTIVE_ZH}(?:一些|一点|些|点)|{_ADJECTIVE_ZH}\s*[？?]?\s*$)")
"""The choice of one member by a comparative or a superlative ("哪一家便宜", "哪座最高", "哪个低一些", "谁的报价最低",
"哪家离车站近？")."""
_PAIRED_ZH = re.compile(r"(?:和|与|跟|同)[^，,。？?；;]{1,20}?(?:相比|比较|对比)?[，,]\s*(?:哪|谁)|相比|比较|对比")
"""Two things joined and then a choice of one ("A跟B，哪样贵一点", "A和B的报价相比，哪家贵")."""
_PAIRED = re.compile(
    r"\bbetween\s+(?!\d)\S[^,?]{0,60}?\s+and\s+\S[^,?]{0,60}?,\s*(?:which|who|what)\b|"
    r"^\s*\S[^.?;]{0,60}?\s+and\s+\S[^.?;]{0,120}?[.;]\s*(?:which|who)(?:\s+(?:one|of (?:them|the two)))?\s+"
    r"(?:is|was|are|were|has|had|did|does|came|opened|started)\b", _I)
"""Two things offered as the choice without "or": "Between A and B, which …?", and a statement of the pair
followed by a question whose "which" / "who" stands for one of them ("A and B were founded in the 1950s. Which
was the first to serve pizza?"; not "Which city …", whose noun asks for something else)."""
_ORDINAL_NOUN = re.compile(r"\b(?:first|last)\s+(?!(?:to|of|in|on|at|by|and|or|one|time)\b)[a-z]", _I)
"""An ordinal before a noun ("the first CEO") names a rank, not a comparison of the pair."""

_YES_NO_EN = re.compile(
    r"^\s*(?:(?:and|but|so|then)\s+)?(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should|"
    r"shall|may|might|must)\b(?!.*\b(?:or|either|which|what|who|whom|whose|when|where|how)\b)", _I)
_YES_NO_ZH = re.compile(r"(?:吗|么|嘛)\s*[？?。!！]*\s*$|是否|是不是|有没有|能不能|会不会|可不可以|对不对|能否|可否")

_LIST_EN = re.compile(
    r"\b(?:list|name (?:all|the)|what are (?:the|all|some)|which (?!(?:date|year|day|month|decade|century|city|town|country|place|person)\b)(?:\w+ ){0,3}(?:are|were|have)\b(?!.*\bor\b)|"
    # "did" says nothing of number: the asked noun's plural does ("Which films did X direct?", not "Which
    # constituency did X represent?")
    r"which (?:\w+ ){0,2}\w+[^s\W]s (?:did|does)\b(?!.*\bor\b)|"
    r"what (?:\w+ ){0,2}(?:companies|people|products|countries|cities|members|works|albums|films|books|"
    r"songs|teams|players|awards|languages|models|kinds|types|ways|steps|features|examples)\b)", _I)
_LIST_ZH = re.compile(r"哪些|有什么(?!区别|不同|关系|意义|作用|用|特点|特征|特色|特性|优点|缺点|优势|功能|好处|习性|影响|贡献|"
                      r"变化|成就|规定|要求|含义|风格)|都有谁|包括什么|包括哪|列举|列出")
"""A list ("有哪些成员", "有什么产品"); "有什么特点/作用/变化" asks for a description, answered by sentences."""

_DEFINITION_EN = re.compile(
    r"^\s*(?:what(?:'s| is| are| was| were)\s+(?:an?\s+|the\s+)?(?!.*\b(?:of|in|for|by|from|called|named|"
    r"used)\b)[^?]{1,60}\??\s*$|define\b|explain\b|what does .{1,40} mean\b|"
    r"what is meant by\b|tell me about\b|describe\b)", _I)
_DEFINITION_ZH = re.compile(
    r"^\s*(?:什么是|何为|何谓|解释一下|介绍一下|说说|请介绍)|^[^，,。]{1,20}(?:是什么|是啥|指什么|什么意思|的定义|的含义|的概念)"
    r"\s*[？?]?\s*$")

_DATE_EN = re.compile(
    r"\bwhen\b|\b(?:what|which|in what)\s+(?:year|years|date|day|month|quarter|decade|century|era|time)\b|"
    r"\bhow long ago\b|\bsince when\b", _I)
_DATE_ZH = re.compile(r"什么时候|何时|哪一?年|哪一?天|哪[一个]?月|几月|几号|几年|哪个(?:年代|世纪|时候|时期|朝代|季度)|什么年代|"
                      r"什么时间|何年|哪日|日期|生日|年份")

_NUMBER_EN = re.compile(
    r"\bhow (?:many|much|old|long|tall|high|far|big|large|wide|deep|heavy|often|fast)\b|"
    # a word or two may narrow the noun ("What was the 2021 census population of …", "what is the total area")
    r"\bwhat (?:is the |was the )?(?:(?!(?:of|in|on|at|for|by|from|with|that|which|who)\b)[\w-]+\s+){0,2}?"
    r"(?:number|amount|population|percentage|percent|size|length|height|"
    r"area|weight|capacity|price|cost|value|age|distance|speed|score|total)\b", _I)
_MEASURE_EN = re.compile(
    r"\bwhat(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+|its\s+|their\s+)?(?:[a-z-]+\s+){0,2}?"
    r"(?:" + "|".join(sorted(MEASURES - {"ordinal", "sound", "money", "percent"})) + r"|height|width|depth|"
    r"voltage|current|pressure|range|capacity|distance|speed|rating|output|load|temperature)s?\b(?!\s+(?:of\s+)?"
    r"(?:code|unit|mode|setting|class|type|range|scale|profile)s?\b)", _I)
"""A measure asked by its dimension's noun, past a word or two that narrows it ("What's the highest temperature
you can program", "what is the maximum operating voltage"): a number, not a definition."""
_NUMBER_ZH = re.compile(r"多少|(?<!哪)几[个位次名岁年人家种本部条项只件台辆分秒天倍层级座所期场间门首款轮档挡星片张双对批届支队组块颗粒]|多大|多长|多高|多远|多重|多久|多快|"
                        r"多宽|多深|几何|第几|百分之几|人口|面积|数量|参数量|金额|价格")

_PERSON_EN = re.compile(
    r"\bwho(?:m|se)?\b|\b(?:what|which)\s+(?:\w+\s+){0,2}(?:person|people|man|woman|actor|actress|singer|"
    r"player|author|writer|director|president|founder|ceo|leader|king|queen|musician|artist|politician|"
    r"scientist|composer|producer|poet|coach|member)\b", _I)
_PERSON_ZH = re.compile(r"谁|何人|哪位|哪一位|什么人|哪个人|创始人是|创办人是|作者是|导演是|总裁是|校长是|主席是")

_PLACE_EN = re.compile(
    r"\bwhere\b|\b(?:in |at |from )?(?:what|which)\s+(?:\w+\s+){0,2}(?:city|town|country|state|province|"
    r"county|region|place|location|island|continent|village|district|area|nation|capital)\b|"
    r"\bwhat(?:'s|\s+is|\s+was|\s+are)\s+(?:the\s+|its\s+)?(?:\w+\s+)?(?:address|location|venue)\b", _I)
_PLACE_ZH = re.compile(r"哪里|哪儿|何地|何处|在哪|哪个(?:城市|国家|省|市|县|地区|地方|大陆|岛)|哪座城市|哪国|什么地方|"
                       r"位于|总部在|地址(?:是|为|在)?(?:什么|哪)|什么地址")

_ORG_EN = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:company|companies|firm|corporation|organization|organisation|"
    r"team|band|group|university|college|school|club|party|label|publisher|network|agency|magazine|"
    r"newspaper|institution|manufacturer|studio|airline|brand)\b", _I)
_ORG_ZH = re.compile(r"哪家|哪个(?:公司|机构|组织|团队|大学|学校|球队|乐队|品牌|单位|部门|企业)|什么(?:公司|机构|组织|大学|学校|球队|"
                     r"乐队|品牌|企业)|哪所")


def describes_set(question: str) -> bool:
    """Whether the question describes the candidates it compares as a set ("两份报价里", "the three quotes",
    "几家供应商中") rather than naming them."""
    return bool(_DESCRIBED_ZH.search(question) or _DESCRIBED_EN.search(question))


_VALUED = PHYSICAL | {"money", "percent"}
"""Dimensions whose asked value is a number with its unit (not a duration: 几点 asks a clock time; not a rank)."""


def expected_answer(question: str) -> AnswerType:
    """The kind of answer ``question`` asks for (rule-based, Chinese and English)."""
    q = question.strip()
    if (_COMPARATIVE_ZH.search(q) or (_COMPARATIVE_EN.search(q) and (_CHOICE.search(q) or _DESCRIBED_EN.search(q)))
            or ((_DESCRIBED_ZH.search(q) or _CHOICE.search(q) or _PAIRED_ZH.search(q)) and _CHOSEN_ZH.search(q))
            or (_PAIRED.search(q) and _COMPARATIVE_EN.search(_ORDINAL_NOUN.sub(" ", q)))) and not _LIST_ZH.search(q):
        return "comparison"
    if _YES_NO_EN.search(q) or (_YES_NO_ZH.search(q) and not re.search(r"什么|哪|谁|多少|几|怎么|如何|为何|为什么", q)):
        return "yes_no"
    if _LIST_ZH.search(q) or _LIST_EN.search(q):
        return "list"
    # the cue next to the question word decides ("Which city was the band formed when …" asks for a place)
    window = focus_window(q)
    for text in (window, q):
        for kind, patterns in _TYPED:
            if any(p.search(text) for p in patterns):
                return kind
    if (asked := asked_dimensions(q)) is not None and asked <= _VALUED:
        return "number"  # "the max weight it can take", 押金是多少, "the hottest it can work in": a quantity's dimension
    if _DEFINITION_EN.search(q) or _DEFINITION_ZH.search(q):
        return "definition"
    return "other"


# the order decides between cues in one question: "how many people..." is a number, "who founded the
# company..." a person, "which company founded in which city..." an organization first
_TYPED: tuple[tuple[AnswerType, tuple[re.Pattern[str], ...]], ...] = (
    ("number", (_NUMBER_EN, _MEASURE_EN, _NUMBER_ZH)),
    ("date", (_DATE_EN, _DATE_ZH, ASKS_TIME_OF_DAY)),  # a time of day (几点, "what time") is a date's finest part
    ("person", (_PERSON_EN, _PERSON_ZH)),
    ("organization", (_ORG_EN, _ORG_ZH)),
    ("place", (_PLACE_EN, _PLACE_ZH)),
)


_WH_EN = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how(?:\s+(?:many|much|old|long|far|big|tall))?)\b",
                    re.IGNORECASE)
_WH_ZH = re.compile(r"什么|谁|哪|多少|几|何时|何地|何人|怎么|怎样|如何|为什么|为何|吗")
_WINDOW_WORDS = 4
_WINDOW_CHARS = 6


def question_word(question: str) -> tuple[int, int] | None:
    """Where the question word is (the first one: "Which city was the band formed when …" asks "which city")."""
    m = _WH_ZH.search(question) or _WH_EN.search(question)
    return (m.start(), m.end()) if m else None


def focus_terms(question: str, terms: Iterable[str]) -> list[str]:
    """Of ``terms`` (folded), the nearest one before the question word and the nearest one after it: what is
    asked ("headquartered in what city", "的体重大约是多少")."""
    where = question_word(question)
    if where is None:
        return []
    folded = question.casefold()
    found = [(folded.find(t), t) for t in terms if t and folded.find(t) >= 0]
    before = [(where[0] - (at + len(t)), t) for at, t in found if at + len(t) <= where[0]]
    after = [(at - where[1], t) for at, t in found if at >= where[1]]
    return [min(side)[1] for side in (before, after) if side]


def focus_window(question: str) -> str:
    """The part of a question around its question word, where what is asked is said ("headquartered in what
    city", "…的体重大约是多少"): the words next to it in English, the characters next to it in Chinese."""
    q = question.strip()
    if m := _WH_ZH.search(q):
        return q[max(0, m.start() - _WINDOW_CHARS) : m.end() + _WINDOW_CHARS]
    if m := _WH_EN.search(q):
        before = q[: m.start()].split()[-_WINDOW_WORDS:]
        after = q[m.end() :].split()[:_WINDOW_WORDS]
        return " ".join([*before, m.group(), *after])
    return q


_LIST_OF: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("ORGANIZATION", re.compile(r"公司|企业|机构|组织|品牌|银行|大学|学校|学院|球队|乐队|厂商|\b(?:compan(?:y|ies)|firms?|"
                                r"organi[sz]ations?|brands?|banks?|universit(?:y|ies)|schools?|teams?|bands?|labels?)\b",
                                re.IGNORECASE)),
    ("PERSON", re.compile(r"哪些人|什么人|谁|人物|成员|创始人|演员|歌手|作者|科学家|\b(?:people|persons|members|founders|"
                          r"actors|actresses|singers|authors|players|scientists|who)\b", re.IGNORECASE)),
    ("PRODUCT", re.compile(r"产品|手机|车型|型号|设备|\b(?:products?|phones?|models?|devices?)\b", re.IGNORECASE)),
    ("EVENT", re.compile(r"活动|事件|会议|比赛|\b(?:events?|conferences?|tournaments?)\b", re.IGNORECASE)),
    ("LOCATION", re.compile(r"地区|城市|国家|地方|省份|地点|\b(?:cities|countries|places|regions|states|locations)\b",
                            re.IGNORECASE)),
)


def listed_type(question: str) -> str | None:
    """The entity type a list question asks for ("马斯克创办的公司有哪些" → ORGANIZATION), if it names one."""
    return next((etype for etype, pattern in _LIST_OF if pattern.search(question)), None)


_HEAD_TYPES: tuple[tuple[AnswerType, re.Pattern[str]], ...] = (
    ("date", re.compile(r"(?:时间|日期|时候|年份|月份|时刻|期限|档期)$|\b(?:date|year|day|time)$", _I)),
    ("number", re.compile(r"(?:数量|人数|数目|总数|个数|次数|销量|票房|金额|总额|规模|增速|增幅|增长率|涨幅|降幅|跌幅|保有量|奖金|"
                          r"价格|售价|票价|市值|产量|营收|收入|利润|得分|比分|分数|排名|名次|伤亡|年龄|身高|体重|面积|长度|"
                          r"高度|速度|总量|占比|比例|比重|税率|利率|汇率|估值|预算|投资|融资|损失|死亡|遇难)$|"
                          r"\b(?:number|amount|total|count|population|price|cost|revenue|sales|score|age|toll)$", _I)),
    ("place", re.compile(r"(?:举办地|举办地点|举行地点|地点|所在地|地址|总部|发源地|出生地|目的地|首都|首府|产地)$|"
                         r"\b(?:venue|location|headquarters|birthplace|capital)$", _I)),
    ("person", re.compile(r"(?:总导演|导演|编剧|作者|主演|主持人|主席|总统|总理|首相|市长|省长|镇长|董事长|总裁|总经理|首席执行官|"
                          r"CEO|创始人|创办人|发言人|主教练|教练|队长|得主|获得者|演唱者|歌手|作词|作曲|设计师|发明人)$|"
                          r"\b(?:director|author|writer|founder|ceo|president|chairman|mayor|coach|winner|singer)$", _I)),
    ("list", re.compile(r"(?:冠军|亚军|季军|四强|八强|前三名|胜者|赢家)$|\b(?:champions?|runners?-up)$", _I)),
)
"""The type a question without a question word asks for, by its last noun (news questions: "RCEP生效时间",
"2022年我国机动车保有量", "EMNLP2022的举办地", "卡塔尔世界杯的冠军": a team, a country or a person, any name)."""


def head_type(question: str) -> AnswerType | None:
    """The answer type of a question that asks by its last noun, not by a question word ("…的举办地", "…销量"):
    None when the question has a question word or its last noun types nothing."""
    if question_word(question) is not None:
        return None
    core = re.sub(r"[\s？?。.!！]+$", "", question.strip())
    return next((kind for kind, pattern in _HEAD_TYPES if pattern.search(core)), None)
