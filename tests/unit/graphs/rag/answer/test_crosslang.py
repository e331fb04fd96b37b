"""A question in one language over a user's files in the other (issue 24, own files): names found in both scripts,
the crossing judged by the names, qualifiers and asked attribute it carries over (the score's ``cross_language``
feature), the passages in the other language looked at when those in the question's language do not answer,
and a person named after a role's label. Examples in the manner of ``tests/data/newuser3`` (a ferry company and
the islands it serves), not its sentences."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from graphs.domain import Hit, ParsedQuery
from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.attributes import asked_attribute, lexicon, stated_at
from graphs.rag.answer.calibration import FEATURES, Model, describe
from graphs.rag.answer.evidence import find_evidence, in_other_language, sentences_of, unsupported_crossing
from graphs.rag.answer.question import Question, near_spelling, question_of
from graphs.rag.nodes.write_answer import write_answer
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import normalize
from graphs.text.query_analysis import analyze_query
from graphs.text.spans import candidates
from tests.support.answers import write
from tests.support.fakes import TODAY, gazetteer_of, hit, make_context, runtime

GUIDE = hit("guide#0", "The Petrel is a small ferry. She sails from Hongsha Pier to Luoshan Island three times a "
                       "day.", title="Ferry routes")
LUOSHAN = hit("luoshan#0", "罗山岛位于红沙码头以北约8海里，常住人口约1350人。岛上的渔港建于1962年。", title="罗山岛概况",
              dense_score=0.3)
QIAOTOU = hit("qiaotou#0", "桥头岛常住人口约420人，岛上有一座灯塔。", title="桥头岛概况", dense_score=0.3)


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, []).about(hits)


def test_a_name_written_in_both_scripts_counts_in_both() -> None:
    """"Luoshan Island" is written as asked in the English guide and as 罗山岛 in the Chinese notes: both are
    the name (before, only a name found nowhere as written was looked for in the other script)."""
    q = question("How many residents does Luoshan Island have?", [GUIDE, LUOSHAN])
    forms = next(f for f in q.anchors if "luoshan island" in f[0])
    assert any("罗山" in f for f in forms)
    # and the reverse: a Chinese name of the question in an English passage's pinyin
    q = question("罗山岛有多少常住人口？", [LUOSHAN, GUIDE])
    assert any("luoshan" in f for forms in q.anchors for f in forms)


def _chinese_sentence(q: Question, hits: Sequence[Hit], doc: str) -> object:
    return next(s for s in sentences_of(q, hits) if hits[s.hit].doc_id == doc and "人口" in s.text)


def test_the_crossing_is_supported_by_the_names_qualifiers_and_attribute_it_carries() -> None:
    hits = [GUIDE, LUOSHAN, QIAOTOU]
    q = question("How many residents does Luoshan Island have?", hits)
    assert not unsupported_crossing(q, _chinese_sentence(q, hits, "luoshan"))  # type: ignore[arg-type]
    # another island's sentence in the other language carries none of the question's names over
    assert unsupported_crossing(q, _chinese_sentence(q, hits, "qiaotou"))  # type: ignore[arg-type]
    # a qualifier or the asked attribute left out: not carried over either
    assert unsupported_crossing(q, _chinese_sentence(q, hits, "luoshan"), qualified=0.5)  # type: ignore[arg-type]
    assert unsupported_crossing(q, _chinese_sentence(q, hits, "luoshan"), stated=0.0)  # type: ignore[arg-type]
    # a sentence in the question's own language is no crossing at all
    english = next(s for s in sentences_of(q, hits) if s.hit == 0)
    assert not unsupported_crossing(q, english)


class Concepts:
    """An embedder by bilingual concepts: a text is close to another when they share a concept in either
    language (what a multilingual model does; the test's stand-in for e5)."""

    WORDS: tuple[tuple[str, ...], ...] = (("resident", "人口", "inhabit", "live"), ("found", "建于", "成立", "创办"), ("ferry", "渡轮", "航线"),
             ("luoshan", "罗山"), ("qiaotou", "桥头"), ("lighthouse", "灯塔"))

    def _vector(self, text: str) -> list[float]:
        t = text.casefold()
        v = np.array([1.0 if any(w in t for w in words) else 0.0 for words in self.WORDS] + [0.3])
        return list(v / np.linalg.norm(v))

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]


