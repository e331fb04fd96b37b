"""Entity spotting in a question or a passage (no LLM): gazetteer, pinyin, jieba POS, title case, dates; and the
name a question opens with (``possessor``). Query analysis builds on it (``query_analysis``)."""

from __future__ import annotations

import logging
import re
import threading
import warnings
from collections.abc import Iterable
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from graphs.domain import EntityType, QueryEntity
from graphs.text.dates import find_dates, month_phrase
from graphs.text.gazetteer import Gazetteer
from graphs.text.normalize import has_han

if TYPE_CHECKING:
    from jieba.posseg import POSTokenizer

__all__ = [
    "EntitySpan",
    "entity_spans",
    "extract_entities",
    "pos_spans",
    "possessor",
    "title_case_spans",
]


class EntitySpan(NamedTuple):
    """An entity found at ``text[start:end]``."""

    start: int
    end: int
    entity: QueryEntity


def _words(text: str) -> frozenset[str]:
    """Return the whitespace-separated words of ``text`` as a set."""
    return frozenset(text.split())


# ---------------------------------------------------------------- jieba (lazy, private instance)

_JIEBA_LOCK = threading.Lock()
_JIEBA: list[POSTokenizer] = []


def _pos_tokenizer() -> POSTokenizer:
    """Return the private jieba POS tokenizer, building it on first use (about a second)."""
    if not _JIEBA:
        with _JIEBA_LOCK:
            if not _JIEBA:
                # jieba 0.42 has invalid escape sequences that warn when its modules are compiled.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    warnings.simplefilter("ignore", SyntaxWarning)
                    import jieba
                    import jieba.posseg

                # jieba logs its dictionary loading at DEBUG through its own handler; keep that quiet.
                jieba.setLogLevel(logging.WARNING)
                tokenizer = jieba.posseg.POSTokenizer(jieba.Tokenizer())
                tokenizer.tokenizer.initialize()
                _JIEBA.append(tokenizer)
    return _JIEBA[0]


# ---------------------------------------------------------------- the name a question opens with

_POSSESSOR = re.compile(r"^\s*([\u4e00-\u9fffA-Za-z0-9·\-]{2,10}?)的")
_DATE_ONLY = re.compile(r"^[\d年月日号]+$")
_TIME_AFTER = re.compile(r"(?:(?:\d{2,4}|[一二三四五六七八九〇零]{2,4})年度?|\d{1,2}月份?|今年|去年|前年|明年|上半年|下半年|"
                         r"(?:第?[一二三四]|前三)季度|全年|年度|同期)+$")
_FUNCTION_WORDS = ("p", "c", "r", "d", "u", "uj", "ul", "uz", "y", "e", "f")
"""jieba's flags of prepositions, conjunctions, pronouns, adverbs, particles and locatives: no part of a name."""


def possessor(question: str) -> str | None:
    """The name a Chinese question opens with and asks something of ("拼多多" of "拼多多的创始人是谁？", "张三" of
    "张三创办的公司有哪些？"); None for a pronoun or a demonstrative ("该公司的…"), or a clause with a
    preposition, a conjunction or an adverb in it ("苹果在北京发布的产品")."""
    m = _POSSESSOR.match(question)
    if m is None or _DATE_ONLY.match(m[1]):
        return None
    # a time after the name qualifies the question, it is no part of the name ("芯源科技2024年的…", "X去年的…")
    owner = _TIME_AFTER.sub("", m[1])
    if len(owner) < 2:
        return None
    tokens = list(_tagged(owner, accurate=True))
    if any(flag in _FUNCTION_WORDS for _, flag in tokens):
        return None
    if len(tokens) > 1 and tokens[0][1] in ("v", "vn") and len(tokens[0][0]) >= 2:  # (拼 of 拼多多 is no verb)
        return None  # a clause that opens with its verb has no subject ("生产萤影灯罩的合作社": the maker, described)
    # a relative clause: its subject is the name ("张三创办的", "洪雅琴所在的")
    while len(tokens) > 1 and (tokens[-1][1] == "v" or tokens[-1][0] == "所在"):
        tokens.pop()
    name = "".join(word for word, _ in tokens)
    return name if len(name) >= 2 else None


# ---------------------------------------------------------------- POS entities

