"""Render an eval report: Markdown table, JSON, per-question JSONL and a PNG bar chart."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.tools.stats import markdown_table

COLUMNS = ("mode", "R@2", "R@5", "hit@5", "MRR@10", "EM", "F1", "p50 ms", "p95 ms", "LLM calls/q", "wall s")


ANSWER_COLUMNS = ("mode", "contained", "short EM", "short F1", "abstained", "median chars")


def answer_row(mode: str, s: dict[str, Any]) -> list[str]:
    """One row of the answer table."""
    return [mode, _num(s["contained"]), _num(s["span_em"]), _num(s["span_f1"]), _num(s["abstained"]),
            _num(s["answer_chars"], 0)]


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def mode_row(mode: str, s: dict[str, Any]) -> list[str]:
    """One table row of a mode's summary."""
    lat = s["latency_ms"]
    return [
        mode, _num(s["recall@2"]), _num(s["recall@5"]), _num(s.get("hit@5")), _num(s["mrr@10"]), _num(s["em"]), _num(s["f1"]),
        _num(lat["p50"], 1), _num(lat["p95"], 1), _num(s["llm_calls_per_question"], 2), _num(s["wall_s"], 2),
    ]


def render_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown: the main table, per-type recall, the graph's routes, notes."""
    c, q, cfg = report["corpus"], report["questions"], report["config"]
    index = "reused" if c["reused"] else f"ingested in {c['ingest_s']:.1f} s"
    lines = [
        f"## Eval: {report['dataset']}",
        "",
        f"{q['evaluated']} of {q['total']} questions; {c['documents']} documents as {c['chunks']} chunks "
        f"(index {index}); embedder {cfg['embedder']}; chunks {cfg['chunk_size']}/{cfg['chunk_overlap']}; "
        f"LLM {cfg['llm'] or 'none'}; {report['created']}; total {report['wall_s']:.1f} s",
        "",
        *markdown_table(COLUMNS, [mode_row(m, s) for m, s in report["modes"].items()]),
    ]
    answering = {m: s for m, s in report["modes"].items() if s.get("contained") is not None}
    if answering:
        lines += ["", "Answers (no LLM needed: a gold answer contained in the answer; the short answer's EM/F1; "
                      "abstained = said the documents do not answer):", "",
                  *markdown_table(ANSWER_COLUMNS, [answer_row(m, s) for m, s in answering.items()])]
    if (u := report.get("unanswerable")) is not None:
        gone = (f"{u['removed_passages']} passages: the gold ones ({u['removed_gold_passages']}) and those that state "
                f"a gold date or number (protocol answer-text)" if u.get("protocol") == "answer-text"
                else f"{u['removed_passages']} gold passages")
        lines += ["", f"Unanswerable: {u['questions']} questions asked of the corpus without their {gone}:", "",
                  *markdown_table(("mode", "says not found", "still contained", "confident wrong"),
                                  [[m, _num(v["abstained"]), _num(v["contained"]), _num(v["confident_wrong"])]
                                   for m, v in u["modes"].items()])]
    if calibrated := report.get("calibration"):
        lines += ["", "Answerability score (ECE: expected calibration error; AURC: mean risk over the "
                      "risk-coverage curve, lower is better):", "",
                  *markdown_table(("mode", "questions", "ECE", "AURC"),
                                  [[m, str(c["questions"]), _num(c.get("ece")), _num(c.get("aurc"))]
                                   for m, c in calibrated.items() if c.get("questions")])]
    types = sorted({t for s in report["modes"].values() for t in s["by_type"]})
    if len(types) > 1:
        header = ["mode", *(f"{t} R@2 / R@5 (n={_type_count(report, t)})" for t in types)]
        rows = [
            [m, *(_type_cell(s["by_type"].get(t)) for t in types)] for m, s in report["modes"].items()
        ]
        lines += ["", *markdown_table(header, rows)]
    for name, mode in report["modes"].items():
        g = mode.get("graph_route")
        if g and g["questions"]:
            hops = ", ".join(f"{k} hop(s) {v}" for k, v in g["hops"].items())
            lines += ["", f"{name}: graph route for {g['questions']} question(s) ({hops}); "
                          f"expansion LLM calls per question {g['expansion_llm_calls_per_question']:.2f}"]
        if teams := mode.get("teams"):
            per_team = "; ".join(f"{t} {v['questions']} (LLM calls/q {v['llm_calls_per_question']:.2f}, R@5 "
                                 f"{v['recall@5']:.3f})" for t, v in teams.items())
            lines += ["", f"{name}: teams: {per_team}"]
    full = report["modes"].get("full")
    if full:
        routes = ", ".join(f"{k} {v}" for k, v in full["routes"].items()) or "none"
        relax = ", ".join(f"{k}×{v}" for k, v in full["relaxations"].items())
        degraded = ", ".join(f"{k} {v}" for k, v in full["degraded"].items()) or "none"
        c = full.get("contradictions") or {"questions": 0, "facts": 0}
        lines += [
            "",
            f"full graph: contradictions stated in {c['questions']} answer(s) ({c['facts']} fact(s); the per-question "
            "file lists them)",
            "",
            f"full graph: first route {routes}; relaxations per question {relax}; degraded {degraded}; "
            f"{full['fewer_than_5_docs']} question(s) got fewer than {cfg['full_top_k']} distinct documents",
        ]
    if report["notes"]:
        lines += ["", *(f"- {n}" for n in report["notes"])]
    return "\n".join(lines)


def _type_count(report: dict[str, Any], t: str) -> int:
    return max(s["by_type"].get(t, {}).get("questions", 0) for s in report["modes"].values())


def _type_cell(s: dict[str, Any] | None) -> str:
    return "–" if not s else f"{_num(s['recall@2'])} / {_num(s['recall@5'])}"


def write_chart(report: dict[str, Any], path: Path) -> Path:
    """A grouped bar chart of R@2 and R@5 per mode (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    modes = list(report["modes"])
    fig, ax = plt.subplots(figsize=(1.6 * len(modes) + 2, 4))
    width = 0.38
    for offset, key in ((-width / 2, "recall@2"), (width / 2, "recall@5")):
        values = [report["modes"][m][key] or 0.0 for m in modes]
        bars = ax.bar([i + offset for i in range(len(modes))], values, width, label=key.replace("recall", "R"))
        ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.set_xticks(range(len(modes)), modes)
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("recall")
    ax.set_title(f"{report['dataset']}: {report['questions']['evaluated']} questions")
    ax.legend(loc="upper left", ncol=2, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_outputs(
    report: dict[str, Any], details: dict[str, list[dict[str, Any]]], out: Path,
    log: Callable[[str], None] = lambda _: None,
) -> list[Path]:
    """Write eval-<dataset>.json/.md/.png and the per-question -questions.jsonl into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"eval-{report['dataset']}"
    json_path, md_path = stem.with_suffix(".json"), stem.with_suffix(".md")
    json_path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path.write_text(render_markdown(report) + "\n", encoding="utf-8")
    rows_path = out / f"eval-{report['dataset']}-questions.jsonl"
    with rows_path.open("w", encoding="utf-8") as fh:
        for mode, rows in details.items():
            for row in rows:
                fh.write(json.dumps({"mode": mode, **row}, ensure_ascii=False) + "\n")
    written = [json_path, md_path, rows_path]
    try:
        written.append(write_chart(report, stem.with_suffix(".png")))
    except ImportError:
        log("matplotlib is not installed: no chart written (pip install matplotlib)")
    return written
