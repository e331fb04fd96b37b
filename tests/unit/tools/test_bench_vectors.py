"""The bench's vector cache: vectors found by embedder and exact text, saved atomically, queries never cached."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from app.tools.bench.fill_cache import fill
from app.tools.bench.vectors import CachedEmbeddings, CacheMismatch, VectorCache, cache_paths
from graphs.embeddings import EmbedderFingerprint


class Counting(Embeddings):
    def __init__(self) -> None:
        self.documents: list[str] = []
        self.queries: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += texts
        return [[float(len(t)), float(sum(map(ord, t)) % 7), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return [0.0, 0.0, 1.0]


def test_vectors_are_embedded_once_and_survive_a_restart(tmp_path: Path) -> None:
    inner = Counting()
    cached = CachedEmbeddings(inner, VectorCache(tmp_path, "use/v3", 3))
    first = cached.embed_documents(["a", "bb", "a", "ccc"])
    assert inner.documents == ["a", "bb", "ccc"] and first[0] == first[2]
    again = cached.embed_documents(["bb", "a", "new"])
    assert again[:2] == [first[1], first[0]]
    assert cached.cache.save() == len(cached.cache) > 0
    assert cached.cache.save() == 0  # unchanged

    inner2 = Counting()
    reopened = CachedEmbeddings(inner2, VectorCache(tmp_path, "use/v3", 3), verify_first=True)
    assert reopened.embed_documents(["a", "bb", "new", "ccc"]) == [first[0], first[1], again[2], first[3]]
    assert inner.documents == ["a", "bb", "ccc", "new"]
    # one cached passage embedded again before the reopened cache serves anything: the same vector, so it does
    assert inner2.documents == ["a"] and (reopened.hits, reopened.misses) == (4, 0) and reopened.verified
    assert reopened.embed_query("a") == [0.0, 0.0, 1.0] and inner2.queries == ["a"]
    assert [p.name for p in cache_paths(tmp_path, "use/v3", 3)] == ["use_v3-3.vectors.npy", "use_v3-3.keys.npy"]


def test_another_embedder_or_dimension_has_its_own_files(tmp_path: Path) -> None:
    one = VectorCache(tmp_path, "a", 3)
    one.put(["x"], [[1.0, 2.0, 3.0]])
    one.save()
    assert len(VectorCache(tmp_path, "b", 3)) == 0 and len(VectorCache(tmp_path, "a", 4)) == 0
    vectors, keys = cache_paths(tmp_path, "a", 3)
    np.save(keys, np.zeros((5, 16), dtype=np.uint8))  # keys that do not match the vectors
    with pytest.raises(ValueError, match="does not match"):
        VectorCache(tmp_path, "a", 3)
    assert vectors.exists()


def test_a_long_run_saves_as_it_goes(tmp_path: Path) -> None:
    cached = CachedEmbeddings(Counting(), VectorCache(tmp_path, "a", 3), autosave_every=3)
    cached.embed_documents(["1", "2"])
    assert len(VectorCache(tmp_path, "a", 3)) == 0
    cached.embed_documents(["3", "4"])  # 4 unsaved >= 3: written
    assert len(VectorCache(tmp_path, "a", 3)) == 4


def test_synthetic_stand_ins_are_near_a_real_vector_deterministic_and_never_cached(tmp_path: Path) -> None:
    inner = Counting()
    cache = VectorCache(tmp_path, "a", 3)
    cached = CachedEmbeddings(inner, cache, synthetic=True)
    cache.put(["real"], [[3.0, 4.0, 0.0]])  # put by this run (a cache read from disk is verified first)
    first = cached.embed_documents(["real", "x", "y"])
    assert first[0] == [3.0, 4.0, 0.0] and inner.documents == []  # nothing embedded
    assert cached.embed_documents(["x"]) == [first[1]]  # the same text, the same stand-in
    donor = np.array([0.6, 0.8, 0.0])
    for v in first[1:]:
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5)
        assert float(np.dot(v, donor)) > 0.85  # the real scores' spread, not a random direction
    assert (cached.hits, cached.misses, cached.stand_ins) == (1, 0, 3)
    assert len(cache) == 1 and cache.save() == 1 and len(VectorCache(tmp_path, "a", 3)) == 1
    empty = CachedEmbeddings(Counting(), VectorCache(tmp_path, "b", 3), synthetic=True)
    [lone] = empty.embed_documents(["z"])
    assert np.linalg.norm(lone) == pytest.approx(1.0, abs=1e-5)


def test_a_killed_fill_keeps_each_finished_batch_and_resumes(tmp_path: Path) -> None:
    class Dies(Counting):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            if len(self.documents) >= 4:
                raise KeyboardInterrupt  # killed during the third batch
            return super().embed_documents(texts)

    texts = [f"t{i}" for i in range(7)]
    with pytest.raises(KeyboardInterrupt):
        fill(CachedEmbeddings(Dies(), VectorCache(tmp_path, "a", 3)), texts, batch=2, echo=lambda _: None)
    assert len(VectorCache(tmp_path, "a", 3)) == 4  # two batches on disk
    again = Counting()
    report = fill(CachedEmbeddings(again, VectorCache(tmp_path, "a", 3)), texts, batch=2, echo=lambda _: None)
    assert again.documents == ["t0", "t4", "t5", "t6"]  # t0 again: the cache's vectors checked as this embedder's
    assert report == {"texts": 7, "cached_before": 4, "embedded": 3, "cached_after": 7}


def test_while_questions_run_sentences_are_embedded_afresh_and_never_cached(tmp_path: Path) -> None:
    """The answer layer embeds sentences as passages; in a bench they are part of each question's cost, so with
    ``cache_passages`` off they go to the model, are not kept, and get no synthetic stand-in."""
    inner = Counting()
    cached = CachedEmbeddings(inner, VectorCache(tmp_path, "use/v3", 3), synthetic=True)
    cached.cache.put(["passage"], [[1.0, 0.0, 0.0]])
    cached.cache_passages = False
    cached.embed_documents(["passage", "a sentence of an answer"])
    assert inner.documents == ["passage", "a sentence of an answer"]  # both embedded: nothing served from cache
    assert len(cached.cache) == 1 and (cached.hits, cached.misses, cached.stand_ins) == (0, 0, 0)
    cached.cache_passages = True
    assert cached.embed_documents(["passage"]) == [[1.0, 0.0, 0.0]] and cached.hits == 1


class Other(Counting):
    """Another model of the same dimension: other vectors for the same texts."""

    name = "model-b"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += texts
        return [[1.0, -float(len(t)), float(sum(map(ord, t)) % 5)] for t in texts]


A = EmbedderFingerprint("model-a", 3, "1.0")
B = EmbedderFingerprint("model-b", 3, "2.0")


def test_a_cache_records_its_embedder_and_refuses_another_by_its_record(tmp_path: Path) -> None:
    written = VectorCache(tmp_path, "shared-name", 3, A)
    written.put(["p1", "p2"], Counting().embed_documents(["p1", "p2"]))
    written.save()
    assert written.recorded() == A and VectorCache(tmp_path, "shared-name", 3, A).recorded() == A
    with pytest.raises(CacheMismatch, match=r"model-a 1\.0 .* not of model-b 2\.0") as refused:
        VectorCache(tmp_path, "shared-name", 3, B)  # the same file name, another embedder: refused, not loaded
    assert "--cache-dir" in str(refused.value)
    with pytest.raises(CacheMismatch):  # the same model in another version is not served either
        VectorCache(tmp_path, "shared-name", 3, EmbedderFingerprint("model-a", 3, "1.1"))
    with pytest.raises(ValueError, match="3-dimensional"):
        VectorCache(tmp_path, "shared-name", 3, EmbedderFingerprint("model-a", 4, "1.0"))


@pytest.mark.parametrize("synthetic", [False, True])
def test_a_bench_run_on_a_cache_of_another_embedder_refuses_it_before_serving_a_vector(
        tmp_path: Path, synthetic: bool) -> None:
    """A cache file with no record (written before the record existed, or copied under this embedder's name)
    holding another model's vectors: its first cached passage is embedded again, differs, and the run stops
    before any cached vector (or a stand-in made from one) reaches an index; nothing is added to the file."""
    legacy = VectorCache(tmp_path, "shared-name", 3)
    legacy.put(["p1", "p2"], Counting().embed_documents(["p1", "p2"]))
    legacy.save()
    before = (legacy.vectors_path.read_bytes(), legacy.keys_path.read_bytes())
    inner = Other()
    cached = CachedEmbeddings(inner, VectorCache(tmp_path, "shared-name", 3, B), synthetic=synthetic,
                              verify_first=True)
    with pytest.raises(CacheMismatch, match="cosine") as refused:
        cached.embed_documents(["new", "p2", "p1"])
    assert "not of model-b 2.0" in str(refused.value)
    assert inner.documents == ["p2"] and (cached.hits, cached.misses, cached.stand_ins) == (0, 0, 0)
    with pytest.raises(CacheMismatch):  # the fill refuses it too, before embedding what the cache lacks
        fill(CachedEmbeddings(Other(), VectorCache(tmp_path, "shared-name", 3, B)), ["p1", "p3"], echo=lambda _: None)
    assert (legacy.vectors_path.read_bytes(), legacy.keys_path.read_bytes()) == before


def test_a_cache_of_this_embedder_without_a_record_is_served_and_records_it_on_save(tmp_path: Path) -> None:
    legacy = VectorCache(tmp_path, "a", 3)
    legacy.put(["p1"], Counting().embed_documents(["p1"]))
    legacy.save()
    assert legacy.recorded() is None
    inner = Counting()
    cached = CachedEmbeddings(inner, VectorCache(tmp_path, "a", 3, A), verify_first=True)
    assert cached.embed_documents(["p1", "p2"]) == Counting().embed_documents(["p1", "p2"])
    assert inner.documents == ["p1", "p2"] and cached.verified  # p1 checked once, p2 embedded
    cached.embed_documents(["p1"])
    assert inner.documents == ["p1", "p2"]  # checked once per run
    cached.cache.save()
    assert VectorCache(tmp_path, "a", 3).recorded() == A
