"""Tests of the entity matcher and of both entity store backends (SQLite file, fake Redis)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import fakeredis
import pytest

from graphs.domain import EntityMatch, EntityMetadata, EntityType
from graphs.ingest.loaders import load_entities_jsonl
from graphs.stores.base import AliasConflictError, EntityStore, StoreUnavailable
from graphs.stores.entities.matcher import EntityMatcher, merge_entity
from graphs.stores.entities.redis_store import RedisEntityStore
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from tests.support.servers import free_port

Store = SQLiteEntityStore | RedisEntityStore
Opener = Callable[..., Store]


def entity(name: str, type: EntityType, aliases: list[str] | None = None, **kw: list[str]) -> EntityMetadata:
    return EntityMetadata(standard_name=name, type=type, aliases=aliases or [], **kw)


SEED = [
    entity("上海", "LOCATION", ["魔都", "沪"], hierarchy=["中国", "上海"]),
    entity("北京", "LOCATION", ["帝都"], hierarchy=["中国", "北京"]),
    entity("Elon Musk", "PERSON", ["老马", "马斯克", "埃隆·马斯克"], related_entities=["Tesla"]),
    entity("Apple", "ORGANIZATION", ["苹果", "苹果公司", "Apple Inc."]),
    entity("iPhone", "PRODUCT", ["苹果手机"]),
    entity("iPhone 15", "PRODUCT"),
    entity("Tesla", "ORGANIZATION", ["特斯拉"]),
]

LOOKUPS: list[tuple[str, EntityType | None, str | None, str | None, float | None]] = [
    # text, type, expected standard name, match kind, score (None: only check bounds)
    ("魔都", None, "上海", "alias", 1.0),
    ("老马", None, "Elon Musk", "alias", 1.0),
    ("苹果", None, "Apple", "alias", 1.0),
    ("蘋果", None, "Apple", "alias", 1.0),
    ("ＡＰＰＬＥ", None, "Apple", "exact", 1.0),
    ("Iphone", None, "iPhone", "exact", 1.0),
    ("  elon   MUSK ", None, "Elon Musk", "exact", 1.0),
    ("沪", None, "上海", "alias", 1.0),
    ("iPhnoe", None, "iPhone", "fuzzy", None),
    ("Elon Musc", None, "Elon Musk", "fuzzy", None),
    ("masike", None, "Elon Musk", "pinyin", 0.9),
    ("ma si ke", None, "Elon Musk", "pinyin", 0.9),
    ("moDu", None, "上海", "pinyin", 0.9),
    ("马斯可", None, "Elon Musk", "pinyin", 0.8),
    ("苹果", "ORGANIZATION", "Apple", "alias", 1.0),
    ("苹果", "PERSON", None, None, None),
    ("iPhnoe", "LOCATION", None, None, None),
    ("量子纠缠", None, None, None, None),
    ("banana", None, None, None, None),
    ("iphone 16", None, None, None, None),
    ("Apple Watch", None, None, None, None),
    ("iP", None, None, None, None),
    ("", None, None, None, None),
    ("   ", None, None, None, None),
]


def check_lookup(
    lookup: Callable[[str, EntityType | None], EntityMatch | None],
    text: str,
    type: EntityType | None,
    name: str | None,
    kind: str | None,
    score: float | None,
) -> None:
    match = lookup(text, type)
    if name is None:
        assert match is None
        return
    assert match is not None
    assert (match.entity.standard_name, match.match) == (name, kind)
    assert 0.0 < match.score <= 1.0
    if score is not None:
        assert match.score == score
    if kind == "fuzzy":
        assert match.score >= 0.8


# ---------------------------------------------------------------- matcher


@pytest.mark.parametrize(("text", "type", "name", "kind", "score"), LOOKUPS)
def test_matcher_lookup(
    text: str, type: EntityType | None, name: str | None, kind: str | None, score: float | None
) -> None:
    check_lookup(EntityMatcher(SEED).lookup, text, type, name, kind, score)


def test_matcher_reports_matched_surface_form() -> None:
    matcher = EntityMatcher(SEED)
    match = matcher.lookup("蘋果手機")
    assert match is not None
    assert (match.entity.standard_name, match.matched) == ("iPhone", "苹果手机")


def test_matcher_fuzzy_threshold_is_configurable() -> None:
    assert EntityMatcher(SEED, fuzzy_threshold=0.95).lookup("iPhnoe") is None
    assert EntityMatcher(SEED, fuzzy_threshold=0.8).lookup("iPhnoe") is not None


def test_matcher_prefers_standard_name_over_alias() -> None:
    matcher = EntityMatcher([entity("Jaguar Cars", "ORGANIZATION", ["Jaguar"]), entity("Jaguar", "CONCEPT")])
    match = matcher.lookup("jaguar")
    assert match is not None
    assert (match.entity.standard_name, match.match) == ("Jaguar", "exact")
    match = matcher.lookup("jaguar", "ORGANIZATION")
    assert match is not None
    assert (match.entity.standard_name, match.match) == ("Jaguar Cars", "alias")


def test_matcher_surface_forms() -> None:
    forms = EntityMatcher(SEED).surface_forms()
    pairs = {(text, e.standard_name) for text, e in forms}
    assert ("魔都", "上海") in pairs
    assert ("Elon Musk", "Elon Musk") in pairs
    assert len(forms) == sum(1 + len(e.aliases) for e in SEED)


def test_matcher_empty() -> None:
    matcher = EntityMatcher([])
    assert matcher.lookup("anything") is None
    assert matcher.surface_forms() == []


def test_merge_entity() -> None:
    old = entity(
        "Apple", "ORGANIZATION", ["苹果", "Apple Inc."], hierarchy=["Tech"], related_entities=["iPhone"]
    )
    new = entity("Apple", "PRODUCT", ["蘋果", "APPLE", "AAPL"], related_entities=["Tim Cook", "iPhone"])
    merged = merge_entity(old, new)
    assert merged.type == "PRODUCT"
    assert merged.aliases == ["苹果", "Apple Inc.", "AAPL"]
    assert merged.hierarchy == ["Tech"]
    assert merged.related_entities == ["iPhone", "Tim Cook"]
    assert merge_entity(merged, entity("Apple", "PRODUCT", hierarchy=["Hardware"])).hierarchy == ["Hardware"]


# ---------------------------------------------------------------- stores


@pytest.fixture(params=["sqlite", "redis"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Return a function opening a new store instance on the same persistent backend."""
    opened: list[Store] = []
    server = fakeredis.FakeServer()

    def open_store(max_staleness: float = 0.0) -> Store:
        store: Store
        if request.param == "sqlite":
            store = SQLiteEntityStore(tmp_path / "entities.db", max_staleness=max_staleness)
        else:
            client = fakeredis.FakeRedis(server=server)
            store = RedisEntityStore(client, prefix="test:", max_staleness=max_staleness)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()


