"""``aer fit-fusion``: fit the hybrid search's fusion parameters on eval datasets, validated on held-aside
questions and leave-one-dataset-out, and write them to the params file the service reads
(``graphs/stores/fusion_params.json``).

How: each dataset's eval index (the one ``aer eval`` builds and reuses) is searched once per question, dense and
BM25 separately, exactly as ``search_hybrid`` asks them (``candidate_k`` results fused from twice as many per
channel). The channel lists are kept, so every candidate setting is scored offline, with the fusion functions
the service runs (``graphs.stores.fusion``): no re-ingest, no second search.

Split: the fixed held-aside 30 % of every set (SHA-256 of the question id, as ``dense_recall`` splits) is never
fitted on. The objective is the mean over datasets (each set weighs the same, whatever its size) of
(R@2 + R@5) / 2 of the documents on the tuning part: R@5 is what the answer reads, R@2 what the graph route
seeds from. Leave-one-dataset-out: the fit is repeated without each set and measured on that set, the figure
that says how the setting carries to a corpus it never saw.

    aer fit-fusion /work/shared/data/hotpotqa_sample /work/shared/data/2wiki_sample ... [--write]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from app.tools.dense_recall import held_aside
from app.tools.eval import doc_ranking, embedder_name, load_questions, prepare_index, recall_at_k
from graphs.domain import Hit
from graphs.stores import fusion

RRF_KS = (1, 2, 3, 5, 10, 20, 30, 60)
WEIGHTS = tuple(round(0.1 * n, 1) for n in range(1, 10))
SEARCH_LIMIT = 20
"""``RagLimits.candidate_k``: what ``search_hybrid`` asks of the index (each channel fetches twice as many)."""

Log = Callable[[str], None]


@dataclass(frozen=True)
class Lists:
    """One question's two channel lists (chunk ids, best first, with their component scores) and its gold
    documents."""

    id: str
    held: bool
    gold: frozenset[str]
    dense: list[str]
    bm25: list[str]
    doc_of: dict[str, str]
    components: dict[str, tuple[float | None, float | None]]

    @classmethod
    def of(cls, qid: str, held: bool, gold: frozenset[str], dense: Sequence[Hit], bm25: Sequence[Hit]) -> Lists:
        components: dict[str, tuple[float | None, float | None]] = {h.id: (h.dense_score, None) for h in dense}
        for h in bm25:
            components[h.id] = (components.get(h.id, (None, None))[0], h.bm25_score)
        doc_of = {h.id: h.doc_id for h in [*dense, *bm25]}
        return cls(qid, held, gold, [h.id for h in dense], [h.id for h in bm25], doc_of, components)


@dataclass(frozen=True)
class Setting:
    method: str  # "rrf" | "weighted"
    k: int
    dense_weight: float

    def rank(self, q: Lists) -> list[str]:
        """The documents in the order the service's fusion (``graphs.stores.fusion``) gives them."""
        if self.method == "rrf":
            scores = fusion.rrf_scores(q.dense, q.bm25, self.k, self.dense_weight)
        else:
            scores = fusion.weighted_scores(q.components, self.dense_weight)
        return doc_ranking(q.doc_of[cid] for cid in fusion.fused_order(scores, SEARCH_LIMIT))


def lists_to_json(questions: Sequence[Lists]) -> str:
    return json.dumps([{**vars(q), "gold": sorted(q.gold)} for q in questions])


def lists_from_json(text: str) -> list[Lists]:
    return [Lists(**{**q, "gold": frozenset(q["gold"]), "components": {k: tuple(v) for k, v in q["components"].items()}})
            for q in json.loads(text)]


def collect(dataset: Path, settings: Any, log: Log, limit: int | None = None) -> list[Lists]:
    """Search every usable question of a dataset once per channel (the eval index is built if missing)."""
    prepared = prepare_index(dataset, settings, log=log)
    saved = prepared.folder / f"fit-lists-{SEARCH_LIMIT}-{limit or 'all'}.json"
    if saved.is_file():  # the index is unchanged (same folder, same fingerprint): so are its channel lists
        prepared.resources.close()
        log(f"channel lists reused from {saved}")
        return lists_from_json(saved.read_text(encoding="utf-8"))
    try:
        index, embedder = prepared.resources.context.index, prepared.resources.context.embedder
        candidates = 2 * SEARCH_LIMIT
        out = []
        for q in [q for q in load_questions(dataset) if q.gold_ids and q.question.strip()][:limit]:
            dense = index.search_dense(embedder.embed_query(q.question), filter=None, limit=candidates)
            bm25 = index.search_bm25(q.question, filter=None, limit=candidates)
            out.append(Lists.of(q.id, held_aside(q.id), frozenset(q.gold_ids), dense, bm25))
        saved.write_text(lists_to_json(out), encoding="utf-8")
        return out
    finally:
        prepared.resources.close()


