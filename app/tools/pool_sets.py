"""Pool eval sets into one: every set's passages in one corpus, every set's questions asked of it.

The condition an outside review measured multi-hop answers in (#24): a question's gold passages among thousands
of other sets' passages, not only its own set's. ``aer eval`` runs the pooled folder as any other set::

    python -m app.tools.pool_sets /tmp/pooled ../shared/data/hotpotqa_sample ../shared/data/2wiki_sample
    aer eval /tmp/pooled -m full --unanswerable 50

A question keeps its id, so a set's held-aside part (by the hash of the id) stays held in the pool. A question
with no answers (a recall-only set) is asked for recall only, as in its own set. Two sets that give one id to
different passages are refused: pooling must not silently drop a passage.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path


class PoolError(ValueError):
    """Two sets disagree about one id."""


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pooled(rows: Iterable[tuple[str, dict[str, object]]]) -> list[dict[str, object]]:
    """The rows (``(set name, row)``) once per id, in first-seen order; the same id with different content is an
    error naming both sets."""
    kept: dict[str, tuple[str, dict[str, object]]] = {}
    for name, row in rows:
        key = str(row["id"])
        if key in kept:
            if kept[key][1] != row:
                raise PoolError(f"id {key!r} differs between {kept[key][0]} and {name}")
            continue
        kept[key] = (name, row)
    return [row for _, row in kept.values()]


def pool(out: Path, sets: Sequence[Path]) -> tuple[int, int]:
    """Write ``out/corpus.jsonl`` and ``out/questions.jsonl`` from the sets' own; return (passages, questions)."""
    corpus = pooled((s.name, row) for s in sets for row in _lines(s / "corpus.jsonl"))
    questions = pooled((s.name, {**row, "type": row.get("type") or s.name})
                       for s in sets for row in _lines(s / "questions.jsonl"))
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in (("corpus.jsonl", corpus), ("questions.jsonl", questions)):
        (out / name).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return len(corpus), len(questions)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3:
        print("usage: python -m app.tools.pool_sets OUT_DIR SET_DIR SET_DIR [...]", file=sys.stderr)
        return 2
    passages, questions = pool(Path(argv[0]), [Path(a) for a in argv[1:]])
    print(f"{argv[0]}: {passages} passages, {questions} questions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
