"""select_evidence: from what the expansion reached, pick the minimal connected set of nodes that answers
the question (3–7), before second-stage retrieval. The LLM picks when configured and the expansion
returned many nodes; otherwise a graph-and-score heuristic builds a reasoning path from the best seed."""

from __future__ import annotations

import asyncio
import logging

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from graphs.domain import EvidenceSelection, KgNode, SelectedNode
from graphs.kg.base import KnowledgeGraph
from graphs.llm import LLM_ERRORS, structured_call
from graphs.prompts import fenced
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.expansion import doc_nodes, linked, neighborhoods
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate

log = logging.getLogger(__name__)


class PickedNode(BaseModel):
    node: str = Field(description="A node id from the list, e.g. doc:abc.")
    relevance: float = Field(ge=0.0, le=1.0, description="How much this node contributes to the answer.")


class EvidencePick(BaseModel):
    """The LLM's evidence selection."""

    selected_nodes: list[PickedNode] = Field(description="The fewest nodes that together answer the question (3 to 7).")
    reasoning_path: list[str] = Field(description="Node ids in the order the reasoning uses them.")
    excluded_nodes: list[str] = Field(default_factory=list, description="Node ids left out.")
    reasoning: str = Field(default="", description="One sentence on how the selected nodes connect.")


def _connected(node: KgNode, chosen: list[KgNode], near: dict[str, set[str]]) -> bool:
    """Named by the question, reached from a chosen node, or one hop from one in the knowledge graph."""
    if node.edge == "named":
        return True
    ids = {c.node for c in chosen}
    if node.via in ids or any(c.via == node.node for c in chosen):
        return True
    return any(linked(near, node.node, c.node) for c in chosen)


def heuristic_selection(
    kg: KnowledgeGraph, nodes: dict[str, KgNode], limits: RagLimits, comparison: bool = False
) -> EvidenceSelection:
    """Start at the best seed and add, best fused score first, nodes connected to the set so far. A
    comparison question takes the documents it names first: each side of the comparison is evidence."""
    docs = doc_nodes(nodes)
    if not docs:
        return EvidenceSelection(reasoning="no documents to select from")
    near = neighborhoods(kg, [n.node for n in docs], limits.neighbor_k)
    seeds = [n for n in docs if n.seed] or docs
    chosen = [seeds[0]]
    if comparison:
        chosen += [n for n in docs if n.edge == "named" and n not in chosen][: limits.evidence_max - 1]
    while len(chosen) < limits.evidence_max:
        nxt = next((n for n in docs if n not in chosen and _connected(n, chosen, near)), None)
        if nxt is None:
            break
        chosen.append(nxt)
    for n in docs:
        if len(chosen) >= limits.evidence_min:
            break
        if n not in chosen:
            chosen.append(n)
    path: list[str] = []
    for n in chosen:
        path += [p for p in n.path if p not in path]
    picked = {n.node for n in chosen}
    return EvidenceSelection(
        selected_nodes=[SelectedNode(node=n.node, relevance=round(min(1.0, n.combined), 4)) for n in chosen],
        reasoning_path=path,
        excluded_nodes=[n.node for n in docs if n.node not in picked],
        selector="heuristic",
        reasoning=f"from the best seed {chosen[0].name!r}, {len(chosen) - 1} connected node(s) by fused score",
    )


def _from_llm(pick: EvidencePick, nodes: dict[str, KgNode]) -> EvidenceSelection | None:
    valid = [p for p in pick.selected_nodes if p.node in nodes and nodes[p.node].doc_id]
    if not valid:
        return None
    chosen = {p.node for p in valid}
    return EvidenceSelection(
        selected_nodes=[SelectedNode(node=p.node, relevance=p.relevance) for p in valid],
        reasoning_path=[n for n in pick.reasoning_path if n in nodes],
        excluded_nodes=[n.node for n in doc_nodes(nodes) if n.node not in chosen],
        selector="llm",
        reasoning=pick.reasoning,
    )


SPEC = NodeSpec(purpose="select the minimal evidence among the graph nodes", uses_llm=True)


async def select_evidence(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Select the evidence (unless the request turned selection off)."""
    ctx = runtime.context
    assert ctx.kg is not None, "the graph route needs a knowledge graph"
    nodes = state.get("graph_nodes", {})
    if not state.get("use_evidence_selection", True):
        return {"evidence": EvidenceSelection(reasoning="evidence selection turned off by the request")}
    docs = doc_nodes(nodes)
    comparison = state["parsed"].intent == "comparison"
    heuristic = await asyncio.to_thread(heuristic_selection, ctx.kg, nodes, ctx.limits, comparison)
    if ctx.llm is None or len(docs) <= ctx.limits.evidence_max:
        return {"evidence": heuristic}
    listing = "\n".join(
        f"- {n.node} | {fenced(n.name)} | hop {n.hop} via {n.via or 'search'} | fused {n.combined:.2f} | "
        f"{fenced(n.text[:240])}"
        for n in docs[:20]
    )
    messages = [
        SystemMessage(ctx.prompts.render("select_evidence.system")),
        HumanMessage(ctx.prompts.render("select_evidence.user", question=state["question"], nodes=listing)),
    ]
    try:
        pick = await structured_call(ctx.llm, EvidencePick, messages, ctx.limits.llm_timeout_s)
    except LLM_ERRORS as exc:
        log.warning("select_evidence: LLM failed (%s); using the heuristic", type(exc).__name__)
        return {"evidence": heuristic, "degraded": ["select_evidence"], "llm_calls": 1}
    chosen = _from_llm(pick, nodes)
    if chosen is None:
        return {"evidence": heuristic, "degraded": ["select_evidence"], "llm_calls": 1}
    return {"evidence": chosen, "llm_calls": 1}


def summarize(update: RagUpdate) -> str:
    """Name the selection."""
    e: EvidenceSelection = update["evidence"]
    if not e.selected_nodes:
        return e.reasoning
    return f"{len(e.selected_nodes)} node(s) selected by the {e.selector}, {len(e.excluded_nodes)} excluded"
