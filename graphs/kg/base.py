"""The knowledge-graph interface the graph stages use; SQLite backs it by default."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

NodeKind = Literal["doc", "entity"]
EdgeKind = Literal["mentions", "title_link", "co_occurs", "related", "parent", "titled"]
"""``mentions``: doc → entity it names; ``title_link``: doc → doc whose title its text contains;
``co_occurs``: entity ↔ entity named in the same document; ``related``: entity → related entity
(entity store / metadata ``relatedEntities``); ``parent``: entity → its parent in a hierarchy;
``titled``: doc → the entity node named by its title."""

EDGE_KINDS: tuple[EdgeKind, ...] = ("mentions", "title_link", "co_occurs", "related", "parent", "titled")


def doc_node(doc_id: str) -> str:
    """The node id of a document."""
    return f"doc:{doc_id}"


def entity_node(name: str) -> str:
    """The node id of an entity (its standard name, case-folded and trimmed)."""
    return f"entity:{' '.join(name.split()).casefold()}"


def node_kind(node_id: str) -> NodeKind:
    """``doc`` or ``entity`` from a node id."""
    return "doc" if node_id.startswith("doc:") else "entity"


def doc_id_of(node_id: str) -> str | None:
    """The document id of a document node, else None."""
    return node_id[4:] if node_id.startswith("doc:") else None


@dataclass(frozen=True)
class KgDocument:
    """What the kg needs from one ingested document."""

    doc_id: str
    title: str
    text: str
    entities: Sequence[str] = ()
    """Standard names of the entities the document names (metadata, entity store, extraction)."""
    related: Sequence[tuple[str, str]] = ()
    """(entity, related entity) pairs from the document's metadata."""


@dataclass(frozen=True)
class Neighbor:
    """One edge out of (or into) a node, seen from that node."""

    node: str
    name: str
    kind: NodeKind
    edge: EdgeKind
    direction: Literal["out", "in"]
    weight: float = 1.0


class KnowledgeGraph(Protocol):
    """A property graph of documents and entities. Implementations must be safe to call from
    worker threads; ``neighbors`` is the hot path and is cached until the next write."""

    def add_documents(self, docs: Sequence[KgDocument]) -> None:
        """Add or replace documents: their nodes, mentions, co-occurrences and title links in
        both directions (this text naming an existing title, and existing texts naming this title)."""
        ...

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document's node and every edge it contributed; entity nodes left without
        edges are dropped. True when the document was there."""
        ...

    def upsert_entity(self, name: str, *, related: Sequence[str] = (), parent: str | None = None) -> None:
        """Add an entity node with its related-entity and parent edges (from the entity store)."""
        ...

    def set_mentions(self, name: str, *, add: Sequence[str] = (), remove: Sequence[str] = ()) -> None:
        """Record that the documents ``add`` mention entity ``name`` and that ``remove`` no longer do (a name
        re-tagged after ingest: a new entity or alias, a removed alias)."""
        ...

    def neighbors(self, node_id: str, *, edges: Sequence[EdgeKind] | None = None, limit: int = 50) -> list[Neighbor]:
        """One hop from ``node_id`` in both directions, strongest first, at most ``limit``."""
        ...

    def find_nodes(self, text: str, *, limit: int = 20) -> list[tuple[str, str]]:
        """Nodes whose name (document title or entity name) occurs in ``text`` as a whole word or
        CJK run, longest first: ``[(node_id, name)]``. The breadth step's lexical match on node names."""
        ...

    def name(self, node_id: str) -> str | None:
        """A node's display name (a document's title, an entity's standard name)."""
        ...

    def delete_entity(self, name: str) -> None:
        """Forget an entity deleted from the store: its related/parent edges, the mentions and co-occurrences its
        tags gave it (a document titled by its name keeps its ``titled`` edge); a node left alone is dropped."""
        ...

    def edge_documents(self, node_id: str, others: Sequence[str]) -> dict[tuple[str, EdgeKind], list[str]]:
        """The documents behind each edge between ``node_id`` and one of ``others``: (other node, edge kind) →
        the ids of the documents that contributed it (empty for an entity-store edge)."""
        ...



    def close(self) -> None: ...
