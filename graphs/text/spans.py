"""Short answers of a given kind inside a sentence: names (people, organizations, places, titles), dates,
numbers with their unit, in Chinese and English. The extractive writer picks one as its ``answerSpan``."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import NamedTuple

from graphs.text.answer_types import AnswerType, question_word
from graphs.text.dates import (
    RELATIVE_YEAR,
    asks_event_day,
    asks_recurring_when,
    asks_time_of_day,
    asks_when,
    asks_year,
    calendar_day,
    clock_time,
    clock_times,
    find_dates,
    names_year,
    recurring_times,
)
from graphs.text.entity_spotting import _SURNAMES as SURNAMES
from graphs.text.entity_spotting import placed_words, pos_spans, tagged_words, title_case_spans
from graphs.text.governors import actor_phrases
from graphs.text.identifiers import asks_identifier, in_identifier
from graphs.text.name_match import TRANSLITERATION
from graphs.text.normalize import has_han, normalize
from graphs.text.relations import asked_elsewhere
from graphs.text.scripts import KIND_SUFFIXES, kind_of
from graphs.text.terms import stem
from graphs.text.units import QUANTITY_WORDS_ZH, alternation, value_dimension


class Span(NamedTuple):
    """A candidate answer at ``sentence[start:end]``."""

    start: int
    end: int
    text: str
    type: str | None = None
    """What the tagger says it names (PERSON, LOCATION, ORGANIZATION …), when it says."""


_NO_DAY = date(1, 1, 1)  # dates in passages are absolute: no "last year" to resolve
_YEAR = re.compile(r"(?<![\d.])(?:1[0-9]{3}|20[0-9]{2})(?:\s*年)?(?!\d|\.\d)"  # "in 1849." ends a sentence
                   r"(?!\s*(?:人|名|位|亿|万|千|百|元|辆|个|吨|米|台|套|件|家|户|例|起|股|项|艘|架|座|所|公里|平方|%|％))")
"""A year; a four-digit number with a unit (1450人, 1245亿元) is a quantity, not a year."""
_ZH_NUMERAL = "零〇一二两三四五六七八九十百千万亿"
_CLASSIFIER_ZH = alternation(QUANTITY_WORDS_ZH)  # classifiers, units and counted nouns (graphs.text.units)
# a magnitude (6710亿, 3万) is a quantity by itself; a plain number needs its unit or measure word
_UNIT_ZH = rf"(?:多)?(?:{_CLASSIFIER_ZH}|(?:万|亿|千|百)(?:多)?{_CLASSIFIER_ZH}?)"  # 千瓦, 千克 whole before 千 as a multiplier
_NUMBER_ZH = re.compile(rf"(?:约|近|逾|超过)?(?:\d[\d,，.]*\s*(?:~|～|-|－|–|—|至|到)\s*)?(?:\d[\d,，.]*|[{_ZH_NUMERAL}]+)\s*"
                        rf"{_UNIT_ZH}(?:以上|左右|多)?")
# a number's thousands commas are inside it: "£40, paid by card" is 40, not "40,"
_NUMBER_EN = re.compile(
    r"(?<![\w.])(?:(?:about|around|over|nearly|more than|less than|some|approximately)\s+)?"
    r"(?:\d(?:[\d,]*\d)?(?:\.\d+)?\s*(?:-|–|—)\s*(?=\d))?(?:\d(?:[\d,]*\d)?(?:\.\d+)?|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|dozen|"
    r"once|twice|thrice)(?![a-z]))(?:\s*(?:%|percent|per cent))?"  # "ten", not the ten of "tenth"
    r"(?:[\s-]+(?:million|billion|thousand|hundred|trillion))?"
    r"(?:[\s-]+(?:times|time|years?|months?|days?|hours?|minutes?|seconds?|people|persons|members|km|kilometres|"
    r"kilometers|miles?|metres|meters|m|feet|ft|inches|kg|tons?|tonnes?|pounds?|dollars|euros|episodes|"
    r"seasons|games|goals|points|albums|songs|records|copies|students|employees|inhabitants|residents|"
    r"seats|floors|storeys|stories|acres|hectares|square \w+|e\dhl|hl|"
    # a short unit ("5 kW", "35p", "2 km"), not a short word of the sentence ("63 got out", "12 and", "40 per")
    r"(?!(?:and|or|the|for|per|but|nor|yet|got|ran|hit|won|saw|let|set|put|cut|was|are|had|has|did|is|of|in|on|at|"
    r"to|by|as|an|a|so|up|out|off|all|few|new|old|its|our|who|now|too|not|be)\b)[a-z]{1,3}\b)(?![a-z]))?", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“《「『]([^\"”》」』]{1,60})[\"”》」』]")


def _dedupe(spans: Iterable[Span], question: str) -> list[Span]:
    """Spans in position order, each once, leaving out what the question itself says."""
    asked = normalize(question)
    out: dict[str, Span] = {}
    for s in sorted(spans, key=_place):
        key = normalize(s.text).strip(" ,.;:，。；：")
        if key and key not in asked and key not in out:
            out[key] = s
    return sorted(out.values(), key=_place)


def _place(span: Span) -> tuple[int, int]:
    return span.start, span.end


def _names(sentence: str) -> list[Span]:
    """Capitalised Latin names (typed by their kind word: ``_headed``), Chinese names jieba tags, and quoted
    titles."""
    found = [_headed(sentence, Span(s.start, s.end, sentence[s.start : s.end])) for s in title_case_spans(sentence)]
    found += _surnamed(sentence, [Span(s.start, s.end, sentence[s.start : s.end],
                                       s.entity.type if s.entity.type != "OTHER" else None)
                                  for s in pos_spans(sentence, accurate=True)])
    found += [Span(m.start(1), m.end(1), m[1], "WORK") for m in _QUOTED.finditer(sentence)]
    # a person's role as a field's label ("主持人：陈海峰（安全总监）", "记录人: 李明"): the value is a name,
    # whether or not the tagger knows it; it replaces what the tagger made of the same characters
    labelled = [Span(m.start(1), m.end(1), m[1], "PERSON") for m in _ROLE_LABEL.finditer(sentence)]
    labelled += [Span(m.start(g), m.end(g), m[g], kind) for pattern, kind in _TYPED_BY_CONTEXT
                 for m in pattern.finditer(sentence) for g in (1, 2) if g <= (pattern.groups or 0) and m[g]
                 and (kind != "PERSON" or _named(m[g])) and (kind != "LOCATION" or not _WHEN_WORD.search(m[g]))]
    labelled += _suffixed(sentence)
    kept: list[Span] = []
    for x in sorted(labelled, key=lambda x: x.start - x.end):  # the longest of overlapping ones
        if not any(x.start < k.end and k.start < x.end for k in kept):
            kept.append(x)
    found = [f for f in found if not any(f.start < x.end and x.start < f.end for x in kept)]
    names = _whole_names(sentence, [f for f in [*found, *kept] if not _role_noun(f) and not _label(sentence, f)])
    return [n for n in names if not _title_before(n, names)]


def _surnamed(sentence: str, spans: list[Span]) -> list[Span]:
    """A given name the tagger split from its surname ("副主任医师宋文澜": 宋 tagged alone, 文澜 the name) is taken
    with it: a one-character surname tagged as a name right before a person's name of one or two characters."""
    if not any(s.type == "PERSON" and len(s.text) <= 2 for s in spans):
        return spans
    surnames = {start for start, _, word, flag in placed_words(sentence)
                if len(word) == 1 and flag.startswith("nr") and word in SURNAMES}
    return [Span(s.start - 1, s.end, sentence[s.start - 1 : s.end], "PERSON")
            if s.type == "PERSON" and len(s.text) <= 2 and has_han(s.text) and s.start - 1 in surnames else s
            for s in spans]


