"""Calibration of the answerability score in ``aer eval``: expected calibration error (ECE) and the
risk-coverage curve, over the answerable questions and, with ``--unanswerable K``, the same questions asked
without their gold passages (``labelled`` says what counts as correct)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ECE_BINS = 10


def ece(p: np.ndarray, y: np.ndarray, bins: int = ECE_BINS) -> float:
    """Expected calibration error: the mean gap between confidence and frequency over equal-width bins."""
    if len(p) == 0:
        return 0.0
    edges = np.minimum((p * bins).astype(int), bins - 1)
    return float(sum(abs(p[edges == b].mean() - y[edges == b].mean()) * (edges == b).sum()
                     for b in range(bins) if (edges == b).any()) / len(p))


def risk_coverage(p: np.ndarray, y: np.ndarray) -> list[dict[str, float]]:
    """For each threshold on the score (highest first): the share of questions answered and the share of those
    answered wrongly."""
    order = np.argsort(-p, kind="stable")
    points = []
    for k in range(1, len(p) + 1):
        if k < len(p) and p[order[k]] == p[order[k - 1]]:
            continue
        points.append({"threshold": round(float(p[order[k - 1]]), 4), "coverage": round(k / len(p), 4),
                       "risk": round(1.0 - float(y[order[:k]].mean()), 4)})
    return points


def labelled(answerable: Sequence[dict[str, Any]], unanswerable: Sequence[dict[str, Any]]
             ) -> tuple[np.ndarray, np.ndarray]:
    """(score, correct) of each eval row that has a score: an answerable question (its gold passages indexed) is
    correct unless it was answered without a gold answer in the answer; a question asked without its gold
    passages never is (the score is the probability that the passages answer the question)."""
    rows = [(r["answerability"], 0.0 if not r.get("abstained") and not r.get("contained") else 1.0)
            for r in answerable if r.get("answerability") is not None]
    rows += [(r["answerability"], 0.0) for r in unanswerable if r.get("answerability") is not None]
    if not rows:
        return np.zeros(0), np.zeros(0)
    p, y = zip(*rows, strict=True)
    return np.array(p, dtype=float), np.array(y, dtype=float)


def calibration(answerable: Sequence[dict[str, Any]], unanswerable: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """ECE and the risk-coverage curve of the rows' answerability scores."""
    p, y = labelled(answerable, unanswerable)
    if not len(p):
        return {"questions": 0}
    curve = risk_coverage(p, y)
    # area under the risk-coverage curve: the mean risk over coverages (lower is better)
    aurc = float(np.mean([pt["risk"] for pt in curve]))
    return {"questions": len(p), "answerable": len(answerable), "unanswerable": len(unanswerable),
            "ece": round(ece(p, y), 4), "aurc": round(aurc, 4), "risk_coverage": curve}


def plot(result: dict[str, Any], path: Path, title: str = "") -> Path:
    """Write the risk-coverage curve as a PNG (matplotlib: the eval extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result.get("risk_coverage", [])
    fig, ax = plt.subplots(figsize=(5, 3.6), dpi=120)
    ax.plot([pt["coverage"] for pt in curve], [pt["risk"] for pt in curve], marker=".", linewidth=1.2)
    ax.set_xlabel("coverage (share answered)")
    ax.set_ylabel("risk (share of answers wrong)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.set_title(f"{title} ECE {result.get('ece', 0):.3f}".strip(), fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
