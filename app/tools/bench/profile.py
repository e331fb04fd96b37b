"""Where a Milvus Lite search spends its time: one kind of search in a loop on a bench data dir, to be sampled
by py-spy (not a dependency: ``pip install py-spy``), and the breakdown of py-spy's raw stacks.

    python -m app.tools.bench.profile run bench-data/chunks-100000 semantic --seconds 20      # prints "ready"
    py-spy record -r 200 -f raw -d 15 -o semantic.txt --pid <pid printed by run>
    python -m app.tools.bench.profile breakdown semantic.txt --seconds 15 --ms <ms per call printed by run>

``run`` searches through Milvus Lite's own search (``--mirror`` through the search mirror instead), warms up
first (Lite builds its BM25 postings on the first BM25 search), and reports calls and ms per call. The
breakdown sorts the samples taken inside Lite's gRPC request handler by the innermost Lite function; the
handler's share of the sampled wall time, times the ms per call, is its time per call, and the rest of the
call is outside it (pymilvus, gRPC, the loopback socket, waiting for a core).
"""

from __future__ import annotations

import collections
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graphs.stores.filters import Filter

# Innermost Milvus Lite function -> what it does.
CATEGORIES: dict[str, str] = {
    "_update_max_seqs": "row masks: newest version of each key (Python loop over every row)",
    "_build_local_mask": "row masks: tombstones and versions (Python loop over every row)",
    "is_deleted": "row masks: tombstones and versions (Python loop over every row)",
    "build_valid_mask": "row masks: tombstones and versions (Python loop over every row)",
    "_search_sparse": "row masks and merge inside the BM25 search (Python loops)",
    "BruteForceIndex.search": "FLAT: copy of the allowed rows' vectors, top-k",
    "ip_distance": "FLAT: inner products",
    "cosine_distance": "FLAT: inner products",
    "compute_distances": "FLAT: inner products",
    "SparseInvertedIndex.search": "BM25: scoring every posting (Python loop)",
    "_search_prepared_sparse_index": "BM25: scoring every posting (Python loop)",
    "_eval": "filter evaluation (pyarrow)",
    "evaluate_mask": "filter evaluation (pyarrow)",
    "assemble_candidates": "query: materializing every matching row",
    "row_to_dict": "result rows: reading fields",
    "project_record": "result rows: reading fields",
    "_materialize_record": "result rows: reading fields",
}
QUESTION = "人工智能领域有哪些新的投资？"


def _searches(index: Any, corpus_size: int) -> dict[str, Callable[[], Any]]:
    import numpy as np

    from app.tools.bench.corpus import generate_corpus
    from app.tools.bench.paths import search_filters

    rng = np.random.default_rng(0)
    filters = search_filters(generate_corpus(min(corpus_size, 2000)), 8)
    state = {"i": 0}

    def vector() -> list[float]:
        v = rng.standard_normal(index.dim)
        return (v / np.linalg.norm(v)).tolist()

    def nxt() -> Filter:
        state["i"] += 1
        return filters[state["i"] % len(filters)]

    return {
        "semantic": lambda: index.search_dense(vector(), filter=None, limit=20),
        "filtered": lambda: index.search_dense(vector(), filter=nxt(), limit=20),
        "bm25": lambda: index.search_bm25(QUESTION, filter=None, limit=40),
        "count": lambda: index.count(nxt()),
    }


def run(data_dir: Path, kind: str, seconds: float, mirror: bool) -> None:
    from graphs.stores.milvus import MilvusIndex

    index = MilvusIndex(str(data_dir / "milvus.db"), "aer_chunks", 512)
    try:
        index.use_mirror = mirror
        size = index.count()
        call = _searches(index, size)[kind]
        for _ in range(2):
            call()
        print(f"ready pid {os.getpid()}: {kind} over {size} rows ({'mirror' if mirror else 'Milvus Lite'})", flush=True)
        time.sleep(1.0)  # time to attach the sampler
        times = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            call()
            times.append((time.perf_counter() - started) * 1000)
        print(f"calls {len(times)}; ms per call: median {statistics.median(times):.1f}, "
              f"mean {statistics.mean(times):.1f}", flush=True)  # fmt: skip
    finally:
        index.close()


def breakdown(raw: Path, seconds: float, ms_per_call: float, rate: float = 200.0) -> list[str]:
    """Shares of the samples inside Lite's request handler by category, and ms per call."""
    counts: collections.Counter[str] = collections.Counter()
    handler = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, n_text = line.rpartition(" ")
        if not stack or not n_text.isdigit():
            continue
        frames = stack.split(";")
        if not any(f.startswith(("MilvusServicer.Search ", "MilvusServicer.Query ")) for f in frames):
            continue
        n = int(n_text)
        handler += n
        lite = [f.split(" (", 1)[0] for f in frames if "milvus_lite" in f]
        inner = lite[-1] if lite else "?"
        # "f.<locals>.<listcomp>" counts as f; "Class.method" keys match the class-qualified name.
        name = next((c for key, c in CATEGORIES.items() if f".{key}." in f".{inner}."), None)
        counts[name or "other (handler, schema, translation)"] += n
    busy = min(handler / rate / seconds, 1.0)  # share of the wall time the handler ran
    handler_ms = busy * ms_per_call
    lines = [f"{ms_per_call:.1f} ms per call; in Lite's request handler {handler_ms:.1f} ms ({handler} samples)"]
    for name, n in counts.most_common():
        share = n / max(handler, 1)
        lines.append(f"{100 * share:5.1f}%  {share * handler_ms:7.1f} ms  {name}")
    lines.append(f"outside the handler (pymilvus, gRPC, socket, waiting for a core): {ms_per_call - handler_ms:.1f} ms")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "run":
        seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 20.0
        run(Path(argv[1]), argv[2], seconds, "--mirror" in argv)
        return 0
    if len(argv) >= 2 and argv[0] == "breakdown" and "--seconds" in argv and "--ms" in argv:
        rate = float(argv[argv.index("--rate") + 1]) if "--rate" in argv else 200.0
        seconds, ms = float(argv[argv.index("--seconds") + 1]), float(argv[argv.index("--ms") + 1])
        print("\n".join(breakdown(Path(argv[1]), seconds, ms, rate)))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