def _label(sentence: str, span: Span) -> bool:
    """A single capitalised word before a colon is a field's label ("Present: Gwen Attley", "Venue: …"), and a
    number word opening a sentence ("Three firms tendered") a count: no name. So is the capitalised word that opens
    a line of a label phrase ("Next meeting:", "Action points:") or of a passive clause ("Approved by the chair",
    "Minutes taken by …"): a sentence's opener capitalised by its place, not a name."""
    if " " in span.text or has_han(span.text):
        return False
    if sentence[span.end : span.end + 1] in (":", "：") or bool(_NUMBER_WORD.fullmatch(span.text)):
        return True
    opens = not sentence[: span.start].strip(" \t-*•") or bool(_LINE_START.search(sentence[: span.start]))
    return opens and bool(_OPENER_TAIL.match(sentence, span.end))


_LINE_START = re.compile(r"(?:[\n.;!?]|^)[ \t\-*•]*$")
_OPENER_TAIL = re.compile(r"[ \t]+(?:(?:(?![a-z]+ed\b|said\b|says\b|asked\b)[a-z]+[ \t]+){0,1}"
                          r"(?![a-z]+ed\b|said\b|says\b|asked\b)[a-z]+[ \t]*[:：]|(?:[a-z]+[ \t]+)?by\b)")
"""After a line's opening word: one or two lowercase words and a colon (a label phrase; not a speaker's verb:
"Ruth reported:", "Colin said:"), or "by" after a participle at most (a passive clause)."""


_NUMBER_WORD = re.compile(r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-)?(?:one|two|three|four|five|"
                          r"six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|dozen)s?",
                          re.IGNORECASE)


def _title_before(span: Span, names: list[Span]) -> bool:
    """A person's title the tagger takes for a name, written right before the name (制瓷师傅林秋白, 老师王芳): not a
    surname's word before one that starts with a surname."""
    return span.type == "PERSON" and has_han(span.text) and span.text[0] not in SURNAMES and any(
        n.start == span.end and n.type == "PERSON" and n.text[:1] in SURNAMES for n in names)


_LOWER_HEAD = re.compile(r"\s+([a-z]+(?:\s+[a-z]+)?)")


def _headed(sentence: str, span: Span) -> Span:
    """A capitalised name typed by the kind word that ends it, the one inventory of ``scripts.KIND_SUFFIXES``
    ("Coastal Safety Board" an organization, "St Brennan's Infirmary" an organization a place may be, "Quarry
    Green" untyped), and grown over a lower-case kind word written after it ("the Lower Hide car park", "the
    Ashby Road bus station"): a person's name ends in no such word."""
    after = _LOWER_HEAD.match(sentence, span.end)
    if after is not None:
        words = after[1].split()
        for n in (2, 1):
            tail = " ".join(words[:n])
            if len(words) >= n and tail in KIND_SUFFIXES:
                end = after.start(1) + len(tail)
                return Span(span.start, end, sentence[span.start : end], KIND_SUFFIXES[tail][1])
    kind = _kind_word(span.text)
    return span if kind is None else span._replace(type=kind[1])


def _kind_word(name: str) -> tuple[tuple[str, ...], str] | None:
    """The inventory's entry for a name's kind word: the last words ("Ardmore Infirmary"), or a place's first word
    ("River Lisk", "Lake Orrin", "Mount Kell")."""
    if (kind := kind_of(name)) is not None:
        return kind
    first = name.split()[0].casefold() if " " in name.strip() else ""
    entry = KIND_SUFFIXES.get(first)
    return entry if entry is not None and entry[1] == "LOCATION" else None


def named_kind(name: str) -> str | None:
    """The entity type a name's own kind word gives it ("Weir Lane", "River Lisk": LOCATION; "Pellmoor Lift Company",
    青峰集团, 文昌大道: ORGANIZATION, LOCATION), or None: a name with such a word is never a person's. Chinese by an
    ending of two characters or more (a one-character ending, 山 or 江, ends many given names)."""
    if not has_han(name):
        kind = _kind_word(name.strip())
        return kind[1] if kind is not None else None
    text = name.strip()
    return next((entity for endings, entity in KIND_SUFFIXES.values()
                 for ending in endings if len(ending) >= 2 and len(text) > len(ending) and text.endswith(ending)), None)


_FACILITIES = frozenset({"hall", "concert hall", "museum", "library", "theatre", "theater", "school", "university",
                         "college", "hospital", "clinic", "infirmary", "hotel", "factory", "farm"})
"""Kind words of ``scripts.KIND_SUFFIXES`` that name a building as well as an institution: such a name answers
"where" (taken to St Brennan's Infirmary, 送往县人民医院) as well as "which hospital"."""
_FACILITY_ZH = tuple(sorted({z for k in _FACILITIES for z in KIND_SUFFIXES[k][0]} | {"卫生院", "中学", "小学"},
                            key=len, reverse=True))


def _facility(text: str) -> bool:
    text = text.strip()
    return text.endswith(_FACILITY_ZH) if has_han(text) else (kind_of(text) is not None and any(
        text.lower().endswith(k) for k in _FACILITIES))


_NAME_JOINS = "·•・．‧"
"""The dot between the parts of a transliterated name (艾伦·劳埃德·霍奇金, 埃文．格什科维奇)."""


def _whole_names(sentence: str, spans: list[Span]) -> list[Span]:
    """Person names a tagger cut inside a transliterated name made whole: a piece written only in
    transliteration characters grows over its neighbours of that kind and over the dots between a name's
    parts ("尔巴" in "安娜·谢尔巴科娃夺得" → "安娜·谢尔巴科娃"); a native name (张伟) is left as it is."""
    out: list[Span] = []
    for s in spans:
        core = s.text.strip()
        if (s.type != "PERSON" or not has_han(core)
                or not all(ch in TRANSLITERATION or ch in _NAME_JOINS for ch in core)):
            out.append(s)
            continue
        start, end = s.start, s.end
        while start > 0 and (sentence[start - 1] in TRANSLITERATION or (
                sentence[start - 1] in _NAME_JOINS and start > 1 and sentence[start - 2] in TRANSLITERATION)):
            start -= 1
        while end < len(sentence) and (sentence[end] in TRANSLITERATION or (
                sentence[end] in _NAME_JOINS and end + 1 < len(sentence) and sentence[end + 1] in TRANSLITERATION)):
            end += 1
        grown = sentence[start:end]
        if grown != s.text and (len(grown) <= 16 and (len(grown) - len(s.text) >= 1)):
            out.append(Span(start, end, grown, "PERSON" if any(j in grown for j in _NAME_JOINS) else s.type))
        else:
            out.append(s)
    kept: list[Span] = []
    for x in sorted(out, key=lambda x: (x.start - x.end, x.start)):  # one span for the pieces of one name
        if not any(x.start < k.end and k.start < x.end for k in kept):
            kept.append(x)
    return sorted(kept, key=lambda x: x.start)


