"""Entities: their types, what may name one, the stored entity and a lookup's match."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, get_args

from pydantic import AfterValidator, Field, ValidationInfo
from pydantic_core import PydanticCustomError

from graphs.domain.model import Model
from graphs.unicode_policy import JOINERS, text_problem, visible

EntityType = Literal["PERSON", "ORGANIZATION", "PRODUCT", "EVENT", "LOCATION", "DATE", "CONCEPT", "OTHER"]
ENTITY_TYPES: tuple[EntityType, ...] = get_args(EntityType)
# Highest priority first: relaxation drops from the end of this tuple.
DEFAULT_PRIORITY: tuple[EntityType, ...] = ENTITY_TYPES


MatchKind = Literal["exact", "alias", "fuzzy", "pinyin", "date", "none"]


# Entity names, aliases, hierarchy levels and related entities: what may be written (API, CLI, imports),
# by the one policy of ``graphs.unicode_policy`` (document ids and file names follow it too).
STORED = {"stored": True}
"""Validation context of entities read back from a store: their names were checked when they were written
(or predate the check), so reading them never fails."""


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot name an entity (None when it can): a character the Unicode policy refuses
    (control, line-separator, bidirectional, invisible formatting or blank-looking, private-use, noncharacter
    or unassigned; ``graphs.unicode_policy``) anywhere, or no letter or digit at all (blank,
    invisible-only or punctuation-only values such as ``_`` would match everywhere)."""
    if (problem := text_problem(text, "name")) is not None:
        return problem
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        shown = any(visible(ch) and ch not in JOINERS for ch in text)
        return "must contain a letter or a digit" if shown else "has no visible character"
    return None


def clean_name(value: str, info: ValidationInfo) -> str:
    """An entity name as it is stored: NFKC-normalized and trimmed; ``invalid_entity_name`` when it is
    unusable (see ``name_problem``). Values read back from a store (``STORED`` context) pass unchanged."""
    if info.context and info.context.get("stored"):
        return value
    folded = unicodedata.normalize("NFKC", value)
    if (problem := name_problem(folded)) is not None:  # before trimming: a trailing LF is refused, not cut
        raise PydanticCustomError("invalid_entity_name", "{name} {problem}",
                                  {"name": repr(value[:64]), "problem": problem})
    return folded.strip()


EntityNameText = Annotated[str, AfterValidator(clean_name)]
"""A name, alias, hierarchy level or related entity: NFKC, trimmed, no control, bidirectional or invisible
formatting characters, at least one letter or digit (422 ``invalid_entity_name`` otherwise)."""


class EntityMetadata(Model):
    """An entity of the entity store."""

    standard_name: Annotated[str, Field(min_length=1, max_length=256), AfterValidator(clean_name)]
    type: EntityType
    aliases: list[EntityNameText] = Field(default_factory=list)
    hierarchy: list[EntityNameText] = Field(
        default_factory=list,
        description="Path from the root to this entity, e.g. ['中国', '北京', '朝阳'].",
    )
    related_entities: list[EntityNameText] = Field(default_factory=list)

    @property
    def ancestors(self) -> list[str]:
        """Names above this entity in its hierarchy, nearest last."""
        path = list(self.hierarchy)
        if path and path[-1] == self.standard_name:
            path = path[:-1]
        return [p for p in path if p != self.standard_name]


class NameWarning(Model):
    """A name accepted with a warning: it looks like another entity's name or alias (``confusable_name``)."""

    code: Literal["confusable_name"] = "confusable_name"
    value: str = Field(description="The new name or alias.")
    looks_like: str = Field(description="The existing name or alias it can be mistaken for.")
    owner: str = Field(description="The entity that has the existing one.")
    message: str


class EntityMatch(Model):
    """The result of looking a surface form up in the entity store."""

    entity: EntityMetadata
    match: MatchKind
    score: float = Field(ge=0.0, le=1.0)
    matched: str = Field(description="The surface form (name or alias) that matched.")


ENTITY_TYPE_KEYS: dict[str, EntityType] = {t.lower(): t for t in ENTITY_TYPES} | {
    "persons": "PERSON", "people": "PERSON", "organizations": "ORGANIZATION", "orgs": "ORGANIZATION",
    "org": "ORGANIZATION", "products": "PRODUCT", "events": "EVENT", "locations": "LOCATION",
    "places": "LOCATION", "concepts": "CONCEPT",
}
"""Metadata keys that name an entity type (``person``, ``places``, ``ORG`` ...), case-insensitively."""
