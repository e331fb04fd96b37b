"""The ``aer`` command: serve, mcp, demo, ingest, delete, documents, jobs, query, entities, graph, local-llm.

``aer --help`` imports nothing but Typer: the service, its stores and models are imported inside the commands
that use them, and the offline tools' commands (eval, bench, loadtest, export-dpo, local-llm) are loaded when one
is run or asked for its help (``LazyGroup``).

A command that opens the data dir first checks whether another process holds its Milvus Lite file: then it uses
the server running on the configured host and port if one answers there (and says so), or stops with one line
that says to add ``--server URL``.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer.core import TyperCommand, TyperGroup

import app

if TYPE_CHECKING:
    from app.client import RemoteClient
    from app.container import Resources
    from app.schemas import QueryResponse
    from app.settings import Settings
    from graphs.domain import Document
    from graphs.ingest.pipeline import IngestReport

EntityType = Literal["PERSON", "ORGANIZATION", "PRODUCT", "EVENT", "LOCATION", "DATE", "CONCEPT", "OTHER"]
"""``graphs.domain.EntityType``, spelled here so that building the commands imports no model (a test keeps the
two equal)."""

LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "eval": ("app.tools.eval", "eval_command",
             "Measure retrieval (Recall@2/5, MRR) and answer quality (EM/F1) of a dataset, per search mode."),
    "trial": ("app.tools.http_trial", "trial_command",
              "Upload a folder of your own documents to a running service and score its answers to your "
              "questions."),
    "bench": ("app.tools.bench.command", "bench_command",
              "Benchmark ingest, per-route latency, HTTP QPS and memory on synthetic bilingual data."),
    "reindex": ("app.reindex", "reindex_command",
                "Re-embed every chunk with another embedder (e5, use, openai) into a new collection, then switch to it."),
    "loadtest": ("app.tools.loadtest", "loadtest_command",
                 "Sustained mixed load (queries + add-entity) on a real `aer serve`; fails on any error or lost "
                 "write."),
    "export-dpo": ("app.tools.dpo", "export_dpo_command",
                   "Export critical-step DPO pairs (D1 strategy, D2 continue/stop, D3 switch) from logged "
                   "trajectories."),
    "local-llm": ("app.tools.local_llm", "local_llm_app",
                  "Install and serve the optional offline LLM (xllamacpp + Qwen2.5)."),
}
"""Commands imported only when run: name -> (module, attribute, the help ``aer --help`` lists)."""


def load_command(name: str) -> Any:
    """The click command of a lazy command (its module imported now)."""
    module, attr, about = LAZY_COMMANDS[name]
    target = getattr(importlib.import_module(module), attr)
    command: Any
    if isinstance(target, typer.Typer):
        command = typer.main.get_group(target)
        command.help = about
    else:
        single = typer.Typer(add_completion=False)
        single.command(name)(target)
        command = typer.main.get_command(single)
    command.name = name
    return command


class LazyGroup(TyperGroup):
    """The ``aer`` group, with the offline tools' commands listed by name and help and imported when run."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: set[str] = set()
        for name, (_, _, about) in LAZY_COMMANDS.items():
            self.commands.setdefault(name, TyperCommand(name, help=about))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else None
        if name in LAZY_COMMANDS and name not in self._loaded:
            self.commands[name] = load_command(name)
            self._loaded.add(name)
        return super().resolve_command(ctx, args)


