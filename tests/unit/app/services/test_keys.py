"""The key store (hashed, revocable, constant-time) and ``authorize``, the one rule every surface applies."""

from __future__ import annotations

import hashlib
import hmac
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import ServiceError
from app.services import keys as keys_module
from app.services.keys import (
    ANONYMOUS,
    OPEN,
    OPEN_READS,
    KeyStore,
    Principal,
    StoredKeys,
    authorize,
    can_see,
    keys_file,
    principal_in,
    visible_workspaces,
)
from app.workspaces import NAME_PATTERN, check_workspace_name
from graphs.stores.base import StoreUnavailable


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KeyStore]:
    s = KeyStore(keys_file(tmp_path))
    yield s
    s.close()


def test_the_key_is_returned_once_and_only_its_digest_is_stored(tmp_path: Path, store: KeyStore) -> None:
    key, record = store.create("write", "alpha", "ci")
    assert key.startswith(f"aer_{record.id}_") and len(key) >= 4 + 12 + 1 + 40
    secret = key.rsplit("_", 1)[-1]
    store.close()
    # the db and its WAL/SHM: neither the key, its secret part, nor its hex digest are anywhere on disk; the raw
    # digest is (that is what a key is checked against)
    files = [p for p in tmp_path.iterdir() if p.name.startswith("keys.db")]
    raw = b"".join(p.read_bytes() for p in files)
    assert key.encode() not in raw and secret.encode() not in raw and secret[:16].encode() not in raw
    assert hashlib.sha256(key.encode()).hexdigest().encode() not in raw
    assert hashlib.sha256(key.encode()).digest() in raw
    assert stat.S_IMODE(keys_file(tmp_path).stat().st_mode) == 0o600
    again = KeyStore(keys_file(tmp_path))
    try:
        assert again.identify(key).id == record.id  # type: ignore[union-attr]
        assert [r.id for r in again.list()] == [record.id]
        assert "key" not in again.list()[0].as_dict() and key not in str(again.list()[0].as_dict())
    finally:
        again.close()


def test_identify_accepts_the_exact_key_only(store: KeyStore) -> None:
    key, record = store.create("read", "alpha")
    other, _ = store.create("admin", None)
    assert store.identify(key) is not None and store.identify(key).principal == Principal(record.id, "read", "alpha")  # type: ignore[union-attr]
    assert store.identify(other).principal.workspace is None  # type: ignore[union-attr]
    secret_flipped = key[:-1] + ("A" if key[-1] != "A" else "B")
    for wrong in (key[:-1], key + "x", secret_flipped, key.upper(), " " + key, "aer_" + "0" * 12 + key[16:],
                  key.replace(record.id, "zzzzzzzzzzzz"), "", "aer_", record.id, key[:17]):
        assert store.identify(wrong) is None, wrong