@pytest.fixture
def store(opener: Opener) -> Store:
    return opener()


@pytest.fixture
def seeded(store: Store) -> Store:
    for e in SEED:
        store.upsert(e)
    return store


def test_store_implements_protocol(store: Store) -> None:
    assert isinstance(store, EntityStore)
    store.ping()


def test_upsert_and_get(store: Store) -> None:
    e = entity("上海", "LOCATION", ["魔都", "沪", "魔都", "上海", "SHANGHAI"], hierarchy=["中国", "上海"])
    saved = store.upsert(e)
    assert saved.aliases == ["魔都", "沪", "SHANGHAI"]
    assert store.get("上海") == saved
    assert store.get("上海市") is None
    assert store.count() == 1


def test_upsert_merges_existing(store: Store) -> None:
    store.upsert(entity("Apple", "ORGANIZATION", ["苹果"], hierarchy=["Tech"], related_entities=["iPhone"]))
    merged = store.upsert(entity("Apple", "PRODUCT", ["AAPL", "蘋果"], related_entities=["Tim Cook"]))
    assert merged == entity(
        "Apple", "PRODUCT", ["苹果", "AAPL"], hierarchy=["Tech"], related_entities=["iPhone", "Tim Cook"]
    )
    assert store.get("Apple") == merged
    assert store.count() == 1
    assert store.count("PRODUCT") == 1
    assert store.count("ORGANIZATION") == 0
    assert [e.standard_name for e in store.list("PRODUCT")] == ["Apple"]
    assert store.list("ORGANIZATION") == []
    replaced = store.upsert(entity("Apple", "PRODUCT", hierarchy=["Hardware", "Apple"]))
    assert replaced.hierarchy == ["Hardware", "Apple"]
    assert replaced.aliases == ["苹果", "AAPL"]
    match = store.lookup("aapl")
    assert match is not None
    assert match.entity == replaced


@pytest.mark.parametrize(
    ("new", "alias", "owner"),
    [
        (entity("Apple Fruit", "CONCEPT", ["apple fruit", "苹果"]), "苹果", "Apple"),
        (entity("Apple Fruit", "CONCEPT", ["蘋果"]), "蘋果", "Apple"),
        (entity("Musk Fan", "PERSON", ["ELON MUSK"]), "ELON MUSK", "Elon Musk"),
        (entity("魔都", "LOCATION"), "魔都", "上海"),
        (entity("Elon Musk", "PERSON", ["Elon", "特斯拉"]), "特斯拉", "Tesla"),
    ],
)
def test_alias_conflict_writes_nothing(seeded: Store, new: EntityMetadata, alias: str, owner: str) -> None:
    version, count = seeded.version(), seeded.count()
    before = seeded.get(new.standard_name)
    with pytest.raises(AliasConflictError) as info:
        seeded.upsert(new)
    assert (info.value.alias, info.value.owner) == (alias, owner)
    assert seeded.version() == version
    assert seeded.count() == count
    assert seeded.get(new.standard_name) == before
    match = seeded.lookup(alias)
    assert match is not None
    assert match.entity.standard_name == owner
    # The aliases that did not clash were not written either.
    for other in new.aliases:
        found = seeded.lookup(other)
        assert found is None or found.entity.standard_name != new.standard_name or found.entity == before


