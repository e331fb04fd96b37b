"""The words that govern a value in its sentence: which attribute a number or date is the value *of*, which
named subject it belongs to, and which period it is for.

A sentence about the asked subject often holds a value of the asked type that belongs to something else: a
carmaker's profit growth given next to its sales, another brand's sales, an injury count beside a death toll,
last year's figure beside this year's. The value's governors are read from a small set of value-introducing
constructions in Chinese and English, not from a parser:

- an attribute written right after the value (``N人死亡``, ``N people were killed``, ``N名乘客受伤``) governs it;
- otherwise the nearest attribute word before it in the sentence (``X的销量为N``, ``X销量同比增长N%``,
  ``sales of X rose N%``, ``净利润…，达N亿元，同比增长M%``: both N and M are the net profit's); words of change
  (增长, 同比, rose, grew) are transparent, they say how the attribute moved, not which attribute it is;
- the subject: the nearest name before the value (``宝马…销量为N，奔驰为M``: M is 奔驰's);
- the period: the nearest year or relative period before the value (``2021年…N，2022年…M``; ``去年同期为N``).

The caller says which words count as attribute words (the relation lexicon's and the question's own) beside the
measure nouns listed here, and which names the sentence holds."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphs.text.normalize import has_han
from graphs.text.terms import stem

MEASURES_ZH = (
    "销量", "销售量", "销售额", "交付量", "产量", "出货量", "保有量", "装机量", "利润", "净利润", "毛利", "营收",
    "营业收入", "收入", "票房", "人口", "市值", "估值", "股价", "价格", "售价", "死亡", "遇难", "丧生", "罹难",
    "受伤", "伤者", "失踪", "确诊", "感染", "出口", "进口", "投资", "总额", "规模", "份额", "占比", "涨幅", "降幅",
    "得分", "奖金", "票数", "得票", "席位", "议席", "人数", "面积", "高度", "长度", "时速", "气温", "降雨量",
    "用户", "观众", "访问量", "播放量", "下载量", "订单", "成交额", "成交量", "市场份额", "增速", "增长率", "亏损",
    "负债", "存款", "贷款", "税收", "支出", "预算", "罚款", "融资", "客流", "客流量", "吞吐量", "新增", "库存",
    "注册", "登记", "参赛", "报名", "员工", "工资", "薪酬", "年薪", "身价", "转会费", "奖牌", "金牌", "银牌", "铜牌",
)
"""Chinese nouns (and verbs of counted events: 死亡, 受伤) that a number is the value of."""

MEASURES_EN = (
    "sales", "deliveries", "shipments", "output", "production", "revenue", "revenues", "turnover", "profit",
    "profits", "net income", "earnings", "loss", "losses", "population", "price", "prices", "market share",
    "share", "market value", "valuation", "box office", "killed", "dead", "deaths", "died", "death toll",
    "fatalities", "injured", "wounded", "injuries", "missing", "infected", "cases", "exports", "imports",
    "investment", "budget", "fine", "funding", "votes", "seats", "users", "viewers", "visitors", "passengers",
    "employees", "staff", "workers", "salary", "wages", "debt", "prize money", "medals", "gold medals",
    "orders", "subscribers", "downloads", "attendance", "growth rate", "inflation", "unemployment",
)
"""English nouns and participles that a number is the value of."""

CHANGE_ZH = ("同比增长", "环比增长", "同比下降", "环比下降", "同比增加", "同比减少", "同比", "环比", "增长", "增加",
             "下降", "减少", "上涨", "下跌", "上升", "提升", "回落", "增至", "降至", "增幅", "突破", "达到", "超过")
CHANGE_EN = ("rose", "grew", "fell", "increased", "decreased", "declined", "dropped", "climbed", "jumped", "up",
             "down", "growth", "rise", "fall", "increase", "decrease", "year on year", "year-on-year")
"""Words of change: transparent between an attribute and its value (they are never the governor)."""

_CLAUSE_END = re.compile(r"[。！？!?；;]|(?<![\d])\.(?=\s|$)")
_AFTER_ZH = re.compile(r"^\s*(?:多|余|以上|左右)?(?:人|名|位|例|辆|台|起|户|架|艘)?")
_AFTER_EN = re.compile(r"^\s*(?:(?:people|persons|residents|workers|passengers|civilians|soldiers|others|more|"
                       r"children|employees)\s+)?(?:(?:were|was|have been|had been|are|is|got|being)\s+)?",
                       re.IGNORECASE)
_PERIOD = re.compile(
    r"(?<!\d)(?:1[5-9]\d{2}|20\d{2})\s*(?:年度?|财年)?|(?:今年|去年|前年|上年|本年|明年|上一年|次年)(?:同期)?|同期|"
    r"\b(?:in|for|during|of)\s+(?:fiscal\s+)?(?:1[5-9]\d{2}|20\d{2})\b|\b(?:1[5-9]\d{2}|20\d{2})\b|"
    r"\b(?:last|this|next|previous|the previous|a)\s+year(?:\s+earlier)?\b|\ba year (?:earlier|before|ago)\b",
    re.IGNORECASE)
_SUB_PERIOD = re.compile(
    r"(?:第?[一二三四1-4]|前[二两三])季度|[上下]半年|(?:前|头)[0-9一二三四五六七八九十]{1,2}个?月|"
    r"[0-9一二三四五六七八九十]{1,2}\s*(?:-|—|至|到)\s*[0-9一二三四五六七八九十]{1,2}\s*月(?:份)?(?!\d*日)|"
    r"\b(?:Q[1-4]|H[12]|(?:first|second|third|fourth) quarter|first half|second half|first \w+ months)\b",
    re.IGNORECASE)
"""A part of a year (一季度, 上半年, 1-10月, Q3, the first half): a value for it is not the whole year's."""
_SHARE = re.compile(r"占[^，,。；;]{0,30}?(?:的|比重|比例)?\s*(?:约|近|逾|超过)?$|"
                    r"\b(?:accounted for|accounting for|made up|share of|percent of)\b[^,.;]{0,30}$", re.IGNORECASE)
"""The value is a share of the attribute before it (占全球销量的34%; "accounted for 34% of sales"), not its
amount."""
_FUNCTION = re.compile(r"股份有限公司|有限公司|公司|集团|全年|年度|全[国省市县区镇乡村球网]|紧急|陆续|先后|分别|持续|逐步|及时|正式|"
                       r"共计|合计|累计|整体|整个|预计|预期|预测|首次|实现|完成|同比|环比|其中|此外|另外|[的在了和与及其之等各将已约共总据，,、“”\"'《》()（）:：\s]|"
                       r"(?<![a-z])(?:the|of|in|its|their|a|an|and|total|overall|annual|full-year|expected|"
                       r"estimated|reported)(?![a-z])", re.IGNORECASE)
"""Words that do not narrow an attribute (function words, 全年, 预计, "total"; a scope, 全县 of the subject's own
county, and words of manner, 紧急, 陆续: 全县紧急转移安置群众 is the 群众 转移安置 asked of the county)."""
_COMMA = re.compile(r"[，,、:：]")
_BASE = re.compile(r"(?:比|较|相比|相较|与|和|跟|同)\s*$|\b(?:than|from|over|compared with|compared to|versus|vs\.?|"
                   r"against)\s*$", re.IGNORECASE)
"""Before a period that is the base of a comparison (比上年增长9.6%, "up 4% from 2022"): not the value's period."""
_OWN_VALUE = re.compile(r"\s*(?:的|之|'s|’s|[（(])?\s*(?:约|近|逾|仅|共|总计|合计)?\s*", re.IGNORECASE)
"""Between a comparison's base period and a value written right after it: the value is the base's own (比2024年的
1,210小时, 较上年（980万元）, "from 2024's 1,210 hours"), not the compared period's."""
_CLAUSE_TAIL = re.compile(r"[^，,；;。]{0,30}")
_RELATIVE = re.compile(r"去年|前年|上年|上一年|同期|last year|previous year|year (?:earlier|before|ago)",
                       re.IGNORECASE)
_YEAR_IN = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")


