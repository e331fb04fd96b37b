"""Query analysis without an LLM (graphs.text.query_analysis): seed queries, complexity, keywords, logical
relations and ``analyze_query`` as a whole."""

import subprocess
import sys
from datetime import date

import pytest

from graphs.domain import LogicalRelation, QueryEntity
from graphs.text.dates import year_range
from graphs.text.entity_spotting import EntitySpan, entity_spans
from graphs.text.gazetteer import Gazetteer
from graphs.text.intent import classify_intent
from graphs.text.query_analysis import analyze_query, estimate_complexity, extract_keywords, logical_relations
from tests.support.analyser import TODAY, analyser_gazetteer, triples


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return analyser_gazetteer()


# ---------------------------------------------------------------- seed queries


def test_seed_musk(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("马斯克创办的公司有哪些？", gazetteer, TODAY)
    assert triples(parsed.entities) == [("马斯克", "PERSON", "gazetteer")]
    assert parsed.intent == "factual"
    assert parsed.complexity == "simple"
    assert parsed.parser == "rules"
    assert parsed.keywords == ["马斯克", "创办", "公司"]
    assert parsed.logical_relations == []


def test_seed_apple_beijing_2024(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("2024年苹果在北京发布的产品", gazetteer, TODAY)
    assert triples(parsed.entities) == [
        ("2024年", "DATE", "date_rule"),
        ("苹果", "ORGANIZATION", "gazetteer"),
        ("北京", "LOCATION", "gazetteer"),
    ]
    assert parsed.entities[0].date_range == year_range(2024)
    assert parsed.intent == "factual"
    assert parsed.logical_relations == [LogicalRelation(operator="AND", entities=["2024年", "苹果", "北京"])]
    assert parsed.keywords == ["2024年", "苹果", "北京", "发布", "产品"]


def test_seed_machine_learning(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("什么是机器学习？", gazetteer, TODAY)
    assert parsed.entities == []
    assert parsed.intent == "conceptual"
    assert parsed.complexity == "simple"


# ---------------------------------------------------------------- complexity


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("什么是机器学习？", "simple"),
        ("马斯克创办的公司有哪些？", "simple"),
        ("What is the capital of France?", "simple"),
        ("2024年苹果在北京发布的产品", "moderate"),
        ("Which is older, Pisa or Florence?", "moderate"),
        ("Who is the mother of the director of film Polish-Russian War?", "complex"),
        ("比较特斯拉和比亚迪2023年的销量，并且分析原因", "complex"),
        ("先找出马斯克创办的公司，然后分别列出它们的总部所在城市以及成立年份", "complex"),
    ],
)
def test_estimate_complexity(gazetteer: Gazetteer, text: str, label: str) -> None:
    spans = entity_spans(text, gazetteer, TODAY)
    got, score = estimate_complexity(text, spans, classify_intent(text)[0])
    assert got == label
    assert 0.0 <= score <= 1.0


def test_complexity_score_grows_with_nesting() -> None:
    one = estimate_complexity("Who is the director of film X?", [], "factual")[1]
    two = estimate_complexity("Who is the mother of the director of film X?", [], "factual")[1]
    assert two > one


def test_complexity_features_are_reported_in_the_parsed_query(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("马斯克和乔布斯谁先创办公司？一共创办了多少家？", gazetteer, TODAY)
    f = parsed.complexity_features
    assert f["entities"] == 2 and f["calculation"] == 1.0 and f["question_words"] >= 2
    assert parsed.complexity_score == estimate_complexity(parsed.original_query,
                                                          entity_spans(parsed.original_query, gazetteer, TODAY),
                                                          parsed.intent)[1]
    bridge = analyze_query("Who directed the film in which Jung Joon-young made his debut?", gazetteer, TODAY)
    assert bridge.complexity_features["bridge"] == 1.0 and bridge.complexity != "simple"
    plain = analyze_query("When was Tesla founded?", gazetteer, TODAY)
    assert plain.complexity == "simple" and plain.complexity_features["bridge"] == 0.0


# ---------------------------------------------------------------- keywords


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("马斯克创办的公司有哪些？", ["马斯克", "创办", "公司"]),
        ("What is the capital of France?", ["capital", "France"]),
        (
            "Are Christopher Nolan and Sathish Kalathil both film directors?",
            ["Christopher Nolan", "Sathish Kalathil", "film", "directors"],
        ),
        ("苹果和Apple的Apple产品", ["苹果", "Apple", "产品"]),
        ("？！...", []),
    ],
)
def test_extract_keywords(gazetteer: Gazetteer, text: str, expected: list[str]) -> None:
    assert extract_keywords(text, entity_spans(text, gazetteer, TODAY)) == expected


