"""Refusals no order by meaning can change spend no embedding (graphs/rag/answer/foregone.py): the second look at
the passages in the other language is skipped only where a rule would refuse every view of them, so the answer
is the one the embeddings would have given."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from graphs.domain import Hit, ParsedQuery, ValidatedEntity
from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.evidence import find_evidence, in_other_language, sentences_of, stated_first
from graphs.rag.answer.foregone import refused_whatever_meaning, second_look_spared
from graphs.rag.answer.question import Question, question_of, second_look_stands
from graphs.rag.nodes import write_answer as node
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, hit, make_context, runtime
from tests.unit.graphs.rag.answer.test_crosslang import GUIDE, LUOSHAN, QIAOTOU, Concepts

PIER = hit("pier#0", "Hongsha Pier was rebuilt in 2019. 红沙码头于2019年重建，每天有三班渡轮开往罗山岛。", title="Hongsha Pier",
           dense_score=0.25)
PORT = hit("port#0", "罗山岛渔港建于1962年，2012年扩建了防波堤。", title="罗山岛渔港", dense_score=0.28)


class Counting(Concepts):
    """The bilingual concept embedder, counting the passages (sentences) it embeds."""

    def __init__(self) -> None:
        self.embedded = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += len(texts)
        return super().embed_documents(texts)


def dated(text: str) -> list[ValidatedEntity]:
    """The question's dates as validate_entities gives them (a year is a qualifier of the question)."""
    return [ValidatedEntity(text=e.text, type="DATE", match="date", valid=True, date_range=e.date_range)
            for e in analyze_query(text, gazetteer_of([]), TODAY).entities if e.type == "DATE"]


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, dated(text)).about(hits)


async def _ask(tmp_path: Path, text: str, hits: list[Hit], embedder: Counting) -> dict[str, object]:
    ctx = dataclasses.replace(make_context(tmp_path), embedder=embedder)  # type: ignore[arg-type]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    state = {"question": text, "parsed": ParsedQuery(**parsed.model_dump()), "ranked": hits, "entities": dated(text)}
    return await node.write_answer(state, runtime(ctx))  # type: ignore[arg-type,return-value]


YEARLESS = [
    ("How many residents did Luoshan Island have in 2008?", [GUIDE, LUOSHAN, QIAOTOU]),
    ("How many ferries sailed to Luoshan Island each day in 2015?", [GUIDE, PIER, LUOSHAN]),
    ("How far is Luoshan Island from Hongsha Pier in 2010?", [GUIDE, LUOSHAN, PIER]),
    ("罗山岛2016年有多少常住人口？", [LUOSHAN, GUIDE, QIAOTOU]),
]


@pytest.mark.parametrize(("text", "hits"), YEARLESS)
async def test_a_year_the_other_language_never_states_costs_no_embedding(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, hits: list[Hit]) -> None:
    """The question names a year no passage in the other language is of: whatever their sentences' similarity,
    the years rule refuses them, so the second look is not embedded; the answer is the one it would have given."""
    assert refused_whatever_meaning(question(text, hits), hits) is not None
    spared = Counting()
    out = await _ask(tmp_path, text, hits, spared)
    assert spared.embedded == 0
    # the same question with the bound switched off: the sentences are embedded and the answer is the same
    monkeypatch.setattr(node, "refused_whatever_meaning", lambda q, h: None)
    paid = Counting()
    before = await _ask(tmp_path, text, hits, paid)
    assert paid.embedded > 0
    for key in ("status", "answer", "citations", "degraded"):
        assert out.get(key) == before.get(key), key
    # the same refusal by the same rule; its score is the refused evidence's own (the view by words where the
    # view by meaning is no longer built), and the rule, not the score, decided
    verdict, was = out["answerability"], before["answerability"]
    assert (verdict.decision, verdict.decided_by, verdict.reason) == (  # type: ignore[attr-defined]
        was.decision, was.decided_by, was.reason)  # type: ignore[attr-defined]


def test_the_bound_leaves_to_meaning_what_meaning_could_change() -> None:
    """A year some sentence in the other language states (1962 in 渔港建于1962年), and a question whose every year
    and name the passages hold: the similarities decide, so they are computed."""
    hits = [GUIDE, PORT, LUOSHAN]
    assert refused_whatever_meaning(question("What was built on Luoshan Island in 1962?", hits), hits) is None
    assert refused_whatever_meaning(question("How many residents does Luoshan Island have?", hits), hits) is None
    # the question's language's passages alone hold the year: the other language's still lack it
    hits = [PIER, GUIDE, LUOSHAN]
    assert refused_whatever_meaning(question("罗山岛2019年有多少常住人口？", [GUIDE, LUOSHAN]), [GUIDE, LUOSHAN]) \
        is not None


CASES = [
    *YEARLESS,
    ("What was built on Luoshan Island in 1962?", [GUIDE, PORT, LUOSHAN]),
    ("What was extended on Luoshan Island in 2012?", [GUIDE, PORT, QIAOTOU]),
    ("How many residents does Qiaotou Island have?", [GUIDE, LUOSHAN, QIAOTOU]),
    ("How many residents does Luoshan Island have?", [GUIDE, LUOSHAN, QIAOTOU, PIER]),
    ("Which lighthouse stands on Baisha Island?", [GUIDE, QIAOTOU, LUOSHAN]),
    ("罗山岛的渔港是哪一年建的？", [GUIDE, PIER, LUOSHAN]),
    ("Does the Petrel sail to Luoshan Island?", [GUIDE, LUOSHAN]),
]


@pytest.mark.parametrize(("text", "hits"), CASES)
async def test_where_the_bound_refuses_every_order_by_meaning_is_refused_by_a_rule(
        text: str, hits: list[Hit]) -> None:
    """The bound is sound: where it names a reason, the second look's verdict is a rule's refusal for any
    similarities of the sentences in the other language (random ones, 25 draws), never the score's."""
    q = question(text, hits)
    if refused_whatever_meaning(q, hits) is None:
        return
    texts = list(dict.fromkeys(s.text for s in sentences_of(q, hits, 10) if in_other_language(q, s.text)))
    rng = random.Random(text)
    for _ in range(25):
        meaning = {t: rng.random() for t in texts}
        view = stated_first(q, [e for e in find_evidence(q, hits, meaning=meaning)
                                if all(in_other_language(q, s.text) for s in e.sentences)])
        verdict, _, _ = await calibrated(q, hits, view, Concepts())  # type: ignore[arg-type]
        assert verdict.decision == "not_found" and verdict.decided_by == "rule", (meaning, verdict)


@pytest.mark.parametrize(("text", "hits"), CASES)
async def test_a_spared_second_look_could_not_have_stood(text: str, hits: list[Hit]) -> None:
    """Where the second look is spared, its verdict for any similarities is a rule's (a comparison's or yes/no
    question's sides, or a refusal), which never replaces the first verdict (``second_look_stands``)."""
    q = question(text, hits)
    if not second_look_spared(q, hits):
        return
    texts = list(dict.fromkeys(s.text for s in sentences_of(q, hits, 10) if in_other_language(q, s.text)))
    rng = random.Random(text)
    for _ in range(25):
        meaning = {t: rng.random() for t in texts}
        view = stated_first(q, [e for e in find_evidence(q, hits, meaning=meaning)
                                if all(in_other_language(q, s.text) for s in e.sentences)])
        verdict, _, _ = await calibrated(q, hits, view, Concepts())  # type: ignore[arg-type]
        assert not second_look_stands(q, verdict), (meaning, verdict)
