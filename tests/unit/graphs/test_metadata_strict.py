"""Document metadata is refused, not coerced: dates are real ISO dates, entity types are known, values are text."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from graphs.domain import Document, iso_date, metadata_problem


@pytest.mark.parametrize(("value", "expected"), [
    ("2024", 20240101), ("2024-03", 20240301), ("2024-03-05", 20240305), ("2024-03-05T10:00:00Z", 20240305), ("2024-03-05 10:00+08:00", 20240305),
    (20240229, 20240229), (None, None), ("", None), ("0001-01-01", 10101),
])
def test_iso_dates_and_yyyymmdd_integers(value: Any, expected: int | None) -> None:
    assert iso_date(value) == expected


@pytest.mark.parametrize("value", [True, False, -1, 0, 1.5, {"a": 1}, [2024], "9999-99-99", "0000-01-01",
                                   "2023-02-29", 20230229, 20241301, "yesterday", "2024/03/05", "2024-3-5",
                                   "20240305x", "2024-03-05T99:99", "2024-02-30T10:00:00"])
def test_anything_else_is_refused(value: Any) -> None:
    with pytest.raises(ValueError):
        iso_date(value)
    with pytest.raises(ValidationError) as caught:
        Document(id="d", text="body", metadata={"date": value})
    assert caught.value.errors()[0]["type"] == "invalid_metadata_date"


@pytest.mark.parametrize(("metadata", "code"), [
    ({"entities": {"WEAPON": ["x"]}}, "invalid_entity_type"),
    ({"entities": [{"type": "SPACESHIP", "text": "x"}]}, "invalid_entity_type"),
    ({"entities": {"PERSON": {"a": 1}}}, "invalid_metadata"),
    ({"person": 5}, "invalid_metadata"),
    ({"entities": "Alice"}, "invalid_metadata"),
    ({"entities": {"PERSON": ["Alice", 3]}}, "invalid_metadata"),
])
def test_entity_metadata_that_would_be_coerced_or_ignored_is_refused(metadata: dict[str, Any], code: str) -> None:
    found = metadata_problem(metadata)
    assert found is not None and found[0] == code
    with pytest.raises(ValidationError) as caught:
        Document(id="d", text="body", metadata=metadata)
    assert caught.value.errors()[0]["type"] == code


@pytest.mark.parametrize("metadata", [
    {}, {"author": {"any": ["thing"]}, "date": "2024-05-01"}, {"entities": {"person": ["Alice"], "ORG": "Acme"}},
    {"entities": [{"type": "location", "text": "Paris"}]}, {"places": ["Paris", "Lyon"]}, {"date": 20240101},
])
def test_clean_metadata_passes(metadata: dict[str, Any]) -> None:
    assert metadata_problem(metadata) is None
    Document(id="d", text="body", metadata=metadata)
