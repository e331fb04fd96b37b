"""A chat turned into the one question the graph answers.

The last user message is the question. When earlier user turns exist it may be a follow-up ("它是哪一年成立的？"
after a question about 腾讯): with an LLM, the LLM condenses the conversation into a standalone question
(``prompts/condense_question.*``); without one — or when the LLM fails, which is then listed as degraded —
the entities of the earlier questions (validated in the entity store, or names the parser spots that the store
does not know) are carried into it, each type the new question does not name itself, so the graph filters on them as if the user had written them. Dates are not carried: a follow-up about
"that company" is rarely about the same day.

Without an LLM only a question that reads as a follow-up carries anything (``reads_as_follow_up``): one that refers
back (它, 他们, 该公司, 这款, "it", "their", "that company", "there"), an elliptic one (那北京呢？, "And in 2023?",
"What about Tesla?"), or a short one with no name of its own (哪一年成立的？, "Founded when?"). A self-contained
question asked next in the same conversation ("雾岭春芽和雾岭红茶哪个更贵？" after a question about 雾岭茶园, "On
which river is the village where Mistridge tea is rolled?") is asked as written and starts a new subject: the
fresh-eyes trial saw the earlier question's (misspelled) name put in front of such questions, and a comparison of
two teas answered as a comparison of the estate with a tea.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from langchain_core.messages import HumanMessage, SystemMessage

from app.schemas import MAX_QUESTION_CHARS
from app.schemas.chat import CarriedEntity, ChatMessage
from graphs.domain import ValidatedEntity
from graphs.llm import LLM_ERRORS, text_call
from graphs.rag.context import RagContext
from graphs.rag.parts import en_topic, zh_topic
from graphs.rag.question import validate_one
from graphs.text.ellipsis import elliptical_subject, is_elliptical, restated, same_kind
from graphs.text.normalize import has_han
from graphs.text.query_analysis import analyze_query

log = logging.getLogger(__name__)
HISTORY_TURNS = 6  # the conversation the LLM reads: the last six turns before the question
TURN_CHARS = 600  # each cut to this many characters
_FENCE = re.compile(r"<\s*/?\s*conversation\s*>", re.IGNORECASE)
CONDENSE_ERRORS: tuple[type[BaseException], ...] = (*LLM_ERRORS, ValueError)  # ValueError: no usable question
_LABEL = re.compile(r"^\s*(?:standalone question|question|问题|独立问题)\s*[:：]\s*", re.IGNORECASE)


@dataclass
class Resolution:
    """The question to answer and how it was formed."""

    question: str
    original: str
    mode: str = "standalone"  # standalone | condensed | entities | restated
    carried: list[CarriedEntity] = field(default_factory=list)
    llm_calls: int = 0
    degraded: list[str] = field(default_factory=list)


@dataclass
class CarriedState:
    """A turn as resolved so far: its question (with what was carried) and every entity it stands for."""

    question: str
    entities: list[ValidatedEntity]


def user_turns(messages: Sequence[ChatMessage]) -> list[str]:
    """The text of each user message that has any, in order."""
    return [t for t in (m.text().strip() for m in messages if m.role == "user") if t]


async def validated(ctx: RagContext, question: str) -> list[ValidatedEntity]:
    """The question's entities as the rule parser finds them: those the entity store knows, validated, and the
    names it spots that the store does not know (a user's own files name things no dictionary lists: "the
    Allotment Hour", "Zoom H5"), kept as written. Either is the subject a follow-up's "it" points back to."""
    parsed = analyze_query(question, ctx.gazetteer(), ctx.today())
    matches = await asyncio.to_thread(
        lambda: [None if e.type == "DATE" else ctx.entities.lookup(e.text) for e in parsed.entities])
    entities = [validate_one(e, m, False) for e, m in zip(parsed.entities, matches, strict=True)]
    return [e for e in entities if (e.valid and e.standard_name) or (not e.valid and e.type != "DATE")]


def with_entities(question: str, carried: Sequence[CarriedEntity]) -> str:
    """The question with the carried entities' names in front, as the user might have written them; a colon
    after a name in Latin letters before a capitalised question ("Corvid X7: And its price?"): with a space the
    parser read the question's first word as the name's last ("Corvid X7 And", "Repair Café Who", and the
    answer's reason spoke "of repair café who")."""
    if not carried:
        return question
    names = " ".join(c.text for c in carried)
    apart = ": " if _LATIN_END.search(names) and _CAPITAL_START.match(question) else " "
    return names + apart + question


_LATIN_END = re.compile(r"[A-Za-z0-9À-ɏ]$")
_CAPITAL_START = re.compile(r"[A-ZÀ-Þ]")


# Words that point back at something named earlier. Chinese: third-person pronouns (not 其他/吉他/利他), 该 (not
# 应该), a demonstrative with a measure word or a place word, 上述/前者/后者. English: pronouns, "there", this/these/
# those with a noun, "that" where it cannot open a relative clause (after a verb of being or a preposition, at
# the start, or before the question's last word: "Who founded that company?"; not "the company that makes").
_ZH_REFERENCE = re.compile(
    r"(?<![其吉利])[他她它]|(?<!应)该(?=[\u4e00-\u9fff])|[这那此](?:家|个|位|所|座|款|部|本|些|里|儿|次|项|条|种|只|台|件|人|地|事|场|支|间|栋|篇|首)"
    r"|上述|前者|后者")
_EN_REFERENCE = re.compile(
    r"\b(?:it|its|they|them|their|theirs|he|him|his|she|her|hers|there|the latter|the former|the same)\b"
    r"|\b(?:this|these|those)\s+[a-z]"
    r"|(?:^|\b(?:is|was|are|were|did|does|do|of|in|at|for|from|about|by|with|on|to|into|founded|made|built|runs?)\s+)"
    r"that\s+[a-z][\w-]*"
    r"|\bthat\s+[a-z][\w-]*\s*\?*\s*$", re.IGNORECASE)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"[A-Za-z0-9][\w'-]*")