@dataclass(frozen=True)
class Governors:
    """What governs the value at ``sentence[start:end]``: the attribute word (as written), the subject name (as
    given by the caller), the period (as written); None where the sentence says none."""

    attribute: str | None
    subject: str | None
    period: str | None
    part: str | None = None
    """A part of a year the value is for (一季度, 上半年, Q3), when the sentence gives one."""
    modifier: str = ""
    """The words that narrow the attribute between the subject (or the clause start) and the attribute word
    (新能源汽车 of 新能源汽车销量; 在中国市场的 of 在中国市场的销量), function words left out."""


def words_at(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """Every occurrence of the words in ``text`` (casefolded, English words at word boundaries), a longer word
    winning over one it contains at the same place (净利润 over 利润)."""
    found: list[tuple[int, int]] = []
    folded = text.casefold()
    for w in {w.casefold() for w in words if w and w.strip()}:
        pattern = re.escape(w) if has_han(w) else rf"(?<![a-z]){re.escape(w)}(?![a-z])"
        found += [(m.start(), m.end()) for m in re.finditer(pattern, folded)]
    found.sort(key=lambda ab: (ab[0], -(ab[1] - ab[0])))
    kept: list[tuple[int, int]] = []
    for a, b in found:
        if not any(x <= a and b <= y for x, y in kept):
            kept.append((a, b))
    return kept


def _sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    begin = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    stop = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    return begin, stop


def governors(sentence: str, start: int, end: int, attributes: Iterable[str] = (),
              names: Iterable[str] = ()) -> Governors:
    """The governors of the value at ``sentence[start:end]`` (see the module's doc). ``attributes``: attribute
    words beside ``MEASURES_ZH`` / ``MEASURES_EN`` (the lexicon's, the question's own); ``names``: the names the
    sentence holds (any spelling the caller wants returned)."""
    begin, stop = _sentence_bounds(sentence, start, end)
    words = [*MEASURES_ZH, *MEASURES_EN, *attributes]
    change = {w.casefold() for w in (*CHANGE_ZH, *CHANGE_EN)}
    marks = [(a, b) for a, b in words_at(sentence, words) if sentence[a:b].casefold() not in change]
    attribute, at_mark = None, None
    after = sentence[end:stop]
    lead = (_AFTER_ZH if has_han(sentence[start:end]) or has_han(after[:2]) else _AFTER_EN).match(after)
    at = end + (lead.end() if lead else 0)
    # an attribute right after the value (N人死亡, N people were killed) governs it
    following = [(a, b) for a, b in marks if a == at]
    if following:
        at_mark = following[0]
        attribute = sentence[at_mark[0] : at_mark[1]]
    else:
        before = [(a, b) for a, b in marks if begin <= a and b <= start]
        if before:
            at_mark = max(before, key=lambda ab: (ab[1], ab[1] - ab[0]))
            attribute = sentence[at_mark[0] : at_mark[1]]
            if _SHARE.search(sentence[begin:start]):
                attribute = "占比" if has_han(sentence) else "share"  # 占全球销量的34%: a share, not the sales
    spots = [(a, b, n) for n in dict.fromkeys(names) if n
             for a, b in words_at(sentence[begin:start], [n])]
    subject = max(spots, key=lambda s: (s[1], s[1] - s[0]))[2] if spots else None
    periods = [m for m in _PERIOD.finditer(sentence, begin, start) if m[0].strip()
               and not (m.start() < end and start < m.end())
               and (not _BASE.search(sentence[begin : m.start()]) or _OWN_VALUE.fullmatch(sentence, m.end(), start))]
    period = periods[-1][0].strip() if periods else None
    parts = [m for m in _SUB_PERIOD.finditer(sentence, begin, start) if not (m.start() < end and start < m.end())]
    part = parts[-1][0].strip() if parts and (not periods or parts[-1].start() >= periods[-1].start()) else None
    # a period written right after the value, before the clause ends, governs it ("rose 12% in 2023", "6,500 a
    # year earlier", "47亿元（2022年）")
    tail = _CLAUSE_TAIL.match(sentence, end, stop)
    if tail is not None:
        later = next((m for m in _PERIOD.finditer(tail[0]) if not _BASE.search(tail[0][: m.start()])), None)
        if later is not None:
            period, part = later[0].strip(), None
        if (later_part := _SUB_PERIOD.search(tail[0])) is not None:
            part = later_part[0].strip()
    modifier = ""
    if at_mark is not None and at_mark[0] <= start:
        names_before = [b for a, b in words_at(sentence[begin : at_mark[0]], [n for n in names if n])]
        commas = [m.end() for m in _COMMA.finditer(sentence, begin, at_mark[0])]
        left = max(begin + max(names_before, default=0), max(commas, default=begin))
        between = sentence[left : at_mark[0]]
        for m in [*_PERIOD.finditer(between), *_SUB_PERIOD.finditer(between)]:
            between = between.replace(m[0], " ")
        # the words right before the attribute, back to 的, a number or a punctuation mark (新能源汽车 of
        # 长安的新能源汽车销量; nothing of 在中国市场的销量)
        between = re.split(r"[的之\d，,、:：;；\"“”'’（）()]|'s\b", between)[-1]
        modifier = re.sub(r"\s+", " ", _FUNCTION.sub(" ", between)).strip()
        if has_han(modifier):
            modifier = modifier.replace(" ", "")
    return Governors(attribute, subject, period, part, modifier)


_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((name, re.compile(p, re.IGNORECASE)) for name, p in (
    ("Q1-Q3", r"前三季度|前三个季度|1\s*[-—至到]\s*9\s*月|\bfirst (?:three quarters|nine months)\b|\bQ1\s*[-–]\s*Q3\b"),
    ("H1", r"上半年|前两个?季度|1\s*[-—至到]\s*6\s*月|\bfirst half\b|\bH1\b|\bfirst six months\b"),
    ("H2", r"下半年|\bsecond half\b|\bH2\b"),
    ("Q1", r"(?<!前)(?:第一|一)季度|\bfirst quarter\b|\bQ1\b(?!\s*[-–])"),
    ("Q2", r"(?<!前)(?:第二|二)季度|\bsecond quarter\b|\bQ2\b"),
    ("Q3", r"(?<!前)(?:第三|三)季度|\bthird quarter\b|(?<![-–]\s)\bQ3\b"),
    ("Q4", r"(?:第四|四)季度|\bfourth quarter\b|\bQ4\b"),
))
"""Parts of a year by what they cover, in either language (前三季度 is the first three quarters, 一季度 Q1)."""


def part_of(text: str) -> str | None:
    """The part of a year a phrase names, in one spelling for both languages ("Q1-Q3" for 前三季度 and "the first
    three quarters"), or None."""
    return next((name for name, pattern in _PARTS if pattern.search(text)), None)


def same_part(part: str, question: str) -> bool:
    """Whether the question asks for the part of the year ``part`` names, in its own words or the other
    language's (前三季度 for "the first three quarters"; not 第三季度 for 前三季度)."""
    named = part_of(part)
    return named is not None and any(name == named and pattern.search(question) for name, pattern in _PARTS)


def year_of(period: str | None) -> str | None:
    """The year a period names explicitly ("2021年" → "2021"), else None."""
    m = _YEAR_IN.search(period or "")
    return m[1] if m else None


def relative(period: str | None) -> bool:
    """Whether a period is relative to another one (去年, 上年同期, "a year earlier")."""
    return bool(period) and bool(_RELATIVE.search(period or ""))


def same_measure(word: str, asked: Sequence[str]) -> bool:
    """Whether a governing attribute word is one of the asked attribute's words: the same word, one inside the
    other (销量 in 全球销量), for Chinese the shorter one's characters in order in the longer (销量 and 销售量, 营收
    and 营业收入; not 受伤 and 伤亡), for English the same stem (deaths, death toll)."""
    w = word.casefold().strip()
    for a in (x.casefold().strip() for x in asked if x and x.strip()):
        if w == a or w in a or a in w:
            return True
        if has_han(w) and has_han(a):
            short, long = sorted((w, a), key=len)
            if len(short) >= 2 and _subsequence(short, long):
                return True
        elif not has_han(w) and not has_han(a) and w[:4] == a[:4] and len(w) >= 4 and len(a) >= 4:
            return True
    return False


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


# --- names and dates: the role or event that governs them -------------------------------------------------------

ROLE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("导演", "执导", "director", "directed", "directs"),
    ("编剧", "剧本", "screenwriter", "screenplay", "scriptwriter", "script"),
    ("制片人", "制片", "出品人", "producer", "produced"),
    ("主演", "出演", "饰演", "男主角", "女主角", "主角", "男主演", "女主演", "演员", "男演员", "女演员", "starring",
     "starred", "stars", "lead actor", "lead actress", "actor", "actress"),
    ("摄影", "摄影师", "摄影指导", "cinematographer", "cinematography", "photographer"),
    ("剪辑", "editor", "editing"),
    ("男配角", "女配角", "配角", "supporting actor", "supporting actress", "supporting role"),
    ("演唱", "演唱者", "歌手", "献唱", "唱", "sang", "sung", "singer", "performed by", "vocals"),
    ("作词", "填词", "lyricist", "lyrics"),
    ("作曲", "谱曲", "composer", "composed"),
    ("主持", "主持人", "主持会议", "chaired", "chair", "chairperson", "presided", "host", "hosted", "moderated"),
    ("记录人", "记录员", "会议记录人", "记录", "minute-taker", "minute taker", "recorded", "recorder", "note-taker",
     "took the minutes", "take the minutes", "takes the minutes", "taking the minutes", "minutes were taken by",
     "minutes taken by"),
    ("审批人", "批准人", "审批", "批准", "签批", "approver", "approved", "approved by", "signed off", "sign off",
     "signs off", "signing off"),
    ("附议", "附议人", "seconded", "seconder"),
    ("提议", "提议人", "提案人", "动议人", "proposed", "proposer", "tabled"),
    ("冠军", "夺冠", "折桂", "问鼎", "得主", "获胜者", "胜者", "单打", "双打", "男单", "女单", "男双", "女双", "混双",
     "champion", "champions", "winner", "won", "title", "singles", "doubles"),
    ("亚军", "runner-up", "runners-up"),
    ("季军", "third place"),
    ("作者", "著", "撰写", "author", "wrote", "written by", "writer"),
    ("主教练", "主帅", "教练", "head coach", "coach", "manager"),
    ("队长", "captain"),
    ("发言人", "spokesperson", "spokesman", "spokeswoman"),
    ("创始人", "创办人", "创办", "创立", "founder", "founded by", "co-founder"),
    ("董事长", "主席", "会长", "理事长", "chairman", "chairwoman", "board chair", "chair", "chairperson"),
    ("首席执行官", "总裁", "CEO", "chief executive"),
    ("首席财务官", "财务总监", "CFO", "chief financial officer", "finance director"),
    ("首席运营官", "COO", "chief operating officer"),
    ("首席技术官", "CTO", "chief technology officer", "chief technical officer"),
    ("总经理", "general manager", "managing director"),
    ("校长", "principal", "president"),
    ("市长", "mayor"),
    ("总统", "president"),
    ("总理", "首相", "prime minister", "premier"),
    ("设计师", "设计", "designer", "designed by", "architect"),
    ("最有价值球员", "MVP", "most valuable player"),
    ("最佳射手", "射手王", "金靴", "top scorer", "golden boot"),
    ("司库", "财务主管", "treasurer"),
    ("秘书长", "书记", "secretary", "secretary-general"),
)
"""Roles and the titles of a competition or an award that a name holds, in both languages, with the verbs that
state them (执导 for 导演, "won" for the champion): a name governed by one of them is that role's."""

