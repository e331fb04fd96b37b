"""Whether the values the evidence offers are the asked attribute's, of the asked subject, for the asked period.

A sentence about the subject may hold a value of the asked type that belongs to something else (the profit
growth for the sales growth, another brand's sales, the injured for the dead, another year's figure). The words
that govern each value (``graphs.text.governors``) decide: a value governed by another attribute, another named
subject of the asked one's kind, or another year is no evidence. When the answering sentence's values all belong
elsewhere and no candidate sentence holds a value governed by the asked attribute, the answer is "not found",
with a reason naming what the found value belongs to."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from graphs.domain import Hit
from graphs.ingest.formats.base import SECTION_SEPARATOR
from graphs.rag.answer.attributes import lexicon, same_attribute, same_group, same_label
from graphs.rag.answer.calibration import (
    CANDIDATES,
    Judgement,
    answer_spans,
    answering,
    asked_kind,
    predicate_terms,
    sentence_names,
)
from graphs.rag.answer.evidence import Sentence, in_other_language
from graphs.rag.answer.question import EVIDENCE_PASSAGES, Question
from graphs.text.answer_types import AnswerType
from graphs.text.dates import day_term, days_named
from graphs.text.entity_spotting import tagged_words
from graphs.text.fields import field_of, row_key_forms
from graphs.text.governors import (
    CHANGE_EN,
    CHANGE_ZH,
    FOR_WORK_EN,
    MEASURES_EN,
    MEASURES_ZH,
    ROLE_GROUPS,
    TITLE_BEFORE,
    ItemClause,
    asked_act,
    asked_role,
    asked_title,
    carried_over,
    event_matches,
    event_of,
    governors,
    head_across,
    is_title,
    item_clauses,
    name_role,
    names_event,
    narrative,
    relative,
    role_heads,
    role_matches,
    role_words,
    same_act,
    same_measure,
    same_part,
    words_at,
    year_of,
)
from graphs.text.normalize import has_han, normalize
from graphs.text.relations import asked_elsewhere, governing
from graphs.text.sentences import split_sentences, without_markers
from graphs.text.spans import Span
from graphs.text.terms import stem
from graphs.text.units import asked_dimensions, dimension_word, money_word, value_dimension


@functools.cache
def _measure_words() -> tuple[str, ...]:
    """The lexicon's words for quantities (the specific attributes of type number): words that govern a value."""
    return tuple(w for a in lexicon() if a.kind == "number" and not a.generic for w in a.words
                 if not any(ch.isdigit() for ch in w) and w not in ("how much", "多少钱", "元起"))


@dataclass(frozen=True)
class Elsewhere:
    """A value of the asked type and what it belongs to instead of what is asked."""

    value: str
    attribute: str | None = None
    subject: str | None = None
    period: str | None = None


_GENERIC = frozenset({"数量", "数目", "总数", "多少", "总", "number", "total", "amount", "people", "persons"})
_ASKING = re.compile(r"多少|几|什么|哪|how many|how much|what|which", re.IGNORECASE)


def asked_words(q: Question, judgement: Judgement) -> list[str]:
    """The words of what is asked: the quantity words the question writes (议席 of 有多少个议席, 销量 of
    销量同比增长多少, "passengers" and "injured" of "how many passengers were injured"), else its own word nearest
    its question word (the last one when it has none), and the lexicon's words of its specific attribute (死亡,
    遇难 for a death toll). Words of change (增长, rose) and generic ones (数量) are no head."""
    change = {w.casefold() for w in (*CHANGE_ZH, *CHANGE_EN)}
    text = q.text
    measures = [*MEASURES_ZH, *MEASURES_EN, *_measure_words()]
    # the question's own words, less its question words (多长 asks a length, it is no word a passage writes)
    own = [t for t in q.relation if len(t) >= 2 and not any(ch.isdigit() for ch in t) and not _ASKING.search(t)
           and not t.startswith("多")]
    usable = lambda w: w.casefold() not in change and w.casefold() not in _GENERIC  # noqa: E731
    names = [f for forms in q.anchors for f in forms if f]
    inside = [(m.start(), m.end()) for n in names for m in re.finditer(re.escape(n), text.casefold())]
    asking = [m.start() for m in _ASKING.finditer(text)]

    def heads(vocabulary: Sequence[str]) -> list[tuple[int, int]]:
        return [(a, b) for a, b in words_at(text, vocabulary) if usable(text[a:b])
                and not any(x <= a and b <= y for x, y in inside)]

    # every quantity word the question writes ("how many passengers were injured": the counted noun and the
    # attribute both); of its own words, when it writes none, the one nearest its question word
    words: list[str] = [text[a:b] for a, b in heads(measures)]
    if not words and (found := heads(own)):
        a, b = min(found, key=lambda ab: min(abs(ab[0] - x) for x in asking)) if asking else found[-1]
        words.append(text[a:b])
    asked = judgement.asked
    if asked is not None and not asked.attribute.generic and asked.attribute.kind == "number":
        words += [w for w in asked.attribute.words if usable(w) and not any(ch.isdigit() for ch in w)]
    return list(dict.fromkeys(words))


def question_years(q: Question) -> tuple[str, ...]:
    """The years the question names (its dates' years and the years it writes)."""
    return tuple(dict.fromkeys([*q.years, *(m[1] for m in _YEAR.finditer(q.text))]))


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")


def _anchor_types(q: Question) -> dict[str, str]:
    """The question's named subjects (folded spellings) with the type the passages give them."""
    out = {}
    for forms in q.anchors:
        # the passages' tag of the name, or of a longer name that holds it (青川 of 青川汽车)
        kind = next((q.types[f] for f in forms if f in q.types), None) or next(
            (k for name, k in q.types.items() for f in forms if f and f in name), None)
        if kind:
            out.update({f: kind for f in forms if f})
    return out


_ORG_NAME = re.compile(
    r"(?:(?<=[的，,。、在与和同年月日为及：:“”\s（(])|^)([\u4e00-\u9fff]{2,4}?(?:汽车|集团|公司|银行|电器|股份|科技|乳业|航空|电子|地产|证券|保险|医药|食品|能源|电气|重工|"
    r"钢铁|化工|传媒|物流|港务|控股))(?=[^\u4e00-\u9fff]|[的在于与和同今去前近已将首销营净利总全年称表说则也还宣披指预]|$)|"
    r"\b((?:[A-Z][a-z]+\s){1,3}(?:Bank|Group|Motors|Airlines|Airways|Foods|Holdings|Corporation|Corp|Inc|Ltd|Energy|"
    r"Pharma|Dairy|Steel|Media|Insurance))\b")
"""A company name by its kind word (湖岭汽车, 青禾乳业, "Dunmore Bank"): the tagger reads 湖岭 as a place."""


def organizations(text: str) -> dict[str, str]:
    """The company names a sentence writes with their kind word (folded name → ORGANIZATION)."""
    out = {}
    for m in _ORG_NAME.finditer(text):
        name = normalize(m[1] or m[2])
        out[re.sub(r"^(?:(?:rival|the|its|their|state-owned|local|british|chinese)\s)+", "", name)] = "ORGANIZATION"
    return out


_LATIN_NAME = re.compile(r"(?<![A-Za-z0-9])([A-Z][A-Za-z]*[a-z][A-Za-z]*(?:\s+(?:[A-Z][A-Za-z]*|\d{1,4}))*)(?![A-Za-z])")


def latin_names(text: str) -> dict[str, str]:
    """The names a Chinese sentence writes in Latin letters (a product or a brand: "AirPods Pro 2", "Vela"), folded,
    as the subjects they are (ORGANIZATION): in ``新品AirPods Pro 2售价1899元`` the price is AirPods Pro 2's. An
    English sentence is all Latin letters: none."""
    if not has_han(text):
        return {}
    return {normalize(m[1]): "ORGANIZATION" for m in _LATIN_NAME.finditer(text) if len(m[1]) >= 3}


