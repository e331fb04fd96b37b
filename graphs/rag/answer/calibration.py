"""Calibrated answerability: one probability-like score that the ranked passages answer the question.

The rules of ``answerability.assess`` come first and are kept (no passage retrieved, a name the question
names that no passage mentions, a code or a year no answering passage states): each is a precise "not found".
Where they let a question through, a logistic regression over the features of the best evidence replaces the
hand threshold on term coverage: the question is answered when the score reaches ``minAnswerability`` (a
request option; the default was chosen on the pooled dev sets, docs/answers.md).

The weights ship in ``answerability.json`` with a note of the data they were fitted on; ``aer fit-answerability``
(``app/tools/fit_answerability.py``) fits them with the unanswerable protocol on HotpotQA, CMRC 2018 and RGB's
negative-rejection set (each question with its gold passages, and again without them), validated
leave-one-dataset-out. Runtime needs numpy only.
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, cast

import numpy as np
from langchain_core.embeddings import Embeddings

from graphs.domain import Hit
from graphs.embeddings import QueryVectors, fingerprint_of
from graphs.rag.answer.attributes import Asked, asked_attribute, group_words_across, near, stated_at
from graphs.rag.answer.evidence import (
    Evidence,
    Sentence,
    crossed,
    foreign_field,
    in_other_language,
    unsupported_crossing,
    year_by_document,
)
from graphs.rag.answer.qualifiers import (
    DATE_EN,
    Conflict,
    Qualifier,
    bind,
    other_names,
    qualifiers,
    satisfied,
)
from graphs.rag.answer.question import Question, other_bound
from graphs.stores.sentence_vectors import SENTENCE_CHARS, SentenceVectors
from graphs.text.answer_types import AnswerType, head_type
from graphs.text.dates import RELATIVE_YEAR, date_forms, sole_date
from graphs.text.entity_spotting import pos_spans
from graphs.text.fields import field_of
from graphs.text.governors import head_across
from graphs.text.normalize import has_han, normalize
from graphs.text.sentences import split_sentences, without_markers
from graphs.text.spans import Span, candidates
from graphs.text.terms import asker_terms, found
from graphs.text.units import fits as measures_asked

WEIGHTS = "answerability.json"

FEATURES = (
    "coverage", "own", "anchored", "focus", "span", "attribute_known", "attribute_stated", "span_near",
    "qualified", "qualifier_sentence", "qualifier_passage", "similarity", "similarity_margin", "bridge",
    "cross_language", "own_typed", "qualified_typed", "qualifier_bound", "qualifier_conflict", "anchored_sentence",
    "attribute_missing", "value_missing", "predicate", "chinese", "similarity_chunk", "similarity_chunk_margin",
    "predicate_passage",
)
"""What the score reads of the best evidence (each in [0, 1], or a small signed margin):

- ``coverage``, ``own``: weighted share of the question's terms the evidence covers with its context, and of
  what is asked (the terms that are not names) in its sentences alone;
- ``anchored``: share of the question's named entities the evidence's context names; ``focus``: share of the
  terms next to the question word in the answering sentence;
- ``span``: a candidate of the asked type was found;
- ``attribute_known``: the lexicon knows the asked attribute (a specific one: stock code, mayor, death toll …);
- ``attribute_stated``: 1 when the answering sentence states it (its words, either language), 0.5 when only
  its passage does; for a question word's attribute (when, where, who) a span of that type stands for it;
- ``span_near``: a span of the asked type next to the attribute's words (1), elsewhere in a sentence that states
  it (0.5), in a sentence that does not (0.25);
- ``qualified``: the question has qualifiers (years, dates, ordinals, numbers, rare words);
  ``qualifier_sentence``/``qualifier_passage``: weighted share of them the answering sentence (with its
  context) / its passage states;
- ``similarity``: cosine of the question and the answering sentence (the injected embedder, the one retrieval
  uses); ``similarity_margin``: that less the best of the other candidates';
- ``bridge``: the evidence is a bridged pair; ``cross_language``: the answering sentence is in the other
  language than the question's and does not mention every name of the question in any spelling (as written,
  misspelled, in the other script): ``evidence.unsupported_crossing``;
- ``own_typed``, ``qualified_typed``: ``own`` and ``qualifier_sentence`` where the answering sentence holds a
  span of the asked type (0 where it holds none): the sentence that states what is asked, with its value;
- ``qualifier_bound``: weighted share of the qualifiers bound to the answering sentence itself — stated by it,
  its passage's title, the sentence before it or its chunk's own date (not merely somewhere in the passage);
- ``qualifier_conflict``: 1 when the answering sentence states another value of a qualifier's kind and not
  the question's (another year, month-day or edition; another place or organization of the kind the question
  names) — the hard negative that states the asked attribute for another year or place;