TITLE_HEADS_EN = frozenset({
    "officer", "director", "manager", "secretary", "treasurer", "president", "chair", "chairman", "chairwoman",
    "chairperson", "head", "chief", "counsel", "controller", "supervisor", "lead", "leader", "coordinator", "editor",
    "curator", "captain", "coach", "minister", "governor", "mayor", "principal", "dean", "superintendent",
    "administrator", "representative", "warden", "steward", "porter", "chef", "clerk", "engineer", "adviser",
    "advisor", "inspector", "auditor", "trustee", "commissioner", "ambassador", "medic", "instructor", "trainer",
    "organiser", "organizer", "convener", "convenor", "recorder", "deputy", "partner", "accountant", "librarian",
    "caretaker", "keeper", "master", "spokesperson", "spokesman", "spokeswoman", "registrar", "bursar", "marshal"})
TITLE_HEADS_ZH = (
    "官", "总监", "经理", "主任", "主管", "总裁", "部长", "局长", "处长", "科长", "校长", "院长", "馆长", "会长", "社长", "镇长",
    "村长", "组长", "队长", "秘书", "书记", "干事", "教练", "领队", "队医", "校医", "医生", "教官", "工程师", "主席", "理事长",
    "董事长", "董事", "委员", "秘书长", "负责人", "联系人", "发言人", "顾问", "会计", "出纳", "司库", "厂长", "店长", "站长",
    "行长", "所长", "台长", "团长", "主编", "总编", "编辑", "领班", "值班长", "班长")
"""The nouns a title ends with, in either language (chief operating *officer*, 财务*总监*, 首席运营*官*): a phrase
ending with one is a role even where ``ROLE_GROUPS`` does not list it, and is then compared whole (the chief
operating officer is not the chief financial officer)."""


HEADS_OF_EN = frozenset({"captain", "chief", "head", "leader", "president", "chair", "chairman", "chairwoman",
                         "chairperson", "director", "manager", "principal", "superintendent", "convener", "convenor"})
"""English titles of the one who heads a unit (a club, a team, a library), whatever the unit."""
_HEAD_OF_ZH = re.compile(r"(?<!副)(?:[\u4e00-\u9fff]长|主任|主席|负责人|领队)")
"""A Chinese title of the one who heads a unit: its unit's character with 长 (团长, 馆长, 社长, 站长; 副团长 is a deputy's),
主任, 主席, 负责人, 领队."""


def head_across(asked: str, text: str) -> str | None:
    """The title a text in the other language than the asked title writes for the head of its unit, where the
    asked title is a head's and the text's is one ``ROLE_GROUPS`` places in no group: 团长 of a running club's
    rules for "captain", "club leader" is no Chinese text's. The lexicon's groups say which of two titles are one
    role; a head's title it lacks is told by how such titles are made (a unit's character with 长), not word by
    word (e5 does not tell 团长 from 财务 for "captain": see docs/answers.md). A functional title ("treasurer",
    "secretary") is never a head's: 团长 does not state the treasurer."""
    words = re.findall(r"[a-z]+", asked.casefold())
    if has_han(asked) or not words or words[-1] not in HEADS_OF_EN or not has_han(text):
        return None
    listed = {w for w in role_words() if has_han(w)}
    return next((m[0] for m in _HEAD_OF_ZH.finditer(text) if m[0] not in listed and is_title(m[0])), None)


def is_title(phrase: str) -> bool:
    """Whether a phrase ends with a title's head noun (``TITLE_HEADS_EN`` / ``TITLE_HEADS_ZH``): "chief financial
    officer", "duty supervisor", 首席运营官, 财务总监."""
    text = phrase.strip().casefold()
    if has_han(text):
        return text.endswith(TITLE_HEADS_ZH)
    words = re.findall(r"[a-z][a-z'’-]*", text)
    return bool(words) and (words[-1] in TITLE_HEADS_EN or (words[-1].endswith("s") and words[-1][:-1] in TITLE_HEADS_EN))

CONTRASTS: tuple[frozenset[str], ...] = (
    frozenset({"前任", "新任", "现任", "former", "new", "current"}),
    frozenset({"男", "女", "混"}),
    frozenset({"单", "双", "团体"}),
    frozenset({"men's", "women's", "mixed", "boys'", "girls'"}),
    frozenset({"singles", "doubles", "team"}),
    frozenset({"主角", "配角", "lead", "supporting"}),
    frozenset({"actor", "actress"}),
)
"""Words of a role that exclude one another (the men's for the women's title, singles for doubles)."""

_GENERIC_ROLE = re.compile(
    r"最佳|优秀|杰出|年度|本届|该届|首位|首任|新任|现任|新一任|第[0-9一二三四五六七八九十]+届|电视剧|电影|影片|剧集|"
    r"决赛|比赛|赛事|称号|头衔|奖杯|"
    r"\b(?:best|outstanding|the|a|an|new|current|first|award|prize|for|of|in|at|this year's|year's|title|crown|"
    r"trophy|finals?|match|round|event)\b",
    re.IGNORECASE)