def judge_value(q: Question, sentence: Sentence, hit: Hit | None, start: int, end: int,
                words: Sequence[str]) -> Elsewhere | bool | None:
    """For the value at ``sentence.text[start:end]``: ``True`` when the asked attribute governs it, an
    ``Elsewhere`` when another attribute, subject, year or part of a year does (or the attribute narrowed by
    words the question does not write: 新能源汽车销量 for 销量), None when the sentence does not say."""
    text = sentence.text
    names = {**sentence_names(text, sentence.folded, hit), **organizations(text), **latin_names(text)}
    anchors = _anchor_types(q)
    gov = governors(text, start, end, attributes=[*_measure_words(), *words], names=[*anchors, *names])
    value = text[start:end]
    subject = None
    carried = gov.subject is None and carried_over(text, start)
    if carried and (before := carried_subject(sentence, hit, anchors)) is not None:
        # "Its revenue rose 6%", 该公司营收增长6%: the subject is the sentence before's
        previous, names[previous] = before
        gov = dataclasses.replace(gov, subject=previous)
        if normalize(previous) in anchors or any(normalize(previous) in f or f in normalize(previous)
                                                 for forms in q.anchors for f in forms if f):
            gov = dataclasses.replace(gov, subject=None)  # the asked subject's own value, carried by a pronoun
    if gov.subject is not None:
        key = normalize(gov.subject)
        kind = names.get(key) or names.get(gov.subject)
        # the question's names as the passages spell them, else as it writes them (a brand no tag validated)
        spelled = [f for forms in q.anchors for f in forms if f] or [normalize(n) for n in q.names if n]
        unnamed = bool(spelled) and (carried or not any(f in sentence.folded for f in spelled))
        if key not in anchors and kind in _SUBJECT_KINDS and (kind in anchors.values() or unnamed) and not any(
                key in a or a in key for a in [*anchors, *spelled]):
            subject = gov.subject  # another company's, person's value (the asked one not named in its sentence)
    period = None
    years = question_years(q)
    folded_q = normalize(q.text)
    if years:
        year = year_of(gov.period)
        if (year is not None and year not in years) or (relative(gov.period) and any(y in text for y in years)):
            period = gov.period
    if period is None and gov.part is not None and normalize(gov.part) not in folded_q \
            and not same_part(gov.part, q.text):
        period = gov.part  # 一季度, 上半年: a part of the year asked about as a whole
    # a governing word of the other language is the asked one where the bilingual lexicon says so ("passengers" for
    # 乘客, 桥墩 for "piers"): it cannot be written the question's way; so is a synonym of one label group ("injured"
    # for "got hurt")
    attribute = gov.attribute if gov.attribute is not None and not same_measure(gov.attribute, words) \
        and not any(same_label(gov.attribute, w) or same_group(gov.attribute, w) for w in words) else None
    if attribute is None and gov.attribute is not None and narrowed(gov.modifier, folded_q, names=anchors):
        attribute = f"{gov.modifier}{'' if has_han(gov.modifier) else ' '}{gov.attribute}"
    if attribute is not None and (asked := asked_dimensions(q.text)) \
            and (named := dimension_word(attribute)) in asked \
            and (value_dimension(text, start, end) == named or (named == "money" and _money(text, start, end))) \
            and (named != "money" or _money_role_held(q, sentence)):
        # the value's word names the dimension asked and its unit is of it: 会费30元 for 一年要交多少钱, "an
        # allowance of 35p" for "how much do they get per mile", 最高控制温度1300℃ for 最高能控制到多少度
        attribute = None
    if attribute is None and _asks_money(words) and not _money(text, start, end):
        attribute = "数字" if has_han(text) else "number"  # AirPods Pro 2 for a price: a number, no amount of money
    if subject or period or attribute:
        return Elsewhere(value, attribute, subject, period)
    return True if gov.attribute is not None else None


_SUBJECT_KINDS = frozenset({"ORGANIZATION", "PERSON"})
"""The kinds of names whose values a sentence gives side by side (a brand's sales beside another's); places are
named in passing too often (印度教寺庙 in a sentence about Kashmir) to be taken for the subject."""


_PRICE_WORDS = frozenset({"价格", "售价", "定价", "价钱", "起售价", "报价", "票价", "单价", "门票", "费用", "收费", "price",
                          "priced", "costs", "cost", "fee", "fare", "retails", "sells for", "ticket"})
_CURRENCY = re.compile(r"[元块角$￥¥€£]|美元|欧元|英镑|日元|港元|港币|人民币|\b(?:usd|rmb|cny|eur|gbp|dollars?|euros?|pounds?|"
                       r"yuan|cents?|pence)\b", re.IGNORECASE)


def _money_role_held(q: Question, sentence: Sentence) -> bool:
    """Whether an amount of money in ``sentence`` may answer a question that asks money (``units.asked_dimensions``)
    whatever word governs it: the question names no role of the amount of its own (一年要交多少钱, "how much do
    volunteers get per mile": any money the subject pays or is paid), or the sentence writes the role it names
    (押金 of 帐篷租赁押金 under the column 价格). A question naming another role (停车费) is not answered by a 押金."""
    roles = [t for t in q.relation if money_word(t) and t.casefold() not in _PRICE_WORDS]
    return not roles or any(normalize(r) in sentence.folded for r in roles)


def _asks_money(words: Sequence[str]) -> bool:
    return any(w.casefold() in _PRICE_WORDS for w in words)


def _money(text: str, start: int, end: int) -> bool:
    """Whether the value at ``text[start:end]`` is an amount of money: a currency sign or word in it or right
    next to it (3999元, ¥3,999, $49, 49 dollars)."""
    return bool(_CURRENCY.search(text[max(0, start - 2) : end + 6])) or value_dimension(text, start, end) == "money"


NARROWING_HAN = 3
"""Chinese characters the question does not write, in the words before the attribute, that make it a narrower
attribute (新能源 of 新能源汽车销量 for a question about all sales; 全球 or 国内 alone do not)."""


def narrowed(modifier: str, question: str, names: Iterable[str] = ()) -> bool:
    """Whether the words narrowing an attribute (``Governors.modifier``) say what the question (folded) does not:
    at least ``NARROWING_HAN`` Chinese characters it does not write."""
    if not has_han(question):
        return False  # an English question cannot write a Chinese sentence's modifier (除湿机 of 除湿机适用面积)
    rest = normalize(modifier)
    for n in names:
        rest = rest.replace(n, " ")
    # Chinese only: an English modifier is as often the question's words paraphrased ("late returns cost" for
    # "the late fee") as a narrower attribute
    return has_han(rest) and sum(1 for ch in rest if has_han(ch) and ch not in question) >= NARROWING_HAN


def misgoverned(q: Question, judgement: Judgement, hits: Sequence[Hit]) -> Elsewhere | None:
    """What the evidence's values belong to when no candidate sentence holds a value the asked attribute governs
    and the values found belong elsewhere (another attribute, subject or year): one of the answering sentence's,
    or — when that sentence holds no value of the type — one of the other candidates'. None when the evidence
    stands, or says too little to tell (a value no word governs leaves it open)."""
    if not judgement.evidence or asked_kind(q, judgement.asked) != "number":
        return None
    words = asked_words(q, judgement)
    if not words:
        return None
    top = answering(judgement.evidence[0])
    verdicts = [judge_value(q, top, _hit(hits, top), s.start, s.end, words) for s in answer_spans(q, top, "number")]
    elsewhere = [v for v in verdicts if isinstance(v, Elsewhere)]
    if any(v is True for v in verdicts) or (verdicts and not elsewhere) or (
            any(v is None for v in verdicts) and all(v.period and not v.attribute and not v.subject for v in elsewhere)):
        # one value is the asked attribute's, or no value of the sentence is known to be another's, or the others
        # are only another period's beside one no word is known to govern ("carried 88,400 passengers in 2025, up
        # from 81,900 in 2024"; 较2024年的37,900盏): the year compared with does not make the sentence another's
        return None
    others: list[Elsewhere] = []
    for e in judgement.evidence[:CANDIDATES]:
        for s in e.sentences:
            if s is top:
                continue
            for span in answer_spans(q, s, "number"):
                verdict = judge_value(q, s, _hit(hits, s), span.start, span.end, words)
                if verdict is True:
                    return None
                if isinstance(verdict, Elsewhere):
                    others.append(verdict)
    return next((v for v in verdicts if isinstance(v, Elsewhere)), others[0] if others else None)


def _hit(hits: Sequence[Hit], sentence: Sentence) -> Hit | None:
    return hits[sentence.hit] if sentence.hit < len(hits) else None


