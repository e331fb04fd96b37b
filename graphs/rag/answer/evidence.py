"""Evidence: every sentence of the top passages scored by how much of the question it covers with its context —
the sentences around it and its passage's title (so "He played for the Eagles" in the passage titled "Dick
Humbert" covers "Dick Humbert") — each question term weighted by how much it says (``graphs.text.terms``). A
two-step question is often answered by two sentences of two passages joined by a name the question does not
contain ("…shot in Leland: *Maximum Overdrive* (1986)" and "*Maximum Overdrive* … directed by Stephen King"):
such chains are scored on what they cover together. Sentences that read like instructions never count."""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from graphs.domain import Hit
from graphs.kg.mentions import strip_disambiguation
from graphs.rag.answer.attributes import (
    Attribute,
    also_asked,
    asked_attribute,
    group_names_label,
    labels_it,
    lexicon,
    near,
    other_attributes,
    schedule_label,
    stated_at,
    translations,
    written_across,
)
from graphs.rag.answer.chains import names_relation, title_year
from graphs.rag.answer.qualifiers import (
    Qualifier,
    asked_pair,
    asked_ranks,
    other_phase,
    other_rank,
    past_for_next,
    rank_nouns,
    reversed_pair,
    states_noun,
    states_pair,
)
from graphs.rag.answer.question import (
    CODE,
    CODE_PENALTY,
    EVIDENCE_PASSAGES,
    Question,
    file_words,
    mentioned,
    other_bound,
    passage_words,
    states_codes,
    tagged,
    years_unstated,
)
from graphs.rag.relation_cues import bridge_kind, entity_kind
from graphs.text.bilingual import SPECIFIC_FROM, specificity
from graphs.text.bilingual import translations as dictionary_forms
from graphs.text.content import has_content
from graphs.text.dates import (
    ASKS_TIME_OF_DAY,
    RELATIVE_DAY,
    RELATIVE_YEAR,
    asks_deadline,
    asks_time_of_day,
    date_forms,
    dates_itself,
    deadline_at,
    on_calendar,
    only_a_date,
    period_year,
    reported_on,
    shift_of,
    sole_date,
    stated_years,
    year_line,
)
from graphs.text.fields import (
    Field,
    addressed,
    field_of,
    in_asked_measure,
    keyed_row,
    label_asks,
    names_column,
    row_key_forms,
)
from graphs.text.governors import name_role, role_matches
from graphs.text.identifiers import asks_identifier, in_identifier
from graphs.text.normalize import has_han, normalize, without_names
from graphs.text.scripts import han_share
from graphs.text.sentences import looks_like_instruction, passage_sentences, planted
from graphs.text.short_forms import defined
from graphs.text.spans import Span, candidates, nearest, of_asked_kind
from graphs.text.terms import found, glued_stem, stem, weighted_coverage
from graphs.text.units import asked_dimensions, counted_asked, does_the_asked, of_dimension, other_act
from graphs.text.units import fits as measures_asked

FOCUS_WEIGHT = 0.3
"""What evidence gains for stating the terms next to the question word in its answering sentence."""
ANCHOR_PENALTY = 1.0
"""What evidence loses for not mentioning the entities the question names (all of them: the whole penalty)."""
FIRST_HOPS = 12
"""Sentences tried as the first step of a two-sentence chain (the best single ones)."""
BRIDGE_BONUS = 0.2
"""What a followed bridge gains over the first hop alone (which stops at the entity the question describes)."""
NAMED_WEIGHT = 0.05
"""What a single sentence gains for naming the question's entities itself (a tie-breaker between the sentences of
one passage, whose contexts name them alike)."""
BRIDGE_PASSAGES = 10
"""Passages a bridge's last hop may come from (the title the first hop names finds it lower in the ranking)."""
BRIDGE_KINDS = frozenset({"person", "organization", "place", "date", "number"})
"""Kinds of answer a bridge is followed for: a typed span in the last hop tells the hop that answers."""


# ---------------------------------------------------------------------------- evidence


@dataclass(frozen=True)
class Sentence:
    """A usable sentence of a top passage, folded for matching, with its context."""

    hit: int
    """Index of the passage in the ranked hits."""
    position: int
    text: str
    folded: str
    context: str
    """Folded passage title, previous sentence, this sentence and the next, the year of the passage's date."""
    names: tuple[str, ...]
    """Its passage's title when the question does not name it: what a sentence of another passage
    mentions to be the step before or after this one."""
    title: str = ""
    """Its passage's title, folded."""
    semantic: float | None = None
    """For a passage in the other language than the question's, where words cannot match: how close the
    passage's meaning is to the question's (its dense score, rescaled to [0, 1])."""
    about: tuple[str, ...] = ()
    """Folded names its passage is about: its title and the names its title is made of ("Oakmere — town
    guide" is about "oakmere"). A first hop that names one of them bridges to this passage."""
    under: str = ""
    """The heading or label the sentence is under, as written ("Warranty" of "Warranty. The frame is covered
    for 5 years."): what the sentence is about without saying it."""
    block: str = ""
    """A field line's block (``field_blocks``): the other lines of its header block or its table row, folded."""
    short: tuple[str, ...] = ()
    """Folded short forms that name what its passage is about ("msra": ``passage_short_forms``); a first hop
    bridges by one only where it writes it in capitals."""
    rows: str = ""
    """A table cell's: the cells of the rows next to it, folded, which its context leaves out (their keys are other
    subjects); a word of the question written there is another column's or row's, not said by this cell's label."""
    written: int | None = None
    """Its passage's stored date (YYYYMMDD: a dateline's or a header's day, or a year it states): what a weekday or
    a relative day (on Sunday, 前天) of the sentence counts from (``dates.on_calendar``)."""


SEMANTIC_FROM, SEMANTIC_TO = 0.25, 0.5
"""Dense scores (cosine) rescaled to [0, 1] between these: what a cross-language passage covers of what is asked."""


def cross_language(question: str, hit: Hit) -> float | None:
    """The semantic stand-in for word overlap when the passage is in the other language (a Chinese question
    on an English passage, or the reverse) and has a dense score; None otherwise."""
    chinese = has_han(question)
    share = han_share(hit.text)
    if hit.dense_score is None or (share >= 0.2 if chinese else share <= 0.5):
        return None
    return min(1.0, max(0.0, (hit.dense_score - SEMANTIC_FROM) / (SEMANTIC_TO - SEMANTIC_FROM)))


_HEADING_MARK = re.compile(r"^\s*(?:#{1,6}\s|[-=*]{3,}\s*$)")
_DOCUMENT_KIND = re.compile(r"(?:纪要|通知|公告|报告|简报|议程|总结|说明书|说明|须知|清单|一览|目录|minutes|agenda|report|"
                            r"notice|memo|announcement|newsletter|contents|codes|guide|manual|overview|summary|"
                            r"schedule)\s*$", re.IGNORECASE)
_SENTENCE_MARK = re.compile(r"[。！？!?，,；;：:]|\.\s|\.$")
HEADING_CHARS = 40
_NUMBERED_HEADING = re.compile(r"^\s*(?:[一二三四五六七八九十]{1,3}\s*[、.．]|[（(][一二三四五六七八九十]{1,3}[）)]|"
                               r"第[一二三四五六七八九十\d]{1,3}\s*[章节部分篇])\s*[\u4e00-\u9fff]")
"""A Chinese section heading by its ordinal ("一、停水时间", "（二）收费标准", "第三章 附则"): the lines below it are under it."""


_LABEL = re.compile(r"^\s*(?:(?!(?:The|A|An|It|Its|This|That|These|Those|We|They|He|She|I|You|Our|There)\b)"
                    r"[A-Z][A-Za-z'-]*(?:\s+[A-Za-z'-]+){0,2}\s*[.:]|[\u4e00-\u9fff]{2,8}\s*[：:])\s*$")


def label(sentence: str) -> bool:
    """Whether a "sentence" is a paragraph's label, no statement: one to three words ending in a full stop or a
    colon ("Warranty.", "Error codes:", "保修："), as a bold run-in heading reads once its marks are gone."""
    return bool(_LABEL.match(sentence))


SECTION_NUMBER = re.compile(r"^\s*(?:(?:\d+(?:\.\d+)*|[IVX]+|[A-Z])[.)、]|[一二三四五六七八九十]+[、.]|第[一二三四五六七八九十\d]+[章节部分条])\s*")
"""A section's number before a heading (2., IV., 三、, 第二章)."""
_ZH_SECTION = re.compile(r"^\s*(?:[一二三四五六七八九十]+、|第[一二三四五六七八九十\d]+[章节部分])")
"""A Chinese section's number (三、, 第二章): a list item is numbered 1. 2., a section 一、二、."""
_FUNCTION_WORD = re.compile(r"\s(?:of|the|and|for|to|in|on|at|with)\s")
_STYLE_MARK = re.compile(r"[.,;:!?。，；：！？]")


def heading(sentence: str, title: str = "", *, opening: bool = False, styled: bool = False) -> bool:
    """Whether a line is a title or heading, never an answer sentence: a Markdown heading, its passage's
    title, or a short line with no sentence mark that names a kind of document ("xx会议纪要", "Q3 board
    minutes") or opens a passage that goes on (``opening``: "Fault list" above "F1: …"); with ``styled``, also a
    line set as a section's heading (``_styled``: 三、经费, "2. OPERATIONS REPORT", "Minutes of the Board Meeting")."""
    line = sentence.strip()
    if _HEADING_MARK.match(line):
        return True
    folded = normalize(line).strip(" .。")
    if title and folded == title:
        return True
    bare = len(line) <= HEADING_CHARS and not _SENTENCE_MARK.search(line)
    return (bare and (opening or bool(_DOCUMENT_KIND.search(line)) or bool(_NUMBERED_HEADING.match(line)))) \
        or (styled and _styled(sentence))


def _styled(sentence: str) -> bool:
    """A Chinese section's title (三、经费), or a short line without sentence punctuation in capitals ("2. OPERATIONS
    REPORT") or in title case with a function word ("Minutes of the Board Meeting"); a numbered list item ("1. Ann
    Lee") is none."""
    numbered = SECTION_NUMBER.match(sentence)
    text = (sentence[numbered.end():] if numbered else sentence).strip()
    if not text or _STYLE_MARK.search(text) or len(text.split()) > 10 or len(text) > 60:
        return False
    if _ZH_SECTION.match(sentence):
        return True
    words = text.split()
    if len(words) < 2 or not text.isascii():
        return False
    capitalised = all(w[0].isupper() or (w.islower() and _FUNCTION_WORD.search(f" {w} ")) for w in words)
    return text.isupper() or (capitalised and bool(_FUNCTION_WORD.search(f" {text} ")))


_TITLE_PARTS = re.compile(r"\s+[—–-]+\s+|\s*[:：|｜·•/（）()\[\]]\s*|\s*,\s+")


def passage_short_forms(hit: Hit) -> tuple[str, ...]:
    """The short forms of three letters or more that name what a passage is about, folded: those it defines in
    parentheses ("The Maravian Space Research Agency (MSRA) is …") and its title's initials ("Tollish Football
    Association": "tfa"). A first hop that writes "the MSRA" reaches that passage (``hop_name``)."""
    return tuple(k for k in defined(hit.text, strip_disambiguation(hit.title)) if len(k.replace("&", "")) >= 3)


def title_names(title: str) -> tuple[str, ...]:
    """The names a passage's title is made of, folded: the title itself, then each of its parts that is a
    name (written with a capital, or in Chinese): "Oakmere — town guide" → ("oakmere — town guide", "oakmere"),
    "Dalby (village)" → (…, "dalby"). A user's file is titled "X — guide", "X: notes", not "X" alone."""
    whole = normalize(strip_disambiguation(title))
    parts = [p.strip() for p in _TITLE_PARTS.split(title) if p and p.strip()]
    named = [normalize(p) for p in parts if has_han(p) or p[:1].isupper()]
    return tuple(dict.fromkeys(n for n in (whole, *named) if len(n) >= 2))