- ``anchored_sentence``: share of the question's named entities the answering sentence (or its title) names;
- ``attribute_missing``: the lexicon knows the asked attribute and no sentence of the evidence's passage
  states it (the subject without the asked fact: a company's founding year for its stock code);
- ``predicate``: weighted share of what the question asks of its subject in its own words (its relation
  terms less numbers, years, dates and ordinals) that the answering sentence (or its title) states as written —
  the attribute the lexicon does not know (指令长, 编剧, 收益, designed);
- ``similarity_chunk``, ``similarity_chunk_margin``: the dense score retrieval gave the answering sentence's
  passage (the question against the chunk's vector, already computed: no embedding; 0 when the dense channel did
  not find it), and its margin over the best other of the top passages;
- ``predicate_passage``: weighted share of those words next to the question word (all of them when none is) that
  the answering sentence's passage says anything of (the
  word, two of its Chinese characters in a row, an English word's stem): 0 when the passage never touches what
  is asked (造价, 电话号码 and 最高航速 of a ship whose passage gives its length and launch year);
- ``chinese``: the question is written in Chinese (the language's prior: its questions and passages are
  segmented and covered differently, so the same coverage means another thing);
- ``value_missing``: the question asks for a value of a type (a date, a number, a person, a place, an
  organization) and the answering sentence holds none (the visit's news without its date).
"""

CANDIDATES = 4
"""Evidence judged: the best few by the writer's score (the one that states the asked attribute of the
subject, with the question's qualifiers, is preferred)."""

_TYPED: frozenset[str] = frozenset({"person", "organization", "date", "place", "number", "list"})


@dataclass(frozen=True)
class Model:
    """A logistic regression over standardized features."""

    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    note: str = ""
    embedder: str = ""
    """The embedder whose sentence similarities the weights were fitted on ('' when they read none)."""
    fallback: Model | None = None
    """The model fitted without the similarity features: for an index whose embedder is another (cosines of
    another model have another scale: e5's sit near 0.9, a fake's near 0)."""

    def for_embedder(self, name: str) -> Model:
        """The model to score with over an index embedded by ``name``: this one when it reads no similarity or
        was fitted on that embedder, else its fallback (when it has one)."""
        if not self.embedder or name == self.embedder or self.fallback is None:
            return self
        return self.fallback

    def without_dense(self, hits: Sequence[Hit]) -> Model:
        """The model to score with when no top passage carries a dense score (its vectors still being filled after
        an upload, a keyword-only ranking): its fallback, fitted without the similarity features, when it reads
        the retrieval's dense score — a 0 there means "the dense channel did not find it", which it did not
        look for."""
        if self.fallback is None or not any(f.startswith("similarity_chunk") for f in self.features):
            return self
        return self if any(h.dense_score is not None for h in hits[:CANDIDATES + 1]) else self.fallback

    def probability(self, values: dict[str, float]) -> float:
        """The score of one example's features (missing features count as 0)."""
        x = (np.array([values.get(f, 0.0) for f in self.features]) - self.mean) / self.scale
        z = float(x @ self.weights + self.bias)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self, **extra: object) -> dict[str, object]:
        """The JSON form (``answerability.json``)."""
        return {"features": list(self.features), "mean": [round(float(v), 6) for v in self.mean],
                "scale": [round(float(v), 6) for v in self.scale],
                "weights": [round(float(v), 6) for v in self.weights], "bias": round(self.bias, 6),
                "threshold": round(self.threshold, 4), "note": self.note,
                **({"embedder": self.embedder} if self.embedder else {}),
                **({"fallback": self.fallback.to_json()} if self.fallback is not None else {}), **extra}


def model_from(raw: dict[str, object]) -> Model:
    """A model from its JSON form."""
    names = tuple(cast(list[str], raw["features"]))
    return Model(features=names, mean=np.array(raw["mean"], dtype=float), scale=np.array(raw["scale"], dtype=float),
                 weights=np.array(raw["weights"], dtype=float), bias=float(raw["bias"]),  # type: ignore[arg-type]
                 threshold=float(raw["threshold"]), note=str(raw.get("note", "")),  # type: ignore[arg-type]
                 embedder=str(raw.get("embedder", "")),
                 fallback=model_from(cast(dict[str, object], raw["fallback"])) if raw.get("fallback") else None)


def embedder_name(embedder: object) -> str:
    """The name of the model behind an embedder (through caching or guarding wrappers' ``inner``)."""
    seen: object = embedder
    for _ in range(5):
        name = getattr(seen, "name", None)
        if isinstance(name, str) and name:
            return name
        inner = getattr(seen, "inner", None)
        if inner is None:
            break
        seen = inner
    return type(seen).__name__


@functools.cache
def bundled() -> Model:
    """The fitted model that ships with the package."""
    text = resources.files("graphs.rag.answer").joinpath(WEIGHTS).read_text(encoding="utf-8")
    return model_from(json.loads(text))


def default_threshold() -> float:
    """The default ``minAnswerability``: the threshold chosen on the pooled dev sets."""
    return bundled().threshold


# ---------------------------------------------------------------------------- features


def asked_of(q: Question) -> Asked | None:
    """The attribute the question asks about (outside the names it writes)."""
    return asked_attribute(q.text, q.kind, tuple(f for forms in q.anchors for f in forms))


def asked_kind(q: Question, asked: Asked | None) -> AnswerType:
    """The type of span that answers: the question word's, else the asked attribute's."""
    if q.kind in ("other", "definition"):
        if asked is not None and asked.attribute.kind in _TYPED:
            return asked.attribute.kind
        if (head := head_type(q.text)) is not None:  # "RCEP生效时间", "…的举办地": asked by its last noun
            return head
    return q.kind


def question_qualifiers(q: Question, asked: Asked | None) -> list[Qualifier]:
    """The question's qualifiers, the asked attribute's own words and the asker's own numbers ("I'm 41",
    我今年35岁: ``terms.asker_terms``) left out."""
    words = asked.attribute.words if asked is not None else ()
    said = [q.text[asked.start : asked.end]] if asked is not None else []
    own = {m[0] for t in asker_terms(q.text) if (m := re.match(r"\d+(?:\.\d+)?", t))}
    return [x for x in qualifiers(q.text, q.relation, [*q.names, *(f for forms in q.anchors for f in forms)],
                                  [*words, *said]) if not (x.kind == "number" and own & set(x.forms))]


def answer_spans(q: Question, sentence: Sentence, kind: AnswerType) -> list[Span]:
    """Spans of the asked type in a sentence that are not the subject itself; for a quantity, not a date
    either ("2020年", "10月", "21日" answer no "how many" / "多少"), nor a measure of another dimension than the
    question asks ("six hours" for "how many firefighters", 第七届 for 多少名: ``graphs.text.units``)."""
    subject = [f for forms in q.anchors for f in forms if f] + ([sentence.title] if sentence.title else [])
    dates = [*((d.start, d.end) for d in candidates(sentence.text, "date", "")),
             *(m.span() for m in DATE_EN.finditer(sentence.text))] if kind == "number" else []
    out = []
    for span in candidates(sentence.text, kind, q.text, q.types):
        if kind == "date" and RELATIVE_YEAR.fullmatch(span.text) and not year_by_document(q, sentence):
            continue  # "this year" of a document that states no year, or of another act than the asked one
        key = normalize(span.text)
        if kind == "number" and (any(a < span.end and span.start < b for a, b in dates)
                                 or _CALENDAR.search(span.text) or _DATE_UNIT.match(sentence.text, span.end)
                                 or not measures_asked(q.text, sentence.text, span.start, span.end)):
            continue
        if key and not any(key in f or (f in key and len(key) - len(f) < _MORE_THAN_SUBJECT) for f in subject):
            out.append(span)  # a place that holds the subject's name says more than it (临川镇白沙滩湿地公园 of 临川风筝节)
    return out


_MORE_THAN_SUBJECT = 4
"""Characters a span must add to a subject's name it holds to be a value of its own, not the subject again (临川
→ 临川镇白沙滩湿地公园; not "Harlow" → "Harlow's")."""
_CALENDAR = re.compile(r"\d\s*(?:月|日|号)$")
_DATE_UNIT = re.compile(r"\s*(?:月|日|号)(?!\s*(?:人|次|元|吨|个|名))")
"""A number followed by a calendar unit is a date, not a quantity (a "how many" question answered with "10月" or
"21日" states no quantity); years are the date spans'."""


_NEGATING_BEFORE = re.compile(r"(?:非|不含|不包括|不包含|不计|扣除|剔除|除去|除了?[^，,。；;]{0,6})\s*$")
_EXCEPTING_AFTER = re.compile(r"^[^，,。；;]{0,8}?(?:之?外|以外)")


def negated(sentence: str, start: int, end: int) -> bool:
    """Whether the words at ``sentence[start:end]`` are negated or excepted there, so that a value next to them is
    not theirs: 非网民规模, 不含税价格, 除X外, "non-resident population", "excluding bonuses"."""
    before = sentence[max(0, start - 10) : start]
    if re.search(r"(?:^|[^是并])非\s*$|(?:不含|不包括|不包含|不计|扣除|剔除|除去)\s*$", before):
        return True
    if re.search(r"除了?[^，,。；;]{0,6}$", before) and _EXCEPTING_AFTER.match(sentence[end : end + 12]):
        return True
    return bool(re.search(r"\b(?:non-?|excluding\s+|except(?:\s+for)?\s+|other than\s+|not including\s+)$",
                          before.casefold()))


_RANK_BEFORE = re.compile(r"(?:副|代理|名誉)\s*$|\b(?:vice|deputy|assistant|acting|honorary|associate)[\s-]*$",
                          re.IGNORECASE)
"""Words that make a role another one when written right before it: 副馆长 is not the 馆长, a vice-principal
not the principal, an acting chair not the chair. Not "former" (前任): a former chair was the chair, and a
question in the past tense asks for one."""


def ranked_other(sentence: str, start: int, end: int, question: str) -> bool:
    """Whether the word at ``sentence[start:end]`` is written as another rank of it (副…, acting …, former …)
    that the question does not ask for too ("谁是副馆长" asks the deputy)."""
    m = _RANK_BEFORE.search(sentence[max(0, start - 14) : start])
    if m is None:
        return False
    word = re.escape(sentence[start:end].casefold())
    return re.search(rf"{re.escape(m[0].strip().casefold())}[\s-]*{word}", question.casefold()) is None


def _other(sentence: str, start: int, end: int, question: str) -> bool:
    return negated(sentence, start, end) or ranked_other(sentence, start, end, question)


def ungoverned(q: Question, asked: Asked | None, quals: Sequence[Qualifier], sentence: str) -> str | None:
    """The question's words for what it asks when the answering sentence writes them only negated, excepted or
    as another rank (非网民规模 for 网民规模; "non-resident population" for "population"; 副馆长 for 馆长, "vice
    principal" for "principal"): what the sentence's value is the value
    of is not what is asked. None otherwise (also when the sentence does not write them at all)."""
    folded = sentence.casefold()
    if asked is not None and not asked.attribute.generic and (marks := stated_at(asked.attribute, sentence)):
        words = [sentence[a:b] for a, b in marks if not any(ch.isdigit() for ch in sentence[a:b])]
        spots = [(a, b) for a, b in marks if not any(ch.isdigit() for ch in sentence[a:b])]
        if spots and all(_other(sentence, a, b, q.text) for a, b in spots):
            return words[0]
    words = sorted((t for t in q.relation if t), key=len, reverse=True)
    for term in predicate_head(q, quals):
        if len(term) < 2:
            continue  # "人", "m": too short to say what a sentence is about
        spots = [(_compound_start(folded, m.start(), words), m.end()) for m in re.finditer(re.escape(term), folded)]
        if spots and all(_other(folded, a, b, q.text) for a, b in spots):
            return folded[spots[0][0] : spots[0][1]]
    return None


def _compound_start(text: str, start: int, words: Sequence[str]) -> int:
    """Where the compound that ends with the word at ``start`` begins: the question's own words written just
    before it ("网民" of 网民规模) belong to it, so that 非 before the compound negates the word too."""
    moved = True
    while moved:
        moved = False
        for w in words:
            if start >= len(w) and text[start - len(w) : start] == w:
                start -= len(w)
                moved = True
                break
    return start


def predicate_terms(q: Question, quals: Sequence[Qualifier]) -> dict[str, float]:
    """What the question asks of its subject in its own words: its relation terms (not its names) less its
    numbers, years, dates and ordinals (the qualifiers that narrow the subject, checked apart)."""
    narrowing = {f for x in quals if x.kind != "word" for f in x.forms}
    return {t: w for t, w in q.relation.items() if t not in narrowing and not any(ch.isdigit() for ch in t)}


def predicate_head(q: Question, quals: Sequence[Qualifier]) -> dict[str, float]:
    """Of the question's own words for what it asks, those next to its question word ("the wingspan of …",
    "…的造价是多少"); all of them when none is there. A word that describes the subject ("glider" in "the Harlow
    Kestrel glider") is in its passage anyway and says nothing of what is asked."""
    terms = predicate_terms(q, quals)
    return {t: w for t, w in terms.items() if t in q.focus} or terms


def touched(term: str, text: str) -> bool:
    """Whether a text says something of a term at all: the term, for a Chinese one any two characters of it in a
    row (开幕日期 by 开幕式, 电话号码 not by 健康路18号), for an English one its stem."""
    if term in text:
        return True
    if has_han(term):
        return any(term[i : i + 2] in text for i in range(len(term) - 1))
    return found(term, text) > 0


def touched_share(terms: dict[str, float], text: str) -> float:
    """Weighted share of ``terms`` the text touches (``touched``); 1.0 with no terms."""
    total = sum(terms.values())
    return sum(w for t, w in terms.items() if touched(t, text)) / total if total > 0 else 1.0


def stated_share(terms: dict[str, float], text: str) -> float:
    """Weighted share of ``terms`` the text states as written (no partial credit: 编剧 is not stated by
    电视剧 … 编写); 1.0 with no terms."""
    total = sum(terms.values())
    return sum(w for t, w in terms.items() if t in text) / total if total > 0 else 1.0


def answering(e: Evidence) -> Sentence:
    """The sentence of the evidence that holds (or would hold) the answer."""
    return e.sentences[min(e.span_in, len(e.sentences) - 1)]


def _group_word_unmet(q: Question, quals: Sequence[Qualifier], answer: Sentence, passage: str) -> bool:
    """Whether the answering sentence is in the other language and its passage writes none of the words, in
    either language, of a word of the question that a label group of the bilingual lexicon translates ("the
    deposit on a kayak" over a price list that names no 押金: the hire's price is no deposit)."""
    if not in_other_language(q, answer.text):
        return False
    return any(x.kind == "word" and (words := group_words_across(x.forms[0]))
               and not any(normalize(w) in passage for w in (*words, *x.forms)) for x in quals)


def headed_at(q: Question, asked: Asked, text: str) -> list[tuple[int, int]]:
    """Where a text in the other language than the question's writes the head of its unit in a title the lexicon
    lacks, for an asked person who heads one (团长 for "Who is the captain of the running club?":
    ``governors.head_across``); empty otherwise."""
    if asked.attribute.kind != "person" or not in_other_language(q, text):
        return []
    title = next((t for w in asked.attribute.words if (t := head_across(w, text)) is not None), None)
    return [(m.start(), m.end()) for m in re.finditer(re.escape(title), text)] if title else []


def headed_cell(text: str, marks: Sequence[tuple[int, int]], spans: Sequence[Span]) -> bool:
    """Whether ``text`` is a table cell's line (``column — row: value``, as ingest writes a table) whose column
    header holds one of the attribute's ``marks`` and whose value one of the ``spans``: the header states what its
    value is however long the row's key between them ("fee members — T04 Tianmu Mountain West Peak: 180 yuan",
    "会员价 — 2026年春季徒步 西湖群山环线: 120元"), where a prose sentence's words 40 characters away may be of
    another value."""
    cell = field_of(text)
    if cell is None or not cell.row or (head_end := text.find(" — ")) < 0:
        return False
    return any(b <= head_end for _, b in marks) and any(s.start >= cell.start for s in spans)


def features_of(q: Question, asked: Asked | None, quals: Sequence[Qualifier], hits: Sequence[Hit], e: Evidence,
                sims: dict[str, float], named: Sequence[tuple[tuple[str, ...], str]] | None = None
                ) -> dict[str, float]:
    """The features of one candidate (see ``FEATURES``)."""
    answer = answering(e)
    kind = asked_kind(q, asked)
    hit = hits[answer.hit] if answer.hit < len(hits) else None
    # the passage with the date it is of (one it states, its document's header's): the minutes' last chunk is of
    # the meeting its header dates
    passage = normalize(f"{hit.title} {hit.text} {' '.join(date_forms(hit.date)) if hit.date else ''}") \
        if hit is not None else answer.context
    spans = answer_spans(q, answer, kind) if kind in _TYPED else []
    if not spans and e.field and e.span is not None and kind in _TYPED:
        spans = [e.span]  # a field's value under a label of the asked kind (会议地点：公司总部三楼青松会议室)
    specific = asked is not None and not asked.attribute.generic
    if specific:
        assert asked is not None
        marks = stated_at(asked.attribute, answer.text) or (
            # under a label stating it ("Warranty. The frame is covered for 5 years"): every span is next to it
            [(0, len(answer.text))] if answer.under and stated_at(asked.attribute, answer.under) else []) or (
            headed_at(q, asked, answer.text))
        elsewhere = any(stated_at(asked.attribute, s.text) for s in e.sentences if s is not answer) or (
            hit is not None and bool(stated_at(asked.attribute, hit.text) or headed_at(q, asked, hit.text)))
        stated = 1.0 if marks else 0.5 if elsewhere else 0.0
        span_near = 0.0 if not spans else 1.0 if marks and (any(near((s.start, s.end), marks) for s in spans)
                                                             or headed_cell(answer.text, marks, spans)) \
            else 0.5 if marks else 0.25
    else:
        stated = 1.0 if spans or kind not in _TYPED else 0.0
        span_near = 1.0 if spans else 0.0
    unmet = _group_word_unmet(q, quals, answer, passage)
    quals = crossed(q, quals, answer, specific)  # across languages: the words it cannot write, by the lexicon or by meaning
    bound, conflicts = binding_of(q, quals, hits, e, asked, named)
    spelled = [tuple(f for f in forms if f) for forms in q.anchors]
    on_sentence = f"{answer.title} {answer.folded}"
    sim = max((sims[s.text] for s in e.sentences if s.text in sims), default=0.0)
    others = [v for t, v in sims.items() if all(t != s.text for s in e.sentences)]
    chinese = q.chinese
    qualified = satisfied(quals, " ".join(s.context for s in e.sentences))
    # the other language with the question's names, qualifiers and (the lexicon's) attribute found there: no penalty
    cross = unsupported_crossing(q, answer, qualified, stated if specific else 1.0, passage)
    return derived({
        "coverage": min(1.5, e.coverage), "own": min(1.0, e.own), "anchored": e.anchored, "focus": e.focus,
        "span": 1.0 if e.span is not None else 0.0, "attribute_known": 1.0 if specific else 0.0,
        "attribute_stated": stated, "span_near": span_near, "qualified": 1.0 if quals else 0.0,
        "qualifier_sentence": qualified,
        "qualifier_passage": satisfied(quals, passage),
        "similarity": sim, "similarity_margin": sim - max(others) if others else 0.0,
        "bridge": 1.0 if e.bridge or len(e.sentences) > 1 else 0.0, "cross_language": 1.0 if cross else 0.0,
        # not a fitted feature: the answering sentence is in the other language at all (the lexicon's rule reads it)
        "other_language": 1.0 if in_other_language(q, answer.text) else 0.0,
        # not fitted either: a word of the question the label groups translate that its passage writes in neither
        # language (a deposit asked, a ticket price's passage); the lexicon's and meaning's crossings read it
        "group_word_unmet": 1.0 if unmet else 0.0,
        "value_missing": 1.0 if kind in _TYPED and not spans else 0.0,
        "qualifier_bound": bound, "qualifier_conflict": 1.0 if conflicts else 0.0,
        "similarity_chunk": _dense(hit), "similarity_chunk_margin": _dense(hit) - max(
            (_dense(h) for h in hits[:CANDIDATES + 1] if h is not hit), default=0.0),
        "predicate": stated_share(predicate_terms(q, quals), on_sentence), "chinese": 1.0 if chinese else 0.0,
        # a field whose label names what is asked (库存 of "当前库存 — LH-F302: 76台" for 还剩几台) touches it
        "predicate_passage": 1.0 if e.field else touched_share(predicate_head(q, quals), passage),
        "anchored_sentence": (sum(any(f in on_sentence for f in forms) for forms in spelled) / len(spelled)
                              if spelled else 1.0),
    })


def _dense(hit: Hit | None) -> float:
    """The dense score retrieval gave a passage (0 when the dense channel did not find it)."""
    return float(hit.dense_score or 0.0) if hit is not None else 0.0


def binding_of(q: Question, quals: Sequence[Qualifier], hits: Sequence[Hit], e: Evidence, asked: Asked | None,
               named: Sequence[tuple[tuple[str, ...], str]] | None = None) -> tuple[float, list[Conflict]]:
    """How the question's qualifiers bind to the evidence's answering sentence: the share bound to it (the
    sentence, its title, the sentence before, its chunk's date) and what it states instead (another year,
    date, edition; another place or organization of the kind the question names: ``named``, the question's
    places and organizations, computed once per question)."""
    answer = answering(e)
    hit = hits[answer.hit] if answer.hit < len(hits) else None
    binding = bind(quals, answer.folded, f"{answer.title} {_previous(hit, answer.position)}",
                   sole_date(hit.date, hit.text) if hit is not None else None,
                   normalize(hit.title) if hit is not None else "")
    skip = _NAME_TYPE.get(asked_kind(q, asked))
    named = [n for n in (question_names(q) if named is None else named) if n[1] != skip]
    unspelled = [n for n in named if not any(f in answer.folded for f in n[0] if f)]
    others = other_names(unspelled, answer.folded, sentence_names(answer.text, answer.folded, hit)) if unspelled \
        else []
    return binding.bound, [*binding.conflicts, *others]


_NAME_TYPE: dict[str, str] = {"place": "LOCATION", "organization": "ORGANIZATION"}
_NAMED = frozenset({"LOCATION", "ORGANIZATION"})


@functools.lru_cache(maxsize=512)
def _folded_sentences(text: str) -> tuple[str, ...]:
    return tuple(normalize(s) for s in split_sentences(without_markers(text)) or [text])


def _previous(hit: Hit | None, position: int) -> str:
    """The sentence before the one at ``position`` of a passage (folded; '' for the first)."""
    if hit is None or position <= 0:
        return ""
    split = _folded_sentences(hit.text)
    return split[position - 1] if position - 1 < len(split) else ""


def question_names(q: Question) -> list[tuple[tuple[str, ...], str]]:
    """The places and organizations the question names (folded spellings, type): its named entities typed by
    the passages' tags, and the places and organizations the tagger spots in its text."""
    out: list[tuple[tuple[str, ...], str]] = []
    for forms in q.anchors:
        kind = next((q.types[f] for f in forms if f in q.types), None)
        if kind in _NAMED:
            out.append((forms, kind))
    taken = {f for forms, _ in out for f in forms}
    for span in pos_spans(q.text):
        key = normalize(span.entity.text)
        if span.entity.type in _NAMED and key not in taken and not any(key in f or f in key for f in taken):
            out.append(((key,), span.entity.type))
            taken.add(key)
    return out


@functools.lru_cache(maxsize=2048)
def _tagged_names(text: str) -> tuple[tuple[str, str], ...]:
    return tuple((normalize(s.entity.text), s.entity.type) for s in pos_spans(text) if s.entity.type in _NAMED)


def sentence_names(text: str, folded: str, hit: Hit | None) -> dict[str, str]:
    """The places and organizations a sentence names (folded name → type): the tagger's, and its passage's tags
    that it spells."""
    out = dict(_tagged_names(text))
    for kind, names in (hit.entities.items() if hit is not None else ()):
        if kind in _NAMED:
            out.update({key: kind for n in names if (key := normalize(n)) and key in folded})
    return out


def derived(f: dict[str, float]) -> dict[str, float]:
    """The features computed from the others (also for examples collected before they existed)."""
    typed = 1.0 if f.get("span_near", 0.0) > 0 else 0.0
    missing = 1.0 if f.get("attribute_known", 0.0) == 1.0 and f.get("attribute_stated", 0.0) == 0.0 else 0.0
    return f | {"own_typed": f.get("own", 0.0) * typed, "qualified_typed": f.get("qualifier_sentence", 0.0) * typed,
                "attribute_missing": missing}


def preference(f: dict[str, float]) -> float:
    """How well a candidate states the asked attribute of the subject with the question's qualifiers (free of
    the fitted weights, so the fit and the runtime choose the same candidate); for a typed question a sentence
    with no value of the asked type counts half a point less (员工 stated in a rule about all staff, no number)."""
    return (f["qualifier_sentence"] + f.get("qualifier_bound", 1.0) - f.get("qualifier_conflict", 0.0)
            + f["attribute_stated"] + 0.5 * f["span_near"] + f["anchored"] - 0.5 * f.get("value_missing", 0.0))


SIMILARITY_SENTENCES = 2
"""At most this many sentences are embedded per question for the similarity features: the answering sentences of
the two best candidates (the best one's similarity and its margin over the runner-up). One e5 sentence costs
~60 ms of CPU; measured per question with e5 on the shared 2-core machine, 4 sentences 291 ms CPU (p50), 2
sentences 125 ms (docs/answers.md); a sentence met before costs nothing (``sentence_vectors``)."""
SIMILARITY_CHARS = SENTENCE_CHARS
"""A sentence is embedded by its first this many characters (e5's cost grows with its length; the ingest embeds
the same prefix ahead, ``graphs.stores.sentence_vectors``)."""


def candidate_sentences(evidence: Sequence[Evidence], limit: int = CANDIDATES,
                        cap: int = SIMILARITY_SENTENCES) -> list[str]:
    """The sentences of the judged candidates, each once, their answering sentences first, at most ``cap`` (what
    the embedder compares with the question)."""
    first = [answering(e).text for e in evidence[:limit]]
    rest = [s.text for e in evidence[:limit] for s in e.sentences]
    return list(dict.fromkeys([*first, *rest]))[:cap]


@dataclass(frozen=True)
class Judgement:
    """The chosen evidence first (the others after, in their order), its features and the asked attribute."""

    evidence: list[Evidence]
    features: dict[str, float]
    asked: Asked | None
    qualifiers: list[Qualifier]
    conflicts: tuple[Conflict, ...] = ()
    """What the chosen sentence states instead of the question's qualifiers (another year, edition, place)."""


def judge(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], sims: dict[str, float],
          limit: int = CANDIDATES) -> Judgement:
    """Describe the best candidates; a lower one is chosen over the writer's best only when it states clearly
    more of the asked attribute and the qualifiers (by ``preference``, a whole point more)."""
    asked = asked_of(q)
    quals = question_qualifiers(q, asked)
    if not evidence:
        return Judgement([], dict.fromkeys(FEATURES, 0.0), asked, quals)
    named = question_names(q)
    scored = [(features_of(q, asked, quals, hits, e, sims, named), e) for e in evidence[:limit]]
    best_f, best = scored[0]
    # (never one that misses a code the question names and the best states: the E3 line is not given up for a
    # general sentence about faults; nor one that states the other bound: 最高热风温度 for the lowest asked)
    # (nor one that states less of the asked attribute: a sentence sharing more of the question's words whose
    # passage never states the attribute is not chosen over the field line that does, 主持：… for 谁主持的)
    challenger_f, challenger = max(((f, e) for f, e in scored if (e.coded or not best.coded)
                                    and not other_bound(q, answering(e).folded)
                                    and not foreign_field(q, asked.attribute if asked else None, answering(e).text)
                                    and f["attribute_stated"] >= best_f["attribute_stated"]),
                                   key=lambda fe: preference(fe[0]), default=(best_f, best))
    if preference(challenger_f) >= preference(best_f) + 1.0:
        best_f, best = challenger_f, challenger
    rest = [e for e in evidence if e is not best]
    conflicts = tuple(binding_of(q, quals, hits, best, asked, named)[1]) if best_f.get("qualifier_conflict") else ()
    return Judgement([best, *rest], best_f, asked, quals, conflicts)


