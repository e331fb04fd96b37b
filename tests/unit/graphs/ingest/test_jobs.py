"""Ingest jobs: persisted, resumed after the process dies mid-job, failed (not lost) on an outage.

Real stores (Milvus Lite file, SQLite graph, journal, inventory and job store) and a deterministic embedder;
``Crash`` (a BaseException, as SIGKILL: no cleanup runs) kills the "process" in the middle of a batch.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings

from graphs.domain import Document, DocumentSection
from graphs.embeddings import EmbedderUnavailable
from graphs.ingest.jobs import DocumentOutcome, JobRunner, JobStore, ingest_each
from graphs.ingest.pipeline import Ingestor
from graphs.rag.context import GazetteerCache
from tests.support.ingest_stores import ingest_stores

DIM = 16


class Crash(BaseException):
    """The process dies here."""


class Embedder(Embeddings):
    """A deterministic embedder that can die (``Crash``) or be down (``EmbedderUnavailable``) on a call."""

    def __init__(self, crash_on_call: int | None = None, down: bool = False) -> None:
        self.inner = DeterministicFakeEmbedding(size=DIM)
        self.crash_on_call, self.down, self.calls = crash_on_call, down, 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.crash_on_call:
            raise Crash
        if self.down:
            raise EmbedderUnavailable("embedder down")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with ingest_stores(tmp_path, DIM) as parts:
        yield parts


def ingestor(stores: dict[str, Any], embedder: Embeddings) -> Ingestor:
    """A fresh Ingestor (a fresh process) on the stores."""
    return Ingestor(embedder=embedder, index=stores["index"], entities=stores["entities"],
                    gazetteer=GazetteerCache(stores["entities"]), kg=stores["graph"], journal=stores["graph"],
                    catalog=stores["catalog"])


DOCS = [Document(id=f"doc-{i}", title=f"Doc {i}", text=f"Text of document {i}.") for i in range(7)]


def test_a_job_killed_mid_batch_resumes_after_the_restart_and_loses_nothing(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder(crash_on_call=2)), batch_size=3, batch_target_s=None)
    job_id = runner.submit("upload", DOCS, {"skip_unchanged": True, "root": "/kb"},
                           outcomes=[DocumentOutcome(id="secret.pdf", status="failed", error="encrypted_file: ...")])
    with pytest.raises(Crash):
        runner.run_job(job_id)  # batch 1 is written, the process dies embedding batch 2
    store.close()

    store = JobStore(stores["jobs"])  # the restarted process
    view = store.view(job_id)
    assert view is not None and view.status == "running"
    assert (view.progress.done, view.progress.pending, view.progress.failed) == (3, 4, 1)
    restarted = ingestor(stores, Embedder())
    restarted.recover()
    assert store.next_job() == job_id
    JobRunner(store, restarted, batch_size=3, batch_target_s=None).run_job(job_id)

    view = store.view(job_id)
    assert view is not None and (view.status, view.resumed, view.error) == ("done", 1, "1 document(s) failed")
    assert (view.progress.total, view.progress.done, view.progress.failed, view.progress.pending) == (8, 7, 1, 0)
    assert [(d.id, d.status) for d in view.documents] == [*((d.id, "done") for d in DOCS), ("secret.pdf", "failed")]
    assert stores["index"].document_ids() == {d.id for d in DOCS}
    assert {r.id for r in stores["catalog"].under("/kb")} == {d.id for d in DOCS}
    assert store.next_job() is None


def test_an_embedder_outage_fails_the_job_and_lists_what_was_not_ingested(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    embedder = Embedder()
    runner = JobRunner(store, ingestor(stores, embedder), batch_size=3, batch_target_s=None)
    job_id = runner.submit("add-documents", DOCS)
    real = embedder.embed_documents

    def down_after_the_first_batch(texts: list[str]) -> list[list[float]]:
        if embedder.calls >= 1:
            raise EmbedderUnavailable("embedder stub failed: 503")
        return real(texts)

    embedder.embed_documents = down_after_the_first_batch  # type: ignore[method-assign]
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and view.status == "failed" and "503" in (view.error or "")
    assert (view.progress.done, view.progress.pending) == (3, 4)
    assert [d.status for d in view.documents] == ["done"] * 3 + ["pending"] * 4


def test_a_document_the_stores_refuse_fails_alone(stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ing = ingestor(stores, Embedder())
    real = ing.chunks

    def chunks(doc: Document, cancelled: Any = None) -> Any:
        if doc.id == "doc-1":
            raise ValueError("this document breaks the chunker")
        return real(doc)

    monkeypatch.setattr(ing, "chunks", chunks)
    outcomes, report = ingest_each(ing, DOCS[:3])
    assert [(o.id, o.status) for o in outcomes] == [("doc-0", "done"), ("doc-1", "failed"), ("doc-2", "done")]
    assert "breaks the chunker" in (outcomes[1].error or "") and report.documents == 2


def test_the_worker_thread_runs_submitted_jobs_and_stops(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=2)
    runner.start()
    try:
        job_id = runner.submit("add-documents", DOCS[:3])
        import time

        deadline = time.monotonic() + 60
        while (view := store.view(job_id)) is not None and view.status != "done" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert view is not None and view.status == "done" and view.progress.chunks == 3
    finally:
        runner.stop()


def snapshots(store: JobStore, job_id: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The job's view after each batch is recorded, and the size of each batch."""
    seen: list[Any] = []
    record = store.record

    def recorded(jid: str, outcomes: Any, seconds: float) -> None:
        record(jid, outcomes, seconds)
        if outcomes:
            seen.append((len(outcomes), store.view(jid)))

    monkeypatch.setattr(store, "record", recorded)
    return seen


