"""Which sentence answers, by words and then by the meaning of what is asked: the question less the names it
asks about (``relation_text``) compared with the answering sentences of the best few pieces of evidence, and the
fitted choice among them (``by_relation``). Invented documents (a lighthouse trust, a cider press, a 茶园)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from graphs.embeddings import EmbedderUnavailable
from graphs.rag.answer.evidence import (
    RELATION_CANDIDATES,
    RELATION_EMBEDDER,
    by_relation,
    find_evidence,
    relation_candidates,
    relation_text,
)
from graphs.rag.nodes.write_answer import write_answer
from graphs.text.query_analysis import analyze_query
from tests.support.answers import question
from tests.support.fakes import TODAY, gazetteer_of, hit, make_context, runtime

LIGHT = hit("light#0", "The Gannet Head lighthouse was built in 1861 by the Northern Trust. The keepers left in 1989. "
                       "Its lantern can be seen from 24 nautical miles away.", title="Gannet Head lighthouse")
TEA = hit("tea#0", "云岫茶园位于青崖山南坡。茶园共有采茶工46人。每年四月举办开园节。", title="云岫茶园简介")


def test_the_relation_is_the_question_without_its_names() -> None:
    q = question("How far away can the Gannet Head lighthouse be seen?", [LIGHT])
    assert "gannet" not in relation_text(q).casefold()
    assert "how far away can the" in relation_text(q).casefold()
    z = question("云岫茶园一共有多少采茶工？", [TEA])
    assert "云岫茶园" not in relation_text(z) and "采茶工" in relation_text(z)


def test_a_question_that_is_only_names_keeps_its_words() -> None:
    q = question("Gannet Head lighthouse?", [LIGHT])
    assert relation_text(q).strip(" ?")


def test_the_candidates_are_the_best_answering_sentences_each_once() -> None:
    q = question("When did the keepers leave the Gannet Head lighthouse?", [LIGHT])
    found = find_evidence(q, [LIGHT])
    texts = relation_candidates(found)
    assert len(texts) == len(set(texts)) <= RELATION_CANDIDATES
    assert texts[0] == found[0].answering.text


def _reordered(found: list[Any], sims: dict[str, float]) -> str:
    return str(by_relation(found, sims)[0].answering.text)


def test_a_sentence_much_closer_in_meaning_to_what_is_asked_leads_a_near_tie_by_words() -> None:
    q = question("How many tea pickers work at 云岫茶园?", [TEA])
    found = find_evidence(q, [TEA])
    texts = relation_candidates(found)
    assert len(texts) >= 2
    pickers = next(t for t in texts if "采茶工" in t)
    sims = {t: (0.92 if t == pickers else 0.80) for t in texts}
    assert _reordered(found, sims) == pickers


def test_meaning_does_not_overturn_a_clear_lead_by_words() -> None:
    q = question("When was the Gannet Head lighthouse built?", [LIGHT])
    found = find_evidence(q, [LIGHT])
    texts = relation_candidates(found)
    assert "built in 1861" in texts[0] and found[0].score - found[1].score > 0.5
    # another sentence a little closer in meaning (as e5 puts every sentence of a passage near one another)
    sims = {t: 0.80 for t in texts} | {texts[1]: 0.83}
    assert _reordered(found, sims) == texts[0]


def test_with_one_sentence_compared_the_order_stands() -> None:
    q = question("When was the Gannet Head lighthouse built?", [LIGHT])
    found = find_evidence(q, [LIGHT])
    assert by_relation(found, {found[0].answering.text: 0.9}) == found
    assert by_relation(found, {}) == found


def test_the_others_keep_their_order_behind_the_chosen_one() -> None:
    q = question("How many tea pickers work at 云岫茶园?", [TEA])
    found = find_evidence(q, [TEA])
    texts = relation_candidates(found)
    sims = {t: 0.5 for t in texts} | {texts[-1]: 0.9}
    out = by_relation(found, sims)
    chosen = next(i for i, e in enumerate(found) if e.answering.text == texts[-1])
    assert out[0] is found[chosen] and out[1:] == [e for i, e in enumerate(found) if i != chosen]


class _Relation(Embeddings):
    """An embedder named as the fitted one: the question's relation near the sentence that states the pickers."""

    name = RELATION_EMBEDDER

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        if self.fail:
            raise EmbedderUnavailable("the e5 engine is not loaded")
        self.queries.append(text)
        return [1.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if self.fail:
            raise EmbedderUnavailable("the e5 engine is not loaded")
        return [[1.0, 0.0] if "采茶工" in t else [0.7, 0.7] for t in texts]


def _state(text: str) -> dict[str, Any]:
    return {"question": text, "parsed": analyze_query(text, gazetteer_of([]), TODAY), "ranked": [TEA],
            "min_answerability": 0.0}


async def test_the_node_compares_the_relation_not_the_names(tmp_path: Any) -> None:
    embedder = _Relation()
    ctx = dataclasses.replace(make_context(tmp_path), embedder=embedder)
    out = await write_answer(_state("云岫茶园一共有多少采茶工？"), runtime(ctx))  # type: ignore[arg-type]
    assert out["status"] == "answered" and "茶园共有采茶工46人。" in out["answer"]
    assert embedder.queries and all("云岫茶园" not in x for x in embedder.queries)
    assert "degraded" not in out


async def test_an_embedder_failure_keeps_the_choice_by_words_and_is_recorded(tmp_path: Any) -> None:
    ctx = dataclasses.replace(make_context(tmp_path), embedder=_Relation(fail=True))
    out = await write_answer(_state("云岫茶园一共有多少采茶工？"), runtime(ctx))  # type: ignore[arg-type]
    assert out["degraded"] == ["write_answer"]
    assert "46" in out["answer"]


@pytest.mark.parametrize("name", ["use-multilingual-v3", "DeterministicFakeEmbedding"])
async def test_another_embedder_is_not_read_with_the_fitted_weights(tmp_path: Any, name: str) -> None:
    embedder = _Relation()
    embedder.name = name  # type: ignore[misc]
    ctx = dataclasses.replace(make_context(tmp_path), embedder=embedder)
    await write_answer(_state("云岫茶园一共有多少采茶工？"), runtime(ctx))  # type: ignore[arg-type]
    assert not any("采茶工" in x and "云岫" not in x for x in embedder.queries)
