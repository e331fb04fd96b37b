"""Answering from the ranked passages without trusting them blindly (the writer's pure logic).

1. **Evidence**: every sentence of the top passages is scored by how much of the question it covers with
   its context — the sentences around it and its passage's title (so "He played for the Eagles" in the
   passage titled "Dick Humbert" covers "Dick Humbert") — each question term weighted by how much it says
   (``graphs.text.terms``). A two-step question is often answered by two sentences of two passages joined
   by a name the question does not contain ("…shot in Leland: *Maximum Overdrive* (1986)" and "*Maximum
   Overdrive* … directed by Stephen King"): such chains are scored on what they cover together.
   Sentences that read like instructions never count.
2. **Answerability**: the passages support an answer only if every entity the question names occurs in
   them and the best evidence covers enough of the question; otherwise the answer is "not found" and the
   passages are shown as related, never as the answer.
3. **The short answer** (``answerSpan``): a candidate of the kind the question asks for (a person, a date,
   a number with its unit ...) in the evidence, nearest to the question's words there; a comparison's
   verdict computed from the value found for each side; yes/no from whether each side's passage states
   what is asked; a list gathered across passages.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz import fuzz, process

from graphs.domain import Answerability, Citation, Hit, ParsedQuery, ValidatedEntity
from graphs.kg.mentions import strip_disambiguation
from graphs.text.answer_types import AnswerType, focus_terms, listed_type
from graphs.text.consistency import opens_with
from graphs.text.content import has_content
from graphs.text.entity_spotting import possessor
from graphs.text.normalize import has_han, normalize
from graphs.text.question_shapes import comparison_pair
from graphs.text.relations import asked_relation, states
from graphs.text.sentences import looks_like_instruction, planted, split_sentences, without_markers
from graphs.text.spans import Span, candidates, nearest
from graphs.text.terms import dictionary_word, term_weight, weighted_coverage

EVIDENCE_PASSAGES = 5
"""Passages read for evidence (the top of the ranking)."""
SUPPORTED_FROM = 0.45
"""The best evidence must cover at least this share of the question's (weighted) terms."""
RUNNER_UP = 0.8
"""A second piece of evidence nearly as good as the best (this share of its score) is shown too."""
FOCUS_WEIGHT = 0.3
"""What evidence gains for stating the terms next to the question word in its answering sentence."""
ANCHOR_PENALTY = 1.0
"""What evidence loses for not mentioning the entities the question names (all of them: the whole penalty)."""
FIRST_HOPS = 12
"""Sentences tried as the first step of a two-sentence chain (the best single ones)."""
BRIDGE_BONUS = 0.2
"""What a followed bridge gains over the first hop alone (which stops at the entity the question describes)."""
BRIDGE_PASSAGES = 10
"""Passages a bridge's last hop may come from (the title the first hop names finds it lower in the ranking)."""
BRIDGE_KINDS = frozenset({"person", "organization", "place", "date", "number"})
"""Kinds of answer a bridge is followed for: a typed span in the last hop tells the hop that answers."""


@dataclass(frozen=True)
class Question:
    """What the writer needs of the question: its kind of answer, weighted terms and named entities."""

    text: str
    kind: AnswerType
    weights: dict[str, float]
    anchors: list[tuple[str, ...]] = field(default_factory=list)
    """Entities the question names, each with the spellings that count as mentioning it: the passages must
    mention every one of them."""
    weak: list[str] = field(default_factory=list)
    """Single capitalised words the rules took for names ("British", "Oahu"): weighted, not required."""
    names: list[str] = field(default_factory=list)
    """How the question writes its entities (for comparisons and yes/no questions about two of them)."""

    focus: dict[str, float] = field(default_factory=dict)
    """The asked relation's terms next to the question word ("headquartered in what city"): the sentence that
    answers states them."""
    years: tuple[str, ...] = ()
    """Years the question names ("2024年苹果…"): the answering evidence must be of that year."""
    subjects: tuple[str, ...] = ()
    """Titles of retrieved passages that the question writes out (乍都节公园): their words name the
    subject, whatever the word split made of them (乍都 / 节 / 公园)."""
    nested: bool = False
    """A bridge question: what is asked is of an entity the question only describes ("the town where the X300
    is assembled", "X的创始人的妻子"); the first passage names it, a second states what is asked."""
    misspelled: dict[str, str] = field(default_factory=dict)
    """A name as the question spells it → how the retrieved passages spell it, where no passage spells it
    the question's way ("aquapur x300" → "aquapure x300"): a misspelled name is not a missing one."""
    types: dict[str, str] = field(default_factory=dict)
    """What the passages say their names are (folded name → PERSON, LOCATION …): their tags, and what a
    passage's opening sentence says its title is ("M. Ward … is an American singer-songwriter")."""

    @functools.cached_property
    def codes(self) -> tuple[str, ...]:
        """Codes the question names ("E3", "Q7", "X300"): a sentence that answers states the same code, not a
        neighbour of it ("what does E3 mean" is not answered by the E1 line)."""
        return tuple(dict.fromkeys(m[0].casefold() for m in CODE.finditer(self.text)))

    @property
    def relation(self) -> dict[str, float]:
        """The terms that are not names: what is asked about them ("founded", "面积")."""
        named = {forms[0] for forms in self.anchors}
        asked = {t: w for t, w in self.weights.items()
                 if t not in named and not any(t in subject for subject in self.subjects)}
        return asked or self.weights

    @functools.cached_property
    def spellings(self) -> dict[str, tuple[str, ...]]:
        """Each named entity's term and the spellings that count as it (the question's, its standard name)."""
        return {forms[0]: forms for forms in self.anchors}

    def coverage(self, text: str) -> float:
        """Weighted share of the question's terms in a folded text, each named entity under any of its spellings."""
        return weighted_coverage(self.weights, text, self.spellings)

    def about(self, hits: Sequence[Hit]) -> Question:
        """The question with the titles of these passages that it writes out as its subjects, which the
        evidence must then mention like the entities it names."""
        folded = normalize(self.text)
        titles = dict.fromkeys(normalize(strip_disambiguation(h.title)) for h in hits)
        subjects = tuple(t for t in titles if len(t) >= 2 and t in folded)
        named = [f for forms in self.anchors for f in forms]
        extra = [(t,) for t in subjects if not any(t in f for f in named)]
        blob = " ".join(f"{normalize(h.title)} {normalize(h.text)} {tagged(h)}" for h in hits[:EVIDENCE_PASSAGES])
        anchors, misspelled = [], dict(self.misspelled)
        for forms in [*self.anchors, *extra]:
            if not mentioned(forms, blob) and (near := near_spelling(forms[0], blob)) is not None:
                misspelled[forms[0]] = near
                forms = (*forms, near)
            anchors.append(forms)
        return replace(self, subjects=subjects, anchors=anchors, types=name_types(hits), misspelled=misspelled)


