"""``aer ingest`` (local or through ``--server``) and ``aer delete``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from app.cli.base import (
    EXIT_PARTIAL,
    ApiKeyOption,
    ServerOption,
    WorkspaceOption,
    cli,
    opened,
    refused,
    remote,
    route,
    unavailable,
)

if TYPE_CHECKING:
    from app.container import Resources
    from graphs.domain import Document
    from graphs.ingest.pipeline import IngestReport


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
                                         ".pdf, .docx, .csv and .jsonl files.")],
    include: Annotated[list[str] | None, typer.Option(
        "--include", "-i", help="Only files whose path (relative to PATH) or name matches this glob; repeatable.")] = None,
    exclude: Annotated[list[str] | None, typer.Option(
        "--exclude", "-x", help="Leave out files matching this glob; repeatable.")] = None,
    id_prefix: Annotated[str, typer.Option(help="Prefix of every file's document id (its path under PATH).")] = "",
    prune: Annotated[bool, typer.Option(
        "--prune", help="Delete the documents ingested from PATH before whose file is gone.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Re-ingest unchanged documents too.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Ingest files: a document per file (id: its path under PATH; a JSONL file's lines are documents with their
    own ids). A changed file replaces its document, an unchanged one is skipped."""
    from app.services.documents import ingest_folder
    from graphs.embeddings import EmbedderUnavailable
    from graphs.ingest.formats import FILE_TYPES
    from graphs.ingest.progress import Progress
    from graphs.stores.base import StoreError

    if server := route(server):
        ingest_remote(server, path, include or [], exclude or [], id_prefix, prune, force, workspace, api_key)
        return
    with opened(workspace=workspace) as resources:
        try:
            result = ingest_folder(resources, path, include=include or [], exclude=exclude or [],
                                   id_prefix=id_prefix, prune=prune, force=force, progress=Progress)
        except (StoreError, EmbedderUnavailable) as exc:
            raise unavailable("embedder_unavailable" if isinstance(exc, EmbedderUnavailable) else "store_unavailable",
                              str(exc)) from exc
    for item in result.skipped:
        typer.secho(f"skipped: {item.relative}: {item.reason}", fg="yellow", err=True)
    say_duplicates(result.duplicates)
    if not result.files:
        raise refused("no_supported_files", f"no supported files under {path} ({FILE_TYPES})")
    for outcome in result.failed:
        typer.secho(f"failed: {outcome.id}: {outcome.error}", fg="red", err=True)
    report = result.report
    for doc_id in report.replaced:
        if doc_id in report.reread:
            typer.secho(f"reread: {doc_id} (unchanged, read again: the ingest pipeline changed since it was indexed)",
                        fg="yellow", err=True)
        else:
            typer.secho(f"replaced: {doc_id} (its earlier version is gone)", fg="yellow", err=True)
    for old_id, new_id in result.renamed:
        typer.secho(f"renamed: {old_id} -> {new_id} (its file has a new name; the old id is removed)",
                    fg="yellow", err=True)
    show_links(report.linked, [report.link_error] if report.link_error else [])
    typer.echo(f"ingested {report.documents} document(s) as {report.chunks} chunk(s) from {len(result.files)} "
               f"file(s); skipped {len(report.skipped)} unchanged; removed {len(result.removed)}; "
               f"failed {len(result.failed)}" + (f"; replaced {len(report.replaced)}" if report.replaced else "")
               + (f"; reread {len(report.reread)} (ingest pipeline changed)" if report.reread else "")
               + (f"; renamed {len(result.renamed)}" if result.renamed else "")
               + (f"; duplicates left out {len(result.duplicates)}" if result.duplicates else ""))
    typer.echo(f"throughput: {throughput_line(report)}")
    if result.failed:
        raise typer.Exit(EXIT_PARTIAL)


def say_duplicates(duplicates: dict[str, str]) -> None:
    """One ``duplicate:`` line per file left out because an earlier file has the same bytes."""
    for name, kept in duplicates.items():
        typer.secho(f"duplicate: {name} (the same bytes as {kept}: only {kept} is ingested)", fg="yellow", err=True)