# Plain click help: Typer's rich help imports rich's markdown and traceback modules (about 0.3 s of CPU, more
# than all the rest of `aer --help`).
cli = typer.Typer(cls=LazyGroup, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Adaptive entity-routing RAG service.")
entities_cli = typer.Typer(no_args_is_help=True, help="Manage the entity store.")
cli.add_typer(entities_cli, name="entities")
documents_cli = typer.Typer(no_args_is_help=True, help="The document inventory: list, show, delete.")
cli.add_typer(documents_cli, name="documents")
jobs_cli = typer.Typer(no_args_is_help=True, help="Ingest jobs (uploads and large add-documents requests).")
cli.add_typer(jobs_cli, name="jobs")

SEED_QUESTIONS = ("马斯克创办的公司有哪些？", "2024年苹果在北京发布的产品", "什么是机器学习？")

ServerOption = Annotated[
    str | None,
    typer.Option("--server", help="Use a running server (http://host:8000) instead of opening the local stores."),
]


def demo_dir() -> Path:
    """The bundled demo corpus and entity list."""
    packaged = Path(app.__file__).parent / "_demo"
    return packaged if packaged.is_dir() else Path(app.__file__).resolve().parent.parent / "demo"


def data_dir_holder(settings: Settings) -> bool:
    """Whether another process holds this data dir's Milvus Lite file (a Milvus server URI: never)."""
    if settings.milvus_uri:
        return False
    from graphs.stores.lite_lock import lite_file_locked

    return lite_file_locked(Path(settings.milvus_target()))


def local_server(settings: Settings) -> str | None:
    """The URL of this service answering on the configured host and port, or None."""
    import httpx

    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
    url = f"http://{host}:{settings.port}"
    try:
        answer = httpx.get(f"{url}/healthz", timeout=2.0)
        return url if answer.status_code == 200 and answer.json().get("status") == "ok" else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return None


def locked_out(settings: Settings) -> typer.Exit:
    """Say that the data dir is in use and how to reach the process using it (exit 3)."""
    typer.secho(f"error: {settings.milvus_target()} is in use by another process (a running `aer serve`?): "
                f"add --server http://HOST:PORT to go through that server", fg="red", err=True)
    return typer.Exit(3)


def route(server: str | None) -> str | None:
    """The server a command should use: ``--server`` when given; else, when another process holds the data dir,
    the server answering on AER_HOST:AER_PORT (said on stderr), or exit 3 with one line saying to add
    ``--server``; None: open the data dir here."""
    if server:
        return server
    from app.settings import Settings

    settings = Settings()
    if not data_dir_holder(settings):
        return None
    url = local_server(settings)
    if url is None:
        raise locked_out(settings)
    typer.secho(f"note: {settings.milvus_target()} is in use by the server at {url}: using it (--server {url})",
                fg="yellow", err=True)
    return url


@contextmanager
def opened(settings: Settings | None = None) -> Iterator[Resources]:
    """Build the process resources and close them afterwards, with store errors made readable (a data dir
    another process holds: one line, exit 3)."""
    from app.container import build_resources
    from app.settings import Settings
    from graphs.embeddings import EmbedderMismatch
    from graphs.stores.base import StoreError

    settings = settings or Settings()
    if data_dir_holder(settings):
        raise locked_out(settings)
    try:
        resources = build_resources(settings)
    except EmbedderMismatch as exc:  # the message names both embedders and `aer reindex`
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc
    except StoreError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        typer.secho("hint: is a server already using this data dir? Only one process may open a Milvus Lite file.",
                    err=True)
        raise typer.Exit(3) from exc
    try:
        yield resources
    finally:
        resources.close()


@contextmanager
def remote(server: str) -> Iterator[RemoteClient]:
    """A client of a running server, with its errors made readable (exit 2; 3 when unreachable).

    Sends the first of ``AER_API_KEYS`` as the API key, so one environment serves both ends.
    """
    from app.client import RemoteClient, RemoteError
    from app.settings import Settings

    keys = Settings().api_keys
    try:
        with RemoteClient(server, api_key=keys[0].get_secret_value() if keys else None) as client:
            yield client
    except RemoteError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(3 if exc.status == 0 else 2) from exc


def read_documents(path: Path) -> list[Document]:
    """Read a corpus JSONL file, naming the line of any bad record."""
    from pydantic import ValidationError

    from graphs.domain import Document

    docs = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                docs.append(Document.model_validate_json(line))
            except ValidationError as exc:
                raise typer.BadParameter(f"{path}:{n}: {exc.errors()[0]['msg']}") from exc
    return docs


def throughput_line(report: IngestReport) -> str:
    """``80 chunks in 2.0 s = 40.0 chunks/s; the embedder alone 52.0 chunks/s (23% of the time outside it)``."""
    line = f"{report.chunks} chunk(s) in {report.seconds:.1f} s"
    if report.chunks_per_s is not None:
        line += f" = {report.chunks_per_s:.1f} chunks/s"
    if report.embed_chunks_per_s is not None and report.outside_embedder is not None:
        line += (f"; the embedder alone {report.embed_chunks_per_s:.1f} chunks/s "
                 f"({100 * report.outside_embedder:.0f}% of the time outside the embedder: files, entities, writes)")
    return line


def ingest_documents(resources: Resources, docs: list[Document]) -> None:
    """Ingest with a progress bar (tqdm on a terminal, log lines elsewhere) that moves per document: batches
    start at one document (``BatchSizer``)."""
    from graphs.ingest.pipeline import IngestReport
    from graphs.ingest.progress import BatchSizer, Progress

    bar = Progress(len(docs))
    sizer = BatchSizer()
    report = IngestReport()
    start = 0
    while start < len(docs):
        batch = docs[start : start + sizer.size]
        part = resources.ingestor.ingest(batch, batch_size=len(batch))
        sizer.record(len(batch), part.seconds)
        report.add(part)
        bar.update(len(batch), part.chunks)
        start += len(batch)
    bar.close()
    typer.echo(f"ingested {report.documents} document(s) as {report.chunks} chunk(s); "
               f"entities extracted from text for {report.extracted}")
    typer.echo(f"throughput: {throughput_line(report)}")


@cli.command()
def ingest(
    path: Annotated[Path, typer.Argument(exists=True, help="A file or a folder (recursive) of .md, .txt, .html, "
                                         ".pdf, .docx, .csv, .tsv and .jsonl files.")],
    include: Annotated[list[str] | None, typer.Option(
        "--include", "-i", help="Only files whose path (relative to PATH) or name matches this glob; repeatable.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", "-x", help="Leave out files matching this glob; repeatable.")] = None,
    id_prefix: Annotated[str, typer.Option(help="Prefix of every file's document id (its path under PATH).")] = "",
    prune: Annotated[bool, typer.Option(
        "--prune", help="Delete the documents ingested from PATH before whose file is gone.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Re-ingest unchanged documents too.")] = False,
    server: ServerOption = None,
) -> None:
    """Ingest files: a document per file (id: its path under PATH; a JSONL file's lines are documents with their
    own ids). A changed file replaces its document, an unchanged one is skipped."""
    from app.documents import ingest_folder
    from graphs.embeddings import EmbedderUnavailable
    from graphs.ingest.progress import Progress
    from graphs.stores.base import StoreError

    if server := route(server):
        ingest_remote(server, path, include or [], exclude or [], id_prefix, prune, force)
        return
    with opened() as resources:
        try:
            result = ingest_folder(resources, path, include=include or [], exclude=exclude or [],
                                   id_prefix=id_prefix, prune=prune, force=force, progress=Progress)
        except (StoreError, EmbedderUnavailable) as exc:
            typer.secho(f"error: {exc}", fg="red", err=True)
            raise typer.Exit(3) from exc
    for item in result.skipped:
        typer.secho(f"skipped: {item.relative}: {item.reason}", fg="yellow", err=True)
    if not result.files:
        typer.secho(f"no supported files under {path} (.md .txt .html .pdf .docx .csv .tsv .jsonl)", fg="red", err=True)
        raise typer.Exit(1)
    for outcome in result.failed:
        typer.secho(f"failed: {outcome.id}: {outcome.error}", fg="red", err=True)
    report = result.report
    for doc_id in report.replaced:
        typer.secho(f"replaced: {doc_id} (its earlier version is gone)", fg="yellow", err=True)
    typer.echo(f"ingested {report.documents} document(s) as {report.chunks} chunk(s) from {len(result.files)} "
               f"file(s); skipped {len(report.skipped)} unchanged; removed {len(result.removed)}; "
               f"failed {len(result.failed)}" + (f"; replaced {len(report.replaced)}" if report.replaced else ""))
    typer.echo(f"throughput: {throughput_line(report)}")
    if result.failed:
        raise typer.Exit(1)


def ingest_remote(server: str, path: Path, include: list[str], exclude: list[str], id_prefix: str, prune: bool,
                  force: bool) -> None:
    """``aer ingest PATH --server``: upload the files in groups (each an ingest job, followed to its end)."""
    from app.documents import folder_specs, root_label, to_prune
    from graphs.domain import Document, DocumentRecord
    from graphs.ingest.formats import FileParseError
    from graphs.ingest.loaders import FileLoad, SkippedPath
    from graphs.ingest.progress import Progress

    links: list[SkippedPath] = []
    specs = folder_specs(path, include, exclude, id_prefix, links)
    for item in links:
        typer.secho(f"skipped: {item.relative}: {item.reason}", fg="yellow", err=True)
    if not specs:
        typer.secho(f"no supported files under {path} (.md .txt .html .pdf .docx .csv .tsv .jsonl)", fg="red", err=True)
        raise typer.Exit(1)
    root = root_label(path)
    done = skipped = chunks = 0
    failed: list[str] = []
    replaced: list[str] = []
    loads: list[FileLoad] = []
    with remote(server) as client:
        for group in upload_groups(specs):
            metadata = {s.name: {"id": s.doc_id} for s in group if s.doc_id != s.name}
            answer = client.upload([(s.name, s.data) for s in group], metadata=metadata, root=root,
                                   skip_unchanged=not force)
            bar = JobBar(Progress(answer["documents"], desc="ingest"),
                         sum(f["status"] == "failed" for f in answer["files"]))
            job = client.wait_job(answer["jobId"], on_progress=bar.show)
            bar.progress.close()
            for f in answer["files"]:
                loads.append(FileLoad(f["name"], [Document(id=i, text="-") for i in f["documents"]],
                                      None if f["status"] != "failed" else FileParseError("corrupt_file", "")))
            done += job["progress"]["done"]
            replaced += [o["id"] for o in job["documents"] if o["status"] == "replaced"]
            skipped += job["progress"]["skipped"]
            chunks += job["progress"]["chunks"]
            failed += [f"{o['id']}: {o['error'] or o['status']}" for o in job["documents"]
                       if o["status"] in ("failed", "pending")]
            if job["status"] == "failed" and job.get("error"):
                failed.append(f"job {job['id']}: {job['error']}")
        removed = []
        if prune:
            records, offset = [], 0
            while True:
                page = client.list_documents(offset, 500, root=root)
                records += [DocumentRecord.model_validate(d) for d in page["documents"]]
                offset += len(page["documents"])
                if not page["documents"] or offset >= page["total"]:
                    break
            for doc_id in to_prune(records, loads):
                client.delete_document(doc_id)
                removed.append(doc_id)
    for line in failed:
        typer.secho(f"failed: {line}", fg="red", err=True)
    for doc_id in replaced:
        typer.secho(f"replaced: {doc_id} (its earlier version is gone)", fg="yellow", err=True)
    typer.echo(f"ingested {done} document(s) as {chunks} chunk(s) from {len(specs)} file(s) on {server}; "
               f"skipped {skipped} unchanged; removed {len(removed)}; failed {len(failed)}"
               + (f"; replaced {len(replaced)}" if replaced else ""))
    if failed:
        raise typer.Exit(1)


class JobBar:
    """Moves a progress bar along a polled job (its failed files are counted from the start)."""

    def __init__(self, progress: Any, failed_files: int) -> None:
        self.progress = progress
        self.failed_files = failed_files
        self.seen = 0
        self.chunks = 0

    def show(self, job: dict[str, Any]) -> None:
        p = job["progress"]
        finished = p["done"] + p["skipped"] + p["failed"] - self.failed_files
        if finished > self.seen:
            self.progress.update(finished - self.seen, p["chunks"] - self.chunks)
            self.seen, self.chunks = finished, p["chunks"]


def upload_groups(specs: list[Any], max_files: int = 20, max_bytes: int = 50_000_000) -> Iterator[list[Any]]:
    """Split files into uploads under the server's default limits (20 files, 100 MB a request)."""
    group: list[Any] = []
    size = 0
    for spec in specs:
        if group and (len(group) >= max_files or size + len(spec.data) > max_bytes):
            yield group
            group, size = [], 0
        group.append(spec)
        size += len(spec.data)
    if group:
        yield group


@cli.command()
def delete(doc_id: str, server: ServerOption = None) -> None:
    """Delete a document and all its chunks."""
    from app.client import RemoteError

    if server := route(server):
        with remote(server) as client:
            try:
                n = client.delete_document(doc_id)["deletedChunks"]
            except RemoteError as exc:
                if exc.code != "document_not_found":
                    raise
                n = 0
        typer.echo(f"deleted {n} chunk(s) of {doc_id}" if n else f"no document {doc_id!r} (document_not_found)")
        if not n:
            raise typer.Exit(1)
        return
    with opened() as resources:
        n = resources.ingestor.delete(doc_id)
    typer.echo(f"deleted {n} chunk(s) of {doc_id}" if n else f"no document {doc_id!r}")
    if not n:
        raise typer.Exit(1)


def citation_line(c: dict[str, Any]) -> str:
    """``[1] guide.md — Guide (guide.md § Setup)``: the document, and the file, page or section when known."""
    from graphs.domain import Citation

    where = Citation.model_validate(c).location
    return f"[{c['index']}] {c['docId']} — {c['title']}" + (f" ({where})" if where else "")


def print_response(question: str, response: QueryResponse) -> None:
    """Print answer, route, relaxations and steps for a person."""
    r = response
    typer.secho(f"\nQ: {question}", bold=True)
    typer.echo(f"A: {r.answer}")
    if r.answer_span:
        typer.echo(f"short answer: {r.answer_span}")
    for c in r.citations:
        typer.echo(f"   {citation_line(c)}")
    if r.answerability is not None:
        a = r.answerability
        typer.echo(f"answerability: {a.decision} ({a.score:.2f}): {a.reason}")
    for h in r.related:
        typer.echo(f"   related (not the answer): {h.doc_id} — {h.title}")
    for fix in r.corrections:
        typer.echo(f"correction: {fix}")
    typer.echo(f"intent: {r.query_analysis.intent} ({r.query_analysis.complexity}); parser: {r.query_analysis.parser}")
    m = r.master
    if m.team_configuration:
        typer.echo(f"team: {m.team_configuration.name} — {m.team_configuration.reason}")
    if m.plan:
        for sq in m.plan.sub_questions:
            after = f" after {', '.join(sq.depends_on)}" if sq.depends_on else ""
            typer.echo(f"   plan {sq.id} [{sq.strategy}{after}]: {sq.question} ({sq.status})")
    for j in m.sufficiency:
        typer.echo(f"   turn {j.turn}: {j.level} → {j.next} — {j.reason}")
    for refl in m.reflections:
        typer.echo(f"   reflect {refl.sub_question}: {refl.action} — {refl.reason}")
    for conflict in r.contradictions:
        typer.echo(f"disagreement: {conflict.fact}: "
                   + "; ".join(f"{cl.value} ({', '.join(cl.hit_ids)})" for cl in conflict.claims))
    for e in r.entity_validation:
        typer.echo(f"entity: {e.text} → {e.standard_name or '(unknown)'} [{e.type}, {e.match} {e.score:.2f}]")
    typer.echo("route: " + " → ".join(d.action for d in r.routing_decision.decisions))
    for d in r.routing_decision.decisions:
        typer.echo(f"   - {d.action}: {d.reason}")
    relaxed = r.routing_decision.relaxed_constraints
    typer.echo("relaxed: " + ("; ".join(f"{x.action} {x.type}={x.value}" + (f"→{x.new_value}" if x.new_value else "")
                                        for x in relaxed) or "none"))
    for x in r.retrieval_details.expansion:
        typer.echo(f"expansion: depth {x.depth} {x.decision} ({x.judge}): {x.reason}")
    if ev := r.retrieval_details.evidence:
        typer.echo(f"evidence ({ev.selector}): {', '.join(s.node for s in ev.selected_nodes) or ev.reasoning}")
    typer.echo(f"results: {r.retrieval_details.ranked_result_count} (reranker: {r.retrieval_details.reranker}); "
               f"llm: {r.llm.note}")
    typer.echo("steps:")
    for s in r.workflow.steps:
        typer.echo(f"   {s.node:<18} {s.duration_ms:8.1f} ms  {s.summary}")
    typer.echo(f"total: {r.workflow.total_duration:.1f} ms")


def run_questions(resources: Resources, questions: list[str], as_json: bool, **options: Any) -> None:
    """Answer questions one by one and print them."""
    from app.schemas import QueryRequest
    from app.service import answer

    async def go() -> None:
        for q in questions:
            response = await answer(resources, QueryRequest(question=q, **options))
            if as_json:
                typer.echo(response.model_dump_json(by_alias=True, indent=2))
            else:
                print_response(q, response)

    import asyncio

    asyncio.run(go())


@cli.command()
def query(
    question: str,
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=50)] = 5,
    mode: Annotated[str, typer.Option(help="auto|structured|semantic|hybrid|graph")] = "auto",
    vector_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: dense weight.")] = 0.5,
    fts_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: BM25 weight.")] = 0.2,
    graph_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: graph weight.")] = 0.3,
    graph_decay: Annotated[float, typer.Option(min=0.01, max=1.0, help="Graph route: decay per hop.")] = 0.5,
    max_depth: Annotated[int, typer.Option(min=0, max=5, help="Graph route: most hops.")] = 3,
    evidence_selection: Annotated[bool, typer.Option(help="Graph route: select the minimal evidence.")] = True,
    team: Annotated[str, typer.Option(help="auto|writer_only|executor_inclusive|planner_enhanced")] = "auto",
    max_turns: Annotated[int, typer.Option(min=1, max=10, help="Planner: most plan rounds.")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="Print the full API response.")] = False,
    server: ServerOption = None,
) -> None:
    """Answer one question."""
    from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

    if not has_content(question):  # the content check of every question (the API's 422 empty_question)
        typer.secho(f"error: {EMPTY_QUESTION}: {EMPTY_QUESTION_MESSAGE}", fg="red", err=True)
        raise typer.Exit(2)
    options: dict[str, Any] = {
        "top_k": top_k, "search_mode": mode, "vector_weight": vector_weight, "fts_weight": fts_weight,
        "graph_weight": graph_weight, "graph_decay": graph_decay, "max_depth": max_depth,
        "use_evidence_selection": evidence_selection, "team": team, "max_turns": max_turns,
    }
    if server := route(server):
        from app.schemas import QueryResponse

        with remote(server) as client:
            body = client.query(question, **options)
        if as_json:
            typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        else:
            print_response(question, QueryResponse.model_validate(body))
        return
    with opened() as resources:
        run_questions(resources, [question], as_json, **options)