async def _ask(tmp_path: Path, text: str, hits: list[Hit]) -> dict[str, object]:
    ctx = dataclasses.replace(make_context(tmp_path), embedder=Concepts())  # type: ignore[arg-type]
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return await write_answer({"question": text, "parsed": ParsedQuery(**parsed.model_dump()), "ranked": hits},
                              runtime(ctx))  # type: ignore[return-value]


async def test_the_other_language_is_looked_at_when_the_own_does_not_answer(tmp_path: Path) -> None:
    """The English guide names Luoshan Island but not how many live there; the Chinese notes state it (常住人口,
    the lexicon's population): answered from them, cited; before, the English refusal stood."""
    out = await _ask(tmp_path, "How many residents does Luoshan Island have?", [GUIDE, LUOSHAN, QIAOTOU])
    assert out["status"] == "answered", out.get("answerability")
    assert "1350" in str(out["answer"]) and [c.doc_id for c in out["citations"]] == ["luoshan"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("text", [
    "What is the area of Luoshan Island?",  # the lexicon's area (面积) is stated in neither language
    "Who is the mayor of Luoshan Island?",  # nor its head (岛长, 镇长): the facts stated of it are no person
])
async def test_the_other_language_does_not_answer_what_it_does_not_state(tmp_path: Path, text: str) -> None:
    out = await _ask(tmp_path, text, [GUIDE, LUOSHAN, QIAOTOU])
    assert out["status"] == "no_results", out.get("answer")


def test_a_person_named_after_a_roles_label() -> None:
    """"主持人：陈海峰（安全总监）": the tagger does not know the name; the label says it is a person's."""
    assert [c.text for c in candidates("主持人：孔海峰（运营总监）", "person", "Who chaired the meeting?")] == ["孔海峰"]
    assert [c.text for c in candidates("召集人：梁海峰", "person", "谁召集了会议？")] == ["梁海峰"]
    # the tagger's own cut of a name ("海涛" of 魏海涛) gives way to the labelled name
    assert [c.text for c in candidates("主持人：魏海涛（船务经理）", "person", "Who chaired it?")] == ["魏海涛"]
    assert candidates("出席：各船船长及值班主管共18人。", "person", "Who attended?") == []


def test_the_judged_crossing_has_no_penalty_when_supported() -> None:
    hits = [LUOSHAN, QIAOTOU]
    q = question("How many residents does Luoshan Island have?", hits)
    judged = describe(q, hits, find_evidence(q, hits), Concepts())  # type: ignore[arg-type]
    assert "1350" in judged.evidence[0].sentences[0].text
    assert judged.features["cross_language"] == 0.0 and judged.features["attribute_stated"] == 1.0


# ---------------------------------------------------------------------------- comparisons across scripts and files

BROCHURE = hit("brochure#0", "The Tidewater ferry runs to Luoshan Island in 50 minutes. The Sandpiper ferry runs to "
                             "Qiaotou Island in 25 minutes.", title="Island ferries")
FARES = hit("fares#0", "航线票价 — 红沙码头—罗山岛: 58元\n航线票价 — 红沙码头—桥头岛: 36元", title="票价表",
            dense_score=0.3)


def test_which_is_cheaper_is_decided_by_the_prices_not_any_number_of_the_sides() -> None:
    """The brochure gives each crossing's minutes, the Chinese fare table the prices, the islands written 罗山岛 and
    桥头岛 there: the verdict compares 58元 with 36元 and cites the fare table (before: 50 against 25 minutes,
    the brochure cited)."""
    decision, _, span, answer = write("Which is cheaper, the ferry to Luoshan Island or the ferry to Qiaotou Island?",
                                      [BROCHURE, FARES])
    assert decision == "answerable" and span is not None and "Qiaotou" in span
    assert "36" in answer and "58" in answer and "minutes" not in answer.split(".")[0]


def test_a_side_written_in_the_other_script_is_found_by_that_spelling() -> None:
    """"松林图书馆和青檀图书馆" over an English page that writes Songlin and a Chinese one: both sides are
    mentioned, 松林 as "songlin" (before: "no retrieved passage mentions 松林")."""
    songlin = hit("songlin#0", "Songlin Library lends books for 21 days.", title="Songlin Library rules")
    qingtan = hit("qingtan#0", "青檀图书馆借期为30天。", title="青檀图书馆借阅规则")
    decision, why, _, _ = write("松林图书馆和青檀图书馆，哪个借期更长？", [qingtan, songlin])
    assert decision == "answerable", why


def test_a_side_no_sentence_states_the_compared_attribute_of_has_no_value() -> None:
    """Only the brochure: minutes for both, a price for neither — no verdict, not "25 minutes is cheaper"."""
    _, _, span, answer = write("Which is cheaper, the ferry to Luoshan Island or the ferry to Qiaotou Island?",
                               [BROCHURE])
    assert span is None and "cheaper than" not in answer


# ---------------------------------------------------------------------------- the asked attribute, its unit, its span


@pytest.mark.parametrize(("text", "attribute"), [
    ("How much does the Petrel weigh?", "weight"),  # the verb names it, not the question word's "how much"
    ("How fast is the Petrel?", "speed"),
    ("How tall is the lighthouse on Luoshan Island?", "height"),
    ("罗山岛的最高峰有多高？", "height"),  # a peak's height, not a rank's (级别有多高)
    ("How much does the ferry to Luoshan Island cost?", "price"),
])
def test_the_asked_attribute_is_the_one_the_question_words(text: str, attribute: str) -> None:
    asked = asked_attribute(text, expected_answer(text))
    assert asked is not None and asked.attribute.name == attribute


def test_how_high_a_level_is_no_height() -> None:
    """"级别有多高" (how high a rank) asks no height: a CMRC question refused for want of metres."""
    asked = asked_attribute("这项赛事的级别有多高？", "other")
    assert asked is None or asked.attribute.name != "height"


@pytest.mark.parametrize(("attribute", "sentence", "states"), [
    ("height", "The island's lighthouse stands on Signal Hill (186 m).", True),
    ("speed", "She cruises at 28 knots.", True),
    ("weight", "整船空载约320吨，救生艇重约1.2公斤。", True),
    ("height", "The crossing takes 25 minutes.", False),  # "m" of minutes is no metre
    ("speed", "The crossing takes 25 minutes.", False),
])
def test_a_number_in_the_attributes_unit_states_it(attribute: str, sentence: str, states: bool) -> None:
    found = next(a for a in lexicon() if a.name == attribute)
    assert bool(stated_at(found, sentence)) == states


def test_a_misspelled_name_keeps_its_digits() -> None:
    """"Petrel P350" for a passage's "Petrel P530" is another model, not a misspelling; "Petral P530" is one."""
    blob = normalize("The Petrel P530 is a small ferry.")
    assert near_spelling("petrel p350", blob) is None
    assert near_spelling("petral p530", blob) == "petrel p530"


def test_a_chinese_line_that_names_a_latin_model_is_in_the_other_language() -> None:
    """A fare table's row "票价 — Petrel P530: 58元" is Chinese for an English question about the Petrel P530: it
    is looked at across languages (and its fare with the lexicon's words), not as an English line."""
    row = hit("fares#0", "票价 — Petrel P530: 58元\n航行时间 — Petrel P530: 50分钟", title="票价表")
    q = question("What is the fare on the Petrel P530?", [row])
    assert in_other_language(q, "票价 — Petrel P530: 58元")
    assert not in_other_language(q, "The Petrel P530 sails at 9:00.")


def test_the_span_is_the_value_next_to_the_asked_attribute() -> None:
    """"How fast?": the number by "top speed" (32 knots), not the one nearer the ship's name (260 passengers)."""
    hits = [hit("petrel#0", "The Petrel carries 260 passengers and has a top speed of 32 knots.", title="Petrel")]
    q = question("How fast is the Petrel?", hits)
    span = find_evidence(q, hits)[0].span
    assert span is not None and span.text == "32"


async def test_the_lexicon_decides_a_supported_crossing_the_score_would_refuse() -> None:
    """罗山岛 found as "Luoshan Island" in an English sentence that states its population (residents): the crossing
    is supported (no penalty), and where the score still refuses, the bilingual lexicon decides as for any
    crossing (before, a supported crossing lost the lexicon's decision and was refused)."""
    english = hit("luoshan-en#0", "Luoshan Island has about 1,350 residents.", title="Luoshan Island notes",
                  dense_score=0.3)
    refuses = Model(features=FEATURES, mean=np.zeros(len(FEATURES)), scale=np.ones(len(FEATURES)),
                    weights=np.zeros(len(FEATURES)), bias=-8.0, threshold=0.5)
    q = question("罗山岛的常住人口是多少？", [english])
    verdict, _, _ = await calibrated(q, [english], find_evidence(q, [english]), Concepts(), model=refuses)  # type: ignore[arg-type]
    assert verdict.features is not None and verdict.features["cross_language"] == 0.0
    assert verdict.decision == "answerable" and verdict.decided_by == "lexicon", verdict.reason
