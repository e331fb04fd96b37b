"""The planner's pure logic: the rule-based decomposer, plan checks, the DAG's ready steps, the merge of the
steps' results and the strategy a failed step tries next."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphs.domain import Hit, ParsedQuery, QueryPlan, StepOutcome, Strategy, SubQuestion
from graphs.rag.answer.chains import KINSHIP, RELATION_WORDS
from graphs.rag.answer.verdicts import offered, without_owner
from graphs.rag.parts import question_parts
from graphs.rag.relation_cues import ORGANIZATION, PERSON, noun_kind
from graphs.text.question_shapes import Mention, asks_about_change, comparison_pair, mentions

# ---------------------------------------------------------------------------- rule-based decomposer


def _tidy(text: str) -> str:
    text = re.sub(r"\s+([?？,，.。])", r"\1", re.sub(r"\s{2,}", " ", text)).strip()
    return re.sub(r"^[,，\s]+", "", text)


def _strategy(name: str, validated: set[str], has_kg: bool) -> Strategy:
    if name in validated:
        return "structured"
    return "graph" if has_kg else "hybrid"


def decompose(
    question: str, parsed: ParsedQuery, validated: Sequence[str], has_kg: bool
) -> QueryPlan | None:
    """The rule-based plan for a message that asks several things, a comparison, a temporal or a bridge
    question, or None when no pattern applies.

    ``validated``: the question's mentions of entities the entity store knows (their steps filter on them).
    """
    names = [e.text for e in parsed.entities if e.type != "DATE"]
    known = set(validated)
    if (parts := parts_plan(question, has_kg)) is not None:
        return parts
    if (compared := comparison_plan(question, names, known)) is not None:
        return compared
    if asks_about_change(question):
        return QueryPlan(
            pattern="temporal", planner="rules", reason="asks how something changed over time: results in date order",
            sub_questions=[SubQuestion(id="q1", question=question, strategy="temporal",
                                       reason="hybrid search, ordered by date")],
        )
    nested = parsed.complexity_features.get("bridge", 0) > 0 or parsed.complexity_features.get("nesting", 0) > 0
    if nested and len(mentions(question, names)) != 1 and (hop := chinese_first_hop(question)) is not None:
        # a Chinese relative clause describes the entity ("X自有工厂所在的镇"): its name may be no entity the
        # analyser knows, the clause still says what to find first
        return QueryPlan(
            pattern="bridge", planner="rules",
            reason="a bridge question through a relative clause: first the entity it describes, then what is asked",
            sub_questions=[
                SubQuestion(id="q1", question=hop, strategy="hybrid", reason="the entity the question describes"),
                SubQuestion(id="q2", question=question, strategy="graph" if has_kg else "hybrid",
                            depends_on=["q1"], reason="what is asked, of the entity q1 found (its answer joins the "
                                                      "search)"),
            ],
        )
    if nested and len(found := mentions(question, names)) == 1:
        anchor = found[0].text
        hop = first_hop(question, anchor)
        return QueryPlan(
            pattern="bridge", planner="rules",
            reason=f"a bridge question through {anchor!r}: first the entity it describes, then what is asked of it",
            sub_questions=[
                SubQuestion(id="q1", question=hop or anchor, strategy=_strategy(anchor, known, has_kg=False),
                            entity=anchor, reason=f"the entity the question describes through {anchor}" if hop
                            else f"the passage about {anchor}"),
                SubQuestion(id="q2", question=question, strategy="graph" if has_kg else "hybrid",
                            depends_on=["q1"], reason="what is asked, of the entity q1 found (its answer joins the "
                                                      "search)"),
            ],
        )
    return None


def parts_plan(question: str, has_kg: bool) -> QueryPlan | None:
    """One step per part of a message that asks several things (``parts.question_parts``), in parallel and
    independent: each part runs the whole path of a question (retrieval, the answer decision, the writer, the
    check) and the writer composes their answers; None when the message asks one thing."""
    parts = question_parts(question)
    if len(parts) < 2:
        return None
    return QueryPlan(
        pattern="compound", planner="rules",
        reason=f"the message asks {len(parts)} things: each part is answered on its own",
        sub_questions=[SubQuestion(id=f"q{n}", question=part, strategy="graph" if has_kg else "hybrid",
                                   reason=f"part {n} of the message")
                       for n, part in enumerate(parts, start=1)],
    )


def comparison_plan(question: str, names: Sequence[str], known: set[str]) -> QueryPlan | None:
    """One retrieval per side of a comparison ("A or B", "A和B…更早"), in parallel: each side's step asks the
    question of that side alone. A side the entity store does not know is searched by keywords and meaning
    (hybrid): the graph has no node to start from, and the side's own sentence is found by its spelling (a
    news piece's later chunk that names the second bridge), not by the document the graph reaches first."""
    pair = comparison_pair(question, names) or _offered_pair(question)
    if pair is None:
        return None
    a, b = pair
    first = _tidy(question[: a.end] + question[b.end :])
    second = _tidy(question[: a.start] + question[b.start :])
    return QueryPlan(
        pattern="comparison", planner="rules",
        reason=f"compares {a.text!r} and {b.text!r}: one retrieval each, in parallel",
        sub_questions=[
            SubQuestion(id="q1", question=first, strategy=_strategy(a.text, known, has_kg=False),
                        entity=a.text, reason=f"what the question asks, about {a.text}"),
            SubQuestion(id="q2", question=second, strategy=_strategy(b.text, known, has_kg=False),
                        entity=b.text, reason=f"what the question asks, about {b.text}"),
        ],
    )