"""Words of a role phrase that say nothing of which role it is (最佳, 本届, 电视剧 of 最佳电视剧编剧; "best")."""

EVENT_NOUNS_ZH = (
    "新闻发布会", "发布会", "启动仪式", "签约仪式", "颁奖典礼", "颁奖礼", "开幕式", "闭幕式", "开工仪式", "仪式", "典礼",
    "招待会", "记者会", "听证会", "座谈会", "研讨会", "论坛", "峰会", "年会", "大会", "会议", "例会", "博览会", "展览会",
    "展览", "展会", "晚会", "演唱会", "音乐会", "庆典", "比赛", "决赛", "半决赛", "预赛", "资格赛", "选拔赛", "公开赛",
    "锦标赛", "联赛", "世锦赛", "世界杯", "奥运会", "冬奥会", "运动会", "马拉松", "首映礼", "首映式", "发射", "试飞",
    "首航", "开售", "预售", "选举", "投票", "公投", "签约",
)
EVENT_NOUNS_EN = (
    "press conference", "news conference", "launch event", "launch", "ceremony", "award ceremony", "opening ceremony",
    "closing ceremony", "reception", "briefing", "hearing", "seminar", "symposium", "forum", "summit", "conference",
    "meeting", "convention", "congress", "expo", "exhibition", "fair", "gala", "concert", "festival", "final",
    "semifinal", "semi-final", "quarterfinal", "qualifier", "tournament", "championship", "open", "cup", "marathon",
    "premiere", "election", "vote", "referendum", "signing", "groundbreaking", "test flight", "maiden voyage",
    "sale", "presale", "pre-sale",
)
"""The kinds of event a date or a place is given for (the launch's date, the press conference's venue)."""

_EVENT_VERB_ZH = r"(?:举行|举办|召开|开幕|闭幕|发布|开售|发售|上映|首映|开赛|进行|开启|启动|启幕|落幕|揭晓|开通|亮相)"
_EVENT_VERB_EN = (r"(?:held|hosted|staged|opened|closed|launched|released|premiered|unveiled|convened|took place|"
                  r"began|started|ended|kicked off)")

_NAME_BEFORE_ZH = re.compile(r"([\u4e00-\u9fffA-Za-z0-9·]{1,14}?)\s*(?:[：:]|为|是|由)?\s*$")
_NAME_AFTER_ZH = re.compile(
    r"^\s*(?:[（(][^）)]{0,12}[）)])?\s*(?:将|已|正式)?\s*(?:获得|获|荣获|夺得|摘得|斩获|当选|出任|担任|调任|升任|接任|继任|"
    r"就任|改任|任|成为|问鼎|加冕|捧得|赢得)了?"
    r"\s*([^，,。；;！？!?、\s《]{1,14})")
_VERB_AFTER_ZH = re.compile(
    r"^\s*(?:[（(][^）)]{0,12}[）)])?\s*(?:将|曾|亲自|联合|共同|领衔|联袂)?\s*(执导|主演|出演|主持|编剧|演唱|献唱|作词|作曲|监制|设计|创办|创立|附议|提议)")
_DUTY_AFTER_ZH = re.compile(r"^\s*(?:将|亲自|主要|具体)?\s*(负责[^，,。；;！？!?、\s]{1,10})")
_HELD_AFTER_ZH = re.compile(r"^\s*(?:担任|出任|兼任|接任)")
_HELD_BY_ZH = re.compile(r"([\u4e00-\u9fff]{2,8}?)(?:一职|职务)?由[\u4e00-\u9fff]{0,6}$")
_NAME_BEFORE_EN = re.compile(r"((?:[A-Za-z'’-]+\s){0,3}[A-Za-z'’-]+)\s*(?::|\bis\b|\bwas\b|\bwent to\b)?\s*$",
                             re.IGNORECASE)
_NAME_AFTER_EN = re.compile(
    r"^\s*(?:,\s*)?(?:won|took|claimed|clinched|captured|secured|was named|was elected|was appointed|became|is|was|"
    r"has been|had been|is now|remains|will be|was made|was promoted to|served as|,\s*(?:the|a)|,(?=\s*[a-z]))\s*"
    r"(?:the\s+|a\s+|as\s+(?:the\s+)?)?((?:[A-Za-z'’-]+\s?){1,4}?)"
    r"(?=\s*(?:[,.;:]|\bwith\b|\bat\b|\bin\b|\bfor\b|\bon\b|\bafter\b|\bbefore\b|\bby\b|\band\b|\bof\b|"
    r"\bsince\b|$))")
_BY_EN = re.compile(r"\b((?:chaired|directed|written|produced|composed|designed|founded|hosted|presided over|sung|"
                    r"performed|moderated|coached|captained|led|seconded|proposed|recorded|tabled))\s+by\s*$", re.IGNORECASE)
_BY_ANY_EN = re.compile(r"\b((?:[a-z]+(?:ed|en)|took|led|held|kept|made|run|set|taught|paid)(?:\s+(?:off|up|out|over))?)"
                        r"\s+by\s*$")
"""The act of a passive whose agent is the name after it ("handled by X", "signed off by X")."""
_ACT_AFTER_EN = re.compile(r"^\s*(?:(?:has|had|have|will|also|then|later)\s+)?((?!(?:is|was|are|were|be|been|being|"
                           r"and|or|of|in|at|on|for|to|with|from|by|said|says|told)\b)[a-z]+(?:\s+(?:off|up|out|over))?"
                           r"(?:\s+(?:the|a|an))?(?:\s+[a-z]+){0,2})")
"""The act a name does, right after it ("X took the minutes", "X chaired the meeting")."""
SUBJECT_LEAD = 5
"""Characters a clause may hold before a name that is its subject (在决赛中, "On Sunday")."""
_ACTS_ON = re.compile(r"战胜|击败|负于|输给|淘汰|力克|逆转|不敌|对阵|挑战|与|和|同|跟|对")
"""Words before a name that make it another's opponent or partner, not the subject going on to a later clause."""
_LATER_CLAUSE_ZH = re.compile(
    r"^[^。；;！？!?]{0,40}?[，,]\s*(?:并|随后|最终|最后|成功|再次|从而|首次|一举)?\s*(?:获得|荣获|夺得|摘得|斩获|当选|问鼎|加冕|"
    r"捧得|赢得|成为)了?\s*([^，,。；;！？!?、\s《]{1,14})")
_LATER_CLAUSE_EN = re.compile(
    r"^[^.;]{0,80}?(?:,\s*|\s)and\s+(?:then\s+|later\s+|went on to\s+|so\s+)?(?:won|took|claimed|clinched|captured|"
    r"secured|became|win|take|claim)\s+(?:the\s+|a\s+)?((?:[A-Za-z'’-]+\s?){1,4}?)"
    r"(?=\s*(?:[,.;:]|\bwith\b|\bat\b|\bin\b|\bfor\b|\bon\b|\bafter\b|\bbefore\b|\bby\b|\band\b|$))",
    re.IGNORECASE)
FOR_WORK_EN = re.compile(r"^\s*for\s+(?:her|his|their)?\s*(?:role|performance|turn|work)?\s*(?:in|as\s+[^,.;]{1,30}?\s+in)?\s*"
                          r"[\"“]?((?:(?:[A-Z][\w'’-]*|of|the|and|a|in|on)\s?){1,6})", re.UNICODE)
"""The work a role is given for, after it: "Best Actress for The Long River", "… for her role in Harbour Lights"."""
TITLE_BEFORE = re.compile(r"《([^》]{1,30})》[^《》，,。；;！？!?\[\]【】]{0,20}$")
"""The last title in 《》 before a role word in its entry (no other title, no clause or bracket between): the work
that role is of (歌曲《X》 演唱：Y, 《X》 演唱：Y 评弹演唱：Z)."""
_TITLE_AFTER = re.compile(r"^\s*(?:主演的|执导的|的)?\s*《([^》]{1,30})》")


