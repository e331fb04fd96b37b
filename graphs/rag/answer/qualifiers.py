"""The question's qualifiers: what narrows its subject to one fact — the years and dates it names ("2022年",
"10·29"), ordinals ("第十届", "the 3rd"), other numbers and codes, and its rare content words (weighted by
inverse document frequency). RGB-style hard negatives are passages about the same subject and the same kind of
fact for another qualifier (another year, another edition, another place, another person): the evidence that
answers must satisfy the question's qualifiers — in its sentence, or at least in its passage."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from graphs.text.dates import date_forms, without_planned
from graphs.text.normalize import has_han, normalize
from graphs.text.terms import dictionary_word, stem, term_weight
from graphs.text.units import EDGE_CLASSIFIERS_ZH, sizes, zh_number

_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")
_DATE = re.compile(r"(?<!\d)(\d{1,2})\s*[·.\-/月]\s*(\d{1,2})(?:日|号)?(?![\d月])")
_ORDINAL_ZH = re.compile(r"第([0-9一二三四五六七八九十百零〇两]+)(?:届|次|季|期|轮|代|版|号|批|场|名|局|站|集|周|阶段)|"
                         r"(首)(?:届|轮|站|场|期|季|局)")
"""A Chinese ordinal and its counter (第十届, 第3轮, 首轮: the first round)."""
_COUNTED_NOUNS = ("round", "stage", "game", "leg", "heat", "week", "season", "episode", "matchday", "phase", "lap",
                  "wave", "series", "edition")
"""English nouns an event's parts are counted by ("round four", "the third round", "Stage 5"): another number of
the same noun is another part of the event."""
_NUMBER_WORDS = {w: n for n, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                             "ten", "eleven", "twelve"), start=1)}
_COUNTED_EN = re.compile(rf"\b({'|'.join(_COUNTED_NOUNS)})\s+(\d{{1,2}}|{'|'.join(_NUMBER_WORDS)})\b(?!\s*(?:%|percent))",
                         re.IGNORECASE)
"""A counted part written noun first: "round four", "Stage 5", "Game 7" (not a season's year: two digits at most)."""
_MONTH_ZH = re.compile(r"(?<![\d\-—~～至到])(1[0-2]|[1-9]|十[一二]?|[一二三四五六七八九])\s*月(?:份)?(?!\s*\d|\s*[0-9一二三四五六七八九十]+\s*[日号])")
"""A month written alone (8月暴雨, 三月份), not a month-day (8月5日) nor a range's end (1-10月)."""
_ORDINAL_EN = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\b|\b(first|second|third|fourth|fifth|sixth|seventh|eighth|"
                         r"ninth|tenth)\b", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d+(?:\.\d+)?(?![A-Za-z\d.])")
_NEXT_WORD = re.compile(r"\s+([A-Za-z][\w-]*)")
_VERSION = re.compile(r"\b([A-Z][A-Za-z-]*[A-Za-z]|[a-z]+[A-Z][A-Za-z]*)\s+v?(\d+(?:\.\d+)*)(?![\w.]*\d)")
"""A name and its number, as a question writes a version or a model ("Corvane 1.0", "Route 66", "iPhone 15")."""
_NOT_NAMES = {"in", "on", "at", "by", "of", "the", "since", "before", "after", "from", "to", "until", "and", "or",
              "than", "about", "around", "over", "under", "page", "chapter", "step", "figure", "table", "top",
              "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
              "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
              "dec"}
_SENTENCE_VERSION = re.compile(r"\b([a-z][\w-]*)\s+v?(\d+(?:\.\d+)*)(?![\w.]*\d)")
_MONTHS_EN = {m: n for n, m in enumerate(("january", "february", "march", "april", "may", "june", "july", "august",
                                          "september", "october", "november", "december"), start=1)}
_MONTH_WORDS = "|".join(_MONTHS_EN)
DATE_EN = re.compile(rf"\b({_MONTH_WORDS})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                      rf"({_MONTH_WORDS})\b", re.IGNORECASE)
_EN_ORDINALS = {w: n for n, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                                            "eighth", "ninth", "tenth"), start=1)}
_ASKING = re.compile(r"哪|什么|多少|谁|几|怎么|如何|是否|为何|为什么|何时")
"""Question words: what is asked, never a qualifier of it."""
GROUPS: tuple[tuple[str, ...], ...] = (
    ("男子", "女子", "混合", "男女混合"),
    ("男单", "女单", "男双", "女双", "混双"),
    ("单打", "双打", "团体"),
    ("全程", "半程"),
    ("预赛", "资格赛", "初赛", "复赛", "小组赛", "淘汰赛", "四分之一决赛", "半决赛", "决赛"),
    ("上半场", "下半场"),
    ("城镇", "农村"),
    ("出口", "进口"),
    ("本科生", "研究生", "博士生"),
    ("men's", "women's", "mixed"),
    ("boys'", "girls'"),
    ("singles", "doubles"),
    ("half marathon", "full marathon"),
    ("qualifying", "quarter-final", "quarterfinal", "semi-final", "semifinal", "final"),
    ("urban", "rural"),
    ("imports", "exports"),
    ("undergraduate", "postgraduate", "graduate"),
)
"""Words that name one group or stage of an event or a statistic to the exclusion of the others of its row (the
women's count for the men's, the half marathon's winner for the full one's, the semi-final for the final): a
sentence that states another of the row and not the question's states another group's fact. Longer words are
read first (半决赛 is not 决赛, "semi-final" not "final")."""
RARE_FROM = 1.0
"""A Chinese content word counts as a qualifier from this weight (its idf over a typical word's: 1.0 and up is
rarer than a typical word); English words of the question's relation count when capitalised or of 7 letters+."""


@dataclass(frozen=True)
class Qualifier:
    """One thing the answering evidence must also say, and the forms that say it."""

    kind: str
    """year, date, ordinal, number, version, code, word"""
    forms: tuple[str, ...]
    weight: float = 1.0
    counter: str = ""
    """An English ordinal's noun ("conference" of "the second conference"; folded): another ordinal of the same
    noun is another edition. A version's name ("corvane" of "Corvane 1.0")."""


def qualifiers(question: str, relation: dict[str, float], names: Sequence[str] = (),
               attribute_words: Sequence[str] = ()) -> list[Qualifier]:
    """The qualifiers of a question: years, month-day dates, ordinals, other numbers, and rare content words
    of what it asks (not its names, which the rules already require, nor the words of the asked attribute)."""
    out: list[Qualifier] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for m in _YEAR.finditer(question):
        out.append(Qualifier("year", (m[1],)))
        taken.append(m.span())
    for m in _VERSION.finditer(question):
        if free(m) and not _YEAR.fullmatch(m[2]) and m[1].lower() not in _NOT_NAMES:
            out.append(Qualifier("version", (f"{m[1].lower()} {m[2]}",), counter=m[1].lower()))
            taken.append(m.span())
    for m in _DATE.finditer(question):
        if free(m):
            month, day = int(m[1]), int(m[2])
            if 1 <= month <= 12 and 1 <= day <= 31:
                out.append(Qualifier("date", (f"{month}月{day}日", f"{month}·{day}", f"{month}.{day}", f"{month}-{day}",
                                              f"{month}/{day}", f"{month}月{day}号")))
                taken.append(m.span())
    for m in DATE_EN.finditer(question):
        month = _MONTHS_EN[(m[1] or m[4]).lower()]
        day = int(m[2] or m[3])
        if free(m) and 1 <= day <= 31:
            name = (m[1] or m[4]).lower()
            out.append(Qualifier("date", (f"{month}月{day}日", f"{name} {day}", f"{day} {name}", f"{month}·{day}",
                                          f"{month}/{day}")))
            taken.append(m.span())
    for m in _ORDINAL_ZH.finditer(question):
        if free(m) and (n := _zh_ordinal(m)) is not None:
            out.append(Qualifier("ordinal", (m[0], f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd")))
            taken.append(m.span())
    for m in _COUNTED_EN.finditer(question):
        if free(m):  # "round four": the part of the event it asks about, by its noun
            n, noun = _counted_number(m[2]), m[1].lower()
            out.append(Qualifier("ordinal", (f"{noun} {n}", f"{noun} {m[2].lower()}", f"第{n}"), counter=noun))
            taken.append(m.span())
    for m in _ORDINAL_EN.finditer(question):
        if free(m):
            n = int(m[1]) if m[1] else _EN_ORDINALS[m[2].lower()]
            noun = _NEXT_WORD.match(question, m.end())
            out.append(Qualifier("ordinal", (m[0].lower(), f"第{n}", f"{n}th", f"{n}st", f"{n}nd", f"{n}rd"),
                                 counter=noun[1].lower() if noun else ""))
            taken.append(m.span())
    folded_question = normalize(question)
    for row in GROUPS:
        said = groups(folded_question, row)
        if len(said) == 1:  # one group of the row named (男子 and 女子 both: a comparison, no qualifier)
            out.append(Qualifier("group", (said[0],), counter=str(GROUPS.index(row))))
    for month, span in _bare_months(question):
        if not any(a < span[1] and span[0] < b for a, b in taken):
            # a month that names the event (8月暴雨, "the August floods"): another month's is another event
            out.append(Qualifier("month", (f"{month}月", _MONTH_NAMES[month - 1])))
            taken.append(span)
    folded_names = [normalize(n) for n in names]
    for m in _NUMBER.finditer(question):
        if free(m) and not any(m[0] in n for n in folded_names):
            out.append(Qualifier("number", (m[0],)))
    skip = {normalize(w) for w in attribute_words}
    for term in relation:
        if term in skip or any(term in s or s in term for s in skip if s) or any(term in n for n in folded_names):
            continue
        if _NUMBER.fullmatch(term) or _YEAR.search(term):
            continue
        if has_han(term):
            word = content_word(term)
            if word and len(word) >= 2 and term_weight(word) >= RARE_FROM and not _ASKING.search(word) \
                    and word not in skip and not any(word in n for n in folded_names):
                out.append(Qualifier("word", (word,), 0.5))
        elif len(term) >= 7:
            out.append(Qualifier("word", (term,), 0.5))
    return out


_GRAMMAR_EDGE = frozenset("要的了是在有会能得着过把被给都也就还又才让将和与及或很太最更")
"""Characters of grammar (a modal, a particle, a preposition, a conjunction, an adverb of degree) that jieba's HMM
glues to a content character of the question when its table knows neither split (种植牙要花 → 牙要, 借工具要交 →
要交, 鸡毛松有多高 → 松有): the token is an artefact of the segmentation, no word a passage writes."""
_CLASSIFIER_EDGE = EDGE_CLASSIFIERS_ZH
"""Classifiers a counted noun keeps at its front when the number before it was cut off (三名跑者 → 名跑者)."""
_POINTING = frozenset("那这该此某每各")
"""Demonstratives: 那场, 这家, 该次 point at a thing the question has in mind and state nothing of it."""


def content_word(term: str) -> str:
    """The content word of a Chinese term of the question, or '' when it has none: a demonstrative with its
    classifier (那场, 这家) is none; a token the segmenter's table does not know, with a character of grammar or a
    cut-off classifier at an edge (牙要, 要交, 名跑者), is the rest of it where that is a word of the table
    (跑者), else none. Any other term is itself."""
    if len(term) == 2 and term[0] in _POINTING and term[1] in _CLASSIFIER_EDGE:
        return ""
    if dictionary_word(term):
        return term
    word = term
    while word and (word[0] in _GRAMMAR_EDGE or word[0] in _CLASSIFIER_EDGE or word[0] in _POINTING):
        word = word[1:]
    while word and word[-1] in _GRAMMAR_EDGE:
        word = word[:-1]
    if word == term:
        return term  # a word the table does not know (a new compound, a name's part): the question's own word
    return word if len(word) >= 2 and dictionary_word(word) else ""


def groups(text: str, row: Sequence[str]) -> list[str]:
    """The words of a row of ``GROUPS`` a folded text writes, each once, a longer word masking those inside it
    (半决赛 is not also 决赛)."""
    out: list[str] = []
    for word in sorted(row, key=len, reverse=True):
        pattern = re.escape(word) if has_han(word) else rf"(?<![a-z-]){re.escape(word)}(?![a-z])"
        if re.search(pattern, text):
            out.append(word)
            text = re.sub(pattern, " ", text)
    return out


def says(q: Qualifier, text: str) -> bool:
    """Whether a folded text states a qualifier: one of its forms; a month as any of its spellings (not 1月 inside
    11月); a counted part in either order ("round four", "the fourth round", "Round 4")."""
    if q.kind == "month":
        return int(q.forms[0][:-1]) in months(text)
    if q.kind == "group":
        return q.forms[0] in groups(text, GROUPS[int(q.counter)])
    if q.kind == "ordinal" and q.counter in _COUNTED_NOUNS and (asked := _asked_ordinal(q)) is not None \
            and (asked[0], q.counter) in counted(text):
        return True
    return any(f in text for f in q.forms)


def satisfied(found: Sequence[Qualifier], text: str) -> float:
    """Weighted share of the qualifiers that a folded text states (1.0 with none)."""
    if not found:
        return 1.0
    total = sum(q.weight for q in found)
    return sum(q.weight for q in found if says(q, text)) / total


_MONTH_NAMES = tuple(_MONTHS_EN)
_MONTH_EN = re.compile(r"\b(January|February|March|April|June|July|August|September|October|November|December|"
                       r"(?<=in )May|May(?= \d{4}))\b")
"""An English month written with its capital (not "march" the verb; May only "in May" or "May 2024")."""


def _bare_months(question: str) -> list[tuple[int, tuple[int, int]]]:
    """The months a question writes without a day (8月, 三月份, "the August floods"), with where."""
    out = [(n, m.span()) for m in _MONTH_ZH.finditer(question) if (n := zh_number(m[1])) is not None and 1 <= n <= 12]
    return out + [(_MONTHS_EN[m[1].lower()], m.span()) for m in _MONTH_EN.finditer(question)]


_MONTH_FOLDED = re.compile(rf"\b({_MONTH_WORDS})\b")


def months(text: str) -> set[int]:
    """Every month a folded text names: in its month-days, written alone (7月, 七月), or by its English name ("may"
    only before a number or after "in")."""
    found = {month for month, _ in _month_days(text)}
    found |= {n for m in _MONTH_ZH.finditer(text) if (n := zh_number(m[1])) is not None and 1 <= n <= 12}
    found |= {n for m in re.finditer(r"(?<!\d)(1[0-2]|0?[1-9])\s*月", text) if 1 <= (n := int(m[1])) <= 12}
    for m in _MONTH_FOLDED.finditer(text):
        if m[1] != "may" or re.match(r"\s+\d", text[m.end() :]) or text[max(0, m.start() - 3) : m.start()] == "in ":
            found.add(_MONTHS_EN[m[1]])
    return found


def _counted_number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


def counted(text: str) -> list[tuple[int, str]]:
    """The counted parts of an event a text names, (number, noun): "round four", "Round 4", "the third round",
    "4th round"."""
    out = [(_counted_number(m[2]), m[1].lower()) for m in _COUNTED_EN.finditer(text)]
    return out + [(_ordinal_number(m), m[3].lower()) for m in _ORDINAL_NOUN_EN.finditer(text)
                  if m[3].lower() in _COUNTED_NOUNS]


def _zh_ordinal(m: re.Match[str]) -> int | None:
    return 1 if m[2] else zh_number(m[1])


# ---------------------------------------------------------------------------- binding to the evidence sentence

_SENTENCE_DATE = re.compile(rf"(?<!\d)(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*[日号]|(?<!\d)(\d{{1,2}})·(\d{{1,2}})(?!\d)|"
                            rf"\b({_MONTH_WORDS})\s+(\d{{1,2}})\b|\b(\d{{1,2}})\s+({_MONTH_WORDS})\b", re.IGNORECASE)
_NUMERIC_ORDINAL_EN = re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\b", re.IGNORECASE)
_ORDINAL_NOUN_EN = re.compile(r"\b(?:(\d{1,3})(?:st|nd|rd|th)|(first|second|third|fourth|fifth|sixth|seventh|eighth|"
                              r"ninth|tenth))\s+([a-z][\w-]*)", re.IGNORECASE)
"""An English ordinal and the word after it (the noun it counts, or the name's first word)."""


@dataclass(frozen=True)
class Conflict:
    """The answering sentence states another value of a qualifier's kind, and not the question's."""

    kind: str
    """year, date, ordinal, version, place, organization"""
    asked: str
    stated: str


@dataclass(frozen=True)
class Binding:
    """How the question's qualifiers bind to one answering sentence."""

    bound: float
    """Weighted share of the qualifiers the sentence states, with its immediate context (its passage's title,
    the sentence before it) and its chunk's own date (1.0 with none)."""
    conflicts: tuple[Conflict, ...] = ()


def _month_days(text: str) -> list[tuple[int, int]]:
    out = []
    for m in _SENTENCE_DATE.finditer(text):
        if m[1]:
            month, day = int(m[1]), int(m[2])
        elif m[3]:
            month, day = int(m[3]), int(m[4])
        elif m[5]:
            month, day = _MONTHS_EN[m[5].lower()], int(m[6])
        else:
            month, day = _MONTHS_EN[m[8].lower()], int(m[7])
        if 1 <= month <= 12 and 1 <= day <= 31:
            out.append((month, day))
    return out


def _ordinals(text: str) -> list[tuple[int, str]]:
    """(number, counter) of a text's ordinals: 第十届 → (10, 届); numeric English ones ("3rd") → (3, "")."""
    out = [(n, m[0][-1]) for m in _ORDINAL_ZH.finditer(text) if (n := _zh_ordinal(m)) is not None]
    return out + [(int(m[1]), "") for m in _NUMERIC_ORDINAL_EN.finditer(text)]


def _asked_ordinal(q: Qualifier) -> tuple[int, str] | None:
    found = _ordinals(q.forms[0])
    if found:
        return found[0]
    if q.counter in _COUNTED_NOUNS and (parts := counted(q.forms[0])):
        return parts[0][0], ""
    word = q.forms[0].lower()
    return (_EN_ORDINALS[word], "") if word in _EN_ORDINALS else None


def _conflict(q: Qualifier, sentence: str) -> Conflict | None:
    """Another value of the qualifier's kind that the sentence states (the sentence does not state the
    question's): another year, another month-day, another ordinal of the same counter (第十四届 for 第十五届)."""
    if q.kind == "year":
        other = [y for y in _YEAR.findall(sentence) if y != q.forms[0]]
        return Conflict("year", q.forms[0], other[0]) if other else None
    if q.kind == "date":
        month, day = (int(x) for x in re.findall(r"\d+", q.forms[0])[:2])
        other = [md for md in _month_days(sentence) if md != (month, day)]
        return Conflict("date", q.forms[0], f"{other[0][0]}月{other[0][1]}日") if other else None
    if q.kind == "ordinal" and (asked := _asked_ordinal(q)) is not None:
        other = [o for o in _ordinals(sentence) if o[1] == asked[1] and o[0] != asked[0]]
        if other:
            n, counter = other[0]
            return Conflict("ordinal", q.forms[0], f"第{n}{counter}" if counter else f"#{n}")
        others = [m for m in _ORDINAL_NOUN_EN.finditer(sentence) if q.counter and m[3].lower() == q.counter
                  and _ordinal_number(m) != asked[0]]
        if others and q.counter not in _COUNTED_NOUNS:
            # "the fourth northern skies conference" for "the second Northern Skies Conference"
            return Conflict("ordinal", f"{q.forms[0]} {q.counter}", others[0][0].lower())
        parts = [(n, noun) for n, noun in counted(sentence) if noun == q.counter and n != asked[0]]
        if parts and (asked[0], q.counter) not in counted(sentence):  # round three for round four
            return Conflict("ordinal", f"{q.counter} {asked[0]}", f"{q.counter} {parts[0][0]}")
    if q.kind == "group":
        said = groups(sentence, GROUPS[int(q.counter)])
        if said and q.forms[0] not in said:  # the half marathon's winner for the full marathon's
            return Conflict("group", q.forms[0], said[0])
    if q.kind == "month":
        asked_month = int(q.forms[0][:-1])
        other_months = sorted(months(sentence) - {asked_month})
        if other_months and asked_month not in months(sentence):  # 7月 for the floods of 8月
            return Conflict("month", q.forms[0], f"{other_months[0]}月")
    if q.kind == "version":
        versions = [m for m in _SENTENCE_VERSION.finditer(sentence)
                    if m[1].lower() == q.counter and f"{m[1].lower()} {m[2]}" != q.forms[0]]
        if versions:  # corvane 2.0 for corvane 1.0
            return Conflict("version", q.forms[0], versions[0][0].lower())
    return None


def other_size(question: str, sentence: str) -> Conflict | None:
    """The size or rating the sentence states in place of the one the question gives its item ("a 16A hook-up
    costs £95" for the 32A hook-up's price, "40 L backpack: 20 yuan" for 60升的背包, 双人间 at 3人间's rate), or
    None. The question's size names which variant it asks of; a sentence that states another size of the same unit
    and not the asked one is about a sibling variant, in either language (升 is L, 安 is A). Sizes written as a
    bound, a range or a list (over 23 kg, 16A–32A, 16A or 32A) cover more than their own value and decide nothing;
    two sizes of one unit in the question (a comparison) neither."""
    asked = [z for z in sizes(question) if not z.bounded]
    units = [z.unit for z in sizes(question)]
    for z in asked:
        if units.count(z.unit) > 1:
            continue
        stated = [w for w in sizes(sentence) if w.unit == z.unit]
        if stated and not any(w.value == z.value for w in stated) and not any(w.bounded for w in stated):
            return Conflict("size", question[z.start : z.end], sentence[stated[0].start : stated[0].end])
    return None


def _ordinal_number(m: re.Match[str]) -> int:
    return int(m[1]) if m[1] else _EN_ORDINALS[m[2].lower()]


def _states_kind(q: Qualifier, sentence: str) -> bool:
    """Whether a sentence states a value of the qualifier's kind (any year, month-day or ordinal)."""
    if q.kind == "year":
        return bool(_YEAR.search(sentence))
    if q.kind == "date":
        return bool(_month_days(sentence))
    if q.kind == "version":
        return any(m[1].lower() == q.counter for m in _SENTENCE_VERSION.finditer(sentence))
    if q.kind == "month":
        return bool(months(sentence))
    if q.kind == "group":
        return bool(groups(sentence, GROUPS[int(q.counter)]))
    return q.kind == "ordinal" and (bool(_ordinals(sentence)) or any(
        m[3].lower() == q.counter for m in _ORDINAL_NOUN_EN.finditer(sentence) if q.counter)
        or any(noun == q.counter for _, noun in counted(sentence)))


_OWN_KINDS = frozenset({"group", "month", "ordinal"})
"""Qualifiers a sentence that states one of its own kind is judged by alone, whatever its context states (a year
is not: a sentence may give a comparison's base year, 比2021年同期增长, beside the context's asked one)."""


_DATED_KINDS = frozenset({"month", "date"})
"""Qualifiers that the date a chunk is of contradicts where its sentence and context state none of their kind (a
month, a day: the meeting the minutes' header dates; not a year, which a report dated by its publication may
write of the year before in words: 去年, "last year")."""


def bind(found: Sequence[Qualifier], sentence: str, near: str = "", date: int | None = None, heading: str = ""
         ) -> Binding:
    """Bind the question's qualifiers to an answering sentence (folded): the share it states with its
    immediate context ``near`` (folded: title, the sentence before) and its chunk's own date (YYYYMMDD), and
    the qualifiers it contradicts — it states no form of one but another value of its kind (a sentence giving
    the attribute for 2021 is no evidence for a question about 2022, even in a passage that mentions 2022), or,
    stating no value of that kind itself ("本届", "that year"), its immediate context gives another. ``heading``
    (folded): the passage's whole title, with the period a name's reading leaves out (水质监测月报（2025年5月）,
    "Monthly report (May 2025)"): where it states a month or a day, the document is of that one, whatever the
    chunk's date (the day it was published)."""
    if not found:
        return Binding(1.0)
    dated = " ".join(date_forms(date)) if date else ""
    text = f"{near} {sentence}"
    total = sum(q.weight for q in found)
    stated, conflicts = 0.0, []
    for q in found:
        own, context = sentence, text
        if q.kind == "month" and dated and says(q, dated) and not says(q, sentence):
            # a chunk of the asked month (the March minutes, by their header): a later month its sentence gives
            # in a clause of a plan (预计4月初补录, "the fair will be on 19 April") is that plan's, not the asked
            # event's; the month the sentence reports as done still contradicts
            own = without_planned(sentence)
            context = f"{near} {own}"
        if q.kind in _OWN_KINDS and not says(q, own) and (c := _conflict(q, own)) is not None:
            # the sentence states its own group, month or edition: its context's (the sentence before, about the
            # men's singles) does not make the women's doubles line the asked one's
            conflicts.append(c)
            continue
        if says(q, context) or (q.kind in ("year", "date", "month") and says(q, dated)):
            stated += q.weight
        elif (c := _conflict(q, own) or (_conflict(q, near) if not _states_kind(q, own) else None)):
            conflicts.append(c)  # the sentence's own value, else (本届, "that year") the one its context gives
        elif q.kind in _DATED_KINDS and dated and not _states_kind(q, context) and (
                c := _conflict(q, heading) if _states_kind(q, heading) else _conflict(q, dated)):
            conflicts.append(c)  # the recorder's line of the November minutes, for the June meeting's recorder (the
            # May report's sign-off, published on 9 June, is the May report's: its title says so)
    return Binding(stated / total, tuple(conflicts))


def other_names(asked: Sequence[tuple[tuple[str, ...], str]], sentence: str, names: dict[str, str],
                skip: str | None = None) -> list[Conflict]:
    """Named qualifiers the sentence replaces: the question names a place or an organization (``asked``: its
    folded spellings and type) that the sentence (folded) does not, while the sentence names another of that
    type (``names``: folded name → type) — the growth of 中国 for a question about 美国, the sales of another
    maker. ``skip``: the type of the answer itself (the place that answers a where question is no conflict)."""
    out = []
    for forms, kind in asked:
        spelled = [f for f in forms if f]
        if kind not in ("LOCATION", "ORGANIZATION") or kind == skip or not spelled or any(f in sentence
                                                                                       for f in spelled):
            continue
        other = [n for n, k in names.items() if k == kind and n and not any(n in f or f in n for f in spelled)]
        if other:
            out.append(Conflict("place" if kind == "LOCATION" else "organization", spelled[0], other[0]))
    return out


Phase = str
""""start" or "end": which end of an event a time question asks for, or a sentence states."""

_END_ZH = r"结束|散会|散的会|散场|闭幕|休会|收工|完工|竣工|建成|落成|停止|停了|熄灭|扑灭|被控制|截止|到期|下班|闭馆|关闭|关门"
_START_ZH = r"开始|开赛|开播|开学|开演|开幕|开工|动工|开建|起火|着火|始于|开通|开业|开馆|上班|启动|首次发现|发现|爆发|举行|召开"
_END_EN = (r"\b(?:ends?|ended|ending|finish(?:ed|es)?|conclud(?:ed|es)|adjourn(?:ed|s)?|wound up|wrapped up|"
           r"stop(?:ped|s)?|halted|put out|extinguished|under control|contained|completed?|completion|"
           r"expir(?:ed|es|y)|closing|lifted|called off)\b")
_START_EN = (r"\b(?:start(?:ed|s|ing)?|beg[ia]n(?:s|ning)?|broke out|opened|opening|launch(?:ed|es)?|"
             r"(?:first\s+)?detected|discovered|commenced?|kick(?:ed)? off|held|convened)\b")
_PHASES = (("end", re.compile(_END_ZH + "|" + _END_EN, re.IGNORECASE)),
           ("start", re.compile(_START_ZH + "|" + _START_EN, re.IGNORECASE)))
_TIME_ASKED = re.compile(r"几点|哪天|哪一天|哪年|哪一年|什么时候|何时|几月|多会儿|时间是|\bwhen\b|\bwhat (?:time|day|date|year)\b",
                         re.IGNORECASE)
_RANGE = re.compile(r"(?:\d|点|时|日|号|月|年|[ap]\.?m\.?)\s*(?:至|到|~|～|–|—|-|until|till|to)\s*(?:\S{0,4}\s*)?\d", re.IGNORECASE)
_TIME_LABEL = re.compile(r"(?:时间|日期)\s*[:：]|^\s*(?:time|date|when)\s*:", re.IGNORECASE)
"""A schedule's time label (会议时间：…, "Time: …") names when the event takes place: its start."""


def asked_phase(question: str) -> Phase | None:
    """Which end of an event a time question asks for: "end" for 几点散的会 / 什么时候建成 / "when was the leak
    stopped", "start" for 几点开始 / "when did the fire start"; None when it asks no time or names neither end
    (one phase word of each: the question's own verb decides nothing)."""
    if not _TIME_ASKED.search(question):
        return None
    found = [phase for phase, pattern in _PHASES if pattern.search(question)]
    return found[0] if len(found) == 1 else None


def stated_phases(sentence: str) -> frozenset[Phase]:
    """The ends of an event a sentence states a time for: the phase words it writes, both for a range (9:00至
    21:00, "from 9 am to 5 pm"), "start" for a schedule's time label (会议时间：…)."""
    if _RANGE.search(sentence):
        return frozenset({"start", "end"})
    found = {phase for phase, pattern in _PHASES if pattern.search(sentence)}
    if not found and _TIME_LABEL.search(sentence):
        found.add("start")
    return frozenset(found)


def other_phase(question: str, sentence: str) -> Phase | None:
    """The phase a sentence states instead of the one asked, or None: the start for an asked end (a meeting's
    start time for 几点散的会, a planned groundbreaking for 什么时候建成, "first detected at 06:15" for "when was
    it stopped") and the end for an asked start ("put out at 9 am" for "when did the fire start")."""
    asked = asked_phase(question)
    if asked is None:
        return None
    stated = stated_phases(sentence)
    return next(iter(stated)) if stated and asked not in stated else None


_ACT_BEFORE_TIME_ZH = re.compile(r"([\u4e00-\u9fff]{2})(?:时间|日期)(?:是|为)?(?:什么时候|何时|哪天|哪一天|多少)?\s*[？?。]?\s*$|"
                                 r"([\u4e00-\u9fff]{2})(?:时间|日期)是")
_ACT_AFTER_WHEN_ZH = re.compile(r"(?:什么时候|何时|哪天|哪一天|哪年|哪一年|几月几日|几号)(?:会|将|要|能|才|正式|被|由)?"
                                r"(?:开始|正式)?([\u4e00-\u9fff]{2})")
_ACT_EN = re.compile(r"^\s*(?:when|what (?:date|day|year))\s+(?:did|does|do|will|would|was|were|is|are|has|have|had)\b"
                     r".*?\b([a-z]{3,})\s*[?.]?\s*$", re.IGNORECASE)
_NOT_ACTS_EN = frozenset({"be", "been", "being", "happen", "happened", "occur", "occurred", "place", "take", "start",
                          "held", "hold", "year", "date", "day", "time", "there", "it", "this", "that"})
"""Words at the end of an English when-question that name no act of their own ("when did it take place")."""
_NOT_ACTS_ZH = frozenset({"具体", "确切", "大概", "准确", "最新", "目前", "现在", "这个", "那个", "的是", "举行", "举办", "召开",
                          "发生", "进行", "开展", "出现", "开始", "结束", "自己", "他们", "她们", "我们", "你们", "大家", "什么",
                          "这些", "那些"})
"""Two characters before 时间 or after 什么时候 that name no act (具体时间, 什么时候举行: the event itself takes place;
开始 and 结束 alone: the phase rules judge an end asked; a pronoun: 何时开始自己的…)."""
_TOPIC_AFTER = re.compile(r"^\s*(?:的)?\s*(?:具体)?(?:时间|日期|时候|日程|安排|行程)(?!\s*(?:是|为|定|定于|定在|[:：]))")
"""An act named as the topic of another verb (确认…访华日期, 公布出分时间): it is not dated where it is written so."""
_LABELLED_ZH = re.compile(r"([\u4e00-\u9fff]{2})(?:时间|日期)\s*(?:是|为|[:：])")
"""A date's label that names its act (查分时间：6月25日): one character in common with the asked act (出分) is
the same act named otherwise; none (发布时间 for 访华) is another act's date."""


def asked_time_act(question: str, names: Sequence[str] = ()) -> str | None:
    """The act a time question asks the date of, in the question's own words: the two characters before
    时间/日期 (开赛 of 开赛时间, 访华 of 访华时间) or after 什么时候/哪一年 (开售 of 什么时候开售, 成立 of 哪一年成立),
    the verb ending an English when-question ("open" of "When did the museum open?"); None when it names no act
    of its own (具体时间, X的时间: the event itself), the act is part of a name, or the question asks no time."""
    if has_han(question):
        found = [m[1] or m[2] for m in [_ACT_BEFORE_TIME_ZH.search(question)] if m is not None]
        found += [m[1] for m in _ACT_AFTER_WHEN_ZH.finditer(question)]
        for act in found:
            if act in _NOT_ACTS_ZH or re.search(r"[的是了在于将会]", act) or any(act in n for n in names if n):
                continue
            if re.search(rf"《[^》]*{re.escape(act)}[^》]*》", question):
                continue
            return act
        return None
    m = _ACT_EN.match(question)
    if m is None or m[1].casefold() in _NOT_ACTS_EN or any(m[1].casefold() in n.casefold() for n in names if n):
        return None
    return m[1].casefold()


def _act_clause(sentence: str, start: int, end: int) -> str:
    """The clause a date at ``sentence[start:end]`` dates: its comma-delimited clause, or the whole sentence for a
    date that opens it before a comma (10月31日，X将…: the date of everything the sentence reports)."""
    if has_han(sentence[start:end]) or has_han(sentence[max(0, start - 4) : end + 4]):
        begin = max((m.end() for m in re.finditer(r"[，,；;。！？!?]", sentence[:start])), default=0)
        opening = not re.sub(r"(?:当地时间|北京时间|据[^，,]{0,12}(?:消息|报道))\s*", "", sentence[begin:start]).strip()
        if opening and re.match(r"[^，,；;。！？!?]*[，,]", sentence[end:]):
            return sentence
        # to the end of its sentence: a date's clause lends its time to the comma clauses after it (在1562年元服，
        # 被任命为…), not to those before
        nxt = re.search(r"[；;。！？!?]", sentence[end:])
        return sentence[begin : end + nxt.start() if nxt else len(sentence)]
    return sentence  # English: the whole sentence (its clauses are not told apart here)


def states_act(act: str, clause: str, synonyms: Sequence[str] = ()) -> bool:
    """Whether a clause states the asked act: the act or a word the lexicon gives the same attribute (创建 for
    成立), not as the topic of another verb (确认…访华日期); for a Chinese verb-object act, its verb character
    in another word (访 of 访问 for 访华); the same end of an event (开始 for 开赛); an event noun's act, any
    verb of its taking place (举行)."""
    folded = normalize(clause)
    words = [normalize(w) for w in (act, *synonyms) if w]
    if has_han(act):
        for w in words:
            for m in re.finditer(re.escape(w), folded):
                if not _TOPIC_AFTER.match(folded[m.end() :]):
                    return True
        # one character of the act in another word (访问 for 访华, 执飞 for 首飞), not inside the act written as a
        # topic (确认…访华日期)
        rest = re.sub(re.escape(normalize(act)) + r"(?=\s*(?:的)?\s*(?:具体)?(?:时间|日期|时候|日程|安排|行程))", "", folded)
        if any(not _TOPIC_AFTER.match(rest[m.end() :]) and not _TOPIC_AFTER.match(rest[m.end() + 1 :])
               for ch in act for m in re.finditer(re.escape(ch), rest)):
            return True
    elif any(re.search(rf"\b{re.escape(stem(w) if ' ' not in w else w)}", folded) for w in words):
        return True
    asked = stated_phases(act)
    if asked and "start" in asked and (stated_phases(clause) & asked):
        return True
    return bool(asked and "end" in asked and (stated_phases(clause) & asked))


def dates_other_act(question: str, sentence: str, dates: Sequence[tuple[int, int]], names: Sequence[str] = (),
                    synonyms: Sequence[str] = ()) -> str | None:
    """The asked act (``asked_time_act``) when every date of a sentence dates another act: no clause that holds one of
    its dates states it (须于4月8日提交参赛确认函 for 开赛时间; 1月31日确认布林肯的访华日期 for 访华时间: the
    date of a confirmation; 发布时间：2022-11-03 for 访华时间); None when one does, the question names no act of
    its own, or the sentence holds no date."""
    act = asked_time_act(question, names)
    if act is None or not dates:
        return None
    for a, b in dates:
        clause = _act_clause(sentence, a, b)
        if states_act(act, clause, synonyms) or (has_han(act) and any(
                set(m[1]) & set(act) for m in _LABELLED_ZH.finditer(clause))):
            return None
    return act


_NEXT = re.compile(r"下一?次|下一?届|下一?轮|下一?期|下一?场|\bnext\b|\bupcoming\b|\bforthcoming\b", re.IGNORECASE)
_FUTURE = re.compile(_NEXT.pattern + r"|将|即将|计划|预计|拟于|定于|\bwill\b|\bshall\b|\bscheduled\b|\bplanned\b|"
                     r"\bis due\b|\bare due\b|\bset for\b|\bto be held\b", re.IGNORECASE)


def past_for_next(question: str, sentence: str) -> bool:
    """Whether a time question about the next or coming instance of an event (下一次例会哪天开, "when is the next
    board meeting") is answered by a sentence that writes no next or future time (会议时间：4月9日, "the meeting
    was held on 9 April"): that is the past instance's time, not the asked one's."""
    return bool(_TIME_ASKED.search(question) and _NEXT.search(question)) and _FUTURE.search(sentence) is None


_NEXT_INSTANCE = re.compile(r"下一?次|下一?届|下一?轮|下一?期|下一?场|\b(?:next|upcoming|forthcoming)\b(?!\s+to\b)",
                            re.IGNORECASE)


def next_instance_parts(question: str, sentence: str, passage: str) -> list[str]:
    """For a question about the next instance of an event (下一次排练在哪里, "who will chair the next meeting")
    answered by a sentence that writes no next or future time: the other parts of its passage that speak of the
    next instance (纪要's 地点：文化站 beside 下一次排练定于4月25日). When there are some, the passage tells the two
    instances apart and the sentence states this one's place, chair or date; none, and nothing is known of which
    instance the sentence is of (a notice of the coming meeting). (A time question needs no such passage:
    ``past_for_next``.)"""
    if _NEXT_INSTANCE.search(question) is None or _FUTURE.search(sentence) is not None:
        return []
    return [part.strip() for part in re.split(r"(?<=[。！？!?；;\n])|(?<=\.)\s", passage)
            if part.strip() and part.strip() not in sentence and _NEXT_INSTANCE.search(part)]


_EDITION = re.compile(r"第\s*[0-9〇零一二两三四五六七八九十百]+\s*[届次期轮季场]|\b(?:\d+(?:st|nd|rd|th)|first|second|third|"
                      r"fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?:edition|annual|season|round|meeting|"
                      r"festival|race|conference|congress|session)\b", re.IGNORECASE)


def coming_edition_parts(question: str, sentence: str, passage: str) -> list[str]:
    """For a question that names an edition (第六届, "the sixth festival") which the answering sentence does not
    write and its passage writes only in parts about the future (第六届徒步节将于明年秋季举行): those parts. The
    passage is of another edition; the sentence states that one's chair or place, not the asked one's (the way
    ``next_instance_parts`` reads 下一次)."""
    asked = {normalize(m[0]) for m in _EDITION.finditer(question)}
    if not asked or any(a in normalize(sentence) for a in asked):
        return []
    parts = [part.strip() for part in re.split(r"(?<=[。！？!?；;\n])|(?<=\.)\s", passage)
             if any(a in normalize(part) for a in asked)]
    return parts if parts and all(_FUTURE.search(p) for p in parts) else []


Rank = Literal["current", "first", "former", "deputy"]

_RANKS_EN: tuple[tuple[Rank, str], ...] = (
    ("current", r"current|currently|present|incumbent|today's"),
    ("first", r"first|founding|inaugural|original"),
    ("former", r"former|previous|late|ex|retired|outgoing|one-time|onetime"),
    ("deputy", r"deputy|vice|assistant|associate"),
)
_RANKS_ZH: tuple[tuple[Rank, str], ...] = (
    ("current", r"现任|当前|目前的|如今的|现在的"),
    ("first", r"首任|第一任|第一位|创始|首位"),
    ("former", r"前任|原任|时任|历任|已故|卸任|退休|老一任|上一任|上任"),
    ("deputy", r"常务副|副"),
)
_ASKED_NOW = re.compile(r"\b(?:now|nowadays|currently|at present|these days|today)\b|现在|目前|如今|眼下|当前|现任",
                        re.IGNORECASE)
"""A question that asks the present holder by an adverb ("who runs it now", 目前由谁负责)."""
_EN_RANK = re.compile(r"\b(" + "|".join(p for _, p in _RANKS_EN) + r")(?:-|\s+)((?:[a-z][\w'-]*\s+){0,2}?)([a-z][\w'-]*)",
                      re.IGNORECASE)
_ZH_RANK = re.compile("(" + "|".join(p for _, p in _RANKS_ZH) + r")([\u4e00-\u9fff]{1,4})")


_NOT_NOUNS = frozenset({"the", "a", "an", "of", "and", "or", "was", "were", "is", "are", "be", "been", "to", "in",
                        "on", "at", "for", "with", "by", "from", "his", "her", "its", "their", "our", "this", "that"})


def _rank_of(word: str, table: Sequence[tuple[Rank, str]]) -> Rank | None:
    return next((rank for rank, pattern in table if re.fullmatch(pattern, word, re.IGNORECASE)), None)


def _ranked(text: str) -> list[tuple[Rank, str]]:
    """Each rank word of ``text`` with the noun it qualifies, folded: ("first", "captain") of "the club's first
    captain", ("former", "librarian") of "former head librarian", ("first", "台长") of 首任台长."""
    out: list[tuple[Rank, str]] = []
    for m in _EN_RANK.finditer(text):
        if (rank := _rank_of(m[1], _RANKS_EN)) is not None:
            out.extend((rank, w.casefold()) for w in (*m[2].split(), m[3]) if w.casefold() not in _NOT_NOUNS)
    for m in _ZH_RANK.finditer(text):
        if (rank := _rank_of(m[1], _RANKS_ZH)) is not None:
            out.append((rank, m[2]))
    return out


def _same_noun(noun: str, text: str) -> bool:
    if has_han(noun):
        return any(noun[i:i + 2] in text for i in range(len(noun) - 1)) if len(noun) > 1 else noun in text
    return len(noun) > 2 and re.search(rf"\b{re.escape(noun)}", text, re.IGNORECASE) is not None


def asked_ranks(question: str) -> frozenset[Rank]:
    """The rank the question asks of a holder or a value: the present one (现任, "current", "now"), the first
    (首任, "founding"), a former one, a deputy (副, "vice")."""
    found = {rank for rank, _ in _ranked(question)}
    if _ASKED_NOW.search(question):
        found.add("current")
    return frozenset(found)


_CONTRADICTS: dict[Rank, frozenset[Rank]] = {
    "current": frozenset({"first", "former"}),
    "first": frozenset({"current", "former", "deputy"}),
    "former": frozenset({"current"}),
    "deputy": frozenset(),
}
"""Which ranks a sentence may state of the asked noun and still not state the asked one: a first or a former
holder is no current one (the first mayor of 1836 for "the current mayor"), the present holder no first one. A
former holder may have been the first, so "former" asked is contradicted only by the present holder."""


def other_rank(question: str, sentence: str) -> tuple[Rank, str] | None:
    """(asked, stated) when the sentence qualifies a noun the question writes by another rank than the one asked
    and never by the asked one (首任台长 for 现任台长是谁, "the first mayor" for "the current mayor"); a deputy asked
    of a sentence whose holder of that noun is not one (台长 for 副台长)."""
    asked = asked_ranks(question)
    if not asked:
        return None
    stated = [(rank, noun) for rank, noun in _ranked(sentence) if _same_noun(noun, question)]
    said = {rank for rank, _ in stated}
    for rank in sorted(asked):
        if rank in said:
            continue
        if (other := sorted(said & _CONTRADICTS[rank])):
            return rank, other[0]
        if rank == "deputy" and any(_same_noun(noun, sentence) for r, noun in _ranked(question) if r == rank):
            return rank, "principal"  # 台长 stated, 副台长 asked: the holder named is not the deputy
    return None


def rank_nouns(question: str, sentence: str) -> frozenset[str]:
    """The nouns of the question that ``sentence`` qualifies by a rank (captain of "its first captain")."""
    return frozenset(noun for _, noun in _ranked(sentence) if _same_noun(noun, question))


def states_noun(nouns: frozenset[str], sentence: str) -> bool:
    """Whether ``sentence`` writes one of ``nouns`` (台长 of 现任台长为欧阳蕙)."""
    return any(_same_noun(noun, sentence) for noun in nouns)


# ---------------------------------------------------------------------------- an ordered pair: A → B is not B → A

_LANGUAGES: tuple[tuple[str, ...], ...] = (
    ("chinese", "mandarin", "中文", "汉语", "华语", "普通话", "zh", "cn", "中"),
    ("english", "英文", "英语", "en", "英"),
    ("japanese", "日文", "日语", "ja", "jp", "日"),
    ("korean", "韩文", "韩语", "朝鲜语", "ko", "kr", "韩"),
    ("german", "德文", "德语", "de", "德"),
    ("french", "法文", "法语", "fr", "法"),
    ("spanish", "西班牙文", "西班牙语", "es", "西"),
    ("russian", "俄文", "俄语", "ru", "俄"),
    ("italian", "意大利文", "意大利语", "it", "意"),
    ("portuguese", "葡萄牙文", "葡萄牙语", "pt", "葡"),
    ("arabic", "阿拉伯文", "阿拉伯语", "ar"),
    ("dutch", "荷兰文", "荷兰语", "nl"),
    ("thai", "泰文", "泰语", "th", "泰"),
    ("vietnamese", "越南文", "越南语", "vi", "越"),
)
"""Languages by their English and Chinese names, two-letter codes and the one character a Chinese pair writes
(英译中, 中翻英): the ends of a translation's direction, in either language."""
_LANGUAGE_OF = {form: n for n, forms in enumerate(_LANGUAGES) for form in forms}
_SHORT = frozenset(f for forms in _LANGUAGES for f in forms if len(f) <= 2)
"""Codes and one-character names: an end only beside a marker that is a direction and nothing else (an arrow,
译, 翻), never "to" or a dash ("it to", "de-", 中至)."""
_ARROW = r"→|⟶|⇒|->|=>|>|›|»"
_STRICT = rf"(?:{_ARROW}|译成|译为|译|翻译成|翻成|翻)"
_MARKER = rf"(?:{_STRICT}|\binto\b|\bto\b|至|到|-|–|—)"
_END_EN = r"[A-Z][\w'.]*(?:\s+[A-Z][\w'.]*){0,3}"
_END_ZH = r"[\u4e00-\u9fff]{2,6}"
_LANGUAGE_END = "|".join(sorted((re.escape(f) for f in _LANGUAGE_OF), key=len, reverse=True))
_LANGUAGE_PAIR = re.compile(rf"(?<![a-z])({_LANGUAGE_END})(?![a-z])\s*({_MARKER})\s*(?<![a-z])({_LANGUAGE_END})"
                            rf"(?![a-z])", re.IGNORECASE)
_NAMED_PAIR = re.compile(rf"\bfrom\s+({_END_EN})\s+to\s+({_END_EN})|({_END_EN}|{_END_ZH})\s*(?:{_ARROW})\s*"
                         rf"({_END_EN}|{_END_ZH})")


@dataclass(frozen=True)
class OrderedPair:
    """An ordered pair the question asks of (Chinese → English, from Leeds to York): each end's forms, as
    patterns."""

    start: str
    end: str
    languages: tuple[int, int] | None = None
    """Two languages' places in ``_LANGUAGES`` (read by ``_language_pairs``, which knows when a code or one
    character is an end); none for named ends."""


def _language_pairs(text: str) -> list[tuple[int, int]]:
    """The (from, to) languages a text writes as a direction (Chinese → English, 英译中, "English to German")."""
    out = []
    for m in _LANGUAGE_PAIR.finditer(text):
        a, marker, b = m[1].casefold(), m[2], m[3].casefold()
        if a in _SHORT or b in _SHORT:
            if not re.fullmatch(_STRICT, marker) or (a.isascii() != b.isascii()):
                continue  # 中至英, "it to en": no direction; a code beside a Chinese character: none either
            if a.isascii() and not (m[1].isupper() and m[3].isupper()):
                continue  # codes are written in capitals (EN → ZH); "de > it" is no pair
        if _LANGUAGE_OF[a] != _LANGUAGE_OF[b]:
            out.append((_LANGUAGE_OF[a], _LANGUAGE_OF[b]))
    return out


def asked_pair(question: str) -> OrderedPair | None:
    """The direction a question asks of, when it writes one pair of ends in an order: two languages with a marker
    between them (Chinese to English, 中译英, "English → Japanese"), or two named places or things "from A to B"
    or joined by an arrow (Leeds → York). None when it writes none, or both orders (a comparison)."""
    pairs = _language_pairs(question)
    if pairs:
        one, other = pairs[0]
        return None if (other, one) in pairs else OrderedPair(_LANGUAGES[one][0], _LANGUAGES[other][0], (one, other))
    m = _NAMED_PAIR.search(question)
    if m is None:
        return None
    a, b = (m[1], m[2]) if m[1] else (m[3], m[4].split("的")[0])
    return OrderedPair(re.escape(a.casefold()), re.escape(b.casefold())) if a.casefold() != b.casefold() else None


def writes_pair(start: str, end: str, text: str) -> bool:
    """Whether a text writes ``start`` then ``end`` (patterns) as a direction: joined by a marker (an arrow, "to",
    译, a dash), as a table's row key writes a pair."""
    pattern = rf"(?<![a-z])(?:{start})(?![a-z])\s*{_MARKER}\s*(?<![a-z])(?:{end})(?![a-z])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def states_pair(asked: OrderedPair, sentence: str) -> bool:
    """Whether a sentence writes the asked pair in the asked order (Chinese → English, 中译英)."""
    if asked.languages is not None:
        return asked.languages in _language_pairs(sentence)
    return writes_pair(asked.start, asked.end, sentence)


def reversed_pair(asked: OrderedPair, sentence: str) -> bool:
    """Whether a sentence writes the asked pair the other way round only (English → Chinese or 英译中 for a Chinese
    to English question; York → Leeds for "from Leeds to York"): it states the other direction's value."""
    a, b = asked.languages or (0, 0)
    turned = OrderedPair(asked.end, asked.start, (b, a) if asked.languages else None)
    return states_pair(turned, sentence) and not states_pair(asked, sentence)
