"""``aer reindex``: re-embed every chunk with another embedder (``app.services.reindex``), loaded when run."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from app.cli.base import EXIT_REFUSED, unavailable

if TYPE_CHECKING:
    from app.settings import Settings


def reindex_command(
    embedder: Annotated[str, typer.Option(help="The embedder to re-embed with: e5, use or openai.")] = "e5",
) -> None:
    """Re-embed every chunk with another embedder (e5, use, openai) into a new collection, then switch to it.

    Every workspace is re-embedded (they share one embedder), one after the other. Resumable: run it again
    after an interruption and it continues where it stopped. The old collections are kept. Run it with the server
    stopped (a Milvus Lite file belongs to one process) or against a Milvus server.
    """
    import typer

    from app.settings import Settings

    if embedder not in ("e5", "use", "openai"):
        raise typer.BadParameter("--embedder must be e5, use or openai")
    service = Settings()
    from app.workspaces import Workspaces

    for name in Workspaces(service).names():
        typer.echo(f"workspace {name}:", err=True)
        reindex_workspace(service.for_workspace(name), embedder)


def reindex_workspace(settings: Settings, embedder: str) -> None:
    """Re-embed one workspace's chunks (``reindex_command``)."""
    import typer

    from app.services.reindex import ReindexProgress, open_reindex, reindex
    from graphs.embeddings import EmbedderMismatch
    from graphs.stores.base import StoreError

    try:
        source, target, model = open_reindex(settings, embedder)
    except ValueError as exc:
        typer.echo(str(exc))
        if "nothing to do" in str(exc):
            return
        raise typer.Exit(EXIT_REFUSED) from exc
    except (StoreError, EmbedderMismatch) as exc:
        raise unavailable("embedder_mismatch" if isinstance(exc, EmbedderMismatch) else "store_unavailable",
                          str(exc), hint="is a server using this data dir? Stop it first: a Milvus Lite file "
                                         "belongs to one process.") from exc
    last = [0.0]

    def show(p: ReindexProgress) -> None:
        now = time.perf_counter()
        if now - last[0] >= 2 or p.done == p.documents:
            last[0] = now
            typer.echo(p.line(), err=True)

    try:
        result = reindex(settings, source, target, model, on_progress=show)
    finally:
        target.close()
        source.close()
    typer.echo(f"reindex complete: {result.documents} documents, {result.chunks} chunks now in {result.target} "
               f"({result.copied_chunks} embedded in {result.seconds:.1f} s); the old collection {result.source} "
               "is kept")
