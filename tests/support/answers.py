"""The answer as a run returns it: write_answer, then check_answer on what it wrote (as the graph wires them);
and the extractive writer without the node (the tests of graphs/rag/answer/ share it)."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphs.domain import EntityMetadata, Hit, ParsedQuery, ValidatedEntity
from graphs.rag.answer import chains
from graphs.rag.answer.answerability import assess, calibrated
from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.rag.answer.calibration import FEATURES, Model
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.extractive import extractive, multihop
from graphs.rag.answer.question import Question, question_of
from graphs.rag.answer.verdicts import Verdict
from graphs.rag.nodes.check_answer import check_answer
from graphs.rag.nodes.write_answer import write_answer
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import has_han, normalize
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, make_context, runtime


async def write_and_check(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
    """The two nodes' updates merged, the second over the first (the hand-over between them left out)."""
    written = await write_answer(state, runtime)  # type: ignore[arg-type]
    checked = await check_answer({**state, **written}, runtime)  # type: ignore[arg-type]
    merged = {**written, **checked}
    return {k: v for k, v in merged.items() if k not in ("draft", "answer_check")}


ENTITIES = [
    EntityMetadata(standard_name="比亚迪", type="ORGANIZATION", aliases=["BYD"]),
    EntityMetadata(standard_name="宁德时代", type="ORGANIZATION", aliases=["CATL"]),
    EntityMetadata(standard_name="Tencent", type="ORGANIZATION", aliases=["腾讯"]),
    EntityMetadata(standard_name="Huawei", type="ORGANIZATION", aliases=["华为"]),
    EntityMetadata(standard_name="马斯克", type="PERSON", aliases=["Elon Musk"]),
    EntityMetadata(standard_name="北京", type="LOCATION"),
    EntityMetadata(standard_name="Tesla", type="ORGANIZATION", aliases=["特斯拉"]),
    EntityMetadata(standard_name="SpaceX", type="ORGANIZATION"),
]


def validated(text: str) -> list[ValidatedEntity]:
    """The entities of the question the store knows (as validate_entities would give them)."""
    out = []
    for e in analyze_query(text, gazetteer_of(ENTITIES), TODAY).entities:
        if e.type == "DATE":
            out.append(ValidatedEntity(text=e.text, type="DATE", match="date", valid=True, date_range=e.date_range))
            continue
        known = next((m for m in ENTITIES if e.text in (m.standard_name, *m.aliases)), None)
        if known is not None:
            out.append(ValidatedEntity(text=e.text, type=known.type, standard_name=known.standard_name,
                                       match="exact", score=1.0, valid=True))
    return out


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of(ENTITIES), TODAY)
    return question_of(text, expected_answer(text), parsed, validated(text)).about(hits)


def write(text: str, hits: list[Hit]) -> tuple[str, str, str | None, str]:
    """(decision, reason, short answer, answer text) of the extractive writer."""
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    verdict = assess(q, hits, evidence)
    if verdict.decision == "not_found":
        return verdict.decision, verdict.reason, None, ""
    written = extractive(q, hits, evidence, any("\u4e00" <= ch <= "\u9fff" for ch in text))
    return verdict.decision, verdict.reason, written.span, written.text


class Bigrams:
    """An embedder by character bigrams: sentences that share words are close (enough for the similarity feature)."""

    def _vector(self, text: str) -> list[float]:
        v = np.zeros(256)
        t = normalize(text)
        for a, b in itertools.pairwise(t):
            v[hash(a + b) % 256] += 1.0
        return list(v)

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


def chain_answer(text: str, hits: list[Hit], lookup: chains.Lookup | None = None, fetch: chains.Fetch | None = None
                 ) -> tuple[str | None, str] | chains.Broken | None:
    """(short answer, answer text) of the multi-hop writer (``extractive.multihop``) over ``hits``, its ``Broken``
    chain, or None where it reads no chain (the tests of bridges and hops)."""
    q = question(text, hits)
    out = multihop(q, hits, has_han(text), None, lookup, fetch)
    if out is None or isinstance(out, chains.Broken):
        return out
    written, _ = out
    return written.span, written.text


def model_on(weights: dict[str, float], bias: float, threshold: float = 0.5) -> Model:
    """A model that reads only the named features (raw values: mean 0, scale 1)."""
    n = len(FEATURES)
    return Model(features=FEATURES, mean=np.zeros(n), scale=np.ones(n),
                 weights=np.array([weights.get(f, 0.0) for f in FEATURES]), bias=bias, threshold=threshold)


ANSWERS_ALL = model_on({}, bias=8.0)
"""A score that answers everything: what refuses is a rule."""


async def rule_verdict(q: Question, hits: list[Hit]) -> Verdict:
    """The answerability verdict on ``q`` over ``hits`` with a score that answers everything (``ANSWERS_ALL``): what
    refuses is a rule (the twin tests of one rule each: the sentence without the asked value refused, its twin
    answered)."""
    verdict, _, _ = await calibrated(q, hits, find_evidence(q, hits), Bigrams(), model=ANSWERS_ALL)
    return verdict


async def verdict_of(text: str, hits: list[Hit]) -> tuple[str, str]:
    """The answerability decision and its reason for ``text`` over ``hits`` with a score that answers everything:
    rules alone (the tests of one rule each: governance, asked roles, role entries)."""
    q = question(text, hits)
    found, _, _ = await calibrated(q, hits, find_evidence(q, hits), Bigrams(), model=ANSWERS_ALL)
    return found.decision, found.reason


def stated_across(question: str, sentence: str, name: str) -> None:
    """The question asks the lexicon's attribute ``name`` and the sentence (in either language) states it."""
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None and asked.attribute.name == name, asked
    assert stated_at(asked.attribute, sentence)


def not_stated(question: str, sentence: str) -> None:
    """The question asks an attribute the lexicon knows, and the sentence (of another attribute) does not state it."""
    asked = asked_attribute(question, expected_answer(question), ())
    assert asked is not None
    assert not stated_at(asked.attribute, sentence)


async def ask_with(embedder: Any, tmp_path: Path, text: str, hits: list[Hit]) -> dict[str, Any]:
    """``write_answer`` over ``hits`` with the given embedder standing in for e5 (a bag of bilingual concepts)."""
    ctx = dataclasses.replace(make_context(tmp_path), embedder=embedder)
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return await write_answer({"question": text, "parsed": ParsedQuery(**parsed.model_dump()), "ranked": hits},
                              runtime(ctx))  # type: ignore[arg-type]