@cli.command()
def demo(
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Load the bundled demo entities and corpus, then answer the three seed questions."""
    folder = demo_dir()
    with opened() as resources:
        n = import_entities(resources, folder / "entities.jsonl")
        typer.echo(f"entity store: {n} demo entities loaded")
        ingest_documents(resources, read_documents(folder / "corpus.jsonl"))
        run_questions(resources, list(SEED_QUESTIONS), as_json)


def import_entities(resources: Resources, path: Path) -> int:
    """Upsert every entity of a JSONL/JSON file (as add-entity does: look-alike warnings, chunks re-tagged)."""
    import asyncio

    from app.service import add_entity
    from graphs.ingest.loaders import load_entities_jsonl

    items = load_entities_jsonl(path)
    retagged = 0
    for item in items:
        write = asyncio.run(add_entity(resources, item))
        print_warnings(w.message for w in write.warnings)
        retagged += write.retagged or 0
    if retagged:
        typer.echo(f"re-tagged {retagged} indexed chunk(s) that name these entities", err=True)
    return len(items)


def print_warnings(messages: Iterable[str]) -> None:
    for message in messages:
        typer.secho(f"warning: {message}", fg="yellow", err=True)


def print_retagged(n: int | None) -> None:
    if n is None:
        typer.secho("warning: the index is unavailable: the chunks that name it are re-tagged by the next write",
                    fg="yellow", err=True)
    elif n:
        typer.echo(f"re-tagged {n} indexed chunk(s)", err=True)


@entities_cli.command("add")
def entities_add(
    standard_name: str,
    type: Annotated[EntityType, typer.Option("--type", "-t")],
    alias: Annotated[list[str] | None, typer.Option("--alias", "-a")] = None,
    hierarchy: Annotated[str | None, typer.Option(help="Path from the root, e.g. '中国>北京>朝阳'")] = None,
    related: Annotated[list[str] | None, typer.Option("--related", "-r")] = None,
    server: ServerOption = None,
) -> None:
    """Add an entity or merge aliases into an existing one."""
    from pydantic import ValidationError

    from graphs.domain import STORED, EntityMetadata
    from graphs.stores.base import StoreError

    try:
        entity = EntityMetadata(
            standard_name=standard_name, type=type, aliases=alias or [],
            hierarchy=[h.strip() for h in hierarchy.split(">")] if hierarchy else [], related_entities=related or [],
        )
    except ValidationError as exc:
        typer.secho(f"error: {name_errors(exc)}", fg="red", err=True)
        raise typer.Exit(2) from exc
    if server := route(server):
        with remote(server) as client:
            answer = client.add_entity(entity)
        print_warnings(w["message"] for w in answer.get("warnings", []))
        print_retagged(answer.get("retagged", 0))
        typer.echo(EntityMetadata.model_validate(answer["entity"], context=STORED).model_dump_json(by_alias=True))
        return
    import asyncio

    from app.service import add_entity

    with opened() as resources:
        try:
            write = asyncio.run(add_entity(resources, entity))
        except StoreError as exc:
            typer.secho(f"error: {exc}", fg="red", err=True)
            raise typer.Exit(2) from exc
    print_warnings(w.message for w in write.warnings)
    print_retagged(write.retagged)
    typer.echo(write.entity.model_dump_json(by_alias=True))


@entities_cli.command("remove-alias")
def entities_remove_alias(
    standard_name: str,
    aliases: Annotated[list[str], typer.Argument(help="The aliases to remove.")],
    server: ServerOption = None,
) -> None:
    """Remove aliases from an entity; the chunks that named it only by them lose its tag."""
    from graphs.domain import STORED, EntityMetadata

    if server := route(server):
        with remote(server) as client:
            answer = client.remove_aliases(standard_name, aliases)
        print_retagged(answer.get("retagged", 0))
        typer.echo(EntityMetadata.model_validate(answer["entity"], context=STORED).model_dump_json(by_alias=True))
        return
    import asyncio

    from app.service import remove_aliases

    with opened() as resources:
        write = asyncio.run(remove_aliases(resources, standard_name, aliases))
    if write is None:
        typer.secho(f"error: no entity named {standard_name!r} (entity_not_found)", fg="red", err=True)
        raise typer.Exit(1)
    print_retagged(write.retagged)
    typer.echo(write.entity.model_dump_json(by_alias=True))


@entities_cli.command("delete")
def entities_delete(standard_name: str, server: ServerOption = None) -> None:
    """Delete an entity: the chunks tagged with it lose the tag, the knowledge graph its edges."""
    from graphs.domain import STORED, EntityMetadata

    if server := route(server):
        with remote(server) as client:
            answer = client.delete_entity(standard_name)
        untagged = answer.get("untagged", 0)
        entity = EntityMetadata.model_validate(answer["entity"], context=STORED)
    else:
        import asyncio

        from app import workbench

        with opened() as resources:
            deleted = asyncio.run(workbench.delete_entity(resources, standard_name))
        if deleted is None:
            typer.secho(f"error: no entity named {standard_name!r} (entity_not_found)", fg="red", err=True)
            raise typer.Exit(1)
        entity, untagged = deleted
    if untagged:
        typer.echo(f"untagged {untagged} indexed chunk(s)", err=True)
    typer.echo(entity.model_dump_json(by_alias=True))


def name_errors(exc: Any) -> str:
    """``aliases[0]: '' has no visible character; ...`` for the CLI."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())


@entities_cli.command("list")
def entities_list(
    type: Annotated[EntityType | None, typer.Option("--type", "-t")] = None,
    offset: int = 0,
    limit: int = 100,
    server: ServerOption = None,
) -> None:
    """List entities (JSON lines)."""
    from graphs.domain import EntityMetadata

    if server := route(server):
        with remote(server) as client:
            page = client.list_entities(type, offset, limit)
        for item in page["entities"]:
            typer.echo(EntityMetadata.model_validate(item).model_dump_json(by_alias=True))
        return
    with opened() as resources:
        for e in resources.context.entities.list(type=type, offset=offset, limit=limit):
            typer.echo(e.model_dump_json(by_alias=True))


@entities_cli.command("import")
def entities_import(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False)],
    server: ServerOption = None,
) -> None:
    """Import entities from a JSONL (or JSON array) file."""
    from graphs.ingest.loaders import load_entities_jsonl

    try:
        items = load_entities_jsonl(path)  # every record is checked before anything is written
    except ValueError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc
    if server := route(server):
        with remote(server) as client:
            for item in items:
                answer = client.add_entity(item)
                print_warnings(w["message"] for w in answer.get("warnings", []))
                print_retagged(answer.get("retagged", 0))
        typer.echo(f"imported {len(items)} entities into {server}")
        return
    with opened() as resources:
        n = import_entities(resources, path)
    typer.echo(f"imported {n} entities")


