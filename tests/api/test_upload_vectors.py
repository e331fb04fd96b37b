"""An upload is answerable before its dense vectors are computed (``AER_VECTORS_IN_BACKGROUND``): the job is
done with ``vectorsPending`` chunks, a question finds the file by its words, and the background fill brings the
count to 0."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.support.apps import URL, running_app

TEXT = ("# Quillfeather Observatory\n\nThe Quillfeather Observatory opened its copper dome in the spring of 1911.\n\n"
        + " ".join(f"Night {i}: the astronomers logged the comet from the copper dome." for i in range(60)))


def wait_for(client: TestClient, job_id: str, done: Any, timeout_s: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(URL, params={"action": "job", "id": job_id}).json()["job"]
        if done(job) or time.monotonic() > deadline:
            return job
        time.sleep(0.05)


def upload(client: TestClient) -> str:
    r = client.post(f"{URL}/upload", files=[("files", ("quill.md", TEXT.encode(), "text/markdown"))])
    assert r.status_code == 202, r.text
    return str(r.json()["jobId"])


def top_doc(client: TestClient, question: str = "When did the Quillfeather Observatory open?",
            mode: str = "auto") -> str | None:
    body = client.post(URL, json={"action": "query", "question": question, "search_mode": mode}).json()
    top = body["retrievalDetails"]["topResults"]
    return top[0]["docId"] if top else None


def test_an_upload_is_answerable_before_its_vectors_and_the_fill_follows(tmp_path: Path) -> None:
    with running_app(tmp_path, vectors_in_background=True) as client:
        fill = client.app.state.resources.ingestor.vector_fill  # type: ignore[attr-defined]
        fill.stop()  # hold the fill: the state a user sees while e5 is still embedding
        job = wait_for(client, upload(client), lambda j: j["status"] in ("done", "failed"))
        assert job["status"] == "done" and job["progress"]["chunks"] > 1
        assert job["progress"]["vectorsPending"] == job["progress"]["chunks"]
        assert top_doc(client) == "quill.md"  # answered from its words while no vector is in
        # the dense-only routes too, and a question in another language (no word in common), before any vector
        for mode in ("semantic", "structured"):
            assert top_doc(client, mode=mode) == "quill.md", mode
        assert top_doc(client, "这座天文台的铜制穹顶是哪一年启用的？", "semantic") == "quill.md"
        assert client.get(URL, params={"action": "job", "id": job["id"]}).json()["job"]["progress"][
            "vectorsPending"] == job["progress"]["chunks"]  # still no vector in
        fill.start()
        job = wait_for(client, job["id"], lambda j: j["progress"]["vectorsPending"] == 0)
        assert job["progress"]["vectorsPending"] == 0
        index = client.app.state.resources.context.index  # type: ignore[attr-defined]
        assert all(any(v) for v in index.chunk_vectors("quill.md").values())
        assert top_doc(client) == "quill.md"


def test_without_the_background_fill_a_job_embeds_before_it_writes(tmp_path: Path) -> None:
    with running_app(tmp_path, vectors_in_background=False) as client:
        assert client.app.state.resources.ingestor.vector_fill is None  # type: ignore[attr-defined]
        job = wait_for(client, upload(client), lambda j: j["status"] in ("done", "failed"))
        assert job["status"] == "done" and job["progress"]["vectorsPending"] is None
        index = client.app.state.resources.context.index  # type: ignore[attr-defined]
        assert all(any(v) for v in index.chunk_vectors("quill.md").values())


def test_a_not_found_given_while_vectors_fill_says_so_and_counts_them(tmp_path: Path) -> None:
    """A refusal given while an upload's vectors still fill is not the documents' last word (meaning search has
    not seen those chunks): the response counts them and the answer says to ask again shortly."""
    absent = {"en": "What is the Quillfeather Observatory's telephone number?", "zh": "鹊羽天文台的电话号码是多少？"}
    with running_app(tmp_path, vectors_in_background=True) as client:
        fill = client.app.state.resources.ingestor.vector_fill  # type: ignore[attr-defined]
        fill.stop()
        job = wait_for(client, upload(client), lambda j: j["status"] in ("done", "failed"))
        pending = job["progress"]["vectorsPending"]
        assert pending > 1
        for lang, question in absent.items():
            body = client.post(URL, json={"action": "query", "question": question}).json()
            assert body["status"] == "no_results" and body["vectorsPending"] == pending, (lang, body["answer"])
            assert (f"{pending} chunks" if lang == "en" else f"{pending} 个片段") in body["answer"]
        streamed = client.post(URL, json={"action": "query", "question": absent["en"], "stream": True})
        assert f"{pending} chunks" in streamed.text and "vectorsPending" in streamed.text  # the page streams
        answered = client.post(URL, json={"action": "query", "question": "When did the Quillfeather Observatory open?"})
        assert answered.json()["status"] == "answered" and "indexed for meaning" not in answered.json()["answer"]
        assert answered.json()["vectorsPending"] == pending  # counted on every answer while they fill
        fill.start()
        wait_for(client, job["id"], lambda j: j["progress"]["vectorsPending"] == 0)
        body = client.post(URL, json={"action": "query", "question": absent["en"]}).json()
        assert body["status"] == "no_results" and body["vectorsPending"] == 0
        assert "indexed for meaning" not in body["answer"]


def test_a_document_deleted_while_its_vectors_fill_is_no_longer_counted(tmp_path: Path) -> None:
    """Deleting an upload before its vectors were in left its chunks counted: a "not found" asked right after said
    "1 个片段正在建立语义索引" of a document that no longer existed."""
    with running_app(tmp_path, vectors_in_background=True) as client:
        fill = client.app.state.resources.ingestor.vector_fill  # type: ignore[attr-defined]
        fill.stop()
        job = wait_for(client, upload(client), lambda j: j["status"] in ("done", "failed"))
        assert job["progress"]["vectorsPending"] > 1
        deleted = client.post(URL, json={"action": "delete-document", "id": "quill.md"})
        assert deleted.status_code == 200, deleted.text
        body = client.post(URL, json={"action": "query", "question": "鹊羽天文台的电话号码是多少？"}).json()
        assert body["status"] == "no_results" and body["vectorsPending"] == 0, body["answer"]
        assert "片段" not in body["answer"]
