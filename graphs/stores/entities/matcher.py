"""The in-memory matcher that serves an entity store's lookups (exact, alias, fuzzy, pinyin), the merge and
conflict rules every backend applies on write, and the cache that keeps a matcher in step with a backend.

Writes go to the backend in one atomic transaction that also bumps a version counter; lookups
go through an ``EntityMatcher`` rebuilt only when that counter changes, so a lookup costs one
cheap version read plus in-memory dictionary / rapidfuzz work.
"""

from __future__ import annotations

import bisect
import builtins
import logging
import math
import re
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from graphs.domain import STORED, EntityMatch, EntityMetadata, EntityType, MatchKind
from graphs.stores.base import AliasConflictError
from graphs.text.normalize import has_han, normalize, pinyin_variants, toneless

logger = logging.getLogger(__name__)

DEFAULT_FUZZY_THRESHOLD = 0.8
PINYIN_SCORE = 0.9
HOMOPHONE_SCORE = 0.8
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class SurfaceForm:
    """A name or alias of an entity, normalized and spelled in pinyin for matching."""

    text: str
    norm: str
    entity: EntityMetadata
    is_name: bool
    pinyin: tuple[str, ...]


def entity_surfaces(entity: EntityMetadata) -> tuple[SurfaceForm, ...]:
    """Normalize an entity's name and aliases (and spell the Chinese ones in pinyin) for a matcher."""
    out = []
    for text, is_name in [(entity.standard_name, True), *((a, False) for a in entity.aliases)]:
        norm = normalize(text)
        if norm:
            out.append(
                SurfaceForm(text, norm, entity, is_name, pinyin_variants(norm) if has_han(norm) else ())
            )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _FuzzyBucket:
    """Fuzzy-match candidates sorted by length, so a query only scores lengths that can match."""

    lengths: builtins.list[int]
    norms: builtins.list[str]
    surfaces: builtins.list[SurfaceForm]


class EntityMatcher:
    """Immutable in-memory index answering exact, alias, fuzzy and pinyin lookups."""

    def __init__(
        self,
        entities: Iterable[EntityMetadata],
        *,
        fuzzy_threshold: float = DEFAULT_FUZZY_THRESHOLD,
        min_fuzzy_length: int = 3,
        min_pinyin_length: int = 4,
        surfaces: Callable[[EntityMetadata], Sequence[SurfaceForm]] = entity_surfaces,
    ) -> None:
        self.entities: builtins.list[EntityMetadata] = builtins.list(entities)
        self.fuzzy_threshold = fuzzy_threshold
        self.min_fuzzy_length = min_fuzzy_length
        self.min_pinyin_length = min_pinyin_length
        self._surfaces: builtins.list[SurfaceForm] = [s for e in self.entities for s in surfaces(e)]
        self._exact: dict[str, builtins.list[SurfaceForm]] = {}
        self._pinyin: dict[str, builtins.list[SurfaceForm]] = {}
        self._fuzzy: dict[tuple[EntityType | None, bool], _FuzzyBucket] = {}
        for surface in self._surfaces:
            self._exact.setdefault(surface.norm, []).append(surface)
            for key in surface.pinyin:
                self._pinyin.setdefault(key, []).append(surface)

    def __len__(self) -> int:
        return len(self.entities)

    def surface_forms(self) -> builtins.list[tuple[str, EntityMetadata]]:
        """Return every (name or alias, entity) pair."""
        return [(s.text, s.entity) for s in self._surfaces]

    def lookup(self, text: str, type: EntityType | None = None) -> EntityMatch | None:
        """Return the best match of ``text``: exact name, alias, fuzzy, then pinyin; None if unknown."""
        query = normalize(text)
        if not query:
            return None
        surface = _pick(self._exact.get(query, []), type)
        if surface is not None:
            return _match(surface, "exact" if surface.is_name else "alias", 1.0)
        return self._lookup_fuzzy(query, type) or self._lookup_pinyin(query, type)

    def search(self, text: str, type: EntityType | None = None) -> builtins.list[EntityMetadata]:
        """Entities whose name or an alias contains ``text`` (normalized), best first: the name itself, an alias
        itself, a name or alias starting with it, then containing it; the fuzzy or pinyin match comes after
        them (``Iphnoe``, ``masike``). Ties in standard-name order."""
        query = normalize(text)
        if not query:
            return []
        ranks: dict[str, tuple[int, EntityMetadata]] = {}
        for surface in self._surfaces:
            if (type is not None and surface.entity.type != type) or query not in surface.norm:
                continue
            rank = (0 if surface.norm == query else 2 if surface.norm.startswith(query) else 4) + (not surface.is_name)
            name = surface.entity.standard_name
            if name not in ranks or rank < ranks[name][0]:
                ranks[name] = (rank, surface.entity)
        near = self._lookup_fuzzy(query, type) or self._lookup_pinyin(query, type)
        if near is not None and near.entity.standard_name not in ranks:
            ranks[near.entity.standard_name] = (6, near.entity)
        return [entity for _, entity in sorted(ranks.values(), key=lambda r: (r[0], r[1].standard_name))]

    def _lookup_fuzzy(self, query: str, type: EntityType | None) -> EntityMatch | None:
        if len(query) < self.min_fuzzy_length:
            return None
        bucket = self._fuzzy_bucket(type, has_han(query))
        # ratio = 2*matches/(len(a)+len(b)) bounds the candidate lengths that can reach the threshold.
        t = min(max(self.fuzzy_threshold, 0.01), 1.0)
        lo = bisect.bisect_left(bucket.lengths, math.floor(len(query) * t / (2 - t)))
        hi = bisect.bisect_right(bucket.lengths, math.ceil(len(query) * (2 - t) / t))
        digits = _DIGITS.findall(query)
        # fuzz.ratio, not WRatio: WRatio's partial matching scores "apple" vs "apple watch" at 0.9.
        results = process.extract(
            query, bucket.norms[lo:hi], scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold * 100, limit=5
        )
        for _, score, index in results:
            surface = bucket.surfaces[lo + index]
            # "iphone 16" must not fuzzy-match "iphone 15": numbers are identity, not typos.
            if _DIGITS.findall(surface.norm) == digits:
                return _match(surface, "fuzzy", min(score / 100, 1.0))
        return None

    def _fuzzy_bucket(self, type: EntityType | None, han: bool) -> _FuzzyBucket:
        """Return the candidates of one type and script sorted by length, built on first use."""
        bucket = self._fuzzy.get((type, han))
        if bucket is None:
            surfaces = sorted(
                (
                    s
                    for s in self._surfaces
                    if len(s.norm) >= self.min_fuzzy_length
                    and bool(s.pinyin) == han
                    and (type is None or s.entity.type == type)
                ),
                key=lambda s: len(s.norm),
            )
            bucket = _FuzzyBucket([len(s.norm) for s in surfaces], [s.norm for s in surfaces], surfaces)
            self._fuzzy[(type, han)] = bucket  # benign race: the value is deterministic
        return bucket

    def _lookup_pinyin(self, query: str, type: EntityType | None) -> EntityMatch | None:
        if has_han(query):
            if sum(1 for ch in query if has_han(ch)) < 2:
                return None
            score, keys = HOMOPHONE_SCORE, pinyin_variants(query)
        elif (spelled := toneless(query)) is not None:
            score, keys = PINYIN_SCORE, (spelled,)
        else:
            return None
        for key in keys:
            if len(key) >= self.min_pinyin_length:
                surface = _pick(self._pinyin.get(key, []), type)
                if surface is not None:
                    return _match(surface, "pinyin", score)
        return None