def elsewhere_reason(found: Elsewhere, names: str, what: str, years: Sequence[str] = ()) -> str:
    """The reason of a "not found" whose value belongs elsewhere, naming what it belongs to."""
    owner = found.subject or names or "the subject"
    if found.subject:
        return f"the passages give {found.value} for {found.subject}, not for {names or 'the asked subject'}"
    if found.attribute:
        of = f" ({found.period})" if found.period else ""
        return f"the passages give {owner}'s {found.attribute}{of} ({found.value}), not its {what}"
    stated = year_of(found.period) or found.period
    asked = ", ".join(years) if years and year_of(found.period) else "the asked period"
    return f"the passages give {what} of {owner} ({found.value}) for {stated}, not for {asked}"


def carried_subject(sentence: Sentence, hit: Hit | None, known: dict[str, str]) -> tuple[str, str] | None:
    """The subject of the sentence before ``sentence`` in its passage, with its kind: its first company or person
    (a name the passages tag, one written with its kind word, or one of ``known``: folded name → kind), folded;
    None when there is no sentence before or it names none."""
    if hit is None or sentence.position <= 0:
        return None
    raw = split_sentences(without_markers(hit.text)) or [hit.text]
    if sentence.position >= len(raw) or raw[sentence.position] != sentence.text:
        return None
    previous = raw[sentence.position - 1]
    folded = normalize(previous)
    kinds = {**known, **sentence_names(previous, folded, hit), **organizations(previous)}
    spots = [(folded.find(n), n) for n, k in kinds.items() if n and k in _SUBJECT_KINDS and folded.find(n) >= 0
             and not _SOURCE_BEFORE.search(folded[: folded.find(n)])
             and not _SOURCE_AFTER.match(folded[folded.find(n) + len(n) :])]
    return (min(spots)[1], kinds[min(spots)[1]]) if spots else None


_SOURCE_BEFORE = re.compile(r"(?:据|援引|来源[：:]?|according to|reported by)\s*$")
_SOURCE_AFTER = re.compile(r"^\s*(?:报道|消息|记者|援引|获悉|网|电|讯|reported|reports|said on|reporter)")
"""A news source named in the sentence before (据新华社报道, "according to Reuters"): not the subject carried over."""
_TITLE = re.compile(r"《([^》]{1,30})》")


def judge_name(q: Question, sentence: Sentence, start: int, end: int, kind: str) -> Elsewhere | bool | None:
    """For the name (``kind`` person) or the date or place (``kind`` date, place) at ``sentence.text[start:end]``:
    ``True`` when the role or event the question asks governs it, an ``Elsewhere`` when another role (最佳女主角
    for 编剧, the men's doubles title for the women's singles, another competition's champion), another work
    (最佳编剧：X《远山》 for 《长河》) or another event (the press conference's venue for the tournament's) does;
    None when its sentence does not say."""
    text = sentence.text
    value = text[start:end]
    if kind == "person":
        gov = name_role(text, start, end, _asked_roles(q))
        asked_titles = [normalize(t) for t in _TITLE.findall(q.text)]
        if gov.work is not None and asked_titles and normalize(gov.work) not in asked_titles:
            return Elsewhere(value, attribute=gov.roles[0] if gov.roles else None, subject=f"《{gov.work}》")
        if gov.work is not None and not asked_titles and not has_han(gov.work) and _ASKS_WORK_EN.search(q.text) \
                and normalize(gov.work) not in normalize(q.text):
            # "won Best Actress for Harbour Lights" when the question asks it for The Long River
            return Elsewhere(value, attribute=gov.roles[0] if gov.roles else None, subject=gov.work)
        verdicts = [role_matches(r, q.text) for r in gov.roles]
        if any(v is True for v in verdicts):
            return True
        if verdicts and all(v is False for v in verdicts):
            return Elsewhere(value, attribute=gov.roles[0])
        return None
    if kind == "date" and (years := question_years(q)) and (stated := year_of(value)) is not None \
            and stated not in years:
        return Elsewhere(value, period=stated)  # 2023年 for a question of 2022
    event = event_of(text, start, end) if names_event(q.text) else None
    if event is not None and event.event is not None:
        return True if event_matches(event.event, q.text) else Elsewhere(value, attribute=event.phrase or event.event)
    if kind != "date":
        return None  # the question names no event to hold the place against
    # the relation the question asks (当选, joined, 成立, opened …) against the one the date's clause states:
    # 成立于二〇〇八年 does not date when the current leader was elected, "founded in 1994" not when she joined
    own = asked_elsewhere(q.text, text, start, end)
    if own is None:
        return None
    return True if own else Elsewhere(value, attribute=" / ".join(sorted(governing(text, start, end))))


_ASKS_WORK_EN = re.compile(r"\b(?:for|in)\s+(?:the\s+(?:film|movie|series|show|play|novel|album|song)\s+)?[\"“]?[A-Z]")
"""An English question that names the work a role is asked for ("Best Actress for The Long River")."""
_NAMED_KINDS = frozenset({"person", "date", "place"})


def misattributed(q: Question, judgement: Judgement) -> Elsewhere | None:
    """For a who / when / where question: what the evidence's names, dates or places belong to when every one of
    the answering sentence's is governed by another role, work or event and no candidate sentence holds one that
    the asked role or event governs. None when the evidence stands or says too little to tell (a name no role
    word governs leaves it open)."""
    kind = asked_kind(q, judgement.asked)
    if not judgement.evidence or kind not in _NAMED_KINDS:
        return None
    best = judgement.evidence[0]
    top = answering(best)
    spans = _values(q, top, kind)
    verdicts = [judge_name(q, top, s.start, s.end, kind) for s in spans]
    if any(v is True for v in verdicts):
        return None
    chosen = best.span if best.span is not None and (best.span.start, best.span.end) in {
        (s.start, s.end) for s in spans} else None
    if chosen is not None:
        # the name the answer would give is another role's, work's or event's
        found = judge_name(q, top, chosen.start, chosen.end, kind)
        if not isinstance(found, Elsewhere):
            return None
        verdicts = [found]
    elif not verdicts or not all(isinstance(v, Elsewhere) for v in verdicts):
        return None
    for e in judgement.evidence[:CANDIDATES]:
        for s in e.sentences:
            if not _of_subject(q, s):
                continue  # another tournament's women's singles champion stands for nothing asked of this one
            if kind == "person" and states_role(q, s):
                return None  # the asked role is given a holder the name tagger may not see
            if s is not top and any(judge_name(q, s, span.start, span.end, kind) is True
                                    for span in _values(q, s, kind)):
                return None
    found = verdicts[0]
    return found if isinstance(found, Elsewhere) else None


def _of_subject(q: Question, sentence: Sentence) -> bool:
    """Whether a sentence is about the question's named subject: its passage's title, its neighbours or itself
    name one of the question's names (every sentence is, for a question that names none)."""
    forms = [f for group in q.anchors for f in group if f]
    where = f"{sentence.title} {sentence.context} {' '.join(sentence.about)}"
    return not forms or any(f in where for f in forms)


def _values(q: Question, sentence: Sentence, kind: str) -> list[Span]:
    """The spans of the asked type in a sentence, less those that are a role rather than a name (奥运冠军)."""
    spans = answer_spans(q, sentence, cast(AnswerType, kind))
    if kind != "person":
        return spans
    text = sentence.text
    # a role (奥运冠军) or the words of a role (世锦赛 of 世锦赛冠军) are no name, nor an award (茅盾文学奖, "Booker Prize")
    return [s for s in spans if not role_heads(s.text, _asked_roles(q)) and not _AWARD.search(s.text) and not any(
        a == 0 for a, _ in words_at(text[s.end : s.end + 8], [h for h in role_heads(text[s.end : s.end + 8])]))]


_AWARD = re.compile(r"(?:奖|奖项|奖杯|勋章)$|\b(?:award|prize|medal|trophy)s?$", re.IGNORECASE)
_CALENDAR_WORD = re.compile(
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|jul|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|"
    r"sat(?:urday)?|sun(?:day)?)\.?", re.IGNORECASE)
"""A month or a weekday a tagger may take for a name ("Mar" of "Mar 11, 2022"); not May or June, also names."""


