"""Look-alike names from Unicode's confusables table (UTS #39 skeletons)."""

from __future__ import annotations

import pytest

from graphs.domain import EntityMetadata
from graphs.text.confusables import look_alikes, lookalike_key, prototypes, skeleton

EXISTING = [
    EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=["苹果"]),
    EntityMetadata(standard_name="Ma Huateng", type="PERSON", aliases=["马化腾"]),
    EntityMetadata(standard_name="Intel", type="ORGANIZATION"),
    EntityMetadata(standard_name="上海", type="LOCATION", aliases=["魔都"]),
    EntityMetadata(standard_name="AT&T", type="ORGANIZATION"),
    EntityMetadata(standard_name="3M", type="ORGANIZATION"),
]
SURFACES = [(s, e) for e in EXISTING for s in (e.standard_name, *e.aliases)]


def test_the_table_is_unicodes_star_shaped_classes() -> None:
    from confusable_homoglyphs.confusables import confusables_data

    for neighbours in confusables_data.values():
        if len(neighbours) > 1:  # a prototype: each of its confusables points back at it alone
            assert all(len(confusables_data[n["c"]]) == 1 for n in neighbours)
    assert len(prototypes()) > 5000
    assert skeleton("Аpple") == skeleton("Apple")  # Cyrillic А
    assert skeleton("paypaI") == skeleton("paypal")  # capital I as l
    assert skeleton("rn") == skeleton("m")


@pytest.mark.parametrize(("new", "looks_like", "owner"), [
    ("Аpple", "Apple", "Apple"),  # Cyrillic А
    ("аpple", "Apple", "Apple"),  # Cyrillic а, lower case
    ("Ма Huateng", "Ma Huateng", "Ma Huateng"),  # Cyrillic М and а
    ("lntel", "Intel", "Intel"),
    ("ЗM", "3M", "3M"),  # Cyrillic З
])
def test_a_look_alike_of_another_entitys_name_is_warned(new: str, looks_like: str, owner: str) -> None:
    [warning] = look_alikes(EntityMetadata(standard_name=new, type="OTHER"), SURFACES)
    assert (warning.code, warning.value, warning.looks_like, warning.owner) == ("confusable_name", new, looks_like, owner)
    assert new in warning.message and looks_like in warning.message


@pytest.mark.parametrize("new", ["Apple", "apple", "APPLE", "蘋果", "Apples", "C++", "AT&T", "R&D", "Wi-Fi", "上海",
                                 "上海市", "Ma Huateng Jr", "Intel Corp", "3M Company", "Ｃ＋＋"])
def test_the_same_name_or_a_merely_similar_one_is_not_a_look_alike(new: str) -> None:
    assert look_alikes(EntityMetadata(standard_name=new, type="OTHER"), SURFACES) == []


def test_an_alias_is_checked_and_the_entitys_own_names_are_not() -> None:
    [warning] = look_alikes(EntityMetadata(standard_name="Fruit Co", type="OTHER", aliases=["Аpple"]), SURFACES)
    assert warning.value == "Аpple"
    assert look_alikes(EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=["Аpple"]), SURFACES) == []


def test_keys_fold_like_the_entity_store() -> None:
    assert lookalike_key("ＡＰＰＬＥ") == lookalike_key("Аpple") == lookalike_key("apple")