def _offered_pair(question: str) -> tuple[Mention, Mention] | None:
    """The two things a question offers as a choice by its shape ("A和B哪个更…", "Which is …, A or B?"), where
    the tagger found fewer than two of its names (《北纬三十度》修复版和《雾港来信》: each side is still searched)."""
    said = offered(question)
    if len(said) != 2:
        return None
    # (the owner both share stays in each side's question: 锦澜酒店的如意宴和龙凤宴 → 锦澜酒店的龙凤宴)
    a_text, b_text = without_owner(said[0].strip(), said[1].strip()), said[1].strip()
    a_at = question.find(a_text)
    b_at = question.find(b_text, a_at + len(a_text)) if a_at >= 0 else -1
    if a_at < 0 or b_at < 0 or not a_text or not b_text:
        return None
    return Mention(a_text, a_at, a_at + len(a_text)), Mention(b_text, b_at, b_at + len(b_text))


_RELATIVE_EN = re.compile(r"\b(?:the|a|an)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+(where|who|whom|which|that|whose)\s+(.+)",
                          re.IGNORECASE)
_OF_EN = re.compile(r"\bthe\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+of\s+(?:the\s+)?$", re.IGNORECASE)
_PERSON_NOUN = re.compile(r"人|者|长|家|师|妻|夫|父|母|子|女|兄|弟|姐|妹|员|手|帝|王|主席|总裁|经理")


def first_hop(question: str, anchor: str) -> str | None:
    """The bridge's first step as its own question: which entity the question describes through its named
    one ("When was the town where the K9 is assembled founded?" → "Which town is it where the K9 is
    assembled?"; "X的创始人的妻子是谁" → "X的创始人是谁"; "the author of X" → "Who is the author of X?"), or
    None when no pattern fits."""
    at = question.find(anchor)
    if at < 0:
        return None
    after = question[at + len(anchor):]
    if m := _ROLE_THEN_ZH.match(after):
        # "《北岸》的导演是哪一年出生的？" → "《北岸》的导演是谁？": the role by the chains' lexicon, then what is asked of it
        opening = question[at - 1] if at > 0 and question[at - 1] in "《「“" else ""
        return f"{opening}{anchor}{m[1]}的{m[2]}是谁？"
    if m := re.match(r"的([\u4e00-\u9fff]{1,6}?)的", after):
        noun = m[1]
        return f"{anchor}的{noun}{'是谁' if _PERSON_NOUN.search(noun) else '是什么'}？"
    if m := _OF_EN.search(question[:at]):
        noun = m[1]
        return f"{'Who' if noun.casefold().split()[-1] in _PEOPLE else 'What'} is the {noun} of {anchor}?"
    for m in _RELATIVE_EN.finditer(question[:at + len(anchor)] + after):
        if m.start(3) <= at:
            noun, clause = m[1], m[3]
            end = clause.find(anchor) + len(anchor)
            tail = clause[end:].split()
            # the clause runs on after the anchor up to the outer question's last word ("… is assembled | founded?")
            rest = " ".join(w for w in tail[:-1] if w.islower())
            body = f"{clause[:end]} {rest}".strip().rstrip("?,.")
            return f"Which {noun} is it {m[2]} {body}?"
    return None