_OPEN_QUOTES, _CLOSE_QUOTES = frozenset({"“", "「", "『", "\""}), frozenset({"”", "」", "』", "\""})


def not_a_name(text: str, start: int, end: int) -> bool:
    """Whether the span a tagger offers as a name is none: a title in 《》 (a work, 《白鹿原》), an award
    (茅盾文学奖, "Booker Prize"), a month or a weekday ("Mar" of a dateline "Mar 11, 2022 ..."), a Chinese term in
    quotes (“铁三角”: a nickname or a coined word, not the name a who-question asks)."""
    value = text[start:end].strip()
    return ((text[max(0, start - 1) : start] == "《" and text[end : end + 1] == "》") or bool(_AWARD.search(value))
            or (has_han(value) and text[max(0, start - 1) : start] in _OPEN_QUOTES and text[end : end + 1] in _CLOSE_QUOTES)
            or bool(_CALENDAR_WORD.fullmatch(value)))


_HOLDER_NEXT = re.compile(r"\s*(?:[A-Z]|[\u4e00-\u9fff])")
"""A holder written after the words that give it (``states_role`` ``named``): a capitalised word or Chinese
characters ("the warden is Agnes Pellow", 由韦书亭担任), not "the warden is responsible for …"."""
_STATES_ROLE = re.compile(r"^\s*(?:[：:]|为|是|由|\bis\b|\bwas\b|\bwent to\b)", re.IGNORECASE)
_TAKES_ROLE = re.compile(r"(?:获得|荣获|夺得|当选|出任|担任|调任|升任|接任|继任|就任|改任|成为|问鼎|\b(?:won|became|was named|was "
                         r"elected|was appointed|takes over as|took over as)\b)\s*(?:the\s+|a\s+|as\s+)?[^，,。；;]{0,10}$",
                         re.IGNORECASE)
_HOLDER_WORK = re.compile(r"^[^，,。；;：:]{0,12}?《([^》]{1,30})》")


def states_role(q: Question, sentence: Sentence, named: bool = False) -> bool:
    """Whether a sentence gives the asked role a name (``最佳摄影：X``, ``主持人为X``, "the chair was X"): a role
    phrase the question asks, followed by the words that give it its holder (with ``named``, and then a name)."""
    text = sentence.text
    folded_q = q.text.casefold()
    for a, b in words_at(text, [*role_words(), *_asked_roles(q)]):
        if has_han(text[a:b]) and (rest := _ROLE_REST.match(text, b)) is not None and rest[0] in folded_q:
            b = rest.end()  # 总裁判长由X担任: the lexicon's 总裁 inside the question's own role noun, read whole
        start = max([0, *(m.end() for m in re.finditer(r"[，,。；;：:、\s]", text[:a]) if has_han(text[a:b]))])
        if not has_han(text[a:b]):
            start = max(0, a - 40)
        titles = [normalize(t) for t in _TITLE.findall(q.text)]
        if titles and (prior := TITLE_BEFORE.search(text[max(0, a - 40) : a])) and normalize(prior[1]) not in titles:
            continue  # 歌曲《念奴娇》 演唱：X gives the role of another work than the asked one
        if (work := FOR_WORK_EN.match(text[b:])) is not None and _ASKS_WORK_EN.search(q.text) \
                and normalize(work[1].strip()) not in normalize(q.text):
            continue  # "won Best Actress for her role in Salt Meadow" gives the role for another work
        if _TAKES_ROLE.search(text[max(0, a - 16) : a]) and role_matches(text[start:b], q.text) is True:
            return True  # 杨某调任首席执行官, "X was named head coach": the asked role is given its holder
        if (said := _STATES_ROLE.match(text[b:])) and role_matches(text[start:b], q.text) is True and (
                not named or _HOLDER_NEXT.match(text, b + said.end())):
            work = _HOLDER_WORK.match(text[b + said.end() :])
            if work is None or not titles or normalize(work[1]) in titles:
                return True  # (最佳编剧：X《觉醒年代》 gives the role of another work)
    return False


_ROLE_REST = re.compile(r"[\u4e00-\u9fff]{1,3}?(?=[：:]|为|是|由)")
"""The characters between a role word the lexicon finds and the words that give it a holder (判长 of 总裁判长由)."""


def _asked_roles(q: Question) -> tuple[str, ...]:
    """The question's own role noun when the role lexicon lacks it (记录人, curator): a role word for its names."""
    return (noun,) if (noun := asked_role(q.text)) is not None else ()


def misattributed_reason(found: Elsewhere, names: str, kind: str, asked: str | None = None) -> str:
    """The reason of a "not found" whose name, date or place belongs to another role, work or event (``asked``:
    the role the question asks, named when known)."""
    what = {"person": "name", "date": "date", "place": "place"}.get(kind, "value")
    if found.period and not found.attribute:
        return f"the passages give the {what} {found.value}, of {found.period}, not of the asked year"
    if found.subject:
        return (f"the passages give {found.value}" + (f" as {found.attribute}" if found.attribute else "")
                + f" for {found.subject}, not for {names or 'the asked subject'}")
    return f"the passages give the {what} {found.value} for {found.attribute}, not for {asked or 'what is asked'}"


def unstated_role(q: Question, hits: Sequence[Hit]) -> str | None:
    """The title a who-question asks ("Who is the chief operating officer of X?", X的首席技术官是谁) when no
    retrieved passage writes it, in any word of its lexicon group (首席运营官, COO, "chief operating officer") or,
    for a title the lexicon lacks, whole; None when one does, when the question asks no title, or when a passage in
    the other language could write a title the lexicon lacks in words no rule can see. The passages name other
    officers (the CEO, the CFO): none of them is the asked one."""
    noun = asked_title(q.text)
    if noun is None or not is_title(noun):
        return None
    heads = role_heads(noun.casefold())
    words = [w for h in heads for g in ROLE_GROUPS if any(h.casefold() == x.casefold() for x in g) for w in g] \
        if heads else [noun]
    texts = [f"{h.title} {h.text}" for h in hits[:EVIDENCE_PASSAGES]]
    if not heads and any(has_han(t) != has_han(q.text) for t in texts):
        return None
    if any(head_across(noun, t) for t in texts):
        # the passages in the other language write the head of their unit in a title the lexicon lacks (团长 of a
        # running club's rules for "captain"): that is the asked head
        return None
    if any(words_at(t, words) for t in texts):
        return None
    return noun


_VALUE_NEXT = re.compile(r"(?:为|是|有|共|达|约)?\s*[0-9零一二两三四五六七八九十百千万]")
"""A value right after a Chinese compound (年假5天, 年假为十天): without word boundaries, the value beside it is what
makes two characters a compound that states something (青松会议室 holds no 松会)."""
_EN_STOP = frozenset({"the", "a", "an", "of", "and", "or", "in", "on", "at", "for", "to", "by", "with", "from", "its",
                      "their", "his", "her", "per", "each", "every", "this", "that", "is", "are", "was", "were"})


def sibling_stated(q: Question, judgement: Judgement, hits: Sequence[Hit]) -> tuple[str, str] | None:
    """The asked compound and the sibling the answering sentence states instead, or None: the question asks a
    compound (病假, "sick leave") that the passage writes elsewhere, while the answering sentence, which does not
    write it, writes the same head with another modifier (年假 with a value right after it, "annual leave"). The
    document tells the two apart;
    the value beside the sibling is the sibling's (带薪年假5天 for 几天病假, "annual leave of 20 days" for the sick
    leave)."""
    if not judgement.evidence:
        return None
    top = answering(judgement.evidence[0])
    hit = hits[top.hit] if top.hit < len(hits) else None
    if hit is None:
        return None
    sentence, passage = top.folded, normalize(f"{hit.title} {hit.text}")
    names = [f for forms in q.anchors for f in forms if f]
    for term in predicate_terms(q, judgement.qualifiers):
        if any(term in n for n in names) or term in sentence:
            continue
        if has_han(term) and len(term) == 2 and has_han(term[1]):
            if term not in passage:
                continue
            for m in re.finditer(re.escape(term[1]), sentence):
                modifier = sentence[m.start() - 1 : m.start()]
                if m.start() > 0 and has_han(modifier) and modifier != term[0] \
                        and f"{modifier}{term[1]}" not in normalize(q.text) and _VALUE_NEXT.match(sentence, m.end()) \
                        and not same_attribute(term, f"{modifier}{term[1]}"):
                    return term, f"{modifier}{term[1]}"
        elif not has_han(term) and term.isalpha() and term not in _EN_STOP:
            folded_q = normalize(q.text)
            after = re.search(rf"\b{re.escape(term)}\s+([a-z][a-z-]+)", folded_q)
            if after is None or after[1] in _EN_STOP or f"{term} {after[1]}" not in passage:
                continue
            head = after[1]
            for m in re.finditer(rf"\b([a-z][a-z-]+)\s+{re.escape(head)}\b", sentence):
                if m[1] != term and m[1] not in _EN_STOP and m[1] not in folded_q \
                        and not same_attribute(f"{term} {head}", f"{m[1]} {head}"):
                    return f"{term} {head}", f"{m[1]} {head}"
    return None