_UNDETERMINED = re.compile(
    r"另行通知|另行安排|另行公布|待定|尚未确定|尚不清楚|尚不明确|仍不清楚|目前不清楚|暂不清楚|尚无定论|尚未公布|尚未披露|未予披露|"
    r"未透露|有待(?:进一步)?(?:调查|确认|核实)|仍在(?:调查|核实|统计)中|正在(?:调查|核实|统计)中|"
    r"\btoo early to (?:say|tell|know)\b|\b(?:is|are|was|were|remains?|remained) (?:still )?(?:not yet |yet to be )?"
    r"(?:unknown|unclear|undisclosed|undecided|undetermined|not known|not clear)\b|\bnot (?:yet )?(?:been )?"
    r"(?:known|disclosed|announced|determined|decided|confirmed|released)\b|\byet to be (?:announced|confirmed|"
    r"determined|decided|set|disclosed)\b|\bto be (?:announced|confirmed|decided|determined)\b|\bunder investigation\b|"
    r"\bno (?:date|time|figure|cause|details?) (?:has|have) (?:yet )?been\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
_CLAUSE_END = re.compile(r"[，,;；：:]")


def undetermined(sentence: str) -> bool:
    """Whether a sentence says only that a value is not known yet — 下次例会时间另行通知, 起火原因仍在调查中,
    "it is too early to say how the fire started", "the date is yet to be announced" — in its closing clause,
    writing no number: it states that the asked fact is missing, and answers nothing (a sentence with a figure
    beside it, 造成3人受伤，原因仍在调查中, still states the figure; a side remark, 生年尚不清楚, is no statement)."""
    if _DIGIT.search(sentence) is not None:
        return False
    last = max(_UNDETERMINED.finditer(sentence), key=lambda m: m.end(), default=None)
    # the closing clause says it (许文昭，生年尚不清楚，青州人，曾任太守 goes on to state his office)
    return last is not None and _CLAUSE_END.search(sentence, last.end()) is None


def sentences_of(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[Sentence]:
    """The sentences of the top passages (instruction-like ones and headings left out)."""
    out: list[Sentence] = []
    led = _led_by(q, hits[:limit])
    # a name the question misspells ("Corvell Valley Choir Festival"), taken as the passages spell it: where a
    # sentence's context writes it loosely (a page titled "corvel choir festival"), it names the question's name
    written = " ".join(normalize(h.text) for h in hits[:limit])
    respelled = [forms for forms in q.anchors if len(forms) > 1 and forms[0] not in written]
    for n, hit in enumerate(hits[:limit]):
        title = normalize(strip_disambiguation(hit.title))
        if planted(hit.text):
            continue  # a passage with orders to its reader: its claims are no evidence
        # a sentence wrapped over lines (a plain-text report filled to a width) reads as one line
        raw = passage_sentences(hit.text)
        folded = [normalize(s) for s in raw]
        tags = tagged(hit)
        semantic = cross_language(q.text, hit)
        about = title_names(hit.title)
        short = tuple(k for k in passage_short_forms(hit) if k not in about)
        # the passage's own date (one it states, its document's header's) where it writes no other year: a
        # question of that year or month is answered by any sentence of it ("the entry fee" in the piece dated
        # 2 November 2025); a passage of several years leaves each sentence the year it states
        dated = " ".join(date_forms(when)) if (when := sole_date(hit.date, hit.text)) else ""
        # the heading the sentence is under ("Fault codes" for "E3: …"): context, never an answer; a chunk of a
        # section starts under its section's heading, which the chunk's text does not repeat ("## 老年活动室" over
        # "地点：镇文化中心二楼。": the place is the room's, not the first section's 地点)
        written = (hit.section or "").strip()
        under = normalize(written)
        blocks = field_blocks(raw, folded)
        rows = [cell.row if (cell := field_of(line)) is not None else "" for line in raw]
        # the rows of a table the question names by their key ("Wren's Blush", 红霞蜜桃, "weekend"), or by a word of
        # its key no other row's key writes ("RodeCaster" of "RodeCaster portable mixer" in RodeCaster调音台): the
        # cells of its other rows state the same columns of other subjects, no evidence for this question (a
        # comparison names two rows, one of them perhaps by a part of its key: 智齿 of 拔智齿; none is left out)
        by_own_word = rows_by_own_word(q.text, rows) if q.kind != "comparison" else set()
        asked_rows = {r for r in rows if r and (names_row(q.text, r) or r in by_own_word)} \
            if q.kind != "comparison" else set()
        for i, sentence in enumerate(raw):
            if looks_like_instruction(sentence) or only_a_date(sentence) or not has_content(sentence) \
                    or undetermined(sentence):
                continue  # a dateline ("Nov 12, 2021 ..."), an ellipsis or "not known yet" states nothing asked
            if asked_rows and rows[i] and rows[i] not in asked_rows:
                continue
            if heading(sentence, title, opening=i == 0 and len(raw) > 1 and "\n" in hit.text[:len(sentence) + 2]) \
                    or (i + 1 < len(raw) and (label(sentence) or year_line(sentence))):
                # (a year alone on its line heads the lines below it: a timeline's "2022年" over "全年接待观众…")
                under, written = folded[i], sentence.strip().rstrip(".:：")
                continue
            names = [title] if title and title not in normalize(q.text) else []
            block = blocks.get(i, "")
            # a table cell's subject is its row: the cells of the rows above and below it, and the names tagged
            # anywhere in its passage (the other rows' keys), are not its context ("picked from — Copper Pippin:
            # lower orchard" is not about Wren's Blush, whose price is the next line)
            around = range(max(0, i - 1), min(len(raw), i + 2))
            other_rows = [k for k in around if rows[i] and rows[k] and rows[k] != rows[i]]
            context = " ".join([title, under, *(folded[k] for k in around if k not in other_rows), block,
                                "" if rows[i] else tags, dated])
            if led.get(hit.id) and not ((cell := field_of(sentence)) is not None and cell.row):
                # prose and field lines of a document whose retrieved lede names the subject are about it ("The
                # squall struck on Saturday 7 September 2024" in a later chunk of the report that opens with the
                # club's regatta; "入职满3年不满5年：每年12天" in the handbook's leave section); a table's cell is
                # its row's
                context = " ".join([context, *(f for f in led[hit.id] if f not in context)])
            context = " ".join([context, *(forms[0] for forms in respelled
                                           if not any(f in context for f in forms) and mentioned(forms, context))])
            out.append(Sentence(hit=n, position=i, text=sentence, folded=folded[i], context=context,
                                names=tuple(dict.fromkeys(n for n in names if len(n) >= 2)), title=title,
                                semantic=semantic, about=about, under=written, short=short, block=block,
                                rows=" ".join(folded[k] for k in other_rows), written=hit.date))
        if (year := title_year(hit.title or "")) is not None and year not in hit.text:
            # "Night Harbour (1949 film)": the year a title gives its work, where the text never writes it, is a
            # statement of the passage too (when the work appeared), the title as written its sentence
            names = [title] if title and title not in normalize(q.text) else []
            out.append(Sentence(hit=n, position=len(raw), text=hit.title.strip(), folded=normalize(hit.title),
                                context=" ".join([title, normalize(hit.title), *folded[:1], tags, dated]),
                                names=tuple(dict.fromkeys(n for n in names if len(n) >= 2)), title=title,
                                semantic=semantic, about=about, short=short))
    return out


def rows_by_own_word(question: str, rows: Sequence[str]) -> set[str]:
    """The row keys of a table that the question names by a word of the key no other key writes (a word of three
    letters or more, a code: "rodecaster" of "RodeCaster portable mixer" among "Zoom H5 recorder" and "Shure SM7B
    microphone"); a word every row shares ("python" of two Python classes) names none."""
    asked = normalize(question)
    keys = {r: set(re.findall(r"[a-z0-9][a-z0-9'-]{2,}", normalize(r))) - _ROW_WORD_STOP for r in dict.fromkeys(rows) if r}
    out: set[str] = set()
    for key, words in keys.items():
        own = words - {w for other, ws in keys.items() if other != key for w in ws}
        if any(re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", asked) for w in own):
            out.add(key)
    return out if len(out) == 1 else set()


_ROW_WORD_STOP = frozenset({"the", "and", "for", "with", "per", "from", "all", "one", "two"})


def names_row(question: str, row: str) -> bool:
    """Whether a question names a table row by its key, whole or without its aside (a word of it at least three
    letters, two Chinese characters): "Wren's Blush" in "Which orchard is Wren's Blush picked from?", 红霞蜜桃, 长者读者
    of 长者读者（65岁以上）; not "A" in "a box"."""
    asked = normalize(question)
    return any(_names_key(asked, key) for key in row_key_forms(row))


def _names_key(asked: str, key: str) -> bool:
    if len(key) < (2 if has_han(key) else 3):
        return False
    if has_han(key):
        return key in asked
    return re.search(rf"(?<![\w]){re.escape(key)}(?![\w])", asked) is not None


LEDE_CHARS = 300
"""A chunk names what its document is about in this many characters from its start (a headline, a lede)."""


def _led_by(q: Question, hits: Sequence[Hit]) -> dict[str, tuple[str, ...]]:
    """For each passage (by id), the names of the question that another retrieved chunk of its document writes
    near its start (``LEDE_CHARS``: a news report's lede, a wiki page's first sentence): its other chunks'
    prose is about them though it no longer repeats them ("The squall struck on Saturday 7 September 2024"
    three paragraphs after "… during the Pellan Rowing Club's autumn regatta")."""
    ledes = {hit.id: tuple(forms[0] for forms in q.anchors if mentioned(forms, normalize(hit.text[:LEDE_CHARS])))
             for hit in hits if hit.doc_id}
    # a chunk's own opening is its context already; only its document's other chunks say more
    return {hit.id: tuple(dict.fromkeys(n for other in hits if other.doc_id == hit.doc_id and other.id != hit.id
                                        for n in ledes.get(other.id, ())))
            for hit in hits if hit.doc_id}


FIELD_BLOCK = 12
"""Field lines of one block read as the context of each (a header block, an infobox) at most."""
BLOCK_TITLE_CHARS = 80
"""The line above a header block is its title when at most this long."""


def field_blocks(raw: Sequence[str], folded: Sequence[str]) -> dict[int, str]:
    """For each field line of a passage, the other lines of its block, folded: the nearest lines of its run of
    consecutive field lines (the minutes' "会议时间：3月18日" qualifies "主持人：邵一鸣" of the same header block as
    the title does); for a table cell, the values of the other cells of its row ("岚禾 落地扇 F302" of
    "商品名称 — LH-F302: 岚禾 落地扇 F302" says what LH-F302 is; the other columns' names are not its words)."""
    fields = [field_of(line) for line in raw]
    out: dict[int, str] = {}
    run: list[int] = []
    for i in [*range(len(raw)), len(raw)]:
        if i < len(raw) and fields[i] is not None:
            run.append(i)
            continue
        # the line a header block follows, when short, is its title ("Corran Free Library — Board of Trustees,
        # spring meeting" of a text file that has no other): it names the block's subject
        above = folded[run[0] - 1] if run and run[0] > 0 and len(raw[run[0] - 1]) <= BLOCK_TITLE_CHARS else ""
        for j in run if len(run) > 1 else []:
            f = fields[j]
            assert f is not None
            mates = sorted((k for k in run if k != j and (fields[k].row == f.row if f.row else abs(k - j) > 1)),  # type: ignore[union-attr]
                           key=lambda k: abs(k - j))[:FIELD_BLOCK]
            # a row's other cells by their values only: what the row is, not the other columns' names
            out[j] = "\n".join(normalize(fields[k].value) if f.row else folded[k] for k in mates)  # type: ignore[union-attr]
            if above and not f.row:
                out[j] = f"{above}\n{out[j]}"
        run = []
    return out


@dataclass(frozen=True)
class Evidence:
    """One sentence, or two of two passages joined by a name, and how much of the question they cover."""

    sentences: tuple[Sentence, ...]
    coverage: float
    """Weighted share of the question's terms in the sentences' contexts."""
    own: float
    """Weighted share of what is asked (the question's terms other than names) in the sentences alone: it
    tells the sentence that answers from the others of a passage about the same entity."""
    anchored: float = 1.0
    """Share of the entities the question names that the sentences' contexts mention (1.0 with none)."""
    focus: float = 0.0
    """Weighted share of the question's focus terms (next to its question word) in the sentence that holds the
    answer."""
    span: Span | None = None
    """The typed candidate answer, in ``sentences[span_in]``."""
    span_in: int = 0
    link: str | None = None
    coded: bool = True
    """The sentences state every code the question names (True when it names none)."""
    bridge: bool = False
    """A bridge followed: the first sentence names the entity the question only describes, the second (of
    that entity's passage) holds the answer, and the first holds none of its own."""
    named: float = 0.0
    """Share of the question's named entities that the answering sentence itself names, not its context: between
    sentences of one passage that cover the question alike, the one that says "其叶柄…" for "X的叶柄有什么特点"
    is about what is asked, "它是…植物" is not."""
    field: bool = False
    """A labelled field or table cell whose label names what is asked and whose value is of the asked kind
    (``graphs.text.fields``): the value is the span, the field's subject its passage's title or its row."""

    @property
    def score(self) -> float:
        """Context coverage and what the sentences themselves say of the asked relation, a typed candidate
        as a bonus, a missing named entity as a penalty; a chain counts a little less than one sentence
        covering as much, unless it follows a bridge the single sentence stops at."""
        return (self.coverage + self.own + FOCUS_WEIGHT * self.focus + (0.15 if self.span is not None else 0.0)
                - ANCHOR_PENALTY * (1.0 - self.anchored) - 0.05 * (len(self.sentences) - 1)
                + (BRIDGE_BONUS - 0.01 * self.sentences[-1].position if self.bridge else 0.0)
                + NAMED_WEIGHT * self.named
                - (0.0 if self.coded else CODE_PENALTY))

    @property
    def hits(self) -> list[int]:
        return [s.hit for s in self.sentences]


def marks(q: Question, folded: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for t in q.weights for m in re.finditer(re.escape(t), folded)]


RELATIVE_YEAR_SAYS = 0.5
"""Share of the question's relation terms (less "year") a sentence writing "this year" must state to date the asked act."""


def document_year(s: Sentence) -> int | None:
    """The year a sentence's document is of by its title or the heading it is under (``dates.period_year``): what its
    "this year" (本年度) names."""
    return period_year([s.title, s.under])


def year_by_document(q: Question, s: Sentence) -> bool:
    """Whether a sentence's relative year (本年度, "this year") answers the question: its document's title or heading
    states the year (``document_year``) and the sentence states what is asked (``RELATIVE_YEAR_SAYS`` of the
    question's relation terms; "Our head coach this year was …" dates no purchase: the question's "year" alone is no
    word of it)."""
    if document_year(s) is None:
        return False
    asked = {t: w for t, w in q.relation.items() if not RELATIVE_YEAR.search(f"this {t}") and t not in ("年", "年份")}
    return weighted_coverage(asked, s.folded) >= RELATIVE_YEAR_SAYS


def typed_span(q: Question, sentence: Sentence, exclude: Iterable[str] = (),
               at: list[tuple[int, int]] | None = None) -> Span | None:
    """The candidate answer of the question's kind in a sentence, nearest to the question's words there (to
    ``at`` when given: where the sentence states the asked attribute)."""
    if q.kind in ("yes_no", "comparison", "definition"):
        return None
    skip = [normalize(x) for x in exclude]
    spans = of_asked_kind(q.text, q.kind, sentence.text,
                          [s for s in candidates(sentence.text, q.kind, q.text, q.types)
                           if not any(x and (normalize(s.text) in x or x in normalize(s.text)) for x in skip)
                           and (q.kind != "number" or measures_asked(q.text, sentence.text, s.start, s.end))])
    if q.kind == "date" and (end := life_end(q.text, sentence.text, spans)) is not None:
        return end
    if q.kind == "number" and spans:
        # the values the answer gate counts (``calibration.answer_spans``: a date is no quantity, 7日 answers no
        # 研发经费是多少): the sentence the gate would find without a value does not lead with one
        from graphs.rag.answer.calibration import answer_spans  # the gate imports this module

        counted = {(s.start, s.end) for s in answer_spans(q, sentence, "number")}
        spans = [s for s in spans if (s.start, s.end) in counted]
        # a count of the asked noun said of another act (共有3名游客出现身体不适 for 困了多少名游客) counts another set:
        # no candidate, so that the sentence counting the asked one leads
        spans = [s for s in spans if not of_another_act(q, sentence.text, s)]
        # the count the question's verb is said of ("63 got out" for "how many ewes got out"), not the whole
        spans = [s for s in spans if does_the_asked(q.text, sentence.text, s.start, s.end)] or spans
    if q.kind == "person" and len(spans) > 1:
        from graphs.rag.answer.governance import governed_spans  # governance reads this module's sentences

        # a list's item first ("the pottery stall is run by A, the honey stall by B": the role the first clause
        # writes is every clause's, the later ones leave it out), then the asked role's names
        spans = governed_by_asked_role(q.text, sentence.text, governed_spans(q, sentence, spans))
    if q.kind == "date":
        # the day something was said of the event ("investigators said on Wednesday") is not the event's
        spans = [s for s in spans if not reported_on(q.text, sentence.text, s.start, s.end)]
    if q.kind == "date":
        spans = [s for s in spans if not RELATIVE_YEAR.fullmatch(s.text) or year_by_document(q, sentence)]
    if q.kind == "date" and len(spans) > 1:
        # a relative day (前天, "yesterday") answers only where its passage's date puts it on the calendar
        spans = [s for s in spans if not RELATIVE_DAY.fullmatch(s.text)
                 or on_calendar(s.text, sentence.text, sentence.written) is not None] or spans
    if q.kind == "date" and len(spans) > 1 and asks_deadline(q.text):
        # "by what date": the date the sentence sets as the limit, not the meeting's or the damage's
        spans = [s for s in spans if deadline_at(sentence.text, s.start, s.end)] or spans
    if q.years and len(spans) > 1:
        spans = of_asked_year(q.years, sentence.text, spans, [w for y in q.years for w in q.year_words.get(y, ())])
    if len(spans) > 1 and q.kind in ("number", "date", "person", "place"):
        # a list gives each item its value (成人票30元，儿童票15元; "a bun costs £2.10 and a scone £1.90"; 一号楼在东门，
        # 二号楼在南门): the values
        # of the clause that writes the asked item, not the one nearest the words every clause shares
        from graphs.rag.answer.governance import governed_spans  # governance reads this module's sentences

        spans = governed_spans(q, sentence, spans)
    folded = sentence.text.casefold()
    return nearest(spans, at or _focus_marks(q, folded) or crossed_marks(q, folded) or marks(q, folded))


CROSSED_CREDIT = 0.8
"""What a question's word found only in its dictionary translation counts for, of what it counts written as asked."""


CROSSED_FOCUS = 0.5
"""What the asked relation's word found only in its dictionary translation counts for in ``_focus``: half (a line in
the question's own language that writes the question's other words, 译为 for 翻译, is not outranked by another
document's line in the other language for the one word it translates)."""


def crossed_marks(q: Question, folded: str) -> list[tuple[int, int]]:
    """In a sentence of the other language, where it writes the question's words in their translations
    (``Question.spellings``), those written once first: a word every clause writes (时间 of 入住时间…，退房时间…) does
    not tell which clause is asked, the one written once (退房 for "checkout") does. Empty for a sentence in the
    question's language, or one that writes none."""
    if not in_other_language(q, folded):
        return []
    found: list[list[tuple[int, int]]] = []
    for t in q.weights:
        # (a Chinese word by its stem where it glues a particle on: 闭着 is written as 闭 of 关闭)
        forms = {glued_stem(f) or f if has_han(f) else f for f in q.crossed_spellings.get(t, ())
                 if f and f != t and has_han(f) != has_han(t)}
        at = [(m.start(), m.end()) for f in forms
              for m in re.finditer(re.escape(f) if has_han(f) else rf"(?<![a-z]){re.escape(f)}", folded)]
        if at:
            found.append(at)
    once = [a for at in found if len(at) == 1 for a in at]
    return once or [a for at in found for a in at]


def of_another_act(q: Question, sentence: str, span: Span) -> bool:
    """Whether a count of the asked noun is said of another act than the question's (``units.other_act``: 共有3名
    游客出现身体不适 for 困了多少名游客): not where the relation lexicon puts its predicate and the question under one
    attribute (死亡 and 遇难, "killed" and "died": the death toll)."""
    predicate = other_act(q.text, sentence, span.start, span.end)
    return predicate is not None and not any(
        not a.generic and stated_at(a, predicate) and (stated_at(a, q.text) or any(p.search(q.text) for p in a.asks))
        for a in lexicon())


def _focus_marks(q: Question, folded: str) -> list[tuple[int, int]]:
    """For a name question, where the sentence writes the asked act (the focus terms): of two names, the one next
    to it answers ("organised by Tarnby Rowing Club and sponsored by Halvern Boats" for "which company sponsored",
    由青峰集团主办，龙舟协会承办 for 哪家单位承办), not the one next to the subject's name."""
    if q.kind not in ("person", "organization", "place"):
        return []
    return [(m.start(), m.end()) for t in q.focus for m in re.finditer(re.escape(t), folded)]


_CLAUSE = re.compile(r"[，;；。]|,(?!\d)|\band\b|\bwhile\b|\bwhereas\b|而")
_YEAR_IN = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def of_asked_year(years: Sequence[str], sentence: str, spans: list[Span], words: Sequence[str] = ()) -> list[Span]:
    """Of a sentence's values, those its clause dates to the asked year ("about 41,000 visitors in 2023 and
    about 52,500 in 2024" for 2024: 52,500; 2023年接待41000人，2024年达到52500人), or names as the question does
    by its distance from the document's year (``words``: 去年, "last year" for a question's 去年: "今年接待4,560人次，
    比去年的3,980人次" gives 3,980); all of them when no clause dates one to it."""
    asked = {y for year in years for y in _YEAR_IN.findall(year)}
    if not asked:
        return spans
    cuts = [0, *(m.end() for m in _CLAUSE.finditer(sentence)), len(sentence) + 1]
    folded = sentence.casefold()

    def clause_years(s: Span) -> set[str]:
        start = max(c for c in cuts if c <= s.start)
        end = min(c for c in cuts if c > s.start)
        said = {y for y in _YEAR_IN.findall(sentence[start:end]) if y not in s.text}
        return said | ({"said"} if any(w in folded[start:end] for w in words) else set())

    kept = [s for s in spans if clause_years(s) & (asked | {"said"})]
    return kept or spans


def governed_by_asked_role(question: str, sentence: str, spans: list[Span]) -> list[Span]:
    """Of a sentence's names, those the role the question asks governs (``governors.name_role``, the same
    readers as the answer check's): "记录人：X" for 记录人是谁 over "主持人：Y" in the same line, "seconded by X"
    for "Who seconded the motion?" over "proposed by Y" (for the work the question names, when it names one);
    all of them when none is. Nearness to the question's words no longer picks the name of another role."""
    verdicts = []
    works = re.findall(r"《([^》]{1,30})》", question)
    for s in spans:
        governed = name_role(sentence, s.start, s.end)
        said = [role_matches(role, question) for role in governed.roles]
        if works and governed.work is not None and governed.work not in works:
            said = [False]  # the asked role for another work (最佳摄影：X《北行》 for 《雾港》的最佳摄影)
        verdicts.append(True if True in said else False if said and all(v is False for v in said) else None)
    if True in verdicts:
        return [s for s, v in zip(spans, verdicts, strict=True) if v is True]
    # no name is the asked role's: all stay (the answer check refuses a name another role governs; a name no
    # role word governs, a laureate of 终身成就奖, is not thereby the asked role's)
    return spans


_DEATH = re.compile(r"\b(?:die|died|death|dies|passed away)\b|去世|逝世|死于|病逝|卒", re.IGNORECASE)
_BIRTH = re.compile(r"\b(?:born|birth)\b|出生|生于|诞生", re.IGNORECASE)
_LIFE = re.compile(r"\s*(?:–|—|-|~|～|至)\s*")


def life_end(question: str, sentence: str, spans: Sequence[Span]) -> Span | None:
    """In a life span written "(October 31, 1887 – April 5, 1975)" or "（1887年10月31日—1975年4月5日）", the
    end for a question about a death and the start for one about a birth; None when there is no such pair or
    the question asks neither."""
    death, birth = _DEATH.search(question), _BIRTH.search(question)
    if bool(death) == bool(birth):
        return None
    for first, second in itertools.pairwise(spans):
        head = sentence[: first.start]
        inside = max(head.rfind("("), head.rfind("（")) > max(head.rfind(")"), head.rfind("）"))
        if inside and _LIFE.fullmatch(sentence[first.end : second.start]):
            return second if death else first
    return None


def anchored(q: Question, text: str) -> float:
    """Share of the question's named entities that a folded text mentions (1.0 when it names none)."""
    if not q.anchors:
        return 1.0
    return sum(mentioned(forms, text) for forms in q.anchors) / len(q.anchors)


def asked_codes(q: Question, hit: Hit) -> list[str]:
    """The question's codes a sentence of this passage must state itself: those its title does not. "K7" of
    "我的K7加药泵显示E3" names the product the manual's title names (its fault table's chunk never repeats it),
    "E3" the line asked: the E1 line of the same table does not answer it. A passage whose title does not
    name the code is held to every code, as before."""
    title = normalize(hit.title or "")
    lead = hit.text.lstrip().split("\n", 1)[0].strip()
    if lead and not _SENTENCE_MARK.search(lead) and not CODE.match(lead):
        # a first line with no sentence mark that does not open with a code is the passage's title line (a file
        # named thermafen_hp20_service_guide opens "Thermafen HP-20 Air-Source Heat Pump - Quick Service Guide")
        title = f"{title} {normalize(lead)}"
    return [c for c in q.codes if not states_codes([c], title)]


def _single(q: Question, s: Sentence, asked: Attribute | None = None,
            asked_terms: frozenset[str] = frozenset(), plain: bool = False,
            codes: Sequence[str] | None = None, document: str = "") -> Evidence:
    # the question's words for the asked attribute ("heavy" of "how heavy") count as written where the sentence
    # states that attribute in the lexicon's words ("weighs 4.2 kg"): the same relation, other words
    at = stated_at(asked, s.text) if asked is not None else []
    stated = tuple(normalize(s.text[a:b]) for a, b in at)
    spellings = {t: (t, *stated) for t in asked_terms} if stated else None
    coverage, share = q.coverage(s.context), anchored(q, s.context)
    if spellings and plain:  # ("(1949 film)" covers "released" of "In which year was Night Harbour released?")
        coverage = max(coverage, weighted_coverage(q.weights, s.context, {**q.spellings, **spellings}))
    own = weighted_coverage(q.relation, s.folded, {**q.spellings, **(spellings or {})})
    # the coverage by the sentence's own words, before the dictionary's and meaning's credit (``unwritten_specific``)
    by_words = (coverage, own, share)
    if in_other_language(q, s.text):
        # the other language: the question's words in their dictionary translations, at a discount (a dictionary's
        # senses are many: a line in the question's own language that writes its words leads one that translates
        # them)
        crossed = {**q.crossed_spellings, **(spellings or {})}
        coverage = max(coverage, coverage + CROSSED_CREDIT * (weighted_coverage(q.weights, s.context, crossed)
                                                              - coverage))
        own = max(own, own + CROSSED_CREDIT * (weighted_coverage(q.relation, s.folded, crossed) - own))
    if s.semantic is not None:
        # the other language: the named entities by their tags (or, for names it cannot spell, by meaning),
        # what is asked by meaning (the passage's), the lead sentence first (it says what the passage is about)
        if q.anchors and (unspelled := unspellable(q, s)):
            share = min(1.0, share + s.semantic * len(unspelled) / len(q.anchors))
        named = sum(q.weights.get(forms[0], 0.0) for forms in q.anchors)
        total = sum(q.weights.values()) or 1.0
        by_meaning = min(1.0, (share * named + s.semantic * (total - named)) / total) - 0.02 * s.position
        coverage, own = max(coverage, by_meaning), max(own, s.semantic - 0.02 * s.position)
    # the span next to where the sentence states the asked attribute ("32 knots" by "top speed", not "260
    # passengers" nearer the question's other words)
    focus = _focus(q, s)
    # of several words stating the attribute, the question's own ("founded in 1612 … its borough charter in
    # 1688" for "When was X founded?": both are the lexicon's founding words, the question wrote "founded")
    own_at = [place for place, said in zip(at, stated, strict=True) if said[:5] in normalize(q.text)]
    if not own_at and len(at) > 1 and (once := crossed_marks(q, s.text.casefold())):
        # the lexicon's word written at several places in a sentence of the other language (时间 of 入住时间…，
        # 关门时间…): the clause is told by the question's word written once there in translation
        at = once
    span = typed_span(q, s, at=own_at or at or None)
    if plain and at and span is not None and q.focus and set(q.focus) <= _DATE_WORDS and q.kind == "date":
        # "in which year was Night Harbour released": a date next to where the sentence states the release (a
        # plainly named subject only: in a bridge the first hop's own date must not stop the chain)
        focus = 1.0
    if q.kind == "date" and span is not None and asks_deadline(q.text) and deadline_at(s.text, span.start, span.end):
        focus = 1.0  # the limit the question asks ("by what date", 最晚…前), set by the sentence's own words
    if span is None and unwritten_specific(q, s, document):
        # a line of the other language with no value of the asked kind that does not write a specific word asked,
        # in either language (火星, a quoted "shall"): neither the dictionary's words nor meaning make it state what
        # is asked (a store's line "in one of the city's best-known streets" for 火星上的第一座城市叫什么名字); with
        # such a value (8% by "Volume discount" for 批量折扣, the dictionary's "batch") meaning still may
        coverage, own, share = by_words
    if bounded := other_bound(q, s.folded):
        own, focus, span = 0.0, 0.0, None  # the maximum's row for the minimum asked: nothing asked is stated
    single = Evidence(sentences=(s,), coverage=coverage, own=own, anchored=share, focus=focus, span=span,
                      coded=states_codes(q.codes if codes is None else codes, s.text), named=_named(q, s))
    f = field_of(s.text) if q.kind in FIELD_KINDS and not bounded else None
    return single if f is None else _as_field(q, s, f, asked, single)


_KIND_WORDS = re.compile(r"时间|日期|地点|地址|位置|名称|人员?|\b(?:date|time|day|location|venue|address|place|site|name)s?\b",
                         re.IGNORECASE)
"""The words of a label that say only the kind of its value (会议时间 → 会议, "Meeting date" → "meeting")."""


def in_asked_unit(asked: Attribute | None, value: str) -> bool:
    """Whether a field's value is a number in one of the asked attribute's units and nothing else ("2,200 W" for a
    power, "21 kg" for a weight): what its label calls it ("Rated output", 输出) the unit says."""
    if asked is None or asked.units is None or (measured := asked.units.search(value)) is None:
        return False
    # the value is the measurement alone ("2,200 W", "21 kg"): words around it ("最大称重150公斤 无线", a maximum
    # load in a spec cell) say which quantity it is, and may say another than the asked one (the device's own weight)
    rest = value[:measured.start()] + value[measured.end():]
    return not re.search(r"[A-Za-z]{2,}|[\u4e00-\u9fff]", rest)


def foreign_label(q: Question, asked: Attribute | None, f: Field) -> bool:
    """Whether a field's label names another thing than what the question asks: the question asks a specific
    attribute of the lexicon (when founded, a supervisor, a death toll) that the label does not state, and the
    label's own words, less the words for its kind of value (时间, Date), share nothing with the question's (会议时间
    of a co-op's minutes for 合作社是哪一年成立的, "Meeting date" for "When was the cooperative founded?", 主持人 for
    队长是谁). Such a value is its label's: the meeting's date, the chair. A label that states another attribute the
    question also asks is the question's (价格 for 更换刹车片多少钱, where 更换 named the replacement first)."""
    if asked is None or asked.generic:
        return _unasked_label(q, f)
    if labels_it(asked, f.label) or also_asked(q.text, f.label):
        return False
    if in_asked_unit(asked, f.value):
        return False  # "Rated output: 2,200 W" for 额定功率: a value in a unit of the asked attribute states it
    if column_by_meaning(q, f.label):
        return False  # the label stands out among its table's as what is asked ("Best before" for "expire")
    if f.row and (stated_at(asked, f.row) or also_asked(q.text, f.row)):
        return False  # a table cell whose row names the attribute, its column the value ("Value — Maximum
        # programmable temperature: 1,320 °C" of a two-column spec table): the row's attribute is stated
    if of_dimension(f.value, asked_dimensions(q.text)) and keyed_row(f if f.row else replace(f, row=f.label), "",
                                                                      q.text):
        return False  # "Maximum load: 150 kg" for the max weight: the label's words and the value's unit say it
    if any(states_codes([c], normalize(f.label)) for c in q.codes):
        return False  # a code's line ("F3 (red): leave the water"; "W3: acids"): its label is the code asked
    if role_matches(f.label.strip("*_ ：:"), q.text) is True:
        return False  # a role label of the asked role's group (记录 for "who took the minutes", 记录人 of the lexicon)
    own = _KIND_WORDS.sub(" ", normalize(f.label)).strip()
    if not own:
        return False  # a bare 时间 / Date: the document's own value, which the question may ask
    if not writes_script_of(own, q.relation):
        # a label in the other language than the question's own words (小班 of a Chinese fee table's column for
        # "how much for the youngest class", "gluten" of an English matrix for a Chinese question): sharing no
        # words with them says nothing; the bilingual lexicon does, reading it as another attribute, and so does
        # its not reading the asked one there where only its naming states it ("Meeting date" for 哪一年成立); a
        # question that names nothing the passages write ("the electricity bill for January") has nothing to tie
        # another language's line to it
        return asked.kind in NAMED_ONLY or not q.anchors or lexicon_disagrees(q, f.label)
    words = " ".join([*q.weights, *(x for forms in q.anchors for x in forms), normalize(q.text)])
    if has_han(own):
        return not any(ch in words for ch in own if has_han(ch))
    return not any(len(w) > 2 and w in words for w in re.findall(r"[a-z0-9]+", own))


def foreign_field(q: Question, asked: Attribute | None, text: str) -> bool:
    """Whether a sentence is a labelled line whose label names another thing than what is asked
    (``foreign_label``): its value is the label's."""
    return (f := field_of(text)) is not None and foreign_label(q, asked, f)


def _unasked_label(q: Question, f: Field) -> bool:
    """Whether a field's label names another thing than what a question asks that names no specific attribute of
    the lexicon (a when, a who: "When does the carer start work?", 周六几点关门): the label says a value of another
    kind ("Branch address" for when it closes), or its own words, less the words for its kind of value, state a
    specific attribute of the lexicon the question does not ask, in either script (发布 is a release, 签订 a
    signing), or the label says a value of the asked kind of something the question does not name (签约日期,
    "Renewal date" for when the work starts: its own words share none of the question's). A date or a person is
    stated only by naming it (``NAMED_ONLY``): the value under such a label is the label's. A label that does not
    say its kind (服务期限, "Term") may paraphrase what is asked and says nothing; nor does a label of a quantity or
    a name asked (their labels paraphrase: "Fee" for what it costs)."""
    if q.kind not in _LABEL_KINDS or also_asked(q.text, f.label) or _NESTED_LABEL.search(f.value):
        # (a list's heading whose value holds labels of its own, 获奖名单：最佳摄影：…: the nearest one governs)
        return False
    if any(states_codes([c], normalize(f.label)) for c in q.codes) or role_matches(f.label.strip("*_ ：:"),
                                                                                     q.text) is True:
        return False  # a code's line, a role label of the asked role's group
    kinds = {kind for kind, words in _LABEL_KINDS.items() if words.search(f.label)}
    if kinds and q.kind not in kinds:
        return True  # "Branch address" for when it closes, 开放时间 for where: the label says its value's kind
    if q.kind not in NAMED_ONLY:
        return False
    own = _KIND_WORDS.sub(" ", normalize(f.label)).strip()
    if not own:
        return False  # a bare 时间 / Date: the document's own value, which the question may ask
    if schedule_label(f.label):
        return False  # 营业时间, "Opening hours": a schedule holds every time of its day, the closing one too
    # (a role label for a who: the asked role may be named by a title or a verb the lexicon lacks, "leader" for
    # 谁带队; ``role_matches`` and the question's own words judge it)
    other = any(a.kind != "person" or q.kind != "person" for a in lexicon()
                if a.name in other_attributes(q.text, own))
    if not writes_script_of(own, q.relation):
        return other  # across scripts only the lexicon reads it: 发布 is a release, 签订 a signing
    if not kinds and not other:
        # a label that neither says it holds a date or a name nor states another attribute (服务期限, "Term") may
        # state the asked one in words of its own
        return False
    words = " ".join([*q.weights, *(x for forms in q.anchors for x in forms), normalize(q.text)])
    if has_han(own):
        return not any(ch in words for ch in own if has_han(ch))
    asked = {stem(w)[:LABEL_STEM] for w in re.findall(r"[a-z0-9]{3,}", words)}
    return not any(stem(w)[:LABEL_STEM] in asked for w in re.findall(r"[a-z0-9]{3,}", own))


_LABEL_KINDS = {
    "date": re.compile(r"时间|日期|\b(?:date|time|day|eta|etd)s?\b", re.IGNORECASE),
    "place": re.compile(r"地点|地址|位置|\b(?:location|venue|address|place|site)s?\b", re.IGNORECASE),
    "person": re.compile(r"负责人|联系人|\b(?:contact person|name)s?\b", re.IGNORECASE),
}
"""The words of a label that say the kind of its value (``_KIND_WORDS``), by kind: a label that says only another
kind than the asked one holds no value of it."""
_NESTED_LABEL = re.compile(r"[^\d\s][:：]\s*\S")
"""A label inside a field's value ("最佳摄影：程牧" in 获奖名单：最佳男演员：…)."""
LABEL_STEM = 4
"""Letters of a stem an English label's word and a question's word share to be one word (closing and close,
"opening" and "opens")."""


NAMED_ONLY: frozenset[str] = frozenset({"date", "person"})
"""Kinds of attribute a passage states only by naming it (成立, founded, 导演, supervisor): a date or a person in a
passage that never names the asked attribute is another one's. Places, quantities, nationalities and causes are
stated without their word ("a Portuguese racing driver", "体长约80公分", "因伤退赛"): on the dev sets' tune part
the same rule for every kind refused 9 contained answers, for dates and persons none."""


def writes_script_of(label: str, terms: Iterable[str]) -> bool:
    """Whether the question's own words (``terms``: its relation terms, less its names) write any word in the
    label's script: a Chinese character for a Chinese label, a Latin word of three letters or more for another."""
    if has_han(label):
        return any(has_han(t) for t in terms)
    return any(re.search(r"[a-z]{3,}", normalize(t)) for t in terms)


FIELD_KINDS = frozenset({"person", "organization", "date", "place", "number"})
"""Kinds of answer a labelled field's value gives (a definition or a reason is read in prose)."""


_LEADING_NAME = re.compile(r"[\u4e00-\u9fff·]{2,4}(?=[（(、，,；;\s]|$)")
"""A Chinese name that opens a field's value, up to its aside or the next name."""


def column_year(q: Question, f: Field) -> bool | None:
    """Whether a table cell's column is of the year the question asks: its header states years ("2024_actual_CNY",
    2024年实际, "FY2025 budget") and one of them is the question's (True) or none is (False: the column of another
    year holds another year's value); None where the question writes no year or the header states none."""
    if not f.row or not (asked := [y for y in q.years if y in q.text]) or not (years := stated_years(f.label)):
        return None
    return any(y in years for y in asked)


def _as_field(q: Question, s: Sentence, f: Field, asked: Attribute | None, e: Evidence) -> Evidence:
    """A field line or table cell read as the statement "<label> of <subject> is <value>": where the label names
    what is asked (the lexicon's words, the asked role, the question's own words; a cell also by its column
    header) and the row, if any, is the question's, the value's candidate of the asked kind is the span and
    the label states the asked relation of the passage's title (the minutes' title names the meeting); a value
    of another kind ("Born: Dremmel" for 哪一年出生) states nothing asked. Other fields stay as scored."""
    if q.kind == "number" and keyed_row(f, s.block, q.text) and of_dimension(f"{f.label} {f.value}",
                                                                             asked_dimensions(q.text)):
        # a spec sheet's row ("Value — Maximum load: 150 kg") whose label names what is asked and whose value is of
        # the asked dimension: the row is the label, the document's title the subject
        f = replace(f, label=f.row, row="")
    if (asked is None or asked.generic) and _unasked_label(q, f):
        # "Date signed" for when the work starts, 门店地址 for when the shop closes: the value is its label's, and a
        # line that states the asked one (if any) should win over it
        return replace(e, own=0.0, focus=0.0, span=None)
    if not addressed(f, q.text) and not row_by_meaning(q, f.row) \
            and not any(len(v) >= 2 and v in normalize(q.text) for v in s.block.split("\n")):
        return e  # another row's cell (a row is named by its label or by another of its cells: a book by its title)
    if (dated := column_year(q, f)) is False:
        # the column of another year ("2023_actual_CNY" for what was spent in 2024): that year's value, not the asked
        return replace(e, own=0.0, focus=0.0, span=None)
    row = normalize(f.row)
    says = label_asks(f, q.text, [t for t in q.relation if t not in row],
                      asked is not None and labels_it(asked, f.label), q.kind)
    if says is None and dated:
        says = True  # the column of the asked year ("2024_actual_CNY" for what was spent in 2024)
    if says is None and not f.row and q.kind == "number" and keyed_row(replace(f, row=f.label), "", q.text) \
            and of_dimension(f.value, asked_dimensions(q.text)):
        says = True  # "Maximum load: 150 kg" for "the max weight it can take": the label's words and the unit
    if says is True and foreign_label(q, asked, f):
        return e  # 会议时间 of the minutes for when the cooperative was founded: the label's, not the asked value
    if says is None and names_column(f, q.text):
        says = True  # the cell the question addresses by its row and its column (一类城市 × 普通员工)
    if says is None and in_asked_measure(q.text, f.value):
        says = True  # "库存 — 布洛芬: 46盒" for 还有多少盒: the value is in the measure word the question counts in
    if says is None and in_asked_unit(asked, f.value):
        says = True  # "Rated output: 2,200 W" for 额定功率: the value's unit is the asked attribute's
    if says is None and column_by_meaning(q, f.label) and (
            (dimensions := asked_dimensions(q.text)) is None or of_dimension(f"{f.label} {f.value}", dimensions)):
        says = True  # the column that stands out in meaning as what is asked (库存数量 for "how much … in stock"),
        # its value of the asked dimension where the question asks one (采摘量 in 斤 is no answer to 多少亩)
    if says is not True or past_for_next(q.text, f.value) or years_unstated(q, [f"{s.title} {s.block} {s.context}"]):
        # a field of the minutes' own meeting does not date the next one (下一次例会定在什么时候); a field of a
        # page of another year is another instance's ("Brenmoor floods: 1,200 residents …" of 2023 for the 2024
        # flood)
        return e
    value = typed_span(q, replace(s, text=f.value, folded=normalize(f.value)))
    bare = re.sub(r"\s*[（(][^）)]*[）)]\s*$", "", f.value).strip()  # less its aside: "0596-8832 1100（24小时）"
    if value is None and q.kind in ("date", "number") and (not re.search(r"\d", f.value) or (
            in_identifier(bare, 0, len(bare)) and not asks_identifier(q.text))):
        # "Born: Dremmel" for a year, "热线：0596-8832 1100" for when: nothing asked is stated (a telephone number,
        # a code, a document number is no date nor count)
        return replace(e, own=0.0, focus=0.0, span=None)
    if value is None and q.kind in ("person", "organization") and re.search(r"\d", f.value):
        return e  # a date or a number is no one's name ("会议时间：3月12日" for who chaired)
    if value is None:
        # a name the tagger does not know ("公司总部三楼青松会议室"), a clock ("Time: 10:40"): the value as
        # written, less its aside and the stop that ends its line ("地点：镇文化中心二楼。" → 镇文化中心二楼)
        written = re.sub(r"\s*[（(][^）)]*[）)]\s*$", "", f.value).strip().rstrip("。．；;，,").strip()
        value = Span(0, len(written), written) if written else None
    if value is None:
        return e
    if value is not None and q.kind == "person" and (whole := _LEADING_NAME.match(f.value)) is not None \
            and value.text in whole[0]:
        value = Span(0, whole.end(), whole[0], value.type)  # "祁文澜（副总经理）": the whole name, not "文澜"
    label = normalize(f.label)
    # the label is the question's words for what is asked (库存 for 还剩几台), unless a word is another column's
    # nearby ("family" of "Family room — Weekend" is not stated by "Standard room — Weekend")
    spellings = {t: (t, label) for t in q.focus if t not in s.context and t not in s.rows}
    subject = f"{s.title} {normalize(s.under)} {s.block} {s.folded}"  # the title, the block, the row's cells
    own = max(e.own, weighted_coverage(q.relation, subject, spellings))
    coverage = max(e.coverage, weighted_coverage(q.weights, s.context, {**q.spellings, **spellings}))
    span = Span(f.start + value.start, f.start + value.end, value.text, value.type)
    return replace(e, coverage=coverage, own=own, focus=1.0, span=span, field=True)


_DATE_WORDS = frozenset({"year", "date", "day", "month", "decade", "century", "年份", "日期"})
"""Question words that name the kind of a date asked ("in which year"): a date of the asked attribute is their focus."""


def unspellable(q: Question, s: Sentence) -> list[str]:
    """The question's names that a sentence in the other language does not mention and cannot be expected
    to spell: Latin names without digits in a Chinese passage, Chinese names in an English one (a code such
    as "X300" is written the same in both). A name the passages write in the sentence's script ("Longjing" as
    龙井) can be spelled there: a sentence that does not is about something else (another row of a price list)."""
    if s.semantic is None:
        return []
    chinese = han_share(s.text) >= 0.5
    return [forms[0] for forms in q.anchors if not mentioned(forms, s.context)
            and not re.search(r"\d", forms[0]) and has_han(forms[0]) != chinese
            and not any(has_han(f) == chinese for f in forms[1:])]


_TIME_KINDS = _DATE_WORDS | {"week", "weekday", "hour", "minute", "time", "星期", "时间"}
"""Words that name the kind of a time asked ("which day of the week"): a line states the value (每周二), not the word."""


def unwritten_specific(q: Question, s: Sentence, document: str = "") -> list[str]:
    """The question's specific words (not its names, numbers or dates) that the general dictionary carries into the
    other language and that a sentence in the other language, under its title and heading, writes in neither
    language: as asked, in a dictionary word, or in the lexicon's words (``written_across``). Meaning may stand for a
    word the dictionary cannot carry over; it does not stand for one it can that the sentence does not write (火星
    of "火星上的第一座城市叫什么名字" over a line of a store "in one of the city's best-known shopping streets": the
    line that stands out by meaning among a few is no statement about Mars). Empty for a sentence in the question's
    own language. ``document``: the words of the file's name, which every line of it is about ("labels" of "On the
    museum's labels, what does 出水 mean?" over museum_labels.html)."""
    if not in_other_language(q, s.text):
        return []
    names = {f for forms in q.anchors for f in forms}
    where = f"{s.context} {document}"
    out: list[str] = []
    for t in q.weights:
        if t in names or t in _TIME_KINDS or re.search(r"\d", t) or not (forms := dictionary_forms(t)) \
                or specificity(t, forms) < SPECIFIC_FROM:
            continue
        if not any(found(f, where) > 0 for f in (t, *q.crossed_spellings.get(t, ()), *forms)) \
                and written_across(t, where) is None:
            out.append(t)
    if q.chinese:
        # a word the question writes in the sentence's own letters, not a name ("shall" of 合同里的 shall 应该怎么翻译) is written
        # as asked by a line that speaks of it (the contract's "will translate" line does not)
        out += [w for w in dict.fromkeys(_LATIN_WORD.findall(q.text))
                if not any(w in f for f in names) and found(w, where) == 0]
    return list(dict.fromkeys(out))


_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9])[a-z][a-z'-]{2,}(?![A-Za-z0-9])")
"""A word the question writes in lower-case Latin letters (a name is capitalised: "Northstar")."""


def _focus(q: Question, s: Sentence) -> float:
    """The share of the asked relation's terms the sentence writes (in a sentence of the other language, in their
    dictionary translations, at ``CROSSED_FOCUS``)."""
    if not q.focus:
        return 0.0
    said = weighted_coverage(q.focus, s.folded, q.spellings)
    if in_other_language(q, s.text):
        said = max(said, said + CROSSED_FOCUS * (weighted_coverage(q.focus, s.folded, q.crossed_spellings) - said))
    return said


def _linked(a: Sentence, b: Sentence) -> str | None:
    """A name of one sentence that the other mentions (the bridge between the two steps)."""
    for name in a.names:
        if name in b.context:
            return name
    for name in b.names:
        if name in a.context:
            return name
    return None


def _bridge(q: Question, first: Evidence, b: Sentence, kind_of: Callable[[int], str | None] | None = None
            ) -> Evidence | None:
    """The bridge of a nested question followed from the first hop ``first`` (about every entity the question
    names) to a sentence ``b`` of the passage about an entity the first hop names: the answer is a span of the
    asked kind in ``b``. None unless the first hop stops at that entity (no span of its own, the entity itself
    as its span, or, in a nested question, a span in a sentence that does not state what is asked) and ``b``
    holds such a span."""
    a = first.sentences[0]
    if q.kind not in BRIDGE_KINDS or first.anchored < 1.0 or len(first.sentences) != 1:
        return None
    if (hop := hop_name(a, b)) is None:
        return None
    if kind_of is not None and (want := bridge_kind(q.text)) is not None and kind_of(b.hit) not in (None, want):
        return None  # the bridge is the entity of the kind the question describes ("the company that …"), not
        # another the first hop's sentence names (the town it operates in)
    if hop in normalize(q.text) and first.span is not None:
        return None  # a bridge the question names itself is followed only from a first hop with no answer
    own = first.span is not None and not (normalize(first.span.text) in hop or hop in normalize(first.span.text))
    if own and (not q.nested or first.focus > 0):
        # the first hop has an answer of its own: kept, unless the question is nested and that sentence does
        # not state what is asked (a date in "the election of 2000, after X resigned" is not X's birth year)
        return None
    if first.span is not None and not own and not _goes_on(q, a, b):
        return None  # the first hop's own answer is the bridge entity: the last hop must say more of the question
    # the last hop answers what is asked of the bridge entity: where the lexicon knows the asked attribute
    # ("founded" in "when was the town where X is built founded"), the sentence that states it, the span next
    # to it; the words that describe the bridge ("the town") are the first hop's, not the answer's focus
    at = _attribute_at(q, b.text)
    span = typed_span(q, b, exclude=[hop, a.title, *q.names], at=at)
    if span is None:
        return None
    context = f"{a.context} {b.context}"
    focus = 1.0 if at and near((span.start, span.end), at) else _focus(q, b)
    return Evidence(sentences=(a, b), coverage=max(first.coverage, q.coverage(context)),
                    own=weighted_coverage(q.relation, f"{a.folded} {b.folded}"), anchored=anchored(q, context),
                    focus=focus, span=span, span_in=1, link=hop, bridge=True, named=_named(q, a, b))


def _named(q: Question, *sentences: Sentence) -> float:
    """``Evidence.named`` of sentences taken together (a chain's two hops name the question's entities between
    them): what a single sentence gains for naming them itself, a chain gains alike. A name written out counts
    whole, one only referred to (by its model code, in another word order) half: of a table's rows "K30 Pro —
    最高控制温度" names the K30 Pro, "K30 — 最高控制温度" another model that shares its code."""
    if not q.anchors:
        return 0.0
    text = " ".join(s.folded for s in sentences)
    return sum(1.0 if any(f in text for f in forms) else 0.5 if mentioned(forms, text) else 0.0
               for forms in q.anchors) / len(q.anchors)


def _attribute_at(q: Question, text: str) -> list[tuple[int, int]] | None:
    """Where a sentence states the attribute the question asks (by the lexicon), by the question's own word
    when the sentence uses it ("founded", not "charter", for "… founded?"); None when the lexicon knows no
    specific attribute of the question."""
    asked = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    if asked is None or asked.attribute.generic:
        return None
    word = q.text[asked.start : asked.end].casefold()
    marks = stated_at(asked.attribute, text)
    same = [(a, b) for a, b in marks if word.startswith(text[a:b].casefold()) or text[a:b].casefold() in word]
    return same or marks


def _goes_on(q: Question, a: Sentence, b: Sentence) -> bool:
    """Whether the last hop states something of the question the first does not: one of the question's
    remaining terms, or the asked attribute by the bilingual lexicon; a sentence in the other language than
    the question's cannot share its words and is left to its span ("Where will X hold its next conference?"
    is not answered by the river of the town X's factory is in)."""
    residual = {t: w for t, w in q.relation.items() if t not in a.context}
    if not residual or weighted_coverage(residual, b.folded) > 0 or has_han(b.text) != q.chinese:
        return True
    asked = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    return asked is not None and bool(stated_at(asked.attribute, b.text))


def hop_name(a: Sentence, b: Sentence) -> str | None:
    """The name by which sentence ``a`` reaches ``b``'s passage: the longest of the names that passage is
    about (its title, a name its title is made of, a Chinese title's opening name: ``title_named``) that ``a``
    states and is not ``a``'s own passage's subject; None when ``a`` names none.

    ``a``'s own subject is its title and the title's first name: of "Flat 7B, Alder Quay House — For Sale" the
    flat, while "Alder Quay House" is the building the flat is in, and a sentence writing it reaches the
    building's own page ("Alder Quay House — building information")."""
    own = {a.title, *a.about[:2]}
    found = [n for n in b.about if n not in own and _states_name(a.folded, n)]
    if (lead := title_named(a.folded, b.title, own)) is not None:
        found.append(lead)
    found += [n for n in b.short if n not in own and n not in a.short and _writes_short(a.text, n)]
    return max(found, key=len) if found else None


TITLE_LEAD = 3
"""Han characters the opening of a Chinese title must have to name a document (翠湖苑 of 翠湖苑小区停车管理办法)."""


def title_named(folded: str, title: str, skip: Iterable[str] = ()) -> str | None:
    """The longest name a folded text writes of those a document's title is made of (``title_names``) or, for a
    Chinese title that runs its subject into what the document is ("翠湖苑小区机动车停放管理办法"), of its first
    part's openings of ``TITLE_LEAD`` Han characters or more ("翠湖苑小区", written in "位于翠湖苑小区会所二楼");
    None when it writes none. Names in ``skip`` (what the text's own passage is about, what the question names
    itself) and parts with a digit (a date, a version) do not count."""
    skipped = set(skip)
    # a part with a digit is a date or a version ("2025年下半年", "2026 revision"), no name of what it is about
    found = [n for n in title_names(title) if n not in skipped and len(n) >= 3 and not _DIGIT.search(n)
             and _states_name(folded, n)]
    parts = [p.strip() for p in _TITLE_PARTS.split(strip_disambiguation(title)) if p.strip()]
    head = normalize(parts[0]) if parts else ""
    if has_han(head):
        for end in range(len(head), TITLE_LEAD - 1, -1):
            lead = head[:end]
            if len(re.findall(r"[\u4e00-\u9fff]", lead)) < TITLE_LEAD or lead in skipped or _DIGIT.search(lead):
                break
            if lead in folded:
                found.append(lead)
                break
    return max(found, key=len) if found else None


def _writes_short(text: str, key: str) -> bool:
    """Whether a sentence writes a short form in capitals ("launched by the MSRA"; "told us" is no "US")."""
    return re.search(rf"(?<![A-Za-z]){re.escape(key.upper())}(?![A-Za-z])", text) is not None


def _states_name(folded: str, name: str) -> bool:
    """Whether a folded sentence states a folded name: as whole words for a Latin name, anywhere for a
    Chinese one."""
    if has_han(name):
        return name in folded
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", folded) is not None


MEANING_SENTENCES = 16
"""Sentences in the other language than the question's that are compared with it by meaning (each costs an
embedding, ~60-95 ms with e5 on one CPU core, unless the ingest's fill kept its vector in ``sentences.db``; only
when the best evidence by words is in the other language). Six left the labelled lines of a page's second half
uncompared (负责人：…, the seventh line of a workshop's page, for "who runs it"); the median they are measured
against (``by_meaning``) is steadier over more."""
MEANING_SLOPE = 0.04
"""Cosine above the median of those sentences that makes one the best by meaning (e5: the sentence that
answers is 0.02-0.05 above its neighbours, all of them near 0.78)."""


def other_language(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES,
                   most: int = MEANING_SENTENCES) -> list[str]:
    """The sentences of the top passages in the other language than the question's, of passages that mention
    the entities it names (in either script), first ``most``: what is compared with the question by meaning
    where words cannot match ("How many books can a reader borrow" / 每位读者最多可借图书10册)."""
    found = [s for s in sentences_of(q, hits, limit) if in_other_language(q, s.text) and about_subject(q, s, hits)
             and not titled(q, s)]
    if q.codes:
        # the line of the asked code first, wherever it stands in its table ("E3 Reservoir empty." is the eighth
        # sentence of a fault list whose first six are E1's and E2's): its meaning is the one to weigh
        codes = {s.hit: asked_codes(q, hits[s.hit]) for s in found}
        found.sort(key=lambda s: not (codes[s.hit] and states_codes(codes[s.hit], s.text)))
    if q.years:
        # the lines of the asked year first, by their own words or the year heading them (a timeline's "2023年"
        # over that year's lines, which may stand past the first ``most`` of a long passage)
        found.sort(key=lambda s: not set(q.years) & set(stated_years(f"{s.under} {s.text}")))
    return list(dict.fromkeys(s.text for s in found))[:most]


def _by_meaning_of(q: Question, s: Sentence, meaning: dict[str, float], hits: Sequence[Hit]) -> Sentence:
    """A sentence as the comparison by meaning leaves it: a compared one with how far it stands out, and, where
    only its passage names the subject, with those names in its context (the line "Warranty: 5 years" is the
    HP-20's, which its card's title line names); the passage's title line with nothing of what is
    asked (it is not compared: it stands closest to every question about its subject by its names alone)."""
    if s.text in meaning:
        if anchored(q, s.context) == 0 and s.hit < len(hits):
            h = hits[s.hit]
            blob = passage_words(h)
            said = [forms[0] for forms in q.anchors if mentioned(forms, blob)]
            return replace(s, semantic=meaning[s.text], context=" ".join([s.context, *said]))
        return replace(s, semantic=meaning[s.text])
    if s.semantic is not None and titled(q, s):
        return replace(s, semantic=0.0)
    return s


def titled(q: Question, s: Sentence) -> bool:
    """Whether a sentence is its passage's title line: the first, with no sentence mark, naming the question's
    subject ("Thermafen HP-20 Air-Source Heat Pump - Quick Service Guide"): never an answer, and closest in
    meaning to every question about its subject."""
    return s.position == 0 and not _SENTENCE_MARK.search(s.text.strip()) and anchored(q, s.folded) > 0


def asked_part(q: Question) -> str:
    """The question without the names it writes: what it asks of its subject, the part compared by meaning with
    the sentences of the other language (whole, the question's names pull the passage's title line and every
    line that repeats them above the line that answers: "Thermafen HP-20 … Service Guide" above "Refrigerant:
    R32" for "Thermafen HP-20 用的是哪种制冷剂？"). The question itself where nothing is left."""
    # (a code is what is asked of it: "F03 是什么故障")
    text = without_names(q.text, (n for n in q.names if n.strip() and not CODE.fullmatch(n.strip())))
    text = re.sub(r"\s+", " ", text).strip()
    return text if text != q.text.strip() and has_content(text) and len(text) >= ASKED_PART_CHARS else q.text


ASKED_PART_CHARS = 4
"""Shorter than this once the names are out ("X呢？"), the question is compared whole."""


def about_subject(q: Question, s: Sentence, hits: Sequence[Hit]) -> bool:
    """Whether a sentence is about an entity the question names: its context mentions one, or its passage does (a
    manual names its product in its first line, and its lines below do not repeat it: "F03 High-pressure
    protection tripped" is the Thermafen HP-20's line, under a file named thermafen_hp20_service_guide)."""
    if anchored(q, s.context) > 0:
        return True
    hit = hits[s.hit] if s.hit < len(hits) else None
    return hit is not None and anchored(q, passage_words(hit)) > 0


def unsupported_crossing(q: Question, s: Sentence, qualified: float = 1.0, stated: float = 1.0,
                         passage: str = "") -> bool:
    """The answering sentence is in the other language than the question's and nothing carries the question
    over to it: the question names nothing, or the sentence (with its context: title, neighbours, tags) does not
    mention every name the question writes, under any of its spellings — as written, misspelled, or in the
    other script (pinyin, a bracketed alias). A Chinese sentence that mentions 青檀 for "Qingtan City Library"
    is the same subject in the other language, not a weaker match; one about some other library is not. Nor is
    a sentence that leaves out a qualifier of the question (``qualified``: the share of them its context
    states, < 1): "its next dealer conference" is not carried over to the company's headquarters; nor one
    that does not state the asked attribute the bilingual lexicon knows (``stated`` < 1: "When was X founded?"
    is not carried over to the date of X's next meeting, however close in meaning).

    The names (the question's names where no entity validates them) may also be mentioned by its own passage (``passage``, folded: "The Brantholm crossing
    has a new boat. … A single crossing takes 22 minutes"), as a passage in the question's language carries them
    for the score's ``anchored``.

    This is the score's ``cross_language`` feature: the crossing itself is no evidence against an answer, an
    unsupported one is."""
    if not in_other_language(q, s.text):
        return False
    # a name no entity of the store validates ("Brantholm" of a new user's file) is still the question's name,
    # looked for where the sentence's script can write it
    names = crossing_names(q, s)
    return (not names or qualified < 1.0 or stated < 1.0
            or not all(mentioned(forms, s.context) or mentioned(forms, passage) for forms in names))


CROSS_MEANING_FROM = 0.6
"""A sentence in the other language that does not carry the question's names over must be at least this close in
meaning (``Sentence.semantic``) to stand for a word of the question that the bilingual lexicon cannot translate."""


def crossing_names(q: Question, s: Sentence) -> list[tuple[str, ...]]:
    """The names that carry a question over to a sentence in the other language: its anchors' spellings, else
    the names it writes in the sentence's script (a name no entity of the store validates is still its name)."""
    chinese = han_share(s.text) >= 0.5
    return q.anchors or [(normalize(n),) for n in q.names if normalize(n).strip() and has_han(n) == chinese]


def crossed(q: Question, quals: Sequence[Qualifier], s: Sentence, known: bool = False) -> list[Qualifier]:
    """The question's qualifiers as a sentence in the other language than the question's can state them. A word
    written in the question's script (渡轮, 餐费补贴; "uniform", "spectators") cannot be written in the sentence:
    it is looked for in the lexicon's translation where the lexicon knows it (营业收入 as "revenue"). A word the
    lexicon cannot translate is not required of a sentence that carries the question over — it mentions (with
    its context) every name the question writes, under any spelling: the pair is judged by the rest (the
    subject, the asked attribute, a span of the asked type next to it, the score's sentence similarity); the
    English report that names the lake cannot write 湖上, 翻船, 疑似. Only a describing word, though: a word next
    to the question word (``Question.focus``) is what is asked where the lexicon knows no attribute of the
    question (``known``: it does), and a sentence that carries the names but not it ("the Wi-Fi password" of a
    teahouse over its opening hours) still misses it. A sentence that does not mention the names
    (or a question that names nothing) still needs its meaning close enough (``CROSS_MEANING_FROM``) to stand for
    the word: a museum's ticket line is no statement about a warehouse fire. Numbers, years, dates, codes and
    versions are written alike and stay as they are; a sentence in the question's language is judged by the
    words as written."""
    if not quals or not in_other_language(q, s.text):
        return list(quals)
    chinese = q.chinese
    names = crossing_names(q, s)
    carried = bool(names) and all(mentioned(forms, s.context) for forms in names)
    out: list[Qualifier] = []
    for x in quals:
        if x.kind != "word" or any(has_han(f) != chinese for f in x.forms if f):
            out.append(x)
        elif (words := translations(x.forms[0])) is not None:
            out.append(replace(x, forms=words))
        elif written := [w for w in dictionary_forms(x.forms[0]) if w in s.context]:
            # the general dictionary's word for it, written there ("repaired": 修理 in 由王师傅修理): stated
            out.append(replace(x, forms=tuple(written)))
        elif not (carried and (known or x.forms[0] not in q.focus)) \
                and (s.semantic is None or s.semantic < CROSS_MEANING_FROM):
            out.append(x)
    return out


def in_other_language(q: Question, text: str) -> bool:
    """Whether a sentence is in the other language than the question's (English in a Chinese question's view
    when under a fifth of its letters are Chinese; Chinese in an English one's when over half are), the names
    the question asks about left out: "保修期 — AeroClean A350: 3年" is a Chinese line that names a product
    in Latin letters, not an English one."""
    folded = normalize(text)
    for forms in q.anchors:
        for form in sorted(forms, key=len, reverse=True):
            if form and form in folded:
                folded = folded.replace(form, " ")
    return han_share(folded) < 0.2 if q.chinese else han_share(folded) > 0.5


def by_meaning(sims: dict[str, float]) -> dict[str, float]:
    """Sentence similarities (cosine) made relative: how far each stands above the median of the sentences
    compared, in [0, 1] (0.5 at the median). The embedder's absolute cosine says little (e5 puts every
    sentence of a passage on topic near 0.78); which sentence stands out says which one states what is asked."""
    if len(sims) < 2:
        return {}
    values = sorted(sims.values())
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    # the best one reaches 1.0 (from MEANING_SLOPE / 2 above the median), the others in proportion: of sixteen
    # lines of a spec sheet several stand MEANING_SLOPE / 2 above their median, and a cap there tied the
    # refrigerant's line with the heating capacity's for 用的是哪种制冷剂
    spread = max(values[-1] - median, MEANING_SLOPE / 2)
    return {t: min(1.0, max(0.0, 0.5 + 0.5 * (v - median) / spread)) for t, v in sims.items()}


COLUMN_MARGIN = 0.02
"""Cosine (e5) by which a label must stand above every other label of its table or field block, for the question's
attribute phrase, to be read as the asked column: the asked column stood 0.02-0.08 above the next on invented tables
(保质期至 for "expire", 含义 for 什么意思, "Day rate" for "a whole day"), the best of a table that lacks the asked
column (a warranty asked of a spec sheet) 0.004-0.02."""


def table_labels(hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[tuple[str, ...]]:
    """The labels of each table (its column headers, as ingest writes its cells) and each block of labelled lines of
    the top passages, where a table or block has two labels or more: the columns a question's attribute is read
    against."""
    groups: list[tuple[str, ...]] = []
    for hit in hits[:limit]:
        columns: dict[str, None] = {}
        block: dict[str, None] = {}
        for line in passage_sentences(hit.text):
            if (f := field_of(line)) is not None:
                (columns if f.row else block)[f.label] = None
        groups += [tuple(g) for g in (columns, block) if len(g) >= 2 and tuple(g) not in groups]
    return groups


def lexicon_labels(phrase: str, groups: Sequence[Sequence[str]]) -> list[str]:
    """The labels of the tables and field blocks that the bilingual lexicon names as what ``phrase`` (the question's
    ``asked_phrase``) asks, in either language (``group_names_label``: "Deposit" for 押金是多少)."""
    return [label for label in dict.fromkeys(x for g in groups for x in g) if group_names_label(phrase, label)]


def asked_phrase(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> str:
    """What the question asks of its subjects, in its own words: the question less the names it asks about (its
    named entities, the passages' titles it writes, the table rows it names by their keys). "How much rice does the
    food bank have in stock?" → "how much does the have in stock": e5 then compares what is asked with each column
    header, not the subject with every cell's row."""
    folded = normalize(q.text)
    fields = [f for hit in hits[:limit] for line in passage_sentences(hit.text) if (f := field_of(line)) is not None]
    labels = " ".join(normalize(f.label) for f in fields)
    rows = {normalize(f.row) for f in fields if f.row and names_row(q.text, f.row)}
    # the words of a passage's title the question writes name its subject ("harbour bike hire" of "Harbour bike
    # hire rates"; 明川社区药房 of 明川社区药房常用药库存), unless a label writes them (库存 is a column too)
    titled = {w for hit in hits[:limit] for w in _title_words(normalize(hit.title), folded)
              if not (w in labels.split() if w.isascii() else w in labels)}
    names = {n for forms in q.anchors for n in forms} | set(q.subjects) | rows | titled
    for name in sorted((n for n in names if len(n) >= 2), key=len, reverse=True):
        folded = re.sub(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])" if name.isascii() else re.escape(name), " ",
                        folded)
    phrase = " ".join(folded.split())
    return phrase if re.search(r"[\w\u4e00-\u9fff]{2}", phrase) else normalize(q.text)


TITLE_RUN = 3
"""Chinese characters in a row that a question shares with a passage's title to be the title's name in it."""


def _title_words(title: str, question: str) -> list[str]:
    """The words of a folded title that a folded question writes: its English words of three letters or more, and
    its Chinese runs of ``TITLE_RUN`` characters or more the question writes too, longest first."""
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9'-]{2,}", title)
             if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", question)]
    for run in re.findall(r"[\u4e00-\u9fff]+", title):
        i = 0
        while i < len(run):
            n = next((n for n in range(len(run) - i, TITLE_RUN - 1, -1) if run[i:i + n] in question), 0)
            if n:
                words.append(run[i:i + n])
            i += max(n, 1)
    return words


def table_rows(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[tuple[str, ...]]:
    """The row keys of each table of the top passages that are written in the other language than the question
    (two or more a table): the rows a subject named in one language is looked for among by meaning. A row keyed by
    a code (CW-TC-K, LS-1002) is written in the language of the cells that name it (``row_texts``)."""
    chinese = q.chinese
    groups: list[tuple[str, ...]] = []
    for hit in hits[:limit]:
        texts = row_texts([hit], 1)
        keys = dict.fromkeys(key for key, text in texts.items() if has_han(text) != chinese)
        if len(keys) >= 2 and tuple(keys) not in groups:
            groups.append(tuple(keys))
    return groups


ROW_NAME_CELLS = 3
"""Cells of a row keyed by a code that say what the row is (its name, brand, kind), at most."""
ROW_NAME_CHARS = 30
"""A cell longer than this describes the row (a note, a specification); it does not name it."""
_ROW_CODE = re.compile(r"(?=\S*[\d-])[A-Z0-9][A-Za-z0-9._/-]{1,14}")
"""A row key that is a code, not a name: letters in capitals with digits or a hyphen (CW-TC-K, LS-1002, T08, SKU-44)."""


def row_texts(hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> dict[str, str]:
    """Each table row of the top passages by its key, with what names it: the key itself, or, for a key that is a
    code, the key and the short word cells of its row that say what it is ("CW-TC-K K型热电偶", "LS-1002 温室喷雾控制器
    Kestrelline HX-60"): a reader names the thing, not its code, and the code alone tells e5 nothing."""
    cells: dict[str, list[str]] = {}
    for hit in hits[:limit]:
        for line in passage_sentences(hit.text):
            if (f := field_of(line)) is not None and f.row:
                cells.setdefault(f.row, []).append(f.value)
    out: dict[str, str] = {}
    for key, values in cells.items():
        if not _ROW_CODE.fullmatch(key):
            out[key] = key
            continue
        names = [v for v in values if len(v) <= ROW_NAME_CHARS and re.search(r"[^\W\d_]", v)
                 and (not re.search(r"\d", v) or _ROW_CODE.fullmatch(v))]
        out[key] = " ".join([key, *names[:ROW_NAME_CELLS]])
    return out


LEXICON_LEAD = 1.0
"""The lead of the one label of a table the bilingual lexicon names as what the question asks (``group_names_label``):
above any lead by meaning, which blurs attributes of one kind of value (a daily fee and a deposit are both money)."""


def columns_by_meaning(groups: Sequence[Sequence[str]], sims: dict[str, float],
                       named: Iterable[str] = ()) -> dict[str, float]:
    """For each table or block, its label (or row key) closest in meaning to what the question asks (``sims``:
    cosine by label) with how far it stands above the next of the same group; the others are not there. A label of
    several groups keeps its widest lead. Where the lexicon ``named`` labels of a group (押金 for "Deposit"), the
    group's one named label is the asked one (``LEXICON_LEAD``), or meaning ranks the named ones only."""
    out: dict[str, float] = {}
    named = frozenset(named)
    for group in groups:
        lexical = [label for label in group if label in named]
        if len(lexical) == 1:
            out[lexical[0]] = LEXICON_LEAD
            continue
        ranked = sorted(((sims[label], label) for label in lexical or group if label in sims), reverse=True)
        if len(ranked) >= 2:
            best = ranked[0][1]
            out[best] = max(out.get(best, 0.0), ranked[0][0] - ranked[1][0])
    return out


ROW_MARGIN = 0.025
"""Cosine (e5) by which a row key in the other language must stand above every other key of its table, for the
question, to be its subject's row: 0.03-0.04 for the asked row on invented tables (罐头午餐肉 for "canned luncheon
meat", 大米 for "rice"), 0.006-0.01 for the best of a table without the asked row (樱桃 for "mangoes")."""


def row_by_meaning(q: Question, row: str) -> bool:
    """Whether a table row's key, in the other language than the question, stands out in meaning among its table's
    keys as the question's subject (``ROW_MARGIN``)."""
    return q.rows.get(row, 0.0) >= ROW_MARGIN


def column_by_meaning(q: Question, label: str) -> bool:
    """Whether a label stands out among its table's labels, in meaning, as what the question asks
    (``COLUMN_MARGIN``), does not say more than the question in its own language (``says_more``) and is not read
    by the lexicon as another attribute than the one asked (``lexicon_disagrees``)."""
    return q.columns.get(label, 0.0) >= COLUMN_MARGIN and not says_more(label, q.text) \
        and not lexicon_disagrees(q, label)


@functools.lru_cache(maxsize=512)
def _asked_specific(text: str, kind: str, subjects: tuple[str, ...]) -> str | None:
    found = asked_attribute(text, kind, subjects)  # type: ignore[arg-type]
    return found.attribute.name if found is not None and not found.attribute.generic else None


def lexicon_disagrees(q: Question, label: str) -> bool:
    """Whether the bilingual lexicon reads a label as a specific attribute, none of them the specific one the
    question asks: 工期 (a duration) for 保修期是多久, 滤芯更换周期 (a replacement interval) for a warranty. Meaning
    blurs attributes of one kind of value (both are periods); where the lexicon knows both, it decides. A label it
    does not know ("Day rate", 保质期至) is read by meaning."""
    asked = _asked_specific(q.text, q.kind, tuple(forms[0] for forms in q.anchors))
    if asked is None:
        return False
    said = {a.name for a in lexicon() if not a.generic and any(p.search(label) for p in a.cues)}
    return bool(said) and asked not in said


UNWRITTEN_HAN, UNWRITTEN_WORDS = 3, 2
"""A label in the question's language that writes this many Chinese characters, or English words, the question does
not is a narrower or another attribute, whatever its meaning (滤网更换周期 for 保修期是多久: a period, but the filter's)."""


def says_more(label: str, question: str) -> bool:
    """Whether a label in the question's own language writes what the question does not (``UNWRITTEN_HAN``
    characters, ``UNWRITTEN_WORDS`` words of three letters or more, its words for the kind of value aside): meaning
    then blurs two attributes of one kind ("filter replacement period" and "warranty period" are both periods). A
    label in the other language is judged by meaning alone."""
    own = _KIND_WORDS.sub(" ", normalize(label))
    folded = normalize(question)
    if has_han(own) != has_han(folded):
        return False
    if has_han(own):
        return sum(1 for ch in dict.fromkeys(own) if has_han(ch) and ch not in folded) >= UNWRITTEN_HAN
    asked = {w[:4] for w in re.findall(r"[a-z]{3,}", folded)}
    return sum(1 for w in re.findall(r"[a-z]{3,}", own) if w[:4] not in asked) >= UNWRITTEN_WORDS


def find_evidence(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES,
                  meaning: dict[str, float] | None = None) -> list[Evidence]:
    """Single sentences and linked two-sentence chains of the top passages, best first (``q`` made
    ``about`` these passages). ``meaning``: sentences in the other language, by how much each stands out in
    meaning (``by_meaning``), which then stands in for word overlap instead of its passage's dense score."""
    sentences = sentences_of(q, hits, limit)
    if meaning:
        sentences = [_by_meaning_of(q, s, meaning, hits) for s in sentences]
    found_asked = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    asked = found_asked.attribute if found_asked is not None and not found_asked.attribute.generic else None
    plain = plain_subject(q) and q.kind in BRIDGE_KINDS
    # (a plainly named subject: the whole word the lexicon's cue falls in, "released" of "releas", is the question's
    # word for the asked attribute, so a sentence stating it in the lexicon's words covers it)
    phrase = "" if asked is None or found_asked is None else (
        _words_at(q.text, found_asked.start, found_asked.end) if plain
        else q.text[found_asked.start : found_asked.end].casefold())
    asked_terms = frozenset(t for t in q.relation if t and t in phrase)
    codes = {n: asked_codes(q, hits[n]) for n in {s.hit for s in sentences}} if q.codes else {}
    files = {n: file_words(hits[n]) for n in {s.hit for s in sentences} if n < len(hits)}
    singles = [_single(q, s, asked, asked_terms, plain, codes.get(s.hit), files.get(s.hit, "")) for s in sentences]
    if plain:
        # a sentence of another entity's passage that does not name the subject ("It was founded in 1140" in
        # Keswald's passage, beside "Keswald lies north of Marrowby") states its value of that entity
        before = {(s.hit, s.position): s.folded for s in sentences}
        singles = [_of_another(q, e, before.get((e.sentences[0].hit, e.sentences[0].position - 1), ""))
                   for e in singles]
    singles.sort(key=lambda e: -e.score)
    found = list(singles)
    # a bridge's last hop may be ranked lower than the passages read for evidence: its title, named by the
    # first hop, is what finds it
    further = [s for s in sentences_of(q, hits, BRIDGE_PASSAGES) if s.hit >= limit]
    kinds: dict[int, str | None] = {}
    want = bridge_kind(q.text)

    def kind_of(n: int) -> str | None:
        if n not in kinds:
            kinds[n] = entity_kind(hits[n].title or "", hits[n].text) if n < len(hits) else None
        return kinds[n]

    # a question that names its subject plainly ("When was Marrowby founded?") asks it of that subject: a
    # sentence of another passage, reached through a name the subject's sentence gives (the next town, the
    # film it was remade as), states it of that other entity, never of the subject
    for first in singles[:FIRST_HOPS]:
        a = first.sentences[0]
        for b in [*sentences, *further]:
            if b.hit == a.hit:
                continue
            if not plain and (bridged := _bridge(q, first, b, kind_of)) is not None:
                found.append(bridged)
                continue
            if b.hit >= limit:
                continue
            if (link := _linked(a, b)) is None or (plain and not of_subject(q, b)):
                continue
            if want is not None and kind_of(a.hit if link in a.names else b.hit) not in (None, want):
                continue  # a question that describes its bridge ("the company that …") is not joined through
                # a passage about an entity of another kind one sentence names (the town the company serves)
            coverage = q.coverage(f"{a.context} {b.context}")
            residual = {t: w for t, w in q.relation.items() if t not in a.context}
            if coverage <= first.coverage or not residual or weighted_coverage(residual, b.folded) == 0:
                continue  # the second step must itself state something of the question the first does not
            if q.codes and a.title == b.title and coverage <= q.coverage(b.context):
                continue  # nor, for a question naming a code, is a line led by a line of its own document that adds
                # nothing its context lacks ("K30 — 额定电压" of the manual before its E3 line: the title names the
                # K30 already; "感谢您选用…温控器" before a general line on faults, for 温控器报E3).
                # Codes only: CMRC's paragraphs of one article share a title, and a chain through it joined the
                # sentences a description runs over (measured: 3 answers lost when every such chain was dropped)
            own = weighted_coverage(q.relation, f"{a.folded} {b.folded}")
            # the answer is in the step that reaches it: the second, unless only the first holds one
            span = typed_span(q, b, exclude=[link, *a.names]) if q.kind not in ("yes_no", "comparison") else None
            span_in = 1
            if span is None and first.span is not None:
                span, span_in = typed_span(q, a, exclude=[link]), 0
            found.append(Evidence(sentences=(a, b), coverage=coverage, own=own,
                                  anchored=anchored(q, f"{a.context} {b.context}"), focus=_focus(q, (a, b)[span_in]),
                                  span=span, span_in=span_in, link=link, named=_named(q, a, b)))
    found.sort(key=lambda e: (-e.score, e.hits))
    if plain and asked is not None:
        # its own passage's answer, where that passage states the asked attribute, leads ("Silver Tide is a 1971
        # film, a remake of Night Harbour" states Silver Tide's year, not Night Harbour's, though it names it)
        def leads(e: Evidence) -> bool:
            s = e.sentences[e.span_in]
            return e.span is not None and _own_passage(q, s) and bool(stated_at(asked, s.text))

        found.sort(key=lambda e: not leads(e))
    ranked = untitled_first(q, event_dated(q, value_leads(q, columns_lead(q, fields_lead(section_scoped(
        q, year_scoped(q, found)))))))
    ranked = rank_kept(q, ranked) if asked_ranks(q.text) else ranked
    return pair_order_kept(q, ranked)


TITLE_STATES_NONE = frozenset({"person", "place", "number"})
"""The answer types a passage's title line never states: it names its subject (and may date a document or name
an organisation), it says no one's role, no place and no count of it."""


def untitled_first(q: Question, found: list[Evidence]) -> list[Evidence]:
    """Evidence whose answering sentence is its passage's title line ("Heritage Trail › Sites › Harrowgate Bell
    Works") after every other, for a who / where / how many question: the title line names the subject and states
    nothing of it, while it shares every word of the subject's name with the question."""
    if q.kind not in TITLE_STATES_NONE:
        return found
    return sorted(found, key=lambda e: titled(q, e.sentences[min(e.span_in, len(e.sentences) - 1)]))


_HEADING_MARKS = re.compile(r"^[#\s]*(?:(?:\d{1,2}[.、)）]|[一二三四五六七八九十]{1,2}、|[（(]\d{1,2}[)）])\s*)?|[\s.:：]+$")


def _heading_key(under: str) -> str:
    """A heading as the question would write it: folded, without its number and marks ("## 3. Seed swap" → "seed
    swap")."""
    return _HEADING_MARKS.sub("", normalize(under)).strip()


def _names_heading(key: str, asked: str) -> bool:
    """Whether a folded question writes a heading whole (two characters at least; English as whole words, five
    letters at least)."""
    if has_han(key):
        return len(key) >= 2 and key in asked
    return len(key) >= 5 and re.search(rf"(?<![\w]){re.escape(key)}(?![\w])", asked) is not None


def year_scoped(q: Question, found: list[Evidence]) -> list[Evidence]:
    """Evidence of the year the question names first, where the best one is of another year only: a sentence that states the
    asked year, itself or by the year line heading it (a timeline's "2022年" over "全年接待观众…", a yearly report's
    "2024:" over its figures), before one that states no year, before one of another year only (the line under
    "2022年" states 2022's count, not 2023's: the gate refuses it, while the asked year's line answers)."""
    asked = {y for y in q.years if y in q.text}  # a year the question writes (not 今年 read as one)
    if not asked or not found or q.nested:
        # (in a nested question the year describes the way to the subject, "the player who missed the 2003
        # season": not the asked fact's)
        return found

    def of_year(e: Evidence) -> int:
        years = {y for s in e.sentences for y in stated_years(f"{s.under} {s.text}")}
        return 0 if years & asked else 2 if years else 1

    # (of the asked year's, one holding a value of the asked type first, then the closest in meaning: its count
    # line before its new rule's)
    return found if of_year(found[0]) < 2 else sorted(found, key=lambda e: (of_year(e), e.span is None, -max(
        (s.semantic or 0.0 for s in e.sentences), default=0.0)))


def section_scoped(q: Question, found: list[Evidence]) -> list[Evidence]:
    """Evidence under the heading the question names first: where a section's heading is what the question asks
    about ("老年活动室在什么地方" over "## 老年活动室"), a sentence under another heading of the passages (the
    service station's 地点 line, its 站长 line) states that of another subject, and follows every sentence that
    is under the named heading or under none (a document's lede), unless it names that subject itself."""
    asked = normalize(q.text)
    named = {k for e in found for s in e.sentences if (k := _heading_key(s.under)) and _names_heading(k, asked)}
    if not named:
        return found

    def elsewhere(e: Evidence) -> bool:
        # (a sentence that names the heading's subject itself is about it wherever it stands: "the Marram Queen
        # ran aground" under "## The 1983 stranding" when the question names the ship's own section)
        return any((k := _heading_key(s.under)) and k not in named and not any(n in s.folded for n in named)
                   for s in e.sentences)

    return sorted(found, key=elsewhere)


def rank_kept(q: Question, found: list[Evidence]) -> list[Evidence]:
    """"The current mayor": a sentence naming the first or a former holder of the asked noun states another's
    (``qualifiers.other_rank``); another sentence that names that noun without contradicting the asked rank goes
    first (首任台长为冯启明 after 现任台长为欧阳蕙). With none, the order stands: the ``unstated`` veto refuses the
    contradicted one rather than an unrelated sentence answering in its place."""
    texts = [e.sentences[min(e.span_in, len(e.sentences) - 1)].text for e in found]
    contradicted = [other_rank(q.text, t) is not None for t in texts]
    nouns = frozenset(n for t, c in zip(texts, contradicted, strict=True) if c for n in rank_nouns(q.text, t))
    if not nouns or not any(not c and states_noun(nouns, t) for t, c in zip(texts, contradicted, strict=True)):
        return found
    order = sorted(range(len(found)), key=lambda i: contradicted[i])
    return [found[i] for i in order]


def pair_order_kept(q: Question, found: list[Evidence]) -> list[Evidence]:
    """A question that asks of one direction of a pair (Chinese to English, 英译日, from Leeds to York): evidence
    whose answering line writes the pair the other way round only (the English → Chinese row, 中译英 for 英译中)
    states the other direction's value, and goes after the rest, where another line writes the asked direction
    (``qualifiers.reversed_pair``). With none, the order stands: the answer is not moved to an unrelated line."""
    asked = asked_pair(q.text)
    if asked is None or len(found) < 2:
        return found

    def line(e: Evidence) -> str:
        s = e.sentences[min(e.span_in, len(e.sentences) - 1)]
        return f"{s.under} {s.text}"

    reversed_ = [reversed_pair(asked, line(e)) for e in found]
    if not any(reversed_) or not any(not r and states_pair(asked, line(e))
                                     for e, r in zip(found, reversed_, strict=True)):
        return found
    order = sorted(range(len(found)), key=lambda i: reversed_[i])
    return [found[i] for i in order]


_NEXT_EVENT = re.compile(r"下一?次|下一?届|下一?期|\b(?:next|following|upcoming)\b", re.IGNORECASE)


def event_dated(q: Question, found: list[Evidence]) -> list[Evidence]:
    """For a when-question, the best evidence's field that dates its page or meeting (发布日期, 会议时间,
    "Published": ``dates_itself``) gives way to a sentence of the same subject that dates the asked event: one
    holding a date of its own and a word of what is asked that neither the field nor its passage's title and
    heading state (读书节 in "今年的读书节于10月18日举行" for 今年的读书节是哪天办的, over the report's 发布日期). The
    date of the page answers a question about the page or meeting itself, which its title names. A sentence of a
    next meeting (下次, "next") does not date the asked one unless the question asks the next."""
    if q.kind != "date" or not found or not found[0].field:
        return found
    line = found[0].sentences[found[0].span_in]
    if not dates_itself(line.text):
        return found
    page = normalize(f"{line.title} {line.under} {line.text}")
    # the asked event's words: not a time the question names (今年, 2025), which the page's date states already
    event = [t for t in q.relation if t not in page and len(t) >= 2 and shift_of(t) is None
             and not _YEAR_IN.search(t)]
    asks_next = _NEXT_EVENT.search(q.text) is not None
    lead = next((e for e in found[1:] if e.span is not None and not e.field and e.anchored == 1.0
                 and any(t in (said := e.sentences[e.span_in]).folded for t in event)
                 and (asks_next or _NEXT_EVENT.search(said.text) is None)), None)
    return found if lead is None else [lead, *(e for e in found if e is not lead)]


def fields_lead(found: list[Evidence]) -> list[Evidence]:
    """The evidence with a field that answers (``Evidence.field``) first, where it names what the question names
    and scores nearly as well as the best (``VALUE_LEADS``) or the best holds no value of the asked kind:
    "主持人：邵一鸣" under the minutes' title leads a chain of two other sentences that only share the question's
    words; "Venue: Reading Room" leads the minutes' title line for "where did … meet"."""
    if not found or found[0].field:
        return found
    top, spanless = found[0].score, found[0].span is None
    lead = next((e for e in found[1:] if e.field and e.anchored == 1.0
                 and (spanless or e.score >= VALUE_LEADS * top)), None)
    return found if lead is None else [lead, *(e for e in found if e is not lead)]


def columns_lead(q: Question, found: list[Evidence]) -> list[Evidence]:
    """The evidence with, where the best is a table cell, the cell of the same row under the column that stands
    out in meaning as what is asked (``column_by_meaning``) first, when it holds a value of the asked kind: a row
    answers by its asked column, not by the one that shares a word with the question ("Bikes available — E-bike"
    for the e-bike's price by the day: "Day rate — E-bike")."""
    if not found or not q.columns or len(found[0].sentences) != 1:
        return found
    top = found[0].sentences[0]
    if (cell := field_of(top.text)) is None or not cell.row or column_by_meaning(q, cell.label):
        return found
    lead = next((e for e in found[1:] if len(e.sentences) == 1 and e.span is not None and e.field
                 and (s := e.sentences[0]).hit == top.hit and (f := field_of(s.text)) is not None
                 and f.row == cell.row and column_by_meaning(q, f.label)), None)
    return found if lead is None else [lead, *(e for e in found if e is not lead)]


VALUE_LEADS = 0.8
"""A sentence holding a value of the asked kind leads a better one that holds none when it scores at least this
share of it (the writer's ``extractive.RUNNER_UP``): the gate then judges the sentence the writer would answer
with."""


def value_leads(q: Question, found: list[Evidence]) -> list[Evidence]:
    """The evidence with, when the best holds no value of the asked quantity, a nearly as good single sentence
    about the same subject that does first: the report's title sentence (7日公布的《中国研发经费报告》) gives way
    to 2022年我国研发经费投入达30870亿元 for 研发经费总投入量是多少. Quantities only: a place or a name is often
    stated without the frame its span needs (新加坡将举办… holds no where-frame), and the runner-up holding one
    then states another place (RGB: 亚洲 for where the 2025 championships are held)."""
    if not found or not valued(q) or found[0].span is not None or found[0].anchored < 1.0:
        return found
    top = found[0].score
    lead = next((e for e in found[1:] if e.span is not None and e.anchored == 1.0 and not e.bridge
                 and len(e.sentences) == 1 and e.score >= VALUE_LEADS * top), None)
    return found if lead is None else [lead, *(e for e in found if e is not lead)]


def value_candidates(q: Question, hits: Sequence[Hit], found: Sequence[Evidence]) -> list[tuple[Evidence, Span, str]]:
    """For a question asking a time of day (几点, "what time"), each time the single sentences of ``found`` write, in
    a passage that names everything the question names, with its clause (the sentence's stretch between clause
    marks around it: "grounded at 7.52 am" of "She had left the quay at 7.15 am and grounded at 7.52 am"). The
    sentence that states the time often names neither the subject nor the asked act in the question's words
    (滑坡发生在当天凌晨4时20分 in the report on 老鹰嘴 for 几点塌下来的), so its words rank it below a sentence that names
    both and states another time or none."""
    if not found or not ((q.kind == "date" and asks_time_of_day(q.text)) or counted_lost(q, found)):
        return []
    # the subject's passages: those naming every name the question names; where it names none the tagger knows,
    # the best evidence's document's in its language (a time in any other passage is another subject's: the opening hours of a
    # workshop for a planetarium no passage mentions)
    top = next((e.sentences[0].hit for e in found if not in_other_language(q, e.sentences[0].text)),
               found[0].sentences[0].hit)
    named: dict[int, bool] = {}
    out: list[tuple[Evidence, Span, str]] = []
    for e in found:
        if len(e.sentences) != 1 or e.span is None or e.bridge:
            continue
        s = e.sentences[0]
        if s.hit not in named:
            named[s.hit] = s.hit < len(hits) and top < len(hits) and (
                anchored(q, passage_words(hits[s.hit])) == 1.0 if q.anchors
                else hits[s.hit].doc_id == hits[top].doc_id)
        if not named[s.hit] or in_other_language(q, s.text) or any(c[0].sentences[0].text == s.text for c in out):
            continue  # (the other language's sentences are judged by their own path, by meaning and the lexicon)
        from graphs.rag.answer.governance import governed_spans  # governance reads this module's sentences

        # of a list of items' times, those of the asked item's clause (每周二晚7:15和周五下午3:30 for 周五); a narrative
        # sentence's times stay every one, for meaning to choose
        for span in governed_spans(q, s, of_asked_kind(q.text, q.kind, s.text,
                                                       candidates(s.text, q.kind, q.text, q.types))):
            start = max((m.end() for m in _VALUE_CLAUSE.finditer(s.text, 0, span.start)), default=0)
            end = next((m.start() for m in _VALUE_CLAUSE.finditer(s.text, span.end)), len(s.text))
            out.append((e, span, s.text[start:end].strip()))
    return out[:VALUE_CLAUSES]


def counted_lost(q: Question, found: Sequence[Evidence]) -> bool:
    """Whether a count question names what it counts (多少名游客, "how many visitors") and the best evidence by words
    holds no count of it: the sentence that counts the asked set often shares few of the question's words (吊厢内共有
    96名游客 for 吊厢里一共困了多少名游客, below a sentence counting those taken ill), so which of the subject's counts
    of that noun answers is a matter of meaning, as for a time of day."""
    return q.kind == "number" and found[0].span is None and counted_asked(q.text) is not None


_VALUE_CLAUSE = re.compile(r"[，,;；。！？!?：:“”\"]|\s(?:and|but|then|before|after|while|when)\s|随后|然后|之后|接着")
VALUE_CLAUSES = 8
"""The most clauses embedded for one question (each is new to the embedder: ~20-60 ms on 2 cores)."""


def asked_act(q: Question) -> str:
    """What a time-of-day question asks of its subject, without the subject (几点塌下来的 of 老鹰嘴那段县道大概是几点塌下来的,
    "what time did run aground" of "What time did the Greyhaven run aground?"): every candidate clause is of the
    subject's passages already, so the subject's words only pull toward the sentences that repeat them (e5 put
    the road's reopening at 12:00, which names it, above the slide at 4:20, which does not, by the whole question;
    by this part, the slide first). Chinese writes the act after the question word, English around the subject."""
    if has_han(q.text) and (m := ASKS_TIME_OF_DAY.search(q.text)) is not None:
        return q.text[m.start() :].strip()
    act = q.text.casefold()
    for forms in q.anchors:
        for form in forms:
            act = act.replace(form, " ")
    return " ".join(act.split()) or q.text


def by_asked_value(found: list[Evidence], candidates: Sequence[tuple[Evidence, Span, str]],
                   sims: dict[str, float], question: str = "") -> list[Evidence]:
    """The evidence led by the sentence holding a value of the asked kind (``value_candidates``) that is closest in
    meaning to what the question asks of its subject (``sims``: text → cosine with ``asked_act``), its span the
    value whose clause is closest where it holds several (``clauses_to_weigh``): which of the subject's times is
    the asked event's is a matter of meaning (滑坡发生在当天凌晨4时20分左右 over 7月11日中午12时 … 恢复单车道通行 for
    几点塌下来的; "grounded at 7.52 am" over "left the quay at 7.15 am" for "what time did it run aground"), and a
    sentence holding no time cannot answer. A clause alone is too short to say which sentence is about the event
    (e5 put 明火于清晨5时40分左右被扑灭 above 火灾发生在…凌晨3时20分许 for 几点钟着的火; by the sentences, the fire first).
    A sentence that states the other end of the event than the ``question`` asks (a timetable's "Starts" cell for
    "what time does it end": ``qualifiers.other_phase``) is no candidate while another is."""
    if not candidates or not sims:
        return found
    pool = [c for c in candidates if other_phase(question, c[0].sentences[0].text) is None] or list(candidates)
    best = max(pool, key=lambda c: sims.get(c[0].sentences[0].text, -1.0))[0]
    e, span, _ = max((c for c in pool if c[0] is best), key=lambda c: sims.get(c[2], -1.0))
    lead = e if e.span == span else replace(e, span=span)
    return [lead, *(x for x in found if x is not e)]


def clauses_to_weigh(candidates: Sequence[tuple[Evidence, Span, str]]) -> list[str]:
    """The clauses of the candidate sentences that hold more than one value of the asked kind (whose span the
    clauses' meaning picks: ``by_asked_value``)."""
    count = Counter(c[0].sentences[0].text for c in candidates)
    return list(dict.fromkeys(c[2] for c in candidates if count[c[0].sentences[0].text] > 1))


def valued(q: Question) -> bool:
    """Whether the question asks a value whose kind a sentence must hold to answer it: a quantity (a count, an
    amount, a measure) or a time of day (几点, "what time": a sentence with only the day holds none)."""
    return q.kind == "number" or (q.kind == "date" and asks_time_of_day(q.text))


def _words_at(text: str, start: int, end: int) -> str:
    """The words a match falls in, whole ("releas" of a cue matched in "released" → "released"), folded."""
    while start > 0 and text[start - 1].isalnum() and text[start - 1].isascii():
        start -= 1
    while end < len(text) and text[end].isalnum() and text[end].isascii():
        end += 1
    return text[start:end].casefold()


def plain_subject(q: Question) -> bool:
    """A question that names what it asks about and describes no other entity on the way to it ("When was
    Marrowby founded?", not "When was the town where X is built founded?" nor "Where was the director of X
    born?")."""
    if len(q.anchors) != 1 or names_relation(q.text):
        return False
    rest = normalize(q.text)
    for form in sorted(q.anchors[0], key=len, reverse=True):
        rest = rest.replace(form, " § ")
    if "§" not in rest:
        return False
    rest = _ASKING.sub(" ", rest)
    return _DESCRIBING.search(rest) is None and re.search(r"的", rest.replace("§ 的", "§").replace("§的", "§")) is None


_ASKING = re.compile(r"^\s*(?:(?:in|on|at|from|by|during)\s+)?(?:which|what)\s+[a-z]+\s+")
"""The question word with its preposition and noun ("in which year"), not a relative clause."""
_DESCRIBING = re.compile(r"\b(?:that|which|who|whom|whose|where|when\s+(?!was|is|were|did|does|do)|of|by|from|with|"
                         r"after|before|for|whereby)\b"
                         # "a university located in …", "is a residential hall in …": an entity described, not named
                         r"|\b(?:a|an|the)\s+(?:[\w'&-]+\s+){0,3}?[\w'&-]+\s+(?:located|based|situated|founded|"
                         r"established|created|born|produced|released|directed|written|known|named|owned|formed|"
                         r"headquartered|featured|featuring|starring|called|published|designed|built|composed|performed|"
                         r"played|won)\b|§\s+(?:is|was|are|were)\s+(?:a|an|the)\s")
"""Words by which a question describes an entity on the way to its subject ("the town where", "the film of")."""


def of_subject(q: Question, s: Sentence, before: str = "") -> bool:
    """The sentence names the question's subject itself, or its passage is about it, or the sentence before it
    (``before``, folded) names it: what "it" of the sentence can stand for."""
    return all(mentioned(forms, f"{s.folded} {before}") or any(mentioned(forms, a) for a in s.about)
               for forms in q.anchors)


def _of_another(q: Question, e: Evidence, before: str) -> Evidence:
    """A single sentence that names the subject only through its neighbours in another entity's passage: its
    value is that entity's (no span), and it names the subject as little as it does itself."""
    s = e.sentences[0]
    if of_subject(q, s, before):
        if e.span is not None and not _own_passage(q, s) and _said_of_its_own_subject(q, s, e.span.start) \
                and not _pronoun_of_subject(q, s, before):
            return replace(e, span=None)  # "Red Shoal is a 1977 film, a remake of Gull Point": Red Shoal's year
        return e
    if not _opens_with_its_own(s, len(s.text)) or e.anchored <= (own := anchored(q, f"{s.folded} {before}")):
        return e  # (a sentence that opens with neither its passage's entity nor a pronoun may be about anything)
    return replace(e, span=None, anchored=own)


_OPENS_WITH_IT = re.compile(r"^\s*(?:(?:it|he|she|they|this|its|his|her|their)\b|它|他|她|该|其|此)", re.IGNORECASE)


def _opens_with_its_own(s: Sentence, at: int) -> bool:
    """The sentence opens with its passage's entity (its title) or a pronoun that stands for it."""
    opening = normalize(s.text[:at])
    return bool(_OPENS_WITH_IT.match(s.text)) or any(
        opening.startswith(a) or opening.startswith(f"the {a}") for a in s.about if a)


def _said_of_its_own_subject(q: Question, s: Sentence, at: int) -> bool:
    """The sentence of another entity's passage opens with that entity (its title, or "It"), and the value at
    ``at`` comes before the question's subject is named: the value is said of the sentence's own subject."""
    if not _opens_with_its_own(s, at):
        return False
    return not any(mentioned(forms, normalize(s.text[:at])) for forms in q.anchors)


SUBJECT_OPENING = 30
"""Characters of a sentence within which a name is its subject ("The Kestrel Vireo E2 is a folding e-bike …"; not
the remake named at the end of "Red Shoal is a 1977 film, a remake of Gull Point")."""


def _pronoun_of_subject(q: Question, s: Sentence, before: str) -> bool:
    """The sentence opens with a pronoun and the sentence before it (folded) opens with the question's subject:
    "It weighs 17.5 kg" after "The Kestrel Vireo E2 is a folding e-bike …" is said of the Vireo E2, whatever
    entity the passage is about (a catalogue of several models)."""
    if not before or _OPENS_WITH_IT.match(s.text) is None:
        return False
    opening = before[:SUBJECT_OPENING]
    return all(mentioned(forms, opening) for forms in q.anchors)


def _own_passage(q: Question, s: Sentence) -> bool:
    return all(any(mentioned(forms, a) for a in s.about) for forms in q.anchors)


def stated_first(q: Question, view: Sequence[Evidence]) -> list[Evidence]:
    """Evidence in the other language with the sentences that state the asked attribute by the bilingual lexicon
    (and hold a value of the asked type) first, in their order, then the rest: across languages the lexicon says
    which sentence states what is asked ("How many people live in X?" → 常住人口1450人), where meaning alone ranks
    a neighbour about the same place (学生96名) as high. Only evidence about the question's subject (naming it, or in its passage) leads: another
    passage's sentence stating the attribute of its own subject (a boathouse that "holds 38 boats" for a library's
    new seats) does not."""
    found = asked_attribute(q.text, q.kind, tuple(f[0] for f in q.anchors))
    if found is None or found.attribute.generic:
        return list(view)
    attribute = found.attribute

    def states(e: Evidence) -> bool:
        s = e.sentences[e.span_in]
        return e.span is not None and (e.anchored > 0 or _own_passage(q, s)) and bool(stated_at(attribute, s.text))

    return sorted(view, key=lambda e: not states(e))
