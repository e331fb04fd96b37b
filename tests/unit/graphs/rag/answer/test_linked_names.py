"""A question whose name the workspace links across scripts (an alias written at ingest, ``graphs.ingest.
name_links``): the other language's passage is judged by the bilingual lexicon first, then by meaning, and the
lexicon's decision stands on the second look because the linked name carries the question over. Examples from
``tests/data/newuser4`` (a beekeeping cooperative's village, written in Chinese only)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from graphs.domain import Answerability, Hit, ParsedQuery, ValidatedEntity
from graphs.rag.answer import answerability
from graphs.rag.answer.calibration import FEATURES, Model
from graphs.rag.answer.evidence import find_evidence, stated_first
from graphs.rag.answer.question import linked_across, question_of, second_look_stands
from graphs.rag.nodes.write_answer import write_answer
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, hit, make_context, runtime

REPORT = hit("report#0", "Many people in Lanxi Village live by keeping bees; the Silverfir Apiary Cooperative was "
                         "founded there in 2009.", title="Annual report", dense_score=0.4)
VILLAGE = hit("village#0", "村里的岚溪小学现有学生96名。岚溪村位于海拔860米的山谷中，全村常住人口1450人，以养蜂为主要产业。"
                           "村口的石拱桥建于1921年。", title="岚溪村简介", dense_score=0.1)
LINKED = [ValidatedEntity(text="Lanxi Village", type="LOCATION", standard_name="岚溪村", match="alias", score=1.0,
                          valid=True)]


class Flat:
    """An embedder that tells no sentence from another (meaning decides nothing)."""

    def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


def question(text: str, hits: list[Hit], entities: list[ValidatedEntity]):  # type: ignore[no-untyped-def]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, entities).about(hits)


def test_a_name_linked_across_scripts_is_told_from_one_that_is_not() -> None:
    assert linked_across(question("How many people live in Lanxi Village?", [REPORT], LINKED))
    assert not linked_across(question("How many people live in Lanxi Village?", [REPORT], []))


@pytest.mark.parametrize(("text", "stated"), [
    ("How many people live in Lanxi Village?", "常住人口1450人"),
    ("When was the stone arch bridge in Lanxi Village built?", "建于1921年"),
])
def test_the_sentence_stating_the_asked_attribute_comes_first_across_languages(text: str, stated: str) -> None:
    q = question(text, [VILLAGE], LINKED)
    view = find_evidence(q, [VILLAGE])
    assert stated not in view[0].sentences[0].text or view[0].span is not None
    first = stated_first(q, view)[0]
    assert stated in first.sentences[first.span_in].text


REFUSES = Model(features=FEATURES, mean=np.zeros(len(FEATURES)), scale=np.ones(len(FEATURES)),
                weights=np.zeros(len(FEATURES)), bias=-8.0, threshold=0.5)


async def _ask(tmp_path: Path, text: str, entities: list[ValidatedEntity]) -> dict[str, object]:
    ctx = dataclasses.replace(make_context(tmp_path), embedder=Flat())  # type: ignore[arg-type]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    state = {"question": text, "parsed": ParsedQuery(**parsed.model_dump()), "ranked": [REPORT, VILLAGE],
             "entities": entities}
    return await write_answer(state, runtime(ctx))  # type: ignore[arg-type,return-value]


async def test_a_linked_name_lets_the_lexicon_answer_from_the_other_language(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The English report names Lanxi Village and is the best evidence by words, but states no population; the Chinese page states 常住人口 of 岚溪村,
    the name the workspace linked to "Lanxi Village". The score (here one that refuses everything) saw almost no
    such pairs: the lexicon decides, and the answer cites the Chinese page."""
    monkeypatch.setattr(answerability, "bundled", lambda: REFUSES)
    out = await _ask(tmp_path, "How many people live in Lanxi Village?", LINKED)
    assert out["status"] == "answered", out.get("answerability")
    assert "1450" in str(out["answer"]) and "village" in [c.doc_id for c in out["citations"]]  # type: ignore[attr-defined]
    # what the page does not state stays unanswered, linked or not
    out = await _ask(tmp_path, "Who is the mayor of Lanxi Village?", LINKED)
    assert out["status"] == "no_results"


@pytest.mark.parametrize(("decided_by", "entities", "stands"), [
    ("score", [], True),
    ("lexicon", LINKED, True),   # the linked name carries the question over
    ("lexicon", [], False),      # no link (no alias, no passage spelling it in Chinese): not on a second look
    ("rule", LINKED, False),
])
def test_the_second_look_stands_on_the_score_or_on_the_lexicon_with_a_linked_name(
        decided_by: str, entities: list[ValidatedEntity], stands: bool) -> None:
    q = question("How many people live in Lanxi Village?", [REPORT], entities)
    verdict = Answerability(decision="answerable", score=0.1, decided_by=decided_by, reason="")  # type: ignore[arg-type]
    assert second_look_stands(q, verdict) is stands
