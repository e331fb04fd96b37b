"""The ``aer`` command: serve, mcp, demo, ingest, delete, query, entities, graph, local-llm."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError

import app
from app.client import RemoteClient, RemoteError
from app.container import Resources, build_resources
from app.schemas import QueryRequest, QueryResponse
from app.settings import Settings
from app.tools.bench.command import bench_command
from app.tools.dpo import export_dpo_command
from app.tools.eval import eval_command
from app.tools.loadtest import loadtest_command
from app.tools.local_llm import local_llm_app
from graphs.domain import STORED, Document, EntityMetadata, EntityType
from graphs.stores.base import StoreError

cli = typer.Typer(no_args_is_help=True, add_completion=False, help="Adaptive entity-routing RAG service.")
entities_cli = typer.Typer(no_args_is_help=True, help="Manage the entity store.")
cli.add_typer(entities_cli, name="entities")
cli.command("eval")(eval_command)
cli.command("bench")(bench_command)
cli.command("loadtest")(loadtest_command)
cli.command("export-dpo")(export_dpo_command)
cli.add_typer(local_llm_app, name="local-llm", help="Install and serve the optional offline LLM (xllamacpp + Qwen2.5).")

SEED_QUESTIONS = ("马斯克创办的公司有哪些？", "2024年苹果在北京发布的产品", "什么是机器学习？")

ServerOption = Annotated[
    str | None,
    typer.Option("--server", help="Use a running server (http://host:8000) instead of opening the local stores."),
]


def demo_dir() -> Path:
    """The bundled demo corpus and entity list."""
    packaged = Path(app.__file__).parent / "_demo"
    return packaged if packaged.is_dir() else Path(app.__file__).resolve().parent.parent / "demo"


@contextmanager
def opened(settings: Settings | None = None) -> Iterator[Resources]:
    """Build the process resources and close them afterwards, with store errors made readable."""
    try:
        resources = build_resources(settings or Settings())
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
    keys = Settings().api_keys
    try:
        with RemoteClient(server, api_key=keys[0].get_secret_value() if keys else None) as client:
            yield client
    except RemoteError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(3 if exc.status == 0 else 2) from exc


def read_documents(path: Path) -> list[Document]:
    """Read a corpus JSONL file, naming the line of any bad record."""
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


def ingest_documents(resources: Resources, docs: list[Document]) -> None:
    """Ingest with a progress bar."""
    from tqdm import tqdm

    with tqdm(total=len(docs), unit="doc", desc="ingest", disable=not sys.stderr.isatty()) as bar:
        report = resources.ingestor.ingest(docs, progress=bar.update)
    typer.echo(f"ingested {report.documents} document(s) as {report.chunks} chunk(s); "
               f"entities extracted from text for {report.extracted}")


@cli.command()
def ingest(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="corpus.jsonl")],
    server: ServerOption = None,
) -> None:
    """Ingest a JSONL corpus (id, title, text, metadata); an existing id is replaced."""
    docs = read_documents(path)
    if server:
        from tqdm import tqdm

        with remote(server) as client, tqdm(total=len(docs), unit="doc", desc="ingest",
                                            disable=not sys.stderr.isatty()) as bar:
            report = client.add_documents(docs, progress=bar.update)
        typer.echo(f"ingested {report['documents']} document(s) as {report['chunks']} chunk(s) on {server}")
        return
    with opened() as resources:
        ingest_documents(resources, docs)


@cli.command()
def delete(doc_id: str, server: ServerOption = None) -> None:
    """Delete a document and all its chunks."""
    if server:
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


def print_response(question: str, response: QueryResponse) -> None:
    """Print answer, route, relaxations and steps for a person."""
    r = response
    typer.secho(f"\nQ: {question}", bold=True)
    typer.echo(f"A: {r.answer}")
    for c in r.citations:
        typer.echo(f"   [{c['index']}] {c['docId']} — {c['title']}")
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
    from app.service import answer

    async def go() -> None:
        for q in questions:
            response = await answer(resources, QueryRequest(question=q, **options))
            if as_json:
                typer.echo(response.model_dump_json(by_alias=True, indent=2))
            else:
                print_response(q, response)

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
    options: dict[str, Any] = {
        "top_k": top_k, "search_mode": mode, "vector_weight": vector_weight, "fts_weight": fts_weight,
        "graph_weight": graph_weight, "graph_decay": graph_decay, "max_depth": max_depth,
        "use_evidence_selection": evidence_selection, "team": team, "max_turns": max_turns,
    }
    if server:
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
    """Upsert every entity of a JSONL/JSON file."""
    from graphs.ingest.loaders import load_entities_jsonl

    items = load_entities_jsonl(path)
    for item in items:
        warn_look_alikes(resources, item)
        resources.ingestor.upsert_entity(item)
    return len(items)


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
    try:
        entity = EntityMetadata(
            standard_name=standard_name, type=type, aliases=alias or [],
            hierarchy=[h.strip() for h in hierarchy.split(">")] if hierarchy else [], related_entities=related or [],
        )
    except ValidationError as exc:
        typer.secho(f"error: {name_errors(exc)}", fg="red", err=True)
        raise typer.Exit(2) from exc
    if server:
        with remote(server) as client:
            answer = client.add_entity(entity)
        for warning in answer.get("warnings", []):
            typer.secho(f"warning: {warning['message']}", fg="yellow", err=True)
        typer.echo(EntityMetadata.model_validate(answer["entity"], context=STORED).model_dump_json(by_alias=True))
        return
    with opened() as resources:
        warn_look_alikes(resources, entity)
        try:
            saved = resources.ingestor.upsert_entity(entity)
        except StoreError as exc:
            typer.secho(f"error: {exc}", fg="red", err=True)
            raise typer.Exit(2) from exc
    typer.echo(saved.model_dump_json(by_alias=True))


def name_errors(exc: ValidationError) -> str:
    """``aliases[0]: '' has no visible character; ...`` for the CLI."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())


