"""The extractive writer: the short answer (``answerSpan``: a candidate of the kind the question asks for — a
person, a date, a number with its unit … — in the evidence, nearest to the question's words there; a verdict;
a list gathered across passages), then the supporting sentences, each with its citation."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from graphs.domain import Citation, Hit
from graphs.kg.mentions import strip_disambiguation
from graphs.rag.answer import chains
from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.rag.answer.evidence import (
    Evidence,
    Sentence,
    anchored,
    document_year,
    find_evidence,
    of_subject,
    plain_subject,
    sentences_of,
)
from graphs.rag.answer.question import (
    CODE,
    EVIDENCE_PASSAGES,
    Question,
    mentioned,
    passage_words,
    states_codes,
)
from graphs.rag.answer.verdicts import verdict_of
from graphs.rag.relation_cues import entity_kind
from graphs.text.answer_types import listed_type
from graphs.text.dates import dates_itself, in_year, on_calendar, only_a_date, stated_years
from graphs.text.fields import field_of, names_column
from graphs.text.governors import names_asked_role
from graphs.text.normalize import has_han, normalize
from graphs.text.relations import asked_relation
from graphs.text.relations import stated_at as relation_at
from graphs.text.spans import Span, asked_unit, candidates, named_kind, nearest, unit_group
from graphs.text.terms import weighted_coverage
from graphs.text.units import currency_before

RUNNER_UP = 0.8
"""A second piece of evidence nearly as good as the best (this share of its score) is shown too, where it states
what is asked (``states_asked``)."""
IN_UNIT = 0.7
"""A sentence whose value is in the unit the question counts leads when it scores this share of the best one's."""
TYPED = ("person", "organization", "date", "place", "number")
"""The kinds of answer a sentence holds as a typed candidate (``Evidence.span``)."""
ASKS_REASON = re.compile(r"^\W*why\b|\bfor what reason\b|\bwhat (?:is|was|were) the reason\b|为什么|为何|什么原因|原因是什么",
                         re.IGNORECASE)
REASON = re.compile(r"\b(?:because|due to|owing to|thanks to|as a result of|in order to|so that)\b|因为|由于|因此|所以|"
                    r"为了|原因是|导致", re.IGNORECASE)

CONSEQUENCE = re.compile(r"^\W*(?:因此|因而|所以|于是|故而|从而|由此|此举|此战|此事|这使|这也|这就|这是|也因此|正因如此|"
                         r"(?:therefore|thus|hence|consequently|as a result|for this reason|this is why|that is why|"
                         r"so)\b)", re.IGNORECASE)
"""A sentence that opens by pointing back to the one before it as its cause ("因此…", "此战奠定了…", "As a result, …")."""
POINTS_BACK = re.compile(r"^\W*(?:这(?:是|便是|就是|座|家|所|位|个|项|条|里|款|部|种)|那(?:是|座|家|所|位|个|里)|该(?:[座家所位个项条款部种]|公司|机构|"
                         r"项目|地区|工厂|组织|城市|镇|村|校|馆|院|厂|店)|它(?:们)?|他们|她们|此(?:后|处|地|人|举)|"
                         r"(?:it|this|these|they|he|she)\s+(?:is|was|are|were|has|had|became|remains|remained|serves|served|"
                         r"lies|lay|stands|stood|opened|holds|held)\b)", re.IGNORECASE)
"""A sentence whose subject points back to the one before it ("这是…的第一座整车工厂", "该公司…", "It was founded …"):
alone it does not say what it is about."""

_COUNTED_ITEMS = re.compile(r"(?:以下|如下|下列|主要有|包括|分为|有)([二三四五六七八九两]|\d)(?:个)?(?:点|方面|项|条|种|类|部分|阶段)"
                            r"|\b(?:the following|as follows)\b|[:：]\s*$", re.IGNORECASE)
_NUMERALS = "一二三四五六七八九"
_ORDINAL = re.compile(r"^\W*(?:第([一二三四五六七八九])|其([一二三四五六七八九])|([一二三四五六七八九])是|(\d)[.、)）]|"
                      r"[（(](\d)[)）]|(首先|其次|再次|最后)|(first|second|third|fourth|finally)\b)", re.IGNORECASE)
ENUMERATION_MOST = 8
"""Sentences an announced enumeration runs on for at most."""