@dataclass(frozen=True)
class NameRole:
    """What governs a name: the role phrases written next to it (最佳女主角 of ``最佳女主角：X``, 男双冠军 of
    ``X夺得男双冠军``, "men's doubles title" of "X won the men's doubles title"), and the work it is given for
    (《远山》 of ``最佳编剧：X《远山》``)."""

    roles: tuple[str, ...]
    work: str | None = None


def role_words() -> list[str]:
    """Every role word of ``ROLE_GROUPS``."""
    return [w for group in ROLE_GROUPS for w in group]


def role_heads(phrase: str, extra: Sequence[str] = ()) -> list[str]:
    """The role words a phrase holds (编剧 of 最佳电视剧编剧, "champion" of "Olympic champion"); ``extra``: more
    role words (the question's own role noun the lexicon lacks, ``asked_role``)."""
    text = phrase.replace("副", "")  # a deputy's rank is another rule's (calibration.ranked_other)
    return [text[a:b] for a, b in words_at(text, [*role_words(), *extra])]


def _ends_with_role(phrase: str, extra: Sequence[str] = ()) -> bool:
    """Whether a phrase ends with a role word (最佳导演 before ``：X``, "treasurer" before "Owen Pryce"): the
    role written right before a name is its (主演动漫 before "IP" is not)."""
    text = re.sub(r"(?:[：:]|为|是|由|\s|\bis|\bwas|\bwent to)+$", "", phrase.casefold())
    return any(b == len(text) for _, b in words_at(text, [*role_words(), *(w.casefold() for w in extra)])) \
        or is_title(text)


_ASKED_ROLE_ZH = (
    re.compile(r"的((?:(?!的)[\u4e00-\u9fff]){2,6}?)(?:是|为|叫)(?:谁|哪位|什么名字)"),
    re.compile(r"谁(?:是|担任|出任)(?:[^，,。？?]*的)?([\u4e00-\u9fff]{2,6}?)\s*[？?]?\s*$"),
)
_TITLE_WORDS = r"((?:[a-z][a-z-]*\s+){0,3}?[a-z][a-z-]+)"
_ASKED_ROLE_EN = (
    re.compile(r"\bwho\s+(?:is|was|are|were|will be|has been|served as)\s+(?:the\s+|its\s+|their\s+|his\s+|her\s+)?"
               rf"(?:new\s+|current\s+|former\s+|acting\s+)?{_TITLE_WORDS}\s+(?:of|for|at|in|on)\b", re.IGNORECASE),
    re.compile(rf"\bwho\s+(?:is|was)\s+[^?]*?'s\s+(?:new\s+|current\s+)?{_TITLE_WORDS}\s*\??\s*$", re.IGNORECASE),
    re.compile(rf"^\s*who\s+(?:is|was)\s+(?:the|its|their)\s+(?:new\s+|current\s+|former\s+|acting\s+)?{_TITLE_WORDS}"
               r"\s*\??\s*$", re.IGNORECASE),
    # "What's the name of the reserve manager at X?": a role's holder asked by the name
    _NAME_OF_ROLE := re.compile(r"^\s*what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the\s+)?names?\s+of\s+(?:the|its|their)\s+"
               rf"(?:new\s+|current\s+|former\s+|acting\s+)?{_TITLE_WORDS}\s*(?:\b(?:of|for|at|in|on)\b|\??\s*$)",
               re.IGNORECASE),
)
_NOT_ROLE = frozenset({"person", "man", "woman", "one", "people", "first", "last", "name", "人", "那个人", "这个人"})


@functools.lru_cache(maxsize=256)
def asked_title(question: str) -> str | None:
    """The role phrase a who-question asks, whole and as written, whether or not the lexicon lists it: after "who
    is the … of" / "who is X's …" / "who is the …?", before 是谁 after 的, or after 谁是 ("chief operating officer"
    of "Who is the chief operating officer of X?", 首席运营官 of X的首席运营官是谁, 记录人 of 会议的记录人是谁)."""
    for pattern in (*_ASKED_ROLE_ZH, *_ASKED_ROLE_EN):
        if (m := pattern.search(question)) is not None:
            noun = re.sub(r"^(?:现任|新任|前任|本届|该|其)", "", m[1]).strip()
            if pattern is _NAME_OF_ROLE and not (role_heads(noun.casefold()) or is_title(noun)):
                continue  # "the name of the river": a thing's name, no role's holder
            if len(noun) >= 2 and noun.casefold() not in _NOT_ROLE:
                return noun
    return None


@functools.lru_cache(maxsize=256)
def asked_role(question: str) -> str | None:
    """The role a who-question asks when the lexicon (``ROLE_GROUPS``) does not hold it: its ``asked_title``
    (记录人 of 会议的记录人是谁, "curator" of "Who is the curator of the museum?", "chief operating officer": a title
    the lexicon knows only in part is compared whole); None when the asked phrase is a lexicon role (compared by
    its group), or when the question writes a lexicon role elsewhere and the phrase is no title."""
    noun = asked_title(question)
    if noun is None or role_heads(noun.casefold()):
        return None
    if role_heads(question.casefold()) and not is_title(noun):
        return None  # 主演《X》的演员的妻子: the lexicon's role words decide, 妻子 is no title
    return noun


_ACT_EN = re.compile(
    r"^\s*[Ww]ho\s+(?:(?:is|are|was|were|will|would|should|shall|must|can|could|does|did|has|have|had)\s+"
    r"(?:be\s+|been\s+|now\s+|currently\s+)?)?([a-z]+)\b(?!')")
_ACT_ZH = re.compile(r"由谁(?:来|亲自)?((?:负责)?[\u4e00-\u9fff]{0,8}?)\s*[？?。]?\s*$|"
                     r"谁(?:来)?(负责[\u4e00-\u9fff]{0,8}?)\s*[？?。]?\s*$")
_NOT_ACT = frozenset({"the", "a", "an", "its", "their", "his", "her", "is", "was", "are", "were", "be", "been", "this",
                      "that", "these", "those", "one", "not", "also", "still", "never", "ever"})
IRREGULAR_EN = {"took": "take", "taken": "take", "led": "lead", "wrote": "write", "written": "write", "ran": "run",
                "held": "hold", "kept": "keep", "made": "make", "gave": "give", "given": "give", "sent": "send",
                "paid": "pay", "brought": "bring", "taught": "teach", "bought": "buy", "chose": "choose",
                "chosen": "choose", "drew": "draw", "drawn": "draw", "set": "set", "put": "put", "oversaw": "oversee",
                "overseen": "oversee", "undertook": "undertake", "undertaken": "undertake"}
"""Irregular verb forms by their base (the stemmer does not join "took" and "take")."""


def _verb_stem(word: str) -> str:
    w = word.casefold()
    return stem(IRREGULAR_EN.get(w, w))


@functools.lru_cache(maxsize=256)
def asked_act(question: str) -> str | None:
    """The act a who-question asks the doer of, when it asks by a verb rather than a role noun: the English verb's
    stem ("check" of "Who checks the flags?", "handl" of "Who is handling the refunds?", "take" of "Who took the
    minutes?"), the Chinese verb after 由谁 / 谁负责 (带队 of 由谁带队, 负责记录 of 由谁负责记录, 负责 of 报名由谁负责);
    None for "who is the …" and other questions."""
    if has_han(question):
        m = _ACT_ZH.search(question)
        return (m[1] or m[2] or "负责") if m is not None else None
    m = _ACT_EN.match(question)
    if m is None or m[1].casefold() in _NOT_ACT or not m[1].islower():
        return None
    return _verb_stem(m[1])


def same_act(role: str, act: str) -> bool:
    """Whether a role phrase is the asked act (a form of the same verb: "handled" for "handling")."""
    if has_han(act):
        return act in role or (act.startswith("负责") and len(act) > 2 and act[2:] in role)
    return any(_verb_stem(w) == act for w in re.findall(r"[a-z]+", role.casefold()))


_DETERMINER_EN = frozenset({"the", "a", "an", "our", "their", "its", "each", "every", "your", "his", "her", "one"})
_NOT_AGENT = frozenset({"number", "order", "water", "paper", "letter", "member", "matter", "quarter", "corner",
                        "summer", "winter", "weather", "floor", "door", "colour", "color", "error", "major", "minor",
                        "river", "power", "tower", "border", "centre", "center", "chapter", "register"})