def _role_noun(span: Span) -> bool:
    """A noun for a role that the tagger takes for a name (拓荒者, 开拓者, 获胜者): a Chinese "…者" is no
    person's name."""
    text = span.text.strip()
    return span.type in (None, "PERSON") and has_han(text) and len(text) >= 2 and text.endswith("者")


_WHEN_WORD = re.compile(r"\d|[年月日号]|周|星期|今天|明天|昨天|近日|日前|期间|上午|下午|晚上|凌晨|当天|当日|同日|[初底末]$|"
                        r"[一二三四五六七八九十]+时")
"""A time, not a place, after 于 ("将于下周末举行", "于当日举行")."""


def _named(text: str) -> bool:
    """Whether the characters after a role read as a name: not two or more ordinary words of which none is a
    name ("记者事件通话" holds 事件 and 通话, no name; "导演辛爽" holds one)."""
    words = [(w, f or "") for w, f in tagged_words(text) if w.strip()]
    return len(words) < 2 or any(f.startswith("nr") for _, f in words) or all(len(w) == 1 for w, _ in words)


_HAN_NAME = r"([\u4e00-\u9fff·]{2,4}?)"
_NAME_END = r"(?=[，,、；;。\s（(和与及等的]|$)"
_ROLES_ZH = (r"(?:总导演|导演|编剧|制片人|监制|作者|作词|作曲|主演|主持人|主席|总统|总理|首相|市长|省长|镇长|县长|校长|院长|"
             r"董事长|总裁|总经理|首席执行官|CEO|创始人|创办人|主教练|教练|队长|发言人|部长|大使|秘书长|会长|主任|局长|"
             r"冠军|亚军|季军|得主|歌手|演员|记者|作家|画家|选手|球员|运动员)")
_TYPED_BY_CONTEXT: tuple[tuple[re.Pattern[str], str], ...] = (
    # a person after a role ("导演辛爽表示", "由张三执导") or before a verb that only a person does ("李四当选")
    (re.compile(rf"{_ROLES_ZH}(?:为|是|：|:)?{_HAN_NAME}(?=表示|指出|称|说|透露|介绍|认为|执导|主演|担任|出任|当选|"
                rf"夺冠|获得|率领|带领|发表|宣布|[，,、；;。\s（(和与及等]|$)"), "PERSON"),
    (re.compile(rf"由{_HAN_NAME}(?=执导|导演|编剧|主演|主持|创立|创办|创作|演唱|领衔|担任|出任|带领|率领)"), "PERSON"),
    # 由冯启明负责联系…: a person's duty (not 由后勤组负责, a team's: ``governors.actor_phrases`` reads those)
    (re.compile(r"由([\u4e00-\u9fff·]{2,4}?)(?<![组处部队科室心会团司局所院])(?=负责)"), "PERSON"),
    (re.compile(r"(?:^|(?<=[，,。；;\s]))([\u4e00-\u9fff]{3})(?<![组处部队科室心会团司局所院])(?=负责)"), "PERSON"),
    (re.compile(r"(?:^|(?<=[，,。；;\s]))([\u4e00-\u9fff]{2,3})[，,]\s*(?:男|女)[，,]"), "PERSON"),  # 舒畅，男，汉族
    # where something takes place: 在伦敦西敏寺大教堂举行, 于上海召开
    (re.compile(r"(?:在|于|赴|抵达|来到|前往)([\u4e00-\u9fffA-Za-z·]{2,14}?)(?=举行|举办|召开|开幕|闭幕|落幕|开赛|进行|"
                r"展开|揭幕|启幕|上演|落户|成立)"), "LOCATION"),
)
"""Names typed by the words around them where the tagger does not know them (news names: 辛爽, 舒畅)."""
_PLACE_SUFFIXES = ("大教堂", "教堂", "体育场", "体育馆", "体育中心", "会展中心", "展览中心", "中心", "广场", "机场", "大厦",
                   "大剧院", "剧院", "宫", "寺", "城堡", "公园", "酒店", "大学城", "省", "市", "县", "区", "镇", "乡", "村",
                   "州", "岛", "港", "湾", "山", "河", "湖", "街", "路", "停车场", "工业园", "园区", "码头", "车站",
                   "礼堂", "会议室")
_ORG_SUFFIXES = ("有限公司", "公司", "集团", "银行", "大学", "学院", "研究院", "研究所", "医院", "俱乐部", "协会", "委员会",
                 "基金会", "联合会", "联盟", "组织", "政府", "法院", "检察院", "部", "局", "厅", "署", "队", "党", "社",
                 "电视台", "报社", "出版社", "工作室", "交易所", "实验室", "乐队", "战队")
_NAME_FLAGS = ("ns", "nr", "nt", "nz", "eng", "j")


def _suffixed(sentence: str) -> list[Span]:
    """Places and organizations the tagger splits: a name (or names: 伦敦, 西敏寺) followed by a place's or an
    organization's word (大教堂, 有限公司, 队), taken whole ("伦敦西敏寺大教堂", "重庆零壹空间科技集团有限公司")."""
    if not has_han(sentence):
        return []
    words = placed_words(sentence)
    out: list[Span] = []
    for i, (_start, end, word, _flag) in enumerate(words):
        kind = ("ORGANIZATION" if word.endswith(_ORG_SUFFIXES) else "LOCATION" if word.endswith(_PLACE_SUFFIXES)
                else None)
        if kind is None:
            continue
        suffix = next(x for x in (*_ORG_SUFFIXES, *_PLACE_SUFFIXES) if word.endswith(x))
        if len(word) == len(suffix) + 1 and (tagged_words(word[0])[0][1] or "").startswith("v"):
            continue  # a verb and its object (带队, 率队 of 二队由周雅琴带队): the act, no organization's word
        j = i
        # the words before it that belong to the name: names, nouns, numerals spelled as words (零壹), English
        while j > 0 and i - j < 5 and (words[j - 1][3].startswith(("n", "m")) or words[j - 1][3] in _NAME_FLAGS) \
                and words[j - 1][2] not in _NOT_NAME_PART \
                and not re.match(r"^[\d.,]+$", words[j - 1][2]) and words[j - 1][1] == words[j][0]:
            j -= 1
        if j == i and len(word) <= len(suffix):
            continue  # the bare word ("公司", "市"): no name
        while j < i and words[j][3].startswith("m") and _COUNTED.match(words[j][2]):
            j += 1  # "两家公司", "三所大学": a count, no name
        begin = words[j][0]
        if any(f.startswith(("ns", "nr", "nt", "nz", "eng")) for *_, f in words[j : i + 1]) or (
                j < i and (kind == "LOCATION" or _facility(word))):
            # (a common noun phrase headed by a place's or a building's word is a place nobody named: 人民医院,
            # 门前的停车场 → 停车场 with its modifier 村委会 only when joined, 城东工业园)
            out.append(Span(begin, end, sentence[begin:end], kind))
    return out


