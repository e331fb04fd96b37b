"""The asked attribute and the question's qualifiers: a passage that names the subject but not the asked fact,
or states it for another year, edition or date, is not evidence; the English question over Chinese passages
(and the reverse) is judged by the lexicon's words of the same attribute in both languages."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from graphs.domain import EntityMetadata, Hit
from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.attributes import asked_attribute, stated_at
from graphs.rag.answer.calibration import FEATURES, Model, describe, to_find
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.qualifiers import qualifiers, satisfied, zh_number
from graphs.rag.answer.question import Question, question_of
from graphs.text.answer_types import expected_answer
from graphs.text.query_analysis import analyze_query
from tests.support.answers import Bigrams, model_on, rule_verdict
from tests.support.fakes import TODAY, gazetteer_of, hit

ENTITIES = [
    EntityMetadata(standard_name="青岛啤酒", type="ORGANIZATION"),
    EntityMetadata(standard_name="Lyon", type="LOCATION"),
    EntityMetadata(standard_name="斯柯达明锐", type="PRODUCT"),
]


def question(text: str, hits: Sequence[Hit]) -> Question:
    parsed = analyze_query(text, gazetteer_of(ENTITIES), TODAY)
    return question_of(text, expected_answer(text), parsed, []).about(hits)


@pytest.mark.parametrize(("text", "attribute"), [
    ("青岛啤酒的总部在哪里？", "headquarters"),
    ("Who is the mayor of Lyon?", "mayor"),
    ("How many people died in the Halifax explosion?", "death_toll"),
    ("这款手机的售价是多少？", "price"),
    ("Where is the Pixel 8 manufactured?", "assembled"),
    ("Who chaired the budget review?", "chaired"),
    ("那次地震造成多少人遇难？", "death_toll"),
    ("谁执导了这部纪录片？", "director"),
])
def test_the_asked_attribute_in_either_language(text: str, attribute: str) -> None:
    asked = asked_attribute(text, expected_answer(text))
    assert asked is not None and asked.attribute.name == attribute


def test_a_bridge_question_asks_the_attribute_of_its_question_word() -> None:
    text = "When was the city where the A350 is assembled founded?"
    asked = asked_attribute(text, expected_answer(text))
    assert asked is not None and asked.attribute.name == "founded"
    assert "assembled" in [a.name for a in asked.others]


@pytest.mark.parametrize(("attribute", "sentence"), [
    ("chaired", "预算审查会由财务总监李娜主持。"),
    ("chaired", "The audit meeting was chaired by Tom Reyes."),
    ("mayor", "现任市长为格雷戈里·杜塞。"),
    ("death_toll", "The blast killed 31 people."),
])
def test_a_sentence_states_the_attribute_in_either_language(attribute: str, sentence: str) -> None:
    text = {"chaired": "Who chaired it?", "mayor": "Who is the mayor?", "death_toll": "How many died?"}[attribute]
    asked = asked_attribute(text, "number" if attribute == "death_toll" else "person")  # (a count is no who)
    assert asked is not None and stated_at(asked.attribute, sentence)


def test_a_word_that_states_an_attribute_only_with_its_object() -> None:
    # "attend" asks where one was educated only with a school of some kind as its object; attending a fair,
    # a ceremony or a meeting is no education
    for q in ("Which college did Marta Quell attend?", "What academy did the painter attend before 1900?"):
        asked = asked_attribute(q, "organization")
        assert asked is not None and asked.attribute.name == "educated", q
    for q in ("Which trade fairs did Marta Quell attend in Lyon?", "Who attended the opening ceremony?"):
        asked = asked_attribute(q, "organization")
        assert asked is None or asked.attribute.name != "educated", q
    educated = asked_attribute("Which college did Marta Quell attend?", "organization")
    assert educated is not None
    assert stated_at(educated.attribute, "She attended the Ruthven Conservatory of Music for two years.")
    assert not stated_at(educated.attribute, "She attended the Lyon trade fair in 2019.")


def test_qualifiers_years_dates_ordinals_and_numbers() -> None:
    found = qualifiers("第十五届全运会2025年11月9日在哪里开幕？", {})
    assert [(q.kind, q.forms[0]) for q in found] == [("year", "2025"), ("date", "11月9日"), ("ordinal", "第十五届")]
    assert satisfied(found, "第十五届全运会于2025年11月9日在广州开幕") == 1.0
    assert satisfied(found, "第十四届全运会于2021年9月15日在西安开幕") == 0.0
    en = qualifiers("Who won the 3rd edition of the race in 1998?", {})
    assert [(q.kind, q.forms[0]) for q in en] == [("year", "1998"), ("ordinal", "3rd")]
    assert satisfied(en, "the 3rd edition (1998) was won by marco pantani") == 1.0
    assert zh_number("二十九") == 29 and zh_number("一百零三") == 103 and zh_number("十") == 10


def test_a_code_inside_a_name_is_no_number_qualifier() -> None:
    assert qualifiers("Where is the A350 assembled?", {}) == []
    assert [q.forms[0] for q in qualifiers("7·21暴雨造成多少人遇难", {})] == ["7月21日"]


FERRY = hit("ferry#0", "2019年4月，一艘渡轮在湄公河倾覆，当局称事故造成23人遇难。", title="湄公河渡轮事故")
FERRY_OTHER = hit("ferry#1", "湄公河渡轮事故发生后，当地政府展开调查，并加强了渡轮安全检查。", title="湄公河渡轮事故")
SKODA = hit("skoda#0", "斯柯达明锐于2007年在中国上市，由上汽大众在安亭工厂生产。", title="斯柯达明锐")
SKODA_PRICE = hit("skoda#1", "斯柯达明锐的官方指导价为11.99万元起。", title="斯柯达明锐")


def test_the_subject_without_the_attribute_is_not_evidence() -> None:
    text = "斯柯达明锐的售价是多少？"
    q = question(text, [SKODA])
    judged = describe(q, [SKODA], find_evidence(q, [SKODA]), Bigrams())
    assert judged.asked is not None and judged.asked.attribute.name == "price"
    assert judged.features["attribute_stated"] == 0.0 and judged.features["span_near"] < 0.5  # 2007 is no price
    q = question(text, [SKODA, SKODA_PRICE])
    judged = describe(q, [SKODA, SKODA_PRICE], find_evidence(q, [SKODA, SKODA_PRICE]), Bigrams())
    assert judged.features["attribute_stated"] == 1.0 and judged.features["span_near"] == 1.0
    assert "11.99万元" in judged.evidence[0].sentences[0].text


def test_the_same_event_without_the_number_is_not_evidence() -> None:
    text = "湄公河渡轮事故造成多少人遇难？"
    q = question(text, [FERRY_OTHER])
    judged = describe(q, [FERRY_OTHER], find_evidence(q, [FERRY_OTHER]), Bigrams())
    assert judged.features["attribute_stated"] == 0.0 and judged.features["span_near"] == 0.0
    q = question(text, [FERRY, FERRY_OTHER])
    judged = describe(q, [FERRY, FERRY_OTHER], find_evidence(q, [FERRY, FERRY_OTHER]), Bigrams())
    assert judged.features["attribute_stated"] == 1.0 and judged.features["span_near"] == 1.0


GAMES_14 = hit("games#0", "第十四届全国运动会于2021年9月15日在西安开幕。", title="全国运动会")
GAMES_15 = hit("games#1", "第十五届全国运动会于2025年11月9日在广州开幕。", title="全国运动会")


def test_another_edition_does_not_satisfy_the_question() -> None:
    text = "第十五届全国运动会在哪里开幕？"
    q = question(text, [GAMES_14])
    judged = describe(q, [GAMES_14], find_evidence(q, [GAMES_14]), Bigrams())
    assert judged.features["qualified"] == 1.0 and judged.features["qualifier_sentence"] < 1.0
    q = question(text, [GAMES_14, GAMES_15])
    judged = describe(q, [GAMES_14, GAMES_15], find_evidence(q, [GAMES_14, GAMES_15]), Bigrams())
    assert judged.features["qualifier_sentence"] == 1.0 and "广州" in judged.evidence[0].sentences[0].text


MINUTES = hit("minutes#0", "预算审查会于周二举行，由财务总监李娜主持，会议讨论了下一季度的支出。", title="预算审查会纪要")


def test_an_english_question_over_chinese_minutes_is_judged_by_the_chinese_words() -> None:
    q = question("Who chaired the budget review meeting?", [MINUTES])
    judged = describe(q, [MINUTES], find_evidence(q, [MINUTES]), Bigrams())
    assert judged.features["attribute_stated"] == 1.0 and judged.features["cross_language"] == 1.0


async def test_the_score_decides_and_the_threshold_is_the_request_option() -> None:
    model = model_on({"attribute_stated": 4.0, "span_near": 4.0}, bias=-4.0)
    text = "斯柯达明锐的售价是多少？"
    q = question(text, [SKODA])
    verdict, _, failed = await calibrated(q, [SKODA], find_evidence(q, [SKODA]), Bigrams(), model=model)
    assert verdict.decision == "not_found" and not failed and verdict.attribute == "price"
    assert verdict.reason.startswith("the passages that mention") and "do not state its price" in verdict.reason
    q = question(text, [SKODA, SKODA_PRICE])
    verdict, evidence, _ = await calibrated(q, [SKODA, SKODA_PRICE], find_evidence(q, [SKODA, SKODA_PRICE]),
                                            Bigrams(), model=model)
    assert verdict.decision == "answerable" and verdict.score > 0.9 and verdict.threshold == 0.5
    assert "11.99万元" in evidence[0].sentences[0].text
    strict, _, _ = await calibrated(q, [SKODA, SKODA_PRICE], find_evidence(q, [SKODA, SKODA_PRICE]), Bigrams(),
                                    threshold=0.999, model=model)
    assert strict.decision == "not_found" and strict.threshold == 0.999


class Broken(Bigrams):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        from graphs.embeddings import EmbedderUnavailable

        raise EmbedderUnavailable("the engine did not load")


async def test_an_embedder_failure_is_reported_not_hidden() -> None:
    q = question("斯柯达明锐的售价是多少？", [SKODA_PRICE])
    verdict, _, failed = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), Broken(),
                                          model=model_on({"attribute_stated": 4.0}, bias=-2.0))
    assert failed and verdict.features["similarity"] == 0.0 and verdict.decision == "answerable"


async def test_an_embedder_failure_scores_with_the_fit_without_similarity_and_says_so() -> None:
    """A model that reads the sentence similarity does not read a silent 0 when the embedder fails: its fallback
    (fitted without the similarity) scores, at the fallback's own default threshold, and the reason says so."""
    from dataclasses import replace

    plain = tuple(f for f in FEATURES if not f.startswith("similarity"))
    fallback = Model(features=plain, mean=np.zeros(len(plain)), scale=np.ones(len(plain)),
                     weights=np.array([4.0 if f == "attribute_stated" else 0.0 for f in plain]), bias=-2.0,
                     threshold=0.4)
    needs_similarity = replace(model_on({"similarity": 50.0}, bias=-40.0, threshold=0.9), embedder="Broken",
                               fallback=fallback)
    q = question("斯柯达明锐的售价是多少？", [SKODA_PRICE])
    verdict, _, failed = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), Broken(),
                                          model=needs_similarity)
    assert failed and verdict.decision == "answerable" and verdict.decided_by == "score", verdict.reason
    assert verdict.threshold == 0.4 and verdict.score == round(fallback.probability(verdict.features), 4)
    assert "scored without sentence similarity: the embedder failed" in verdict.reason
    # the same model with a working embedder reads the similarity and says nothing of a fallback
    class Working(Bigrams):
        name = "Broken"

    verdict, _, failed = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), Working(),
                                          model=needs_similarity)
    assert not failed and verdict.threshold == 0.9 and "without sentence similarity" not in verdict.reason