def warn_look_alikes(resources: Resources, entity: EntityMetadata) -> None:
    """Print a warning for each name or alias that looks like another entity's."""
    from graphs.text.confusables import look_alikes

    for warning in look_alikes(entity, resources.context.entities.surface_forms()):
        typer.secho(f"warning: {warning.message}", fg="yellow", err=True)


@entities_cli.command("list")
def entities_list(
    type: Annotated[EntityType | None, typer.Option("--type", "-t")] = None,
    offset: int = 0,
    limit: int = 100,
    server: ServerOption = None,
) -> None:
    """List entities (JSON lines)."""
    if server:
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
    if server:
        with remote(server) as client:
            for item in items:
                for warning in client.add_entity(item).get("warnings", []):
                    typer.secho(f"warning: {warning['message']}", fg="yellow", err=True)
        typer.echo(f"imported {len(items)} entities into {server}")
        return
    with opened() as resources:
        n = import_entities(resources, path)
    typer.echo(f"imported {n} entities")


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

    settings = Settings()
    if settings.require_api_keys and not settings.api_keys:
        typer.secho("error: AER_REQUIRE_API_KEYS is set but AER_API_KEYS is empty: refusing to start an open "
                    "write API (set AER_API_KEYS=<key>, e.g. from .env.example)", fg="red", err=True)
        raise typer.Exit(2)
    bind = host or settings.host
    if not settings.api_keys and bind not in ("127.0.0.1", "localhost", "::1"):
        typer.secho(f"warning: no AER_API_KEYS: anyone who can reach {bind} can write", fg="yellow", err=True)
    uvicorn.run(create_app(settings), host=bind, port=settings.port if port is None else port,
                **uvicorn_options(settings))


@cli.command("mcp")
def mcp_command() -> None:
    """Serve the MCP tools (query, add_documents, add_entity, list_entities, list_documents, delete_document)
    over stdin/stdout, for an MCP client that starts this command."""
    from app.mcp_server import run_stdio

    with opened() as resources:
        resources.warm_up()
        run_stdio(resources)


def main() -> None:
    """Console entry point."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    import jieba  # also loaded by Milvus Lite's analyzer; its dictionary-loading DEBUG lines are noise

    jieba.setLogLevel(logging.WARNING)
    cli()


if __name__ == "__main__":
    main()