_TEAM_EN = frozenset({"team", "committee", "office", "department", "staff", "crew", "group", "board", "council",
                      "secretariat", "desk", "unit", "service", "services", "panel", "club", "society", "company"})
_TEAM_ZH = ("组", "处", "部", "队", "科", "室", "中心", "委员会", "办公室", "团队", "协会", "俱乐部", "公司", "志愿者", "老师",
            "教官", "工作人员", "物业")


def _agent(phrase: str) -> bool:
    """Whether a noun phrase names a doer: a title, a team or an office, an agent noun (-er, -or, -ist, -man);
    in Chinese a title or a team's word (后勤组, 秘书处, 救援队教官)."""
    text = phrase.strip()
    if has_han(text):
        return is_title(text) or text.endswith(_TEAM_ZH)
    words = text.casefold().split()
    if not words:
        return False
    last = words[-1]
    return is_title(text) or last in _TEAM_EN or (last not in _NOT_AGENT and len(last) > 4 and re.search(
        r"(?:er|or|ist|ian|man|men|person|ant)s?$", last) is not None)


_AUXILIARY_EN = frozenset({"will", "must", "should", "shall", "can", "also", "always", "usually", "then", "normally",
                           "now", "is", "are", "first"})
_AGENT_BY_EN = re.compile(r"^\s*(?:off|up|out|over)?\s*by\s+(?:the|a|an|our|their|its|each|every|your)\s+"
                          r"((?:[a-z][a-z'’-]*\s+){0,3}?[a-z][a-z'’-]*)(?=\s*(?:[,.;:)]|\b(?:at|in|on|during|with|for|"
                          r"from|before|after|every|each|or|and|when|while|if|once|who|until)\b|$))")
_AGENT_BY_ZH = r"由([\u4e00-\u9fff]{2,10}?)(?:来|亲自|统一|负责)?"
_AGENT_OPENS_ZH = r"(?:^|(?<=[，,。；;：:\s]))((?:(?![由的])[\u4e00-\u9fff]){2,8}?)(?:将|会|来|亲自|统一|负责)?"
"""A clause that opens with its doer (后勤组负责采购, 值班经理每天检查)."""
_ZH_CLAUSE = re.compile(r"[，,。；;：:！？!?]")


def actor_phrases(sentence: str, question: str) -> list[tuple[int, int]]:
    """Where a sentence writes the doer of the act a who-question asks (``asked_act``) as a role, a team or an
    office rather than a name: the noun phrase before the verb ("the duty supervisor checks …"), the agent of its
    passive ("… are counted by the shift lead"), 由X负责 / 由X带队 (由后勤组负责, 由俱乐部秘书处负责). A name is
    the tagger's; these are the doers no tagger reads as names."""
    act = asked_act(question)
    if act is None:
        return []
    out: list[tuple[int, int]] = []
    if has_han(act):
        verb = "负责" if act.startswith("负责") else act
        for m in [*re.finditer(_AGENT_BY_ZH + re.escape(verb[:2]), sentence),
                  *re.finditer(_AGENT_OPENS_ZH + re.escape(verb[:2]), sentence)]:
            if _agent(m[1]) and not any(a < m.end(1) and m.start(1) < b for a, b in out):
                out.append((m.start(1), m.end(1)))
        return out
    for w in re.finditer(r"[A-Za-z]+", sentence):
        if _verb_stem(w[0]) != act:
            continue
        if (by := _AGENT_BY_EN.match(sentence[w.end() :])) is not None and _agent(by[1]):
            out.append((w.end() + by.start(1), w.end() + by.end(1)))
            continue
        # the noun phrase right before the verb, back to its determiner ("the duty supervisor checks")
        words = list(re.finditer(r"[A-Za-z'’-]+", sentence[: w.start()]))
        kept: list[re.Match[str]] = []
        edge = w.start()
        for x in reversed(words):
            if sentence[x.end() : edge].strip() or len(kept) > 4:
                break
            edge = x.start()
            if x[0].casefold() in _AUXILIARY_EN and not kept:
                continue
            if x[0].casefold() in _DETERMINER_EN:
                if kept and not any(k[0][0].isupper() for k in kept):
                    phrase = sentence[kept[-1].start() : kept[0].end()]
                    if _agent(phrase):
                        out.append((kept[-1].start(), kept[0].end()))
                break
            kept.append(x)
    return out


def name_role(sentence: str, start: int, end: int, extra: Sequence[str] = ()) -> NameRole:
    """The role phrases that govern the name at ``sentence[start:end]`` in the constructions that give a name its
    role: the role written before it (``最佳编剧：X``, ``最佳编剧为X``, ``导演X``, "director X", "Best Actress: X"),
    the role it takes after it (``X获得最佳女主角``, ``X夺得男单冠军``, "X won the men's singles", "X was named
    coach"), the role verb after it (``X执导``, ``由X主持``) or before it ("chaired by X"); and a title in 《》 right
    after it (the work the role is for). Only phrases that hold a role word count."""
    begin, stop = _sentence_bounds(sentence, start, end)
    clause_begin = max([begin, *(begin + m.end() for m in re.finditer(r"[，,、；;]", sentence[begin:start]))])
    before, after = sentence[clause_begin:start], sentence[end:stop]
    han = has_han(sentence[start:end]) or has_han(before[-3:]) or has_han(after[:3])
    roles: list[str] = []
    english_work: str | None = None
    if han:
        m = _NAME_BEFORE_ZH.search(before)
        if m and _ends_with_role(m[1], extra):
            roles.append(m[1])
        if (m2 := _NAME_AFTER_ZH.match(after)) and role_heads(m2[1], extra):
            roles.append(m2[1])
        elif (m2 := _LATER_CLAUSE_ZH.match(after)) and len(before.strip()) <= SUBJECT_LEAD \
                and not _ACTS_ON.search(before) and role_heads(m2[1], extra):
            roles.append(m2[1])  # X以2比1战胜对手，夺得男子单打冠军: the clause after the comma goes on with X
        if (m3 := _VERB_AFTER_ZH.match(after)) is not None:
            roles.append(m3[1])
        if (duty := _DUTY_AFTER_ZH.match(after)) is not None:
            roles.append(duty[1])  # X负责会议记录: the duty X takes is X's role
        if _HELD_AFTER_ZH.match(after) and (held := _HELD_BY_ZH.search(before)) is not None \
                and _ends_with_role(held[1], extra):
            roles.append(held[1])  # 队医由志愿者X担任: the role before 由 is X's
    else:
        if (b := _BY_EN.search(before) or _BY_ANY_EN.search(before)) is not None:
            roles.append(b[1])
        elif (m := _NAME_BEFORE_EN.search(before)) and _ends_with_role(m[1].casefold(), extra):
            roles.append(re.split(r"\b(?:by|of|from|to|with)\s", m[1])[-1])
        elif not before.strip() and clause_begin > begin:
            # "… was signed off by the treasurer, Gwen Pike": a name in apposition to the role that ends the
            # clause before it takes that role, and the act whose agent that role is
            prior = sentence[begin:clause_begin].rstrip(" ,")
            if (m := _NAME_BEFORE_EN.search(prior)) and _ends_with_role(m[1].casefold(), extra):
                title = re.split(r"\b(?:by|of|from|to|with|the|a|an)\s", m[1])[-1]
                roles.append(title)
                if (b := _BY_ANY_EN.search(prior[: len(prior) - len(title)].rstrip())) is not None \
                        or (b := re.search(r"\b([a-z]+(?:\s+(?:off|up|out|over))?)\s+by\s+(?:the|a|an)$",
                                           prior[: len(prior) - len(title)].rstrip())) is not None:
                    roles.append(b[1])
        m2 = _NAME_AFTER_EN.match(after)
        if m2 is None and not re.search(r"[A-Za-z]", before.split(",")[-1]):
            # "X beat Y 6-3, 6-4 and won the men's singles title": the subject goes on to take the role
            m2 = _LATER_CLAUSE_EN.match(after)
        if m2 and (role_heads(m2[1].casefold(), [w.casefold() for w in extra]) or is_title(m2[1])):
            roles.append(m2[1].strip())
            if (w := FOR_WORK_EN.match(after[m2.end() :])) is not None:
                english_work = w[1].strip()  # "won Best Actress for her role in Harbour Lights"
        if not roles and (act := _ACT_AFTER_EN.match(after)) is not None:
            roles.append(act[1])  # "Rafael Ortiz took the minutes": the act the name does, where no role is said
    work = (t[1] if (t := _TITLE_AFTER.match(after)) else english_work)
    if work is None and han and roles and (m := _NAME_BEFORE_ZH.search(before)) is not None and roles[0] == m[1] \
            and before[m.end(1) :].strip()[:1] in ("：", ":"):
        # a list line's entry "歌曲《念奴娇》 演唱：X": the title before the labelled role is its work (not so in prose:
        # 翻拍过《十二公民》的导演X directed that film too, it says nothing of the asked one)
        work = t[1] if (t := TITLE_BEFORE.search(before[: m.start(1)])) else None
    return NameRole(tuple(dict.fromkeys(r.strip() for r in roles if r.strip())), work)