def to_find(q: Question, asked: Asked | None) -> str:
    """What the LLM writer is told to find: the asked attribute of the subject, in the words that state it."""
    names = ", ".join(q.names) or "the question's subject"
    if asked is None or asked.attribute.generic:
        return f"what the question asks about {names}, as a passage states it"
    said = q.text[asked.start : asked.end]
    words = list(dict.fromkeys([said, *(w for w in asked.attribute.words if w.casefold() != said.casefold())]))[:8]
    return (f"the {asked.attribute.name.replace('_', ' ')} of {names} (stated with words such as "
            f"{' / '.join(words)}); a passage that names {names} without stating it does not answer")


SENTENCE_CACHE = 4096
"""Sentence vectors kept per embedder: questions about the same documents meet the same sentences again, and an
e5 sentence costs tens of milliseconds on a CPU."""
_VECTORS: weakref.WeakKeyDictionary[Any, OrderedDict[str, list[float]]] = weakref.WeakKeyDictionary()
_VECTORS_LOCK = threading.Lock()


def sentence_vectors(embedder: Embeddings, texts: Sequence[str],
                     kept: SentenceVectors | None = None) -> list[list[float]]:
    """The embedder's passage vectors of sentences: those met before from a bounded per-embedder cache, then
    those ``kept`` on disk (filled at ingest, ``graphs.stores.sentence_vectors``: the same vectors), the rest
    embedded in one call (and kept there for every later question)."""
    try:
        with _VECTORS_LOCK:
            cache = _VECTORS.setdefault(embedder, OrderedDict())
    except TypeError:  # an embedder that cannot be weakly referenced: no cache
        return [list(v) for v in embedder.embed_documents([t[:SIMILARITY_CHARS] for t in texts])]
    with _VECTORS_LOCK:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
    stored: dict[str, list[float]] = {}
    owner = _owner(embedder) if kept is not None and missing else ""
    if kept is not None and missing:
        on_disk = kept.get(owner, [t[:SIMILARITY_CHARS] for t in missing])
        stored = {t: on_disk[t[:SIMILARITY_CHARS]] for t in missing if t[:SIMILARITY_CHARS] in on_disk}
        missing = [t for t in missing if t not in stored]
    fresh = embedder.embed_documents([t[:SIMILARITY_CHARS] for t in missing]) if missing else []
    if kept is not None and missing:
        kept.put(owner, {t[:SIMILARITY_CHARS]: v for t, v in zip(missing, fresh, strict=True)})
    with _VECTORS_LOCK:
        for text, vector in [*stored.items(), *zip(missing, fresh, strict=True)]:
            cache[text] = list(vector)
        out = [cache.get(t) for t in texts]
        for t in texts:
            if t in cache:
                cache.move_to_end(t)
        while len(cache) > SENTENCE_CACHE:
            cache.popitem(last=False)
    if any(v is None for v in out):  # evicted meanwhile by another thread: embed those again
        return [list(v) for v in embedder.embed_documents([t[:SIMILARITY_CHARS] for t in texts])]
    return out  # type: ignore[return-value]


