"""A user's own files as a dataset: ``aer eval FOLDER`` reads the documents through the upload's loaders (ids:
paths under the folder), and ``aer trial`` uploads them to a service and scores each answer as useful or not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.client import RemoteError
from app.settings import Settings
from app.tools.eval import EvalQuestion, load_own_documents, own_documents, own_fingerprint, prepare_index
from app.tools.http_trial import (
    TrialClient,
    TrialQuestion,
    contains_expected,
    document_files,
    judge,
    leads_right,
    load_trial_questions,
    render_markdown,
    run_trial,
    short_answer,
)
from tests.support.apps import running_app

QUESTIONS = [
    {"id": "q1", "question": "How many pallets does the north depot store?", "answers": ["40"],
     "files": ["north/report.md"], "category": "how_many", "split": "dev"},
    {"id": "q2", "question": "What is the phone number of the south depot's manager?", "answers": [],
     "notFound": True, "files": [], "category": "absent_attribute", "split": "held"},
    {"id": "q3", "question": "南仓库存放了多少箱玻璃？", "answers": ["75"], "files": ["south/report.md"],
     "category": "how_many", "split": "held"},
]


def make_folder(root: Path, *, in_files: bool = True) -> Path:
    docs = root / "files" if in_files else root
    (docs / "north").mkdir(parents=True)
    (docs / "south").mkdir(parents=True)
    (docs / "north" / "report.md").write_text("# North depot\n\nThe north depot stores 40 pallets of tiles.\n",
                                              encoding="utf-8")
    (docs / "south" / "report.md").write_text("# 南仓库\n\n南仓库存放了75箱玻璃。\n", encoding="utf-8")
    (docs / "prices.csv").write_text("Item,Price (EUR)\nTile,3\n", encoding="utf-8")
    (root / "questions.jsonl").write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS) + "\n",
                                          encoding="utf-8")
    (root / "README.md").write_text("How this set was made.\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("in_files", [True, False])
def test_the_documents_are_the_supported_files_with_their_paths_as_ids(tmp_path: Path, in_files: bool) -> None:
    root = make_folder(tmp_path / "own", in_files=in_files)
    assert [i for i, _ in document_files(root)] == ["north/report.md", "prices.csv", "south/report.md"]
    docs = load_own_documents(own_documents(root))
    assert [d.id for d in docs] == ["north/report.md", "prices.csv", "south/report.md"]
    assert docs[1].text == "Price — Tile: 3 EUR"  # the upload's loaders: a CSV's header unit on its number


def test_an_unreadable_file_is_named_and_left_out(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    (root / "files" / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    logs: list[str] = []
    docs = load_own_documents(own_documents(root), logs.append)
    assert "broken.pdf" not in [d.id for d in docs] and any("broken.pdf: corrupt_file" in line for line in logs)


def test_a_folder_with_a_corpus_is_read_as_before(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    (root / "corpus.jsonl").write_text(json.dumps({"id": "d1", "text": "x"}) + "\n", encoding="utf-8")
    assert own_documents(root) == []


def test_the_fingerprint_follows_content_and_ids(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    files = own_documents(root)
    before = own_fingerprint(files, {"embedder": "use"})
    (root / "files" / "north" / "report.md").write_text("# North\n\nNow 41 pallets.\n", encoding="utf-8")
    assert own_fingerprint(files, {"embedder": "use"}) != before
    assert own_fingerprint(files, {"embedder": "e5"}) != own_fingerprint(files, {"embedder": "use"})


def test_eval_questions_take_files_as_gold_ids_and_category_as_type() -> None:
    q = EvalQuestion.model_validate(QUESTIONS[0])
    assert q.gold_ids == ["north/report.md"] and q.type == "how_many"


def test_prepare_index_ingests_the_own_documents(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    settings = Settings(_env_file=None, data_dir=tmp_path / "data",  # type: ignore[call-arg]
                        eval_vector_cache=tmp_path / "vectors")
    ingested: list[list[str]] = []

    class Fake:
        def __init__(self, s: Settings) -> None:
            self.settings, self.context, self.index, self.ingestor = s, self, self, self
            self.embedder = self

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[1.0, 0.0] for _ in texts]

        def embed_query(self, text: str) -> list[float]:
            return [1.0, 0.0]

        def ingest(self, docs: list[Any], progress: Any = None) -> Any:
            ingested.append([d.id for d in docs])
            return type("Report", (), {"documents": len(docs), "chunks": len(docs)})()

        def count(self, filter: str | None = None) -> int:
            return 3

        def close(self) -> None:
            pass

    prepared = prepare_index(root, settings, opener=Fake)
    assert ingested == [["north/report.md", "prices.csv", "south/report.md"]] and prepared.manifest["documents"] == 3


def test_questions_need_text_and_not_found_has_no_answers(tmp_path: Path) -> None:
    (tmp_path / "questions.jsonl").write_text('{"id": "x", "question": "Q?", "answers": ["a"], "notFound": true}\n',
                                              encoding="utf-8")
    with pytest.raises(ValueError, match="notFound"):
        load_trial_questions(tmp_path)
    (tmp_path / "questions.jsonl").write_text('{"id": "x", "question": " "}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="non-empty"):
        load_trial_questions(tmp_path)


def test_contains_expected_ignores_case_width_spaces_and_separators() -> None:
    assert contains_expected("The town has 12400 residents.", ["12,400"])
    assert contains_expected("ＡｅｒｏＭｉｎｉ M5 is cheaper", ["aeromini m5"])
    assert contains_expected("交货周期为 10 天", ["10天"])
    assert not contains_expected("5天", ["15天"]) and not contains_expected("anything", [""])


def test_judge_wants_the_answer_and_a_citation_of_an_expected_file() -> None:
    q = TrialQuestion(id="q", question="?", answers=("40",), files=("north/report.md",))
    cited = {"status": "answered", "answer": "It stores 40 pallets [1].",
             "citations": [{"index": 1, "docId": "north/report.md"}]}
    assert judge(q, cited)[0]
    assert judge(q, {**cited, "citations": [{"index": 1, "docId": "south/report.md"}]}) == (
        False, "no citation of an expected file (cited ['south/report.md'])")
    assert not judge(q, {**cited, "answer": "It stores many pallets [1]."})[0]
    assert judge(q, {"status": "no_results", "answer": "not found"})[1] == "said not found (false refusal)"
    absent = TrialQuestion(id="n", question="?", answers=(), files=())
    assert judge(absent, {"status": "no_results"})[0] and not judge(absent, cited)[0]


def test_an_expected_file_named_with_its_documents_folder_is_the_same_document() -> None:
    """A set that lists "files/north/report.md" means the document uploaded as "north/report.md"."""
    cited = {"status": "answered", "answer": "It stores 40 pallets [1].",
             "citations": [{"index": 1, "docId": "north/report.md"}]}
    assert judge(TrialQuestion(id="q", question="?", answers=("40",), files=("files/north/report.md",)), cited)[0]
    assert not judge(TrialQuestion(id="q", question="?", answers=("40",), files=("files/south/report.md",)),
                     cited)[0]


def test_llm_use_reads_the_writer_s_calls_from_its_step() -> None:
    from app.tools.http_trial import llm_use

    body = {"llm": {"calls": 1}, "answerMode": "none", "degraded": [],
            "workflow": {"steps": [{"node": "parse_query", "llmCalls": 1}, {"node": "write_answer", "llmCalls": 0}]}}
    assert llm_use(body) == {"llmCalls": 1, "writerLlmCalls": 0, "answerMode": "none", "degraded": []}
    assert llm_use({"status": "error"})["writerLlmCalls"] is None  # no steps: unknown, not 0


def test_decided_keeps_what_decided_an_answer() -> None:
    from app.tools.http_trial import decided

    body = {"answerability": {"decision": "not_found", "decidedBy": "rule", "rule": "misgoverned", "score": 0.71,
                              "threshold": 0.33, "reason": "the passages give 9 for the hall, not for the annex",
                              "features": {"coverage": 0.8}}}
    assert decided(body) == {"decision": "not_found", "decidedBy": "rule", "rule": "misgoverned", "score": 0.71,
                             "threshold": 0.33, "reason": "the passages give 9 for the hall, not for the annex"}
    assert decided({"status": "error"}) is None


def test_a_trial_uploads_the_folder_and_asks_through_the_api(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    with running_app(tmp_path / "data") as http:
        client = TrialClient("http://testserver", http=_Unclosed(http), poll_s=0.05)
        result = run_trial(root, client, split=None)
        docs = http.get("/api/adaptive-entity-rag", params={"action": "documents"}).json()["documents"]
    assert result.upload["status"] == "done"
    assert {d["id"] for d in docs} == {"north/report.md", "south/report.md", "prices.csv"}
    assert {d["root"] for d in docs} == {"own"}
    assert [r["id"] for r in result.rows] == ["q1", "q2", "q3"]
    q1 = result.rows[0]
    assert q1["useful"] is True and q1["cited"][0] == "north/report.md"
    # no LLM configured: none asked, by the writer either; the answer extractive
    assert (q1["llmCalls"], q1["writerLlmCalls"], q1["answerMode"], q1["degraded"]) == (0, 0, "extractive", [])
    # what decided each answer travels with it: a trial's refusals tabulate by mechanism
    assert q1["answerability"]["decision"] == "answerable" and q1["answerability"]["decidedBy"] in (
        "rule", "score", "lexicon", "meaning")
    summary = result.summary()
    assert set(summary) == {"dev", "held"} and summary["dev"]["questions"] == 1 and summary["held"]["questions"] == 2
    assert "## dev: useful 1/1, leading value right 1/1" in render_markdown(result)


def test_a_folder_larger_than_the_upload_limit_goes_in_parts(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")  # 3 files; the server takes 2 per upload
    with running_app(tmp_path / "data", upload_max_files=2) as http:
        client = TrialClient("http://testserver", http=_Unclosed(http), poll_s=0.05)
        result = run_trial(root, client, split=None)
        docs = http.get("/api/adaptive-entity-rag", params={"action": "documents"}).json()["documents"]
    assert result.upload["status"] == "done" and len(result.upload["jobIds"]) == 2
    assert {d["id"] for d in docs} == {"north/report.md", "south/report.md", "prices.csv"}
    assert result.rows[0]["useful"] is True


def test_a_trial_in_a_workspace_uploads_and_asks_there_only(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    with running_app(tmp_path / "data") as http:
        assert http.post("/api/workspaces", json={"name": "trial"}).status_code == 201
        client = TrialClient("http://testserver", http=_Unclosed(http), poll_s=0.05, workspace="trial")
        result = run_trial(root, client, split="dev")
        in_trial = http.get("/api/adaptive-entity-rag", params={"action": "documents", "workspace": "trial"}).json()
        in_default = http.get("/api/adaptive-entity-rag", params={"action": "documents"}).json()
    assert result.upload["status"] == "done" and in_trial["total"] == 3 and in_default["total"] == 0
    assert result.rows[0]["useful"] is True and result.rows[0]["cited"][0] == "north/report.md"


def test_a_split_asks_only_its_questions(tmp_path: Path) -> None:
    root = make_folder(tmp_path / "own")
    asked: list[str] = []

    class Asker(TrialClient):
        def __init__(self) -> None:
            pass

        def ask(self, question: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
            asked.append(question)
            return {"status": "no_results", "answer": "", "citations": []}

    result = run_trial(root, Asker(), split="held", upload=False)
    assert asked == [QUESTIONS[1]["question"], QUESTIONS[2]["question"]]
    assert [r["useful"] for r in result.rows] == [True, False]


class _Unclosed:
    """The test client, left open for the app's own context manager to close."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def close(self) -> None:
        pass