class SlowEmbedder(Embedder):
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        import time

        time.sleep(self.seconds)
        return super().embed_documents(texts)


def test_slow_documents_move_the_progress_one_at_a_time_with_an_eta_from_the_first(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    store = JobStore(stores["jobs"])
    written: list[tuple[str, int, int]] = []
    # each document takes longer than a batch should: every batch is one document
    runner = JobRunner(store, ingestor(stores, SlowEmbedder(0.05)), batch_size=32, batch_target_s=0.01,
                       on_written=lambda kind, docs, chunks: written.append((kind, docs, chunks)))
    job_id = runner.submit("upload", DOCS, outcomes=[DocumentOutcome(id="bad.pdf", status="failed", error="x")])
    seen = snapshots(store, job_id, monkeypatch)
    runner.run_job(job_id)
    assert [size for size, _ in seen] == [1] * len(DOCS)
    assert [view.progress.done for _, view in seen] == list(range(1, len(DOCS) + 1))
    for _, view in seen[:-1]:
        p = view.progress
        assert p.eta_s is not None and p.eta_s > 0
        # the rate is the job's own work: the file that failed at submission is not a document it finished
        assert p.eta_s == round(p.pending / (p.done / p.seconds), 1)
    assert seen[-1][1].progress.pending == 0 and seen[-1][1].progress.eta_s == 0.0
    finished = store.view(job_id)
    assert finished is not None and finished.status == "done" and finished.progress.eta_s is None
    assert written == [("upload", 1, 1)] * len(DOCS)


def test_fast_documents_grow_the_batches_up_to_the_largest(stores: dict[str, Any],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    store = JobStore(stores["jobs"])
    docs = [Document(id=f"fast-{i}", title=f"Fast {i}", text=f"Text {i}.") for i in range(12)]
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=4, batch_target_s=3600.0)
    job_id = runner.submit("add-documents", docs)
    seen = snapshots(store, job_id, monkeypatch)
    runner.run_job(job_id)
    assert [size for size, _ in seen] == [1, 2, 4, 4, 1]
    assert seen[0][1].progress.eta_s is not None  # known after the first document
    assert store.view(job_id).status == "done"  # type: ignore[union-attr]


def test_a_job_shows_the_names_its_documents_linked_across_scripts_with_why(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=1, batch_target_s=None)
    job_id = store.create("upload", [
        Document(id="en.md", title="Timetable", text="Boats leave Shuiyue Harbour at seven every morning."),
        Document(id="zh.md", title="通知", text="水月港每天早上七点开船。"),
    ])
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and view.status == "done" and view.link_error is None
    assert [line.split(" (")[0] for line in view.linked] == ["水月港 = Shuiyue Harbour"]
    assert "linked by pinyin" in view.linked[0]
    wire = view.model_dump(by_alias=True, mode="json")
    assert wire["linked"] == view.linked and "linkError" in wire


def test_a_renamed_document_s_old_id_goes_only_once_its_new_one_is_written(stores: dict[str, Any]) -> None:
    """``renames`` (new id → old id, an upload of a renamed file): the old id is removed after the new one's
    batch is written; when the new one fails, the old one stays (the content is never out of the index)."""
    store = JobStore(stores["jobs"])
    embedder = Embedder()
    runner = JobRunner(store, ingestor(stores, embedder), batch_size=1, batch_target_s=None)
    old = [Document(id="kept/a.md", text="The kiln is fired every Tuesday."),
           Document(id="kept/b.md", text="The glaze room closes at six.")]
    runner.run_job(runner.submit("upload", old))
    new = [Document(id="kept/kiln.md", text=old[0].text), Document(id="kept/glaze.md", text=old[1].text)]
    job_id = runner.submit("upload", new, {"renames": {"kept/kiln.md": "kept/a.md", "kept/glaze.md": "kept/b.md"}})
    real = embedder.embed_documents

    def down_for_the_second(texts: list[str]) -> list[list[float]]:
        if any("glaze" in t for t in texts):
            raise ValueError("this document breaks the embedder")
        return real(texts)

    embedder.embed_documents = down_for_the_second  # type: ignore[method-assign]
    runner.run_job(job_id)
    ids = {r.id for r in stores["catalog"].list(limit=10)[1]}
    assert ids == {"kept/kiln.md", "kept/b.md"}
    view = store.view(job_id)
    assert view is not None and [(d.id, d.status) for d in view.documents] == [("kept/kiln.md", "done"),
                                                                              ("kept/glaze.md", "failed")]


def test_the_newest_jobs_are_listed_first_and_the_unfinished_ones_counted(stores: dict[str, Any]) -> None:
    """What a page opened after an upload (or after a restart) follows without the job's id, and what a question
    asked meanwhile is told is not searchable yet."""
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=3, batch_target_s=None)
    first = runner.submit("upload", DOCS[:2])
    runner.run_job(first)
    second = runner.submit("add-documents", DOCS[2:5])
    third = runner.submit("upload", DOCS[5:])
    assert store.recent() == [third, second, first]
    assert store.recent(2) == [third, second]
    assert store.recent(unfinished=True) == [third, second]
    assert store.pending_documents() == 5
    runner.run_job(second)
    assert store.recent(unfinished=True) == [third]
    assert store.pending_documents() == 2
    runner.run_job(third)
    assert store.recent(unfinished=True) == [] and store.pending_documents() == 0