def measure(setting: Setting, questions: Sequence[Lists]) -> dict[str, float]:
    """R@2, R@5 and hit@5 of the documents of one setting, averaged over ``questions``."""
    if not questions:
        return {"questions": 0, "recall@2": 0.0, "recall@5": 0.0, "hit@5": 0.0}
    r2 = r5 = hit = 0.0
    for q in questions:
        docs = setting.rank(q)
        r2 += recall_at_k(docs, q.gold, 2)
        r5 += recall_at_k(docs, q.gold, 5)
        hit += float(bool(q.gold & set(docs[:5])))
    n = len(questions)
    return {"questions": n, "recall@2": round(r2 / n, 4), "recall@5": round(r5 / n, 4), "hit@5": round(hit / n, 4)}


GUARDED = ("recall@5", "hit@5")
"""What a fitted setting must not lower on any set: its tuning part when fitting, its held-aside part to be
written (the targets read them)."""


def objective(setting: Setting, sets: dict[str, list[Lists]]) -> float:
    """Mean over datasets of (R@2 + R@5) / 2 (each set weighs the same)."""
    scores = [(m["recall@2"] + m["recall@5"]) / 2 for qs in sets.values() if (m := measure(setting, qs))["questions"]]
    return sum(scores) / len(scores) if scores else 0.0


def grid(method: str) -> list[Setting]:
    if method == "rrf":
        return [Setting("rrf", k, w) for k in RRF_KS for w in WEIGHTS]
    return [Setting("weighted", 0, w) for w in WEIGHTS]


def keeps_every_set(setting: Setting, sets: dict[str, list[Lists]], current: Setting) -> bool:
    """Whether ``setting`` loses R@5 or hit@5 on no set (of the questions given: the tuning parts)."""
    for qs in sets.values():
        if qs:
            now, then = measure(setting, qs), measure(current, qs)
            if any(now[m] < then[m] for m in GUARDED):
                return False
    return True


def best(method: str, sets: dict[str, list[Lists]], current: Setting) -> Setting:
    """The setting of the grid with the highest objective among those that lose R@5 and hit@5 on no set's
    tuning part (a gain on one corpus never pays for a loss on another); on a tie, the one nearest today's."""
    def distance(s: Setting) -> float:
        return abs(s.dense_weight - current.dense_weight) + abs(s.k - current.k) / 60

    allowed = [s for s in grid(method) if keeps_every_set(s, sets, current)] or [current]
    return max(allowed, key=lambda s: (round(objective(s, sets), 6), -distance(s)))


def tuning(sets: dict[str, list[Lists]]) -> dict[str, list[Lists]]:
    return {name: [q for q in qs if not q.held] for name, qs in sets.items()}


def fit(sets: dict[str, list[Lists]]) -> dict[str, Any]:
    """Fit both fusion methods on the tuning parts; report before/after per set and part, and LODO."""
    report: dict[str, Any] = {}
    for method, current in (("rrf", Setting("rrf", fusion.RRF_K, fusion.RRF_DENSE_WEIGHT)),
                            ("weighted", Setting("weighted", 0, fusion.WEIGHTED_DENSE_WEIGHT))):
        chosen = best(method, tuning(sets), current)
        per_set = {}
        for name, qs in sets.items():
            tune, held = [q for q in qs if not q.held], [q for q in qs if q.held]
            others = tuning({n: v for n, v in sets.items() if n != name})
            lodo = best(method, others, current) if others else chosen
            per_set[name] = {
                "before": {"tune": measure(current, tune), "held": measure(current, held)},
                "after": {"tune": measure(chosen, tune), "held": measure(chosen, held)},
                "lodo": {"k": lodo.k, "dense_weight": lodo.dense_weight, "all": measure(lodo, qs)},
                "after_all": measure(chosen, qs), "before_all": measure(current, qs),
            }
        report[method] = {"before": {"k": current.k, "dense_weight": current.dense_weight},
                          "after": {"k": chosen.k, "dense_weight": chosen.dense_weight}, "sets": per_set}
    return report


def harms(report: dict[str, Any], method: str = "rrf") -> list[str]:
    """Where the fit of ``method`` loses on a held-aside part (``set: metric before → after``); empty when it
    loses nowhere. ``--write`` refuses a fit that harms: a setting that trades one corpus against another is
    not shipped."""
    out = []
    for name, s in report[method]["sets"].items():
        before, after = s["before"]["held"], s["after"]["held"]
        if not before["questions"]:
            continue
        out += [f"{name}: held-aside {m} {before[m]:.3f} → {after[m]:.3f}" for m in GUARDED if after[m] < before[m]]
    return out


