"""A message that asks several things, through the API: each part answered (or said absent) on its own, the
parts in the response, the decision in the trace."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.apps import URL, running_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("parts")) as c:
        docs = [{"id": "pottery", "title": "Glenrock pottery studio",
                 "text": "The wheel-throwing class at Glenrock costs 28 euros per session. "
                         "The wheel-throwing class is taught by Imogen Hale, a potter from Whitby. "
                         "Classes meet every Thursday evening in the barn behind the studio."}]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        yield c


def test_each_part_of_the_message_is_answered_with_its_citation(client: TestClient) -> None:
    r = client.post(URL, json={"action": "query", "question":
                               "How much is the wheel-throwing class at Glenrock? Who teaches it?"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "answered" and body["master"]["plan"]["pattern"] == "compound"
    parts = body["parts"]
    assert [p["question"] for p in parts] == ["How much is the wheel-throwing class at Glenrock?",
                                             "Who teaches the wheel-throwing class at Glenrock?"]
    assert [p["status"] for p in parts] == ["answered", "answered"]
    assert "28 euros" in parts[0]["answer"] and "Imogen Hale" in parts[1]["answer"]
    assert all(p["citations"] and p["citations"][0]["docId"] == "pottery" for p in parts)
    # the parts' markers are the whole answer's, numbered alike
    assert {c["index"] for p in parts for c in p["citations"]} <= {c["index"] for c in body["citations"]}
    nodes = [s["node"] for s in body["workflow"]["steps"]]
    assert nodes.count("execute_step") == 2 and nodes[-2:] == ["write_answer", "check_answer"]


def test_a_part_the_files_lack_is_said_and_the_message_still_answered(client: TestClient) -> None:
    body = client.post(URL, json={"action": "query", "question":
                                  "How much is the wheel-throwing class at Glenrock, and who founded the studio?"}
                       ).json()
    assert body["status"] == "answered"
    assert [p["status"] for p in body["parts"]] == ["answered", "no_results"]
    assert "do not contain an answer" in body["answer"].splitlines()[1]


def test_one_question_has_no_parts(client: TestClient) -> None:
    body = client.post(URL, json={"action": "query", "question": "Who teaches the wheel-throwing class?"}).json()
    assert body["parts"] == [] and body["master"]["plan"] is None


def test_the_parts_markers_are_renumbered_with_the_answer_s() -> None:
    from app.schemas import QueryResponse
    from app.schemas.query import AnswerPart, numbered_from_one

    cites = [{"index": i, "id": f"d{i}#0", "docId": f"d{i}", "title": f"T{i}"} for i in (2, 3)]
    response = QueryResponse.model_construct(answer="1. A? x [3]\n2. B? y [2]", citations=cites, parts=[
        AnswerPart(sub_question="q1", question="A?", status="answered", answer="x [3]", citations=[cites[1]]),
        AnswerPart(sub_question="q2", question="B?", status="answered", answer="y [2]", citations=[cites[0]])])
    out = numbered_from_one(response)
    assert out.answer == "1. A? x [1]\n2. B? y [2]"
    assert [(p.answer, [c["index"] for c in p.citations]) for p in out.parts] == [("x [1]", [1]), ("y [2]", [2])]
