"""Rule-based query analysis (no LLM): the entry point ``analyze_query`` (entities from ``entity_spotting``,
intent from ``intent``), complexity, keywords and logical relations."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from datetime import date

from graphs.domain import Complexity, Intent, LogicalRelation, ParsedQuery
from graphs.text.entity_spotting import (
    _EN_STOPWORDS,
    EntitySpan,
    _pos_tokenizer,
    _unique,
    _words,
    entity_spans,
)
from graphs.text.gazetteer import Gazetteer
from graphs.text.intent import classify_intent
from graphs.text.normalize import has_han, normalize

__all__ = [
    "COMPLEX_FROM",
    "SIMPLE_BELOW",
    "analyze_query",
    "complexity_features",
    "complexity_label",
    "complexity_score",
    "estimate_complexity",
    "extract_keywords",
    "logical_relations",
]

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
    多少 谁 哪里 哪儿 何时 什么时候 是不是 关于 除了 以外 之外 还有 其他 其它 哪家 哪位 如果 但 但是 因为 所以 然后 可能 已经 曾 曾经 着 过 地 得 大约 大概 大致 左右"""
)
_PUNCT_ONLY = re.compile(r"[\W_]+")


_FUNCTION_FLAGS = ("p", "c", "u", "y", "e", "o", "r", "q")
"""jieba's flags of prepositions, conjunctions, particles, modal words, interjections, onomatopoeia, pronouns and
classifiers: words that carry no content of what is asked (那家 of 那家玻璃厂, 被, 把)."""
_QUANTITY_QUESTION = re.compile(r"^(?:多少|几|多)[\u3400-\u9fff]?$")
COMMON_SHARE = 1e-3
"""A single Chinese verb or adverb that is at least this share of jieba's corpus words is a light verb or a
function word (到 0.34 %, 有, 能, 会, 去, 来, 要): never what a question asks about (a noun as common, 人 of 记录人,
is content). Content verbs that
do carry a relation stay below it (建 0.02 %, 死 0.05 %, 卖, 叫, 做 0.08 %)."""


def function_word(word: str, flag: str | None) -> bool:
    """Whether a Chinese word of a question is a function word, not content: by its part of speech (a
    preposition, particle, pronoun, classifier …), a quantity question word with its unit (多少度, 几个, 多高:
    the unit names the kind of answer, not the attribute), or a single-character verb or adverb as common as a function word."""
    if flag is not None and flag.startswith(_FUNCTION_FLAGS):
        return True
    if flag is None and len(word) > 1:
        # a word the dictionary does not tag, made of a pronoun and classifiers (那台, 这款): a determiner
        tags = _pos_tokenizer().word_tag_tab
        if all((tags.get(ch) or "x").startswith(_FUNCTION_FLAGS) for ch in word):
            return True
    if _QUANTITY_QUESTION.match(word):
        return True
    if len(word) == 1 and "\u3400" <= word <= "\u9fff" and (flag or "").startswith(("v", "d")):
        tokenizer = _pos_tokenizer().tokenizer
        return tokenizer.FREQ.get(word, 0) >= COMMON_SHARE * tokenizer.total
    return False


def _keyword(token: str, flag: str | None = None) -> str | None:
    """Return the keyword form of a token (lowercased), or None for stopwords, function words and punctuation."""
    word = token.strip().lower()
    if not word or _PUNCT_ONLY.fullmatch(word) or word in _ZH_STOPWORDS or word in _EN_STOPWORDS:
        return None
    if has_han(word) and function_word(word, flag):
        return None
    return word


def extract_keywords(text: str, spans: Sequence[EntitySpan] = ()) -> list[str]:
    """Return content words in order, unique: jieba tokens minus stopwords and function words, entity surfaces
    kept whole."""
    keywords: dict[str, None] = {}
    owner = {i: span for span in spans for i in range(span.start, span.end)}
    position = 0
    # the dictionary's tag of each word of the plain cut (the POS cut segments otherwise: 花是 for 花 / 是)
    tags = _pos_tokenizer().word_tag_tab
    for token in _pos_tokenizer().tokenizer.cut(text):
        flag = tags.get(token)
        start = text.find(token, position)
        if start < 0:
            continue
        position = start + len(token)
        span = owner.get(start) or owner.get(position - 1)
        word = span.entity.text if span is not None else _keyword(token, flag)
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