SHORT_ZH_CHARS = 6  # 哪一年成立的？ (6), 创始人是谁？ (5): too short to have a subject of their own (什么是机器学习？ is 7)
SHORT_EN_WORDS = 3  # "Founded when?", "The price?"


# English words of reference that point at nothing: existential "there" beside a form of "be" ("Is there a fee?",
# "How many beds are there?"), the dummy "it" of a duration or a cost with its infinitive ("How long does it take
# to renew a permit?", "What does it cost to hire the hall?") or of an adjective with its clause ("Is it possible
# to pay by card?", "it is true that ..."), and "the same" in the adverbials "at the same time" / "in the same
# way". On the page every question after the first is resolved against the conversation: a self-contained
# question with one of these got the earlier question's subject put in front of it (newuser15's run: "How many
# foster animals may a carer keep at the same time?" asked as "黑犬 How many ...").
_BE = r"(?:is|are|was|were|be|been|being|will\s+be|would\s+be|isn't|aren't|wasn't|weren't|'s|'re)"
_AUX = r"(?:do|does|did|will|would|can|could|should|might|may|must)"
_EXTRAPOSED = (r"(?:possible|impossible|necessary|ok|okay|allowed|permitted|required|compulsory|mandatory|true|"
               r"safe|free|easy|hard|difficult|worth|better|best|cheaper|quicker|faster|important|likely|legal|"
               r"normal|usual|common|enough|wise|advisable|too\s+late|too\s+early)")
_EN_EXPLETIVE = re.compile(
    rf"\bthere\s+{_BE}\b|\b{_BE}\s+there\b|\bthere\s+(?:seems?|used|has|have|had|{_AUX})\b"
    rf"|\b(?:it\s+(?:takes?|took|costs?)|{_AUX}\s+it\s+(?:take|cost))\b(?:\s+[\w$£€¥.,-]+){{0,4}}?\s+to\s+[a-z]"
    rf"|\b(?:it\s+{_BE}|{_BE}\s+it|{_AUX}\s+it\s+be)\s+(?:\w+\s+)?{_EXTRAPOSED}\b(?:\s+\w+)?\s+(?:to|that|if|whether)\b"
    r"|\b(?:at|in)\s+the\s+same\s+(?:time|way)\b", re.IGNORECASE)


def refers_back(question: str) -> bool:
    """Whether the question points back at something named earlier (它, 该公司, "it", "that company"); an
    English word of reference that points at nothing (``_EN_EXPLETIVE``) does not count."""
    return bool(_ZH_REFERENCE.search(question) or _EN_REFERENCE.search(_EN_EXPLETIVE.sub(" ", question)))


def reads_as_follow_up(question: str, own: Sequence[ValidatedEntity]) -> bool:
    """Whether a question asked after others leans on them: it refers back, it is elliptic, or it is short and
    names nothing of its own (``own``: its validated entities). A self-contained question is not a follow-up."""
    if refers_back(question) or is_elliptical(question):
        return True
    if any(e.type != "DATE" for e in own):
        return False
    cjk = len(_CJK.findall(question))
    return cjk <= SHORT_ZH_CHARS if cjk else len(_WORD.findall(question)) <= SHORT_EN_WORDS


def still_meant(earlier: ValidatedEntity, follow_up: str, own: Sequence[ValidatedEntity]) -> bool:
    """Whether an earlier question's entity is still meant by a follow-up: a known one unless the follow-up names
    a known one of its type (特斯拉呢？ after 苹果); a name the store does not know unless the follow-up names one
    of its own without pointing back ("What about the Evening Drift?" after the Morning Tide Show; not "When does
    it open on Sundays?", whose Sundays the parser spots as a name too)."""
    if earlier.valid:
        return earlier.type not in {e.type for e in own if e.valid}
    return refers_back(follow_up) or not any(not e.valid for e in own)