Contact = str
"""How one reaches a place or a person: a phone number, an e-mail address, a website."""

_ASKS_CONTACT: tuple[tuple[Contact, re.Pattern[str]], ...] = (
    ("phone", re.compile(r"\b(?:tele)?phone\b|\bhotline\b|\bfax\b|\b(?:ring|call|dial|text)\b[^?]{0,30}\bnumber\b|"
                         r"\bnumber\b[^?]{0,30}\b(?:ring|call|dial|text)\b|电话|热线|手机号|拨打|打什么号|拨什么号|传真",
                         re.IGNORECASE)),
    ("email", re.compile(r"\be-?mail\b|邮箱|电子邮件", re.IGNORECASE)),
    ("website", re.compile(r"\bwebsite\b|\bweb\s+(?:site|address|page)\b|\burl\b|网址|网站|官网", re.IGNORECASE)),
)
_CONTACT_VALUE: dict[Contact, re.Pattern[str]] = {
    # six digits at least, grouped by spaces, dashes, dots or brackets, and no date (2026-03-01) or year range
    "phone": re.compile(r"(?<![\d,.])(?!(?:1[89]|20)\d{2}\s*[-–/.]\s*\d{1,2}(?:\s*[-–/.]\s*\d{1,2})?(?!\d))"
                        r"\+?\(?\d[\d\s\-–.()]{4,}\d(?![\d,])"),
    "email": re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    "website": re.compile(r"https?://\S+|\bwww\.\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|gov|edu|cn|uk|io|info)\b",
                          re.IGNORECASE),
}


def asked_contact(question: str) -> Contact | None:
    """The contact a question asks for (a phone number: 电话, "what number do I ring"; an e-mail address; a
    website), or None."""
    found = [kind for kind, pattern in _ASKS_CONTACT if pattern.search(question)]
    return found[0] if len(found) == 1 else None


def holds_contact(kind: Contact, text: str) -> bool:
    """Whether ``text`` writes a contact of ``kind``: a phone number is six digits or more, grouped or not
    (0571-8690 2231, "01632 960 123", +44 20 7946 0000), never a date or a year range; a count ("18 beds"), a
    price or a room number is none."""
    pattern = _CONTACT_VALUE[kind]
    if kind != "phone":
        return pattern.search(text) is not None
    return any(sum(ch.isdigit() for ch in m[0]) >= 6 and not _YEAR_RANGE.fullmatch(m[0].strip())
               for m in pattern.finditer(text))


_YEAR_RANGE = re.compile(r"(?:1[89]|20)\d{2}\s*[-–]\s*(?:1[89]|20)\d{2}")


_ITEM_STOP = frozenset({*_EN_STOP, "how", "much", "many", "what", "which", "who", "whom", "when", "where", "does", "do",
                        "did", "cost", "costs", "price", "time", "day", "date", "people", "person", "number", "amount",
                        "it", "one", "there", "be", "can", "will", "get", "pay"})
_ASKED_NUMBER = re.compile(r"\b([a-z][a-z-]+)\s+(\d{1,4}[a-z]?)\b")


def measured_words(q: Question) -> list[str]:
    """The words of the asked quantity the question writes (年费, 报名费, "hourly rate": the lexicon's quantity nouns)."""
    return [q.text[a:b] for a, b in words_at(q.text, [*MEASURES_ZH, *MEASURES_EN, *_measure_words()])]


def attribute_words(q: Question, judgement: Judgement) -> list[str]:
    """The words of the asked quantity the question writes (报名费, "hourly rate" by the lexicon's quantity nouns) and
    the lexicon's words of its specific attribute: ``asked_words`` without the question's own word next to its
    question word, which may name the item asked of (学生票 of 学生票多少钱)."""
    words = measured_words(q)
    asked = judgement.asked
    if asked is not None and not asked.attribute.generic and asked.attribute.kind == "number":
        words += [w for w in asked.attribute.words if not any(ch.isdigit() for ch in w)]
    return list(dict.fromkeys(words))


def _item_terms(q: Question, asked: Sequence[str] = ()) -> list[str]:
    """The question's words that can name the item it asks of (folded): its terms and names that are no question
    word, no word of the asked attribute or of money (``asked``, 报名费 and "hourly rate" are what is asked of it,
    "price" of anything), an English name or phrase word by word. 学生票 of 学生票多少钱, "croissant" and "4" of
    "How many people does room 4 hold"."""
    out: list[str] = []
    skip = {normalize(w) for w in asked} | _PRICE_WORDS
    for term in [*q.relation, *(forms[0] for forms in q.anchors if forms)]:
        t = normalize(term)
        if has_han(t):
            # a term the question glues from several words (合唱团退休成员) names its item by each of them too (退休)
            for w in dict.fromkeys([t, *(w for w, _ in tagged_words(t) if len(w) >= 2 and w != t and has_han(w))]):
                if not _ASKING.search(w) and w not in skip and w not in _GENERIC and len(w) >= 2 and not any(
                        w in normalize(a) for a in asked):
                    out.append(_numbered(w, normalize(q.text)))
            continue
        out += [w for w in re.findall(r"[a-z0-9][a-z0-9'-]*", t) if w not in _ITEM_STOP and w not in skip
                and w not in _GENERIC and not any(w == normalize(a) or stem(w) == stem(normalize(a)) for a in asked)]
    return list(dict.fromkeys(out))


_ORDINAL_TAIL = re.compile(r"[零一二两三四五六七八九十百\d甲乙丙丁戊A-Za-z]")
"""The tail of a Chinese item word that tells it from its siblings by number or letter (四 of 科目四, 3 of 3号楼, B
of B区): its first two characters (科目 of 科目二) write a sibling, not it."""


def _numbered(word: str, question: str) -> str:
    """A Chinese item word with the number or letter the question writes right after it (科目 + 四 of 科目四的补考费,
    the segmenter's two words): the word alone is every sibling's (科目一, 科目二), its number tells the item."""
    at = question.find(word)
    m = re.match(r"[零一二两三四五六七八九十百\d]+|[a-z](?![a-z])", question[at + len(word):]) if at >= 0 else None
    return word + m[0] if m is not None else word


def _writes_term(term: str, text: str) -> bool:
    """Whether a folded text writes a question's item word: a weekday within the days it names (周三 in 周一至周五,
    "Sunday" in "daily"), a Chinese word whole or by its first two characters (儿童 of 儿童票), an English word by
    its stem, a number whole."""
    if (asked := day_term(term)) and (said := days_named(text)):
        return asked <= said
    if has_han(term):
        return term in text or (len(term) >= 3 and all(has_han(ch) for ch in term[:2]) and term[:2] in text
                                and not _ORDINAL_TAIL.match(term[2:]))
    if term.isdigit():
        return re.search(rf"(?<![\d.]){term}(?![\d.])", text) is not None
    return any(stem(w) == stem(term) for w in re.findall(r"[a-z0-9][a-z0-9'-]*", text))


_NUMBERED = re.compile(r"\b([a-z][a-z-]+)\s+((?:\d{1,4}[a-z]?(?:\s*(?:,|and|&|or)\s*(?=\d))?)+)\b")


_CLAUSE_OPEN = re.compile(r"(?:^|[,;:.，；：]|\band|\bwhile|\bwhereas|\bbut)\s*(?:the\s+|our\s+)?$")