@pytest.mark.parametrize("upload", [True, False])
def test_a_trial_in_a_workspace_the_service_lacks_stops_with_one_clear_line(tmp_path: Path, upload: bool) -> None:
    """The upload's refusal was printed as a raw dict; with --no-upload every question came back as an HTTP 404
    row and the trial scored 0 useful."""
    root = make_folder(tmp_path / "own")
    with running_app(tmp_path / "data") as http:
        client = TrialClient("http://testserver", http=_Unclosed(http), poll_s=0.05, workspace="nowhere")
        with pytest.raises(RemoteError) as refused:
            run_trial(root, client, upload=upload)
        in_default = http.get("/api/adaptive-entity-rag", params={"action": "documents"}).json()
    assert (refused.value.status, refused.value.code) == (404, "workspace_not_found")
    assert refused.value.message == ("workspace 'nowhere': no workspace 'nowhere' (create it first: aer workspaces "
                                     "create nowhere --server http://testserver)")
    assert in_default["total"] == 0


class _FillingService:
    """A service whose upload job is done at once while its chunks' dense vectors fill over two more polls."""

    def __init__(self) -> None:
        self.polls = 0

    def post(self, url: str, **_: Any) -> httpx.Response:
        return httpx.Response(202, json={"jobId": "j1", "files": []})

    def get(self, url: str, params: dict[str, Any] | None = None, **_: Any) -> httpx.Response:
        self.polls += 1
        pending = max(0, 3 - self.polls)  # poll 1: the job done with 2 chunks pending, poll 3: none
        return httpx.Response(200, json={"job": {"status": "done", "documents": [],
                                                 "progress": {"vectorsPending": pending}}})

    def close(self) -> None:
        pass


