"""Statistics and tables shared by the tools (eval, bench, loadtest): percentiles, latency summaries, and tables
as plain text (rich) or Markdown."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
from rich import box
from rich.console import Console
from rich.table import Table


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0-100), linearly interpolated between ranks (numpy's default); None for no values."""
    if not 0 <= q <= 100:
        raise ValueError("q must lie in [0, 100]")
    if not len(values):
        return None
    return float(np.percentile(np.asarray(values, dtype=float), q))


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; None for no values."""
    return float(np.mean(values)) if len(values) else None


def latency_summary(values: Sequence[float], quantiles: Sequence[int] = (50, 95),
                    digits: int = 3) -> dict[str, float | int | None]:
    """Count, mean, the given percentiles (``p50``, ``p95`` ...) and max, rounded; None for each when empty."""
    if not values:
        return {"n": 0, "mean": None, **{f"p{q}": None for q in quantiles}, "max": None}
    return {"n": len(values), "mean": round(float(np.mean(values)), digits),
            **{f"p{q}": round(percentile(values, q) or 0.0, digits) for q in quantiles},
            "max": round(max(values), digits)}


def fmt(value: Any, digits: int = 1) -> str:
    """A table cell: ``-`` for None, floats to ``digits`` places."""
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A plain-text table (first column left-aligned, the others right-aligned), one string per line."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, header in enumerate(headers):
        table.add_column(header, justify="right" if i else "left", no_wrap=True)
    for row in rows:
        table.add_row(*(fmt(c) for c in row))
    out = io.StringIO()
    Console(file=out, width=1000, color_system=None, highlight=False, emoji=False).print(table)
    return [line.rstrip() for line in out.getvalue().splitlines() if line.strip()]


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table, one string per line."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    return lines + ["| " + " | ".join(r) + " |" for r in rows]