def _labels(q: Question, text: str) -> list[tuple[int, int]]:
    """Numbers a sentence writes as the names of items: after the noun the question names its item by ("rooms 2
    and 3", "room 5" for "room 4"), or after a noun the sentence numbers twice ("rooms 2 and 3 … room 5"): no
    quantity, the name of a sibling of the asked item."""
    folded = text.casefold()
    asked = {stem(m[1]) for m in _ASKED_NUMBER.finditer(normalize(q.text))}
    found: dict[str, list[tuple[int, int]]] = {}
    for n in _NUMBERED.finditer(folded):
        if not _CLAUSE_OPEN.search(folded[: n.start()]):
            continue  # "hold 10 people" counts; an item's number opens its clause ("room 5 holds 28")
        found.setdefault(stem(n[1]), []).extend(
            (n.start(2) + d.start(), n.start(2) + d.end()) for d in re.finditer(r"\d{1,4}[a-z]?", n[2]))
    return [span for head, spans in found.items() if head in asked or len(spans) >= 2 for span in spans]


_CONTINUES = re.compile(r"其中|其余|其他|^\s*(?:它|他|她|其|该|此|这)|\b(?:of|among)\s+(?:them|whom|which|these|those)\b|"
                        r"\b(?:it|its|they|their|he|she|his|her|which|who)\b", re.IGNORECASE)
"""A clause that goes on about the subject of the one before (a part of it, its later fate), not another item."""
_OWN_WORDS = re.compile(r"[A-Za-z]{3,}|[\u4e00-\u9fff]")
"""A clause's own words before its value (an item's name), beyond the few a value is introduced by."""
_INTRODUCING = re.compile(r"^\s*(?:(?:and|or|but|while|whereas|the|a|an|at|on|for|is|are|was|from|to|by|with)\s+)*",
                          re.IGNORECASE)


def _own_words(part: str, parts: Sequence[str], frame: str) -> bool:
    """Whether a list's clause (folded) names an item of its own: a word, less the value's digits, that neither the
    frame nor every clause writes (cinnamon bun of "a cinnamon bun costs £2.10", 成人票 of 成人票30元)."""
    if has_han(part):
        chars = [ch for ch in part if has_han(ch) and ch not in frame and not all(ch in p for p in parts)]
        return len(chars) >= 1
    words = [w for w in re.findall(r"[a-z][a-z'-]+", part) if w not in _ITEM_STOP and not _writes_term(w, frame)
             and not all(_writes_term(w, p) for p in parts)]
    return bool(words)


@dataclass(frozen=True)
class Listed:
    """A sentence that lists values of the asked kind item by item: what the question asks of, the items listed."""

    asked: tuple[str, ...]
    items: tuple[str, ...]


def listed_items(q: Question, sentence: Sentence, spans: Sequence[Span], asked: Sequence[str] = ()
                 ) -> tuple[list[ItemClause], list[bool], list[str]] | None:
    """The clauses of a list sentence that give values (``spans``) item by item (成人票30元，儿童票15元; "a bun
    costs £2 and a scone costs £1"), whether each writes the item the question asks of, and the question's item
    words; None when the sentence gives no two values in two clauses or the question names no item. Words every
    valued clause writes (由…值班, "holds", 班), the sentence's leading label (票价：, "Fares:") and its passage's
    title are the frame, not an item."""
    text = sentence.text
    ids = set(_labels(q, text))
    values = [(s.start, s.end) for s in spans if (s.start, s.end) not in ids]
    label, clauses = item_clauses(text, values)
    if len(clauses) < 2 or narrative(text, clauses):
        return None  # (events in sequence, each clause its own act: "left at 8.05, reached the museum at 9.40")
    if any(_CONTINUES.search(text[c.start : c.end]) for c in clauses[1:]):
        return None  # a later clause goes on about the first one's subject (其中, "two of them", "it opened"): no list
    parts = [normalize(text[c.start : c.end]) for c in clauses]
    if all(not _OWN_WORDS.search(_INTRODUCING.sub("", text[c.start : c.values[0][0]])) for c in clauses[1:]):
        # the later clauses open with their values ("Late returns cost 20p a day for books and 50p a day for DVDs",
        # 成人30元、儿童15元 is no such list): the words before the first value are every clause's, not the first's
        label = f"{label} {text[clauses[0].start : clauses[0].values[0][0]]}"
        parts[0] = normalize(text[clauses[0].values[0][0] : clauses[0].end])
    frame = normalize(f"{sentence.title} {label}")
    named = {t for t, _ in _ASKED_NUMBER.findall(normalize(q.text))} if ids else set()
    # a number the question writes names an item only after its noun, as the sentence names its siblings ("room
    # 4" beside "room 5"); elsewhere it is a quantity that qualifies the question (an age, a weight: "I'm 22")
    items = _item_terms(q, asked)
    if in_other_language(q, text):
        # a sentence in the other language writes the item in its words: the question's words in their dictionary
        # translations (午餐 for "lunch" in 早餐时间为…，午餐时间为…)
        items += [normalize(f) for t in items for f in q.crossed_spellings.get(t, ())[1:] if has_han(f) != has_han(t)]
    terms = [t for t in dict.fromkeys(items) if not _writes_term(t, frame) and not all(_writes_term(t, p) for p in parts)
             and (not t.isdigit() or any(re.search(rf"\b{re.escape(n)}\s+{t}\b", normalize(q.text)) for n in named))]
    if (act := asked_act(q.text)) is not None and not any(same_act(p, act) for p in parts[1:]):
        # the act a who-question asks by ("chairs" of "Who chairs the film club?") is the list's predicate where
        # the first clause writes it and the later ones leave it out ("the reading group is chaired by A, the film
        # club by B"): no item ("proposed by A and seconded by B": each clause its act, the role's to tell)
        terms = [t for t in terms if not same_act(t, act)] or terms
    bare = [normalize("".join(" " if any(a <= i < b for a, b in c.values) else ch
                              for i, ch in enumerate(text[: c.end]) if i >= c.start)) for c in clauses]
    if not terms or not all(any(c.start <= a < c.end for a, _ in ids) or _own_words(p, bare, frame)
                            for c, p in zip(clauses, bare, strict=True)):
        return None  # (a clause that names no item of its own — "£15, or £8 for under-25s" — is no list of items)
    return clauses, [any(_writes_term(t, p) for t in terms) for p in parts], terms


def governed_spans(q: Question, sentence: Sentence, spans: list[Span]) -> list[Span]:
    """Of a list sentence's values, those of the clauses that write the item the question asks of (儿童票15元 for
    儿童票多少钱 in 成人票30元，儿童票15元; "18:05" for the evening ferry in "the morning ferry leaves at 07:15, the
    evening one at 18:05"); all of them when no clause or every clause writes it."""
    if len(spans) < 2 or (found := listed_items(q, sentence, spans)) is None:
        return spans
    clauses, writes, terms = found
    if all(writes) and (measured := measured_words(q)) and (
            again := listed_items(q, sentence, spans, measured)) is not None:
        # every clause writes a word of the question because one writes the asked quantity itself (年费为每人150元，
        # 学生社员80元 for 学生社员的年费): the item is told by the question's other words
        clauses, writes, terms = again
    if sum(writes) > 1:
        # several clauses write some word of the question (合唱团 before 周一's time, 周四 before its own; "run" in
        # the first clause only, the predicate the later ones leave out, "honey" in the third): the item is the word
        # a sibling of its kind stands for in another clause (周四 beside 周一, "honey stall" beside "candle stall")
        parts = [normalize(sentence.text[c.start : c.end]) for c in clauses]
        sibling = [any(_writes_term(t, p) and _has_sibling(t, p, [o for o in parts if o is not p]) for t in terms)
                   for p in parts]
        writes = sibling if any(sibling) else _distinct(terms, parts) or writes
    if not any(writes) or all(writes):
        return spans
    kept = {v for c, w in zip(clauses, writes, strict=True) if w for v in c.values}
    return [s for s in spans if (s.start, s.end) in kept] or spans


def _distinct(terms: Sequence[str], parts: Sequence[str]) -> list[bool] | None:
    """The one clause that alone writes a word of the question no other clause writes, where the words the
    clauses share say nothing ("a case of soap costs 72" beside "a case of shampoo costs 96" for "a case of
    soap": "case" in both, "soap" in one); None when no clause or two clauses write such a word ("run" in the
    first clause only, "honey" in the third: which one tells the item is the sibling test's to say)."""
    alone = {i for t in terms if len(at := [i for i, p in enumerate(parts) if _writes_term(t, p)]) == 1
             for i in at}
    return [i in alone for i in range(len(parts))] if len(alone) == 1 else None