def test_the_llm_is_told_the_attribute_to_find() -> None:
    q = question("Who is the mayor of Lyon?", [])
    text = to_find(q, asked_attribute(q.text, q.kind))
    assert text.startswith("the mayor of Lyon (stated with words such as mayor") and "市长" in text


PKU = hit("pku#0", "北京大学创办于1898年，初名京师大学堂，是中国近代第一所国立综合性大学。", title="北京大学")


@pytest.mark.parametrize(("text", "decision"), [
    ("北京大学的股票代码是什么？", "not_found"),  # the subject, not the attribute
    ("北京大学现任校长是谁？", "not_found"),
    ("北京大学是哪一年创办的？", "answerable"),
])
async def test_the_shipped_weights_refuse_a_subject_without_the_asked_attribute(text: str, decision: str) -> None:
    q = question(text, [PKU])
    verdict, _, _ = await calibrated(q, [PKU], find_evidence(q, [PKU]), Bigrams())
    assert verdict.decision == decision, verdict.reason
    assert "哪一年" not in verdict.reason  # a question word is no qualifier


async def test_a_question_is_answered_from_a_passage_in_the_other_language_that_states_the_attribute() -> None:
    """Term coverage is low across languages by construction, and the fitted score saw almost no such pairs: the
    bilingual lexicon decides (the attribute of the subject, with a value of the asked type next to it)."""
    refuses = model_on({}, bias=-8.0)  # a score that refuses everything
    q = question("Who chaired the budget review meeting?", [MINUTES])
    verdict, _, _ = await calibrated(q, [MINUTES], find_evidence(q, [MINUTES]), Bigrams(), model=refuses)
    assert verdict.decision == "answerable" and verdict.score < 0.01 and verdict.decided_by == "lexicon"
    assert verdict.reason.startswith("stated across languages") and "is not used" in verdict.reason
    assert "answerability 0.00" not in verdict.reason  # the lexicon's decision never reads "answerable (0.00)"
    # in the same language the lexicon decides too when the line names the subject and states the attribute with a
    # value next to it (``stated_in_own_language``); a threshold stricter than the fitted one is the score's to hold;
    # another language without the attribute is not evidence
    q = question("斯柯达明锐的售价是多少？", [SKODA_PRICE])
    same, _, _ = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), Bigrams(), model=refuses)
    assert same.decision == "answerable" and same.decided_by == "lexicon", same.reason
    strict, _, _ = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), Bigrams(), model=refuses,
                                    threshold=0.9)
    assert strict.decision == "not_found" and strict.decided_by == "score"
    q = question("Who is the mayor of Lyon?", [MINUTES])
    other, _, _ = await calibrated(q, [MINUTES], find_evidence(q, [MINUTES]), Bigrams(), model=refuses)
    assert other.decision == "not_found"