_KIND_WORDS = {
    "PERSON": r"actor|actress|singer|songwriter|singer-songwriter|musician|politician|writer|author|novelist|"
              r"director|filmmaker|player|footballer|rapper|poet|painter|composer|producer|journalist|"
              r"businessman|businesswoman|scientist|engineer|lawyer|coach|comedian|model|artist|king|queen|"
              r"prince|princess|saint|bishop|general|officer|athlete|guitarist|drummer|dancer|presenter",
    "LOCATION": r"city|town|village|county|state|country|province|region|district|municipality|borough|suburb|"
                r"island|river|lake|mountain|capital|neighbou?rhood|commune|parish|peninsula|valley",
    "ORGANIZATION": r"company|corporation|band|group|university|college|school|club|team|organi[sz]ation|label|"
                    r"airline|manufacturer|network|channel|newspaper|magazine|agency|party|firm|brand",
}
_LEAD_EN = [(etype, re.compile(rf"^[^.]{{0,200}}?\b(?:is|was|are|were)\s+(?:a|an|the|one of the)\s+"
                               rf"(?:[\w'-]+\s+){{0,5}}?(?:{words})\b", re.IGNORECASE))
            for etype, words in _KIND_WORDS.items()]
_BORN = re.compile(r"^[^.]{0,120}?\((?:born|b\.|né|née)\b|^[^。]{2,12}[（(]\d{4}年")
_LEAD_ZH = [("PERSON", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:演员|歌手|作家|导演|政治家|运动员|科学家|画家|诗人|"
                                  r"企业家|音乐家|主持人|教练)")),
            ("LOCATION", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:城市|县|镇|乡|村|省|自治区|国家|地区|首都|河流|山)")),
            ("ORGANIZATION", re.compile(r"^[^。]{0,30}?是[^。]{0,20}?(?:公司|企业|集团|大学|学院|机构|组织|乐队|球队|银行)"))]


def lead_type(text: str) -> str | None:
    """What a passage's opening sentence says its subject is: a person ("(born 1963)", "is an American
    singer"), a place ("is a town in …"), an organization ("is a company …"), or None."""
    head = text.lstrip()[:300]
    if _BORN.search(head):
        return "PERSON"
    found = [(m.end(), etype) for etype, pattern in (*_LEAD_EN, *_LEAD_ZH) if (m := pattern.search(head))]
    return min(found)[1] if found else None


def name_types(hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> dict[str, str]:
    """Folded name → entity type, from what the top passages' openings say their titles are, then their tags."""
    out: dict[str, str] = {}
    for hit in hits[:limit]:
        title = normalize(strip_disambiguation(hit.title))
        if title and (etype := lead_type(hit.text)) is not None:
            out.setdefault(title, etype)
    for hit in hits[:limit]:
        for etype, names in hit.entities.items():
            for name in names:
                out.setdefault(normalize(name), etype)
    return out


CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,3}-?\d{1,4}[A-Za-z]?(?![A-Za-z0-9])")
"""A code: a few letters and digits ("E3", "Q7", "X300", "A-10")."""
CODE_PENALTY = 0.6
"""What evidence loses for not stating a code the question names."""


def states_codes(codes: Sequence[str], text: str) -> bool:
    """Whether a text states every code, as a whole token ("E3" is not in "E30")."""
    found = {m[0].casefold() for m in CODE.finditer(text)}
    return all(c in found for c in codes)