_OWNERS: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _owner(embedder: Embeddings) -> str:
    """Whose vectors ``embedder`` computes, as the ingest's fill keys them: its fingerprint (a wrapper forwards the
    model's, ``GuardedEmbeddings.fingerprint``), found once per embedder object (one without a fingerprint is
    probed)."""
    with _VECTORS_LOCK:
        if (known := _OWNERS.get(embedder)) is not None:
            return known
    owner = fingerprint_of(embedder).describe()
    with _VECTORS_LOCK:
        _OWNERS[embedder] = owner
    return owner


def forget_sentence_vectors(embedder: Embeddings | None = None) -> None:
    """Drop the kept sentence vectors of ``embedder`` (of every embedder when None): ``aer bench`` times cold
    questions, each paying its sentences' embeddings."""
    with _VECTORS_LOCK:
        try:
            caches = list(_VECTORS.values()) if embedder is None else [_VECTORS.get(embedder) or OrderedDict()]
        except TypeError:  # one that cannot be weakly referenced keeps none
            caches = []
        for cache in caches:
            cache.clear()


def similarities(embedder: Embeddings, question: str, texts: Sequence[str],
                 query_vector: Sequence[float] | None = None,
                 kept: SentenceVectors | None = None) -> dict[str, float]:
    """Cosine of the question (as retrieval embedded it) and each sentence embedded as a passage (blocking; the
    sentences' vectors read from ``kept`` where they are there)."""
    if not texts:
        return {}
    query = np.asarray(query_vector if query_vector else embedder.embed_query(question), dtype=float)
    docs = np.asarray(sentence_vectors(embedder, texts, kept), dtype=float)
    norms = np.linalg.norm(docs, axis=1) * (np.linalg.norm(query) or 1.0)
    cos = docs @ query / np.where(norms == 0, 1.0, norms)
    return {t: float(c) for t, c in zip(texts, cos, strict=True)}


