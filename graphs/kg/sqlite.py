"""The knowledge graph in one SQLite file: nodes, edges and a trigram index of document texts.

Every write runs in one ``BEGIN IMMEDIATE`` transaction. Title links are found in both directions:
forward by looking the new text's n-grams up in an in-memory index of every node name (loaded
lazily, kept in step with writes), reverse by asking the FTS5 trigram table which stored texts
contain the new title and verifying each candidate at word boundaries in Python.
"""

from __future__ import annotations

import functools
import itertools
import logging
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from graphs.kg.base import (
    EDGE_KINDS,
    EdgeKind,
    KgDocument,
    Neighbor,
    doc_id_of,
    doc_node,
    entity_node,
    node_kind,
)
from graphs.kg.mentions import MentionIndex, contains_key, fold, join_tokens, name_key, tokenize
from graphs.stores.journal import JournalEntry, JournalKind
from graphs.stores.sqlite import LockedSQLite, transaction

logger = logging.getLogger(__name__)

MAX_CO_OCCURRING = 15
"""Co-occurrence edges join only the first this many entities of a document (at most 105 pairs)."""
NEIGHBOR_CACHE_SIZE = 4096
_SCAN_BATCH = 64  # short titles per full scan of the texts: one scan answers many of them

_SCHEMA = """
CREATE TABLE IF NOT EXISTS nodes (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  from_store INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS edges (
  src TEXT NOT NULL,
  dst TEXT NOT NULL,
  kind TEXT NOT NULL,
  weight REAL NOT NULL DEFAULT 1,
  source_doc TEXT,
  source TEXT NOT NULL CHECK (source IN ('doc', 'entity_store'))
);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src, kind);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst, kind);
CREATE INDEX IF NOT EXISTS edges_source_doc ON edges(source_doc);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_text USING fts5(body, tokenize='trigram');
CREATE TABLE IF NOT EXISTS ingest_journal (
  batch TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('doc', 'entity')),
  key TEXT NOT NULL,
  started REAL NOT NULL,
  PRIMARY KEY (batch, kind, key)
);
INSERT INTO doc_text (doc_text, rank) VALUES ('automerge', 2);
"""
# automerge=2 merges index segments more eagerly: inserts cost ~0.3 ms more per document, and each
# reverse title lookup ~1 ms less at 20k documents (fewer segments to read per trigram).

# Both directions of one node, summed per (neighbor, edge kind, direction); co-occurrence is
# symmetric, so it reads as "out" from either end.
_NEIGHBORS = """
SELECT n.id, n.name, n.kind, x.kind, x.direction, x.weight FROM (
  SELECT dst AS node, kind, 'out' AS direction, SUM(weight) AS weight
    FROM edges WHERE src = :node {kinds} GROUP BY dst, kind
  UNION ALL
  SELECT src, kind, CASE kind WHEN 'co_occurs' THEN 'out' ELSE 'in' END, SUM(weight)
    FROM edges WHERE dst = :node {kinds} GROUP BY src, kind
) AS x JOIN nodes AS n ON n.id = x.node
ORDER BY x.weight DESC, n.name, n.id, x.kind, x.direction
LIMIT :limit
"""

Edge = tuple[str, str, EdgeKind]


@dataclass(frozen=True, slots=True)
class _Prepared:
    """A document with its title key and tokens, computed before taking the write lock."""

    doc: KgDocument
    node: str
    key: str | None
    title_tokens: list[str]
    text_tokens: list[str]

    @classmethod
    def of(cls, doc: KgDocument) -> _Prepared:
        return cls(
            doc,
            doc_node(doc.doc_id),
            name_key(doc.title),
            tokenize(fold(doc.title)),
            tokenize(fold(doc.text)),
        )

    @property
    def body(self) -> str:
        """What the trigram table holds; the newline keeps a title from running into the text."""
        return f"{join_tokens(self.title_tokens)}\n{join_tokens(self.text_tokens)}"