def test_delete_frees_aliases(seeded: Store) -> None:
    assert seeded.delete("Apple") is True
    assert seeded.delete("Apple") is False
    assert seeded.get("Apple") is None
    assert seeded.lookup("苹果") is None
    seeded.upsert(entity("苹果 (水果)", "CONCEPT", ["苹果"]))
    match = seeded.lookup("蘋果")
    assert match is not None
    assert match.entity.standard_name == "苹果 (水果)"


def test_list_pagination_and_type_filter(seeded: Store) -> None:
    names = sorted(e.standard_name for e in SEED)
    assert [e.standard_name for e in seeded.list()] == names
    assert [e.standard_name for e in seeded.list(offset=2, limit=3)] == names[2:5]
    assert [e.standard_name for e in seeded.list(offset=5, limit=100)] == names[5:]
    assert seeded.list(offset=100) == []
    assert seeded.list(limit=0) == []
    assert [e.standard_name for e in seeded.list("LOCATION")] == ["上海", "北京"]
    assert [e.standard_name for e in seeded.list("PRODUCT", offset=1, limit=1)] == ["iPhone 15"]
    assert seeded.count() == len(SEED)
    assert seeded.count("LOCATION") == 2
    assert seeded.count("EVENT") == 0
    with pytest.raises(ValueError):
        seeded.list(offset=-1)


@pytest.mark.parametrize(("text", "type", "name", "kind", "score"), LOOKUPS)
def test_store_lookup(
    seeded: Store, text: str, type: EntityType | None, name: str | None, kind: str | None, score: float | None
) -> None:
    check_lookup(seeded.lookup, text, type, name, kind, score)


def test_surface_forms(seeded: Store) -> None:
    pairs = {(text, e.standard_name) for text, e in seeded.surface_forms()}
    assert ("老马", "Elon Musk") in pairs
    assert ("iPhone 15", "iPhone 15") in pairs
    assert len(pairs) == sum(1 + len(e.aliases) for e in SEED)


def test_version_changes_on_every_write(store: Store) -> None:
    v0 = store.version()
    store.upsert(entity("Tesla", "ORGANIZATION", ["特斯拉"]))
    v1 = store.version()
    assert v1 != v0
    store.upsert(entity("Tesla", "ORGANIZATION", ["特斯拉"]))  # no change, no new version
    assert store.version() == v1
    store.upsert(entity("Tesla", "ORGANIZATION", ["TSLA"]))
    v2 = store.version()
    assert v2 not in (v0, v1)
    store.delete("Tesla")
    assert store.version() not in (v0, v1, v2)


def test_lookup_cache_follows_writes_from_another_instance(opener: Opener) -> None:
    reader, writer = opener(), opener()
    assert reader.lookup("魔都") is None
    writer.upsert(entity("上海", "LOCATION", ["魔都"]))
    match = reader.lookup("魔都")
    assert match is not None
    assert match.entity.standard_name == "上海"
    writer.upsert(entity("上海", "LOCATION", ["申城"]))
    assert reader.lookup("申城") is not None
    writer.delete("上海")
    assert reader.lookup("魔都") is None


def test_max_staleness_delays_other_writers_but_not_own(opener: Opener) -> None:
    reader, writer = opener(60.0), opener()
    assert reader.lookup("魔都") is None
    writer.upsert(entity("上海", "LOCATION", ["魔都"]))
    assert reader.lookup("魔都") is None  # within the staleness window
    reader.upsert(entity("北京", "LOCATION", ["帝都"]))
    assert reader.lookup("魔都") is not None
    assert reader.lookup("帝都") is not None


def test_data_survives_restart(opener: Opener) -> None:
    first = opener()
    for e in SEED:
        first.upsert(e)
    version = first.version()
    first.close()
    second = opener()
    assert second.count() == len(SEED)
    assert second.version() == version
    assert second.get("Elon Musk") == SEED[2]
    match = second.lookup("masike")
    assert match is not None
    assert match.entity.standard_name == "Elon Musk"
    with pytest.raises(AliasConflictError):
        second.upsert(entity("Someone", "PERSON", ["老马"]))


