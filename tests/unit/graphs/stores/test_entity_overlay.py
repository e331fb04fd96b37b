"""A workspace's entity dictionary: the shared one overlaid by its own (the workspace's entry wins; writes go to
its own store; other workspaces never see them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import EntityMetadata
from graphs.stores.entities.overlay import OverlayEntityStore
from graphs.stores.entities.sqlite_store import SQLiteEntityStore


def entity(name: str, type: str = "ORGANIZATION", *aliases: str) -> EntityMetadata:
    return EntityMetadata(standard_name=name, type=type, aliases=list(aliases))  # type: ignore[arg-type]


@pytest.fixture
def stores(tmp_path: Path) -> tuple[SQLiteEntityStore, OverlayEntityStore, OverlayEntityStore]:
    shared = SQLiteEntityStore(tmp_path / "shared.db")
    a = OverlayEntityStore(SQLiteEntityStore(tmp_path / "a.db"), shared)
    b = OverlayEntityStore(SQLiteEntityStore(tmp_path / "b.db"), shared)
    return shared, a, b


def test_lookups_lists_and_counts_see_the_shared_dictionary_and_the_workspaces_own(stores) -> None:
    shared, a, b = stores
    shared.upsert(entity("Tencent", "ORGANIZATION", "腾讯"))
    a.upsert(entity("Zorblax", "PERSON", "Z."))
    assert a.lookup("腾讯").entity.standard_name == "Tencent"  # type: ignore[union-attr]
    assert a.lookup("Zorblax").entity.standard_name == "Zorblax"  # type: ignore[union-attr]
    assert [e.standard_name for e in a.list()] == ["Tencent", "Zorblax"] and a.count() == 2
    assert a.count("PERSON") == 1 and [e.standard_name for e in a.list("PERSON")] == ["Zorblax"]
    assert {text for text, _ in a.surface_forms()} >= {"Tencent", "腾讯", "Zorblax", "Z."}
    # the other workspace sees the shared entity only
    assert b.lookup("Zorblax") is None and [e.standard_name for e in b.list()] == ["Tencent"]
    assert shared.get("Zorblax") is None


def test_the_workspaces_entry_wins_on_the_same_name_and_on_the_same_alias(stores) -> None:
    shared, a, b = stores
    shared.upsert(entity("Apple Inc.", "ORGANIZATION", "Apple", "苹果公司"))
    shared.upsert(entity("Mercury", "ORGANIZATION", "Mercury Records"))
    a.upsert(entity("Apple", "PRODUCT", "apple fruit"))  # re-points the shared alias "Apple" in a
    # the same standard name: the workspace's copy (merged from the shared one) hides it
    a.upsert(entity("Mercury", "LOCATION", "the planet"))
    a.remove_aliases("Mercury", ["Mercury Records"])
    assert a.lookup("Apple").entity.standard_name == "Apple"  # type: ignore[union-attr]
    assert a.lookup("苹果公司").entity.standard_name == "Apple Inc."  # type: ignore[union-attr]
    shown = a.get("Apple Inc.")
    assert shown is not None and "Apple" not in shown.aliases and "苹果公司" in shown.aliases
    assert a.get("Mercury").type == "LOCATION" and a.lookup("Mercury Records") is None  # type: ignore[union-attr]
    assert [e.standard_name for e in a.list()] == ["Apple", "Apple Inc.", "Mercury"]
    # b is untouched
    assert b.lookup("Apple").entity.standard_name == "Apple Inc."  # type: ignore[union-attr]
    assert b.get("Mercury").type == "ORGANIZATION"  # type: ignore[union-attr]


def test_adding_aliases_to_a_shared_entity_writes_the_workspaces_copy(stores) -> None:
    shared, a, b = stores
    shared.upsert(entity("Tencent", "ORGANIZATION", "腾讯"))
    saved = a.upsert(entity("Tencent", "ORGANIZATION", "鹅厂"))
    assert set(saved.aliases) == {"腾讯", "鹅厂"}  # merged with the shared entity, not replacing it
    assert a.lookup("鹅厂").entity.standard_name == "Tencent"  # type: ignore[union-attr]
    assert b.lookup("鹅厂") is None and set(shared.get("Tencent").aliases) == {"腾讯"}  # type: ignore[union-attr]


def test_removing_a_shared_alias_in_a_workspace_leaves_the_shared_entity_alone(stores) -> None:
    shared, a, b = stores
    shared.upsert(entity("Tencent", "ORGANIZATION", "腾讯", "TCEHY"))
    removed = a.remove_aliases("Tencent", ["TCEHY"])
    assert removed is not None and removed.aliases == ["腾讯"]
    assert a.lookup("TCEHY") is None
    assert b.lookup("TCEHY").entity.standard_name == "Tencent"  # type: ignore[union-attr]
    assert a.remove_aliases("Nobody", ["x"]) is None


def test_delete_removes_the_workspaces_own_entity_and_the_shared_one_shows_again(stores) -> None:
    shared, a, _ = stores
    shared.upsert(entity("Mercury", "ORGANIZATION"))
    a.upsert(entity("Mercury", "LOCATION"))
    assert a.is_shared_only("Mercury") is False
    assert a.delete("Mercury") is True
    assert a.get("Mercury").type == "ORGANIZATION"  # type: ignore[union-attr]
    assert a.is_shared_only("Mercury") is True
    assert a.delete("Mercury") is False and shared.get("Mercury") is not None


def test_the_version_changes_with_either_store(stores) -> None:
    shared, a, b = stores
    before = a.version()
    shared.upsert(entity("Tencent"))
    after_shared = a.version()
    b.upsert(entity("Other"))
    assert a.version() == after_shared != before
    a.upsert(entity("Mine"))
    assert a.version() != after_shared
    # a gazetteer built earlier is rebuilt: a shared write shows in every workspace's lookups at once
    assert a.lookup("Tencent") is not None
    shared.upsert(entity("Baidu", "ORGANIZATION", "百度"))
    assert a.lookup("百度").entity.standard_name == "Baidu"  # type: ignore[union-attr]


def test_over_redis_each_workspace_has_its_own_prefix_and_clearing_one_leaves_the_rest(tmp_path: Path) -> None:
    import fakeredis

    from app.settings import Settings
    from graphs.stores.entities.redis_store import RedisEntityStore

    server = fakeredis.FakeServer()
    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]

    def store(prefix: str) -> RedisEntityStore:
        return RedisEntityStore(fakeredis.FakeRedis(server=server), prefix=prefix)

    shared = store(Settings.SHARED_ENTITY_PREFIX)
    default = OverlayEntityStore(store(settings.for_workspace("default").entity_prefix()), shared)
    a = OverlayEntityStore(store(settings.for_workspace("a").entity_prefix()), shared)
    ab = OverlayEntityStore(store(settings.for_workspace("ab").entity_prefix()), shared)
    shared.upsert(entity("Tencent", "ORGANIZATION", "腾讯"))
    default.upsert(entity("Old One"))
    a.upsert(entity("Only In A"))
    ab.upsert(entity("Only In AB"))
    assert [e.standard_name for e in a.list()] == ["Only In A", "Tencent"]
    assert [e.standard_name for e in default.list()] == ["Old One", "Tencent"]
    keys = {k.decode() for k in fakeredis.FakeRedis(server=server).keys("*")}
    assert any(k.startswith("aer:ws:a:") for k in keys) and any(k.startswith("aer:shared:") for k in keys)
    a.own.clear()  # what deleting workspace a does with Redis
    left = {k.decode() for k in fakeredis.FakeRedis(server=server).keys("*")}
    assert not any(k.startswith("aer:ws:a:") for k in left) and any(k.startswith("aer:ws:ab:") for k in left)
    assert [e.standard_name for e in ab.list()] == ["Only In AB", "Tencent"]
    assert [e.standard_name for e in default.list()] == ["Old One", "Tencent"]
    assert [e.standard_name for e in a.list()] == ["Tencent"]
