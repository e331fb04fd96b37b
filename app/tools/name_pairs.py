"""Fit the cross-language name score (``graphs.text.name_match``) on labelled pairs and measure it.

``python -m app.tools.name_pairs tests/data/xname_pairs/pairs.jsonl [--e5] [--write]`` computes the alignment
features of every pair, fits a logistic regression on the dev part (L2, gradient descent: no ML framework),
chooses the threshold on the dev part (the best accuracy, a false friend counting twice: reading an absent thing
as a present one answers wrongly), and prints accuracy, recall of true pairs and the false-friend rate on dev
and held. ``--e5`` adds e5's similarity of the two names as a feature (an ablation: it needs the embedder);
``--write`` writes the fit without it to ``graphs/text/name_match.json``.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from graphs.text.name_match import FEATURES, features

L2 = 0.01
STEPS = 4000
RATE = 0.5
FALSE_FRIEND_COST = 2.0


def load(path: Path) -> list[dict[str, Any]]:
    """The labelled pairs (en, zh, same, split)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def fit(rows: list[list[float]], labels: list[bool]) -> tuple[list[float], float]:
    """Logistic regression by gradient descent with L2 on the coefficients."""
    n, k = len(rows), len(rows[0])
    coef, bias = [0.0] * k, 0.0
    for _ in range(STEPS):
        grad, gbias = [0.0] * k, 0.0
        for x, y in zip(rows, labels, strict=True):
            p = 1.0 / (1.0 + math.exp(-(bias + sum(c * v for c, v in zip(coef, x, strict=True)))))
            d = p - float(y)
            gbias += d
            for i, v in enumerate(x):
                grad[i] += d * v
        coef = [c - RATE * (g / n + L2 * c) for c, g in zip(coef, grad, strict=True)]
        bias -= RATE * gbias / n
    return coef, bias


def prob(coef: list[float], bias: float, x: list[float]) -> float:
    return 1.0 / (1.0 + math.exp(-(bias + sum(c * v for c, v in zip(coef, x, strict=True)))))


def measure(probs: list[float], labels: list[bool], threshold: float) -> dict[str, float]:
    """Accuracy, recall of the true pairs, and the false-friend rate (false pairs read as the same)."""
    said = [p >= threshold for p in probs]
    true = [s for s, y in zip(said, labels, strict=True) if y]
    false = [s for s, y in zip(said, labels, strict=True) if not y]
    return {"n": len(labels), "accuracy": round(sum(s == y for s, y in zip(said, labels, strict=True)) / len(labels), 3),
            "recall": round(sum(true) / max(1, len(true)), 3),
            "false_friends": round(sum(false) / max(1, len(false)), 3)}


def choose_threshold(probs: list[float], labels: list[bool]) -> float:
    """The threshold of least cost on the given pairs, a false friend costing ``FALSE_FRIEND_COST`` misses."""
    cuts = sorted({round(p, 3) for p in probs} | {0.5})
    def cost(t: float) -> float:
        return sum((FALSE_FRIEND_COST if not y else 1.0) for p, y in zip(probs, labels, strict=True)
                   if (p >= t) != y)
    return min(cuts, key=lambda t: (cost(t), -t))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", type=Path)
    parser.add_argument("--e5", action="store_true", help="add e5's similarity of the two names (ablation)")
    parser.add_argument("--write", action="store_true", help="write graphs/text/name_match.json")
    args = parser.parse_args(argv)
    pairs = load(args.pairs)
    names = list(FEATURES)
    rows = [[features(p["en"], p["zh"])[f] for f in names] for p in pairs]
    if args.e5:
        from graphs.embeddings import E5Embeddings

        embedder = E5Embeddings()
        words = sorted({w for p in pairs for w in (p["en"], p["zh"])})
        vectors = dict(zip(words, embedder.embed_documents(words), strict=True))
        def cosine(a: list[float], b: list[float]) -> float:
            return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
        for row, p in zip(rows, pairs, strict=True):
            # rescaled: e5's similarities of short names lie in 0.75–0.95
            row.append((cosine(vectors[p["en"]], vectors[p["zh"]]) - 0.75) * 5)
        names.append("e5")
    dev = [i for i, p in enumerate(pairs) if p["split"] != "held"]
    held = [i for i, p in enumerate(pairs) if p["split"] == "held"]
    coef, bias = fit([rows[i] for i in dev], [pairs[i]["same"] for i in dev])
    probs = [prob(coef, bias, r) for r in rows]
    threshold = choose_threshold([probs[i] for i in dev], [pairs[i]["same"] for i in dev])
    report = {part: measure([probs[i] for i in idx], [pairs[i]["same"] for i in idx], threshold)
              for part, idx in (("dev", dev), ("held", held))}
    print(json.dumps({"features": names, "coef": [round(c, 3) for c in coef], "bias": round(bias, 3),
                      "threshold": threshold, **report}, ensure_ascii=False))
    for i in held:
        if (probs[i] >= threshold) != pairs[i]["same"]:
            print(f"held wrong: {pairs[i]['en']} / {pairs[i]['zh']} same={pairs[i]['same']} p={probs[i]:.2f}")
    if args.write and not args.e5:
        out = {"about": "The cross-language name score of graphs.text.name_match, fitted by app/tools/name_pairs.py "
                        "on the dev part of tests/data/xname_pairs/pairs.jsonl; measured on its held part.",
               "coef": {n: round(c, 4) for n, c in zip(names, coef, strict=True)}, "bias": round(bias, 4),
               "threshold": threshold, "measured": report}
        Path(__file__).resolve().parents[2].joinpath("graphs/text/name_match.json").write_text(
            json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