RACE_OTHER_YEAR = hit("race#0", "In 2021, 4,200 runners finished the Riverton Marathon. The course follows the river "
                                "past the old mill. Registration for the 2023 race opens in May.", title="Riverton Marathon")
RACE_ASKED_YEAR = hit("race#1", "In 2023, 5,100 runners finished the Riverton Marathon, a record for the course.",
                      title="Riverton Marathon")
WINE_OTHER_PLACE = hit("wine#0", "法国是传统的葡萄酒大国。据统计，意大利2020年的葡萄酒产量为4900万百升，位居世界第一。",
                       title="葡萄酒产量")
WINE_ASKED_PLACE = hit("wine#1", "据统计，法国2020年的葡萄酒产量为4660万百升。", title="葡萄酒产量")


@pytest.mark.parametrize(("text", "negative", "positive", "conflict"), [
    ("How many runners finished the 2023 Riverton Marathon?", RACE_OTHER_YEAR, RACE_ASKED_YEAR, "2021"),
    ("法国2020年的葡萄酒产量是多少？", WINE_OTHER_PLACE, WINE_ASKED_PLACE, "意大利"),
])
def test_a_sentence_stating_the_fact_for_another_qualifier_is_not_bound(text: str, negative: Hit, positive: Hit,
                                                                         conflict: str) -> None:
    """The passage names the asked year or place, but the answering sentence states the fact for another."""
    q = question(text, [negative])
    judged = describe(q, [negative], find_evidence(q, [negative]), Bigrams())
    assert judged.features["qualifier_passage"] == 1.0  # the passage-level check alone lets it through
    assert judged.features["qualifier_conflict"] == 1.0 and [c.stated for c in judged.conflicts] == [conflict]
    q = question(text, [positive])
    judged = describe(q, [positive], find_evidence(q, [positive]), Bigrams())
    assert judged.features["qualifier_conflict"] == 0.0 and judged.features["qualifier_bound"] == 1.0