_ROLE_THEN_ZH = re.compile(r"([》」”]?)的?(" + "|".join(sorted((w for w in [*RELATION_WORDS, *KINSHIP] if not w.isascii()),
                                                                key=len, reverse=True))
                           + r")(?=是哪|是何|是什么时候|出生|去世|逝世|在哪|建|成立|创立|毕业|的(?!.*是谁))")
_CLAUSE_ZH = re.compile(r"^([\u4e00-\u9fffA-Za-z0-9 ]{2,30}?(?:所在|位于|坐落|生产|组装|制造|出生|成立|举办|举行|创办|毕业|"
                        r"执教|承建|运营|经营|设计|建造|首创|收藏|主办)"
                        # or the verb first ("承建东岭剧院的公司", "首创X的厨师")
                        r"|(?:承建|运营|经营|设计|建造|首创|收藏|主办|生产|制造|执教)[\u4e00-\u9fffA-Za-z0-9 《》]{2,30}?)"
                        r"的([\u4e00-\u9fff]{1,4}?)(?=是|在|有|于|的|叫|位|为|建|成立|创立|出生|[，,。？?])")


def chinese_first_hop(question: str) -> str | None:
    """The first step of a Chinese bridge question whose entity is described by a relative clause ending in a
    verb of place or origin ("隼鸟单车自有工厂所在的镇是哪一年建立的？" → "隼鸟单车自有工厂所在的镇是哪里？"), or
    None."""
    m = _CLAUSE_ZH.match(question.strip())
    if m is None:
        return None
    # asked by the kind of entity the noun names: a person, a firm (哪家: "承建X的公司是哪家？"), else a place (a
    # school "是哪里", as before)
    kind = noun_kind(m[2])
    firm = kind == ORGANIZATION and m[2].endswith(("公司", "企业", "厂商", "厂家", "集团", "俱乐部", "球队", "银行"))
    asked = "是谁" if kind == PERSON or _PERSON_NOUN.search(m[2]) else "是哪家" if firm else "是哪里"
    return f"{m[1]}的{m[2]}{asked}？"


_PEOPLE = frozenset({"author", "director", "founder", "creator", "wife", "husband", "spouse", "father", "mother",
                     "son", "daughter", "owner", "ceo", "president", "singer", "writer", "composer", "producer",
                     "inventor", "designer", "architect", "manager", "coach", "captain", "leader", "star"})


def single_plan(question: str, has_kg: bool, why: str) -> QueryPlan:
    """A one-step plan (the planner was asked for, but no pattern splits the question)."""
    return QueryPlan(pattern="single", planner="rules", reason=why, sub_questions=[
        SubQuestion(id="q1", question=question, strategy="graph" if has_kg else "hybrid", reason="the whole question")])


# ---------------------------------------------------------------------------- plan checks and the DAG


def check_plan(plan: QueryPlan, max_steps: int) -> str | None:
    """What is wrong with a (LLM-written) plan, or None: size, unique ids, known dependencies, no cycle."""
    steps = plan.sub_questions
    if not steps:
        return "the plan has no sub-question"
    if len(steps) > max_steps:
        return f"{len(steps)} sub-questions (at most {max_steps})"
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        return "sub-question ids are not unique"
    for s in steps:
        if not s.question.strip():
            return f"{s.id} has no question"
        if unknown := [d for d in s.depends_on if d not in ids or d == s.id]:
            return f"{s.id} depends on unknown or itself: {unknown}"
    done: set[str] = set()
    while len(done) < len(steps):
        ready = [s.id for s in steps if s.id not in done and set(s.depends_on) <= done]
        if not ready:
            return "the dependencies form a cycle"
        done.update(ready)
    return None