def params_file(report: dict[str, Any], sets: dict[str, list[Lists]], embedder: str) -> dict[str, Any]:
    """The params file: per fusion method the fitted values, or today's where the fit loses on a held-aside part
    (``harms``), and a note of the data they were fitted on and of what was kept."""
    chosen = {m: report[m]["before" if harms(report, m) else "after"] for m in ("rrf", "weighted")}
    return {
        "rrf": {"k": chosen["rrf"]["k"], "dense_weight": chosen["rrf"]["dense_weight"]},
        "weighted": {"dense_weight": chosen["weighted"]["dense_weight"]},
        "kept": {m: lost for m in ("rrf", "weighted") if (lost := harms(report, m))},
        "fitted": {
            "by": "aer fit-fusion (app/tools/fit_fusion.py)",
            "created": datetime.now(UTC).date().isoformat(),
            "embedder": embedder,
            "datasets": {name: {"tune": sum(not q.held for q in qs), "held_aside": sum(q.held for q in qs)}
                         for name, qs in sets.items()},
            "objective": "mean over datasets of (R@2 + R@5) / 2 of documents, tuning part (held-aside 30 % by "
                         "SHA-256 of the question id never fitted on)",
        },
    }


def render(report: dict[str, Any]) -> str:
    """The report as Markdown tables (R@5, and R@2 in brackets)."""
    lines = []
    for method, r in report.items():
        b, a = r["before"], r["after"]
        lines += [f"### {method}: k {b['k']} dense weight {b['dense_weight']} → k {a['k']} dense weight "
                  f"{a['dense_weight']}" if method == "rrf" else
                  f"### {method}: dense weight {b['dense_weight']} → {a['dense_weight']}", "",
                  "| set | tune before | tune after | held before | held after | LODO fit | LODO all |",
                  "|---|---|---|---|---|---|---|"]
        for name, s in r["sets"].items():
            def cell(m: dict[str, float]) -> str:
                return f"{m['recall@5']:.3f} ({m['recall@2']:.3f})"
            lodo = s["lodo"]
            lines.append(f"| {name} | {cell(s['before']['tune'])} | {cell(s['after']['tune'])} | "
                         f"{cell(s['before']['held'])} | {cell(s['after']['held'])} | "
                         f"k {lodo['k']} w {lodo['dense_weight']} | {cell(lodo['all'])} |")
        lines.append("")
    return "\n".join(lines)


PARAMS = Path(fusion.__file__).with_name("fusion_params.json")


def fit_fusion_command(
    datasets: Annotated[list[Path], typer.Argument(exists=True, file_okay=False,
                                                   help="Eval dataset folders (corpus.jsonl, questions.jsonl).")],
    write: Annotated[bool, typer.Option("--write", help=f"Write the fitted values to {PARAMS.name}; a method's fit "
                                        "that lowers R@5 or hit@5 on any set's held-aside part keeps today's.")] = False,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions of each set.")] = None,
    out: Annotated[Path | None, typer.Option(dir_okay=False, help="Also write the JSON report here.")] = None,
) -> None:
    """Fit RRF k and the dense weight of hybrid search on eval sets (held-aside split, leave-one-dataset-out)."""
    from app.settings import Settings

    settings = Settings()

    def log(s: str) -> None:
        typer.echo(s, err=True)

    sets = {d.resolve().name: collect(d, settings, log, limit) for d in datasets}
    report = fit(sets)
    typer.echo(render(report))
    if out is not None:
        out.write_text(json.dumps(report, indent=2), encoding="utf-8")
    if write and all(harms(report, m) for m in ("rrf", "weighted")):
        typer.secho(f"not written: both fits lose on held-aside questions; {PARAMS.name} keeps its values",
                    fg="red", err=True)
        raise typer.Exit(1)
    if write:
        for m in ("rrf", "weighted"):
            if lost := harms(report, m):
                typer.echo(f"{m}: today's values kept, the fit loses on held-aside questions ({'; '.join(lost)})",
                           err=True)
        PARAMS.write_text(json.dumps(params_file(report, sets, embedder_name(settings)), indent=2) + "\n",
                          encoding="utf-8")
        typer.echo(f"wrote {PARAMS}", err=True)


if __name__ == "__main__":  # pragma: no cover
    typer.run(fit_fusion_command)
    sys.exit(0)