async def test_the_conflicting_qualifier_is_the_visible_reason() -> None:
    model = model_on({"qualifier_conflict": -6.0}, bias=3.0)
    text = "How many runners finished the 2023 Riverton Marathon?"
    q = question(text, [RACE_OTHER_YEAR])
    verdict, _, _ = await calibrated(q, [RACE_OTHER_YEAR], find_evidence(q, [RACE_OTHER_YEAR]), Bigrams(),
                                     model=model)
    # the value's own governing year refuses it before the score does (governance.py); either way the reason
    # names the year stated and the year asked
    assert verdict.decision == "not_found" and verdict.decided_by in ("score", "rule")
    assert "for 2021, not for 2023" in verdict.reason
    q = question(text, [RACE_OTHER_YEAR, RACE_ASKED_YEAR])
    verdict, evidence, _ = await calibrated(q, [RACE_OTHER_YEAR, RACE_ASKED_YEAR],
                                            find_evidence(q, [RACE_OTHER_YEAR, RACE_ASKED_YEAR]), Bigrams(),
                                            model=model)
    assert verdict.decision == "answerable" and "5,100" in evidence[0].sentences[0].text


class Counting(Bigrams):
    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.embedded += texts
        return super().embed_documents(texts)


def test_sentence_vectors_are_embedded_once_per_embedder() -> None:
    from graphs.rag.answer.calibration import similarities

    embedder = Counting()
    first = similarities(embedder, "斯柯达明锐的售价是多少？", ["斯柯达明锐的官方指导价为11.99万元起。", "另一句。"])
    again = similarities(embedder, "斯柯达明锐多少钱？", ["斯柯达明锐的官方指导价为11.99万元起。", "第三句。"])
    assert embedder.embedded == ["斯柯达明锐的官方指导价为11.99万元起。", "另一句。", "第三句。"]
    assert set(first) == {"斯柯达明锐的官方指导价为11.99万元起。", "另一句。"} and len(again) == 2