_COUNTED = re.compile(r"^[\d零〇一二两三四五六七八九十百千万几多数]+[个家所座位名支只条项种]?$")
_NOT_NAME_PART = frozenset({"我国", "本", "该", "这", "那", "其", "各", "全国", "全球", "国内", "国际", "我们", "他们", "一个",
                            "首席", "执行官", "记者", "时间", "今年", "去年", "明年"})


_ROLE_LABEL = re.compile(r"(?:^|(?<=[\s，,。；;]))(?:[\u4e00-\u9fff]{0,4}(?:主持人|负责人|联系人|记录人|发言人|主讲人|"
                         r"召集人|审核人|审批人|签发人|经办人|讲师|主席|院长|校长|站长|船长|总监|经理)|主持|记录)\s*[：:]\s*"
                         r"([\u4e00-\u9fff]{2,4}?)(?=[（(，,、；;。\s]|$)")
"""A role as a field's label and the 2-4 character name after its colon (a list of several names is not one)."""


NAME_TYPES: dict[str, frozenset[str]] = {
    "person": frozenset({"PERSON", "ROLE"}),  # ROLE: the doer of the asked act written as a role (``candidates``)
    "place": frozenset({"LOCATION"}),
    "organization": frozenset({"ORGANIZATION"}),
}
"""The entity types a short answer of each kind may be (a list takes any)."""
_CODE = re.compile(r"\d")


def fits(kind: AnswerType, span: Span, types: Mapping[str, str] | None = None) -> bool:
    """Whether a name is of the asked kind: not when its tag or what the passages say of it (``types``:
    folded name → type) is another type; a person or a place is never written with digits (a product code
    "Q7", a model "X300")."""
    allowed = NAME_TYPES.get(kind)
    if allowed is None:
        return True
    if kind in ("person", "place") and _CODE.search(span.text):
        return False
    known = span.type or (types or {}).get(normalize(span.text))
    return known is None or known in allowed or (kind == "place" and known == "ORGANIZATION" and _facility(span.text))


_ZH_CLOCK = r"(?:凌晨|清晨|早上|上午|中午|下午|傍晚|晚上|晚间|夜间)?\s*\d{1,2}\s*(?:时|点)(?:\s*\d{1,2}\s*分|半)?"
_ZH_DAY = (r"(?:(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*月\s*)?(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:日|号)(?!\s*(?:元|人|次))")
_ZH_MONTHS = r"(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*(?:(?:至|到|-|－|—|~|～)\s*(?:\d{1,2}|[一二三四五六七八九十]{1,2})\s*)?月(?!份?\s*(?:薪|工资))"
_DYNASTY = r"(?:西汉|东汉|西晋|东晋|北宋|南宋|夏|商|周|秦|汉|隋|唐|宋|元|明|清)"
_ZH_PARTIAL_DATE = re.compile(
    rf"(?<![\d.])(?:{_ZH_DAY}(?:\s*{_ZH_CLOCK})?(?:\s*(?:至|到|-|－|—|~|～)\s*{_ZH_DAY})?|{_ZH_MONTHS}(?:上旬|中旬|下旬|初|底|末)?"
    rf"|{_ZH_CLOCK}(?=\s*(?:\d|许|左右|起|开始|举行|举办|召开|开幕|发布|出发|抵达|，|,|。|$))"
    rf"|(?:春|夏|秋|冬)(?:季|天)|(?:周|星期|礼拜)[一二三四五六日天]|大前天|前天|前日|昨天|昨日|明天|后天"
    rf"|(?:{_DYNASTY}[朝代]?)?[\u4e00-\u9fff]{{2}}年间|{_DYNASTY}[朝代](?:初年|末年|初期|中期|后期|末期|时期)?"
    rf"|(?:\d{{1,2}}|[一二三四五六七八九十]{{1,3}})世纪(?:\d{{2}}年代)?|\d{{2}}年代)")