def _group_of(word: str) -> set[int]:
    w = word.casefold()
    return {i for i, group in enumerate(ROLE_GROUPS) if any(w == g.casefold() for g in group)}


def names_asked_role(question: str, sentence: str) -> bool | None:
    """Whether a sentence writes the role a who-question asks (a word of its ``ROLE_GROUPS`` group in either
    language: "The managing director … Tobias Rennick" for 总经理是谁; the question's own role noun, ``asked_role``,
    as written); None when the question asks no role by a noun."""
    if (noun := asked_role(question)) is not None:
        return noun.casefold() in sentence.casefold()
    asked = {i for w in role_heads(question.casefold()) for i in _group_of(w)}
    if not asked or asked_title(question) is None:
        return None
    return any(_group_of(h) & asked for h in role_heads(sentence.casefold()))


def role_matches(role: str, question: str) -> bool | None:
    """Whether a role phrase that governs a name is the role the question asks: True when its role word (or one
    of the same role: 执导 for 导演, "won" for the champion) is in the question and nothing in it contradicts the
    question (the men's for the women's, doubles for singles, another competition's or award's name); False when
    it names another role; None when the question names no role to compare with."""
    q = question.casefold()
    if (noun := asked_role(question)) is not None:
        # a role the lexicon lacks (记录人, curator, 队医) or knows only in part: the phrase that writes it whole
        # is the asked role's; a phrase with a role word of the lexicon (主持人, director) or another title
        # ("chief financial officer" for the chief operating officer) another role's
        r = role.casefold()
        return True if noun.casefold() in r else (
            False if role_heads(r) or is_title(r) or r.startswith("负责") else None)
    asked = {i for w in role_heads(q) for i in _group_of(w)}
    if not asked:
        # a role asked by a verb the lexicon lacks: the phrase of the same act is the asked one's ("handled by X"
        # for "Who is handling …", 由X带队 for 由谁带队)
        return True if (act := asked_act(question)) is not None and same_act(role, act) else None
    heads = role_heads(role.casefold())
    if not heads:
        # a title the lexicon lacks ("chief strategy officer", 运营总监) is another role than the asked one; a
        # phrase with no role word at all ("written" alone) says nothing to compare
        return False if is_title(role) or role.startswith("负责") else None  # 负责校对: a duty, another role
    if not any(_group_of(h) & asked for h in heads):
        return False
    r = role.casefold()
    if "前" not in q and any(re.search(rf"前{re.escape(h.casefold())}", r) for h in heads) and "former" not in q:
        return False  # 前首席执行官 for the (new) chief executive
    for contrast in CONTRASTS:
        said = {w for w in contrast if w in r} - {w for w in contrast if w in q}
        if said and any(w in q for w in contrast - said):
            return False  # 男双 for 男单, the men's for the women's
    rest = _GENERIC_ROLE.sub(" ", r)
    for h in sorted(heads, key=len, reverse=True):
        rest = rest.replace(h.casefold(), " ")
    for contrast in CONTRASTS:
        for w in contrast:
            rest = rest.replace(w, " ")
    # what else the phrase says of the role: another competition or award (奥运 of 奥运冠军, 全英赛 of 全英赛冠军,
    # "Olympic"); other words before a role (a name, 领衔, 董事会) leave it the asked one
    if has_han(rest):
        for m in _COMPETITION_ZH.finditer(rest):
            if sum(1 for ch in m[0] if has_han(ch) and ch not in q) >= 2:
                return False
    elif any(w not in q for w in _COMPETITION_EN.findall(rest)):
        return False
    return True


_COMPETITION_ZH = re.compile(r"[\u4e00-\u9fff]{0,6}?(?:奥运会?|冬奥会?|亚运会?|全运会?|世锦赛|锦标赛|公开赛|大奖赛|联赛|杯|赛|电影节|电视节|"
                             r"音乐节|艺术节|奖)")
_COMPETITION_EN = re.compile(r"\b(?:olympics?|olympic|[a-z]+ (?:open|cup|games|championships?|awards?|festival|"
                             r"grand prix|league))\b")
"""The name of a competition or an award in a role phrase (奥运 of 奥运冠军, "Olympic", "the Kestrel Open")."""


@dataclass(frozen=True)
class DateEvent:
    """The event a date or a place is given for (发布会 of ``发布会于6月12日在X举行``)."""

    event: str | None
    phrase: str = ""


def event_of(sentence: str, start: int, end: int) -> DateEvent:
    """The event noun that governs the date or place at ``sentence[start:end]``: the subject of the event verb
    of its clause (``X发布会于DATE举行``, ``DATE，X发布会在PLACE举行``, ``X的开幕式将在DATE举行``, "the press
    conference was held on DATE", "the launch on DATE"); None when its clause names no event noun."""
    begin, stop = _sentence_bounds(sentence, start, end)
    cuts = [begin + m.end() for m in re.finditer(r"[，,；;]", sentence[begin:start])]
    clause_begin = max([begin, *cuts])
    nxt = re.search(r"[，,；;]", sentence[end:stop])
    clause_end = end + nxt.start() if nxt else stop
    before, after = sentence[clause_begin:start], sentence[end:clause_end]
    if not before.strip() and nxt is not None and re.match(r"\s*[，,]", sentence[end:stop]):
        # a date opening the sentence ("6月12日，X发布会在…举行"): the event is the next clause's
        tail = re.search(r"[，,；;]", sentence[clause_end + 1 : stop])
        after = sentence[clause_end + 1 : clause_end + 1 + tail.start() if tail else stop]
        before = after
    han = has_han(sentence[start:end]) or has_han(before[-4:]) or has_han(after[:4])
    nouns = EVENT_NOUNS_ZH if han else EVENT_NOUNS_EN
    if han:
        if not re.search(_EVENT_VERB_ZH, after + before):
            return DateEvent(None)
        head = before
        for cut in ("于", "在", "将", "定于", "已"):
            if cut in head:
                head = head[: head.rindex(cut)] if head.rindex(cut) > 0 else head
    else:
        if not re.search(_EVENT_VERB_EN, after + before, re.IGNORECASE) and not re.search(
                r"\b(?:on|at|in)\s*$", before, re.IGNORECASE):
            return DateEvent(None)
        head = before
    marks = words_at(head, nouns)
    if not marks:
        return DateEvent(None)
    a, b = marks[-1]
    return DateEvent(head[a:b], head.strip())


def event_matches(event: str, question: str) -> bool:
    """Whether the event a date or place is given for is the question's: the question writes the event noun
    (or one inside it, 开幕 of 开幕式), or asks of an event of the same noun."""
    e, q = event.casefold(), question.casefold()
    if e in q:
        return True
    if has_han(e):
        return any(e[i : i + 2] in q for i in range(len(e) - 1))  # 发布 of 新闻发布会, 开幕 of 开幕式
    return any(len(w) >= 4 and re.search(rf"\b{re.escape(w[:5])}", q) for w in re.findall(r"[a-z][a-z-]+", e))