def record_line(d: dict[str, Any]) -> str:
    """One inventory row for a person."""
    when = (d.get("ingestedAt") or "")[:19].replace("T", " ")
    return (f"{d['id']}\t{d.get('title') or ''}\t{d.get('source') or '-'}\t{d['chunks']} chunk(s)\t"
            f"{d['bytes']} B\t{when or '-'}")


@documents_cli.command("list")
def documents_list(
    source: Annotated[str | None, typer.Option(help="Only documents whose file path contains this.")] = None,
    title: Annotated[str | None, typer.Option(help="Only documents whose title contains this.")] = None,
    offset: Annotated[int, typer.Option(min=0)] = 0,
    limit: Annotated[int, typer.Option(min=1, max=500)] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print the page as JSON.")] = False,
    server: ServerOption = None,
) -> None:
    """List ingested documents: id, title, file, chunks, bytes, when."""
    from app.documents import list_documents

    if server := route(server):
        with remote(server) as client:
            page = client.list_documents(offset, limit, source=source, title=title)
    else:
        with opened() as resources:
            page = list_documents(resources, offset=offset, limit=limit, source=source, title=title)
    if as_json:
        typer.echo(json.dumps(page, ensure_ascii=False, indent=2))
        return
    for d in page["documents"]:
        typer.echo(record_line(d))
    shown = len(page["documents"])
    typer.echo(f"{page['offset'] + 1 if shown else 0}-{page['offset'] + shown} of {page['total']} document(s)")