class QuestionSide:
    """The query-side vectors of one run's answer layer, each text embedded at most once: the question's own as
    retrieval embedded it (handed over, never embedded again) and the phrases the answer layer weighs sentences
    against (what a time-of-day question asks of its subject, a field question's asked phrase, the question less
    its names). One phrase was embedded once per comparison (a time-of-day question's act twice where a sentence
    holds two times: once against the sentences, once against their clauses), and a phrase that is the question
    itself was embedded again beside retrieval's vector. Blocking where it embeds: call it in a thread."""

    def __init__(self, embedder: Embeddings, question: str, vector: Sequence[float] | None = None,
                 kept: QueryVectors | None = None) -> None:
        self.embedder = embedder
        self._vectors: dict[str, list[float]] = {question: list(vector)} if vector else {}
        self._lock = threading.Lock()
        self.embedded = 0
        """Texts this run took as queries here, embedded or (with ``kept``) kept from an earlier run (not counting
        the handed-over question)."""
        self._kept = kept
        """The process's question vectors (``RagContext.query_vectors``): a phrase of a question asked again is
        served from its LRU, as the question's own vector is. None: each run embeds its phrases."""

    def held(self, text: str) -> list[float] | None:
        """The vector of ``text`` when this run has it (never embeds)."""
        with self._lock:
            return self._vectors.get(text)

    def vector(self, text: str) -> list[float]:
        """The query vector of ``text``: held, else kept (``kept``) or embedded now (once per run)."""
        if (held := self.held(text)) is not None:
            return held
        fresh = list(self._kept.get(self.embedder, text) if self._kept is not None
                     else self.embedder.embed_query(text))
        with self._lock:
            self.embedded += text not in self._vectors
            return self._vectors.setdefault(text, fresh)

    def similarities(self, text: str, sentences: Sequence[str],
                     kept: SentenceVectors | None = None) -> dict[str, float]:
        """``similarities`` of ``text`` and the sentences, ``text`` embedded at most once per run (and not at all
        when there is no sentence to compare)."""
        if not sentences:
            return {}
        return similarities(self.embedder, text, sentences, self.vector(text), kept)


def describe(q: Question, hits: Sequence[Hit], evidence: Sequence[Evidence], embedder: Embeddings) -> Judgement:
    """The judgement of a question over ranked passages, computed at once (the fit's view of the runtime's)."""
    return judge(q, hits, evidence, similarities(embedder, q.text, candidate_sentences(evidence)))
