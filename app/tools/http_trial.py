"""A user's own trial through the HTTP API: upload a folder of documents to a running ``aer serve`` and ask its
questions through ``POST /api/adaptive-entity-rag`` — the path a user (and the review) takes.

The folder holds the documents (in ``files/`` when there is one, else the folder itself) and a
``questions.jsonl``, one question a line::

    {"id": "q1", "question": "Who chaired the meeting?", "answers": ["Wang Haiyan"], "files": ["minutes.docx"],
     "category": "who", "split": "dev"}

``answers`` empty (or ``"notFound": true``) means the documents do not answer it. ``files`` (or ``gold_ids``)
are document ids: a file's path under the folder, folders kept (``hr/policy.pdf``).

An answer is **useful** when it contains an expected answer (case, width, spaces and thousands separators
ignored) and cites one of the expected files; a question the documents do not answer is useful when the
service says so (``status`` not ``answered``).

A message that asks several things lists each part's expected answers in order, ``"parts": [{"answers":
[...]}, {"answers": []}]`` (empty: the files do not say it); it is useful only when every part is, each judged
against the response's part of the same place (``parts``), or, when the response has no parts, against the
whole answer (an absent part then only when the whole message is said not found).

A useful answer also has its **leading value right** when its short answer (``answerSpan``; without one, the
answer's first sentence, up to its first citation) holds an expected answer: "useful" accepts an expected answer
anywhere, so an answer that leads with a wrong value (another row's price, the booking date for the banquet's) and
holds the right one further down is useful but not leading-right. A question the files do not answer counts as
leading-right when it is useful (said not found).
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer

from app.client import RemoteError
from app.schemas import API_PATH
from graphs.ingest.loaders import discover
from graphs.text.sentences import split_sentences

QUESTIONS = "questions.jsonl"
DOC_FOLDERS = ("files", "documents")

Log = Callable[[str], None]


@dataclass(frozen=True)
class TrialQuestion:
    """One line of a trial's ``questions.jsonl``."""

    id: str
    question: str
    answers: tuple[str, ...]
    files: tuple[str, ...]
    category: str = ""
    split: str = ""
    parts: tuple[tuple[str, ...], ...] = ()
    """Each part's expected answers, in order (empty: the files do not say it), for a message that asks several
    things; none: judged as one question."""

    @property
    def not_found(self) -> bool:
        return not self.answers

    @classmethod
    def of(cls, item: dict[str, Any], where: str) -> TrialQuestion:
        if not isinstance(item, dict) or not str(item.get("question") or "").strip():
            raise ValueError(f"{where}: a question needs a non-empty 'question'")
        answers = tuple(str(a) for a in item.get("answers") or [])
        if item.get("notFound") and answers:
            raise ValueError(f"{where}: 'notFound' with expected answers")
        files = tuple(str(f) for f in (item.get("files") or item.get("gold_ids") or []))
        parts = item.get("parts") or []
        if not isinstance(parts, list) or not all(isinstance(p, dict) for p in parts):
            raise ValueError(f"{where}: 'parts' is a list of {{\"answers\": [...]}}")
        return cls(id=str(item.get("id") or where), question=str(item["question"]), answers=answers, files=files,
                   category=str(item.get("category") or item.get("type") or ""), split=str(item.get("split") or ""),
                   parts=tuple(tuple(str(a) for a in p.get("answers") or []) for p in parts))


def load_trial_questions(folder: Path) -> list[TrialQuestion]:
    """The questions of a trial folder; ValueError names the bad line, or the file when the folder has none."""
    path = folder / QUESTIONS
    if not path.is_file():
        raise ValueError(f"no {QUESTIONS} in {folder} (one JSON question a line: "
                         '{"question": ..., "answers": [...], "files": [...]})')
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: invalid JSON: {exc}") from exc
        out.append(TrialQuestion.of(item, f"{path}:{n}"))
    return out


def documents_root(folder: Path) -> Path:
    """Where a trial folder's documents are: its ``files/`` (or ``documents/``) folder, else the folder itself."""
    for name in DOC_FOLDERS:
        if (folder / name).is_dir():
            return folder / name
    return folder


def document_files(folder: Path) -> list[tuple[str, Path]]:
    """``(document id, path)`` of every supported file under the trial's documents root (its questions and
    README left out when the root is the folder itself)."""
    root = documents_root(folder)
    exclude = (QUESTIONS, "README.md", "*.py") if root == folder else ()
    return [(f.relative, f.path) for f in discover(root, exclude=exclude)]


# ---------------------------------------------------------------------------- scoring


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if not ch.isspace() and ch not in ",，")