"""Chinese dates a news sentence states without a year: 23日, 3月23日, 上午10时, 10月30日至11月2日, 3-8月, 夏季,
周一; eras and centuries: 明朝永乐年间, 清代中期, 十五世纪, 90年代 (``find_dates`` wants a year)."""
_EN_PARTIAL_DATE = re.compile(
    r"\b(?:(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?|January|February|March|April|May|June|July|"
    r"August|September|October|November|December)\s+\d{1,2}(?:st|nd|rd|th)?\b(?!\s*,?\s*\d{4})|"
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\b(?!\s*,?\s*\d{4})|\b(?:on\s+)?(?:Monday|Tuesday|Wednesday|Thursday|Friday|"
    r"Saturday|Sunday)\b|\b\d{1,2}(?::\d{2})?\s*(?:a\.m\.|p\.m\.|am\b|pm\b)|"
    r"\b\d{1,2}(?:st|nd|rd|th)\s+century\b|\b(?:1[0-9]|20)[0-9]0s\b|\b(?:yesterday|tomorrow)\b", re.IGNORECASE)
"""English dates without a year: "March 23", "23rd of March", "on Tuesday", "10 a.m."."""


_ADDRESS_NUMBER = re.compile(r"(?:[路街巷道弄里村区栋楼座院门]|大道|胡同|小区)\s*$")
"""The end of a street, lane or building name: the number after it is an address (文昌路18号, 3栋2号)."""


def _dates(sentence: str) -> list[Span]:
    found = [Span(d.start, d.end, d.text) for d in find_dates(sentence, _NO_DAY, relative=False)]
    covered = [(s.start, s.end) for s in found]
    # (a relative year, 本年度 or "this year", is the year its document is of: ``evidence.typed_span`` keeps it only
    # where its passage's title or heading states that year)
    for m in [*_YEAR.finditer(sentence), *_ZH_PARTIAL_DATE.finditer(sentence), *_EN_PARTIAL_DATE.finditer(sentence),
              *RELATIVE_YEAR.finditer(sentence)]:
        if _ADDRESS_NUMBER.search(sentence[: m.start()]) and m[0].strip().endswith("号"):
            continue  # 文昌路18号, 3栋2号: a house number, not the 18th of a month
        if in_identifier(sentence, m.start(), m.end()):
            continue  # a document number's, a room's, a model's digits (〔2025〕, "Room 2021", HP-2024): no date
        if m.re is _YEAR and not m[0].rstrip().endswith("年") and value_dimension(sentence, m.start(), m.end()):
            continue  # a four-digit number with any unit of measure (1300℃, "1,320 °C", 1500 W) is no year
        if m[0].strip() and not any(a < m.end() and m.start() < b for a, b in covered):
            found.append(Span(m.start(), m.end(), m[0].strip()))
            covered.append((m.start(), m.end()))
    return found


_ARTICLE = re.compile(r"^一(?:个|位|名|家|种|本|部|条|项|只|件|台|辆|座|所|首|场|届)$")
"""一个, 一种, 一家 …: the Chinese article, no quantity ("是一个混合专家模型")."""


_CODE_HEAD = re.compile(r"[A-Za-z][-‐–]?$")
"""Letters written right before a number (QT-11, E12, IP68, H7): the number is part of a code, no quantity."""


_MARKER_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:[☐☑☒□■✓✔•·◦▪*>-]+[ \t]*)?[(（]?$")
_MARKER_AFTER = re.compile(r"(?:[.、．)）](?!\d)|[)）])")
"""A number that opens its line as an item's marker ("☐ 3. Confirm the start date", "2. The fee …", "(4) 押金…",
"3、…"): it numbers the item, it is no count, measure or amount."""


def _enumerator(sentence: str, span: Span) -> bool:
    return span.text.isdigit() and len(span.text) <= 3 and bool(_MARKER_BEFORE.search(sentence[: span.start])) and bool(
        _MARKER_AFTER.match(sentence, span.end))


def _numbers(sentence: str, question: str = "") -> list[Span]:
    found = [Span(m.start(), m.end(), m[0].strip()) for m in _NUMBER_ZH.finditer(sentence)
             if not _ARTICLE.match(m[0].strip())]
    # a number with its Chinese unit is one span: not "32" again out of "5~32公里"
    found += [Span(m.start(), m.end(), m[0].strip()) for m in _NUMBER_EN.finditer(sentence) if m[0].strip()
              and not any(f.start < m.end() and m.start() < f.end for f in found)]
    # a code's digits ("备注 — QT-11: …", "E12", "IP68") are no count, measure or amount
    # a name's digits (分机 2024, "Route 42", 302室, 0571-86012026) neither, unless the question asks for the name
    named = not asks_identifier(question)
    return [f for f in found if not _CODE_HEAD.search(sentence[max(0, f.start - 2) : f.start])
            and not (named and in_identifier(sentence, f.start, f.end)) and not _enumerator(sentence, f)]


def candidates(sentence: str, kind: AnswerType, question: str, types: Mapping[str, str] | None = None) -> list[Span]:
    """Candidate answers of ``kind`` in ``sentence`` that the question does not already contain (names of
    another type than the asked one left out: ``types`` maps folded names to what the passages say they are)."""
    if kind == "date" and asks_time_of_day(question):
        # a time of day asked (几点, "what time"): the clock times the sentence writes, whatever date is beside them
        spans = [Span(a, b, t.strip()) for a, b, t in clock_times(sentence)]
    elif kind == "date":
        spans = _dates(sentence)
        if asks_recurring_when(question) and (recurring := recurring_times(sentence)):
            # a schedule's sentence answers "when" by its recurring time and its hours (每月第一个周六, "every
            # weekday from 8:30 to 17:00"), which are no dates of the calendar
            spans = [s for s in spans if not any(a < s.end and s.start < b for a, b, _ in recurring)]
            spans += [Span(a, b, t) for a, b, t in recurring]
            spans += [Span(a, b, t.strip()) for a, b, t in clock_times(sentence)
                      if not any(a < s.end and s.start < b for s in spans)]
            spans.sort(key=lambda s: s.start)
    elif kind == "number":
        spans = _numbers(sentence, question)
    elif kind in ("person", "organization", "place", "list"):
        spans = [s for s in _names(sentence) if not _attributive(sentence, s) and fits(kind, s, types)]
        if kind == "place":
            # a street address is one place (文昌路18号, "2 Quay Lane"), whatever the tagger makes of its parts
            addresses = _addresses(sentence)
            spans = [*addresses, *(s for s in spans if not any(a.start < s.end and s.start < a.end for a in addresses))]
            if _asks_where(question):
                # where the asked act happens, as the sentence writes it after the act's preposition ("teaches …
                # in the back room of the Corn Exchange", 每周三在镇文化站二楼排练): one place, the names in it
                # its parts, whether or not a tagger knows any of them
                places = place_adjuncts(sentence, question)
                spans = [*places, *(s for s in spans if not any(a.start < s.end and s.start < a.end for a in places))]
        if kind == "person":
            # the doer of the asked act written as a role, a team or an office ("the duty supervisor checks …",
            # 由后勤组负责): it answers a who-question asked by its verb
            spans += [Span(a, b, sentence[a:b], "ROLE") for a, b in actor_phrases(sentence, question)
                      if not any(a < x.end and x.start < b for x in spans)]
    else:
        return []  # a definition, a reason or a description is answered by the sentence, not a span
    out = _dedupe(spans, question)
    if kind == "person" and not out:
        out = _dedupe(framed(sentence, question), question)  # 派遣圣甲虫去送信 for 派谁去送信: no tagger's person
    return out


_DEMONYM = re.compile(r"^[A-Z][a-z]+(?:an|ian|ese|ish|i)$")


def _attributive(sentence: str, span: Span) -> bool:
    """A nationality used as an adjective ("an American restaurant company", "Irish singer"): no name."""
    return bool(_DEMONYM.match(span.text)) and bool(re.match(r"\s+[a-z]", sentence[span.end :]))


_DIGITS = re.compile(r"\d[\d,，]*(?:\.\d+)?")


def stated_facts(sentence: str) -> list[str]:
    """What a sentence states that a reader could check: its numbers and years (digits), and its names
    (capitalised Latin names, Chinese names jieba tags, quoted titles), each once."""
    numbers = [re.sub(r"[,，]", "", m[0]).rstrip(".") for m in _DIGITS.finditer(sentence)]
    # a lone capitalised word opening the sentence is as often a verb or a noun ("Founded in 2002, …") as a name
    names = [s.text for s in _names(sentence) if len(normalize(s.text)) >= 2
             and not (s.start == len(sentence) - len(sentence.lstrip()) and s.text.isalpha() and s.text.isascii())]
    return list(dict.fromkeys(f for f in [*numbers, *names] if f))


def nearest(spans: list[Span], anchors: Iterable[tuple[int, int]]) -> Span | None:
    """The span closest to the question's terms in the sentence (their positions), else the first."""
    marks = list(anchors)
    if not spans:
        return None
    if not marks:
        return spans[0]
    return min(spans, key=lambda s: (min(abs(s.start - b) if s.start >= b else abs(a - s.end) for a, b in marks),
                                     s.start))


_UNIT_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("people", ("人次", "人", "名", "位", "口", "people", "persons", "passengers", "residents", "inhabitants",
                "victims", "deaths", "employees", "staff", "members", "students", "players", "workers")),
    ("money", ("美元", "港元", "英镑", "欧元", "日元", "韩元", "卢布", "澳元", "加元", "人民币", "元", "块", "dollars",
               "euros", "pounds", "yuan")),
    ("percent", ("%", "％", "percent", "per cent", "个百分点")),
    ("age", ("岁", "周岁")),
    ("time", ("世纪", "年", "个月", "月", "日", "号", "天", "周", "小时", "分钟", "秒", "years", "year", "months",
              "month", "days", "day", "hours", "minutes", "seconds")),
    ("length", ("平方公里", "平方米", "公里", "千米", "厘米", "毫米", "公分", "英里", "英尺", "米", "km", "kilometres",
                "kilometers", "miles", "metres", "meters", "feet", "ft")),
    ("weight", ("公斤", "千克", "克", "吨", "kg", "tons", "tonnes")),
    ("vehicles", ("辆",)),
)
"""Units by what they measure: a count of people is not answered by a month (3月) nor a sum by a length."""
_ASKED_UNIT_ZH = re.compile(r"(?:多少|几)(?:个)?(人次|人|名|位|口|钱|元|美元|岁|年|个月|月|天|周|小时|分钟|秒|公里|千米|米|"
                            r"吨|公斤|辆)")