def test_concurrent_upserts_of_different_entities(store: Store) -> None:
    barrier = threading.Barrier(50)

    def add(i: int) -> None:
        barrier.wait()
        store.upsert(entity(f"Entity {i:02d}", "OTHER", [f"alias-{i}-a", f"别名{i}号"]))

    with ThreadPoolExecutor(max_workers=50) as pool:
        list(pool.map(add, range(50)))
    assert store.count() == 50
    for i in range(50):
        for alias in (f"alias-{i}-a", f"别名{i}号"):
            match = store.lookup(alias)
            assert match is not None
            assert (match.entity.standard_name, match.match) == (f"Entity {i:02d}", "alias")


def test_concurrent_upserts_claiming_one_alias(store: Store) -> None:
    barrier = threading.Barrier(50)

    def claim(i: int) -> bool:
        barrier.wait()
        try:
            store.upsert(entity(f"Claimant {i}", "OTHER", ["the prize"]))
        except AliasConflictError:
            return False
        return True

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(claim, range(50)))
    assert sum(results) == 1
    assert store.count() == 1


def test_redis_store_with_decoded_responses() -> None:
    store = RedisEntityStore(fakeredis.FakeRedis(decode_responses=True))
    for e in SEED:
        store.upsert(e)
    assert [e.standard_name for e in store.list("LOCATION")] == ["上海", "北京"]
    assert store.get("Apple") == SEED[3]
    match = store.lookup("蘋果")
    assert match is not None
    assert match.entity == SEED[3]
    with pytest.raises(AliasConflictError):
        store.upsert(entity("Pear", "ORGANIZATION", ["苹果"]))
    assert store.delete("Apple")
    assert store.lookup("苹果") is None


# ---------------------------------------------------------------- outages


def test_redis_unavailable_raises() -> None:
    store = RedisEntityStore(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=0.2)
    calls: list[Callable[[], object]] = [
        store.ping,
        store.version,
        lambda: store.lookup("苹果"),
        lambda: store.surface_forms(),
        lambda: store.get("Apple"),
        lambda: store.list(),
        lambda: store.count(),
        lambda: store.upsert(entity("Apple", "ORGANIZATION")),
        lambda: store.delete("Apple"),
    ]
    for call in calls:
        with pytest.raises(StoreUnavailable) as info:
            call()
        assert info.value.store == "redis"


def test_sqlite_missing_directory_raises(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable) as info:
        SQLiteEntityStore(tmp_path / "missing" / "entities.db")
    assert info.value.store == "sqlite"


def test_sqlite_closed_store_raises(tmp_path: Path) -> None:
    store = SQLiteEntityStore(tmp_path / "entities.db")
    store.upsert(SEED[0])
    store.close()
    for call in (
        store.ping,
        lambda: store.lookup("魔都"),
        lambda: store.list(),
        lambda: store.upsert(SEED[1]),
    ):
        with pytest.raises(StoreUnavailable):
            call()


def test_sqlite_locked_database_raises(tmp_path: Path) -> None:
    path = tmp_path / "entities.db"
    store = SQLiteEntityStore(path, timeout=0.1)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            store.upsert(SEED[0])
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert store.upsert(SEED[0]) == SEED[0]
    store.close()


# ---------------------------------------------------------------- loading


def test_load_entities_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "entities.jsonl"
    path.write_text(
        '{"standardName": "上海", "type": "LOCATION", "aliases": ["魔都"], "hierarchy": ["中国", "上海"]}\n'
        "\n"
        '{"standardName": "Elon Musk", "type": "PERSON", "relatedEntities": ["Tesla"]}\n',
        encoding="utf-8",
    )
    loaded = load_entities_jsonl(path)
    assert loaded == [
        entity("上海", "LOCATION", ["魔都"], hierarchy=["中国", "上海"]),
        entity("Elon Musk", "PERSON", related_entities=["Tesla"]),
    ]


def test_load_entities_json_array(tmp_path: Path) -> None:
    path = tmp_path / "entities.json"
    path.write_text(
        '[{"standardName": "Apple", "type": "ORGANIZATION", "aliases": ["苹果"]}]', encoding="utf-8"
    )
    assert load_entities_jsonl(path) == [entity("Apple", "ORGANIZATION", ["苹果"])]


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ('{"standardName": "A", "type": "PERSON"}\n{"standardName": "B", "type": "ALIEN"}\n', "line 2"),
        ('{"standardName": "A", "type": "PERSON"}\n\n{not json}\n', "line 3"),
        ('{"type": "PERSON"}\n', "line 1"),
        ('[{"standardName": "A", "type": "PERSON"}, {"standardName": ""}]', "item 1"),
    ],
)
def test_load_entities_bad_record(tmp_path: Path, content: str, where: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=where):
        load_entities_jsonl(path)