_ALL_HAN = re.compile("[\u3400-\u9fff]+")
_POS_TYPES: dict[str, EntityType] = {"nr": "PERSON", "ns": "LOCATION", "nt": "ORGANIZATION", "nz": "OTHER"}
# Common surnames and place suffixes guess the type of a word jieba's dictionary does not know.
_SURNAMES = set(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_PLACE_SUFFIX = set("省市县区镇乡村州岛湖山河江")
POS_CONFIDENCE = 0.6
GUESS_CONFIDENCE = 0.4


def _tagged(text: str, accurate: bool) -> Iterable[tuple[str, str | None]]:
    """Yield (word, POS flag or None) pairs; accurate uses jieba's POS HMM (slow on long text)."""
    tokenizer = _pos_tokenizer()
    if accurate:
        yield from ((p.word, p.flag) for p in tokenizer.cut(text))
        return
    tags: dict[str, str] = tokenizer.word_tag_tab
    yield from ((w, tags.get(w)) for w in tokenizer.tokenizer.cut(text, HMM=True))


def tagged_words(text: str) -> list[tuple[str, str | None]]:
    """The words of a Chinese text with jieba's part-of-speech tags (accurate mode)."""
    return list(_tagged(text, True))


def placed_words(sentence: str) -> list[tuple[int, int, str, str]]:
    """The tagger's words of a sentence with where they stand: (start, end, word, flag)."""
    words = []
    position = 0
    for word, flag in tagged_words(sentence):
        start = sentence.find(word, position)
        if start < 0:
            continue
        position = start + len(word)
        words.append((start, position, word, flag or ""))
    return words


def _pos_entity(word: str, flag: str | None) -> QueryEntity | None:
    """Map one tagged word to an entity, or None if it names nothing."""
    if len(word) < 2 or not _ALL_HAN.fullmatch(word) or month_phrase(word):
        # jieba's dictionary tags "八月份" as a name (nz): a time qualifies the question, it names nothing
        return None
    if flag is not None:
        kind = _POS_TYPES.get(flag[:2])
        return QueryEntity(text=word, type=kind, source="pos", confidence=POS_CONFIDENCE) if kind else None
    if len(word) <= 3 and word[0] in _SURNAMES:
        return QueryEntity(text=word, type="PERSON", source="pos", confidence=GUESS_CONFIDENCE)
    if word[-1] in _PLACE_SUFFIX and len(word) <= 5:
        return QueryEntity(text=word, type="LOCATION", source="pos", confidence=GUESS_CONFIDENCE)
    return None


def pos_spans(text: str, *, accurate: bool = True) -> list[EntitySpan]:
    """Return person/place/organization/other names tagged by jieba in Chinese text."""
    if not has_han(text):
        return []
    spans: list[EntitySpan] = []
    position = 0
    surname_at: int | None = None  # where a one-character surname the tagger split off ends
    for word, flag in _tagged(text, accurate):
        start = position if text.startswith(word, position) else text.find(word, position)
        if start < 0:
            continue
        position = start + len(word)
        if surname_at == start and _given_name(word, flag):
            # 周 + 建国, 马 + 德福: the tagger split a person's name and took its given name for a place; the two
            # are one person, not a place inside a name
            spans.append(EntitySpan(start - 1, position, QueryEntity(
                text=text[start - 1 : position], type="PERSON", source="pos", confidence=POS_CONFIDENCE)))
            surname_at = None
            continue
        surname_at = position if len(word) == 1 and word in _SURNAMES and (flag or "")[:2] in ("nr", "n") else None
        entity = _pos_entity(word, flag) if position - start > 1 else None
        if entity is not None:
            spans.append(EntitySpan(start, position, entity))
    return spans


def _given_name(word: str, flag: str | None) -> bool:
    """Whether a word right after a lone surname is its given name: one or two Chinese characters the tagger
    took for a name of any kind (a person's, a place's, another: 建国 and 德福 read as places)."""
    return 1 <= len(word) <= 2 and bool(_ALL_HAN.fullmatch(word)) and (flag or "")[:2] in ("nr", "ns", "nz")


# ---------------------------------------------------------------- title-case entities

_LATIN_WORD = re.compile(r"(?<![A-Za-z\u00C0-\u024F0-9])[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F0-9'’\-]*")
_POSSESSIVE = re.compile(r"(?:['’]s?)$")
_CONNECTORS = _words("of the de del della da di du des la le van von der den y al bin ibn")
_INITIAL_GAP = re.compile(r"\.\s?")
_EN_STOPWORDS = _words(
    """a about above after again against ago all also although am an and any are aren't as at be because been
    before being below between both but by can could did do does doing done down during each either else even
    ever every few for from further had has have having he her here hers herself him himself his how however
    i if in into is isn't it its itself just least less let like many may me might more most much must my
    myself neither no nor not now of off often on once one only or other our ours ourselves out over own
    per please rather same shall she should since so some such than that the their theirs them themselves
    then there these they this those though through thus to too under until up upon us very via was wasn't
    we were weren't what whatever when where whereas whether which while who whom whose why will with within
    without would yes yet you your yours yourself yourselves s t d ll re ve m vs versus etc
    tell show give find list name describe explain compare define get make know want need
    gets got gotten getting
    did does like
    roughly approximately approx around nearly almost circa
    """
)
# Capitalised only because they start a sentence; never the first word of a name.
_SENTENCE_STARTERS = _EN_STOPWORDS | _words(
    """according additionally afterwards already although another around based born despite during
    eventually finally first following founded however including initially later located meanwhile
    moreover nevertheless note originally previously prior recently second since subsequently then third
    today together unlike upon yesterday tomorrow
    january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday"""
)
TITLE_CASE_CONFIDENCE = 0.5
_CALENDAR = _words(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday spring summer autumn fall winter"""
)
"""Words of a date or season: after a possessive they say which meeting or report of the name, never part of it
("Lanhe Appliances' March 2026 meeting", "the Library's May minutes")."""


def _joined(text: str, prev: re.Match[str], cur: re.Match[str]) -> bool:
    """Return True if two words are adjacent in a name: one space, or an initial's period."""
    gap = text[prev.end() : cur.start()]
    if gap == " ":
        return True
    word = prev.group()
    return len(word) == 1 and word.isupper() and _INITIAL_GAP.fullmatch(gap) is not None


def _trim(run: list[re.Match[str]]) -> list[re.Match[str]]:
    """Drop leading sentence starters/connectors and trailing connectors from a run of words."""
    start, end = 0, len(run)
    # (as contracted too: "What's", "Where's" open a question, they name nothing)
    while start < end and _POSSESSIVE.sub("", run[start].group().lower()) in _SENTENCE_STARTERS:
        start += 1
    while end > start and run[end - 1].group().lower() in _CONNECTORS:
        end -= 1
    return run[start:end]


def _runs(text: str) -> Iterable[list[re.Match[str]]]:
    """Yield maximal runs of capitalised words, lowercase connectors allowed inside."""
    run: list[re.Match[str]] = []
    for m in _LATIN_WORD.finditer(text):
        word = m.group()
        capital = word[0].isupper()
        if run and (capital or word in _CONNECTORS) and _joined(text, run[-1], m) and not (
                word.lower() in _CALENDAR and _POSSESSIVE.search(run[-1].group())):
            run.append(m)
            continue
        if run:
            yield run
        run = [m] if capital else []
    if run:
        yield run


def title_case_spans(text: str) -> list[EntitySpan]:
    """Return runs of capitalised latin words that look like names (e.g. "Christopher Nolan")."""
    spans: list[EntitySpan] = []
    for run in map(_trim, _runs(text)):
        if not run or (len(run) == 1 and len(run[0].group()) == 1):
            continue
        start = run[0].start()
        possessive = _POSSESSIVE.search(run[-1].group())
        end = run[-1].end() - (len(possessive.group()) if possessive else 0)
        entity = QueryEntity(
            text=text[start:end], type="OTHER", source="title_case", confidence=TITLE_CASE_CONFIDENCE
        )
        spans.append(EntitySpan(start, end, entity))
    return spans


# ---------------------------------------------------------------- all entities

ACCURATE_POS_MAX_CHARS = 512


def _date_spans(text: str, today: date) -> list[EntitySpan]:
    """Return the date expressions of ``text`` as DATE entity spans."""
    return [
        EntitySpan(
            s.start,
            s.end,
            QueryEntity(text=s.text, type="DATE", source="date_rule", confidence=0.95, date_range=s.range),
        )
        for s in find_dates(text, today)
    ]


def _gazetteer_spans(text: str, gazetteer: Gazetteer) -> list[EntitySpan]:
    """Return the known entities of ``text`` as spans."""
    return [
        EntitySpan(m.start, m.end, QueryEntity(text=m.surface, type=m.entities[0].type, source="gazetteer"))
        for m in gazetteer.matches(text)
    ]


def _pinyin_spans(text: str, gazetteer: Gazetteer) -> list[EntitySpan]:
    """Return the known Chinese names that ``text`` writes in pinyin ("renzhengfei") as spans."""
    return [
        EntitySpan(m.start, m.end, QueryEntity(text=m.surface, type=m.entities[0].type, source="pinyin",
                                               confidence=0.9))
        for m in gazetteer.pinyin_matches(text)
    ]


def _merge(layers: Iterable[list[EntitySpan]], length: int) -> list[EntitySpan]:
    """Keep spans from earlier layers; a later span is dropped if it overlaps a kept one."""
    covered = bytearray(length)
    kept: list[EntitySpan] = []
    for layer in layers:
        for span in layer:
            if span.end > span.start and not any(covered[span.start : span.end]):
                covered[span.start : span.end] = b"\x01" * (span.end - span.start)
                kept.append(span)
    return sorted(kept)


def entity_spans(
    text: str, gazetteer: Gazetteer, today: date, *, accurate_pos: bool = True
) -> list[EntitySpan]:
    """Return non-overlapping entities in text order; gazetteer > pinyin > dates > POS > title case."""
    accurate = accurate_pos and len(text) <= ACCURATE_POS_MAX_CHARS
    layers = (
        _gazetteer_spans(text, gazetteer),
        _pinyin_spans(text, gazetteer),
        _date_spans(text, today),
        pos_spans(text, accurate=accurate),
        title_case_spans(text),
    )
    return _merge(layers, len(text))


def _unique(spans: Iterable[EntitySpan]) -> list[EntitySpan]:
    """Drop repeated mentions of the same (case-folded text, type), keeping the first."""
    seen: set[tuple[str, str]] = set()
    unique: list[EntitySpan] = []
    for span in spans:
        key = (span.entity.text.casefold(), span.entity.type)
        if key not in seen:
            seen.add(key)
            unique.append(span)
    return unique


def extract_entities(text: str, gazetteer: Gazetteer, today: date) -> list[QueryEntity]:
    """Return the de-duplicated entities of a document passage (fast POS mode)."""
    return [s.entity for s in _unique(entity_spans(text, gazetteer, today, accurate_pos=False))]