class SQLiteKnowledgeGraph(LockedSQLite):
    """KnowledgeGraph in a SQLite file (WAL), safe to share between threads."""

    SCHEMA = _SCHEMA
    STORE = "knowledge graph"

    def __init__(self, path: str | Path, *, timeout: float = 5.0) -> None:
        self._generation = 0  # bumped by every write here and by writes seen from other connections
        self._data_version = 0
        self._names: MentionIndex | None = None
        self._neighbors = functools.lru_cache(maxsize=NEIGHBOR_CACHE_SIZE)(self._load_neighbors)
        super().__init__(path, timeout=timeout)
        try:
            self._data_version = self._read_data_version()
        except sqlite3.Error as exc:
            raise self._unavailable(exc) from exc

    # -- connection plumbing (``_read``: LockedSQLite's, which notices other connections' commits) ----------

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Run the block in one BEGIN IMMEDIATE transaction; roll back (and drop the name index) on error."""
        with self._read() as conn:
            try:
                with transaction(conn):
                    self._synced()  # another process may have committed between the check above and BEGIN
                    yield conn
            except BaseException:
                self._names = None  # it may hold names of the rolled-back write
                raise
            finally:
                self._generation += 1

    def _loaded(self) -> None:
        """After ``copy_from``: the name index and the neighbor cache describe the graph before it."""
        self._names = None
        self._generation += 1

    def _read_data_version(self) -> int:
        return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def _synced(self) -> None:
        """Drop caches when another connection (another process) has committed since we last looked."""
        version = self._read_data_version()
        if version != self._data_version:
            self._data_version = version
            self._generation += 1
            self._names = None

    def _name_index(self, conn: sqlite3.Connection) -> MentionIndex:
        """The in-memory name index of every node, loaded on first use."""
        if self._names is None:
            started = time.perf_counter()
            names = MentionIndex()
            for node, name in conn.execute("SELECT id, name FROM nodes"):
                key = name_key(name)
                if key is not None:
                    names.add(key, node)
            self._names = names
            logger.debug(
                "graph name index loaded: %d names, %.1f ms",
                len(names),
                (time.perf_counter() - started) * 1000,
            )
        return self._names

    # -- writes --------------------------------------------------------------------------------

    def add_documents(self, docs: Sequence[KgDocument]) -> None:
        """Add or replace documents: nodes, mentions, co-occurrences, related edges and title links."""
        # A repeated id: the last version wins, as it would one document at a time.
        prepared = [_Prepared.of(doc) for doc in {d.doc_id: d for d in docs}.values()]
        if not prepared:
            return
        with self._write() as conn:
            names = self._name_index(conn)
            touched: set[str] = set()
            for p in prepared:
                touched |= self._remove_document(conn, names, p.doc.doc_id, keep_node=True)[1]
            for p in prepared:
                self._insert_document(conn, names, p)
            links = self._forward_links(names, prepared) | self._reverse_links(conn, prepared)
            conn.executemany(
                "INSERT INTO edges (src, dst, kind, weight, source_doc, source) "
                "VALUES (?, ?, 'title_link', 1, ?, 'doc')",
                [(src, dst, doc_id_of(src)) for src, dst in sorted(links)],
            )
            self._drop_orphans(conn, names, touched)

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document, the edges it contributed and the title links into it; True if it was there."""
        with self._write() as conn:
            names = self._name_index(conn)
            existed, touched = self._remove_document(conn, names, doc_id, keep_node=False)
            self._drop_orphans(conn, names, touched)
        return existed

    def upsert_entity(self, name: str, *, related: Sequence[str] = (), parent: str | None = None) -> None:
        """Add an entity-store entity; its related and parent edges replace the ones it had."""
        name = name.strip()
        if not name:
            raise ValueError("entity name is blank")
        node = entity_node(name)
        with self._write() as conn:
            names = self._name_index(conn)
            old = conn.execute(
                "SELECT dst FROM edges WHERE src = ? AND source = 'entity_store'", (node,)
            ).fetchall()
            conn.execute("DELETE FROM edges WHERE src = ? AND source = 'entity_store'", (node,))
            previous = conn.execute("SELECT name FROM nodes WHERE id = ?", (node,)).fetchone()
            conn.execute(
                "INSERT INTO nodes (id, kind, name, from_store) VALUES (?, 'entity', ?, 1) "
                "ON CONFLICT(id) DO UPDATE SET name = excluded.name, from_store = 1",
                (node, name),
            )
            _reindex(names, node, previous[0] if previous else None, name)
            targets: list[tuple[str, EdgeKind]] = [(r, "related") for r in related if r.strip()]
            if parent and parent.strip():
                targets.append((parent, "parent"))
            edges: dict[Edge, None] = {}
            for target, kind in targets:
                dst = self._ensure_entity(conn, names, target)
                if dst != node:
                    edges[(node, dst, kind)] = None
            conn.executemany(
                "INSERT INTO edges (src, dst, kind, weight, source_doc, source) "
                "VALUES (?, ?, ?, 1, NULL, 'entity_store')",
                list(edges),
            )
            self._drop_orphans(conn, names, {r[0] for r in old})

    def set_mentions(self, name: str, *, add: Sequence[str] = (), remove: Sequence[str] = ()) -> None:
        """Add the documents' ``mentions`` edges to an entity, and drop those of ``remove`` (documents not in
        the graph are skipped)."""
        if not add and not remove:
            return
        with self._write() as conn:
            names = self._name_index(conn)
            node = self._ensure_entity(conn, names, name)
            known = {r[0] for r in conn.execute(
                f"SELECT id FROM nodes WHERE id IN ({','.join('?' * len([*add, *remove]))})",
                [doc_node(d) for d in [*add, *remove]])}
            conn.executemany("DELETE FROM edges WHERE src = ? AND dst = ? AND kind = 'mentions' AND source = 'doc'",
                             [(doc_node(d), node) for d in remove])
            conn.executemany(
                "INSERT INTO edges (src, dst, kind, weight, source_doc, source) "
                "SELECT ?, ?, 'mentions', 1, ?, 'doc' WHERE NOT EXISTS (SELECT 1 FROM edges WHERE src = ? AND dst = ? "
                "AND kind = 'mentions')",
                [(doc_node(d), node, d, doc_node(d), node) for d in add if doc_node(d) in known])
            self._drop_orphans(conn, names, {node})

    def _insert_document(self, conn: sqlite3.Connection, names: MentionIndex, p: _Prepared) -> None:
        """Write one document's node, text and the edges it contributes (all but title links)."""
        doc = p.doc
        title = doc.title.strip()
        conn.execute(
            "INSERT INTO nodes (id, kind, name) VALUES (?, 'doc', ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            (p.node, title),
        )
        (rowid,) = conn.execute("SELECT rowid FROM nodes WHERE id = ?", (p.node,)).fetchone()
        conn.execute("INSERT INTO doc_text (rowid, body) VALUES (?, ?)", (rowid, p.body))
        if p.key is not None:
            names.add(p.key, p.node)
        edges: dict[Edge, None] = {}
        if title:
            edges[(p.node, self._ensure_entity(conn, names, title), "titled")] = None
        mentioned = list(
            dict.fromkeys(self._ensure_entity(conn, names, e) for e in doc.entities if e.strip())
        )
        for entity in mentioned:
            edges[(p.node, entity, "mentions")] = None
        for a, b in itertools.combinations(sorted(mentioned[:MAX_CO_OCCURRING]), 2):
            edges[(a, b, "co_occurs")] = None
        for a, b in doc.related:
            if a.strip() and b.strip():
                src, dst = self._ensure_entity(conn, names, a), self._ensure_entity(conn, names, b)
                if src != dst:
                    edges[(src, dst, "related")] = None
        conn.executemany(
            "INSERT INTO edges (src, dst, kind, weight, source_doc, source) VALUES (?, ?, ?, 1, ?, 'doc')",
            [(src, dst, kind, doc.doc_id) for src, dst, kind in edges],
        )

    def _ensure_entity(self, conn: sqlite3.Connection, names: MentionIndex, name: str) -> str:
        """The entity node of ``name``, created (with this display name) if new."""
        node = entity_node(name)
        created = conn.execute(
            "INSERT INTO nodes (id, kind, name) VALUES (?, 'entity', ?) ON CONFLICT(id) DO NOTHING",
            (node, name.strip()),
        ).rowcount
        if created:
            _reindex(names, node, None, name)
        return node

    def _remove_document(
        self, conn: sqlite3.Connection, names: MentionIndex, doc_id: str, *, keep_node: bool
    ) -> tuple[bool, set[str]]:
        """Delete a document's text, contributed edges and incoming title links (and its node unless
        ``keep_node``); return whether it existed and the entity nodes those edges touched."""
        node = doc_node(doc_id)
        row = conn.execute("SELECT rowid, name FROM nodes WHERE id = ?", (node,)).fetchone()
        touched = {
            n
            for src, dst in conn.execute("SELECT src, dst FROM edges WHERE source_doc = ?", (doc_id,))
            for n in (src, dst)
            if node_kind(n) == "entity"
        }
        conn.execute("DELETE FROM edges WHERE source_doc = ?", (doc_id,))
        conn.execute("DELETE FROM edges WHERE dst = ? AND kind = 'title_link'", (node,))
        if row is not None:
            conn.execute("DELETE FROM doc_text WHERE rowid = ?", (row[0],))
            _reindex(names, node, row[1], None)
        if not keep_node:
            conn.execute("DELETE FROM nodes WHERE id = ?", (node,))
        return row is not None, touched

    def _drop_orphans(self, conn: sqlite3.Connection, names: MentionIndex, candidates: Iterable[str]) -> None:
        """Delete entity nodes left without edges, unless the entity store added them."""
        for node in sorted(candidates):
            row = conn.execute(
                "DELETE FROM nodes WHERE id = :n AND kind = 'entity' AND from_store = 0 "
                "AND NOT EXISTS (SELECT 1 FROM edges WHERE src = :n) "
                "AND NOT EXISTS (SELECT 1 FROM edges WHERE dst = :n) RETURNING name",
                {"n": node},
            ).fetchone()
            if row is not None:
                _reindex(names, node, row[0], None)

    # -- title links ---------------------------------------------------------------------------

    @staticmethod
    def _forward_links(names: MentionIndex, prepared: Sequence[_Prepared]) -> set[tuple[str, str]]:
        """(this doc, other doc) for every other document title named in this title or text."""
        links: set[tuple[str, str]] = set()
        for p in prepared:
            for tokens in (p.title_tokens, p.text_tokens):
                for ids in names.find_tokens(tokens).values():
                    links.update(
                        (p.node, other) for other in ids if other.startswith("doc:") and other != p.node
                    )
        return links

    @staticmethod
    def _reverse_links(conn: sqlite3.Connection, prepared: Sequence[_Prepared]) -> set[tuple[str, str]]:
        """(stored doc, this doc) for every stored text that names this document's title."""
        links: set[tuple[str, str]] = set()
        keyed = [p for p in prepared if p.key is not None]
        for p in keyed:
            if len(p.key or "") >= 3:
                rows = conn.execute(
                    "SELECT n.id, t.body FROM doc_text AS t JOIN nodes AS n ON n.rowid = t.rowid "
                    "WHERE doc_text MATCH ?",
                    (f'"{p.key}"',),  # keys are letters, digits and spaces: nothing to escape
                )
                links.update(
                    (src, p.node) for src, body in rows if src != p.node and contains_key(body, p.key or "")
                )
        # Too short for a trigram: one scan per group of titles. instr(), not LIKE: SQLite 3.40's
        # FTS5 plans LIKE '%北京%' as a trigram query by byte length and finds nothing.
        short = [p for p in keyed if len(p.key or "") < 3]
        for start in range(0, len(short), _SCAN_BATCH):
            group = short[start : start + _SCAN_BATCH]
            where = " OR ".join(["instr(t.body, ?) > 0"] * len(group))
            rows = conn.execute(
                f"SELECT n.id, t.body FROM doc_text AS t JOIN nodes AS n ON n.rowid = t.rowid WHERE {where}",
                [p.key for p in group],
            )
            for src, body in rows:
                links.update(
                    (src, p.node) for p in group if src != p.node and contains_key(body, p.key or "")
                )
        return links

    # -- reads ---------------------------------------------------------------------------------

    def neighbors(
        self, node_id: str, *, edges: Sequence[EdgeKind] | None = None, limit: int = 50
    ) -> list[Neighbor]:
        """One hop from ``node_id`` both ways, strongest first then by name; cached until the next write."""
        kinds = None if edges is None else tuple(sorted(set(edges)))
        if kinds is not None and (unknown := set(kinds) - set(EDGE_KINDS)):
            raise ValueError(f"unknown edge kinds: {sorted(unknown)}")
        if limit <= 0 or kinds == ():
            return []
        with self._read():
            generation = self._generation
        return list(self._neighbors(node_id, kinds, limit, generation))

    def _load_neighbors(
        self, node_id: str, kinds: tuple[EdgeKind, ...] | None, limit: int, generation: int
    ) -> tuple[Neighbor, ...]:
        """Query one node's neighbors (the generation is only part of the cache key)."""
        params: dict[str, object] = {"node": node_id, "limit": limit}
        clause = ""
        if kinds is not None:
            params |= {f"k{i}": k for i, k in enumerate(kinds)}
            clause = f"AND kind IN ({', '.join(f':k{i}' for i in range(len(kinds)))})"
        with self._read() as conn:
            rows = conn.execute(_NEIGHBORS.format(kinds=clause), params).fetchall()
        return tuple(
            Neighbor(node=n, name=name, kind=kind, edge=edge, direction=direction, weight=float(weight))
            for n, name, kind, edge, direction, weight in rows
        )

    def find_nodes(self, text: str, *, limit: int = 20) -> list[tuple[str, str]]:
        """Nodes whose name occurs in ``text`` (whole words for Latin, substrings for CJK), longest first."""
        if limit <= 0:
            return []
        with self._read() as conn:
            found = self._name_index(conn).find(text)
            ranked = [
                node for key in sorted(found, key=lambda k: (-len(k), k)) for node in sorted(found[key])
            ]
            ranked = list(dict.fromkeys(ranked))[:limit]
            display = self._names_of(conn, ranked)
        return [(node, display[node]) for node in ranked if node in display]

    @staticmethod
    def _names_of(conn: sqlite3.Connection, nodes: Sequence[str]) -> dict[str, str]:
        if not nodes:
            return {}
        marks = ", ".join("?" * len(nodes))
        return dict(conn.execute(f"SELECT id, name FROM nodes WHERE id IN ({marks})", list(nodes)).fetchall())

    def name(self, node_id: str) -> str | None:
        """A node's display name (a document's title, an entity's name), None if there is no such node."""
        with self._read() as conn:
            row = conn.execute("SELECT name FROM nodes WHERE id = ?", (node_id,)).fetchone()
        return row[0] if row else None

    def delete_entity(self, name: str) -> None:
        """Drop an entity's store edges and the mentions/co-occurrences its tags gave it (``titled`` stays)."""
        node = entity_node(name)
        with self._write() as conn:
            names = self._name_index(conn)
            touched = {n for src, dst in conn.execute(
                "SELECT src, dst FROM edges WHERE (src = :n OR dst = :n) AND kind != 'titled'", {"n": node})
                for n in (src, dst) if node_kind(n) == "entity"}
            conn.execute("DELETE FROM edges WHERE (src = :n OR dst = :n) AND kind != 'titled'", {"n": node})
            conn.execute("UPDATE nodes SET from_store = 0 WHERE id = ?", (node,))
            self._drop_orphans(conn, names, touched | {node})

    def edge_documents(self, node_id: str, others: Sequence[str]) -> dict[tuple[str, EdgeKind], list[str]]:
        """(other node, edge kind) → the documents that contributed an edge between ``node_id`` and it."""
        out: dict[tuple[str, EdgeKind], list[str]] = {}
        if not others:
            return out
        marks = ",".join("?" * len(others))
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT dst, kind, source_doc FROM edges WHERE src = ? AND dst IN ({marks}) "
                f"UNION SELECT src, kind, source_doc FROM edges WHERE dst = ? AND src IN ({marks}) "
                "ORDER BY 1, 2, 3", [node_id, *others, node_id, *others]).fetchall()
        for other, kind, doc in rows:
            docs = out.setdefault((other, cast(EdgeKind, kind)), [])
            if doc is not None and doc not in docs:
                docs.append(doc)
        return out

    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be read."""
        with self._read() as conn:
            conn.execute("SELECT 1").fetchone()

    # -- ingest journal (graphs.stores.journal.IngestJournal) ---------------------------------------

    @contextmanager
    def _journal(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the kg's connection that leaves the kg's caches alone (the
        journal is another table: no node, edge or name changes)."""
        with self._lock:
            try:
                with transaction(self._conn) as conn:
                    yield conn
            except sqlite3.Error as exc:
                raise self._unavailable(exc) from exc

    def journal_begin(self, batch: str, entries: Sequence[JournalEntry]) -> None:
        """Record, in one commit, that ``entries`` (kind, key) are about to be written under ``batch``."""
        now = time.time()
        with self._journal() as conn:
            conn.executemany(
                "INSERT OR IGNORE INTO ingest_journal (batch, kind, key, started) VALUES (?, ?, ?, ?)",
                [(batch, kind, key, now) for kind, key in entries],
            )

    def journal_settle(self, batches: Sequence[str]) -> None:
        """Forget these batches."""
        if not batches:
            return
        with self._journal() as conn:
            conn.executemany("DELETE FROM ingest_journal WHERE batch = ?", [(b,) for b in batches])

    def journal_pending(self) -> list[tuple[str, JournalKind, str]]:
        """Every unsettled (batch, kind, key), oldest first."""
        with self._read() as conn:
            rows = conn.execute(
                "SELECT batch, kind, key FROM ingest_journal ORDER BY started, batch, kind, key"
            ).fetchall()
        return [(str(b), cast(JournalKind, k), str(key)) for b, k, key in rows]

    def close(self) -> None:
        """Close the connection; later calls raise StoreUnavailable."""
        with self._lock:
            super().close()
            self._neighbors.cache_clear()


def _reindex(names: MentionIndex, node: str, old: str | None, new: str | None) -> None:
    """Move a node's entry in the name index from its old name to its new one."""
    old_key = name_key(old) if old else None
    new_key = name_key(new) if new else None
    if old_key != new_key:
        if old_key is not None:
            names.discard(old_key, node)
        if new_key is not None:
            names.add(new_key, node)
