"""The knowledge graph as the page's workbench shows it: one hop around an entity or a document."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
)


class KgNode(Wire):
    id: str = Field(description="The node id: doc:<document id> or entity:<folded name>.")
    name: str = Field(description="A document's title or an entity's name.")
    kind: Literal["doc", "entity"]
    doc_id: str | None = Field(default=None, description="A document node's document id.")
    aliases: list[str] = Field(default_factory=list, description="An entity's aliases in the entity store.")


class KgPassage(Wire):
    """A passage of a document behind an edge: the chunk that names the edge's other end (or its first)."""

    doc_id: str
    title: str
    chunk_id: str
    text: str


class KgEdge(Wire):
    source: str = Field(description="The node id the edge leaves.")
    target: str = Field(description="The node id the edge enters.")
    kind: str = Field(description="mentions, title_link, co_occurs, related, parent or titled.")
    weight: float
    documents: list[str] = Field(default_factory=list, description="The documents that gave this edge (none for "
                                 "an edge from the entity store: a related entity or a parent).")
    passages: list[KgPassage] = Field(default_factory=list, description="A passage of each of those documents.")


class KgNeighbourhood(Wire):
    """One hop of the knowledge graph (SQLite, built at ingest) around an entity or a document."""

    success: Literal[True] = True
    center: KgNode
    nodes: list[KgNode] = Field(description="The center first, then its neighbours, strongest edge first.")
    edges: list[KgEdge]
    truncated: bool = Field(description="More neighbours exist than ``limit``.")