def ingest_remote(server: str, path: Path, include: list[str], exclude: list[str], id_prefix: str, prune: bool,
                  force: bool, workspace: str | None = None, api_key: str | None = None) -> None:
    """``aer ingest PATH --server``: upload the files in groups (each an ingest job, followed to its end)."""
    from app.services.documents import folder_specs, renamed_pairs, root_label, to_prune
    from graphs.domain import Document, DocumentRecord
    from graphs.ingest.formats import FILE_TYPES, FileParseError
    from graphs.ingest.loaders import FileLoad, SkippedPath, load_files
    from graphs.ingest.progress import Progress

    links: list[SkippedPath] = []
    duplicates: dict[str, str] = {}
    specs = folder_specs(path, include, exclude, id_prefix, links, duplicates)
    for item in links:
        typer.secho(f"skipped: {item.relative}: {item.reason}", fg="yellow", err=True)
    say_duplicates(duplicates)
    if not specs:
        raise refused("no_supported_files", f"no supported files under {path} ({FILE_TYPES})")
    root = root_label(path)
    done = skipped = chunks = 0
    failed: list[str] = []
    replaced: list[str] = []
    reread: list[str] = []
    linked: list[str] = []
    link_errors: list[str] = []
    loads: list[FileLoad] = []
    written: set[str] = set()
    with remote(server, workspace, api_key) as client:
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
            written |= {o["id"] for o in job["documents"] if o["status"] == "done"}
            replaced += [o["id"] for o in job["documents"] if o["status"] == "replaced"]
            reread += [o["id"] for o in job["documents"] if o["status"] == "reread"]
            skipped += job["progress"]["skipped"]
            chunks += job["progress"]["chunks"]
            failed += [f"{o['id']}: {o['error'] or o['status']}" for o in job["documents"]
                       if o["status"] in ("failed", "pending")]
            if job["status"] in ("failed", "cancelled") and job.get("error"):
                failed.append(f"job {job['id']}: {job['error']}")
            linked += job.get("linked", [])
            link_errors += [job["linkError"]] if job.get("linkError") else []
        removed: list[str] = []
        renamed: list[tuple[str, str]] = []
        if prune or written:
            records, offset = [], 0
            while True:
                page = client.list_documents(offset, 500, root=root)
                records += [DocumentRecord.model_validate(d) for d in page["documents"]]
                offset += len(page["documents"])
                if not page["documents"] or offset >= page["total"]:
                    break
            if written and to_prune(records, loads):  # files gone: read the new ones here to find renames
                ours = [d for load in load_files([s for s in specs if s.doc_id in written]) for d in load.documents
                        if d.id in written]
                renamed = renamed_pairs(records, loads, ours)
            for old_id, _ in renamed:
                client.delete_document(old_id)
            records = [r for r in records if r.id not in {old for old, _ in renamed}]
        if prune:
            for doc_id in to_prune(records, loads):
                client.delete_document(doc_id)
                removed.append(doc_id)
    for line in failed:
        typer.secho(f"failed: {line}", fg="red", err=True)
    for doc_id in replaced:
        typer.secho(f"replaced: {doc_id} (its earlier version is gone)", fg="yellow", err=True)
    for doc_id in reread:
        typer.secho(f"reread: {doc_id} (unchanged, read again: the ingest pipeline changed since it was indexed)",
                    fg="yellow", err=True)
    for old_id, new_id in renamed:
        typer.secho(f"renamed: {old_id} -> {new_id} (its file has a new name; the old id is removed)",
                    fg="yellow", err=True)
    show_links(linked, link_errors)
    typer.echo(f"ingested {done} document(s) as {chunks} chunk(s) from {len(specs)} file(s) on {server}; "
               f"skipped {skipped} unchanged; removed {len(removed)}; failed {len(failed)}"
               + (f"; duplicates left out {len(duplicates)}" if duplicates else "")
               + (f"; reread {len(reread)} (ingest pipeline changed)" if reread else "")
               + (f"; replaced {len(replaced)}" if replaced else "")
               + (f"; renamed {len(renamed)}" if renamed else ""))
    if failed:
        raise typer.Exit(EXIT_PARTIAL)


def show_links(linked: list[str], errors: list[str]) -> None:
    """The names an ingest linked across scripts, each with why (and why linking failed, if it did)."""
    for line in linked:
        typer.echo(f"linked: {line}")
    for line in errors:
        typer.secho(f"not linked: {line}", fg="yellow", err=True)


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
    """Split files into uploads under the server's default limits (20 files, 100 MB a request), large files last
    (``large_last``): each upload is a job the CLI waits for, so a large file in the first group held every later
    group back."""
    from app.services.documents import large_last

    group: list[Any] = []
    size = 0
    for spec in large_last(specs, lambda s: len(s.data)):
        if group and (len(group) >= max_files or size + len(spec.data) > max_bytes):
            yield group
            group, size = [], 0
        group.append(spec)
        size += len(spec.data)
    if group:
        yield group


@cli.command()
def delete(doc_id: str, server: ServerOption = None, api_key: ApiKeyOption = None,
           workspace: WorkspaceOption = None) -> None:
    """Delete a document and all its chunks."""
    from app.client import RemoteError
    from app.services.documents import document_not_found

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            try:
                n = client.delete_document(doc_id)["deletedChunks"]
            except RemoteError as exc:
                if exc.code != "document_not_found":
                    raise
                raise refused(exc.code, exc.message, exc.details) from exc
        typer.echo(f"deleted {n} chunk(s) of {doc_id}")
        return
    with opened(workspace=workspace) as resources:
        n = resources.ingestor.delete(doc_id)
        if not n:
            missing = document_not_found(resources, doc_id)
            raise refused(missing.code, missing.message, missing.details)
    typer.echo(f"deleted {n} chunk(s) of {doc_id}")