class GatedEmbedder(Embedder):
    """An embedder that holds its first call until ``release`` is set (a batch still being written)."""

    def __init__(self) -> None:
        super().__init__()
        import threading

        self.entered, self.release = threading.Event(), threading.Event()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.entered.set()
        self.release.wait(30)
        return super().embed_documents(texts)


def test_stores_closed_under_a_batch_at_shutdown_end_the_worker_quietly_and_the_job_resumes(
        stores: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """The service waits for the batch in progress, then closes the stores; a batch that outlasts the wait used to
    log tracebacks ("Cannot operate on a closed database") as the worker went on into closed stores. Now it is one
    warning and the job is left running, to resume at the next start."""
    store = JobStore(stores["jobs"])
    embedder = GatedEmbedder()
    runner = JobRunner(store, ingestor(stores, embedder), batch_size=2, batch_target_s=None)
    runner.start()
    worker = runner._thread
    job_id = runner.submit("upload", DOCS[:4])
    assert embedder.entered.wait(30)
    with caplog.at_level("WARNING"):
        runner.stop(timeout_s=0.05)  # the wait ends with the batch still being written
        store.close()  # the service closes its stores
        embedder.release.set()
        assert worker is not None
        worker.join(30)
        assert not worker.is_alive()
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info], caplog.text
    assert "resumes at the next start" in caplog.text
    reopened = JobStore(stores["jobs"])
    view = reopened.view(job_id)
    assert view is not None and view.status == "running" and view.progress.pending == 4  # resumed, not failed
    reopened.close()


def test_a_job_with_nothing_finished_yet_is_estimated_from_the_earlier_jobs_rate(stores: dict[str, Any]) -> None:
    """A one-file upload has no rate of its own until its one document is done (it read "ETA unknown" for
    minutes): its pending text is estimated at the rate the store's earlier jobs wrote chunks. The first job of
    a store has no estimate."""
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=8, batch_target_s=None)
    first = runner.submit("upload", [Document(id="big.txt", text="word " * 3000)])
    store.start(first)
    view = store.view(first)
    assert view is not None and view.status == "running" and view.progress.eta_s is None  # nothing to go by
    runner.run_job(first)
    done = store.view(first)
    assert done is not None and done.status == "done" and done.progress.chunks > 1
    second = runner.submit("upload", [Document(id="bigger.txt", text="word " * 200_000)])
    store.start(second)
    view = store.view(second)
    assert view is not None and view.progress.done == 0 and view.progress.eta_s is not None
    assert view.progress.eta_s > 0
    store.close()