def question_of(text: str, kind: AnswerType, parsed: ParsedQuery, entities: Sequence[ValidatedEntity]) -> Question:
    """Weighted terms (keywords; entity names count more) and anchors (entities, each with its spellings)."""
    anchors: dict[str, tuple[str, ...]] = {}
    years: list[str] = []
    weak: list[str] = []
    names: list[str] = []

    def known(key: str) -> bool:
        return any(key in forms for forms in anchors.values()) or key in weak

    for e in entities:
        if e.type == "DATE" and e.date_range is not None and e.date_range.start // 10000 == e.date_range.end // 10000:
            years.append(str(e.date_range.start // 10000))  # a year the question names ("2024年", "in March 2024")
        elif e.type != "DATE" and e.valid:
            forms = tuple(dict.fromkeys(normalize(f) for f in (e.text, e.standard_name or "") if f and normalize(f)))
            if forms:
                anchors.setdefault(forms[0], forms)
                names.append(e.text)
    for pe in parsed.entities:
        key = normalize(pe.text)
        if pe.type == "DATE" or not key or known(key):
            continue
        names.append(pe.text)
        if pe.source == "title_case" and len(key.split()) < 2:
            weak.append(key)
        else:
            anchors.setdefault(key, (key,))
    owner = possessor(text)
    if (owner is not None and has_han(owner) and not dictionary_word(owner)
            and not any(owner in n or n in owner for n in names)):
        # a Chinese question's opening phrase that no dictionary knows as one word is a name the passages
        # must mention ("拼多多的创始人是谁": a passage about 百度's founder does not answer it)
        anchors.setdefault(normalize(owner), (normalize(owner),))
        names.append(owner)
    for quoted in _QUOTED.findall(text):  # a title the question quotes is a name ("They Flew Alone")
        key = normalize(quoted)
        if len(key) >= 2 and not known(key):
            anchors.setdefault(key, (key,))
            names.append(quoted)
    weights = {normalize(k): term_weight(normalize(k)) for k in parsed.keywords if normalize(k)}
    for key in [*(forms[0] for forms in anchors.values()), *weak]:
        weights[key] = term_weight(key, anchor=True)
    # a keyword inside a name ("nolan" in "christopher nolan") is counted with it, not twice
    named = [*anchors, *weak]
    weights = {t: w for t, w in weights.items() if t in named or not any(t in a and t != a for a in named)}
    relation = {t: w for t, w in weights.items() if t not in anchors and t not in weak}
    focus = {t: relation[t] for t in focus_terms(normalize(text), relation)}
    features = parsed.complexity_features
    return Question(text=text, kind=kind, weights=weights, anchors=list(anchors.values()), weak=weak,
                    names=list(dict.fromkeys(names)), focus=focus, years=tuple(dict.fromkeys(years)),
                    nested=features.get("bridge", 0) > 0 or features.get("nesting", 0) > 0)


_QUOTED = re.compile(r"[\"“《「『]([^\"”》」』]{2,80})[\"”》」』]")
_MINOR = frozenset(["of", "the", "a", "an", "and", "de", "la", "le", "van", "von", "der", "den", "du", "des", "di", "da", "del", "y", "al", "bin", "ibn", "in", "on", "at", "for", "to"])


def mentioned(forms: tuple[str, ...], blob: str) -> bool:
    """Whether a folded text mentions a name: one of its spellings, or every word of a name of three words
    or more (a title-case run may carry a neighbouring word: "Besides Little Rock", "Queensland Senator")
    but one."""
    if any(f in blob for f in forms):
        return True
    words = [w for w in forms[0].split() if w not in _MINOR]
    return len(words) >= 3 and sum(w in blob for w in words) >= len(words) - 1


NEAR_LATIN = 85.0
"""rapidfuzz ratio from which a Latin name of the passages is the question's name misspelled."""
_TOKEN = re.compile(r"[\w'’&.-]+")
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


def near_spelling(name: str, blob: str) -> str | None:
    """How a folded text spells a name it does not spell the question's way: a run of as many words (±1) that
    rapidfuzz finds at least ``NEAR_LATIN`` alike (names of 6 letters or more), or, for a Chinese name of 4
    characters or more, one that differs in a single character (阿里巴吧 / 阿里巴巴). None when none is near."""
    if has_han(name):
        if len(name) < 4 or not _HAN_RUN.fullmatch(name):
            return None
        for run in _HAN_RUN.findall(blob):
            for i in range(len(run) - len(name) + 1):
                window = run[i : i + len(name)]
                if sum(a != b for a, b in zip(window, name, strict=True)) == 1:
                    return window
        return None
    if len(name.replace(" ", "")) < 6:
        return None
    words = [w.strip(".'’-") for w in _TOKEN.findall(blob)]
    size = len(name.split())
    windows = {" ".join(words[i : i + k]) for k in (size - 1, size, size + 1) if k >= 1
               for i in range(len(words) - k + 1)}
    found = process.extractOne(name, windows, scorer=fuzz.ratio, score_cutoff=NEAR_LATIN)
    return found[0] if found else None


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
    """Folded passage title, previous sentence, this sentence and the next."""
    names: tuple[str, ...]
    """Its passage's title when the question does not name it: what a sentence of another passage
    mentions to be the step before or after this one."""
    title: str = ""
    """Its passage's title, folded."""
    semantic: float | None = None
    """For a passage in the other language than the question's, where words cannot match: how close the
    passage's meaning is to the question's (its dense score, rescaled to [0, 1])."""


SEMANTIC_FROM, SEMANTIC_TO = 0.25, 0.5
"""Dense scores (cosine) rescaled to [0, 1] between these: what a cross-language passage covers of what is asked."""


def han_share(text: str) -> float:
    """Share of Chinese characters among a text's letters."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum(has_han(ch) for ch in letters) / len(letters) if letters else 0.0


def cross_language(question: str, hit: Hit) -> float | None:
    """The semantic stand-in for word overlap when the passage is in the other language (a Chinese question
    on an English passage, or the reverse) and has a dense score; None otherwise."""
    chinese = has_han(question)
    share = han_share(hit.text)
    if hit.dense_score is None or (share >= 0.2 if chinese else share <= 0.5):
        return None
    return min(1.0, max(0.0, (hit.dense_score - SEMANTIC_FROM) / (SEMANTIC_TO - SEMANTIC_FROM)))


def tagged(hit: Hit) -> str:
    """The standard names a passage is tagged with (folded): it mentions them, maybe under an alias or in
    another language ("Beijing" in a passage tagged 北京)."""
    return " ".join(dict.fromkeys(normalize(name) for names in hit.entities.values() for name in names))


_HEADING_MARK = re.compile(r"^\s*(?:#{1,6}\s|[-=*]{3,}\s*$)")
_DOCUMENT_KIND = re.compile(r"(?:纪要|通知|公告|报告|简报|议程|总结|说明书|说明|须知|清单|一览|目录|minutes|agenda|report|"
                            r"notice|memo|announcement|newsletter|contents|codes|guide|manual|overview|summary|"
                            r"schedule)\s*$", re.IGNORECASE)
_SENTENCE_MARK = re.compile(r"[。！？!?，,；;：:]|\.\s|\.$")
HEADING_CHARS = 40


def heading(sentence: str, title: str = "", *, opening: bool = False) -> bool:
    """Whether a line is a title or heading, never an answer sentence: a Markdown heading, its passage's
    title, or a short line with no sentence mark that names a kind of document ("xx会议纪要", "Q3 board
    minutes") or opens a passage that goes on (``opening``: "Fault list" above "F1: …")."""
    line = sentence.strip()
    if _HEADING_MARK.match(line):
        return True
    folded = normalize(line).strip(" .。")
    if title and folded == title:
        return True
    bare = len(line) <= HEADING_CHARS and not _SENTENCE_MARK.search(line)
    return bare and (opening or bool(_DOCUMENT_KIND.search(line)))


def sentences_of(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[Sentence]:
    """The sentences of the top passages (instruction-like ones and headings left out)."""
    out: list[Sentence] = []
    for n, hit in enumerate(hits[:limit]):
        title = normalize(strip_disambiguation(hit.title))
        if planted(hit.text):
            continue  # a passage with orders to its reader: its claims are no evidence
        raw = split_sentences(without_markers(hit.text)) or [hit.text]
        folded = [normalize(s) for s in raw]
        tags = tagged(hit)
        semantic = cross_language(q.text, hit)
        under = ""  # the heading the sentence is under ("Fault codes" for "E3: …"): context, never an answer
        for i, sentence in enumerate(raw):
            if looks_like_instruction(sentence):
                continue
            if heading(sentence, title, opening=i == 0 and len(raw) > 1 and "\n" in hit.text[:len(sentence) + 2]):
                under = folded[i]
                continue
            names = [title] if title and title not in normalize(q.text) else []
            context = " ".join([title, under, *folded[max(0, i - 1) : i + 2], tags])
            out.append(Sentence(hit=n, position=i, text=sentence, folded=folded[i], context=context,
                                names=tuple(dict.fromkeys(n for n in names if len(n) >= 2)), title=title,
                                semantic=semantic))
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

    @property
    def score(self) -> float:
        """Context coverage and what the sentences themselves say of the asked relation, a typed candidate
        as a bonus, a missing named entity as a penalty; a chain counts a little less than one sentence
        covering as much, unless it follows a bridge the single sentence stops at."""
        return (self.coverage + self.own + FOCUS_WEIGHT * self.focus + (0.15 if self.span is not None else 0.0)
                - ANCHOR_PENALTY * (1.0 - self.anchored) - 0.05 * (len(self.sentences) - 1)
                + (BRIDGE_BONUS - 0.01 * self.sentences[-1].position if self.bridge else 0.0)
                - (0.0 if self.coded else CODE_PENALTY))

    @property
    def hits(self) -> list[int]:
        return [s.hit for s in self.sentences]


def _marks(q: Question, folded: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for t in q.weights for m in re.finditer(re.escape(t), folded)]


def typed_span(q: Question, sentence: Sentence, exclude: Iterable[str] = ()) -> Span | None:
    """The candidate answer of the question's kind in a sentence, nearest to the question's words there."""
    if q.kind in ("yes_no", "comparison", "definition"):
        return None
    skip = [normalize(x) for x in exclude]
    spans = [s for s in candidates(sentence.text, q.kind, q.text, q.types)
             if not any(x and (normalize(s.text) in x or x in normalize(s.text)) for x in skip)]
    if q.kind == "date" and (end := life_end(q.text, sentence.text, spans)) is not None:
        return end
    return nearest(spans, _marks(q, sentence.text.casefold()))


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


def _single(q: Question, s: Sentence) -> Evidence:
    coverage, own, share = q.coverage(s.context), weighted_coverage(q.relation, s.folded), anchored(q, s.context)
    if s.semantic is not None:
        # the other language: the named entities by their tags (or, for names it cannot spell, by meaning),
        # what is asked by meaning (the passage's), the lead sentence first (it says what the passage is about)
        if q.anchors and (unspelled := unspellable(q, s)):
            share = min(1.0, share + s.semantic * len(unspelled) / len(q.anchors))
        named = sum(q.weights.get(forms[0], 0.0) for forms in q.anchors)
        total = sum(q.weights.values()) or 1.0
        by_meaning = min(1.0, (share * named + s.semantic * (total - named)) / total) - 0.02 * s.position
        coverage, own = max(coverage, by_meaning), max(own, s.semantic - 0.02 * s.position)
    return Evidence(sentences=(s,), coverage=coverage, own=own, anchored=share, focus=_focus(q, s),
                    span=typed_span(q, s), coded=states_codes(q.codes, s.text))


def unspellable(q: Question, s: Sentence) -> list[str]:
    """The question's names that a sentence in the other language does not mention and cannot be expected
    to spell: Latin names without digits in a Chinese passage, Chinese names in an English one (a code such
    as "X300" is written the same in both)."""
    if s.semantic is None:
        return []
    chinese = han_share(s.text) >= 0.5
    return [forms[0] for forms in q.anchors if not mentioned(forms, s.context)
            and not re.search(r"\d", forms[0]) and has_han(forms[0]) != chinese]


def _focus(q: Question, s: Sentence) -> float:
    return weighted_coverage(q.focus, s.folded) if q.focus else 0.0


def _linked(a: Sentence, b: Sentence) -> str | None:
    """A name of one sentence that the other mentions (the bridge between the two steps)."""
    for name in a.names:
        if name in b.context:
            return name
    for name in b.names:
        if name in a.context:
            return name
    return None


def _bridge(q: Question, first: Evidence, b: Sentence) -> Evidence | None:
    """The bridge of a nested question followed from the first hop ``first`` (about every entity the question
    names) to a sentence ``b`` of the passage about an entity the first hop names: the answer is a span of the
    asked kind in ``b``. None unless the first hop stops at that entity (no span of its own, the entity itself
    as its span, or, in a nested question, a span in a sentence that does not state what is asked) and ``b``
    holds such a span."""
    a = first.sentences[0]
    if q.kind not in BRIDGE_KINDS or first.anchored < 1.0 or len(first.sentences) != 1:
        return None
    hop = b.title
    if len(hop) < 2 or hop == a.title or hop not in a.folded:
        return None
    if hop in normalize(q.text) and first.span is not None:
        return None  # a bridge the question names itself is followed only from a first hop with no answer
    own = first.span is not None and not (normalize(first.span.text) in hop or hop in normalize(first.span.text))
    if own and (not q.nested or first.focus > 0):
        # the first hop has an answer of its own: kept, unless the question is nested and that sentence does
        # not state what is asked (a date in "the election of 2000, after X resigned" is not X's birth year)
        return None
    span = typed_span(q, b, exclude=[hop, a.title, *q.names])
    if span is None:
        return None
    context = f"{a.context} {b.context}"
    return Evidence(sentences=(a, b), coverage=max(first.coverage, q.coverage(context)),
                    own=weighted_coverage(q.relation, f"{a.folded} {b.folded}"), anchored=anchored(q, context),
                    focus=_focus(q, b), span=span, span_in=1, link=hop, bridge=True)


def find_evidence(q: Question, hits: Sequence[Hit], limit: int = EVIDENCE_PASSAGES) -> list[Evidence]:
    """Single sentences and linked two-sentence chains of the top passages, best first (``q`` made
    ``about`` these passages)."""
    sentences = sentences_of(q, hits, limit)
    singles = sorted((_single(q, s) for s in sentences), key=lambda e: -e.score)
    found = list(singles)
    # a bridge's last hop may be ranked lower than the passages read for evidence: its title, named by the
    # first hop, is what finds it
    further = [s for s in sentences_of(q, hits, BRIDGE_PASSAGES) if s.hit >= limit]
    for first in singles[:FIRST_HOPS]:
        a = first.sentences[0]
        for b in [*sentences, *further]:
            if b.hit == a.hit:
                continue
            if (bridged := _bridge(q, first, b)) is not None:
                found.append(bridged)
                continue
            if b.hit >= limit:
                continue
            if (link := _linked(a, b)) is None:
                continue
            coverage = q.coverage(f"{a.context} {b.context}")
            residual = {t: w for t, w in q.relation.items() if t not in a.context}
            if coverage <= first.coverage or not residual or weighted_coverage(residual, b.folded) == 0:
                continue  # the second step must itself state something of the question the first does not
            own = weighted_coverage(q.relation, f"{a.folded} {b.folded}")
            # the answer is in the step that reaches it: the second, unless only the first holds one
            span = typed_span(q, b, exclude=[link, *a.names]) if q.kind not in ("yes_no", "comparison") else None
            span_in = 1
            if span is None and first.span is not None:
                span, span_in = typed_span(q, a, exclude=[link]), 0
            found.append(Evidence(sentences=(a, b), coverage=coverage, own=own,
                                  anchored=anchored(q, f"{a.context} {b.context}"), focus=_focus(q, (a, b)[span_in]),
                                  span=span, span_in=span_in, link=link))
    found.sort(key=lambda e: (-e.score, e.hits))
    return found


# ---------------------------------------------------------------------------- answerability


def assess(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence],
           supported_from: float = SUPPORTED_FROM) -> Answerability:
    """Whether the top passages support an answer: every named entity found, enough of the question covered."""
    if not hits:
        return Answerability(decision="not_found", score=0.0, reason="no passage was retrieved")
    termless = not q.weights and not q.anchors  # zero terms are "100% covered" by any passage
    if termless and not has_content(q.text):  # punctuation, emoji, invisible characters: never answerable
        return Answerability(decision="not_found", score=0.0, reason="the question has no term to look for")
    blob = " ".join(f"{normalize(h.title)} {normalize(h.text)} {tagged(h)}" for h in hits[:EVIDENCE_PASSAGES])
    if q.kind in ("comparison", "yes_no") and len(sides := sides_of(q)) == 2:
        # a question about two things is answered from what is said of each
        lost = [name for name in sides if not mentioned((normalize(name),), blob)]
        if lost:
            return Answerability(decision="not_found", score=0.5 * (2 - len(lost)) / 2,
                                 reason=f"no retrieved passage mentions {', '.join(lost)}")
        return Answerability(decision="answerable", score=1.0,
                             reason=f"retrieved passages mention both {sides[0]} and {sides[1]}")
    missing = [forms[0] for forms in q.anchors if not mentioned(forms, blob)]
    top = evidence[0] if evidence else None
    best = top.coverage if top is not None else 0.0
    if missing and top is not None and (by_meaning := _other_language(q, missing, top)):
        # a name the question writes in its language cannot be spelled the same way in a passage of the other
        # language ("the Q3 safety meeting" over 第三季度安全例会): judged there by meaning, not by spelling
        missing = [m for m in missing if m not in by_meaning]
        if not missing and best >= supported_from:
            return Answerability(decision="answerable", score=round(best, 3),
                                 reason=f"the best evidence covers {best:.0%} of the question's terms; "
                                        f"{', '.join(by_meaning)} judged by meaning in a passage in the other "
                                        "language")
    if missing:
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no retrieved passage mentions {', '.join(missing)}")
    if q.codes and top is not None and all(s.semantic is None for s in top.sentences) and (
            lost_codes := [c for c in q.codes if not states_codes([c], blob)]):
        # a code the passages never state ("E9"): its neighbours' lines ("E1: …") do not answer
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no retrieved passage states {', '.join(c.upper() for c in lost_codes)}")
    if top is None or (q.anchors and top.anchored == 0):
        names = ", ".join(forms[0] for forms in q.anchors)
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"the passages that mention {names} say nothing of what is asked")
    if lost := [y for y in q.years if not any(y in s.context for s in top.sentences)]:
        return Answerability(decision="not_found", score=round(best * 0.5, 3),
                             reason=f"no passage that answers is of {', '.join(lost)}")
    if best < supported_from:
        return Answerability(decision="not_found", score=round(best, 3),
                             reason=f"the best evidence covers {best:.0%} of the question's terms "
                                    f"(< {supported_from:.0%})")
    spelled = "".join(f"; the question's {name!r} is taken as {near!r}, as the passages spell it"
                      for name, near in q.misspelled.items())
    if termless:  # a parse that kept no term (an LLM's): no coverage to claim
        return Answerability(decision="answerable", score=round(best, 3),
                             reason="no term of the question was extracted: the best retrieved passage answers"
                                    + spelled)
    return Answerability(decision="answerable", score=round(best, 3),
                         reason=f"the best evidence covers {best:.0%} of the question's terms"
                                + (f" and names {', '.join(f[0] for f in q.anchors)}" if q.anchors else "") + spelled)


CROSS_NAME_FROM = 0.6
"""A passage in the other language must be at least this close in meaning (rescaled dense score) to stand for
the names of the question that it cannot spell."""


def _other_language(q: Question, missing: Sequence[str], top: Evidence) -> list[str]:
    """The missing names that the best evidence, in the other language than the question's and close in
    meaning, cannot be expected to spell: names without digits or Chinese characters where it is Chinese, and
    Chinese names where it is English (a product code "X300" is written the same in every language)."""
    return [m for m in missing if any(m in unspellable(q, s) for s in top.sentences
                                      if s.semantic is not None and s.semantic >= CROSS_NAME_FROM)]


# ---------------------------------------------------------------------------- comparisons and yes/no

Direction = Literal["min_date", "max_date", "max_number", "min_number"]
_EARLIER = re.compile(r"\b(?:first|earlier|earliest|older|oldest|before|sooner)\b|先|早|老|前", re.IGNORECASE)
_LATER = re.compile(r"\b(?:later|latest|last|younger|youngest|newer|newest|after)\b|后|晚|年轻|新", re.IGNORECASE)
# a measurable quantity compared ("larger", "more albums", "更高"); "more popular" or "more diverse" is no number
_MORE = re.compile(r"\b(?:larger|largest|bigger|biggest|longer|longest|higher|highest|taller|tallest|greater|"
                   r"heavier|faster|farther|further|more populous|(?:more|most) [a-z]+s|pricier|priciest|costlier|"
                   r"dearer|(?:more|most) expensive|costs? more)\b|更?(?:多|大|高|长|重|快|远|贵)",
                   re.IGNORECASE)
_LESS = re.compile(r"\b(?:fewer|smaller|smallest|shorter|shortest|lower|lighter|slower|closer|less populous|"
                   r"cheaper|cheapest|(?:less|least) expensive|costs? less)\b|"
                   r"更?(?:少|小|低|短|轻|慢|近|便宜|实惠)", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_YEAR = re.compile(r"(?<!\d)(1[0-9]{3}|20[0-9]{2})(?!\d)")


def direction(question: str) -> Direction | None:
    """What the comparison asks for: the earlier or later date, the larger or smaller number."""
    for pattern, way in ((_EARLIER, "min_date"), (_LATER, "max_date"), (_LESS, "min_number"), (_MORE, "max_number")):
        if pattern.search(question):
            return way  # type: ignore[return-value]
    return None


def _value(text: str, way: Direction) -> float | None:
    if way in ("min_date", "max_date"):
        m = _YEAR.search(text)
        return float(m[1]) if m else None
    m = _NUMBER.search(text)
    return float(m[0].replace(",", "")) if m else None


@dataclass(frozen=True)
class Side:
    """One side of a comparison or of a yes/no question about two entities."""

    name: str
    sentence: Sentence | None
    value: str | None = None
    number: float | None = None


def _spellings(q: Question, name: str) -> tuple[str, ...]:
    """How a side of the question may be written: its anchor's spellings (the question's, the standard name)."""
    key = normalize(name)
    return next((f for f in q.anchors if key in f), (key,))


def _about(forms: tuple[str, ...], sentences: Sequence[Sentence]) -> list[Sentence]:
    """Sentences that mention a name under any of its spellings, by themselves or by their context (the
    passage's title and tags, the sentences around them), in passage order."""
    return [s for s in sentences if any(f and f in s.context for f in forms)]


def _side(q: Question, name: str, sentences: Sequence[Sentence], way: Direction | None) -> Side:
    """The best sentence about one side. For a comparison, the value comes from the first sentence that has
    one, trying first those that name the side themselves and state the relation asked about ("成立":
    "incorporated"), then those that name it, then the rest; the side as their subject, then the question's
    terms, break ties."""
    forms = _spellings(q, name)
    about = _about(forms, sentences)
    if not about:
        return Side(name, None)
    best = max(about, key=lambda s: (q.coverage(s.folded), -s.hit, -s.position))
    if way is None:
        return Side(name, best)
    kind: AnswerType = "date" if way in ("min_date", "max_date") else "number"
    relation = asked_relation(q.text)

    def preference(s: Sentence) -> tuple[bool, bool, bool, bool, float]:
        names = any(f in s.folded or f in s.title for f in forms)
        said = relation is not None and states(relation, s.text)
        return (names and said, names, said, any(opens_with(s.folded, f) for f in forms), q.coverage(s.folded))

    for s in sorted(about, key=preference, reverse=True):
        span = nearest(candidates(s.text, kind, q.text), _marks(q, s.text.casefold()))
        if span is not None and (number := _value(span.text, way)) is not None:
            return Side(name, s, span.text, number)
    return Side(name, best)


_PAIR_ZH = re.compile(r"^\s*(?:请问)?(.{2,20}?)(?:和|与|跟|同|还是)(.{2,20}?)(?:相比)?[，,]?(?:哪个|哪一个|哪款|哪家|哪种|谁)")
_PAIR_EN = re.compile(r"^\s*(?:which|who|what)\b[^,]{0,60},\s*(?:the\s+)?(.{2,60}?)\s+or\s+(?:the\s+)?(.{2,60}?)\s*\?*\s*$",
                      re.IGNORECASE)


def sides_of(q: Question) -> list[str]:
    """The two entities a comparison or a yes/no question is about: a pair of its names, else the two the
    question offers as a choice ("A和B哪个更便宜", "Which is cheaper, A or B?") when its names are fewer."""
    pair = comparison_pair(q.text, q.names)
    if pair is not None:
        return [pair[0].text, pair[1].text]
    if len(q.names) < 2 and (m := _PAIR_ZH.search(q.text) or _PAIR_EN.search(q.text)):
        return [m[1].strip(), m[2].strip()]
    return q.names[:2] if len(q.names) >= 2 else []


@dataclass(frozen=True)
class Verdict:
    """A computed answer to a comparison or a yes/no question, and the sides it rests on."""

    text: str
    span: str | None
    sides: list[Side]


def compare(q: Question, sentences: Sequence[Sentence], chinese: bool) -> Verdict | None:
    """The comparison's verdict from the value found for each side, or what is missing."""
    names = sides_of(q)
    way = direction(q.text)
    if len(names) != 2 or way is None:
        return None
    a, b = (_side(q, n, sentences, way) for n in names)
    if a.number is None or b.number is None:
        found = [s for s in (a, b) if s.number is not None]
        lost = [s.name for s in (a, b) if s.number is None]
        if chinese:
            have = "；".join(f"{s.name}：{s.value}" for s in found)
            text = (f"找到了{have}，但没有找到{'和'.join(lost)}的相应信息，无法比较。" if found
                    else f"没有找到{'和'.join(lost)}可比较的信息。")
        else:
            have = "; ".join(f"{s.name}: {s.value}" for s in found)
            text = (f"Found {have}, but nothing comparable for {' and '.join(lost)}: no verdict." if found
                    else f"Nothing comparable was found for {' and '.join(lost)}.")
        return Verdict(text=text, span=None, sides=[a, b])
    if a.number == b.number:
        text = (f"{a.name}与{b.name}相同（{a.value}）。" if chinese else f"{a.name} and {b.name} are the same ({a.value}).")
        return Verdict(text=text, span=None, sides=[a, b])
    lower_wins = way in ("min_date", "min_number")
    win, lose = (a, b) if (a.number < b.number) == lower_wins else (b, a)
    relation = {"min_date": ("早于", "is earlier than"), "max_date": ("晚于", "is later than"),
                "max_number": ("多于", "is more than"), "min_number": ("少于", "is less than")}[way]
    if _PRICE.search(q.text):
        relation = ("比", "is cheaper than") if way == "min_number" else ("比", "is more expensive than")
        relation = (f"{relation[0]}{lose.name}{'便宜' if way == 'min_number' else '贵'}", relation[1])
        text = (f"{win.name}（{win.value}）{relation[0]}（{lose.value}）。" if chinese
                else f"{win.name} ({win.value}) {relation[1]} {lose.name} ({lose.value}).")
        return Verdict(text=text, span=win.name, sides=[a, b])
    text = (f"{win.name}（{win.value}）{relation[0]}{lose.name}（{lose.value}）。" if chinese
            else f"{win.name} ({win.value}) {relation[1]} {lose.name} ({lose.value}).")
    return Verdict(text=text, span=win.name, sides=[a, b])


_PRICE = re.compile(r"\b(?:cheap\w*|pric\w*|cost\w*|expensive|dearer)\b|便宜|贵|价格|售价|实惠", re.IGNORECASE)
_SAME = re.compile(r"\bsame\b|同一|相同|一样", re.IGNORECASE)


def _stem_in(term: str, text: str) -> bool:
    """A term found as written, without a plural ending ("games": "board game"), or (Latin words of six letters
    or more) by its first five ("directors": "directed")."""
    if term in text:
        return True
    return term.isascii() and ((len(term) >= 4 and term.endswith("s") and term[:-1] in text)
                               or (len(term) >= 6 and term[:5] in text))


def yes_or_no(q: Question, sentences: Sequence[Sentence], chinese: bool) -> Verdict | None:
    """Yes when each side's passage states everything asked of both ("both film directors"), or, for "the
    same …", when they name the same value; no otherwise."""
    names = sides_of(q)
    if len(names) != 2:
        return None
    sides = [_side(q, n, sentences, None) for n in names]
    if any(s.sentence is None for s in sides):
        return None
    keys = {normalize(n) for n in names}
    predicate = [t for t in q.weights if t not in keys and not any(t in k for k in keys)]
    if _SAME.search(q.text):
        values = [{normalize(c.text) for c in candidates(s.sentence.text, "list", q.text)}  # type: ignore[union-attr]
                  - keys for s in sides]
        holds = bool(values[0] & values[1])
    else:
        holds = bool(predicate) and all(
            all(_stem_in(t, s.sentence.context) for t in predicate) for s in sides)  # type: ignore[union-attr]
    word = ("是" if holds else "否") if chinese else ("Yes" if holds else "No")
    return Verdict(text=f"{word}。" if chinese else f"{word}.", span=word, sides=sides)


# ---------------------------------------------------------------------------- the extractive answer


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


def _body(sentences: Iterable[Sentence]) -> list[str]:
    unique = {(s.hit, s.position): s for s in sentences}
    return [f"{s.text}[{s.hit + 1}]" for s in sorted(unique.values(), key=lambda s: (s.hit, s.position))]


def verdict_of(q: Question, evidence: Sequence[Evidence], chinese: bool) -> Verdict | None:
    """A comparison's computed verdict or a yes/no question's answer from the single-sentence evidence."""
    sentences = [s for e in evidence if len(e.sentences) == 1 for s in e.sentences]
    if q.kind == "comparison":
        return compare(q, sentences, chinese)
    return yes_or_no(q, sentences, chinese) if q.kind == "yes_no" else None


def extractive(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], chinese: bool) -> Written:
    """The short answer first, then the supporting sentence(s), each with its citation."""
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
    shown = list(best.sentences)
    runner = next((e for e in evidence[1:] if not set(e.sentences) <= set(shown)), None)
    if runner is not None and runner.score >= RUNNER_UP * best.score:
        shown += [s for s in runner.sentences if s not in shown][:1]
    if q.kind in ("other", "definition"):
        # a reason, a description or a definition often runs on into the next sentence of its passage
        last = best.sentences[-1]
        following = next((s for s in sentences_of(q, hits) if s.hit == last.hit and s.position == last.position + 1),
                          None)
        if (following is not None and following not in shown
                and not (CODE.match(following.text.strip()) and not states_codes(q.codes, following.text))):
            shown.append(following)  # not the next item of a list of codes ("E3: …" is not run on by "E4: …")
    # a short answer only where the answering sentence states what is asked (the terms next to the question
    # word): elsewhere a candidate of the right kind is as often wrong as right
    span = best.span.text if best.span is not None and (best.focus > 0 or not q.focus or best.bridge) else None
    parts = [_lead(span, chinese)] if span else []
    return Written(text=_join([*parts, *_body(shown)]), span=span,
                   citations=_cite(hits, [s.hit for s in shown]))


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
             if anchored(q, normalize(f"{h.title} {h.text}")) == 1.0][:LIST_PASSAGES]
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


def chinese_text(text: str) -> bool:
    """Whether the text is (mostly) Chinese."""
    return bool(re.search(r"[\u3400-\u9fff]", text))

