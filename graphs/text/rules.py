"""Rule-based query analysis and entity extraction (no LLM): gazetteer, jieba POS, title case, dates, cues."""

from __future__ import annotations

import itertools
import logging
import re
import threading
import warnings
from collections.abc import Iterable, Sequence
from datetime import date
from typing import TYPE_CHECKING, NamedTuple

from graphs.domain import Complexity, EntityType, Intent, LogicalRelation, ParsedQuery, QueryEntity
from graphs.text.dates import find_dates
from graphs.text.gazetteer import Gazetteer
from graphs.text.normalize import has_han, normalize

if TYPE_CHECKING:
    from jieba.posseg import POSTokenizer

__all__ = [
    "EntitySpan",
    "analyze_query",
    "classify_intent",
    "entity_spans",
    "estimate_complexity",
    "extract_entities",
    "extract_keywords",
    "logical_relations",
    "pos_spans",
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
_FUNCTION_WORDS = ("p", "c", "r", "d", "u", "uj", "ul", "uz", "y", "e", "f")
"""jieba's flags of prepositions, conjunctions, pronouns, adverbs, particles and locatives: no part of a name."""


def possessor(question: str) -> str | None:
    """The name a Chinese question opens with and asks something of ("拼多多" of "拼多多的创始人是谁？", "张三" of
    "张三创办的公司有哪些？"); None for a pronoun or a demonstrative ("该公司的…"), or a clause with a
    preposition, a conjunction or an adverb in it ("苹果在北京发布的产品")."""
    m = _POSSESSOR.match(question)
    if m is None or _DATE_ONLY.match(m[1]):
        return None
    tokens = list(_tagged(m[1], accurate=True))
    if any(flag in _FUNCTION_WORDS for _, flag in tokens):
        return None
    while len(tokens) > 1 and tokens[-1][1] == "v":  # a relative clause: its subject is the name
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


def _pos_entity(word: str, flag: str | None) -> QueryEntity | None:
    """Map one tagged word to an entity, or None if it names nothing."""
    if len(word) < 2 or not _ALL_HAN.fullmatch(word):
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
    for word, flag in _tagged(text, accurate):
        start = position if text.startswith(word, position) else text.find(word, position)
        if start < 0:
            continue
        position = start + len(word)
        entity = _pos_entity(word, flag) if position - start > 1 else None
        if entity is not None:
            spans.append(EntitySpan(start, position, entity))
    return spans


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
    did does like
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
    while start < end and run[start].group().lower() in _SENTENCE_STARTERS:
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
        if run and (capital or word in _CONNECTORS) and _joined(text, run[-1], m):
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


# ---------------------------------------------------------------- intent

_COMPARATIVES = (
    r"older|oldest|younger|youngest|larger|largest|bigger|biggest|smaller|smallest|longer|longest|shorter"
    r"|shortest|taller|tallest|higher|highest|lower|lowest|earlier|earliest|later|latest|first|newer|newest"
    r"|closer|faster|heavier|richer|more|most|less|least|better|best|worse|worst"
)
_COMPARISON = re.compile(
    r"比较|对比|区别|差异|异同|不同之处|哪个更|哪一个更|谁先|谁更|还是|相比|优缺点|优劣"
    r"|\bcompar(?:e|ed|es|ing|ison)\b|\bdifferen(?:ce|ces|t) between\b|\bdiffer\b|\bvs\b|\bversus\b|\bboth\b"
    r"|\bin common\b|\brespective(?:ly)?\b|^between\b.*\band\b.*\b(?:which|who)\b"
    r"|\b(?:which|who)\b(?:\s+[\w'-]+){0,5}?\s+(?:" + _COMPARATIVES + r")\s*(?:[,?]|$)"
    r"|\b(?:which|who|what)\b[^?]*\b(?:" + _COMPARATIVES + r")\b[^?]*\bor\b"
    r"|\b(?:which|who)\b[^?,]*,[^,?]+\bor\b"
    r"|\b(?!other\b|rather\b)\w+er than\b|\bmore \w+ than\b"
    r"|^(?:are|were|is|was|do|does|did|have|has)\b.*\bthe same\b",
    re.ASCII,
)
# Chinese 如何/怎么 ask for a procedure only at the start or after the asker ("我该怎么"); "是怎么死的" and
# "外形是怎样的" ask for facts.
_PROCEDURAL = re.compile(
    r"^(?:请问)?\s*(?:如何|怎么(?!样)|怎样)|(?:我|我们|你|要|该|应该|才能|可以|能)(?:如何|怎么(?!样)|怎样)"
    r"|步骤|教程|流程|(?:的|什么|哪些)方法|方法(?:有哪些|是什么)"
    r"|\bhow (?:to|do i|do you|can i|can you|should i|does one|do we|can we)\b|\bsteps?\b|\bprocedure\b|\bguide to\b",
    re.ASCII,
)
_CONCEPT_STRONG = re.compile(
    r"什么叫|含义|定义|概念|原理|是指|指的是|什么意思"
    r"|\bdefine\b|\bdefinition of\b|\bmeaning of\b|\bexplain\b|\bconcept of\b|\bwhat does .+ mean\b|\bwhat is meant by\b",
    re.ASCII,
)
# "什么是X" at the start of a clause, "X是什么" at its end; "是什么时期的武将" asks for a fact.
_CONCEPT_WEAK = re.compile(
    r"(?:^|[，,。;；:：\s])(?:请问)?什么是|是什么(?:呢|啊)?\s*[？?。!！]*$|(?:^|[,.;:!?]\s*)what(?: is|'s| are)\b",
    re.ASCII,
)
# "What is the capital of France", "X 的 Y 是什么", "设计目的是什么": asking for a fact, not a definition.
_CONCEPT_FACT_FORM = re.compile(
    r"\bwhat(?: is|'s| are| was| were) (?:the|a|an) [\w\s'-]*?\b(?:of|in|for|by|from|that|which|who|whose|on|at|to)\b"
    r"|\bwhat(?: is|'s| are) [\w\s-]+'s\b|的[^，。？?,]{1,12}是什么"
    r"|(?:目的|原因|名字|名称|作用|用途|特点|结果|身份|职业|简称|全称|别称|角色|地位|方式|时间|地点|价格|数量)是什么",
    re.ASCII,
)
_EXPLORE_STRONG = re.compile(
    r"有哪些趋势|趋势|介绍一下|概况|概述|综述|现状|前景|\btell me about\b|\boverview\b|\btrends?\b|\blandscape\b",
    re.ASCII,
)
_EXPLORE_WEAK = re.compile(
    r"的发展|发展(?:历程|情况|方向|史)?\s*[？?。!！]*$|介绍|\bhistory of\b|\bdevelopments?\b|\bstate of\b",
    re.ASCII,
)
# Wh-words that ask for a specific fact even when a conceptual word (概念, 定义) is present.
_FACTUAL_STRONG = re.compile(
    r"谁|哪里|哪儿|何时|什么时候|哪一?年|多少|几[个年月日位次岁]"
    r"|\bwho(?:m|se)?\b|\bwhen\b|\bwhere\b|\bhow (?:many|much)\b",
    re.ASCII,
)
_FACTUAL = re.compile(
    r"有哪些|哪些|哪[个一国家位]|是否|吗"
    r"|\bwhich\b|\bhow (?:long|old|far|big)\b"
    r"|\bwhat (?:year|time|date|type|kind|language|country|city|nationality|genre)\b"
    r"|^(?:is|are|was|were|did|does|do|has|have|can)\b",
    re.ASCII,
)
_SPECIFIC_TYPES: frozenset[EntityType] = frozenset(
    {"PERSON", "ORGANIZATION", "LOCATION", "PRODUCT", "EVENT", "DATE"}
)


def _conceptual_is_factual(query: str, entities: Sequence[QueryEntity]) -> bool:
    """Return True if a "what is" question asks for a fact (X of Y, or about a specific named entity)."""
    if _CONCEPT_FACT_FORM.search(query):
        return True
    return any(e.type in _SPECIFIC_TYPES and e.source in ("gazetteer", "pos", "llm") for e in entities)


def classify_intent(text: str, entities: Sequence[QueryEntity] = ()) -> tuple[Intent, float]:
    """Return the query's intent from cue words, with a confidence in [0, 1]."""
    query = normalize(text).replace("’", "'")
    if _COMPARISON.search(query):
        return "comparison", 0.85
    if _PROCEDURAL.search(query):
        return "procedural", 0.85
    specific = _FACTUAL_STRONG.search(query) is not None
    if _CONCEPT_STRONG.search(query) and not specific:
        return "conceptual", 0.85
    if _EXPLORE_STRONG.search(query):
        return "exploratory", 0.8
    factual_cue = specific or _FACTUAL.search(query) is not None
    if _EXPLORE_WEAK.search(query) and not factual_cue:
        return "exploratory", 0.65
    if _CONCEPT_WEAK.search(query) and not specific:
        return ("factual", 0.7) if _conceptual_is_factual(query, entities) else ("conceptual", 0.75)
    return "factual", 0.8 if factual_cue else 0.55


# ---------------------------------------------------------------- complexity

_MULTI_STEP = re.compile(
    r"并且|然后|分别|以及|同时|之后|接着|此外|另外"
    r"|\band then\b|\bboth\b|\bcompar(?:e|ed|ing|ison)\b|\brespectively\b|\bas well as\b|\bafter that\b|\bin addition\b",
    re.ASCII,
)
_OF = re.compile(r"\bof\b", re.ASCII)
_RELATIVE = re.compile(r"\b(?:who|whose|whom|which|that|where)\b", re.ASCII)
# A described noun phrase: "the film in which…", "a university located in…", "a man born in…" — the
# question reaches its answer through another entity first (a bridge).
_BRIDGE = re.compile(
    r"\b(?:a|an|the)\s+(?:[\w'&-]+\s+){0,3}?[\w'&-]+\s+"
    r"(?:that|which|who|whom|whose|where|(?:in|on|for|of|at|by) which|located|founded|created|born|produced|"
    r"released|directed|written|based|known|named|owned|formed|headquartered|featured|featuring|starring|"
    r"called|broadcast|published|designed|built|composed|performed|played|won)\b"
    r"|\bthe\s+(?:[\w'&-]+\s+){0,2}?[\w'&-]+\s+of\s+(?:the|a|an)\s"
    r"|(?:的|所)(?:创办|创立|成立|出版|导演|主演|位于|出生|发明|设计)的",
    re.ASCII | re.IGNORECASE,
)
_UNITS = re.compile(r"[\u3400-\u9fff]|[A-Za-z\u00C0-\u024F]+|\d+")
SIMPLE_BELOW = 0.3
COMPLEX_FROM = 0.55


def _masked(text: str, spans: Sequence[EntitySpan]) -> str:
    """Replace each entity span by a placeholder so words inside names are not read as structure."""
    parts: list[str] = []
    position = 0
    for span in spans:
        parts.extend([text[position : span.start], " X "])
        position = span.end
    parts.append(text[position:])
    return "".join(parts)


def _nesting(masked: str) -> int:
    """Count chained relations: "of", relative pronouns after the first word, repeated 的."""
    lowered = masked.lower()
    first = re.match(r"\s*\w+", lowered)
    rest = lowered[first.end() :] if first else lowered
    return len(_OF.findall(lowered)) + len(_RELATIVE.findall(rest)) + max(0, masked.count("的") - 1)


_QUESTION_WORDS = re.compile(
    r"\b(?:who|whom|whose|what|which|when|where|why|how)\b|谁|什么|哪|何时|为什么|怎么|如何|多少|几",
    re.ASCII | re.IGNORECASE,
)
_CALCULATION = re.compile(
    r"\b(?:how (?:many|much|long|old)|total|sum|average|difference|percent(?:age)?|calculate|combined)\b"
    r"|多少|几[个年岁次位]|总共|一共|合计|平均|相差|差多少|百分之|比例|计算",
    re.IGNORECASE,
)


def complexity_features(text: str, spans: Sequence[EntitySpan], intent: Intent) -> dict[str, float]:
    """The static features the complexity score is built from (counts and 0/1 cues)."""
    masked = _masked(text, spans)
    return {
        "length": float(len(_UNITS.findall(text))),
        "question_words": float(len(_QUESTION_WORDS.findall(text))),
        "entities": float(len(spans)),
        "multi_step_cues": float(len(_MULTI_STEP.findall(normalize(text)))),
        "comparison": 1.0 if intent == "comparison" else 0.0,
        "calculation": 1.0 if _CALCULATION.search(text) else 0.0,
        "nesting": float(_nesting(masked)),
        "bridge": 1.0 if _BRIDGE.search(masked) else 0.0,
    }


def complexity_score(f: dict[str, float]) -> float:
    """A score in [0, 1] from the features: length, entities, cues, comparison, nesting and bridges
    (question words and calculation cues are reported, not scored)."""
    cues = f["multi_step_cues"]
    score = 0.25 * min(f["length"] / 30, 1.0)
    score += 0.2 * min(f["entities"] / 3, 1.0)
    score += (0.25 if cues else 0.0) + (0.1 if cues > 1 else 0.0)
    score += 0.2 * f["comparison"]
    score += 0.0 if f["nesting"] <= 1 else min(0.25 * f["nesting"], 0.6)
    score += 0.3 * f["bridge"]
    return round(min(score, 1.0), 3)


def complexity_label(score: float) -> Complexity:
    """simple below 0.3, complex from 0.55, moderate between."""
    return "simple" if score < SIMPLE_BELOW else "moderate" if score < COMPLEX_FROM else "complex"


def estimate_complexity(text: str, spans: Sequence[EntitySpan], intent: Intent) -> tuple[Complexity, float]:
    """Return simple/moderate/complex and a score in [0, 1] from length, entities, cues and nesting."""
    score = complexity_score(complexity_features(text, spans, intent))
    return complexity_label(score), score


# ---------------------------------------------------------------- keywords

_ZH_STOPWORDS = _words(
    """的 了 是 在 和 与 及 以及 或 或者 还是 有 有哪些 哪些 哪个 哪 什么 怎么 怎样 如何 为什么 吗 呢 吧 啊 呀 嘛
    我 你 他 她 它 我们 你们 他们 她们 它们 这 那 这个 那个 这些 那些 之 其 就 都 而 及其 并 并且 也 又 还 被 把 让
    从 对 向 于 以 给 为 由 所 等 等等 个 一个 一些 上 下 中 里 请 请问 一下 能 会 可以 要 想 是否 不 没有 没 很 最
    多少 谁 哪里 哪儿 何时 什么时候 是不是 关于 除了 以外 之外 还有 其他 其它 哪家 哪位 如果 但 但是 因为 所以 然后 可能 已经 曾 曾经 着 过 地 得"""
)
_PUNCT_ONLY = re.compile(r"[\W_]+")


def _keyword(token: str) -> str | None:
    """Return the keyword form of a token (lowercased), or None for stopwords and punctuation."""
    word = token.strip().lower()
    if not word or _PUNCT_ONLY.fullmatch(word) or word in _ZH_STOPWORDS or word in _EN_STOPWORDS:
        return None
    return word


def extract_keywords(text: str, spans: Sequence[EntitySpan] = ()) -> list[str]:
    """Return content words in order, unique: jieba tokens minus stopwords, entity surfaces kept whole."""
    keywords: dict[str, None] = {}
    owner = {i: span for span in spans for i in range(span.start, span.end)}
    position = 0
    for token in _pos_tokenizer().tokenizer.cut(text):
        start = text.find(token, position)
        if start < 0:
            continue
        position = start + len(token)
        span = owner.get(start) or owner.get(position - 1)
        word = span.entity.text if span is not None else _keyword(token)
        if word:
            keywords.setdefault(word, None)
    return list(keywords)


# ---------------------------------------------------------------- logical relations

_SEPARATORS = re.compile(r"[\s,，、;；/]+")
_AND_WORDS = frozenset({"", "和", "与", "及", "以及", "跟", "同", "并", "and", "&", "as well as", "plus"})
_OR_WORDS = frozenset({"或", "或者", "或是", "还是", "or", "either", "and/or"})
_NOT_BEFORE = re.compile(
    r"(?:不是|不包括|不包含|不含|除了|除去|排除|而非|并非|非|不)(?:在|是|于|包括|属于|来自|由|要|用|含)?\s*$"
    r"|\b(?:not|except|excluding|without|other than|apart from|but not|rather than|no)\s+"
    r"(?:(?:in|from|by|at|of|the|a|an|including|made by|located in)\s+)*$",
    re.IGNORECASE | re.ASCII,
)


def _joiner(gap: str) -> str | None:
    """Return AND/OR if ``gap`` coordinates two entities, None if it separates them."""
    if not gap.strip():
        return None
    word = _SEPARATORS.sub(" ", gap).strip().lower()
    if word in _AND_WORDS:
        return "AND"
    return "OR" if word in _OR_WORDS else None


def _or_groups(text: str, spans: Sequence[EntitySpan]) -> list[list[str]]:
    """Return chains of entities coordinated by a list that contains an OR word."""
    groups: list[list[str]] = []
    chain: list[EntitySpan] = list(spans[:1])
    has_or = False
    for prev, cur in itertools.pairwise(spans):
        joiner = _joiner(text[prev.end : cur.start])
        if joiner is not None:
            chain.append(cur)
            has_or = has_or or joiner == "OR"
            continue
        if has_or:
            groups.append([s.entity.text for s in chain])
        chain, has_or = [cur], False
    if has_or:
        groups.append([s.entity.text for s in chain])
    return groups


def _negated(text: str, spans: Sequence[EntitySpan]) -> list[str]:
    """Return the entities preceded by a negation cue (不, 除了, not, except, without ...)."""
    ends = [0, *(s.end for s in spans)]
    return [
        s.entity.text
        for s, before in zip(spans, ends, strict=False)
        if _NOT_BEFORE.search(text[before : s.start])
    ]


def _dedup(names: Iterable[str]) -> list[str]:
    """Return names in order without repeats."""
    return list(dict.fromkeys(names))


def logical_relations(text: str, spans: Sequence[EntitySpan]) -> list[LogicalRelation]:
    """Return AND over the positive entities outside OR lists, OR per OR list, NOT per negated entity."""
    negated = _dedup(_negated(text, spans))
    groups = [
        g
        for g in (_dedup(n for n in group if n not in negated) for group in _or_groups(text, spans))
        if len(g) > 1
    ]
    in_or = {name for group in groups for name in group}
    conjuncts = _dedup(
        s.entity.text for s in spans if s.entity.text not in negated and s.entity.text not in in_or
    )
    relations = [LogicalRelation(operator="AND", entities=conjuncts)] if len(conjuncts) > 1 else []
    relations += [LogicalRelation(operator="OR", entities=g) for g in groups]
    relations += [LogicalRelation(operator="NOT", entities=[name]) for name in negated]
    return relations


# ---------------------------------------------------------------- entry point


def _recognition(
    text: str, spans: Sequence[EntitySpan], keywords: Sequence[str], intent_confidence: float
) -> float:
    """Return the parse confidence: intent certainty plus the share of content covered by entities."""
    content = sum(len(k) for k in keywords)
    covered = sum(len(s.entity.text) * s.entity.confidence for s in spans)
    coverage = min(covered / content, 1.0) if content else 0.0
    return round(min(0.3 + 0.3 * intent_confidence + 0.4 * coverage, 0.95), 3) if text.strip() else 0.0


def analyze_query(text: str, gazetteer: Gazetteer, today: date) -> ParsedQuery:
    """Parse a query without an LLM: entities, relations, intent, complexity and keywords."""
    spans = _unique(entity_spans(text, gazetteer, today))
    entities = [s.entity for s in spans]
    intent, intent_confidence = classify_intent(text, entities)
    features = complexity_features(text, spans, intent)
    score = complexity_score(features)
    keywords = extract_keywords(text, spans)
    return ParsedQuery(
        original_query=text,
        entities=entities,
        logical_relations=logical_relations(text, spans),
        intent=intent,
        complexity=complexity_label(score),
        complexity_score=score,
        complexity_features=features,
        confidence=_recognition(text, spans, keywords, intent_confidence),
        keywords=keywords,
        parser="rules",
    )
