"""What the query analyser's tests share (entity spotting and query analysis): a fixed day, the entities of
their gazetteer, and entities as (text, type, source) triples."""

from __future__ import annotations

from datetime import date

from graphs.domain import EntityMetadata, QueryEntity
from graphs.text.gazetteer import Gazetteer
from tests.support.fakes import gazetteer_of

TODAY = date(2025, 6, 15)
MUSK = EntityMetadata(standard_name="Elon Musk", type="PERSON", aliases=["马斯克", "老马", "Musk"])
APPLE = EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=["苹果"])
BEIJING = EntityMetadata(standard_name="北京", type="LOCATION", aliases=["Beijing"])
SAMSUNG = EntityMetadata(standard_name="三星", type="ORGANIZATION", aliases=["Samsung"])
FRANCE = EntityMetadata(standard_name="France", type="LOCATION", aliases=["法国"])


def analyser_gazetteer() -> Gazetteer:
    """The gazetteer of those five entities."""
    return gazetteer_of([MUSK, APPLE, BEIJING, SAMSUNG, FRANCE])


def triples(entities: list[QueryEntity]) -> list[tuple[str, str, str]]:
    return [(e.text, e.type, e.source) for e in entities]
