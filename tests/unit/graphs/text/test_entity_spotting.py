"""Entity spotting (graphs.text.entity_spotting): POS, title case, gazetteer, merged spans, passage entities."""

import itertools

import pytest

from graphs.text.entity_spotting import entity_spans, extract_entities, pos_spans, title_case_spans
from graphs.text.gazetteer import Gazetteer
from tests.support.analyser import TODAY, analyser_gazetteer, triples


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return analyser_gazetteer()


# ---------------------------------------------------------------- entities


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("王晓明与李华在上海", [("王晓明", "PERSON"), ("李华", "PERSON"), ("上海", "LOCATION")]),
        ("清华大学和北京大学", [("清华大学", "ORGANIZATION"), ("北京大学", "ORGANIZATION")]),
        (
            "雷军创办了小米公司，总部位于北京海淀区",
            [("雷军", "PERSON"), ("北京", "LOCATION"), ("海淀区", "LOCATION")],
        ),
        ("What is machine learning?", []),
        # a given name the tagger split from its surname and read as a place is the person's, not a place
        ("值班经理周建国每周二检查灭火器。", [("周建国", "PERSON")]),
        ("马德福每天早上六点到厨房。", [("马德福", "PERSON")]),
        ("向北京出发。", [("北京", "LOCATION")]),  # a preposition that is also a surname takes no place
    ],
)
def test_pos_spans(text: str, expected: list[tuple[str, str]]) -> None:
    spans = pos_spans(text)
    assert [(s.entity.text, s.entity.type) for s in spans] == expected
    assert all(text[s.start : s.end] == s.entity.text and s.entity.source == "pos" for s in spans)


@pytest.mark.parametrize("text", ["九月份合作社的例会谁主持？", "十二月份的那次停电持续多久", "二三月份仓库盘点了几次",
                                  "冬月的理事会在哪开"])
def test_a_month_is_no_name(text: str) -> None:
    # jieba's dictionary tags "X月份" as a name (nz); a month qualifies a question, it is nothing to mention
    assert not [s for s in pos_spans(text) if "月" in s.entity.text]
    assert not [s for s in pos_spans(text, accurate=False) if "月" in s.entity.text]


def test_pos_fast_mode_guesses_unknown_names() -> None:
    spans = pos_spans("张勇担任CEO", accurate=False)
    assert [(s.entity.text, s.entity.type, s.entity.confidence) for s in spans] == [("张勇", "PERSON", 0.4)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Are Christopher Nolan and Sathish Kalathil both film directors?",
            ["Christopher Nolan", "Sathish Kalathil"],
        ),
        (
            "What language were books translated into during the era of Haymo of Faversham?",
            ["Haymo of Faversham"],
        ),
        ("If Gallu is a demon Lilu is what?", ["Gallu", "Lilu"]),
        ("The Beatles were a band from Liverpool.", ["Beatles", "Liverpool"]),
        ("J. K. Rowling wrote it.", ["J. K. Rowling"]),
        ("University of Oxford and Bank of America", ["University of Oxford", "Bank of America"]),
        ("In 1999, IBM released the ThinkPad.", ["IBM", "ThinkPad"]),
        ("由韩国Nexon开发", ["Nexon"]),
        ("what is machine learning", []),
        ("Who Is It", []),
        ("Grace Krilanovich's first novel", ["Grace Krilanovich"]),
        ("the World Drivers' Championship", ["World Drivers' Championship"]),
        ("Flute Sonata in C major", ["Flute Sonata"]),
        ("以2V2、4V4随机配对", []),
        ("Note that Monte Carlo is a method.", ["Monte Carlo"]),
    ],
)
def test_title_case_spans(text: str, expected: list[str]) -> None:
    spans = title_case_spans(text)
    assert [s.entity.text for s in spans] == expected
    assert all(s.entity.type == "OTHER" and s.entity.source == "title_case" for s in spans)


def test_gazetteer_wins_over_pos_and_title_case(gazetteer: Gazetteer) -> None:
    spans = entity_spans("马斯克在Beijing见了Elon Musk和Sundar Pichai", gazetteer, TODAY)
    assert [(s.entity.text, s.entity.source) for s in spans] == [
        ("马斯克", "gazetteer"),
        ("Beijing", "gazetteer"),
        ("Elon Musk", "gazetteer"),
        ("Sundar Pichai", "title_case"),
    ]


def test_entity_spans_do_not_overlap(gazetteer: Gazetteer) -> None:
    text = "2024年3月，马斯克与王晓明在北京会见了Tim Cook。Last year Samsung grew."
    spans = entity_spans(text, gazetteer, TODAY)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    assert all(text[s.start : s.end] == s.entity.text for s in spans)
    assert [(s.entity.text, s.entity.type) for s in spans] == [
        ("2024年3月", "DATE"),
        ("马斯克", "PERSON"),
        ("王晓明", "PERSON"),
        ("北京", "LOCATION"),
        ("Tim Cook", "OTHER"),
        ("Last year", "DATE"),
        ("Samsung", "ORGANIZATION"),
    ]


def test_extract_entities_deduplicates(gazetteer: Gazetteer) -> None:
    text = "苹果在北京开店。苹果的北京门店很大。Apple opened in Beijing in 2019, and APPLE grew in 2019."
    found = extract_entities(text, gazetteer, TODAY)
    assert [(e.text, e.type) for e in found] == [
        ("苹果", "ORGANIZATION"),
        ("北京", "LOCATION"),
        ("Apple", "ORGANIZATION"),
        ("Beijing", "LOCATION"),
        ("2019", "DATE"),
    ]


def test_extract_entities_mixed_document(gazetteer: Gazetteer) -> None:
    text = "Founded by Elon Musk in March 2002, SpaceX moved to 德克萨斯州 in 2021年."
    found = extract_entities(text, gazetteer, TODAY)
    assert ("Elon Musk", "PERSON", "gazetteer") in triples(found)
    assert ("March 2002", "DATE", "date_rule") in triples(found)
    assert ("SpaceX", "OTHER", "title_case") in triples(found)
    assert ("2021年", "DATE", "date_rule") in triples(found)


@pytest.mark.parametrize(("text", "name"), [
    ("Who chaired Tarrow Rowing Club's June committee meeting?", "Tarrow Rowing Club"),
    ("What did Ostfield Mills' Spring 2026 report say about exports?", "Ostfield Mills"),
    ("Who spoke at St Anne's College on Friday?", "St Anne's College"),
])
def test_a_possessive_ends_a_name_before_a_month_or_season(text: str, name: str) -> None:
    """A month, weekday or season after a possessive says which meeting or report of the name it is, never part
    of the name ("Lanhe Appliances' March 2026 meeting"); a possessive inside a name stays ("St Anne's College")."""
    assert name in [s.entity.text for s in title_case_spans(text)]