def contains_expected(text: str, answers: Iterable[str]) -> bool:
    """Whether ``text`` contains one of the expected answers (case, full/half width, spaces and thousands
    separators ignored)."""
    have = _norm(text)
    return any(_norm(a) and _norm(a) in have for a in answers)


_CITATION = re.compile(r"\[\d+\]")


def short_answer(body: dict[str, Any]) -> str:
    """The value an answer leads with: its ``answerSpan``, or else its first sentence up to its first citation
    marker (an extractive answer lists sentences, each closed by its ``[n]``)."""
    span = str(body.get("answerSpan") or "").strip()
    if span:
        return span
    head = _CITATION.split(str(body.get("answer") or ""), maxsplit=1)[0]
    sentences = split_sentences(head)
    return sentences[0] if sentences else head.strip()


def cited_files(body: dict[str, Any]) -> list[str]:
    """The document ids an API answer cites, in citation order."""
    return list(dict.fromkeys(str(c.get("docId") or "") for c in body.get("citations") or [] if c.get("docId")))


def llm_use(body: dict[str, Any]) -> dict[str, Any]:
    """What an API answer says of the LLM: its calls in all and the writer's (0 when the answerability gate
    stopped the call), how the answer was written, and the steps that degraded."""
    steps = (body.get("workflow") or {}).get("steps") or []
    writer = [s.get("llmCalls", 0) for s in steps if s.get("node") == "write_answer"]
    return {"llmCalls": (body.get("llm") or {}).get("calls", 0), "writerLlmCalls": sum(writer) if writer else None,
            "answerMode": body.get("answerMode"), "degraded": list(body.get("degraded") or [])}


def decided(body: dict[str, Any]) -> dict[str, Any] | None:
    """What decided the answer or the "not found" (the decision, what decided it, the named veto, the score and its
    threshold, the reason): a trial's refusals tabulated by mechanism."""
    a = body.get("answerability")
    if not isinstance(a, dict):
        return None
    return {k: a.get(k) for k in ("decision", "decidedBy", "rule", "score", "threshold", "reason")}


def judge(q: TrialQuestion, body: dict[str, Any]) -> tuple[bool, str]:
    """``(useful, why)`` of one API answer (of each of its parts, for a message that asks several things)."""
    if q.parts:
        return _judge_parts(q, body)
    return _judge_one(q, body)


def _judge_parts(q: TrialQuestion, body: dict[str, Any]) -> tuple[bool, str]:
    """Every part of a message judged as one question: against the response's part of the same place when the
    response has as many parts, else against the whole answer."""
    given = [p for p in body.get("parts") or [] if isinstance(p, dict)]
    whole = len(given) != len(q.parts)
    verdicts = []
    for n, expected in enumerate(q.parts):
        part = TrialQuestion(id=f"{q.id}.{n + 1}", question=q.question, answers=expected,
                             files=q.files if expected else ())
        useful, why = _judge_one(part, body if whole else given[n])
        verdicts.append((useful, f"part {n + 1}: {why}"))
    failed = [why for useful, why in verdicts if not useful]
    shape = f"{len(given)} part(s) answered for {len(q.parts)} asked; " if whole else ""
    return not failed, shape + ("; ".join(failed) if failed else "every part useful")


def leads_right(q: TrialQuestion, body: dict[str, Any]) -> bool:
    """Whether a useful answer leads with an expected answer: its short answer (``short_answer``) holds one; for a
    message that asks several things, each answered part's short answer (a response without parts as many as
    asked has no part's lead to read: it counts as useful). Call it on useful answers: it does not check the
    status or the citations."""
    if q.parts:
        given = [p for p in body.get("parts") or [] if isinstance(p, dict)]
        if len(given) != len(q.parts):
            return True
        return all(not expected or contains_expected(short_answer(part), expected)
                   for expected, part in zip(q.parts, given, strict=True))
    return q.not_found or contains_expected(short_answer(body), q.answers)


def _under_root(path: str) -> str:
    """An expected file as a document id: the path under the documents folder, so "files/a.md" names "a.md"."""
    head, _, rest = path.replace("\\", "/").partition("/")
    return rest if head in DOC_FOLDERS and rest else path


def _judge_one(q: TrialQuestion, body: dict[str, Any]) -> tuple[bool, str]:
    answered = body.get("status") == "answered"
    if q.not_found:
        return (not answered, "said not found" if not answered else "answered a question the files do not answer")
    if not answered:
        return False, "said not found (false refusal)"
    text = " ".join(str(body.get(k) or "") for k in ("answerSpan", "answer"))
    if not contains_expected(text, q.answers):
        return False, "answer lacks the expected answer"
    cited = cited_files(body)
    if q.files and not {_under_root(f) for f in q.files} & set(cited):
        return False, f"no citation of an expected file (cited {cited})"
    return True, "contains the answer, cites an expected file"


