"""Look-alike entity names: ``Аpple`` (Cyrillic А) beside ``Apple``, ``Ма Huateng`` beside ``Ma Huateng``.

Two names look alike when their UTS #39 skeletons agree (every character replaced by the prototype of its
confusable class in Unicode's ``confusables.txt``) but the entity store would keep them apart (their
``normalize`` keys differ). The table is the one the ``confusable_homoglyphs`` package ships (MIT; Unicode's
confusables.txt of 2024-01, read from the package, no network). It stores each confusable pair in both
directions; every class is a star around its prototype (checked by a test), so the prototype is the member
with more than one neighbour, a multi-character target (``m`` → ``rn``), or for a lone pair the smaller one.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from graphs.domain import EntityMetadata, NameWarning
from graphs.text.normalize import normalize


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character → the prototype of its class (characters that are prototypes are absent)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[str, list[dict[str, str]]] = confusables_data
    mapping: dict[str, str] = {}
    for char, neighbours in table.items():
        if len(char) != 1 or len(neighbours) != 1:
            continue  # a multi-character target, or the centre of a class: a prototype itself
        other = neighbours[0]["c"]
        if len(other) > 1 or len(table.get(other, ())) > 1:
            mapping[char] = other
        elif other < char:
            mapping[char] = other  # a lone pair: the smaller one stands for both
    return mapping


@functools.lru_cache(maxsize=65536)
def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, every character mapped to its prototype, NFD again."""
    table = prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.lru_cache(maxsize=65536)
def lookalike_key(text: str) -> str:
    """What ``text`` looks like, folded as the entity store folds names (case, width, script)."""
    return normalize(skeleton(unicodedata.normalize("NFKC", text)))


def look_alikes(entity: EntityMetadata, existing: Iterable[tuple[str, EntityMetadata]]) -> list[NameWarning]:
    """Warnings for each name or alias of ``entity`` that looks like another entity's name or alias without
    being the same to the entity store (``existing``: the store's (surface form, entity) pairs)."""
    wanted: dict[str, list[str]] = {}
    for surface in [entity.standard_name, *entity.aliases]:
        wanted.setdefault(lookalike_key(surface), []).append(surface)
    warnings: dict[tuple[str, str], NameWarning] = {}
    for surface, owner in existing:
        if owner.standard_name == entity.standard_name:
            continue
        for mine in wanted.get(lookalike_key(surface), ()):
            if normalize(mine) != normalize(surface):
                warnings.setdefault((mine, surface), NameWarning(
                    value=mine, looks_like=surface, owner=owner.standard_name,
                    message=f"{mine!r} looks like {surface!r} of {owner.standard_name!r} but is spelled with "
                            f"other characters: check that it is not a look-alike"))
    return list(warnings.values())