_COUNT_ZH = re.compile(r"(?:多少|几)(?:个|座|家|所|项|条|件|支|只|部|本|台|艘|架|席|届|次|种)")
"""A count of things ("多少个议席", "几座桥"): answered by a number with its measure word, never a date or a length."""
_ASKED_HEAD_ZH: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("people", re.compile(r"人数|伤亡|死亡|遇难|罹难|丧生|人口|(?:多少|几)(?:名|位)?(?:乘客|旅客|员工|学生|球员|选手|观众)")),
    ("money", re.compile(r"票价|价格|售价|价钱|金额|奖金|工资|薪水|多少钱")),
    ("percent", re.compile(r"增速|增幅|增长率|涨幅|降幅|跌幅|占比|比例|比重|税率|利率|百分之几|百分比")),
    ("age", re.compile(r"年龄|年纪|几岁|多大岁数")),
)
_ASKED_UNIT_EN: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("people", re.compile(r"\bhow many (?:\w+ )?(?:people|persons|passengers|residents|inhabitants|victims|employees|"
                          r"staff|members|students|players|workers)\b|\bdeath toll\b|\bpopulation\b", re.IGNORECASE)),
    ("money", re.compile(r"\bhow much (?:money|did|does|do|is|was|will)\b.*\b(?:cost|pay|paid|earn|sell|sold)\b|"
                         r"\b(?:price|fee|cost)\b", re.IGNORECASE)),
    ("percent", re.compile(r"\bwhat (?:percentage|percent|share)\b|\bby how much\b.*\b(?:grow|rise|fall)\b", re.IGNORECASE)),
    ("age", re.compile(r"\bhow old\b|\bat what age\b|\bwhat age\b", re.IGNORECASE)),
)


def asked_unit(question: str) -> str | None:
    """What a quantity question counts or measures (people, money, a share, an age …), where it says:
    "多少人", "死亡人数", "how many passengers", "how old"; None when it does not."""
    if m := _ASKED_UNIT_ZH.search(question):
        if m[1] in ("钱",):
            return "money"
        return unit_group(f"1{m[1]}")
    if _COUNT_ZH.search(question):
        return "count"
    for group, pattern in (*_ASKED_HEAD_ZH, *_ASKED_UNIT_EN):
        if pattern.search(question):
            return group
    return None


_LEADING_NUMBER = re.compile(r"^(?:(?:about|around|over|nearly|more than|less than|some|approximately|约|近|逾|超过)\s*)?"
                             r"[\d,，.~～\-–—\s]+(?:(?:million|billion|thousand|hundred|trillion|万|亿|千|百)\b\s*)*",
                             re.IGNORECASE)


def _unit_tail(quantity: str) -> str:
    """What follows a number and its magnitude ("9 May" → "May", "3 million" → "", "214" → "")."""
    return _LEADING_NUMBER.sub("", quantity.strip()).strip()


def unit_group(quantity: str) -> str | None:
    """What a number's unit measures (``_UNIT_GROUPS``), None for a bare number or magnitude (14.5亿, 300)."""
    text = re.sub(r"(?:以上|左右|多|余|之多)$", "", quantity.strip()).casefold()
    best: tuple[int, str] | None = None
    for group, units in _UNIT_GROUPS:
        for unit in units:
            if text.endswith(unit.casefold()) and (best is None or len(unit) > best[0]):
                best = (len(unit), group)
    return best[1] if best else None


_WHERE = re.compile(r"在哪|哪里|哪儿|何地|何处|什么地方|哪个地方|地址|\bwhere\b|\baddress\b", re.IGNORECASE)
_ADDRESS = re.compile(
    r"(?:(?<=位于)|(?<=地址是)|(?<=地址为)|(?<=地址：)|(?<=设在)|(?<=坐落于)|(?<=在)|(?<=于)|(?<=：)|(?<=:)|(?<=，)|"
    r"(?<=,)|(?<=（)|(?<=\()|(?<=[省市县区镇乡])|^)(?:(?![省市县区镇乡])[\u4e00-\u9fff]){1,6}?"
    r"(?:路|街|大道|大街|巷|弄|胡同)\s*\d{1,5}\s*号(?:院|楼)?|"
    r"\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Road|Street|Lane|Avenue|Way|Row|Place|Square|Drive|Terrace|Close|"
    r"Crescent|Hill|Quay|Wharf|Walk|Court|Rd|St|Ave)\b\.?")
"""A street address: a Chinese road and its house number (文昌路18号, 西河街47号: the town before it is where the
subject is, often the subject's own name), an English number and street ("2 Quay Lane", "14 Mill Street")."""
_ASKS_ADDRESS = re.compile(r"地址|门牌|\baddress\b", re.IGNORECASE)
_ADDRESS_LEAD = re.compile(r"^.*(?:位于|地址是|地址为|地址|设在|坐落于|坐落在|搬到|迁至|在|于|是)")


def _addresses(sentence: str) -> list[Span]:
    """The street addresses of a sentence, each without the words that introduce it (位于, 地址是, 在)."""
    out = []
    for m in _ADDRESS.finditer(sentence):
        start = m.start() + (len(lead[0]) if has_han(m[0][:1]) and (lead := _ADDRESS_LEAD.match(m[0])) else 0)
        if sentence[start:m.end()].strip():
            out.append(Span(start, m.end(), sentence[start : m.end()].strip(), "LOCATION"))
    return out
_PLACE_FRAME_ZH = re.compile(r"(?:在|于|位于|地处|坐落|来自|出生|生于|到|往|赴|抵达|前往|落户|设在|迁往|迁至|定居|"
                             r"举办地|举行地|地点|所在地|地址|总部)(?:为|是|：|:|设在|位于|在)?[^，。；、,;：:！？!?的]{0,8}$")
_PLACE_FRAME_EN = re.compile(r"\b(?:in|at|near|from|to|outside|inside|across|throughout|into|towards?)\s+"
                             r"(?:the\s+)?(?:[\w'.-]+\s+){0,3}$", re.IGNORECASE)


def in_place_frame(sentence: str, span: Span) -> bool:
    """Whether a name stands where a sentence says where something is or happens: after 在/于/位于/来自/地点为
    in its clause ("在伦敦威斯敏斯特教堂举行"), after in/at/near/from ("was born in Leeds"); a country that
    acts ("英国将为女王举行…") or an agency in brackets ("（RUSADA）") does not."""
    before = sentence[max(0, span.start - 40) : span.start]
    return bool((_PLACE_FRAME_ZH if has_han(before[-12:] or span.text) else _PLACE_FRAME_EN).search(before)
                or _PLACE_FRAME_EN.search(before) or _PLACE_FRAME_ZH.search(before))