def announced(sentence: str) -> int | None:
    """The number of items a sentence announces ("以下三点", "分为4个阶段": 3, 4; "the following:", a line that
    ends with a colon: 0, as many as follow with an ordinal); None when it announces none."""
    m = _COUNTED_ITEMS.search(sentence)
    if m is None:
        return None
    if m[1] is None:
        return 0
    return int(m[1]) if m[1].isdigit() else (2 if m[1] == "两" else _NUMERALS.index(m[1]) + 1)


def _ordinal(sentence: str) -> int | None:
    m = _ORDINAL.match(sentence)
    if m is None:
        return None
    n = next(g for g in m.groups() if g)
    if n.isdigit():
        return int(n)
    if n in _NUMERALS:
        return _NUMERALS.index(n) + 1
    return {"首先": 1, "first": 1, "其次": 2, "second": 2, "再次": 3, "third": 3, "fourth": 4}.get(n.casefold(), 99)


def enumeration(q: Question, hits: Sequence[Hit], opening: Sentence, items: int) -> list[Sentence]:
    """The sentences after ``opening`` in its passage that state the items it announces: up to and including the
    one that opens the last counted item (``items``), or, uncounted, while each opens with an ordinal."""
    after = sorted((s for s in sentences_of(q, hits) if s.hit == opening.hit and s.position > opening.position),
                   key=lambda s: s.position)
    out: list[Sentence] = []
    for s in after[:ENUMERATION_MOST]:
        if s.position != opening.position + 1 + len(out):
            break  # a heading or an instruction between: the enumeration has ended
        n = _ordinal(s.text)
        if items == 0 and n is None:
            break
        out.append(s)
        if items and n is not None and n >= items:
            break
    else:
        if items:
            return []  # the counted items never end within reach: no run-on guessed
    return out


@dataclass(frozen=True)
class Written:
    """An extractive answer: its text, short answer and citations."""

    text: str
    span: str | None
    citations: list[Citation]


def _cite(hits: Sequence[Hit], used: Iterable[int]) -> list[Citation]:
    """The citations of the passages used, in the order the answer's body cites them (passage order)."""
    return [Citation.of(n + 1, hits[n]) for n in sorted(set(used))]


def _join(parts: Iterable[str]) -> str:
    """Sentences one after the other: a space between them, none between two Chinese ones."""
    out = ""
    for part in (p for p in parts if p):
        tail = re.sub(r"(?:\[\d+\])+$", "", out)[-1:]
        joined = not out or ((has_han(tail) or tail in "。！？；：，、”」』）") and has_han(part[:1]))
        out += part if joined else f" {part}"
    return out


def _lead(span: str, chinese: bool) -> str:
    span = span.strip()
    return f"{span}。" if chinese else (span if span.endswith((".", "!", "?")) else f"{span}.")


def _body(sentences: Iterable[Sentence], after: Iterable[Sentence] = ()) -> list[str]:
    """The sentences shown, each with its citation, in their passages' order; those ``after`` (a runner-up
    another evidence adds: the K30's row beside the K30 Pro's asked) after the answering ones, in their passages'
    order too (the answering ones stay in theirs: a reason and its consequence, a description over two sentences,
    read as written)."""
    trailing = {(s.hit, s.position) for s in after}
    unique = {(s.hit, s.position): s for s in sentences}
    return [f"{s.text}[{s.hit + 1}]" for s in sorted(unique.values(), key=lambda s: (
        (s.hit, s.position) in trailing, s.hit, s.position))]


def adds_nothing(q: Question, hits: Sequence[Hit], answer: Sentence, s: Sentence, *, spanned: bool) -> bool:
    """Whether a sentence shown beside the answering one adds nothing to what is asked, so is neither shown nor
    cited: a line that only dates its page ("日期：2026年3月2日", "Date: 4 May") where no date is asked; its
    passage's title or heading line; and, beside a short answer (``spanned``: without one the answering line may be
    of the wrong column and the line beside it of the right one), a table cell of another column than the answer's
    that the question does not name (a boat's class beside its weight asked). (Another passage's sentence sharing
    none of the question's terms the answering sentence states was tried and dropped: where the answering sentence
    holds only the asked attribute's word, "charged 10 yuan per day", the other may hold the subject, the headlamp's
    own fee line.)"""
    if s == answer:
        return False
    text = s.text.strip()
    if q.kind != "date" and (only_a_date(text) or (dates_itself(text) and only_a_date(_value_of(text)))):
        return True
    hit = hits[s.hit] if s.hit < len(hits) else None
    if hit is not None and normalize(text) in {normalize(t) for t in (hit.title, hit.section) if t}:
        return True
    if not spanned:
        return False  # no short answer: the answering line may be of the wrong column, the one beside it the right
    given, other = field_of(answer.text), field_of(text)
    return given is not None and other is not None and bool(given.row) and bool(other.row) and \
        normalize(given.label) != normalize(other.label) and not names_column(other, q.text)


