"""Entity name hygiene in the domain model (every path writes through ``EntityMetadata``): NFKC, no control,
bidirectional or invisible formatting characters, a letter or a digit; stored values always read back."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from graphs.domain import STORED, EntityMetadata, name_problem
from graphs.ingest.loaders import load_entities_jsonl
from graphs.stores.entities.matcher import load_entity, merge_entity

LEGITIMATE = ["C++", "AT&T", "R&D", "Wi-Fi", "3M", "上海", "马斯克", "Ма Huateng", "O'Reilly", "Zoë", "C#",
              "S&P 500", "iPhone 15 Pro", "朝阳区", "Jean-Luc Picard", "محمد", "👨‍👩‍👧 Family", "第1次"]
REFUSED = {
    "a\x00b": "control character (U+0000)",
    "a\tb": "control character (U+0009)",
    "Apple\n": "control character (U+000A)",
    "a\x85b": "control character (U+0085)",
    "a\u2028b": "control character (U+2028)",
    "evil\u202egnp.exe": "bidirectional control character (U+202E)",
    "a\u2066b": "bidirectional control character (U+2066)",
    "\u200f": "bidirectional control character (U+200F)",
    "\u200b": "invisible formatting character (U+200B)",
    "Ap\u200bple": "invisible formatting character (U+200B)",
    "\ufeffApple": "invisible formatting character (U+FEFF)",
    "\u200d": "no visible character",
    "_": "must contain a letter or a digit",
    "!!!": "must contain a letter or a digit",
    "——": "must contain a letter or a digit",
    "、。": "must contain a letter or a digit",
    "   ": "no visible character",
}


@pytest.mark.parametrize("name", LEGITIMATE)
def test_legitimate_names_are_kept(name: str) -> None:
    assert name_problem(name) is None
    assert EntityMetadata(standard_name=name, type="OTHER", aliases=[name]).standard_name == name


@pytest.mark.parametrize(("name", "problem"), REFUSED.items(), ids=[repr(n) for n in REFUSED])
@pytest.mark.parametrize("field", ["standard_name", "aliases", "hierarchy", "related_entities"])
def test_unusable_names_are_refused_with_their_reason(name: str, problem: str, field: str) -> None:
    fields = {"standard_name": "Ok", "type": "OTHER", field: name if field == "standard_name" else ["fine", name]}
    with pytest.raises(ValidationError) as caught:
        EntityMetadata(**fields)  # type: ignore[arg-type]
    [error] = caught.value.errors()
    assert error["type"] == "invalid_entity_name" and problem in error["msg"]
    assert error["loc"] == ((field,) if field == "standard_name" else (field, 1))


def test_names_are_nfkc_normalized_and_trimmed() -> None:
    e = EntityMetadata(standard_name="  Ａｐｐｌｅ\u3000", type="ORGANIZATION", aliases=["ｉＰｈｏｎｅ"],
                       hierarchy=["中国", " 北京 "])
    assert (e.standard_name, e.aliases, e.hierarchy) == ("Apple", ["iPhone"], ["中国", "北京"])


def test_entities_stored_before_the_rules_still_read_and_merge() -> None:
    legacy = '{"standardName": "Old\\tName", "type": "OTHER", "aliases": ["_"], "hierarchy": [], "relatedEntities": []}'
    old = load_entity(legacy)
    assert old.standard_name == "Old\tName" and old.aliases == ["_"]
    merged = merge_entity(old, EntityMetadata.model_validate(
        {"standardName": "Old\tName", "type": "OTHER", "aliases": ["Legacy Co"]}, context=STORED))
    assert merged.aliases == ["_", "Legacy Co"]


def test_an_import_file_with_a_bad_name_names_its_line(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "entities.jsonl"  # type: ignore[operator]
    path.write_text('{"standardName": "Good", "type": "OTHER"}\n{"standardName": "_", "type": "OTHER"}\n')
    with pytest.raises(ValueError, match=r"(?s)line 2: invalid entity.*must contain a letter or a digit"):
        load_entities_jsonl(path)