@documents_cli.command("show")
def documents_show(
    doc_id: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the document and its chunks as JSON.")] = False,
    server: ServerOption = None,
) -> None:
    """Show a document and its chunks, with each chunk's section or page and entity tags."""
    from app.client import RemoteError
    from app.documents import show_document

    body: dict[str, Any] | None
    if server := route(server):
        with remote(server) as client:
            try:
                body = client.document(doc_id)
            except RemoteError as exc:
                if exc.code != "document_not_found":
                    raise
                body = None
    else:
        with opened() as resources:
            body = show_document(resources, doc_id)
    if body is None:
        typer.secho(f"no document {doc_id!r} (document_not_found)", fg="red", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    typer.echo(record_line(body["document"]))
    for c in body["chunks"]:
        where = "; ".join(x for x in (f"p. {c['page']}" if c.get("page") else "",
                                      f"§ {c['section']}" if c.get("section") else "") if x)
        tags = "; ".join(f"{t}: {', '.join(v)}" for t, v in c["entities"].items() if v)
        typer.echo(f"  #{c['chunkIndex']} {c['id']}" + (f" ({where})" if where else "") + (f" [{tags}]" if tags else ""))
        text = " ".join(c["text"].split())
        typer.echo(f"     {text[:160]}{'…' if len(text) > 160 else ''}")


@documents_cli.command("delete")
def documents_delete(doc_id: str, server: ServerOption = None) -> None:
    """Delete a document and all its chunks (as ``aer delete``)."""
    delete(doc_id, server)


@jobs_cli.command("show")
def jobs_show(
    job_id: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the job as JSON.")] = False,
    server: ServerOption = None,
) -> None:
    """Show an ingest job: status, progress and each document's outcome."""
    from app.documents import show_job

    job: dict[str, Any] | None
    if server := route(server):
        with remote(server) as client:
            job = client.job(job_id, limit=500)
    else:
        with opened() as resources:
            view = show_job(resources, job_id, 0, 500)
            job = view.model_dump(by_alias=True, mode="json") if view else None
    if job is None:
        typer.secho(f"no job {job_id!r} (job_not_found)", fg="red", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(json.dumps(job, ensure_ascii=False, indent=2))
        return
    from graphs.ingest.progress import duration

    p = job["progress"]
    typer.echo(f"job {job['id']} ({job['kind']}): {job['status']}" + (f" — {job['error']}" if job["error"] else "")
               + (f"; resumed {job['resumed']}x after a restart" if job["resumed"] else ""))
    typer.echo(f"{p['done']} done, {p['skipped']} skipped, {p['failed']} failed, {p['pending']} pending of "
               f"{p['total']}; {p['chunks']} chunk(s), {p['chunksPerS'] or 0} chunks/s"
               + (f", ETA {duration(p['etaS'])}" if p.get("etaS") is not None
                  else ", ETA unknown" if job["status"] == "running" else ""))
    for o in job["documents"]:
        typer.echo(f"  {o['status']:<8} {o['id']}" + (f" ({o['chunks']} chunk(s))" if o["chunks"] else "")
                   + (f" — {o['error']}" if o["error"] else ""))


@cli.command()
def graph(png: Annotated[Path | None, typer.Option(help="Write a PNG (needs network for mermaid.ink).")] = None) -> None:
    """Print the graph as Mermaid."""
    from graphs.rag.graph import graph as compiled

    typer.echo(compiled.get_graph().draw_mermaid())
    if png:
        png.write_bytes(compiled.get_graph().draw_mermaid_png())


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int | None, typer.Option()] = None,
) -> None:
    """Run the HTTP API (one worker: a Milvus Lite file belongs to one process)."""
    import uvicorn

    from app.api.serving import uvicorn_options
    from app.main import create_app
    from app.settings import Settings

    settings = Settings()
    if settings.require_api_keys and not settings.api_keys:
        typer.secho("error: AER_REQUIRE_API_KEYS is set but AER_API_KEYS is empty: refusing to start an open "
                    "write API (set AER_API_KEYS=<key>, e.g. from .env.example)", fg="red", err=True)
        raise typer.Exit(2)
    bind = host or settings.host
    if not settings.api_keys and bind not in ("127.0.0.1", "localhost", "::1"):
        typer.secho(f"warning: no AER_API_KEYS: anyone who can reach {bind} can write", fg="yellow", err=True)
    # the app reads where it listens (the MCP endpoint's Host check follows it): --host/--port are settings too
    settings = settings.model_copy(update={"host": bind, "port": settings.port if port is None else port})
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, **uvicorn_options(settings))