def _value_of(line: str) -> str:
    """What a labelled line states after its label ("2026年1月10日" of "日期：2026年1月10日"); the line when no field."""
    f = field_of(line)
    return f.value if f is not None else line


def _kept(q: Question, hits: Sequence[Hit], answer: Sentence, shown: list[Sentence], *, spanned: bool
          ) -> list[Sentence]:
    """``shown`` less the sentences that add nothing to the answer (``adds_nothing``)."""
    return [s for s in shown if not adds_nothing(q, hits, answer, s, spanned=spanned)]


def states_asked(q: Question, e: Evidence, *, typed: bool = True, focused: bool = True) -> bool:
    """Whether evidence states what the question asks of its subject: its contexts name every entity the question
    names, its answering sentence holds the terms next to the question word (where the question has them), a
    candidate of the asked kind (a person, a date, a number …; ``typed`` False: not required, a number may be a
    word) and, for a "why", a reason (``focused`` False: the focus terms are not required, where the best evidence
    has none of them either). A sentence that only shares the question's words (the same shop, another fact of
    it; another file's namesake) does not."""
    if e.anchored < 1.0 or (focused and q.focus and e.focus <= 0.0):
        return False
    if typed and q.kind in TYPED and e.span is None:
        return False
    return not ASKS_REASON.search(q.text) or any(REASON.search(s.text) for s in e.sentences)


def _on_calendar(q: Question, hits: Sequence[Hit], e: Evidence) -> str | None:
    """The evidence's short answer; for a date, a weekday or a relative day (on Sunday, 前天) as the calendar date
    it names in its passage, which is dated to the day (a dateline, a header's date): "4 May 2025 (on Sunday)"."""
    if e.span is None:
        return None
    said = e.sentences[e.span_in]
    written = hits[said.hit].date if q.kind == "date" and said.hit < len(hits) else None
    if q.kind == "date" and (year := in_year(e.span.text, document_year(said))) is not None:
        # 本年度 in the 2023 annual summary: 2023年（本年度）, "2024 (this year)"
        return f"{year}年（{e.span.text}）" if has_han(said.text) else f"{year} ({e.span.text})"
    if (day := on_calendar(e.span.text, said.text, written)) is None:
        return e.span.text
    named = re.sub(r"^on\s+", "", e.span.text, flags=re.IGNORECASE)
    return f"{day}（{named}）" if has_han(said.text) else f"{day} ({named})"


def answering(q: Question, e: Evidence) -> list[Sentence]:
    """The sentences of evidence an answer shows: all of them, less those of another file joined to the one
    that holds the answer by a name the question itself names (no hop is needed to find it)."""
    if e.span is None or len(e.sentences) < 2 or not e.link or normalize(e.link) not in normalize(q.text):
        return list(e.sentences)
    answer = e.sentences[e.span_in]
    return [s for s in e.sentences if s.hit == answer.hit]


def extractive(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], chinese: bool,
               chained: Written | None = None) -> Written:
    """The short answer first, then the supporting sentence(s), each with its citation (``chained``: a
    relation chain's answer, ``multihop``, when one was followed). An amount is shown with the currency its
    sentence writes it in (£35, not 35)."""
    return _in_currency(chained if chained is not None else _written(q, hits, evidence, chinese))


_AMOUNT = re.compile(r"\d(?:[\d,.，\s]*\d)?")


def _in_currency(written: Written) -> Written:
    """The short answer with the currency sign or code its sentence writes before it ("35" → "£35", "1,290" →
    "EUR 1,290"), in the short answer and the line that leads the answer; unchanged when the sentence writes none,
    or writes the same number in two currencies."""
    span = written.span
    if not span or not _AMOUNT.fullmatch(span.strip()):
        return written
    led = next((x for x in (_lead(span, False), _lead(span, True)) if written.text.startswith(x)), "")
    body = written.text[len(led):]
    signs = {body[start:m.start()] for m in re.finditer(rf"(?<![\d.,]){re.escape(span.strip())}(?![\d])", body)
             if (start := currency_before(body, m.start())) is not None}
    if len(signs) != 1:
        return written
    shown = f"{signs.pop()}{span.strip()}"
    return replace(written, text=led.replace(span.strip(), shown, 1) + body, span=shown)


