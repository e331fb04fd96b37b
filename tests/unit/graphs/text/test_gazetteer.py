import time

import pytest

from graphs.domain import EntityMetadata
from graphs.text.gazetteer import Gazetteer, fold_aligned
from tests.support.fakes import gazetteer_of

MUSK = EntityMetadata(standard_name="Elon Musk", type="PERSON", aliases=["马斯克", "老马", "Musk"])
APPLE = EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=["苹果", "Apple Inc."])
BEIJING = EntityMetadata(standard_name="北京", type="LOCATION", aliases=["Beijing"])
PKU = EntityMetadata(standard_name="北京大学", type="ORGANIZATION", aliases=["Peking University"])
NEW_YORK = EntityMetadata(standard_name="New York", type="LOCATION")
YORK_U = EntityMetadata(standard_name="York University", type="ORGANIZATION")
X1 = EntityMetadata(standard_name="X1", type="PRODUCT")


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return gazetteer_of([MUSK, APPLE, BEIJING, PKU, NEW_YORK, YORK_U, X1])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("马斯克创办的公司有哪些？", [("马斯克", "PERSON")]),
        ("老马和Musk是同一个人", [("老马", "PERSON"), ("Musk", "PERSON")]),
        ("2024年苹果在北京发布的产品", [("苹果", "ORGANIZATION"), ("北京", "LOCATION")]),
        ("买苹果手机", [("苹果", "ORGANIZATION")]),
        ("苹果Apple发布", [("苹果", "ORGANIZATION"), ("Apple", "ORGANIZATION")]),
        # Latin surface forms need word boundaries; Chinese ones match anywhere.
        ("Pineapple juice", []),
        ("Apples and pears", []),
        ("Apple's new phone", [("Apple", "ORGANIZATION")]),
        ("apple pie", [("apple", "ORGANIZATION")]),
        ("(Apple)", [("Apple", "ORGANIZATION")]),
        ("Apple2", []),
        ("the X1 and the X10", [("X1", "PRODUCT")]),
        ("Apple Inc. reported", [("Apple Inc.", "ORGANIZATION")]),
        # Longest leftmost, non-overlapping.
        ("北京大学在北京", [("北京大学", "ORGANIZATION"), ("北京", "LOCATION")]),
        ("New York University", [("New York", "LOCATION")]),
        ("at York University", [("York University", "ORGANIZATION")]),
        # Width, case, script and whitespace are folded; the surface is returned as written.
        ("ＡＰＰＬＥ发布会", [("ＡＰＰＬＥ", "ORGANIZATION")]),
        ("馬斯克的公司", [("馬斯克", "PERSON")]),
        ("ELON   MUSK said", [("ELON   MUSK", "PERSON")]),
        ("Elon\nMusk said", [("Elon\nMusk", "PERSON")]),
        ("  Peking  University ", [("Peking  University", "ORGANIZATION")]),
    ],
)
def test_find(gazetteer: Gazetteer, text: str, expected: list[tuple[str, str]]) -> None:
    found = gazetteer.find(text)
    assert [(e.text, e.type) for e in found] == expected
    assert all(e.source == "gazetteer" and e.confidence == 1.0 for e in found)


@pytest.mark.parametrize(
    "text",
    [
        "Straße in Apple Inc. land",
        "ﬁnance at Apple Inc. today",
        "İstanbul Apple Inc. x",
        "  \t Apple Inc.\u3000与北京",
        "e\u0301 Apple Inc.",
        "cafe\u0301 Apple Inc.\u0301",
    ],
)
def test_offsets_survive_length_changes(gazetteer: Gazetteer, text: str) -> None:
    (match, *rest) = gazetteer.matches(text)
    assert text[match.start : match.end] == match.surface == "Apple Inc."
    assert match.entities == (APPLE,)
    assert all(text[m.start : m.end] == m.surface for m in rest)


def test_fold_aligned_maps_every_char() -> None:
    text = "ＡＢ  c\nß馬"
    folded, index = fold_aligned(text)
    assert folded == "ab c ss马"
    assert index == [0, 1, 2, 4, 5, 6, 6, 7]


def test_fold_aligned_identity_for_plain_text() -> None:
    assert fold_aligned("Plain Text") == ("plain text", None)


def test_ambiguous_surface_keeps_all_entities() -> None:
    fruit = EntityMetadata(standard_name="苹果(水果)", type="PRODUCT", aliases=["苹果"])
    gazetteer = gazetteer_of([APPLE, fruit])
    assert gazetteer.lookup("苹果") == (APPLE, fruit)
    (match,) = gazetteer.matches("吃苹果")
    assert match.entities == (APPLE, fruit)
    assert gazetteer.find("吃苹果")[0].type == "ORGANIZATION"


def test_lookup_contains_len(gazetteer: Gazetteer) -> None:
    assert gazetteer.lookup("musk") == (MUSK,)
    assert gazetteer.lookup("unknown") == ()
    assert "ＭＵＳＫ" in gazetteer
    assert "Tesla" not in gazetteer
    assert len(gazetteer) == 14


def test_empty_gazetteer_and_text(gazetteer: Gazetteer) -> None:
    assert Gazetteer([]).find("马斯克") == []
    assert Gazetteer([("  ", MUSK)]).find("马斯克") == []
    assert gazetteer.find("") == []


def test_ten_thousand_surface_forms_build_fast() -> None:
    entities = [
        EntityMetadata(standard_name=f"Entity{i} Name", type="OTHER", aliases=[f"实体{i}号"])
        for i in range(5000)
    ]
    started = time.perf_counter()
    gazetteer = gazetteer_of(entities)
    elapsed = time.perf_counter() - started
    assert len(gazetteer) == 10000
    assert [e.text for e in gazetteer.find("实体42号 and Entity4999 Name")] == ["实体42号", "Entity4999 Name"]
    assert elapsed < 5.0


@pytest.mark.parametrize(
    "text",
    [
        "Plain Text",
        "  ＡＰＰＬＥ\t发布會  ",
        "Straße İstanbul",
        "乾隆皇帝的頭髮",
        "ﬁnance\n\n馬斯克",
        "e\u0301 café",
    ],
)
def test_fold_agrees_with_normalize(text: str) -> None:
    from graphs.text.normalize import normalize

    folded, index = fold_aligned(text)
    assert folded.strip(" ") == normalize(text)
    assert index is None or len(index) == len(folded)


def test_decomposed_accent_belongs_to_the_match() -> None:
    cafe = EntityMetadata(standard_name="Café Society", type="ORGANIZATION", aliases=["Café"])
    text = "at Cafe\u0301 tonight, then Cafe\u0301 Society"
    assert [e.text for e in gazetteer_of([cafe]).find(text)] == [
        "Cafe\u0301",
        "Cafe\u0301 Society",
    ]


def test_pinyin_spellings_of_chinese_names_are_found_with_or_without_spaces_and_tones() -> None:
    ren = EntityMetadata(standard_name="任正非", type="PERSON")
    pony = EntityMetadata(standard_name="马化腾", type="PERSON")
    gazetteer = gazetteer_of([ren, pony, EntityMetadata(standard_name="马", type="OTHER")])
    text = "renzhengfei met Ma Huateng; Rén Zhèngfēi again, but not ma or Renzheng."
    found = [(m.surface, m.entities[0].standard_name) for m in gazetteer.pinyin_matches(text)]
    assert found == [("renzhengfei", "任正非"), ("Ma Huateng", "马化腾"), ("Rén Zhèngfēi", "任正非")]
