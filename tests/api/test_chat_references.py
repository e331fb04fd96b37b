"""/v1 references are numbered from [1] in the order the answer cites them, whatever rank the cited passage
had (an answer from the second passage alone used to read "… [2]" with references starting at [2])."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.routes import openai_compat
from app.schemas import QueryResponse
from tests.support.apps import URL, running_app

CHAT = "/v1/chat/completions"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("refs")) as c:
        docs = [{"id": "kettle", "title": "Kettle", "text": "The Kestrel K9 kettle is made in Bolton."},
                {"id": "lamp", "title": "Lamp", "text": "The Lumo L4 lamp is made in Porto."}]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        yield c


def shifted(response: QueryResponse, by: int) -> QueryResponse:
    """The graph's answer as if its passages had been ranked ``by`` places lower (cited as [1+by], ...)."""
    cites = [{**c, "index": c["index"] + by} for c in response.citations]
    text = response.answer
    for c in sorted(response.citations, key=lambda c: -c["index"]):
        text = text.replace(f"[{c['index']}]", f"[{c['index'] + by}]")
    return response.model_copy(update={"answer": text, "citations": cites})


@pytest.fixture
def second_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    real = openai_compat.answer

    async def answer(*args: Any, **kw: Any) -> QueryResponse:
        return shifted(await real(*args, **kw), 1)

    monkeypatch.setattr(openai_compat, "answer", answer)


def test_references_start_at_one_when_the_answer_cites_a_lower_ranked_passage(
        client: TestClient, second_rank: None) -> None:
    r = client.post(CHAT, json={"model": "aer-extractive", "messages": [
        {"role": "user", "content": "Where is the Lumo L4 lamp made?"}]})
    assert r.status_code == 200, r.text
    body = r.json()
    content = body["choices"][0]["message"]["content"]
    assert "Porto" in content and "[1]" in content and "[2]" not in content
    assert "\n[1] Lamp (lamp)" in content
    assert [(c["index"], c["doc_id"]) for c in body["citations"]] == [(1, "lamp")]


def test_streamed_references_start_at_one_too(client: TestClient, second_rank: None) -> None:
    with client.stream("POST", CHAT, json={"model": "aer-extractive", "stream": True, "messages": [
            {"role": "user", "content": "Where is the Lumo L4 lamp made?"}]}) as r:
        events = [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: {")]
    content = "".join(e["choices"][0]["delta"].get("content") or "" for e in events if e.get("choices"))
    assert "[1]" in content and "[2]" not in content
    assert [c["index"] for c in events[-1]["citations"]] == [1]


def response_citing(answer: str, indexes: list[int]) -> QueryResponse:
    base = QueryResponse.model_construct(answer=answer, citations=[
        {"index": i, "id": f"d{i}#0", "docId": f"d{i}", "title": f"T{i}"} for i in indexes])
    return base


def test_numbering_follows_the_order_of_first_citation() -> None:
    r = openai_compat.numbered_from_one(response_citing("A [3]. B [2][3]. C [2, 3].", [2, 3]))
    assert r.answer == "A [1]. B [2][1]. C [2, 1]."
    assert [(c["index"], c["docId"]) for c in r.citations] == [(1, "d3"), (2, "d2")]


def test_an_unmarked_citation_follows_and_an_unknown_marker_is_kept() -> None:
    r = openai_compat.numbered_from_one(response_citing("See [4] and [9].", [4, 6]))
    assert r.answer == "See [1] and [9]."
    assert [(c["index"], c["docId"]) for c in r.citations] == [(1, "d4"), (2, "d6")]


def test_an_answer_numbered_from_one_is_unchanged() -> None:
    original = response_citing("X [1]. Y [2].", [1, 2])
    assert openai_compat.numbered_from_one(original) is original


def test_the_rest_answer_and_the_page_get_the_same_numbering() -> None:
    from app.schemas import to_response
    from graphs.domain import Citation, ParsedQuery

    cited = [Citation(index=2, id="lamp#0", doc_id="lamp", title="Lamp"),
             Citation(index=4, id="kettle#0", doc_id="kettle", title="Kettle")]
    out = {"parsed": ParsedQuery(original_query="q"), "answer": "Porto [2]; Bolton [4][2].", "citations": cited}
    r = to_response(out, None)
    assert r.answer == "Porto [1]; Bolton [2][1]."
    assert [(c["index"], c["id"]) for c in r.citations] == [(1, "lamp#0"), (2, "kettle#0")]  # the page links by id