def _written(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], chinese: bool) -> Written:
    """``extractive`` without a chain's answer, the amount as its span was cut."""
    verdict = verdict_of(q, evidence, chinese)
    if verdict is not None:
        used = [s.sentence for s in verdict.sides if s.sentence is not None]
        return Written(text=_join([verdict.text, *_body(used)]), span=verdict.span,
                       citations=_cite(hits, [s.hit for s in used]))
    if not evidence:
        return Written(text="", span=None, citations=[])
    best = evidence[0]
    if q.kind == "list" and (gathered := gather(q, hits, evidence, chinese)) is not None:
        return gathered
    # every sentence shown states what is asked of the subject (or is the hop to it, in the same evidence): for a
    # "why" the best evidence without a reason gives way to a nearly as good one with it, and a runner-up that
    # does not state what is asked is not glued on (another file's sentence that only shares the question's words)
    top = best.score
    if ASKS_REASON.search(q.text) and not states_asked(q, best):
        best = next((e for e in evidence if e.score >= RUNNER_UP * top and states_asked(q, e)), best)
    if q.kind in TYPED and best.span is None and best.anchored == 1.0:
        # the best sentence holds no value of the asked kind (where it happened, how many people, who): a nearly
        # as good one about the same subject that does leads, the best one still shown after it
        # (a count in the very unit the question counts — 214 people for "how many people" — is strong enough
        # to lead from a little further down: the sentence that gives it often leaves the subject to the one before)
        unit = asked_unit(q.text) if q.kind == "number" else None
        typed = next((e for e in evidence if e.span is not None and e.anchored == 1.0 and not e.bridge and e.score
                      >= (IN_UNIT if unit and unit_group(e.span.text) == unit else RUNNER_UP) * top), None)
        if typed is not None:
            untyped, best = best, typed
            shown = [*answering(q, best), *(s for s in answering(q, untyped) if s not in best.sentences)]
            shown = _kept(q, hits, best.sentences[best.span_in], shown, spanned=False)
            span = _on_calendar(q, hits, best)
            return Written(text=_join([*([_lead(span, chinese)] if span else []),
                                       *_body(shown, [s for s in shown if s not in best.sentences])]), span=span,
                           citations=_cite(hits, [s.hit for s in shown]))
    shown = answering(q, best)
    added: list[Sentence] = []
    # a runner-up of another year than the question's is not shown ("the 2025 run's fee" is not the 2024 one)
    # nor, for a question that names its subject plainly, another entity's sentence that does not name it
    plain = plain_subject(q)
    # nor one that misses a code the best states (the E1 line beside the E3 line asked)
    runner = next((e for e in evidence if e is not best and not set(e.sentences) <= set(shown)
                   and (e.coded or not best.coded)
                   and all(y in s.context for y in q.years for s in e.sentences)
                   and not (plain and not all(of_subject(q, s) for s in e.sentences))), None)
    # (a candidate of the asked kind is required of another file's runner-up; in the answer's own passage a
    # number may be a word: "renewed twice")
    # a name (who, which organization, where) its sentence gives beside what is asked needs no second sentence
    # without a name of the asked kind: such a runner-up is another fact of the subject ("The litter pick is on
    # Saturday" after where to meet). One with a name of its own stays (HotpotQA: "Ward" led, the runner-up
    # held "Portland, Oregon"), and so does any for a question that nests another (the river of the town where …)
    named = q.kind in NAME_KINDS and best.span is not None and best.focus > 0 and not q.nested
    if runner is not None and not (named and runner.span is None) and runner.score >= RUNNER_UP * top and states_asked(
            q, runner, typed=not {s.hit for s in runner.sentences} <= {s.hit for s in shown}, focused=best.focus > 0):
        added = [s for s in runner.sentences if s not in shown][:1]
        shown += added
    if ASKS_REASON.search(q.text) and (opening := best.sentences[0]).position > 0 and CONSEQUENCE.match(opening.text):
        # "因此它被称为…", "This is why …": the sentence states the consequence asked about, the reason is the one
        # before it in its passage
        before = next((s for s in sentences_of(q, hits) if s.hit == opening.hit and s.position == opening.position - 1),
                      None)
        if before is not None and before not in shown:
            shown.insert(0, before)
    if (opening := shown[0]).position > 0 and POINTS_BACK.match(opening.text) \
            and not all(mentioned(forms, opening.folded) for forms in q.anchors):
        # "这是特斯拉在美国以外建设的第一座整车工厂": the sentence that says what "这" is (the one before it in its
        # passage) comes first, where the answering sentence does not name the question's subject itself
        before = next((s for s in sentences_of(q, hits) if s.hit == opening.hit and s.position == opening.position - 1),
                      None)
        if before is not None and before not in shown:
            shown.insert(0, before)
    if q.kind in ("other", "definition", "list") and (items := announced(shown[-1].text)) is not None:
        # "其特点主要有以下三点：第一，…。…。第二，…": the items it announces, up to the last one it counts
        shown += enumeration(q, hits, shown[-1], items)
    elif q.kind in ("other", "definition") and not (ASKS_REASON.search(q.text) and states_asked(q, best)):
        # a reason, a description or a definition often runs on into the next sentence of its passage (not a
        # reason the answering sentence states already: the next one is about something else)
        last = best.sentences[-1]
        following = next((s for s in sentences_of(q, hits) if s.hit == last.hit and s.position == last.position + 1),
                          None)
        if (following is not None and following not in shown
                and not (CODE.match(following.text.strip()) and not states_codes(q.codes, following.text))):
            shown.append(following)  # not the next item of a list of codes ("E3: …" is not run on by "E4: …")
    # a short answer only where the answering sentence states what is asked (the terms next to the question
    # word): elsewhere a candidate of the right kind is as often wrong as right
    span = _on_calendar(q, hits, best) if best.span is not None and (best.focus > 0 or not q.focus or best.bridge) \
        else None
    answer = best.sentences[best.span_in] if best.span is not None else best.sentences[0]
    shown = _kept(q, hits, answer, shown, spanned=span is not None and not best.bridge) or shown
    added = [s for s in added if s in shown]
    parts = [_lead(span, chinese)] if span else []
    return Written(text=_join([*parts, *_body(shown, added)]), span=span,
                   citations=_cite(hits, [s.hit for s in shown]))