def ready_steps(plan: QueryPlan) -> list[SubQuestion]:
    """Pending sub-questions whose dependencies are all done (an aborted parent blocks nothing: its
    dependents go on without its finding)."""
    status = {s.id: s.status for s in plan.sub_questions}
    return [s for s in plan.sub_questions
            if s.status == "pending" and all(status.get(d) in ("done", "aborted") for d in s.depends_on)]


def replace_steps(plan: QueryPlan, changed: Iterable[SubQuestion]) -> QueryPlan:
    """The plan with some sub-questions replaced (by id) and new ones appended."""
    by_id = {s.id: s for s in changed}
    kept = [by_id.pop(s.id, s) for s in plan.sub_questions]
    return plan.model_copy(update={"sub_questions": [*kept, *by_id.values()]})


def latest_outcomes(outcomes: Sequence[StepOutcome]) -> dict[str, StepOutcome]:
    """The last execution of each sub-question."""
    return {o.sub_question: o for o in outcomes}


def merge_hits(plan: QueryPlan, outcomes: Sequence[StepOutcome]) -> list[Hit]:
    """Interleave the sub-questions' results in plan order (each one's best first, then each one's second...),
    one result per document, so every part of the question is represented at the top. A comparison keeps one
    result per chunk instead: its two sides are often stated in two chunks of one document (a news piece giving
    both bridges' build years), and the second side's chunk is what its step found."""
    latest = latest_outcomes(outcomes)
    lists = [latest[s.id].hits for s in plan.sub_questions if s.id in latest and latest[s.id].status == "ok"]
    seen: set[str] = set()
    merged: list[Hit] = []
    for rank in range(max((len(x) for x in lists), default=0)):
        for hits in lists:
            key = (hits[rank].id if plan.pattern == "comparison" else hits[rank].doc_id) if rank < len(hits) else ""
            if key and key not in seen:
                seen.add(key)
                merged.append(hits[rank])
    return by_date(merged) if plan.pattern == "temporal" else merged


def titled(title: str, entity: str) -> bool:
    """Whether a document's title names the entity: equal, or the entity with a qualifier ("Frozen (2013 film)",
    "Nantong, Jiangsu")."""
    t, e = title.casefold().strip(), entity.casefold().strip()
    t = t.removeprefix("the ")
    e = e.removeprefix("the ")
    return t == e or t.startswith((f"{e} (", f"{e},"))


def named_first(hits: Sequence[Hit], entity: str | None) -> list[Hit]:
    """The documents titled with the sub-question's entity first (in search order), then the rest."""
    if not entity:
        return list(hits)
    own = [h for h in hits if titled(h.title, entity)]
    return [*own, *(h for h in hits if not titled(h.title, entity))]


_YEAR = re.compile(r"(?<!\d)(1[5-9]\d{2}|20\d{2})(?!\d)")


def hit_date(hit: Hit) -> int | None:
    """A result's date (yyyymmdd metadata, else the first year its text names, as yyyy0000)."""
    if hit.date:
        return hit.date
    m = _YEAR.search(hit.text)
    return int(m[1]) * 10000 if m else None


def by_date(hits: Sequence[Hit]) -> list[Hit]:
    """Results in date order (undated ones last, in their search order)."""
    dated = sorted((h for h in hits if hit_date(h) is not None), key=lambda h: hit_date(h) or 0)
    return [*dated, *(h for h in hits if hit_date(h) is None)]


STRATEGY_ORDER: tuple[Strategy, ...] = ("hybrid", "graph", "semantic", "structured")


def next_strategy(tried: Iterable[Strategy], has_kg: bool) -> Strategy | None:
    """A strategy this sub-question has not tried yet (structured only while it has not failed)."""
    used = set(tried)
    for s in STRATEGY_ORDER:
        if s not in used and (s != "graph" or has_kg) and s != "structured":
            return s
    return None
