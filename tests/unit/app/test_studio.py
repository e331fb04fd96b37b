"""LangGraph Studio wiring: langgraph.json names an importable factory; a bound graph runs with no context."""

from __future__ import annotations

import importlib
import inspect
import json
from pathlib import Path
from typing import Any

from graphs.rag.graph import build_workflow
from tests.support.fakes import ScriptedIndex, hit, make_context

ROOT = Path(__file__).resolve().parents[3]


def test_langgraph_json_points_at_an_async_factory() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    [(name, target)] = config["graphs"].items()
    module, attr = target.split(":")
    factory = getattr(importlib.import_module(module), attr)
    assert name == "adaptive_entity_rag" and inspect.iscoroutinefunction(factory)


async def test_bound_graph_runs_without_a_context(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("ml#0", "机器学习是人工智能的分支。", 0.7, ch)])
    bound = build_workflow(default_context=make_context(tmp_path, index))
    assert bound.get_context_jsonschema() is None  # Studio can render it
    out = await bound.ainvoke({"question": "什么是机器学习？"})
    assert out["status"] == "answered" and out["citations"]