NAME_KINDS = frozenset({"person", "organization", "place"})
"""Question kinds answered by a name the answering sentence writes."""


LIST_PASSAGES = 3
"""Passages a list answer gathers from (those that mention what the question names, best first)."""


def gather(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], chinese: bool) -> Written | None:
    """A list question's answer: the entities of the asked type tagged on the passages about the question's
    subject, each once, with the best evidence and a sentence of each passage that names them; None when none
    are tagged."""
    etype = listed_type(q.text)
    if etype is None:
        return None
    asked = normalize(q.text)
    about = [n for n, h in enumerate(hits[:EVIDENCE_PASSAGES])
             if anchored(q, passage_words(h)) == 1.0][:LIST_PASSAGES]
    names: dict[str, int] = {}
    for n in about:
        for name in hits[n].entities.get(etype, []):
            if normalize(name) not in asked and not any(normalize(name) in f for forms in q.anchors for f in forms):
                names.setdefault(name, n)
    if not names:
        return None
    used = sorted(set(names.values()))
    best_of = {n: next((s for e in evidence for s in e.sentences if s.hit == n), None) for n in used}
    # the best evidence first: the sentence that answers often states the list itself
    first = list(evidence[0].sentences) if evidence else []
    shown = [*first, *(s for s in best_of.values() if s is not None and s not in first)]
    span = ("、" if chinese else ", ").join(names)
    return Written(text=_join([_lead(span, chinese), *_body(shown)]), span=span,
                   citations=_cite(hits, [s.hit for s in shown]))