@cli.command("mcp")
def mcp_command(
    server: Annotated[str | None, typer.Option(
        "--server", help="Serve a running server's index (http://host:8000) instead of opening the local stores: "
                         "the tools call its HTTP API (with the first of AER_API_KEYS).")] = None,
) -> None:
    """Serve the MCP tools (query, add_documents, add_entity, list_entities, list_documents, delete_document)
    over stdin/stdout, for an MCP client that starts this command."""
    if server := route(server):
        with remote(server) as client:
            client.health()  # unreachable: a clear error now, not one per tool call
            from app.mcp_server import RemoteTools, run_stdio

            run_stdio(RemoteTools(client))
        return
    from app.mcp_server import LocalTools, run_stdio

    with opened() as resources:
        resources.warm_up()
        run_stdio(LocalTools(lambda: resources))


def main() -> None:
    """Console entry point."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("graphs.ingest.progress").setLevel(logging.INFO)  # off a terminal: progress lines
    from app.redaction import install_redaction

    install_redaction()  # every log line passes the one redaction of secret-like URL parameters
    # jieba (loaded by the parser and Milvus Lite's analyzer) logs its dictionary loading at DEBUG: noise. Its
    # logger is quietened by name, so that `aer --help` does not import it; by a filter as well as a level,
    # because importing jieba sets its logger's level back to DEBUG.
    jieba_log = logging.getLogger("jieba")
    jieba_log.setLevel(logging.WARNING)
    jieba_log.addFilter(lambda record: record.levelno >= logging.WARNING)
    cli()


if __name__ == "__main__":
    main()