def test_pending_documents_read_no_table_while_nothing_changes_the_file(stores: dict[str, Any]) -> None:
    """Every question asks; while no job runs the answer is kept (two stat calls), and a job submitted by this
    store or by another process's connection to the same file is counted at once."""
    store = JobStore(stores["jobs"])
    store._pending.kept_s = 3600.0  # only a change of the file may read again here
    assert store.pending_documents() == 0
    reads = store._pending.reads
    assert [store.pending_documents() for _ in range(5)] == [0] * 5 and store._pending.reads == reads
    store.create("upload", DOCS[:2])  # this store's own write
    assert store.pending_documents() == 2
    other = JobStore(stores["jobs"])  # another process's connection
    other.create("upload", DOCS[2:3])
    assert store.pending_documents() == 3
    reads = store._pending.reads
    assert store.pending_documents() == 3 and store._pending.reads == reads


def test_a_job_file_written_before_cancellation_existed_is_migrated_and_keeps_its_jobs(tmp_path: Path) -> None:
    """An earlier version's job file checks a job's status against four values; opened now, its jobs table is
    rebuilt with the cancelled status allowed, every job and document kept."""
    import sqlite3

    from graphs.ingest import jobs as jobs_module

    path = tmp_path / "jobs.sqlite"
    old = jobs_module._SCHEMA.replace(", 'cancelled'", "")
    assert "'cancelled'" not in old
    conn = sqlite3.connect(path)
    conn.executescript(old)
    conn.execute("INSERT INTO jobs (id, kind, status, created_at) VALUES ('j1', 'upload', 'queued', '2026-01-01')")
    conn.execute("INSERT INTO job_documents (job_id, seq, doc_id, payload) VALUES ('j1', 0, 'a.txt', ?)",
                 (DOCS[0].model_dump_json(),))
    conn.commit()
    conn.close()

    store = JobStore(path)
    assert store.status("j1") == "queued" and store.doc_ids("j1") == ["a.txt"]
    assert store.cancel("j1") == "cancelled"
    store.close()
    reopened = JobStore(path)  # a second open leaves the migrated table alone
    view = reopened.view("j1")
    assert view is not None and (view.status, view.progress.pending) == ("cancelled", 1)
    assert reopened.cancel("nope") is None


def test_cancel_leaves_finished_jobs_alone_and_stops_a_worker_between_batches(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()), batch_size=2, batch_target_s=None)
    done = runner.submit("upload", DOCS[:2])
    runner.run_job(done)
    assert store.cancel(done) == "done"
    states: list[str] = []
    runner.on_status = states.append
    job_id = runner.submit("upload", DOCS[2:])
    runner.on_written = lambda *_: store.cancel(job_id)
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and (view.status, view.progress.done, view.progress.pending) == ("cancelled", 2, 3)
    assert states == ["queued", "running", "cancelled"]


