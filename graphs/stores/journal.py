"""The ingest journal: what makes document writes all-or-nothing across a crash.

A document lives in two stores that share no transaction: its chunks in Milvus and its node, text
and edges in the knowledge graph (SQLite). Each store's own write is atomic per call at best; a
process killed between (or during) them would leave a document half-indexed: some chunks, a mix of
old and new chunks, or chunks without a kg node. The journal closes that gap with a write-ahead
intent, the simplest design that needs nothing from Milvus:

1. ``journal_begin(batch, [("doc", id), ...])`` commits "these documents are being written" before
   the first write to any store;
2. the chunks go to Milvus, then the kg rows to SQLite;
3. ``journal_settle([batch])`` removes the intent once both writes have returned.

On the next start (and before this process's first write), recovery rolls back every document
still named by an unsettled batch: its chunks are deleted from Milvus and its node and edges from
the kg, so it is absent, never partial, and re-running the ingest adds it again. A crash between
the kg commit and the settle only rolls back documents that were complete, which is still
all-or-nothing. An entity write (entity store, then its mirror in the kg) is journaled the same
way and recovered forward: its kg node is rebuilt from the entity store, whose own write is one
SQLite/Redis transaction.

Rolling back instead of forward keeps recovery fast (no embedding at startup) and bounded (one
delete per document), and a poison document cannot crash every restart. The price: a re-ingest
interrupted by the crash removes the old version too. The journal lives in the knowledge graph's
SQLite file (one more table), on the kg's own connection, so its commits do not invalidate the
kg's caches. Recovery assumes one writing process per data dir, as Milvus Lite already requires (use
``--server`` while a server runs): another process opening the same graph.db would roll back the
batch the first one has in flight.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, runtime_checkable

JournalKind = Literal["doc", "entity"]
JournalEntry = tuple[JournalKind, str]
"""``("doc", document id)`` or ``("entity", standard name)``."""


@runtime_checkable
class IngestJournal(Protocol):
    """Durable write intents, one batch id per write."""

    def journal_begin(self, batch: str, entries: Sequence[JournalEntry]) -> None:
        """Record, durably, that ``entries`` are about to be written under ``batch``."""
        ...

    def journal_settle(self, batches: Sequence[str]) -> None:
        """Forget these batches: their writes finished (or were recovered)."""
        ...

    def journal_pending(self) -> list[tuple[str, JournalKind, str]]:
        """Every unsettled ``(batch, kind, key)``, oldest first."""
        ...