async def test_similarity_weights_apply_only_over_the_embedder_they_were_fitted_on() -> None:
    """Cosines of another model have another scale: the weights fitted on e5's read no other embedder's; an
    index of another embedder is scored by the fallback fitted without similarity."""
    from dataclasses import replace

    from graphs.rag.answer.calibration import embedder_name

    plain = tuple(f for f in FEATURES if not f.startswith("similarity"))
    fallback = Model(features=plain, mean=np.zeros(len(plain)), scale=np.ones(len(plain)),
                     weights=np.array([4.0 if f == "attribute_stated" else 0.0 for f in plain]), bias=-2.0,
                     threshold=0.5)
    picky = replace(model_on({"similarity": 50.0}, bias=-40.0), embedder="Bigrams", fallback=fallback)
    assert embedder_name(Bigrams()) == "Bigrams" and picky.for_embedder("Bigrams") is picky
    assert picky.for_embedder("multilingual-e5-small-q4") is fallback

    class Wrapped:  # a caching wrapper names no model: the one it wraps does
        inner = Bigrams()

    assert embedder_name(Wrapped()) == "Bigrams"
    q = question("斯柯达明锐的售价是多少？", [SKODA_PRICE])
    other = replace(picky, embedder="multilingual-e5-small-q4")
    counting = Counting()
    verdict, _, _ = await calibrated(q, [SKODA_PRICE], find_evidence(q, [SKODA_PRICE]), counting, model=other)
    assert verdict.decision == "answerable" and counting.embedded == []  # the fallback scored it, no sentence embedded


