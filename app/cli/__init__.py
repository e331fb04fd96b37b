"""The ``aer`` command: serve, mcp, demo, ingest, delete, documents, jobs, query, entities, graph, local-llm.

``aer --help`` imports nothing but Typer: the service, its stores and models are imported inside the commands
that use them, and the offline tools' commands (eval, bench, loadtest, export-dpo, local-llm) are loaded when one
is run or asked for its help (``LazyGroup``).

A command that opens the data dir first checks whether another process holds its Milvus Lite file: then it uses
the server running on the configured host and port if one answers there (and says so), or stops with one line
that says to add ``--server URL``.
"""

from __future__ import annotations

import logging

# The root commands are registered on ``cli`` as their modules are imported (ingest, delete, query, demo, graph,
# serve, mcp: the order ``aer --help`` lists), the command groups below.
from app.cli.base import (
    LAZY_COMMANDS,
    EntityType,
    ServerOption,
    cli,
    demo_dir,
    load_command,
    opened,
    remote,
    route,
)
from app.cli.documents import documents_cli
from app.cli.entities import entities_cli, import_entities
from app.cli.ingest import delete, ingest, ingest_documents, read_documents, throughput_line
from app.cli.jobs import jobs_cli
from app.cli.query import SEED_QUESTIONS, demo, print_response, query, run_questions
from app.cli.serve import graph, mcp_command, serve
from app.cli.workspaces import workspaces_cli

cli.add_typer(entities_cli, name="entities")
cli.add_typer(documents_cli, name="documents")
cli.add_typer(jobs_cli, name="jobs")
cli.add_typer(workspaces_cli, name="workspaces")

__all__ = ["LAZY_COMMANDS", "SEED_QUESTIONS", "EntityType", "ServerOption", "cli", "delete", "demo", "demo_dir",
           "documents_cli", "entities_cli", "graph", "import_entities", "ingest", "ingest_documents", "jobs_cli",
           "load_command", "main", "mcp_command", "opened", "print_response", "query", "read_documents", "remote",
           "route", "run_questions", "serve", "throughput_line", "workspaces_cli"]


def main() -> None:
    """Console entry point."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("graphs.ingest.progress").setLevel(logging.INFO)  # off a terminal: progress lines
    from app.observability.redaction import install_redaction

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
