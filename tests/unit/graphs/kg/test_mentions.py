"""Name keys and the n-gram mention index: word boundaries, case, disambiguation, Chinese, mixed text."""

from __future__ import annotations

import pytest

from graphs.kg.mentions import MentionIndex, canonical, contains_key, name_key, strip_disambiguation


def index(*names: str) -> MentionIndex:
    out = MentionIndex()
    for name in names:
        key = name_key(name)
        assert key is not None, name
        out.add(key, name)
    return out


def found(idx: MentionIndex, text: str) -> set[str]:
    return {ident for ids in idx.find(text).values() for ident in ids}


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Lilu (mythology)", "lilu"),
        ("Lilu （神话）", "lilu"),
        ("  New   York ", "new york"),
        ("AC/DC", "ac dc"),
        ("iPhone 15 发布会", "iphone 15发布会"),
        ("北京", "北京"),
        ("臺灣", "台湾"),
        ("Go", "go"),
        ("(album)", "album"),
        ("X", None),
        ("中", None),
        ("2024", None),
        ("1 000", None),
        ("", None),
        ("!!", None),
        ("one two three four five six seven eight nine", None),
        ("一二三四五六七八九十一二三", None),
    ],
)
def test_name_key(name: str, key: str | None) -> None:
    assert name_key(name) == key


def test_strip_disambiguation_only_trailing() -> None:
    assert strip_disambiguation("Lilu (mythology)") == "Lilu"
    assert strip_disambiguation("The (Real) Thing") == "The (Real) Thing"


def test_english_matches_whole_words_case_insensitively() -> None:
    idx = index("Paris", "New York", "Lilu (mythology)")
    assert found(idx, "She flew from PARIS to new  york.") == {"Paris", "New York"}
    assert found(idx, "Comparison of Parisian cafes") == set()
    assert found(idx, "Lilu's story") == {"Lilu (mythology)"}
    assert found(idx, "Newark, York") == set()


def test_chinese_matches_as_substrings_and_folds_script() -> None:
    idx = index("北京", "北京大学", "上海")
    assert found(idx, "他在北京大學讀書") == {"北京", "北京大学"}
    assert found(idx, "上海人") == {"上海"}
    assert found(idx, "北方的京城") == set()


def test_mixed_text() -> None:
    idx = index("iPhone 15", "A股", "Tesla", "特斯拉")
    assert found(idx, "苹果发布了iPhone 15，特斯拉Tesla股价上涨，A股收涨") == {
        "iPhone 15",
        "A股",
        "Tesla",
        "特斯拉",
    }
    assert found(idx, "iPhone 150 上市") == set()
    assert found(idx, "一个BA股") == set()


def test_discard_forgets_a_key_and_its_prefixes() -> None:
    idx = index("New York", "New York City")
    idx.discard("new york city", "New York City")
    assert found(idx, "new york city") == {"New York"}
    idx.discard("new york", "New York")
    assert len(idx) == 0 and found(idx, "new york city") == set()


def test_contains_key_checks_boundaries_in_canonical_text() -> None:
    body = canonical("Paris-based firm; 在北京 and A股")
    assert body == "paris based firm在北京and a股"
    assert contains_key(body, "paris") and contains_key(body, "北京") and contains_key(body, "a股")
    assert contains_key(body, "京and")
    assert not contains_key(body, "aris") and not contains_key(body, "base")