async def test_a_ranking_with_no_dense_score_is_scored_by_the_fit_without_it() -> None:
    """The retrieval's dense score (``similarity_chunk``) is read only where the dense channel ran: passages of an
    upload whose vectors are still being filled carry none, and a 0 there would read as "the meaning search did not
    find it"; the fallback (fitted without it) scores and the reason says so."""
    from dataclasses import replace

    plain = tuple(f for f in FEATURES if not f.startswith("similarity"))
    fallback = Model(features=plain, mean=np.zeros(len(plain)), scale=np.ones(len(plain)),
                     weights=np.array([4.0 if f == "attribute_stated" else 0.0 for f in plain]), bias=-2.0,
                     threshold=0.45)
    dense = replace(model_on({"similarity_chunk": 40.0}, bias=-30.0, threshold=0.6), embedder="Bigrams",
                    fallback=fallback)
    kiln = hit("kiln#0", "The Merrow kiln was built in 1887 by the village potters.", title="Merrow kiln").model_copy(
        update={"dense_score": None, "channel": "bm25"})
    q = question("When was the Merrow kiln built?", [kiln])
    assert dense.without_dense([kiln]) is fallback
    verdict, _, _ = await calibrated(q, [kiln], find_evidence(q, [kiln]), Bigrams(), model=dense)
    assert verdict.decision == "answerable" and verdict.threshold == 0.45, verdict.reason
    assert "scored without the dense score" in verdict.reason
    found = kiln.model_copy(update={"dense_score": 0.91})
    assert dense.without_dense([found]) is dense
    verdict, _, _ = await calibrated(q, [found], find_evidence(q, [found]), Bigrams(), model=dense)
    assert verdict.threshold == 0.6 and verdict.decision == "answerable" and "dense score" not in verdict.reason
    # weights that do not read the dense score are the same whatever the ranking carries
    assert fallback.without_dense([kiln]) is fallback


LAKE_PRICE = hit("lake#0", "Lake Orva ferry tickets cost 12 euros for adults. The ferry runs from May to October.",
                 title="Lake Orva ferry")
DAIRY = hit("dairy#0", "青禾乳业成立于2011年，总部位于内蒙古呼和浩特，主要生产液态奶和奶粉。", title="青禾乳业")
FAIR_5 = hit("fair#0", "第五届江城书市于2022年10月开幕。本届书市共有320家出版社参展。", title="江城书市")


@pytest.mark.parametrize(("text", "hits", "why"), [
    ("青禾乳业的股票代码是什么？", [DAIRY], "do not state its stock code"),
    ("Who is the mayor of Lake Orva?", [LAKE_PRICE], "do not state its mayor"),
    ("第六届江城书市有多少家出版社参展？", [FAIR_5], "for 第5届, not for 第六届"),
])
async def test_no_evidence_whatever_the_score(text: str, hits: list[Hit], why: str) -> None:
    """The subject without the asked attribute, or the attribute for another edition: "not found" by rule, even
    under a score that answers everything."""
    verdict = await rule_verdict(question(text, hits), hits)
    assert verdict.decision == "not_found" and verdict.decided_by == "rule", verdict.reason
    assert why in verdict.reason


async def test_the_same_subjects_stated_attribute_still_answers_under_the_rules() -> None:
    for text, hits in (("第五届江城书市有多少家出版社参展？", [FAIR_5]), ("青禾乳业是哪一年成立的？", [DAIRY])):
        verdict = await rule_verdict(question(text, hits), hits)
        assert verdict.decision == "answerable" and verdict.decided_by == "score", verdict.reason


def test_a_rate_of_an_attribute_is_not_the_attribute() -> None:
    from graphs.rag.answer.attributes import lexicon

    profit = next(a for a in lexicon() if a.name == "profit")
    assert stated_at(profit, "青溪乳业去年净利润为3.1亿元。") and not stated_at(profit, "青溪乳业去年毛利率为32%。")
    assert asked_attribute("青溪乳业去年的毛利率是多少？", expected_answer("青溪乳业去年的毛利率是多少？")).attribute.name != "profit"  # type: ignore[union-attr]