# ---------------------------------------------------------------------------- the HTTP client


@dataclass
class TrialResult:
    rows: list[dict[str, Any]] = field(default_factory=list)
    upload: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """Useful x/N per split and per category, and the failures per split by category."""
        by_split: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in self.rows:
            by_split[r["split"] or "all"].append(r)
        out: dict[str, Any] = {}
        for split, rows in sorted(by_split.items()):
            cats: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
            for r in rows:
                cats[r["category"] or "uncategorised"][0] += int(r["useful"])
                cats[r["category"] or "uncategorised"][1] += int(_leads(r))
                cats[r["category"] or "uncategorised"][2] += 1
            out[split] = {"useful": sum(r["useful"] for r in rows), "leadingRight": sum(_leads(r) for r in rows),
                          "questions": len(rows),
                          "categories": {c: f"{u}/{n}" for c, (u, _, n) in sorted(cats.items())},
                          "leadingByCategory": {c: f"{lead}/{n}" for c, (_, lead, n) in sorted(cats.items())},
                          "failures": Counter(r["category"] or "uncategorised" for r in rows if not r["useful"])}
        return out


def _leads(row: dict[str, Any]) -> bool:
    """A row's leading-value verdict (a row written before the figure existed: its useful verdict)."""
    return bool(row.get("leadingRight", row["useful"]))


