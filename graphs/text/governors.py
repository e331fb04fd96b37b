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

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphs.text.normalize import has_han

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
_FUNCTION = re.compile(r"股份有限公司|有限公司|公司|集团|全年|年度|累计|整体|整个|预计|预期|预测|首次|实现|完成|同比|环比|其中|此外|另外|[的在了和与及其之等各将已约共总据，,、“”\"'《》()（）:：\s]|"
                       r"(?<![a-z])(?:the|of|in|its|their|a|an|and|total|overall|annual|full-year|expected|"
                       r"estimated|reported)(?![a-z])", re.IGNORECASE)
"""Words that do not narrow an attribute (function words, 全年, 预计, "total")."""
_COMMA = re.compile(r"[，,、:：]")
_BASE = re.compile(r"(?:比|较|相比|相较|与|和|跟|同)\s*$|\b(?:than|from|over|compared with|compared to|versus|vs\.?|"
                   r"against)\s*$", re.IGNORECASE)
"""Before a period that is the base of a comparison (比上年增长9.6%, "up 4% from 2022"): not the value's period."""
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
               and not (m.start() < end and start < m.end()) and not _BASE.search(sentence[begin : m.start()])]
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