def _pick(candidates: Iterable[SurfaceForm], type: EntityType | None) -> SurfaceForm | None:
    """Return the first candidate of the wanted type, standard names before aliases."""
    best: SurfaceForm | None = None
    for surface in candidates:
        if type is not None and surface.entity.type != type:
            continue
        if surface.is_name:
            return surface
        best = best or surface
    return best


def _match(surface: SurfaceForm, kind: MatchKind, score: float) -> EntityMatch:
    return EntityMatch(entity=surface.entity, match=kind, score=score, matched=surface.text)


def _unique(
    items: Iterable[str], key: Callable[[str], str], exclude: Iterable[str] = ()
) -> builtins.list[str]:
    """Keep the first item of each key, in order, dropping empty keys and excluded ones."""
    seen = set(exclude)
    out = []
    for item in items:
        k = key(item)
        if k and k not in seen:
            seen.add(k)
            out.append(item)
    return out


def merge_entity(existing: EntityMetadata | None, new: EntityMetadata) -> EntityMetadata:
    """Merge ``new`` into ``existing``: union aliases and relations, new type, non-empty hierarchy wins."""
    if not normalize(new.standard_name):
        raise ValueError(f"standard name {new.standard_name!r} is blank")
    old = existing or new.model_copy(update={"aliases": [], "hierarchy": [], "related_entities": []})
    # Both sides were checked on their way in (or were stored before the name rules): not checked again.
    return EntityMetadata.model_validate({
        "standard_name": new.standard_name,
        "type": new.type,
        "aliases": _unique([*old.aliases, *new.aliases], normalize, exclude=[normalize(new.standard_name)]),
        "hierarchy": builtins.list(new.hierarchy or old.hierarchy),
        "related_entities": _unique([*old.related_entities, *new.related_entities], str),
    }, context=STORED)


def without_aliases(existing: EntityMetadata | None, aliases: Iterable[str]) -> EntityMetadata | None:
    """``existing`` without the aliases that normalize like one of ``aliases`` (None stays None)."""
    if existing is None:
        return None
    gone = {normalize(a) for a in aliases}
    return existing.model_copy(update={"aliases": [a for a in existing.aliases if normalize(a) not in gone]})


def surface_keys(entity: EntityMetadata) -> dict[str, str]:
    """Return normalized surface form -> original (name first, then aliases) of an entity."""
    keys: dict[str, str] = {}
    for text in [entity.standard_name, *entity.aliases]:
        keys.setdefault(normalize(text), text)
    keys.pop("", None)
    return keys