class TrialClient:
    """Upload and ask through the service's HTTP API."""

    workspace: str | None = None
    """The trial's workspace; none: the service's default."""

    def __init__(self, base_url: str, *, api_key: str | None = None, timeout: float = 120.0,
                 http: httpx.Client | None = None, poll_s: float = 1.0, workspace: str | None = None) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.http = http or httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout)
        self.poll_s = poll_s
        self.workspace = workspace
        self.headers = {"X-Workspace": workspace} if workspace else {}
        """Every call's workspace (``X-Workspace``); none: the service's default."""

    def close(self) -> None:
        self.http.close()

    def check_workspace(self) -> None:
        """Stop before anything is sent when the trial's workspace is not one the service has (for this key):
        the upload came back as a raw refusal, and with ``--no-upload`` every question as an HTTP 404 row."""
        name = self.workspace
        if not name:
            return
        r = self.http.get(API_PATH, params={"action": "entities", "limit": 1}, headers=self.headers)
        if r.status_code == 200:
            return
        code, message = _error_of(r)
        hint = (f" (create it first: aer workspaces create {name} --server {self.http.base_url})"
                if code == "workspace_not_found" else "")
        raise RemoteError(r.status_code, code, f"workspace {name!r}: {message}{hint}", {"workspace": name})

    def upload(self, files: Sequence[tuple[str, Path]], root: str, *, wait_s: float = 1800.0,
               wait_vectors: bool = False, log: Log = lambda _: None) -> dict[str, Any]:
        """Upload the files (their ids: the paths under the root) and wait for the ingest jobs to finish; a folder
        with more files than the server takes per request goes in as several uploads of its limit each. With
        ``wait_vectors``, also wait until the jobs report no chunk whose dense vectors are still filling (a
        document is searchable at once, its e5 vectors follow: questions asked before they are in are answered
        from BM25, the graph and the chunks a search embeds within its budget)."""
        per_request = len(files) or 1
        jobs: list[dict[str, Any]] = []
        start = 0
        while start < len(files):
            part = files[start:start + per_request]
            refused = self._upload_part(part, root, wait_s, log, jobs)
            if refused is None:
                start += len(part)
                continue
            if refused.get("code") == "too_many_files" and not jobs and per_request == len(files):
                per_request = int(refused["details"]["maxFiles"])  # the server's limit, said in its 422
                log(f"the server takes {per_request} files per upload: sending {len(files)} in parts")
                continue
            raise RemoteError(refused["status"], refused["code"], f"upload refused: {refused['message']}",
                              refused["details"] or None)
        failed = [j for j in jobs if j["status"] != "done"]
        settled = self._wait_vectors([j["jobId"] for j in jobs], wait_s, log) if wait_vectors else None
        return {"jobId": jobs[-1]["jobId"] if jobs else None, "jobIds": [j["jobId"] for j in jobs],
                "status": "failed" if failed else "done", "vectorsSettledS": settled,
                "files": [f for j in jobs for f in (j.get("files") or [])],
                "documents": [d for j in jobs for d in (j.get("documents") or [])]}

    def _upload_part(self, files: Sequence[tuple[str, Path]], root: str, wait_s: float, log: Log,
                     jobs: list[dict[str, Any]]) -> dict[str, Any] | None:
        """One upload request and its job (appended to ``jobs``); the error body when the server refused it."""
        parts = [("files", (name, path.read_bytes(), "application/octet-stream")) for name, path in files]
        r = self.http.post(f"{API_PATH}/upload", files=parts, data={"root": root}, headers=self.headers)
        if r.status_code != 202:
            code, message = _error_of(r)
            try:
                details = dict(r.json().get("error") or {}).get("details") or {}
            except (ValueError, AttributeError):
                details = {}
            return {"status": r.status_code, "code": code, "message": message, "details": details,
                    "text": r.text[:500]}
        body = r.json()
        job_id = body["jobId"]
        deadline = time.monotonic() + wait_s
        while True:
            job = self.http.get(API_PATH, params={"action": "job", "id": job_id}, headers=self.headers).json()["job"]
            if job["status"] in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                raise RemoteError(0, "timeout", f"ingest job {job_id} not finished after {wait_s:.0f} s",
                                  {"jobId": job_id})
            time.sleep(self.poll_s)
        log(f"ingest job {job_id}: {job['status']}")
        jobs.append({"jobId": job_id, "status": job["status"], "files": body.get("files"),
                     "documents": job.get("documents")})
        return None

    def _wait_vectors(self, job_ids: Sequence[str], wait_s: float, log: Log) -> float:
        """Seconds until every job reports no chunk with its vectors pending (``progress.vectorsPending``)."""
        started = time.monotonic()
        pending = list(job_ids)
        while pending:
            job = self.http.get(API_PATH, params={"action": "job", "id": pending[0]}, headers=self.headers).json()["job"]
            if not (job.get("progress") or {}).get("vectorsPending"):
                pending.pop(0)
                continue
            if time.monotonic() - started > wait_s:
                raise RemoteError(0, "timeout", f"ingest job {pending[0]}: vectors still pending after {wait_s:.0f} s",
                                  {"jobId": pending[0]})
            time.sleep(self.poll_s)
        waited = round(time.monotonic() - started, 1)
        log(f"dense vectors of every uploaded chunk in after {waited} s")
        return waited

    def ask(self, question: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
        r = self.http.post(API_PATH, json={"action": "query", "question": question, **(options or {})},
                           headers=self.headers)
        if r.status_code != 200:
            return {"status": "error", "answer": f"HTTP {r.status_code}: {r.text[:300]}", "citations": []}
        return dict(r.json())


def _error_of(r: httpx.Response) -> tuple[str, str]:
    """The error code and message of a refused request (its text when the body is not the error shape)."""
    try:
        error = r.json().get("error") or {}
        return str(error.get("code") or "error"), str(error.get("message") or r.text[:300])
    except (ValueError, AttributeError):
        return "error", r.text[:300]


def run_trial(folder: Path, client: TrialClient, *, split: str | None = None, upload: bool = True,
              wait_vectors: bool = False, options: dict[str, Any] | None = None,
              log: Log = lambda _: None) -> TrialResult:
    """Upload the folder's documents (unless ``upload`` is false) and ask its questions (of ``split``); with
    ``wait_vectors``, only once the upload's dense vectors are all in."""
    questions = load_trial_questions(folder)
    if split:
        questions = [q for q in questions if q.split == split]
    result = TrialResult()
    client.check_workspace()
    if upload:
        result.upload = client.upload(document_files(folder), root=folder.resolve().name,
                                      wait_vectors=wait_vectors, log=log)
    for q in questions:
        started = time.perf_counter()
        body = client.ask(q.question, options)
        useful, why = judge(q, body)
        leading = useful and leads_right(q, body)
        result.rows.append({
            "id": q.id, "split": q.split, "category": q.category, "question": q.question,
            "expected": list(q.answers) or "not found", "files": list(q.files), "useful": useful,
            "leadingRight": leading, "why": why if leading or not useful else f"{why}; leads with another value",
            "status": body.get("status"), "answerSpan": body.get("answerSpan"),
            "answer": str(body.get("answer") or "")[:400], "cited": cited_files(body),
            "parts": [{"question": p.get("question"), "status": p.get("status"), "answerSpan": p.get("answerSpan")}
                      for p in body.get("parts") or [] if isinstance(p, dict)],
            "ms": round((time.perf_counter() - started) * 1000), **llm_use(body),
            "answerability": decided(body),
        })
        label = "/".join(part for part in (q.split, q.category) if part)  # a set without splits or categories: none
        verdict = ("useful" if leading else "useful, wrong lead") if useful else "NOT useful"
        log(f"{q.id}{f' [{label}]' if label else ''} {verdict}: {result.rows[-1]['why']}")
    return result


def render_markdown(result: TrialResult) -> str:
    """The trial as a table per split (useful, and leading value right), then each question that was not useful
    or led with another value."""
    lines = []
    for split, s in result.summary().items():
        lines += [f"## {split}: useful {s['useful']}/{s['questions']}, leading value right "
                  f"{s['leadingRight']}/{s['questions']}", "",
                  "| category | useful | leading value right |", "|---|---|---|"]
        lines += [f"| {c} | {v} | {s['leadingByCategory'][c]} |" for c, v in s["categories"].items()]
        lines.append("")
        for r in result.rows:
            if (r["split"] or "all") == split and not _leads(r):
                lines.append(f"- `{r['id']}` ({r['category']}) {r['question']} — expected {r['expected']}; "
                             f"got {r['status']}: {r['answerSpan'] or r['answer'][:120]!r} — {r['why']}")
        lines.append("")
    return "\n".join(lines)


def trial_failed(exc: Exception, url: str) -> typer.Exit:
    """Say why a trial stopped in the CLI's one format (``error: CODE: message``; under ``--json`` the API's error
    body) and return its exit: 2 when the trial's own input or the request was refused (a bad questions file, an
    unknown workspace, a 4xx), 3 when the service could not do it now (unreachable, too slow, a 5xx). Before, every
    failure was ``error: [Errno 111] Connection refused``-style text without a code, and exit 2 for all."""
    from app.console import refused, unavailable

    if isinstance(exc, RemoteError):
        say = unavailable if exc.status == 0 or exc.status >= 500 else refused
        return say(exc.code, exc.message, exc.details)
    if isinstance(exc, httpx.TimeoutException):
        return unavailable("timeout", f"{url} did not answer in time ({exc})",
                           hint="a slow service (a local LLM on a CPU) needs a longer --timeout")
    if isinstance(exc, httpx.HTTPError):
        return unavailable("connection_failed", f"cannot reach {url}: {exc}",
                           hint="start the service first (aer serve), or give its address with --url")
    if isinstance(exc, ValueError):
        return refused("invalid_questions", str(exc))
    return refused("unreadable_file", f"{getattr(exc, 'filename', None) or 'a file'}: {exc.strerror or exc}"
                   if isinstance(exc, OSError) else str(exc))


def trial_command(
    folder: Annotated[Path, typer.Argument(exists=True, file_okay=False,
                                           help="Folder with questions.jsonl and the documents (in files/ if present).")],
    url: Annotated[str, typer.Option(help="Base URL of a running `aer serve`.")] = "http://127.0.0.1:8000",
    api_key: Annotated[str | None, typer.Option("--api-key", help="A key, when the service requires one.")] = None,
    split: Annotated[str | None, typer.Option(help="Only the questions of this split (e.g. dev).")] = None,
    upload: Annotated[bool, typer.Option("--upload/--no-upload", help="Upload the documents first.")] = True,
    wait_vectors: Annotated[bool, typer.Option(
        "--wait-vectors", help="Ask only once the upload's dense vectors are all in (they fill in behind an "
                               "upload; by default the questions come right after it, as a user's may).")] = False,
    out: Annotated[Path | None, typer.Option(dir_okay=False, help="Write every answer here (JSON).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON summary instead of the table.")] = False,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=1.0, help="Seconds to wait for each answer (a local LLM on a CPU needs minutes).")] = 120.0,
    workspace: Annotated[str | None, typer.Option(
        "--workspace", help="Upload to and ask in this workspace (create it first: aer workspaces create NAME); "
                            "default: the service's default workspace.")] = None,
) -> None:
    """Upload a folder of your own documents to a running service and score its answers to your questions."""
    client = TrialClient(url, api_key=api_key, workspace=workspace, timeout=timeout)
    try:
        result = run_trial(folder, client, split=split, upload=upload, wait_vectors=wait_vectors,
                           log=lambda s: typer.echo(s, err=True))
    except (RemoteError, httpx.HTTPError, ValueError, OSError) as exc:
        raise trial_failed(exc, url) from exc
    finally:
        client.close()
    if out is not None:
        out.write_text(json.dumps({"summary": result.summary(), "upload": result.upload, "answers": result.rows},
                                  indent=2, ensure_ascii=False), encoding="utf-8")
        typer.echo(f"wrote {out}", err=True)
    typer.echo(json.dumps(result.summary(), indent=2, ensure_ascii=False) if as_json else render_markdown(result))