def test_digests_are_compared_in_constant_time_even_for_an_unknown_id(store: KeyStore,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    key, _ = store.create("read", "alpha")
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def recording(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(keys_module.hmac, "compare_digest", recording)
    assert store.identify(key) is not None
    assert store.identify("aer_" + "0" * 12 + key[16:]) is None  # a well-formed key of no stored id
    assert len(calls) == 2 and all(len(a) == len(b) == 32 for a, b in calls)


def test_a_revoked_key_is_refused_and_kept_in_the_list(store: KeyStore) -> None:
    key, record = store.create("write", "alpha", "laptop")
    assert store.active()
    revoked = store.revoke(record.id)
    assert revoked.revoked_at is not None and store.identify(key) is None and not store.active()
    assert store.list() == [] and [r.id for r in store.list(revoked=True)] == [record.id]
    assert store.revoke(record.id).revoked_at == revoked.revoked_at  # revoking again changes nothing
    with pytest.raises(ServiceError) as missing:
        store.revoke("000000000000")
    assert (missing.value.kind, missing.value.code) == ("not_found", "key_not_found")


def test_another_process_sees_a_new_key_and_a_revocation_at_once(tmp_path: Path) -> None:
    server = StoredKeys(tmp_path)
    assert server.store() is None and not server.active()  # no file yet: nothing opened, nothing created
    assert not keys_file(tmp_path).exists()
    cli = KeyStore(keys_file(tmp_path))
    key, record = cli.create("read", "default")
    assert server.active() and server.identify(key) is not None
    cli.revoke(record.id)
    assert server.identify(key) is None and not server.active()
    cli.close()
    server.close()


def test_last_used_is_written_at_most_once_a_minute(store: KeyStore, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(keys_module.time, "time", lambda: now[0])
    key, record = store.create("read", "alpha")
    assert store.get(record.id).last_used is None  # type: ignore[union-attr]
    store.identify(key)
    now[0] += 30
    store.identify(key)
    assert store.get(record.id).last_used == 1000.0  # type: ignore[union-attr]
    now[0] += 31
    store.identify(key)
    assert store.get(record.id).last_used == 1061.0  # type: ignore[union-attr]


@pytest.mark.parametrize(("role", "workspace", "label", "code"), [
    ("owner", "alpha", "", "invalid_role"),
    ("read", None, "", "workspace_required"),
    ("write", None, "", "workspace_required"),
    ("read", "Alpha", "", "invalid_workspace"),
    ("read", "../alpha", "", "invalid_workspace"),
    ("read", "a" * 33, "", "invalid_workspace"),
    ("read", "", "", "invalid_workspace"),
    ("read", "alpha", "x" * 201, "invalid_label"),
    ("read", "alpha", "two\nlines", "invalid_label"),
])
def test_create_refuses_what_no_key_may_be(store: KeyStore, role: str, workspace: str | None, label: str,
                                           code: str) -> None:
    with pytest.raises(ServiceError) as refused:
        store.create(role, workspace, label)
    assert (refused.value.kind, refused.value.code) == ("invalid", code)
    assert store.list(revoked=True) == []


def test_a_key_for_a_bad_workspace_name_is_refused_as_a_workspace_is(store: KeyStore) -> None:
    """One rule and one message for a workspace name, wherever it is written (here a key's scope)."""
    with pytest.raises(ServiceError) as refused:
        store.create("read", "Alpha", "")
    with pytest.raises(ServiceError) as as_workspace:
        check_workspace_name("Alpha")
    assert refused.value.message == as_workspace.value.message and "did you mean 'alpha'?" in refused.value.message
    assert refused.value.details == {"workspace": "Alpha", "pattern": NAME_PATTERN.pattern, "suggestion": "alpha"}


READ_A = Principal("a1", "read", "alpha")
WRITE_A = Principal("a2", "write", "alpha")
ADMIN_A = Principal("a3", "admin", "alpha")
ADMIN_ALL = Principal("a4", "admin", None)
LEGACY = Principal("key:0", "admin", None)
OK = None


@pytest.mark.parametrize(("principal", "workspace", "role", "documents", "outcome"), [
    # (principal, workspace, role, documents) -> None (allowed) or (status kind, code)
    (READ_A, "alpha", "read", False, OK),
    (READ_A, "alpha", "read", True, OK),
    (READ_A, "alpha", "write", False, ("forbidden", "forbidden")),
    (READ_A, "alpha", "admin", False, ("forbidden", "forbidden")),
    (READ_A, "beta", "read", False, ("not_found", "workspace_not_found")),
    (READ_A, "beta", "admin", False, ("not_found", "workspace_not_found")),  # 404 before 403: nothing learnt
    (READ_A, None, "admin", False, ("forbidden", "forbidden")),
    (WRITE_A, "alpha", "write", False, OK),
    (WRITE_A, "alpha", "admin", False, ("forbidden", "forbidden")),
    (WRITE_A, "beta", "write", False, ("not_found", "workspace_not_found")),
    (ADMIN_A, "alpha", "admin", False, OK),
    (ADMIN_A, "beta", "read", False, ("not_found", "workspace_not_found")),
    (ADMIN_A, None, "admin", False, ("forbidden", "forbidden")),  # creating workspaces: every workspace's admin
    (ADMIN_ALL, "beta", "admin", True, OK),
    (ADMIN_ALL, None, "admin", False, OK),
    (LEGACY, "anything", "write", True, OK),
    (OPEN, "beta", "admin", True, OK),
    (OPEN, None, "admin", False, OK),
    (ANONYMOUS, "default", "read", False, ("unauthorized", "unauthorized")),
    (OPEN_READS, "alpha", "read", False, OK),
    (OPEN_READS, "alpha", "read", True, ("unauthorized", "unauthorized")),  # documents' text: always a key
    (OPEN_READS, "alpha", "write", False, ("unauthorized", "unauthorized")),
    (OPEN_READS, None, "admin", False, ("unauthorized", "unauthorized")),
])
def test_authorize(principal: Principal, workspace: str | None, role: str, documents: bool,
                   outcome: tuple[str, str] | None) -> None:
    if outcome is None:
        authorize(principal, workspace, role, documents=documents)  # type: ignore[arg-type]
        return
    with pytest.raises(ServiceError) as refused:
        authorize(principal, workspace, role, documents=documents)  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.code) == outcome
    if outcome[1] == "workspace_not_found":
        # one body for every other name, existing or not: nothing says it exists; the key is told its own
        # workspace (its holder's to know: /api/workspaces lists it), never told to create one it may not
        own = principal.workspace
        assert refused.value.message == (f"no workspace {workspace!r} for this key: it is for workspace {own!r} only "
                                         f"(name {own!r}, or no workspace at all)")
        assert refused.value.details == {"workspace": workspace, "keyWorkspace": own}


def test_visibility_follows_the_scope() -> None:
    names = ["default", "alpha", "beta"]
    assert visible_workspaces(READ_A, names) == ["alpha"] and visible_workspaces(ADMIN_A, names) == ["alpha"]
    assert visible_workspaces(ADMIN_ALL, names) == names and visible_workspaces(OPEN, names) == names
    assert visible_workspaces(ANONYMOUS, names) == [] and not can_see(READ_A, "beta")


def test_a_request_no_guard_saw_is_anonymous_and_no_request_is_the_local_user() -> None:
    class State:
        pass

    class Req:
        state = State()

    assert principal_in(None) == OPEN and principal_in(Req()) == ANONYMOUS
    Req.state.principal = READ_A  # type: ignore[attr-defined]
    assert principal_in(Req()) == READ_A


def test_a_last_used_that_cannot_be_written_does_not_refuse_a_valid_key(store: KeyStore,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    key, record = store.create("read", "alpha")

    def busy() -> None:
        raise StoreUnavailable("keys", "database is locked")

    monkeypatch.setattr(store, "_write", busy)
    assert store.identify(key) == record  # the read decides; the bookkeeping write failed (logged)
    monkeypatch.undo()
    with pytest.raises(StoreUnavailable):  # a store that cannot be read is an outage, never "no key"
        store.close()
        store.identify(key)