def _has_sibling(term: str, part: str, others: Sequence[str]) -> bool:
    """Whether another clause writes an item of the kind ``term`` is in its own clause (folded): another weekday
    (周一 beside 周四), or another word before the word that follows it ("electrics table" beside "textiles
    table", 儿童卡 beside 成人卡)."""
    if day_term(term):
        return any(days_named(o) and days_named(o) != days_named(part) for o in others)
    at = part.find(term) if has_han(term) else next(
        (m.start() for m in re.finditer(r"[a-z0-9][a-z0-9'-]*", part) if stem(m[0]) == stem(term)), -1)
    if at < 0:
        return False
    rest = part[at + len(term):]
    follow = rest[:1] if has_han(term) else (re.findall(r"[a-z][a-z'-]+", rest)[:1] or [""])[0]
    if not follow or (has_han(term) and not has_han(follow)) or (
            not has_han(term) and (len(follow) < 3 or follow in _ITEM_STOP)):
        return False  # (a function word after it is no shared head: "the large loaf is …, the small one is …")
    return any(follow in o and o.find(follow) > 0 and term not in o for o in others)


UNWRITTEN_AT_MOST = 2
"""The question's item words a list's passage may leave unwritten: a question about the passage's items asks one
it lacks (a croissant of a bakery's price list); one that most of whose words the passage never writes is about
something else that a hop away leads to (a bridge's description of a singer), not an item of this list."""


def unlisted_item(q: Question, judgement: Judgement, hits: Sequence[Hit] = ()) -> Listed | None:
    """The item the question asks of and the items the evidence lists instead, when a sentence of the best
    evidence gives values of the asked kind item by item in two clauses or more and none of them writes the asked
    item (学生票 asked, 成人票30元，儿童票15元 given; a croissant asked, a bun's and a scone's price given; 周六 asked, 周一
    to 周五's rota given): the values are the other items'. None where a clause writes it, or a range or collective
    that covers it (周一至周五 covers 周三, "daily" Sunday), or the sentence lists no items."""
    if not judgement.evidence or (kind := asked_kind(q, judgement.asked)) not in ("number", "date", "person"):
        return None
    asked = attribute_words(q, judgement) if kind == "number" else []
    for e in judgement.evidence[:CANDIDATES]:
        for s in e.sentences:
            spans = answer_spans(q, s, cast(AnswerType, kind))
            if spans and (found := listed_items(q, s, spans, asked)) is not None and _names_item(s, *found):
                return None  # a candidate's list gives the asked item its value
    best = judgement.evidence[0]
    # the best evidence's sentences; where they hold no value of the asked kind, the runner-ups' (the answer shows
    # them: "Rooms 2 and 3 have a wall screen" before the rates of rooms 2, 3 and 5 for the Orchard Room's)
    sentences = [*best.sentences, *(s for e in judgement.evidence[1:CANDIDATES] for s in e.sentences
                                    if best.span is None)]
    for s in sentences:
        spans = answer_spans(q, s, cast(AnswerType, kind))
        if len(spans) < 2 or (found := listed_items(q, s, spans, asked)) is None:
            continue
        clauses, writes, terms = found
        if _names_item(s, clauses, writes, terms):
            return None
        unwritten = [t for t in terms if not any(_writes_term(t, normalize(s.text[c.start : c.end])) for c in clauses)]
        if not unwritten or any(_writes_term(t, s.folded) for t in unwritten):
            return None
        if any(o is not s and all(_writes_term(t, o.folded) for t in terms) and answer_spans(q, o, cast(AnswerType, kind))
               for e in judgement.evidence[:CANDIDATES] for o in e.sentences):
            # another sentence of the evidence writes the asked item with a value of the asked kind (a life's
            # "2017年，…票房过3亿，同年…" beside "1997年主演电视剧《…》出道" for the 1997 debut): the list is not where
            # the item is looked for
            return None
        passage = normalize(f"{hits[s.hit].title}\n{hits[s.hit].text}") if s.hit < len(hits) else s.context
        if sum(not _writes_term(t, passage) for t in _item_terms(q, asked)) > UNWRITTEN_AT_MOST:
            return None
        items = tuple(s.text[c.start : c.end].strip(" ，,；;。") for c in clauses)
        return Listed(tuple(terms), items)
    return None


def _names_item(s: Sentence, clauses: Sequence[ItemClause], writes: Sequence[bool], terms: Sequence[str]) -> bool:
    """Whether a list's clauses name the asked item: a question word one clause alone writes. A word two clauses or
    more write is the list's shared word ("a case of" shampoo, "a case of" soap for "a case of conditioner"), no
    item's name."""
    if not any(writes):
        return False
    parts = [normalize(s.text[c.start : c.end]) for c in clauses]
    return any(sum(_writes_term(t, p) for p in parts) == 1 for t in terms) or all(writes)


def other_row(q: Question, answer: Sentence, passage: str) -> tuple[str, str] | None:
    """The row a table cell answers for and the row the question's item is written in, when they differ: the
    answering line is a cell ("备注 — T08: 可续泡7次") whose row writes none of a question word for the item anywhere
    in the passage, while a cell of another row writes it ("茶名 — T03: 白毫银针"): the value is the other row's
    item's, the asked item's row states nothing asked. None for prose, a field line without a row, or an item no
    other row writes (a table that lacks the item: ``unlisted_item``'s to say)."""
    f = field_of(answer.text)
    if f is None or not f.row.strip():
        return None
    row = normalize(f.row.strip())
    cells: list[tuple[str, str]] = []
    prose: list[str] = []
    for line in passage.splitlines():
        c = field_of(line.strip())
        if c is not None and c.row.strip():
            cells.append((normalize(c.row.strip()), normalize(line)))
        else:
            prose.append(normalize(line))
    own = " ".join(text for r, text in cells if r == row) + " " + answer.folded
    for term in _item_terms(q):
        if _writes_term(term, own) or _writes_term(term, row) or any(_writes_term(term, p) for p in prose):
            continue  # (a word the passage's prose writes, 停诊 of a notice under the rota, is no row's own)
        others = {r for r, text in cells if r != row and _writes_term(term, text)}
        if len(others) == 1:
            # one other row alone writes it: that row's item; a word many rows write (下午, 周四 of a rota's
            # cells) names none of them
            return f.row.strip(), others.pop()
    return None


_OFFICE = re.compile(r"^(?:the\s+)?(?:[A-Z][\w&'-]*\s+)*(?:Office|Department|Bureau|Ministry|Division|Directorate|Committee|"
                     r"Council|Agency|Secretariat|Faculty|School|Board)\b|(?:\b(?:Office|Department|Bureau|Ministry|Division|"
                     r"Directorate|Committee|Council|Agency|Secretariat|Board))$|"
                     r"[\u4e00-\u9fff]{2}(?:处|局|厅|办公室|委员会|秘书处|事务部|管理部|中心)$")
"""A unit's name by its head word ("Office of Academic Affairs", "Planning Department", 教务处, 市场管理局)."""
_WHO_IS_ZH = re.compile(r"([\u4e00-\u9fff]{2,12})(?:现在|目前)?(?:是谁|为谁|由谁担任)")


def office_for_holder(q: Question, text: str, start: int, end: int) -> str | None:
    """The title a who-question asks the holder of, when the value offered for it is the name of a unit (教务处 or
    "Office of Academic Affairs" for 教务处处长是谁, "the Planning Department" for "who heads planning"): a title's
    holder is a person; the unit is what the title is of. None otherwise (谁创立的 may be answered by a company)."""
    title = asked_title(q.text)
    if title is None and (m := _WHO_IS_ZH.search(q.text)) is not None and is_title(m[1]):
        title = m[1]  # 教务处处长是谁: the title glued to its unit, no 的 between
    value = text[start:end].strip(" （）()")
    return title if title is not None and _OFFICE.search(value) is not None else None