def check_conflicts(keys: dict[str, str], owners: Iterable[str | None], name: str) -> None:
    for (_, text), owner in zip(keys.items(), owners, strict=True):
        if owner is not None and owner != name:
            raise AliasConflictError(text, owner)


def dump_entity(entity: EntityMetadata) -> str:
    return entity.model_dump_json(by_alias=True)


def load_entity(raw: str | bytes) -> EntityMetadata:
    return EntityMetadata.model_validate_json(raw, context=STORED)


def _parse_surfaces(raw: str | bytes) -> tuple[EntityMetadata, tuple[SurfaceForm, ...]]:
    entity = load_entity(raw)
    return entity, entity_surfaces(entity)


class CachedMatcherStore(ABC):
    """The lookups of an entity store: an EntityMatcher kept in sync with the backend's version counter."""

    def __init__(self, fuzzy_threshold: float, max_staleness: float) -> None:
        self._fuzzy_threshold = fuzzy_threshold
        self._max_staleness = max_staleness
        self._checked_at = -math.inf
        self._writes = 0  # bumped by this instance's writes; a check older than one is void
        self._cached: tuple[int, EntityMatcher] | None = None
        self._rebuild_lock = threading.Lock()
        # Parsed entities by stored JSON: a rebuild only parses and normalizes what changed.
        self._memo: dict[str | bytes, tuple[EntityMetadata, tuple[SurfaceForm, ...]]] = {}

    @abstractmethod
    def version(self) -> int:
        """Return the write counter, bumped in the same transaction as every write."""

    @abstractmethod
    def _snapshot(self) -> tuple[int, builtins.list[str | bytes]]:
        """Return the version and every entity's stored JSON sorted by name, read consistently."""

    def matcher(self) -> EntityMatcher:
        """Return the matcher for the current version, rebuilding it if the store changed."""
        cached, writes, now = self._cached, self._writes, time.monotonic()
        if cached is not None and now - self._checked_at < self._max_staleness:
            return cached[1]
        current = self.version()
        if cached is not None and cached[0] == current:
            self._mark_checked(now, writes)
            return cached[1]
        with self._rebuild_lock:
            cached = self._cached
            if cached is not None and cached[0] == current:
                return cached[1]
            started = time.perf_counter()
            version, raws = self._snapshot()
            memo = {raw: self._memo.get(raw) or _parse_surfaces(raw) for raw in raws}
            by_id = {id(entity): surfaces for entity, surfaces in memo.values()}
            matcher = EntityMatcher(
                [entity for entity, _ in memo.values()],
                fuzzy_threshold=self._fuzzy_threshold,
                surfaces=lambda entity: by_id[id(entity)],
            )
            self._memo, self._cached = memo, (version, matcher)
            self._mark_checked(now, writes)
            logger.debug(
                "entity matcher rebuilt: %d entities, version %d, %.1f ms",
                len(memo),
                version,
                (time.perf_counter() - started) * 1000,
            )
            return matcher

    def _mark_checked(self, now: float, writes: int) -> None:
        if writes == self._writes:
            self._checked_at = now

    def _invalidate(self) -> None:
        """Make the next lookup read the version, so this instance sees its own writes at once."""
        self._writes += 1
        self._checked_at = -math.inf

    def lookup(self, text: str, type: EntityType | None = None) -> EntityMatch | None:
        """Best match of a surface form: exact/alias, then fuzzy, then pinyin."""
        return self.matcher().lookup(text, type)

    def surface_forms(self) -> builtins.list[tuple[str, EntityMetadata]]:
        """Every (name or alias, entity) pair, for gazetteer matching in text."""
        return self.matcher().surface_forms()

    def search(self, text: str, type: EntityType | None = None) -> builtins.list[EntityMetadata]:
        """Entities whose name or an alias contains ``text``, best first (then a fuzzy or pinyin match)."""
        return self.matcher().search(text, type)


def check_page(offset: int, limit: int) -> None:
    if offset < 0 or limit < 0:
        raise ValueError(f"offset and limit must be >= 0, got offset={offset}, limit={limit}")


class ChangeWrites(ABC):
    """The entity writes of a store that changes one stored entity at a time in one transaction (``_change``):
    SQLite's and Redis's."""

    @abstractmethod
    def _change(self, name: str, change: Callable[[EntityMetadata | None], EntityMetadata | None]
                ) -> EntityMetadata | None:
        """Write ``change(existing)`` as the entity named ``name``, with its surface forms, in one transaction."""

    def upsert(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge (aliases, hierarchy, relations) an entity; AliasConflictError on clash."""
        merged = self._change(entity.standard_name, lambda existing: merge_entity(existing, entity))
        assert merged is not None
        return merged

    def remove_aliases(self, standard_name: str, aliases: Sequence[str]) -> EntityMetadata | None:
        """Remove these aliases (compared normalized) from an entity; the entity as stored, None if unknown."""
        return self._change(standard_name, lambda existing: without_aliases(existing, aliases))