@pytest.mark.parametrize("wait_vectors", [False, True])
def test_wait_vectors_asks_only_once_no_chunk_waits_for_its_vectors(tmp_path: Path, wait_vectors: bool) -> None:
    service = _FillingService()
    client = TrialClient("http://testserver", http=service, poll_s=0.0)  # type: ignore[arg-type]
    upload = client.upload([("a.md", make_folder(tmp_path / "own") / "files" / "north" / "report.md")], root="own",
                           wait_vectors=wait_vectors)
    assert upload["status"] == "done"
    if wait_vectors:  # polled until the job said no vectors pending, and says how long that took
        assert service.polls == 3 and isinstance(upload["vectorsSettledS"], float)
    else:  # the questions come right after the job: the vectors are not waited for
        assert service.polls == 1 and upload["vectorsSettledS"] is None


def test_a_message_with_parts_is_useful_only_when_every_part_is() -> None:
    q = TrialQuestion.of({"question": "多少钱？谁教？", "answers": ["90元", "苏青"], "files": ["a.md"],
                          "parts": [{"answers": ["90元"]}, {"answers": ["苏青"]}, {"answers": []}]}, "line 1")
    assert q.parts == (("90元",), ("苏青",), ())
    cite = [{"index": 1, "docId": "a.md"}]
    part = {"status": "answered", "citations": cite}
    body = {"status": "answered", "answer": "90元 苏青", "citations": cite, "parts": [
        {**part, "answer": "90元[1]"}, {**part, "answer": "苏青[1]"}, {"status": "no_results", "answer": "没有"}]}
    assert judge(q, body) == (True, "every part useful")
    wrong = {**body, "parts": [body["parts"][0], {**part, "answer": "李明[1]"}, body["parts"][2]]}
    assert judge(q, wrong) == (False, "part 2: answer lacks the expected answer")
    # a response without parts is judged as a whole: an absent part is useful only when the whole is not found
    whole = {"status": "answered", "answer": "90元，苏青[1]", "citations": cite}
    assert judge(q, whole) == (False, "0 part(s) answered for 3 asked; part 3: answered a question the files do "
                                      "not answer")