def multihop(q: Question, hits: Sequence[Hit], chinese: bool, full: Mapping[str, str] | None = None,
             lookup: chains.Lookup | None = None, fetch: chains.Fetch | None = None
             ) -> tuple[Written, list[Hit]] | chains.Broken | None:
    """A multi-hop answer read as a relation chain (``graphs.rag.answer.chains``): a comparison of two
    entities by a dated attribute through each side's chain, "the same country" of two entities, or the asked
    attribute at the end of the question's relations; every hop's sentence cited. None when the question is
    not of these shapes or a hop is not found (the evidence-based writer answers then). ``full``: the hits'
    whole documents by id, where fetched (``fetch``: one fetched when a hop is not in its chunk); ``lookup``: finds the passage of a hop's entity the retrieval did not
    bring, which then joins the hits returned with the answer (its citations number them). A chain followed to
    an entity that does not lead on is returned as ``chains.Broken``: the documents do not answer then."""
    span: str | None
    found = chains.compare(q.text, hits, full, lookup, fetch)
    if found is None and q.kind == "yes_no":
        found = chains.same_country(q.text, hits, full, lookup, fetch)
    if found is not None:
        steps, span, lead, used = found.steps, found.answer, found.lead, found.hits
    elif (short := chains.short_form(q.text, hits)) is not None:
        # "known by which acronym?": the short form a passage about the subject defines, its sentence cited
        steps, span, lead, used = short.steps, short.answer, short.answer, short.hits
    elif q.kind == "date" and (beside := chains.apposed(q.text, hits, full, lookup, fetch)) is not None:
        # "… a remake of Always, released in which year": the date of the name the question sets it beside
        steps, span, lead, used = beside.steps, beside.answer, beside.answer, beside.hits
    elif q.kind not in ("yes_no", "comparison", "list") and (
            followed := chains.follow(q.text, hits, full, lookup, fetch)) is not None:
        if isinstance(followed, chains.Broken):
            return followed
        if q.kind in ("date", "number") and not re.search(r"\d", followed.answer):
            return None  # a chain that ends in a name answers no "when" or "how many": it read another question
        steps, span, lead, used = followed.steps, followed.answer, followed.answer, followed.hits
    elif q.kind not in ("yes_no", "comparison", "list") and (
            reached := chains.described(q.text, hits, full, lookup, fetch)) is not None:
        # "the city that is home to X", "X's institute", "X总部所在的城市": what is asked, in the passage of the
        # entity the description reaches, the link's sentence cited before it
        if (said := of_described(q, reached)) is None:
            # an entity reached through a role only: its passage not stating what is asked tells nothing
            return None if reached.by_role else unstated(q, reached)
        steps, span, used = [*reached.steps, *said[0]], said[1], reached.hits
        lead = span or ""
    else:
        return None
    if q.kind == "person" and span and (named_kind(span) is not None or names_asked_role(q.text, next(
            (text for _, text in reversed(steps) if span in text), "")) is False):
        # a chain that ends in a street, a river or a firm ("Weir Lane"), or in a sentence that does not write the
        # asked role (the head office's address for 总经理是谁), answers no "who": the evidence does
        return None
    every = used or list(hits)
    shown = list(dict.fromkeys(steps))
    body = [f"{text}[{n + 1}]" for n, text in shown]
    written = Written(text=_join([*([_lead(lead, chinese)] if lead else []), *body]), span=span,
                      citations=_cite(every, [n for n, _ in shown]))
    return written, every


def _rest_focus(q: Question, reached: chains.Described) -> dict[str, float]:
    """The terms next to the question word that the answering sentence must write: not the noun the question
    word asks, which is the answer's kind ("Which shipyard built …": "built by Harlen Yard"), nor the
    description's nouns."""
    kinds = {k for n in chains.asked_nouns(q.text) for k in (n, normalize(n))}
    return {t: w for t, w in q.focus.items() if t not in kinds and t not in reached.nouns}