def restated_follow_up(previous: str, follow_up: str, earlier: Sequence[ValidatedEntity],
                       own: Sequence[ValidatedEntity]) -> str | None:
    """The question before asked of the new subject a follow-up names alone: "特斯拉呢？" after "苹果在北京有哪些门店？"
    is "特斯拉在北京有哪些门店？" (an earlier name of the new one's type is swapped, ``earlier`` and ``own`` the
    names of each, validated or as the parser spots them), "木工课呢？" after "周六的陶艺课几点开始？" is "周六的木工课几点开始？"
    (a noun of the same head, ``same_kind``), "割草机呢？" after "借电钻要交多少押金？" is "割草机多少押金？" (else the earlier question's
    topic is, unless it holds a name of another kind than the new subject's). Carrying the earlier names in front
    of "割草机呢？" lost what is asked (押金). None for any other follow-up, or when nothing can be swapped (the
    names are carried then)."""
    if (subject := elliptical_subject(follow_up)) is None:
        return None
    types = {e.type for e in own if e.type != "DATE"}
    swapped = next((e.text for e in earlier if e.type in types and e.text in previous), None)
    if swapped is not None:
        return restated(previous, subject, swapped)
    if (kin := same_kind(previous, subject)) is not None:
        return restated(previous, subject, kin)
    topic = (zh_topic if has_han(previous) else en_topic)(previous)
    if types and any(e.text in topic for e in earlier if e.type != "DATE"):
        return None  # a name of another kind than the new subject's ("腾讯呢？" after "马斯克创办的公司有哪些？")
    return restated(previous, subject, topic)


async def carry_entities(ctx: RagContext, turns: Sequence[str]) -> Resolution:
    """Walk the user turns, carrying each earlier question's validated entities into the next that reads as a
    follow-up (a chain of follow-ups keeps the subject of the first; a self-contained question starts a new one);
    the last turn's resolution."""
    current = CarriedState(question=turns[0], entities=await validated(ctx, turns[0]))
    carried: list[CarriedEntity] = []
    again = False  # the last turn named only a new subject and is the question before it asked of that subject
    for turn in turns[1:]:
        own = await validated(ctx, turn)
        if (asked := restated_follow_up(current.question, turn, current.entities, own)) is not None:
            current, carried, again = CarriedState(question=asked, entities=await validated(ctx, asked)), [], True
            continue
        again = False
        if not reads_as_follow_up(turn, own):
            current, carried = CarriedState(question=turn, entities=own), []
            continue
        kept = [e for e in current.entities if e.type != "DATE" and still_meant(e, turn, own)]
        carried = [CarriedEntity(text=e.text, standard_name=e.standard_name or e.text, type=e.type) for e in kept]
        carried = list({c.standard_name: c for c in carried}.values())
        current = CarriedState(question=with_entities(turn, carried), entities=own + kept)
    question = current.question
    if again and len(question) <= MAX_QUESTION_CHARS:
        return Resolution(question=question, original=turns[-1], mode="restated")
    if len(question) > MAX_QUESTION_CHARS or not carried:  # nothing to carry (or no room for it): as written
        return Resolution(question=turns[-1], original=turns[-1])
    return Resolution(question=question, original=turns[-1], mode="entities", carried=carried)


def history_text(messages: Sequence[ChatMessage]) -> str:
    """The turns before the question, as the condensing prompt shows them (fence tags removed)."""
    turns = [m for m in messages[:-1] if m.role in ("user", "assistant") and m.text().strip()][-HISTORY_TURNS:]
    return "\n".join(f"{m.role}: {_FENCE.sub(' ', m.text().strip())[:TURN_CHARS]}" for m in turns)


def clean_condensed(text: str) -> str:
    """The LLM's standalone question: its first line, without a label or quotes; empty if unusable."""
    line = next((ln for ln in text.strip().splitlines() if ln.strip()), "")
    line = _LABEL.sub("", line).strip().strip("\"'“”「」").strip()
    return line if len(line) <= MAX_QUESTION_CHARS else ""


async def condense(ctx: RagContext, messages: Sequence[ChatMessage], question: str) -> str:
    """Ask the LLM for the standalone question (raises an ``LLM_ERRORS`` error, or ValueError when unusable)."""
    assert ctx.llm is not None
    prompt = [
        SystemMessage(ctx.prompts.render("condense_question.system")),
        HumanMessage(ctx.prompts.render("condense_question.user", history=history_text(messages),
                                        question=_FENCE.sub(" ", question))),
    ]
    condensed = clean_condensed(await text_call(ctx.llm, prompt, ctx.limits.llm_timeout_s))
    if not condensed:
        raise ValueError("the LLM returned no usable question")
    return condensed


async def resolve(ctx: RagContext, messages: Sequence[ChatMessage]) -> Resolution:
    """The question to answer for a chat: the last user message, made standalone when it follows others."""
    turns = user_turns(messages)
    question = turns[-1]
    if len(turns) == 1:
        return Resolution(question=question, original=question)
    if ctx.llm is None:
        return await carry_entities(ctx, turns)
    try:
        condensed = await condense(ctx, messages, question)
    except CONDENSE_ERRORS as exc:
        log.warning("condense_question: LLM failed (%s); carrying the earlier questions' entities",
                    type(exc).__name__)
        fallback = await carry_entities(ctx, turns)
        fallback.llm_calls, fallback.degraded = 1, ["condense_question"]
        return fallback
    return Resolution(question=condensed, original=question, mode="condensed", llm_calls=1)
