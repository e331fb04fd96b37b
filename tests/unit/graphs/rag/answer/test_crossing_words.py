"""Words of a question that a passage in the other language cannot write (issue 24, cross-language refusals): a
question's noun the bilingual lexicon lacks is not missing from a passage in the other script when the sentence is
close in meaning; the lexicon's translation is looked for where it knows the word; a sentence far in meaning still
misses it. And a name no entity of the store validates still carries the question over to a passage that writes
it. Invented sentences (a cable car, a town library), in both directions."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from graphs.domain import Hit
from graphs.rag.answer.attributes import translations
from graphs.rag.answer.calibration import asked_of, question_qualifiers
from graphs.rag.answer.evidence import Sentence, crossed, sentences_of, unsupported_crossing
from graphs.rag.answer.qualifiers import satisfied
from graphs.rag.answer.question import Question, question_of
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import normalize
from graphs.text.query_analysis import analyze_query
from tests.support.fakes import TODAY, gazetteer_of, hit

CABLE = hit("cable#0", "The Wolden Hill cable car opened last spring. A ride to the summit takes 9 minutes and "
                       "costs 12 euros.", title="Wolden Hill cable car", dense_score=0.4)
LIBRARY = hit("library#0", "塔恩比新图书馆于五月开放，馆内共有240个座位，每天开放到晚上九点。", title="塔恩比新图书馆",
              dense_score=0.4)


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of([]), TODAY)
    return question_of(text, expected_answer(text), parsed, []).about(hits)


def _sentence(q: Question, hits: Sequence[Hit], word: str, semantic: float | None) -> Sentence:
    s = next(s for s in sentences_of(q, hits) if word in s.text)
    return dataclasses.replace(s, semantic=semantic)


def test_the_lexicon_translates_the_words_it_knows_and_says_when_it_does_not() -> None:
    assert translations("营业收入") is not None and "revenue" in translations("营业收入")  # type: ignore[operator]
    assert translations("employees") is not None and any("员工" in w for w in translations("employees") or ())
    assert translations("缆车") is None and translations("lighthouse") is None


HARBOUR = hit("harbour#0", "The Penwick harbour ferry was refitted last winter. A ride across costs 4 pounds.",
              title="Penwick harbour ferry", dense_score=0.4)


def test_a_describing_word_the_lexicon_lacks_is_not_required_of_a_sentence_that_carries_the_names_over() -> None:
    q = question("Penwick 的双体渡船坐一趟要多少钱？", [HARBOUR])
    quals = question_qualifiers(q, asked_of(q))
    assert any(x.kind == "word" and "双体" in x.forms for x in quals)
    # the English sentence names Penwick and cannot write 双体, however close or far its meaning: the pair is
    # judged by the rest (the subject, the attribute, the typed span, the score's similarity)
    for semantic in (0.8, 0.2, None):
        s = _sentence(q, [HARBOUR], "costs", semantic=semantic)
        assert not any("双体" in x.forms for x in crossed(q, quals, s, known=True))
        assert satisfied(crossed(q, quals, s, known=True), s.context) == 1.0


def test_the_asked_word_is_still_required_where_the_lexicon_knows_no_attribute() -> None:
    chinese = hit("ferry-zh#0", "Penwick 渡船冬季翻新，船上提供免费饮水。", title="Penwick 渡船", dense_score=0.4)
    q = question("What is the Wi-Fi password on the Penwick ferry?", [chinese])
    quals = question_qualifiers(q, asked_of(q))
    s = _sentence(q, [chinese], "饮水", semantic=0.2)
    assert any("password" in x.forms for x in crossed(q, quals, s))


def test_a_sentence_that_does_not_carry_the_names_needs_its_meaning() -> None:
    other = hit("ferry#0", "The Elmsted ferry leaves every hour. A crossing takes 9 minutes.", title="Elmsted ferry",
                dense_score=0.4)
    q = question("Wolden Hill 的缆车上山需要多少分钟？", [other])
    quals = question_qualifiers(q, asked_of(q))
    close = _sentence(q, [other], "minutes", semantic=0.8)
    assert not any("缆车" in x.forms for x in crossed(q, quals, close))
    far = _sentence(q, [other], "minutes", semantic=0.2)
    assert any("缆车" in x.forms for x in crossed(q, quals, far))
    assert satisfied(crossed(q, quals, far), far.context) < 1.0


def test_a_sentence_in_the_question_language_is_judged_by_the_words_as_written() -> None:
    chinese = hit("cable-zh#0", "沃尔登山的观光小火车全程需要25分钟。", title="沃尔登山", dense_score=0.4)
    q = question("Wolden Hill 的缆车上山需要多少分钟？", [chinese])
    quals = question_qualifiers(q, asked_of(q))
    s = _sentence(q, [chinese], "小火车", semantic=0.9)
    assert crossed(q, quals, s) == quals
    assert satisfied(crossed(q, quals, s), s.context) < 1.0  # 缆车 is not 小火车


def test_an_english_word_over_a_chinese_passage_in_the_other_direction() -> None:
    q = question("How many seats does the new Tarnby library have?", [LIBRARY])
    quals = question_qualifiers(q, asked_of(q))
    s = _sentence(q, [LIBRARY], "座位", semantic=0.8)
    kept = crossed(q, quals, s)
    assert all(has_no_latin_word_missing(x.forms, s.context) for x in kept if x.kind == "word")


def has_no_latin_word_missing(forms: tuple[str, ...], context: str) -> bool:
    """A word qualifier left for a Chinese sentence is one it can state (translated, or Chinese itself)."""
    return any(f in context for f in forms) or not all(f.isascii() for f in forms)


def test_an_unvalidated_name_of_the_question_carries_the_crossing_when_the_passage_writes_it() -> None:
    # no entity of the store validates the name, and no passage linked it: it is only the question's name
    q = dataclasses.replace(question("Wolden Hill 的缆车上山需要多少分钟？", [CABLE]), anchors=[])
    assert any("wolden" in normalize(n) for n in q.names)
    s = _sentence(q, [CABLE], "minutes", semantic=0.8)
    passage = normalize(f"{CABLE.title} {CABLE.text}")
    assert not unsupported_crossing(q, s, passage=passage)
    # another hill's passage does not write it: the crossing stays unsupported
    other = hit("other#0", "A ride to the top of Marsby Ridge takes 14 minutes.", title="Marsby Ridge", dense_score=0.4)
    s2 = _sentence(q, [other], "minutes", semantic=0.8)
    assert unsupported_crossing(q, s2, passage=normalize(f"{other.title} {other.text}"))



def test_a_dateline_or_an_ellipsis_is_no_evidence_sentence() -> None:
    # a news snippet: "Nov 12, 2021 ..." then the text; neither the dateline nor the bare "..." states anything
    snippet = hit("snip#0", "Nov 12, 2021 ... 第二，海关总署已制定原产地管理办法，将同步公布实施。", title="海关", dense_score=0.4)
    q = question("原产地管理办法何时生效？", [snippet])
    texts = [s.text.strip() for s in sentences_of(q, [snippet])]
    assert texts and not any(t.startswith("Nov 12") or t in ("...", "…") for t in texts)
    assert any("海关总署" in t for t in texts)