def of_described(q: Question, reached: chains.Described) -> tuple[list[tuple[int, str]], str | None] | None:
    """What the question asks of the entity its description reached, read in that entity's passage as if the
    question named it: its words less the description's (the named entity, the kind nouns) weigh the sentences
    of that passage, and the best that states what is asked (a value of the asked kind, the terms next to the
    question word) answers, with its short answer; None when none does."""
    p = reached.passage
    # a birth or death asked of the entity reached is read as the chains read it (a lifespan in brackets:
    # "Miriam Oakes (12 March 1889 – 4 October 1967)" for "… the astronomer who founded X die?")
    event = chains.asked_of(q.text.replace(reached.clause, " ") if reached.clause else q.text)
    if event is not None and event.startswith(("birth_", "death_")) and (
            value := chains.value_of(p, event)) is not None:
        return [(p.hit, value.sentence)], value.text
    hit = reached.hits[p.hit].model_copy(update={"text": p.text})
    # the description's words say how the entity was reached ("named after …", "所在的"), not what is asked of it;
    # a name the question writes outside it is part of what is asked ("Which constituency did the father of X
    # represent in the House of Commons?": the reached passage's sentence names the House)
    clause = normalize(reached.clause)
    outside = normalize(q.text).replace(clause, " ") if clause else normalize(q.text)
    named = {f for forms in q.anchors for f in forms if not (clause and f in outside and f not in clause)}
    weights = {t: w for t, w in q.weights.items()
               if t not in reached.nouns and t not in named and not any(t in f for f in named) and t not in p.title
               and (t in outside or t not in clause)}
    if not weights:
        return None
    weights[p.title] = max((q.weights.get(forms[0], 1.0) for forms in q.anchors), default=1.0)
    # the noun the question word asks is the answer's kind ("Which shipyard built …": "built by Harlen Yard"),
    # not a word the answering sentence must write; the other terms next to the question word are
    focus = {t: w for t, w in _rest_focus(q, reached).items() if t in weights}
    asked = replace(q, weights=weights, anchors=[(p.title, *p.names)], focus=focus, subjects=(), nested=False,
                    names=[hit.title], misspelled={})
    # a passage in the other language than the question's writes none of its words: the asked attribute, stated
    # in the lexicon's words of either language ("总部设在哪个小镇" of "Its head office … are in Tollbridge"), is
    # what the sentence must say then
    found = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    crossing = found.attribute if found is not None and not found.attribute.generic else None
    # where the lexicon knows no specific attribute, the relation the question asks (born, founded, opened …) is
    # stated in either language's words ("1970年生于鹤汀市" for "in which city was … born")
    relation = asked_relation(q.text) if crossing is None else None
    # the relation asked of the entity reached, read outside the description ("In what year was the foundry where
    # X is master founder set up?": set up, not the description's founder): the value is the one the reached
    # passage states with that relation, not any value of the asked kind in it ("As of 2025 the foundry employs…")
    dated = asked_relation(outside) if q.kind == "date" else None
    # a year the question sets outside the description qualifies the value asked of the entity reached ("…所在的
    # 小镇，2021年人口普查时有多少人"): the last hop's sentence states it, whatever year the first hop's sentence has
    years = set(stated_years(outside))
    if dated in DATED_RELATIONS and (stating := _stating(p, dated, q, years)) is not None:
        return stating
    # of two sentences whose contexts cover the question alike, the one that states the asked attribute (in the
    # lexicon's words of either language: "The managing director … has been X" for 现在的总经理是谁) or writes the
    # asked words itself ("The town was granted a royal charter … in 1287" for "… get its market charter", not the
    # sentence before it)
    own_words = {t: w for t, w in weights.items() if t != p.title}
    ranked = sorted(find_evidence(asked, [hit]), key=lambda e: (
        -round(e.score, 2), not (crossing is not None and stated_at(crossing, e.sentences[e.span_in].text)),
        -weighted_coverage(own_words, e.sentences[e.span_in].folded)))
    for e in ranked:
        said = e.sentences[e.span_in].text
        if not years <= set(stated_years(said)):
            continue
        # the asked attribute stated in the lexicon's words of either language ("it had a population of 23,850"
        # for "how many people live"), whatever the question's other words
        at = stated_at(crossing, said) if crossing is not None else \
            relation_at(relation, said) if relation is not None and has_han(said) != q.chinese else []
        crossed = e.anchored >= 1.0 and bool(at)
        if not crossed and (not states_asked(asked, e, typed=False, focused=bool(focus)) or not (focus or e.own > 0)):
            continue
        # where the sentence states the attribute in the lexicon's words, the value of the asked type next to
        # them is its value ("1970年生于鹤汀市" for "in which city was … born": 鹤汀市, not the name before it)
        near = nearest(candidates(said, q.kind, q.text), at) if crossed and q.kind in TYPED else None
        if near is not None and e.span is not None and q.kind in ("number", "date"):
            near = None  # a number's own span (its unit read by the evidence) before the nearest candidate's
        # the noun the question word asks ("Which river", 哪个县) binds the span: the name that carries it ("the
        # River Sedge", 柳溪县) or follows it ("the county of Sedgeshire"), not the nearest other name
        own = {normalize(n) for n in (p.title, *p.names)}
        noun = of_asked_noun(said, [c for c in candidates(said, q.kind, q.text) if normalize(c.text) not in own],
                             chains.asked_nouns(q.text)) if q.kind in ("place", "organization") else None
        span = noun if noun is not None else near.text if near is not None else e.span.text if e.span is not None \
            else (titled_name(q.kind, said, reached.hits, p.hit) or kind_named(said, chains.asked_nouns(q.text)))
        if q.kind in TYPED and span is None:
            continue
        if span is not None and any(normalize(span) == normalize(n) for n in (p.title, *p.names)):
            continue  # the entity reached is what the question asks about, not its answer
        return [(p.hit, s.text) for s in answering(asked, e)], span
    return None


