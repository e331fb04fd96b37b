"""The question's intent from cue words (no LLM): factual, conceptual, comparison, procedural, exploratory."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphs.domain import EntityType, Intent, QueryEntity
from graphs.text.normalize import normalize

__all__ = ["classify_intent"]

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