def test_a_cancel_arriving_inside_a_batch_stops_it_before_its_write(stores: dict[str, Any],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of large documents takes minutes to chunk: a cancel then must not wait for the batch to be written
    (the documents a cancelled job still had were all ingested after it said "cancelled")."""
    store = JobStore(stores["jobs"])
    indexer = ingestor(stores, Embedder())
    runner = JobRunner(store, indexer, batch_size=8, batch_target_s=None)
    states: list[str] = []
    runner.on_status = states.append
    job_id = runner.submit("upload", DOCS[:4])
    real = indexer.chunks
    chunked: list[str] = []

    def chunks_then_cancel(doc: Document, cancelled: Any = None) -> Any:
        chunked.append(doc.id)
        if len(chunked) == 2:
            store.cancel(job_id)  # the user's cancel, while the batch's second document is being chunked
        return real(doc)

    monkeypatch.setattr(indexer, "chunks", chunks_then_cancel)
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and (view.status, view.progress.done, view.progress.pending) == ("cancelled", 0, 4)
    assert chunked == [DOCS[0].id, DOCS[1].id]  # stopped before the third document, and nothing written
    assert indexer.index.count() == 0 and states == ["queued", "running", "cancelled"]


def test_a_cancel_during_the_write_says_the_batch_goes_in_still(stores: dict[str, Any],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A cancel that comes once the batch is past its last check (being written) cannot stop it: the job says
    those documents are being written (a cancel answered "1 not ingested" while that document's write was
    ending, and it was in the index a second later), then counts them done; ``settle`` waits for the write."""
    import threading

    store = JobStore(stores["jobs"])
    indexer = ingestor(stores, Embedder())
    runner = JobRunner(store, indexer, batch_size=8, batch_target_s=None)
    job_id = runner.submit("upload", DOCS[:3])
    real = indexer._write_documents
    seen: list[Any] = []
    release = threading.Event()

    def write_after_a_cancel(prepared: Any) -> Any:
        store.cancel(job_id)  # the user's cancel, after the last check: the write goes on
        seen.append(store.view(job_id))
        assert not store.settle(job_id, 0.05)  # still writing: a short wait does not see it end
        release.wait(5)
        return real(prepared)

    monkeypatch.setattr(indexer, "_write_documents", write_after_a_cancel)
    worker = threading.Thread(target=runner.run_job, args=(job_id,))
    worker.start()
    while not seen:
        time.sleep(0.01)
    during = seen[0].progress
    assert (seen[0].status, during.pending, during.writing, during.done) == ("cancelled", 3, 3, 0)
    assert during.stage is not None and during.stage.startswith("writing ")
    release.set()
    assert store.settle(job_id, 5.0)
    worker.join(5)
    after = store.view(job_id)
    assert after is not None and after.status == "cancelled"
    assert (after.progress.done, after.progress.pending, after.progress.writing) == (3, 0, 0)
    assert indexer.index.count() > 0


def test_a_running_job_says_what_its_batch_is_doing(stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """One large file's job said "0 of 1 document(s) · 0 chunk(s)" for minutes: the view says which document the
    batch reads, then that it embeds and writes how many chunks; nothing once the batch is done."""
    store = JobStore(stores["jobs"])
    indexer = ingestor(stores, Embedder())
    runner = JobRunner(store, indexer, batch_size=8, batch_target_s=None)
    job_id = runner.submit("upload", DOCS[:2])
    stages: list[str | None] = []
    real_chunks, real_write = indexer.chunks, indexer._write_documents

    def chunks(doc: Document, cancelled: Any = None) -> Any:
        view = store.view(job_id)
        stages.append(view.progress.stage if view else None)
        return real_chunks(doc, cancelled)

    def write(prepared: Any) -> Any:
        view = store.view(job_id)
        stages.append(view.progress.stage if view else None)
        return real_write(prepared)

    monkeypatch.setattr(indexer, "chunks", chunks)
    monkeypatch.setattr(indexer, "_write_documents", write)
    runner.run_job(job_id)
    n = sum(len(real_chunks(d)[0]) for d in DOCS[:2])
    assert stages == [f"reading and tagging {DOCS[0].id} (1 of 2)", f"reading and tagging {DOCS[1].id} (2 of 2)",
                      f"writing {n:,} chunk(s)"]
    after = store.view(job_id)
    assert after is not None and after.status == "done" and after.progress.stage is None


def test_the_time_left_counts_the_pending_text_not_the_pending_documents(stores: dict[str, Any],
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A large file behind a small one: after the small one, the time left is the large one's chunks at the
    job's rate of chunks (it read "about 1 s left" for minutes when each document counted alike)."""
    store = JobStore(stores["jobs"])
    small = Document(id="note.txt", title="Note", text="A short note about the boiler.")
    large = Document(id="archive.txt", title="Archive", text="The boiler was serviced in spring. " * 2000)
    runner = JobRunner(store, ingestor(stores, SlowEmbedder(0.05)), batch_size=32, batch_target_s=0.01)
    job_id = runner.submit("upload", [small, large])
    seen = snapshots(store, job_id, monkeypatch)
    runner.run_job(job_id)
    first = seen[0][1].progress
    assert (first.done, first.pending, first.chunks) == (1, 1, 1)
    expected_chunks = len(large.model_dump_json()) / 700
    assert first.eta_s == round(expected_chunks / (first.chunks / first.seconds), 1)
    assert first.eta_s is not None and first.eta_s > 50 * first.seconds  # not the one document's time again


def test_the_time_left_counts_down_while_a_batch_runs_and_is_unknown_once_run_out(stores: dict[str, Any]) -> None:
    """A large file's batch takes minutes: the time left moves during it (it sat on "63 s" for the whole batch),
    and an estimate the batch outran is no estimate."""
    import time

    store = JobStore(stores["jobs"])
    job_id = store.create("upload", DOCS[:3])
    store.start(job_id)
    store.record(job_id, [(0, DocumentOutcome(id=DOCS[0].id, status="done", chunks=1))], 1.0)  # 1 chunk a second
    before = store.view(job_id)
    assert before is not None and before.progress.eta_s is not None and before.progress.eta_s > 0.5
    store.batch_begins(job_id)
    time.sleep(0.4)
    during = store.view(job_id)
    assert during is not None and during.progress.eta_s is not None
    assert during.progress.eta_s <= before.progress.eta_s - 0.3
    store._batches[job_id].since -= 3600  # the batch outran the estimate
    late = store.view(job_id)
    assert late is not None and late.status == "running" and late.progress.eta_s is None
    store.record(job_id, [(1, DocumentOutcome(id=DOCS[1].id, status="done", chunks=1))], 1.0)
    after = store.view(job_id)  # the batch is recorded: the job's own rate again
    assert after is not None and after.progress.eta_s is not None and after.progress.eta_s > 0


PARTS = [DocumentSection(text=f"Part {i}. The river plant shipped {i} tonnes of paper.", section=f"Part {i}")
         for i in range(12)]
LONG = Document(id="long-report", title="Annual report", text="\n".join(p.text for p in PARTS), sections=PARTS)
"""One document of many passages (a large file), each tagged on its own."""


def test_a_cancel_stops_a_large_document_at_its_next_passage_and_nothing_of_it_is_written(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1 MB file is one document of thousands of passages, tagged for tens of seconds: the cancel must not wait
    for the whole of it (the next upload sat "queued" behind a cancelled job meanwhile)."""
    store = JobStore(stores["jobs"])
    indexer = ingestor(stores, Embedder())
    runner = JobRunner(store, indexer, batch_size=8, batch_target_s=None)
    job_id = runner.submit("upload", [LONG])
    real = indexer._extracted
    tagged: list[str] = []

    def extracted_then_cancel(text: str, *args: Any) -> Any:
        tagged.append(text)
        if len(tagged) == 3:
            store.cancel(job_id)
        return real(text, *args)

    monkeypatch.setattr(indexer, "_extracted", extracted_then_cancel)
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and (view.status, view.progress.pending) == ("cancelled", 1)
    assert len(tagged) == 3 and indexer.index.count() == 0 and runner.active is None


def test_a_cancel_stops_the_embedding_of_a_large_document_between_slices(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from graphs.ingest import indexer as indexer_module

    monkeypatch.setattr(indexer_module, "EMBED_SLICE", 4)
    store = JobStore(stores["jobs"])
    embedder = Embedder()
    runner = JobRunner(store, ingestor(stores, embedder), batch_size=8, batch_target_s=None)
    job_id = runner.submit("upload", [LONG])
    embed = embedder.embed_documents

    def embed_then_cancel(texts: list[str]) -> list[list[float]]:
        store.cancel(job_id)  # while the first slice of 12 passages is embedded
        return embed(texts)

    monkeypatch.setattr(embedder, "embed_documents", embed_then_cancel)
    runner.run_job(job_id)
    assert embedder.calls == 1 and store.status(job_id) == "cancelled" and runner.ingestor.index.count() == 0


def test_a_queued_job_says_where_it_stands_and_why_it_waits(stores: dict[str, Any]) -> None:
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor(stores, Embedder()))
    first, second, third = (runner.submit("upload", [doc]) for doc in DOCS[:3])
    one = runner.queue(first)
    assert one is not None and (one.position, one.waiting_for) == (1, None) and "starts it now" in one.reason
    two = runner.queue(second)
    assert two is not None and (two.position, two.reason) == (2, "1 queued job(s) before it")

    store.start(first)  # the worker takes the first
    runner.active = first
    two, three = runner.queue(second), runner.queue(third)
    assert runner.queue(first) is None  # running: no queue to wait in
    assert two is not None and (two.position, two.waiting_for) == (2, first)
    assert two.reason == f"waiting for job {first[:8]} (0 of 1 documents written)"
    assert three is not None and three.position == 3 and three.reason.endswith("; 1 queued job(s) before it")

    store.cancel(first)  # cancelled, its worker still finishing the passage in hand
    two = runner.queue(second)
    assert two is not None and (two.position, two.waiting_for) == (1, first)
    assert two.reason == f"the cancelled job {first[:8]} is stopping at its next passage"
    runner.active = None  # stopped: the second is next
    two = runner.queue(second)
    assert two is not None and (two.position, two.waiting_for) == (1, None)