def test_keywords_without_entities_are_lowercased() -> None:
    assert extract_keywords("Machine Learning IS fun") == ["machine", "learning", "fun"]


# ---------------------------------------------------------------- logical relations


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("苹果和三星的手机", [("AND", ["苹果", "三星"])]),
        ("苹果与三星", [("AND", ["苹果", "三星"])]),
        ("Apple and Samsung phones", [("AND", ["Apple", "Samsung"])]),
        ("苹果或者三星的手机", [("OR", ["苹果", "三星"])]),
        ("苹果还是三星", [("OR", ["苹果", "三星"])]),
        ("Apple or Samsung", [("OR", ["Apple", "Samsung"])]),
        ("Apple, Samsung, or 马斯克", [("OR", ["Apple", "Samsung", "马斯克"])]),
        ("去年苹果或三星在北京的发布会", [("AND", ["去年", "北京"]), ("OR", ["苹果", "三星"])]),
        ("除了苹果以外还有哪些手机厂商", [("NOT", ["苹果"])]),
        ("不在北京的苹果门店", [("NOT", ["北京"])]),
        ("Apple stores not in Beijing", [("NOT", ["Beijing"])]),
        ("phones except Samsung", [("NOT", ["Samsung"])]),
        ("苹果而不是三星在北京的门店", [("AND", ["苹果", "北京"]), ("NOT", ["三星"])]),
        ("2024年苹果在北京发布的产品", [("AND", ["2024年", "苹果", "北京"])]),
        ("马斯克创办的公司有哪些？", []),
    ],
)
def test_logical_relations(gazetteer: Gazetteer, text: str, expected: list[tuple[str, list[str]]]) -> None:
    relations = logical_relations(text, entity_spans(text, gazetteer, TODAY))
    assert [(r.operator, r.entities) for r in relations] == expected


def test_relations_from_explicit_spans() -> None:
    spans = [
        EntitySpan(0, 1, QueryEntity(text="A", type="OTHER")),
        EntitySpan(6, 7, QueryEntity(text="B", type="OTHER")),
        EntitySpan(12, 13, QueryEntity(text="C", type="OTHER")),
    ]
    assert logical_relations("A and B not C", spans) == [
        LogicalRelation(operator="AND", entities=["A", "B"]),
        LogicalRelation(operator="NOT", entities=["C"]),
    ]
    assert logical_relations("A and B and C", spans) == [
        LogicalRelation(operator="AND", entities=["A", "B", "C"])
    ]


# ---------------------------------------------------------------- analyze_query


@pytest.mark.parametrize(
    ("text", "entities", "intent"),
    [
        (
            "Apple和三星在March 2024的新品",
            [("Apple", "ORGANIZATION"), ("三星", "ORGANIZATION"), ("March 2024", "DATE")],
            "factual",
        ),
        (
            "老马去年在Beijing做了什么",
            [("老马", "PERSON"), ("去年", "DATE"), ("Beijing", "LOCATION")],
            "factual",
        ),
        ("What did Musk launch in 2024?", [("Musk", "PERSON"), ("2024", "DATE")], "factual"),
        ("法国和France有什么区别", [("法国", "LOCATION"), ("France", "LOCATION")], "comparison"),
    ],
)
def test_analyze_mixed_language(
    gazetteer: Gazetteer, text: str, entities: list[tuple[str, str]], intent: str
) -> None:
    parsed = analyze_query(text, gazetteer, TODAY)
    assert [(e.text, e.type) for e in parsed.entities] == entities
    assert parsed.intent == intent


def test_relative_dates_use_injected_today(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("马斯克去年和今年的公司", gazetteer, date(2030, 1, 1))
    assert [e.date_range.label for e in parsed.entities if e.date_range] == ["2029", "2030"]


def test_confidence_reflects_recognition(gazetteer: Gazetteer) -> None:
    recognised = analyze_query("马斯克创办的公司有哪些？", gazetteer, TODAY).confidence
    unrecognised = analyze_query("这个东西怎么样", gazetteer, TODAY).confidence
    assert 0.0 < unrecognised < recognised <= 1.0


def test_empty_query(gazetteer: Gazetteer) -> None:
    parsed = analyze_query("", gazetteer, TODAY)
    assert (parsed.entities, parsed.keywords, parsed.confidence) == ([], [], 0.0)


def test_import_does_not_load_jieba() -> None:
    code = ("import sys, graphs.text.entity_spotting, graphs.text.intent, graphs.text.query_analysis; "
            "print('jieba' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
