"""What the searches return: hits, search records, score fusion and the knowledge-graph route's nodes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphs.domain.model import Model


class Hit(Model):
    id: str
    doc_id: str
    title: str = ""
    text: str
    score: float
    channel: Literal["structured", "semantic", "hybrid", "bm25", "graph"]
    dense_score: float | None = None
    bm25_score: float | None = None
    graph_score: float | None = None
    hop: int | None = None
    """Graph route: edges from the nearest seed (0 for a seed)."""
    path: list[str] | None = None
    """Graph route: the nodes from a seed to this result."""
    reranked_score: float | None = None
    relevance_explanation: str | None = None
    date: int | None = None
    entities: dict[str, list[str]] = Field(default_factory=dict)
    source: str | None = None
    """The file the chunk came from (its path under the ingest root, or the uploaded name)."""
    section: str | None = None
    """The heading path of the chunk's section (``Setup > Install``), when the document has headings."""
    page: int | None = None
    """The 1-based page of a PDF chunk."""


class SearchRecord(Model):
    channel: Literal["structured", "semantic", "hybrid", "bm25", "graph"]
    filter: str | None
    count: int
    duration_ms: float


class FusionWeights(Model):
    """Cross-layer score fusion: ``combined = vector·v + fts·f + graph·g``; graph score 1.0 for a seed and
    ``decay^(hop+1)`` for a node ``hop`` edges away from the nearest seed."""

    vector: float = Field(default=0.5, ge=0.0, le=1.0)
    fts: float = Field(default=0.2, ge=0.0, le=1.0)
    graph: float = Field(default=0.3, ge=0.0, le=1.0)
    decay: float = Field(default=0.5, gt=0.0, le=1.0)

    def graph_score(self, hop: int) -> float:
        """1.0 for a seed (hop 0), else ``decay^(hop+1)``."""
        return 1.0 if hop == 0 else self.decay ** (hop + 1)

    def combine(self, vector: float, fts: float, graph: float) -> float:
        """The fused score of one node or chunk."""
        return self.vector * vector + self.fts * fts + self.graph * graph


class KgNode(Model):
    """A knowledge-graph node reached by the graph route, with its fused score's components."""

    node: str
    name: str
    doc_id: str | None = None
    chunk_id: str | None = None
    text: str = ""
    """The best chunk's text (what the sufficiency judgment and the evidence selector read)."""
    hop: int = 0
    seed: bool = False
    via: str | None = None
    edge: str | None = None
    path: list[str] = Field(default_factory=list)
    vector: float = 0.0
    fts: float = 0.0
    graph: float = 0.0
    combined: float = 0.0


ExpansionDecision = Literal["sufficient", "expand", "stop"]


class ExpansionStep(Model):
    """One sufficiency judgment of the adaptive expansion."""

    depth: int
    decision: ExpansionDecision
    num_results: int
    reason: str
    judge: Literal["llm", "rules"] = "rules"
    frontier: list[str] = Field(default_factory=list)
    coverage: float | None = None


class SelectedNode(Model):
    node: str
    relevance: float = Field(ge=0.0, le=1.0)


class EvidenceSelection(Model):
    """The minimal set of graph nodes that answers the question, and why."""

    selected_nodes: list[SelectedNode] = Field(default_factory=list)
    reasoning_path: list[str] = Field(default_factory=list)
    excluded_nodes: list[str] = Field(default_factory=list)
    selector: Literal["llm", "heuristic"] = "heuristic"
    reasoning: str = ""