def test_questions_without_split_or_category_are_listed_plainly(tmp_path: Path) -> None:
    """A new user's own questions.jsonl seldom has splits or categories: the lines read "q1 useful: …" (they read
    "q1 [/] useful"), and the summary counts them as one uncategorised group."""
    root = make_folder(tmp_path / "own")
    (root / "questions.jsonl").write_text(json.dumps(
        {"id": "q1", "question": "How many pallets does the north depot store?", "answers": ["40"],
         "files": ["north/report.md"]}) + "\n", encoding="utf-8")
    lines: list[str] = []
    with running_app(tmp_path / "data") as http:
        result = run_trial(root, TrialClient("http://testserver", http=_Unclosed(http), poll_s=0.05), log=lines.append)
    asked = [line for line in lines if line.startswith("q1")]
    assert asked and asked[0].startswith("q1 useful:") and "[/]" not in "\n".join(lines)
    assert result.summary()["all"]["categories"] == {"uncategorised": "1/1"}


def test_the_short_answer_is_the_span_or_else_the_first_sentence_up_to_its_citation() -> None:
    assert short_answer({"answerSpan": "£40", "answer": "£40. The ferry costs £40 for a car.[1]"}) == "£40"
    assert short_answer({"answer": "A car crosses for £40.[1] A van crosses for £65.[2]"}) == "A car crosses for £40."
    assert short_answer({"answer": "单人间每晚 320 元[1]双人间每晚 450 元[1]"}) == "单人间每晚 320 元"
    assert short_answer({"answer": "班车每天发车两次。末班车为 18:30。[1]"}) == "班车每天发车两次。"
    assert short_answer({"answer": "", "answerSpan": None}) == ""


