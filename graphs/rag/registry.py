"""What each node declares about itself, collected from ``graphs/rag/nodes/``.

Every node module holds its function (named like the module), a ``summarize(update) -> str`` (its step's
summary: the streamed step event and the page's timeline) and a ``SPEC = NodeSpec(...)``: what the step is for,
whether it calls an LLM, which state key holds its per-run record, how the page labels it. The rest of the
service derives from these declarations instead of keeping its own lists: the metrics and the response tell an
LLM failure from another degradation by ``uses_llm``, the trajectories take a step's thought and record from the
spec, and the page draws the labels and flags that ``GET /graph`` serves from it.

So adding a node is its module (with ``SPEC`` and ``summarize``) and its line in the wiring (``graph.py`` or
``one_path.py``); a test checks that the wired nodes and the registered modules are the same set.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any, Literal

NodeRecord = Literal["decisions", "searches", "expansion", "sufficiency", "outcomes", "reflections", "team_config",
                 "plan"]
"""A state key that holds what a node decided or found, one entry per run of the node (``team_config`` and
``plan``: the one value of the run)."""


@dataclass(frozen=True)
class NodeSpec:
    """What one node module declares; everything outside the graph that describes a node reads it."""

    purpose: str
    """What the step is for, as the trajectory's Thought when its record says nothing more specific."""
    uses_llm: bool = False
    """The node calls the LLM when one is configured: its ``degraded`` entry means that call failed."""
    record: NodeRecord | None = None
    """The state key in which each run of the node leaves its record (its decision, its search...)."""
    search_channel: str | None = None
    """A search node: the channel its one ``SearchRecord`` per run is about."""
    label: str | None = None
    """The node's name on the page (default: the node's name)."""


@dataclass(frozen=True)
class RegisteredNode:
    """A node module as the wiring and the service see it."""

    name: str
    spec: NodeSpec
    run: Callable[..., Awaitable[Any]]
    summarize: Callable[[Mapping[str, Any]], str]

    @property
    def label(self) -> str:
        return self.spec.label or self.name


def describe(module: ModuleType) -> RegisteredNode:
    """The node a module declares: its function (named like the module), ``summarize`` and ``SPEC``."""
    name = module.__name__.rsplit(".", 1)[-1]
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, NodeSpec):
        raise TypeError(f"node module {module.__name__} declares no SPEC = NodeSpec(...)")
    return RegisteredNode(name=name, spec=spec, run=getattr(module, name), summarize=module.summarize)


@cache
def registry() -> Mapping[str, RegisteredNode]:
    """Every node module of ``graphs.rag.nodes`` by node name (imported on first use: the node modules import
    this one for ``NodeSpec``)."""
    package = importlib.import_module("graphs.rag.nodes")
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_"))
    return {name: describe(importlib.import_module(f"{package.__name__}.{name}")) for name in names}


def spec_of(node: str) -> NodeSpec | None:
    """A node's declaration (None for a name that is no node, e.g. LangGraph's ``__start__``)."""
    found = registry().get(node)
    return found.spec if found else None


def llm_nodes() -> frozenset[str]:
    """The nodes that call the LLM: their ``degraded`` entry is an LLM failure (the rule path ran)."""
    return frozenset(name for name, node in registry().items() if node.spec.uses_llm)