_ADJUNCT_EN = re.compile(r"\b(?:in|at|inside|outside|behind|beside|near|from|on|under|opposite|within)\s+"
                          r"(?P<det>(?:the|a|an|his|her|their|its|our)\s+)?", re.IGNORECASE)
"""A preposition of place and the determiner after it: a place is written with one ("in the back room", "at her
studio") or by its name ("at Pelham General Hospital"); a bare common noun after in/with is the act's manner,
material or subject ("cast bells in loam moulds", "a class in glass design"), no place."""
_ADJUNCT_STOP_EN = re.compile(r"\s*[,.;:!?()\[\]]|\s+(?:at|on|from)\s+(?=\d|\w+day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|"
                              r"oct|nov|dec)[a-z]*\b|noon\b|midnight\b|weekends?\b|weekdays?\b|(?:the\s+)?(?:morning|afternoon|"
                              r"evening|night)s?\b)|\s+(?:every|each|until|till|when|where|which|who|while|during|"
                              r"before|after|since|for|to|with|and|but|as|by|if|because|so|that|than|then)\b|\s+\d",
                              re.IGNORECASE)
_NOT_A_PLACE_EN = re.compile(
    r"(?:\d|(?:morning|evening|afternoon|night|week|weekday|weekend|day|year|month|time|season|behalf|order|"
    r"addition|total|average|case|general|particular|fact|future|past|summer|winter|spring|autumn|least|most|first|"
    r"last|all|charge|turn|return|response|favou?r|need|line|place|use|person|public|part|full|advance|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|"
    r"midnight|dawn|dusk|once|twice)s?\b)", re.IGNORECASE)
_APPOSED_EN = re.compile(r"^[a-z]+\s+of\s+(?=[A-Z])")
"""A kind noun before the name it is ("county of Sedgeshire", "city of Leeds": of without an article): the name is
the place; with an article it is a part of the place ("back room of the Corn Exchange")."""
_ASKED_VERB_ZH = re.compile(r"(?:在|于|去|到)(?:哪里|哪儿|何处|何地|什么地方|哪个地方|哪(?![个些家座所条一]))([\u4e00-\u9fff]{1,4})")
"""The act a Chinese where-question asks the place of: the word after 在哪 (在哪上课 → 上课); not the kind noun of
在哪个镇, which asks a name of that kind."""
_FUNCTION_EN = frozenset({"where", "what", "which", "who", "when", "how", "do", "does", "did", "is", "are", "was", "were",
                          "will", "would", "can", "could", "should", "has", "have", "had", "the", "a", "an", "of", "in",
                          "at", "on", "to", "for", "her", "his", "their", "its", "usually", "each", "every", "be", "been"})


def _asked_words_en(question: str) -> list[str]:
    """The lower-case words of a where-question that say what happens there (its verb and object), not its
    function words nor the capitalised names of its subject."""
    return [stem(w.casefold()) for w in re.findall(r"[A-Za-z][\w'-]*", question)
            if w[0].islower() and w.casefold() not in _FUNCTION_EN and len(w) >= 3]


def _asks_where(question: str) -> bool:
    """Whether the question word itself asks where ("Where do …", 在哪上课), not a relative "where" after a noun of a
    question that asks something else ("Which river runs past the town where the foundry …")."""
    at = question_word(question)
    return at is not None and _WHERE.search(question[max(0, at[0] - 1) : at[1] + 3]) is not None  # 在哪: 在 before 哪


def place_adjuncts(sentence: str, question: str) -> list[Span]:
    """The places a sentence gives for the act a where-question asks of: the phrase after the preposition that
    follows the act's words in their clause ("teaches the course … in the demonstration orchard behind the
    school" → "demonstration orchard behind the school"), and in Chinese what 在/于 frames before the asked verb
    (每周三下午在镇文化站二楼排练 → 镇文化站二楼 for 在哪排练). A time after a preposition ("on Saturday mornings",
    "at 5 pm") is no place; a phrase ends at a clause's end or the next time, reason or purpose."""
    if has_han(question):
        m = _ASKED_VERB_ZH.search(question)
        if m is None or not has_han(sentence):
            return []
        # the word written right after 在哪 is the asked act (jieba tags 任教 alone a noun: read in the question)
        words = tagged_words(question)
        verb = next((w for (w, _), at in zip(words, _offsets(words), strict=True) if at == m.start(1)), "")
        if not verb or not has_han(verb):
            return []
        out = []
        for v in re.finditer(re.escape(verb), sentence):
            frame = re.search(r"(?:在|于)([^，。；、,;：:！？!?在于]{2,20})$", sentence[: v.start()])
            if frame is None:
                continue
            # what 在 frames is a place, no clause of its own: no verb inside it (在会上宣布 … 后排练 is no place)
            if any((f or "").startswith("v") for _, f in tagged_words(frame[1])) or _WHEN_WORD.search(frame[1][:2]):
                continue
            # nor a time (于当地时间19日举行): the place is what is written after the time, if anything
            start = max([frame.start(1), *(frame.start(1) + d.end for d in _dates(frame[1]))])
            place = sentence[start : frame.end(1)].strip()
            if len(place) >= 2 and not _WHEN_WORD.search(place):
                out.append(Span(start, start + len(place), place, "LOCATION"))
        return out
    asked = _asked_words_en(question)
    if not asked or has_han(sentence):
        return []
    out = []
    for w in re.finditer(r"[A-Za-z][\w'-]*", sentence):
        if not any(w[0].casefold().startswith(a) for a in asked):
            continue
        # the act's preposition within its clause, a few words on
        rest = sentence[w.end() : w.end() + 120]
        clause = re.split(r"[.;:!?]", rest, maxsplit=1)[0]
        for p in _ADJUNCT_EN.finditer(clause):
            if len(clause[: p.start()].split()) > 8:
                break
            start = w.end() + p.end()
            body = sentence[start:]
            stop = _ADJUNCT_STOP_EN.search(body)
            text = body[: stop.start() if stop else len(body)].strip()
            if not text or _NOT_A_PLACE_EN.match(text) or len(text.split()) > 10 or not (p["det"] or text[0].isupper()):
                continue
            if (apposed := _APPOSED_EN.match(text)) is not None:
                start, text = start + apposed.end(), text[apposed.end() :]
            out.append(Span(start, start + len(text), text, "LOCATION"))
            break
    kept: list[Span] = []
    for x in sorted(out, key=lambda x: x.start):
        if not any(x.start < k.end and k.start < x.end for k in kept):
            kept.append(x)
    return kept


_WHICH_NOUN = re.compile(r"\b(?:which|what)\s+([a-z]+)(?:\s+([a-z]+))?", re.IGNORECASE)


def _asked_noun(question: str) -> tuple[str, ...] | None:
    """The Chinese endings of the kind noun a "which <noun>" question asks for, when the one inventory
    (``scripts.KIND_SUFFIXES``) knows it ("Which river …" → 河, 江), else None."""
    m = _WHICH_NOUN.search(question)
    if m is None:
        return None
    words = [w.casefold() for w in m.groups() if w]
    for n in (2, 1):
        if len(words) >= n and (head := " ".join(words[:n])) in KIND_SUFFIXES:
            return KIND_SUFFIXES[head][0]
    return None


