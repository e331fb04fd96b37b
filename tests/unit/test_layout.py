"""The layout stays findable: nodes/ holds only the graph's nodes, and the import contracts in
pyproject.toml (lower layers never import upward, no node imports another) hold."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import graphs.rag.nodes
from graphs.rag.graph import NODES, workflow

ROOT = Path(__file__).resolve().parents[2]


def test_nodes_package_holds_exactly_the_registered_nodes() -> None:
    files = {p.stem for p in Path(graphs.rag.nodes.__file__).parent.glob("*.py")} - {"__init__"}
    registered = {m.__name__.rsplit(".", 1)[-1] for m in NODES}
    assert files == registered
    assert registered <= set(workflow.get_graph().nodes)
    for module in NODES:  # node name == function name == file name
        name = module.__name__.rsplit(".", 1)[-1]
        assert callable(getattr(module, name)) and callable(module.summarize)


def test_import_contracts_hold() -> None:
    # in a process of its own: import-linter reconfigures logging, which would silence this process's loggers
    # (lint-imports reads [tool.importlinter] from ./pyproject.toml)
    run = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