@pytest.mark.parametrize(("answer", "span", "leads"), [
    ("£65. A van crosses for £65.[1] A car crosses for £40.[1]", "£65", True),
    ("£40. A car crosses for £40.[1] A van crosses for £65.[1]", "£40", False),  # the right value further down
    ("A car crosses for £40.[1] A van crosses for £65.[1]", None, False),
    ("货车过渡收费 65 元。[1]小汽车过渡收费 40 元。[1]", None, True),
    ("小汽车过渡收费 40 元。[1]货车过渡收费 65 元。[1]", None, False),
])
def test_leading_value_right_reads_only_the_value_an_answer_leads_with(answer: str, span: str | None,
                                                                       leads: bool) -> None:
    q = TrialQuestion.of({"question": "How much does a van pay?", "answers": ["£65", "65"], "files": ["f.md"]}, "1")
    body = {"status": "answered", "answer": answer, "answerSpan": span, "citations": [{"docId": "f.md"}]}
    assert judge(q, body)[0] is True  # useful either way: the right value is in the answer
    assert leads_right(q, body) is leads


def test_a_trial_counts_useful_answers_that_lead_with_another_value(tmp_path: Path) -> None:
    """The table and each answer's row carry "leading value right" beside "useful"; "useful" keeps its meaning."""
    root = make_folder(tmp_path / "own")
    replies = {
        QUESTIONS[0]["question"]: {"status": "answered", "answerSpan": "12", "citations": [{"docId": "north/report.md"}],
                                   "answer": "12. The north depot stores 12 vans and 40 pallets.[1]"},
        QUESTIONS[1]["question"]: {"status": "no_results", "answer": "", "citations": []},
        QUESTIONS[2]["question"]: {"status": "answered", "answerSpan": "75", "citations": [{"docId": "south/report.md"}],
                                   "answer": "75. 南仓库存放了75箱玻璃。[1]"},
    }

    class Asker(TrialClient):
        def __init__(self) -> None:
            pass

        def ask(self, question: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
            return replies[question]

    result = run_trial(root, Asker(), upload=False)
    assert [(r["useful"], r["leadingRight"]) for r in result.rows] == [(True, False), (True, True), (True, True)]
    assert result.rows[0]["why"].endswith("leads with another value")
    summary = result.summary()
    assert (summary["dev"]["useful"], summary["dev"]["leadingRight"]) == (1, 0)
    assert (summary["held"]["useful"], summary["held"]["leadingRight"]) == (2, 2)
    table = render_markdown(result)
    assert "## dev: useful 1/1, leading value right 0/1" in table and "| how_many | 1/1 | 0/1 |" in table
    assert "`q1`" in table and "`q3`" not in table  # a wrong lead is listed; a right one is not


def test_a_part_leads_right_only_when_its_own_short_answer_holds_its_value() -> None:
    q = TrialQuestion.of({"question": "多少钱？谁教？", "answers": ["90元", "苏青"], "files": ["a.md"],
                          "parts": [{"answers": ["90元"]}, {"answers": ["苏青"]}]}, "line 1")
    cite = [{"docId": "a.md"}]
    right = {"status": "answered", "citations": cite, "parts": [
        {"status": "answered", "answer": "90元[1]", "citations": cite},
        {"status": "answered", "answerSpan": "苏青", "answer": "苏青。由苏青授课[1]", "citations": cite}]}
    assert leads_right(q, right) is True
    led_by_another = {**right, "parts": [right["parts"][0],
                                        {"status": "answered", "answerSpan": "李明", "citations": cite,
                                         "answer": "李明。李明与苏青授课[1]"}]}
    assert judge(q, led_by_another)[0] is True and leads_right(q, led_by_another) is False
