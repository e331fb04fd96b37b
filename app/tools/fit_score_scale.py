"""Fit the affine map of an embedder's cosine onto USE's scale (``graphs.vectors.ScoreScale``).

For each question of the tuning part (``held_aside`` False) of each dataset: the cosine of the question to its
best gold chunk ("answering") and the median cosine to the other chunks ("unrelated"), by USE and by the other
embedder, on the same chunks (vectors from the ``dense_recall`` caches). The anchors are the medians of those
over questions; the map sends the embedder's two anchors onto USE's. The held-aside part reports how close the
mapped anchors fall to USE's on questions not used to fit.

    python -m app.tools.fit_score_scale /work/shared/data/cmrc2018_trial ... --cache /work/wt/cache/issue23
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from app.tools.bench.vectors import VectorCache, cache_name
from app.tools.dense_recall import corpus_chunks, held_aside, make_embedder
from app.tools.eval import load_questions
from graphs.embeddings import fingerprint_of


def anchors(dataset: Path, cache_dir: Path, which: str, per_part: int, max_passages: int | None,
            keep: set[str] | None = None) -> dict[str, Any]:
    """Per part (tune/held): per question (answering cosine, unrelated median cosine); chunks both caches hold."""
    embedder = make_embedder(which)
    fp = fingerprint_of(embedder)
    cache = VectorCache(cache_dir, cache_name(embedder), fp.dimension)
    _, owners, texts = corpus_chunks(dataset, max_passages)
    found, missing = cache.get(texts)
    absent = set(missing)
    present = [i for i in range(len(texts)) if i not in absent and (keep is None or texts[i] in keep)]
    matrix = np.asarray([found[i] for i in present], dtype=np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12
    who = [owners[i] for i in present]
    have = set(who)
    out: dict[str, list[tuple[float, float]]] = {"tune": [], "held": []}
    for q in load_questions(dataset):
        part = "held" if held_aside(q.id) else "tune"
        if len(out[part]) >= per_part or not set(q.gold_ids) <= have:
            continue
        v = np.asarray(embedder.embed_query(q.question), dtype=np.float32)
        scores = matrix @ (v / (np.linalg.norm(v) + 1e-12))
        gold = [s for s, o in zip(scores, who, strict=True) if o in q.gold_ids]
        other = [s for s, o in zip(scores, who, strict=True) if o not in q.gold_ids]
        out[part].append((float(max(gold)), float(np.median(other))))
    return {"texts": {texts[i] for i in present}, **out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", type=Path, nargs="+")
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--embedder", default="e5")
    parser.add_argument("--per-part", type=int, default=40, help="questions per part (tune, held) per dataset")
    parser.add_argument("--max-passages", type=int, default=None)
    args = parser.parse_args()
    rows: dict[str, dict[str, list[tuple[float, float]]]] = {"use": {"tune": [], "held": []},
                                                              args.embedder: {"tune": [], "held": []}}
    for dataset in args.datasets:
        other = anchors(dataset, args.cache, args.embedder, args.per_part, args.max_passages)
        use = anchors(dataset, args.cache, "use", args.per_part, args.max_passages, keep=other["texts"])
        for name, got in ((args.embedder, other), ("use", use)):
            for part in ("tune", "held"):
                rows[name][part] += got[part]

    def medians(pairs: list[tuple[float, float]]) -> tuple[float, float]:
        return float(np.median([p[1] for p in pairs])), float(np.median([p[0] for p in pairs]))

    low, high = medians(rows[args.embedder]["tune"])
    to_low, to_high = medians(rows["use"]["tune"])

    def mapped(x: float) -> float:
        return to_low + (x - low) * (to_high - to_low) / (high - low)

    held_low, held_high = medians(rows[args.embedder]["held"])
    use_held = medians(rows["use"]["held"])
    print(json.dumps({
        "fit_on": "tune", "questions": {k: {p: len(v) for p, v in r.items()} for k, r in rows.items()},
        "scale": {"low": round(low, 4), "high": round(high, 4), "to_low": round(to_low, 4), "to_high": round(to_high, 4)},
        "held": {"use_unrelated_answering": [round(x, 3) for x in use_held],
                 "mapped_unrelated_answering": [round(mapped(held_low), 3), round(mapped(held_high), 3)],
                 "raw_unrelated_answering": [round(held_low, 3), round(held_high, 3)]},
    }, indent=1))


if __name__ == "__main__":
    main()