DATED_RELATIONS = ("founded", "built", "opened", "released")
"""The relations a "when" asked of a described entity dates (its start), each stated by the lexicon's words in
either language (``graphs.text.relations``)."""


def _stating(p: chains.Passage, relation: str, q: Question, years: set[str]
             ) -> tuple[list[tuple[int, str]], str] | None:
    """The first sentence of the reached passage that states the relation with a date (and the question's
    ``years``), and the date nearest the relation's words ("The foundry was established in 1884, …": 1884); None
    when none does."""
    for sentence in p.sentences:
        at = relation_at(relation, sentence) if years <= set(stated_years(sentence)) else []
        if at and (near := nearest(candidates(sentence, "date", q.text), at)) is not None:
            return [(p.hit, sentence)], near.text
    return None


def unstated(q: Question, reached: chains.Described) -> chains.Broken | None:
    """The description reached an entity whose passage does not state what is asked: none of the terms next to
    the question word ("Who is the mayor of the town where …": mayor; 市长) in the passages the chain read, nor
    the asked attribute in the lexicon's words. The documents do not answer then, whatever they say of the named
    entity; None (not known) where the question has no such term."""
    focus = _rest_focus(q, reached)
    texts = [reached.passage.text, *(reached.hits[n].text for n, _ in reached.steps if n < len(reached.hits))]
    if not focus or any(t in normalize(text) for t in focus for text in texts):
        return None
    found = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    if found is not None and not found.attribute.generic and any(stated_at(found.attribute, t) for t in texts):
        return None
    return chains.Broken(entity=reached.hits[reached.passage.hit].title, asked=", ".join(focus), has_passage=True,
                         steps=list(reached.steps))


def of_asked_noun(sentence: str, spans: Sequence[Span], nouns: Iterable[str]) -> str | None:
    """The candidate the noun the question word asks is written with: a name that carries it ("the River Sedge",
    "Lake Orrin", 柳溪县: a Chinese kind word the asked noun opens with) or that follows it ("the county of
    Sedgeshire"); else a name of the sentence carrying it (``kind_named``); None when the sentence writes none."""
    english = {n.casefold() for n in nouns if n.isascii() and len(n) > 2}
    chinese = {w for n in nouns if has_han(n) for w in chains.known_kinds() if has_han(w) and n.startswith(w)}
    for c in spans:
        words = {w.casefold() for w in re.findall(r"[A-Za-z]+", c.text)}
        if words & english:
            return c.text
        if any(c.text.endswith(w) for w in chinese):
            # a Chinese run read as one name holds the verb before the name (青禾镇隶属于柳溪县): the name after it
            tail = re.split(r"[于在是为属的和与及]", c.text)[-1]
            return tail if len(tail) >= 2 else c.text
        before = sentence[: c.start].casefold()
        if any(re.search(rf"\b{re.escape(n)}\s+of\s+(?:the\s+)?$", before) for n in english):
            return c.text
    return kind_named(sentence, english) if english else None


def kind_named(sentence: str, nouns: Iterable[str]) -> str | None:
    """A name of the sentence that carries the noun the question word asks ("the River Quill" for "Which river
    …"), where the sentence's words gave no candidate of the asked kind."""
    words = {n.casefold() for n in nouns if n.isascii()}
    return next((m[0] for m in re.finditer(chains.NAME, sentence)
                 if len(m[0].split()) >= 2 and words & {w.casefold() for w in m[0].split()}), None)


def titled_name(kind: str, sentence: str, hits: Sequence[Hit], own: int) -> str | None:
    """A name of the asked kind in a sentence, known as the title of another retrieved passage about an entity of
    that kind (公司总部设在溪口市: 溪口市's own passage says it is a city), where the sentence's words gave none."""
    folded = normalize(sentence)
    for n, h in enumerate(hits):
        title = strip_disambiguation(h.title).strip()
        if n != own and len(normalize(title)) >= 2 and normalize(title) in folded and entity_kind(h.title, h.text) == kind:
            return title
    return None