def names_event(question: str) -> bool:
    """Whether a question names an event of the kinds a date or a place is given for (公开赛, 发布会, "summit")."""
    return bool(words_at(question, EVENT_NOUNS_ZH if has_han(question) else EVENT_NOUNS_EN))


_CARRIED_ZH = re.compile(r"^\s*(?:[（(][^）)]*[）)])?\s*(?:该公司|该集团|该企业|该行|该品牌|该厂|该校|该市|该县|该国|该队|"
                         r"公司|集团|其|它|它们|他|她|他们|此外，?其|同时，?其|其中，?其)")
_CARRIED_EN = re.compile(r"^\s*(?:(?:meanwhile|also|in addition|however),?\s+)?(?:its|it|the company|the group|"
                         r"the firm|the carmaker|the bank|the brand|they|their|he|she|his|her)\b", re.IGNORECASE)


def carried_over(sentence: str, start: int) -> bool:
    """Whether the clause of the value at ``start`` takes its subject from the sentence before: it opens with a
    pronoun or a bare kind word (``该公司营收增长6%``, ``其销量…``, "Its revenue rose 6%", "The company sold …")
    and names no one before the value."""
    begin, _ = _sentence_bounds(sentence, start, start)
    return bool((_CARRIED_ZH if has_han(sentence[begin:start]) else _CARRIED_EN).match(sentence[begin:start]))


_ITEM_CUT = re.compile(r"[，；;。！？!?]|,(?!\d)|\s+(?:and|while|whereas|but)\s+|而|但|(?<=\d)\s*\.\s+(?=\D)|"
                       r"(?<=[\d元岁人次个分号天])\s*[和与及](?=\D)", re.IGNORECASE)
"""Where a list of items and their values is cut (成人票30元，儿童票15元; "a bun costs £2 and a scone costs £1",
"the morning ferry at 07:15, the evening one at 18:05", "周一由张敏值班；周二由李涛值班", 和 after a value: 周三晚19:30和周六早
6:30); 、 joins items that share
one value (周一、周三由张敏值班) and stays inside."""
_LABEL = re.compile(r"^[^:：]{1,40}[:：]")


@dataclass(frozen=True)
class ItemClause:
    """A clause of a list that gives a value: where it runs in its sentence and its values."""

    start: int
    end: int
    values: tuple[tuple[int, int], ...]


def item_clauses(text: str, values: Sequence[tuple[int, int]]) -> tuple[str, list[ItemClause]]:
    """A sentence's leading label ("Fares:", 票价：, the words before a colon that holds no value) and its clauses
    that give the values at ``values``, cut at list separators: a clause without a value joins the next one (the
    items share its value: "Rooms 2 and 3 hold 10 people", 周一、周三由张敏值班), and one after the last value is
    left out (another item with no value of the kind: 老人凭证免费)."""
    label = ""
    if (m := _LABEL.match(text)) is not None and not any(a < m.end() for a, _ in values):
        label = m[0]
    cuts = [len(label), *(m.end() for m in _ITEM_CUT.finditer(text) if m.start() >= len(label)), len(text)]
    clauses: list[ItemClause] = []
    pending: int | None = None
    for a, b in itertools.pairwise(cuts):
        held = tuple((x, y) for x, y in values if a <= x < b)
        if not held:
            pending = a if pending is None else pending
            continue
        clauses.append(ItemClause(a if pending is None else pending, b, held))
        pending = None
    return label, clauses


_PARTICLE_EN = frozenset({"at", "on", "in", "by", "to", "out", "up", "off", "back", "down", "from", "around", "about",
                          "until", "till", "into", "onto", "over", "the", "a", "an", "its", "their", "his", "her"})
"""Words that follow a verb stating an act ("arrived at", "came out", "reached the museum"), not a noun it
qualifies ("retired members")."""
_BE_EN = frozenset({"is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "has", "have", "had"})


def _acts_en(clause: str) -> list[str]:
    """The verbs an English clause states an act by: an irregular past ("left school", "came out"), or one in -ed in
    the place of a predicate (a preposition, a particle or an article after it: "arrived at", "reached the museum"),
    not a participle after "is" ("is run by", "is led by") nor one that qualifies a noun ("retired members £4")."""
    from graphs.text.units import IRREGULAR_PAST  # (units reads no governor)

    words = re.findall(r"[A-Za-z][A-Za-z'-]*|\S", clause)
    out = []
    for i, w in enumerate(words):
        f = w.casefold()
        if not ((len(f) >= 5 and f.endswith("ed")) or f in IRREGULAR_PAST) or (w[0].isupper() and i > 0):
            continue
        if i > 0 and words[i - 1].casefold() in _BE_EN:
            continue
        after = words[i + 1].casefold() if i + 1 < len(words) else ""
        if f in IRREGULAR_PAST or after in _PARTICLE_EN or not after or any(ch.isdigit() for ch in after):
            out.append(f)
    return out


def _acts_zh(clause: str, value_end: int) -> list[str]:
    """The verbs a Chinese clause states an act by after its value (演出19:30开始, 10点05分抵达营地, 维修员14时45分赶到):
    a list's clause names its item before the value and says no act of its own after it."""
    from graphs.text.entity_spotting import tagged_words  # lazy: the tagger loads jieba

    out, at = [], 0
    for word, flag in tagged_words(clause):
        at = clause.find(word, at)
        if at >= value_end and (flag or "").startswith("v") and flag != "vn" and len(word) >= 2:
            out.append(word)
        at += len(word)
    return out


def narrative(text: str, clauses: Sequence[ItemClause]) -> bool:
    """Whether a sentence's valued clauses narrate events in sequence rather than list items of one kind: two
    clauses or more each state an act of their own, a verb no other clause writes ("Staff left at 6.10 pm and the
    roof collapsed at 9.45 pm", "left school at 8.05, reached the museum at 9.40", 演出19:30开始，到21:10才结束). A
    list's clauses repeat one predicate or leave it out ("the pottery stall is run by A, the candle stall by B", "the
    large loaf is £4, the small one £2.50", 一队由甲带队，二队由乙带队), or one clause writes it for all
    (每周二晚18:30和周六早9:00在三楼上课): each says which item, and its value. A later clause that goes on from
    the one before without naming an item (宣称其掌管了…, opening with its verb) or that runs over commas before its
    value (著名女词人，人称魏夫人，弟为…魏泰: a description clause by clause) is no list's either."""
    if len(clauses) < 2:
        return False
    parts = [text[c.start : c.end] for c in clauses]
    if any(_unlisted_opening(text[c.start : c.values[0][0]]) for c in clauses[1:]):
        return True
    folded = [p.casefold() for p in parts]
    acting = 0
    for i, (c, part) in enumerate(zip(clauses, parts, strict=True)):
        others = [o for j, o in enumerate(folded) if j != i]
        if has_han(part):
            acts = _acts_zh(part, c.values[0][1] - c.start)
            own = any(not any(a in o for o in others) for a in acts)
        else:
            words = [{stem(w) for w in re.findall(r"[a-z][a-z'-]*", o)} for o in others]
            own = any(not any(stem(a) in w for w in words) for a in _acts_en(part))
        acting += own
    return acting >= 2


_SEGMENT = re.compile(r"[，,；;]\s*(?=\S)")


def _unlisted_opening(before: str) -> bool:
    """Whether the words of a later clause before its first value say it is no item of a list: it opens with a
    verb (a Chinese clause that goes on with the subject before: 宣称其…, 并迫使…), or runs over two commas or
    more with no value of its own (著名女词人，人称魏夫人，弟为…: the clause describes, it names no item)."""
    stripped = before.lstrip(" ，,；;")
    if len(_SEGMENT.findall(stripped.rstrip())) >= 2:
        return True  # (one valueless item may stand in a list: 成人票30元，老人免费，团体票每人20元)
    if not has_han(stripped[:1]):
        return False
    from graphs.text.entity_spotting import tagged_words  # lazy: the tagger loads jieba

    words = [(w, f or "") for w, f in tagged_words(stripped) if w.strip()]
    # (a verb that qualifies the noun after it names an item: 离休会员80元, 退休成员120元)
    return len(words) >= 2 and words[0][1].startswith("v") and words[0][1] != "vn" and len(words[0][0]) >= 2 \
        and not words[1][1].startswith("n")