def _of_asked_noun(asked: tuple[str, ...], span: Span) -> bool:
    """Whether a name answers "which <noun>": a name with no kind word may, one whose kind word translates as the
    asked noun does (Infirmary for hospital: both 医院; Ltd for company: 有限公司 ends in 公司), one of another kind
    does not (Guildhall Square for "which river")."""
    own = _kind_word(span.text)
    return own is None or _same_kind(asked, own[0])


def _same_kind(asked: tuple[str, ...], own: tuple[str, ...]) -> bool:
    return any(a.endswith(b) or b.endswith(a) for a in asked for b in own)


def of_asked_kind(question: str, kind: AnswerType, sentence: str, spans: list[Span]) -> list[Span]:
    """Candidates that answer what is asked, not only of its type: a quantity in the unit the question counts
    ("多少人" → 132人, never 3月); for a "where" question, a place where the sentence says where (in/at/在/位于),
    never a country or agency that only acts in it (for an address, a street and its number); for the day of an event, a calendar date, never a weekday
    or a time of day."""
    if kind in ("place", "organization", "list", "other") and (asked := _asked_noun(question)) is not None:
        spans = [s for s in spans if _of_asked_noun(asked, s)]
        # a name of the very kind asked ("the River Lisk" for "which river") answers wherever the sentence puts it
        if named := [s for s in spans if (own := _kind_word(s.text)) is not None and _same_kind(asked, own[0])]:
            return named
    if kind == "number" and asked_unit(question) == "count":
        # a count of things is a number with its measure word: no unit of time, length, money or people
        return [s for s in spans if unit_group(s.text) is None and (
            not has_han(sentence) or not re.fullmatch(r"[\d,，.]+", s.text))]
    if kind == "number" and (want := asked_unit(question)) is not None:
        # a bare number in a Chinese sentence ("2點20分" → 2) counts nothing: Chinese writes a count with its unit;
        # an English one may stand alone ("214 aboard"), not with a unit of another kind ("9 May", "12 km")
        return [s for s in spans if unit_group(s.text) == want or (unit_group(s.text) is None and (
            not _unit_tail(s.text) if not has_han(sentence) else bool(re.search(r"[万亿千百]$", s.text))))]
    if kind == "place" and _ASKS_ADDRESS.search(question):
        # an address asked (地址, "the address of"): a street and its number, not the town it is in
        return [s for s in spans if any(a.text == s.text for a in _addresses(sentence))]
    if kind == "place" and _WHERE.search(question):
        return [s for s in spans if in_place_frame(sentence, s) or any(a.text == s.text for a in _addresses(sentence))]
    if kind == "date" and (kept := [s for s in spans if asked_elsewhere(question, sentence, s.start, s.end) is not False]):
        # a date whose clause states another relation than the asked one (成立于二〇〇八年 for 哪一年当选, "founded in
        # 1994" for "when did she join") answers only where no other date of the sentence may
        spans = kept
    if kind == "date" and asks_time_of_day(question):
        return [s for s in spans if clock_time(s.text)]  # 凌晨2时50分 for 几点塌方, never 6月8日 alone
    if kind == "date" and asks_event_day(question):
        # the day of an event (哪天, "what date") is a day of the calendar: 周二 of 每周二至周日开放 is a schedule
        return [s for s in spans if calendar_day(s.text)]
    if kind == "date" and asks_when(question) and (
            dated := [s for s in spans if calendar_day(s.text) or names_year(s.text)]):
        # when an event happened ("When did the fire start?", 什么时候发生的): the day or year of the calendar the
        # sentence gives, over its weekday or its time of day ("Tuesday", "22:40") where it gives both
        return dated
    if kind == "date" and asks_year(question):
        # the year of something (哪一年成立, "in what year") is not answered by a day or a month alone: 5日 of
        # 每月5日前缴纳 is a due day, 3月 a month of some year the sentence does not say
        return [s for s in spans if names_year(s.text) or names_year(sentence[max(0, s.start - 3) : s.start])]
    return spans


_NOMINAL_FLAG = ("n", "j", "eng")
_QUOTE_MARKS = "“”\"「」『』《》"
_PRONOUNS_ZH = frozenset({"他", "她", "它", "他们", "她们", "它们", "其", "对方", "自己", "大家", "人们"})


def _offsets(words: list[tuple[str, str | None]]) -> list[int]:
    out, at = [], 0
    for word, _ in words:
        out.append(at)
        at += len(word)
    return out


def _nominal(word: str, flag: str | None) -> bool:
    return (flag or "").startswith(_NOMINAL_FLAG) or (bool(word) and all(ch in _QUOTE_MARKS for ch in word))


def framed(sentence: str, question: str) -> list[Span]:
    """The noun phrase a Chinese sentence writes where a who-question writes 谁, framed by the question's own
    verb: the one acted on after the verb before 谁 (派谁给队长送信 → 派遣圣甲虫去给队长送信), the doer before the verb
    after it, with the word after that (谁把信号带回 → 机器狗阿福把信号带回). It names whoever the sentence makes the actor — an animal, a
    robot, a ship, a codename — which no tagger reads as a person. None for 是谁 / 谁是 (a role the governors
    judge) and for English, whose names are capitalised."""
    at = question.find("谁")
    if at < 0 or not has_han(sentence) or question[at + 1 : at + 2] == "是" or question[max(0, at - 1) : at] in ("是", "为"):
        return []
    asked = tagged_words(question)
    starts = _offsets(asked)
    i = next((k for k, s in enumerate(starts) if s == at), None)
    if i is None:
        return []
    before = asked[i - 1] if i > 0 and (asked[i - 1][1] or "").startswith("v") else None
    follow = [(w, f) for w, f in asked[i + 1 : i + 4] if w != "了"]
    after = follow[0] if follow else None
    words = tagged_words(sentence)
    offsets = _offsets(words)
    for k, (word, flag) in enumerate(words):
        if before is not None and (flag or "").startswith("v") and word.startswith(before[0]):
            run = list(itertools.takewhile(lambda j: _nominal(*words[j]), range(k + 1, len(words))))
            if run and (after is None or any(w == after[0] for w, _ in words[run[-1] + 1 : run[-1] + 4])):
                return _filler(sentence, words, offsets, run)
        elif before is None and after is not None and (after[1] or "")[:1] in ("v", "p") and word == after[0] and k \
                and (len(follow) < 2 or any(w == follow[1][0] for w, _ in words[k + 1 : k + 3])):
            run = list(itertools.takewhile(lambda j: _nominal(*words[j]), range(k - 1, -1, -1)))[::-1]
            if run:
                return _filler(sentence, words, offsets, run)
    return []


def _filler(sentence: str, words: list[tuple[str, str | None]], offsets: list[int], run: list[int]) -> list[Span]:
    a, b = offsets[run[0]], offsets[run[-1]] + len(words[run[-1]][0])
    text = sentence[a:b].strip(_QUOTE_MARKS)
    if len(text) < 2 or text in _PRONOUNS_ZH:
        return []
    a = sentence.index(text, a)
    return [Span(a, a + len(text), text, "ACTOR")]