@dataclass(frozen=True)
class Item:
    """One of the items a document enumerates, as a line of it is written under it: a section's heading among its
    sibling headings (the cards of a programme: ``group`` is their parent heading path), a table row's key
    (``group`` ``ROW_GROUP``), or the label of a line among the parallel labels of its passage (东湖站：…, 西山站：…:
    ``group`` the labels' shared head word)."""

    key: str
    group: str


ROW_GROUP = "\x00row"
"""The group of a table's row keys (one table's rows are items of one kind, whatever its section)."""
LABEL_GROUP = "\x00label:"
"""The group of a passage's parallel line labels, followed by their shared head (站, "site")."""

_LINE_LABEL = re.compile(r"^\s*(?P<label>[\u4e00-\u9fffA-Za-z0-9·' -]{2,24}?)\s*(?:[（(][^）)]{1,16}[）)])?\s*[：:]\s*\S")
"""A line opened by a label and a colon (西山站：位于…, 恐龙厅（二楼）：主管…, "Riverside: 40 plots"), its aside in brackets
left out of the label."""
LABEL_HAN = 10
LABEL_WORDS = 4


def _label_head(label: str) -> str:
    """The head a label is of a kind by: its last Chinese character (站 of 西山站, 厅 of 恐龙厅), or its last word
    ("site" of "Riverside site"), folded."""
    label = normalize(label).strip()
    if has_han(label):
        return label[-1] if len(label) <= LABEL_HAN else ""
    words = label.split()
    return words[-1] if 2 <= len(words) <= LABEL_WORDS else ""


def label_items(text: str) -> dict[str, Item]:
    """The parallel labels of a passage's lines, by line: lines opened by a label and a colon whose labels share
    their head with another such line's (东湖站：…, 西山站：…; "North Hall: …", "East Hall: …"); a field block's
    labels of different heads (地点：…, 时间：…) are attributes, no items."""
    found: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        if (m := _LINE_LABEL.match(line)) is not None and (head := _label_head(m["label"])):
            found[line.strip()] = (m["label"].strip(), head)
    heads = [head for _, head in found.values()]
    labels_of = {h: {lab for lab, hh in found.values() if hh == h} for h in set(heads)}
    return {line: Item(lab, LABEL_GROUP + head) for line, (lab, head) in found.items() if len(labels_of[head]) >= 2}


def _heading_path(section: str | None) -> list[str]:
    return [p.strip() for p in (section or "").split(SECTION_SEPARATOR) if p.strip()]


def line_item(answer: Sentence, hit: Hit) -> Item | None:
    """The item a line is written for: a table cell's row; the parallel label of the passage line it stands in
    (``label_items``: "这里主要采集茶花蜜" in the line 西山站：…); else the last heading of its passage's section when the
    line stands under that heading (not under a heading or label inside the passage); else none."""
    cell = field_of(answer.text)
    if cell is not None and cell.row.strip():
        return Item(cell.row.strip(), ROW_GROUP)
    said = answer.text.strip()
    for line, item in label_items(hit.text).items():
        if said and said in line:
            return item
    path = _heading_path(hit.section)
    if len(path) < 1 or normalize(answer.under or "") != normalize(hit.section or ""):
        return None
    return Item(path[-1], SECTION_SEPARATOR.join(path[:-1]))


def document_items(hits: Sequence[Hit], doc_id: str) -> list[Item]:
    """The items the retrieved passages of one document enumerate: the last heading of each passage's section
    (grouped by the path above it), the keys of its table rows and its lines' parallel labels."""
    out: dict[Item, None] = {}
    for hit in hits:
        if hit.doc_id != doc_id:
            continue
        if path := _heading_path(hit.section):
            out[Item(path[-1], SECTION_SEPARATOR.join(path[:-1]))] = None
        for line in hit.text.splitlines():
            if (cell := field_of(line.strip())) is not None and cell.row.strip():
                out[Item(cell.row.strip(), ROW_GROUP)] = None
        out |= dict.fromkeys(label_items(hit.text).values())
    return list(out)


def item_forms(item: Item) -> tuple[str, ...]:
    """An item's key as a question or a line may write it, folded: its row-key forms, and a Chinese label without
    its shared head where two characters are left (东湖 of 东湖站 among the 站)."""
    forms = list(row_key_forms(item.key))
    if item.group.startswith(LABEL_GROUP) and has_han(item.key):
        head = item.group[len(LABEL_GROUP):]
        bare = normalize(item.key).strip()
        if bare.endswith(head) and len(bare) - len(head) >= 2:
            forms.append(bare[: -len(head)])
    return tuple(dict.fromkeys(f for f in forms if len(f) >= 2))


def _item_named(text: str, item: Item) -> bool:
    """Whether a text (a question) writes an item's key, whole or without its aside or shared head."""
    asked = normalize(text)
    return any(_names_key_in(asked, form) for form in item_forms(item))


def _names_key_in(asked: str, key: str) -> bool:
    if has_han(key):
        return key in asked
    return len(key) >= 3 and re.search(rf"(?<![\w]){re.escape(key)}(?![\w])", asked) is not None


def _same_item(a: Item, b: Item) -> bool:
    """Whether two items are one (a card's heading and its row's key: 《纸飞机》 and 《纸飞机》（Paper Plane））."""
    fa, fb = set(item_forms(a)), set(item_forms(b))
    return bool(fa & fb) or any(x in y or y in x for x in fa for y in fb if min(len(x), len(y)) >= 2)


def _days_apart(question: str, key: str) -> bool:
    """Whether an item's key names weekdays and the question others only (周六 asked, the "Sunday …" row): the
    day is part of what the row or section is (a timetable's day rows), in either language."""
    asked, written = days_named(question), days_named(key)
    return bool(asked) and len(asked) < 7 and bool(written) and len(written) < 7 and not asked & written


def other_item(q: Question, answer: Sentence, hits: Sequence[Hit]) -> tuple[str, str] | None:
    """The item the answering line is written for and the item the question asks, when they are two items of one
    document's enumeration: the line stands under one card, section, table row or parallel line label ("由新人导演
    宁小禾执导…" under the heading 《纸飞机》 among the programme's film cards) or names one such item itself (西山站的
    蜂群…), the question names another item of that enumeration (《山那边的灯》, 东湖站) and the line does not write
    the asked one; or the line's item names a weekday the question does not ask (the "Sunday" row for a Saturday
    question, in either language). The value is the other item's; where the asked item's own section or row states
    nothing asked, the documents do not say it. None where the question names the line's own item, or names no
    other item of its document."""
    if answer.hit >= len(hits):
        return None
    hit = hits[answer.hit]
    if not hit.doc_id:
        return None
    own = line_item(answer, hit)
    if own is not None and _days_apart(q.text, own.key) and not days_named(answer.text) & days_named(q.text):
        return own.key, " ".join(sorted(_day_words(q.text)))
    items = document_items(hits, hit.doc_id)
    # a heading above the line's own (the programme's, the document's title) is its context, no sibling
    above = {normalize(p) for p in _heading_path(hit.section)}
    asked = [i for i in items if normalize(i.key) not in above and _item_named(q.text, i)]
    said = answer.folded
    if own is not None and not _item_named(q.text, own):
        # the line's item is one of an enumeration: its siblings, and the table rows when it is one of them (a
        # film's card is its row too)
        rows = own.group == ROW_GROUP or any(i.group == ROW_GROUP and _same_item(i, own) for i in items)
        for item in asked:
            if _same_item(item, own) or not (item.group == own.group or (rows and item.group == ROW_GROUP)):
                continue
            if any(_writes_term(form, said) for form in item_forms(item)):
                continue  # the line names the asked item itself ("…, like 《山那边的灯》, was shot on location")
            return own.key, item.key
    for item in asked:
        # a line that names another item of the asked one's enumeration and not the asked one (西山站的蜂群… for
        # 东湖站) states the other's
        if any(_writes_term(form, said) for form in item_forms(item)):
            continue
        named = next((o for o in items if o.group == item.group and not _same_item(o, item)
                      and not _item_named(q.text, o) and any(_names_key_in(said, f) for f in item_forms(o))), None)
        if named is not None:
            return named.key, item.key
    return None


def _day_words(text: str) -> set[str]:
    return {m[0] for m in re.finditer(r"(?:周|星期|礼拜)[一二三四五六日天]|\b[A-Za-z]+days?\b", text)
            if days_named(m[0])}
