"""Documents in and out: add-documents (synchronous and all-or-nothing, or a job), uploads, folders, the
inventory and the jobs. Blocking work runs on worker threads; the routes and the CLI call these."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

from pydantic import ValidationError

from app.container import Resources
from app.errors import ServiceError, nearest
from app.observability.metrics import counted_outages
from app.schemas import CODED_ERRORS, DocumentFileOptions
from app.settings import Settings
from graphs.domain import Document, DocumentRecord
from graphs.ingest.fingerprint import content_part
from graphs.ingest.formats import unsupported_message
from graphs.ingest.jobs import DocumentOutcome, JobStatus, JobView, ingest_each
from graphs.ingest.loaders import (
    SUPPORTED_SUFFIXES,
    FileLoad,
    FileSpec,
    SkippedPath,
    discover,
    load_files,
    read_regular,
)
from graphs.ingest.pipeline import IngestReport, content_hash
from graphs.ingest.progress import BatchSizer, Progress
from graphs.unicode_policy import text_problem

BATCH_SIZE = 32
"""The largest batch of a folder ingest (batches start at one document: ``BatchSizer``)."""


def text_size(docs: Sequence[Document]) -> int:
    """Characters of text in these documents (what decides synchronous or job)."""
    return sum(len(d.text) for d in docs)


def report_body(report: IngestReport) -> dict[str, Any]:
    """The answer to a synchronous add-documents: counts, ids and throughput."""
    return {
        "success": True, "documents": report.documents, "chunks": report.chunks, "ids": report.doc_ids,
        "skipped": report.skipped, "replaced": report.replaced, "reread": report.reread, "seconds": round(report.seconds, 3),
        "chunksPerS": _round(report.chunks_per_s), "embedderChunksPerS": _round(report.embed_chunks_per_s),
        "linked": report.linked, "linkError": report.link_error,
    }


def _round(value: float | None) -> float | None:
    return round(value, 1) if value is not None else None


async def add_documents(resources: Resources, docs: list[Document], *, skip_unchanged: bool = False,
                        background: bool | None = None, action: str = "add-documents") -> tuple[int, dict[str, Any]]:
    """``(200, report)`` after one all-or-nothing write, or ``(202, {jobId})`` for a job (asked for, or more
    text than ``AER_INGEST_SYNC_MAX_CHARS``). ``action``: the ingest path the metrics count it under."""
    if background is None:
        background = text_size(docs) > resources.settings.ingest_sync_max_chars
    with counted_outages(resources.metrics):
        if background and resources.jobs is not None:
            job_id = await asyncio.to_thread(resources.jobs.submit, action, docs,
                                             {"skip_unchanged": skip_unchanged})
            return 202, {"success": True, "jobId": job_id, "documents": len(docs),
                         **await asyncio.to_thread(queue_of, resources, job_id)}
        report = await asyncio.to_thread(resources.ingestor.ingest, docs, atomic=True, skip_unchanged=skip_unchanged)
    resources.metrics.ingested(action, report.documents, report.chunks)
    return 200, report_body(report)


async def delete_document(resources: Resources, doc_id: str) -> int:
    """Delete a document and its chunks; the number of chunks removed (0: no such document)."""
    with counted_outages(resources.metrics):
        return await asyncio.to_thread(resources.ingestor.delete, doc_id)


SUGGESTION_SCAN = 1000
"""At most this many inventory ids are compared with an unknown id's spelling (a file name is looked up by itself)."""


def meant_document(resources: Resources, doc_id: str) -> str | None:
    """The indexed document an unknown ``doc_id`` most likely means: the one whose path ends in it (a folder's
    ``staff/staff.csv`` asked for as ``staff.csv``: `aer ingest FOLDER` names a document by its path, an upload by
    the file's name) or whose file name it is without the suffix (``guest`` for ``guest.txt``), else the nearest
    spelling among the first ids; None when none is near."""
    if resources.catalog is None or not doc_id.strip():
        return None
    name = doc_id.rstrip("/").rsplit("/", 1)[-1]
    _, same_name = resources.catalog.list(offset=0, limit=SUGGESTION_SCAN, source=name)
    tails = sorted((r.id for r in same_name if r.id.endswith("/" + doc_id.lstrip("/"))
                    or PurePosixPath(r.id).stem == doc_id), key=len)  # or the file's name without its suffix
    if tails:
        return tails[0]
    _, records = resources.catalog.list(offset=0, limit=SUGGESTION_SCAN)
    return nearest(doc_id, [r.id for r in records])


def document_not_found(resources: Resources, doc_id: str) -> ServiceError:
    """404 ``document_not_found`` for ``doc_id``, naming the document most likely meant (``details.suggestion``),
    or the unfinished ingest job that has it still to write (``details.jobId``: a document being uploaded is not
    in the index yet; its job can be followed or cancelled)."""
    job_id = resources.jobs.store.pending_job(doc_id) if resources.jobs is not None else None
    if job_id is not None:
        return ServiceError("not_found", "document_not_found",
                            f"document {doc_id!r} is not in the index yet: ingest job {job_id} has still to write it "
                            f"(follow it: GET ?action=job&id={job_id}; stop it: POST {{\"action\": \"cancel-job\"}})",
                            {"id": doc_id, "jobId": job_id})
    meant = meant_document(resources, doc_id)
    return ServiceError("not_found", "document_not_found", f"no document with id {doc_id!r}"
                        + (f" (did you mean {meant!r}?)" if meant else ""),
                        {"id": doc_id, **({"suggestion": meant} if meant else {})})


# ---------------------------------------------------------------------------- uploads


class UploadError(ServiceError, ValueError):
    """An upload refused as a whole (the caller's mistake: a 4xx with this code and details)."""


def upload_name(filename: str | None, position: int) -> str:
    """A safe document name from a client's file name: a relative POSIX path, no ``..``, no drive or root."""
    raw = (filename or "").replace("\\", "/")
    parts = [p for p in PurePosixPath(raw).parts if p not in ("", ".", "..", "/") and not p.endswith(":")]
    return "/".join(parts) or f"file-{position + 1}"


def size_text(n: float) -> str:
    """Bytes for people: ``512 B``, ``41.3 KB``, ``1.4 MB``, ``2.0 GB``."""
    for unit, step in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= step:
            return f"{n / step:.1f} {unit}"
    return f"{int(n)} B"


def check_upload(settings: Settings, files: Sequence[tuple[str | None, int | None]]) -> list[str]:
    """An upload's files checked before any is read (``(client file name, size if known)`` each): their document
    names, or an ``UploadError`` (too many files, an invisible character in a name, only unsupported types — beside
    a readable file an unsupported one fails alone when the files are read —, a file over the size limit, a name
    twice)."""
    if len(files) > settings.upload_max_files:
        raise UploadError("invalid", "too_many_files", f"at most {settings.upload_max_files} files per upload",
                          {"maxFiles": settings.upload_max_files, "files": len(files)})
    names = [upload_name(filename, i) for i, (filename, _) in enumerate(files)]
    readable = [n for n in names if PurePosixPath(n).suffix.lower() in SUPPORTED_SUFFIXES]
    for name, (_, size) in zip(names, files, strict=True):
        if (problem := text_problem(name, "file name")) is not None:
            # the name becomes the document's id and source: "gpj.\u202eexe-trav8.md" shows as "...8vart-exe.jpg"
            raise UploadError("invalid", "invalid_file_name", f"file name {name!r} {problem}",
                              {"file": name.encode("unicode_escape").decode("ascii"), "problem": problem})
        suffix = PurePosixPath(name).suffix.lower()
        if not readable:  # beside a file the service reads, one it does not fails alone when read (as README says)
            raise UploadError("unsupported", "unsupported_file_type", unsupported_message(name, suffix),
                              {"file": name, "supported": list(SUPPORTED_SUFFIXES)})
        if size is not None and size > settings.upload_max_file_bytes:
            raise UploadError("too_large", "file_too_large",
                              f"{name} is {size_text(size)}, over the {size_text(settings.upload_max_file_bytes)} a "
                              "file may have (AER_UPLOAD_MAX_FILE_BYTES)",
                              {"file": name, "maxFileBytes": settings.upload_max_file_bytes, "bytes": size})
    if len(set(names)) != len(names):
        raise UploadError("invalid", "duplicate_file_names", "each file name may appear once per upload")
    return names


def file_options(raw: str | None, names: Sequence[str]) -> dict[str, DocumentFileOptions]:
    """The ``metadata`` form field: a JSON object mapping file names to ``{id, title, metadata}``."""
    if raw is None or not raw.strip():
        return {}
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UploadError("invalid", "invalid_request", "the metadata field is not valid JSON",
                          [{"loc": ["body", "metadata"], "msg": str(exc), "type": "json_invalid"}]) from exc
    if not isinstance(parsed, dict):
        raise UploadError("invalid", "invalid_request", "metadata must be a JSON object mapping file names to options",
                          [{"loc": ["body", "metadata"], "msg": "not an object", "type": "dict_type"}])
    unknown = sorted(set(parsed) - set(names))
    if unknown:
        raise UploadError("invalid", "invalid_request", f"metadata names files that were not uploaded: {unknown}",
                          [{"loc": ["body", "metadata", n], "msg": "no such file in this upload", "type": "unknown_file"}
                           for n in unknown])
    out = {}
    for name, value in parsed.items():
        try:
            out[name] = DocumentFileOptions.model_validate(value)
        except ValidationError as exc:
            details = [{"loc": ["body", "metadata", name, *e["loc"], *(e.get("ctx") or {}).get("path", [])]
                        if e["type"] == "unsafe_string" else ["body", "metadata", name, *e["loc"]],
                        "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            kinds = {d["type"] for d in details}
            code = next((c for c in CODED_ERRORS if c in kinds), "invalid_request")
            raise UploadError("invalid", code, f"invalid metadata for {name}: {exc.errors()[0]['msg']}", details) from exc
    return out


def file_results(loads: Sequence[FileLoad]) -> list[dict[str, Any]]:
    """Per-file outcome of a load: the documents it gave, or its error."""
    return [
        {"name": load.name, "status": "failed", "documents": [],
         "error": {"code": load.error.code, "message": load.error.message}} if load.error is not None
        else {"name": load.name, "status": "accepted", "documents": [d.id for d in load.documents]}
        for load in loads
    ]


def replacing(resources: Resources, docs: Sequence[Document], skip_unchanged: bool) -> tuple[set[str], set[str]]:
    """The ids among ``docs`` that are indexed already: those this write will replace (with ``skip_unchanged``,
    only those whose content differs) and, with ``skip_unchanged``, those it will skip as unchanged. A second
    ``report.pdf`` under another folder is another document, but the same path again replaces its document, and
    the answer says so; the same file again is said to be indexed already (it was answered "accepted" as if new)."""
    if resources.catalog is None or not docs:
        return set(), set()
    known = {r.id: r for r in resources.catalog.get_many([d.id for d in docs])}
    pipeline = resources.ingestor.pipeline()
    same = {d.id for d in docs if skip_unchanged and d.id in known
            and known[d.id].content_hash == content_hash(d, pipeline)}
    return {d.id for d in docs if d.id in known and d.id not in same}, same


def failed_outcomes(loads: Sequence[FileLoad]) -> list[DocumentOutcome]:
    """A job outcome for each file that could not be loaded (named by the file)."""
    return [DocumentOutcome(id=load.name, status="failed",
                            error=f"{load.error.code}: {load.error.message.removeprefix(load.name + ': ')}")
            for load in loads if load.error is not None]


def indexed_paths(resources: Resources, names: Sequence[str]) -> dict[str, str]:
    """The indexed document each loose file name stands for: a name without a folder that exactly one indexed
    document's path ends in (``staff.csv`` uploaded after ``aer ingest`` of a folder made ``staff/staff.csv``).
    A user uploading it again means a new version of that document, not a second copy beside it under another
    id; a name several folders hold (``north/report.md``, ``south/report.md``) stays a document of its own."""
    if resources.catalog is None:
        return {}
    out = {}
    for name in names:
        if "/" in name:
            continue
        _, same_name = resources.catalog.list(offset=0, limit=SUGGESTION_SCAN, source=name)
        paths = [r.id for r in same_name if r.id.endswith("/" + name)]
        if len(paths) == 1 and not resources.catalog.get(name):
            out[name] = paths[0]
    return out


@dataclass(frozen=True)
class Renamed:
    """A loose file that is an indexed document under a new name: that document's id, the id and source it
    takes."""

    old_id: str
    new_id: str
    source: str


def renamed_documents(resources: Resources, loads: Sequence[FileLoad], names: Collection[str]) -> dict[str, Renamed]:
    """The indexed document each loose file is under a new name: the file's one document is new by its id, and
    exactly one indexed document holds the same content (text, structure, metadata) once the name and the title
    it gives are set aside. A user who renamed a file and uploads it means that document, renamed, not a second
    copy beside it that every search then finds twice; the new name keeps the old one's folder
    (``howto/closing.md`` renamed ``closing_up.md`` becomes ``howto/closing_up.md``)."""
    if resources.catalog is None:
        return {}
    pipeline = resources.ingestor.pipeline()
    uploaded = {d.id for load in loads for d in load.documents}
    out = {}
    for load in loads:
        if load.name not in names or load.error is not None or len(load.documents) != 1:
            continue
        doc = load.documents[0]
        if doc.id != load.name or resources.catalog.get(doc.id) is not None:
            continue  # named by the user, or the same name again: a new version of that document
        matches = [r for r in resources.catalog.of_size(len(doc.text.encode()))
                   if r.id not in uploaded and r.content_hash == content_hash(
                       doc.model_copy(update={"source": r.source, "title": r.title}), pipeline)]
        if len(matches) != 1:
            continue
        old = matches[0]
        folder = old.id.rpartition("/")[0]
        new_id = f"{folder}/{load.name}" if folder else load.name
        if (new_id in uploaded and new_id != doc.id) or resources.catalog.get(new_id) is not None:
            continue
        source_folder = (old.source or "").rpartition("/")[0]
        out[load.name] = Renamed(old.id, new_id, f"{source_folder}/{load.name}" if source_folder else load.name)
    return out


def duplicate_files(files: Sequence[tuple[str, bytes]]) -> dict[str, str]:
    """The files of one upload or folder that repeat another byte for byte under another name, each mapped to
    the name kept: the shortest, then the first in order (a copy's name grows: ``minutes (1).pdf``, ``minutes -
    Copy.pdf``, ``minutes副本.pdf``; a browser listed ``rota (1).csv`` before ``rota.csv`` and the copy's name was
    kept). A folder with both went in as two documents without a word, and every search then found each passage
    twice. Empty files are left to fail on their own."""
    groups: dict[bytes, list[str]] = {}
    for name, data in files:
        if data:
            groups.setdefault(hashlib.sha256(data).digest(), []).append(name)
    out = {}
    for names in groups.values():
        kept = min(names, key=len)  # min keeps the first of the shortest
        out.update({name: kept for name in names if name != kept})
    return out


def duplicate_message(name: str, kept: str) -> str:
    """What a dropped duplicate file is told."""
    return (f"{name} has the same bytes as {kept} in this upload: only {kept} is ingested; to keep both, give "
            f"{name} its own id in metadata ({{\"{name}\": {{\"id\": \"{name}\"}}}})")


T = TypeVar("T")

LARGE_DOCUMENT_CHARS = 100_000
"""A document this long is many seconds of ingest (about 170 chunks; 25 chunks/s measured on the busy 2-core
machine with e5's vectors filled behind): an ingest takes it after the others."""


def large_last(items: Sequence[T], size: Callable[[T], int]) -> list[T]:
    """``items`` in their order, those of ``LARGE_DOCUMENT_CHARS`` or more moved to the end, smallest first. A job
    (and ``aer ingest FOLDER --server``, one job per group) writes in order: a 3.4 MB log listed first held the 35
    notes beside it back, none searchable for 3 minutes; now they go in within seconds and the log is the tail."""
    large = [i for i in items if size(i) >= LARGE_DOCUMENT_CHARS]
    return [i for i in items if size(i) < LARGE_DOCUMENT_CHARS] + sorted(large, key=size)


async def upload(resources: Resources, files: Sequence[tuple[str, bytes]], metadata: str | None, *,
                 root: str | None = None, skip_unchanged: bool = True) -> dict[str, Any]:
    """Parse uploaded files (a file that cannot be read fails alone) and queue a job of their documents. A loose
    file (no folder named: ``root`` unset, no ``id`` in its metadata) whose name one indexed document's path ends
    in is a new version of that document (``files[i].sameAs`` says so); a folder's files keep their paths."""
    names = [name for name, _ in files]
    options = file_options(metadata, names)
    # a duplicate the user named in metadata (its own id, title or metadata) is meant to stay apart
    duplicates = {n: kept for n, kept in duplicate_files(files).items() if n not in options}
    files = [(name, data) for name, data in files if name not in duplicates]
    loose = [n for n in names if root is None and not ((o := options.get(n)) and o.id)]
    same_as = await asyncio.to_thread(indexed_paths, resources, loose)
    specs = [FileSpec(name=name, data=data,
                      doc_id=(o.id if (o := options.get(name)) and o.id else same_as.get(name, name)),
                      title=o.title if o else None, metadata=o.metadata if o else None) for name, data in files]
    loads = [FileLoad(load.name, [d.model_copy(update={"source": same_as[load.name]}) for d in load.documents],
                      load.error) if load.name in same_as else load
             for load in await asyncio.to_thread(load_files, specs)]  # the version keeps its document's source
    renamed = await asyncio.to_thread(renamed_documents, resources, loads, [n for n in loose if n not in same_as])
    loads = [FileLoad(load.name, [d.model_copy(update={"id": r.new_id, "source": r.source}) for d in load.documents],
                      load.error) if (r := renamed.get(load.name)) else load for load in loads]
    results = file_results(loads)
    keep_apart = "give it its own id in metadata ({{\"{0}\": {{\"id\": \"{0}\"}}}})"
    for result in results:
        if (path := same_as.get(result["name"])) and result["status"] == "accepted":
            result["sameAs"] = {"id": path, "message": (
                f"{result['name']} is the indexed {path} (the same file name): uploaded as its new version; to "
                f"keep it apart, {keep_apart.format(result['name'])}")}
        if (r := renamed.get(result["name"])) and result["status"] == "accepted":
            result["renamed"] = {"from": r.old_id, "to": r.new_id, "message": (
                f"{result['name']} has the content of the indexed {r.old_id} under a new name: it becomes "
                f"{r.new_id}, and {r.old_id} is removed once {r.new_id} is written; to keep both, "
                f"{keep_apart.format(result['name'])}")}
    results += [{"name": name, "status": "duplicate", "documents": [], "duplicateOf": kept,
                 "message": duplicate_message(name, kept)} for name, kept in duplicates.items()]
    docs = large_last([d for load in loads for d in load.documents], lambda d: len(d.text))
    if not docs:
        reasons = [r["error"]["message"] for r in results if r["status"] == "failed"]
        more = f"; and {len(reasons) - 3} more (details.files)" if len(reasons) > 3 else ""
        raise UploadError("invalid", "no_documents", "none of the uploaded files could be read into a document: "
                          + "; ".join(reasons[:3]) + more, {"files": results})
    replaced, unchanged = await asyncio.to_thread(replacing, resources, docs, skip_unchanged)
    for result in results:
        result["replaced"] = [i for i in result["documents"] if i in replaced]
        result["unchanged"] = [i for i in result["documents"] if i in unchanged]
    assert resources.jobs is not None
    job_id = await asyncio.to_thread(resources.jobs.submit, "upload", docs,
                                     {"skip_unchanged": skip_unchanged, "root": root,
                                      "renames": {r.new_id: r.old_id for r in renamed.values()}},
                                     failed_outcomes(loads))
    return {"success": True, "jobId": job_id, "documents": len(docs), "files": results,
            **await asyncio.to_thread(queue_of, resources, job_id),
            "duplicates": [{"name": name, "keptAs": kept} for name, kept in duplicates.items()],
            "replaced": [d.id for d in docs if d.id in replaced], "unchanged": [d.id for d in docs if d.id in unchanged],
            "renamed": [{"from": r.old_id, "to": r.new_id} for r in renamed.values()]}


# ---------------------------------------------------------------------------- inventory and jobs


def record_body(record: DocumentRecord) -> dict[str, Any]:
    """One inventory row on the wire."""
    return record.model_dump(by_alias=True, mode="json")


def list_documents(resources: Resources, *, offset: int, limit: int, source: str | None = None,
                   title: str | None = None, root: str | None = None) -> dict[str, Any]:
    """One page of the inventory."""
    assert resources.catalog is not None
    total, records = resources.catalog.list(offset=offset, limit=limit, source=source, title=title, root=root)
    return {"success": True, "total": total, "offset": offset, "limit": limit,
            "documents": [record_body(r) for r in records]}


def show_document(resources: Resources, doc_id: str) -> dict[str, Any] | None:
    """A document's inventory row and its chunks (text, entity tags, date, location); None if unknown."""
    assert resources.catalog is not None
    record, chunks = resources.ingestor.read_document(doc_id)  # one version, never a replace half-way
    if record is None and not chunks:
        return None
    if record is None:
        record = DocumentRecord(id=doc_id, title=chunks[0].title, chunks=len(chunks))
    return {"success": True, "document": record_body(record),
            "chunks": [c.model_dump(by_alias=True, mode="json") for c in chunks]}


def job_body(view: JobView) -> dict[str, Any]:
    """A job on the wire."""
    return {"success": True, "job": view.model_dump(by_alias=True, mode="json")}


def show_job(resources: Resources, job_id: str, offset: int = 0, limit: int = 100) -> JobView | None:
    """A job's status, progress and a page of its documents' outcomes."""
    assert resources.jobs is not None
    view = resources.jobs.store.view(job_id, offset, limit)
    if view is not None and view.status == "queued":
        view = view.model_copy(update={"queue": resources.jobs.queue(job_id)})
    fill = resources.ingestor.vector_fill
    if view is None or fill is None:
        return view
    _, chunks = fill.pending.counts(resources.jobs.store.doc_ids(job_id))
    return view.model_copy(update={"progress": view.progress.model_copy(update={"vectors_pending": chunks})})


def queue_of(resources: Resources, job_id: str) -> dict[str, Any]:
    """A job just submitted as the wire writes it: ``status`` (``queued``, or ``running`` when the worker took it
    up at once) and ``queue``, a queued job's place in the queue and why it waits (None once it runs)."""
    assert resources.jobs is not None
    queue = resources.jobs.queue(job_id)
    if queue is not None:
        return {"status": "queued", "queue": queue.model_dump(mode="json", by_alias=True)}
    return {"status": resources.jobs.store.status(job_id) or "queued", "queue": None}


CANCEL_WAIT_S = 3.0
"""How long a cancel waits for the job's batch in progress to stop, so that what it answers is what happened: a
batch stops at its next check (before a document is chunked, before the write); one already being written goes
in, and the job's ``progress.writing`` says so until it is."""


def cancel_job(resources: Resources, job_id: str) -> JobStatus | None:
    """Cancel a queued or running ingest job (it stops before the next document it would chunk or write); its status after the call:
    ``cancelled``, or the one it had finished with; None for an unknown id. Waits up to ``CANCEL_WAIT_S`` for
    the batch in progress to stop or be written (a cancel answered "1 not ingested" while that document's write
    was ending, and it was in the index a second later)."""
    assert resources.jobs is not None
    status = resources.jobs.store.cancel(job_id)
    if status == "cancelled":
        resources.jobs.store.settle(job_id, CANCEL_WAIT_S)
    return status


def list_jobs(resources: Resources, limit: int = 20, *, unfinished: bool = False) -> list[JobView]:
    """The workspace's newest ingest jobs with their progress, newest first, without their documents' outcomes
    (``show_job`` pages those); ``unfinished``: only the queued and running ones. A job started by another tab,
    another person, or before a restart (which resumes it) is found here without its id."""
    assert resources.jobs is not None
    views = (show_job(resources, job_id, 0, 0) for job_id in resources.jobs.store.recent(limit, unfinished=unfinished))
    return [view for view in views if view is not None]


def documents_pending(resources: Resources) -> int:
    """Documents the workspace's queued and running ingest jobs have still to write."""
    return resources.jobs.store.pending_documents() if resources.jobs is not None else 0


# ---------------------------------------------------------------------------- files and folders (the CLI)


@dataclass
class FolderReport:
    """What ``aer ingest PATH`` did."""

    files: list[FileLoad]
    report: IngestReport
    outcomes: list[DocumentOutcome] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    skipped: list[SkippedPath] = field(default_factory=list)
    """Paths under the root left out on purpose (symbolic links), with why."""
    renamed: list[tuple[str, str]] = field(default_factory=list)
    """``(old id, new id)``: documents of the root whose file was renamed (the old id removed)."""
    duplicates: dict[str, str] = field(default_factory=dict)
    """Files left out because an earlier file of the folder has the same bytes: name → the name kept."""

    @property
    def failed(self) -> list[DocumentOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]


def root_label(path: Path) -> str:
    """How a folder is named in the inventory (``--prune`` removes what is gone from the same root)."""
    return str(path.resolve())


def folder_specs(path: Path, include: Sequence[str], exclude: Sequence[str], id_prefix: str,
                 skipped: list[SkippedPath] | None = None,
                 duplicates: dict[str, str] | None = None) -> list[FileSpec]:
    """The files to load from a path: id = prefix + path relative to the root (the file's name for a file).
    Symbolic links are not followed (``skipped`` gets each, with why), not even one swapped in after the walk. A
    file with the same bytes as an earlier one is left out (``duplicates`` gets each: name → the name kept)."""
    skipped = skipped if skipped is not None else []
    specs = []
    for f in discover(path, include, exclude, skipped):
        try:
            data = read_regular(f.path)
        except OSError as exc:
            skipped.append(SkippedPath(f.relative, f"not read: {exc.strerror or exc}"))
            continue
        specs.append(FileSpec(name=f.relative, data=data, doc_id=f"{id_prefix}{f.relative}"))
    repeats = duplicate_files([(spec.name, spec.data) for spec in specs])
    if duplicates is not None:
        duplicates.update(repeats)
    return [spec for spec in specs if spec.name not in repeats]


def to_prune(records: Sequence[DocumentRecord], loads: Sequence[FileLoad]) -> list[str]:
    """Documents of a root to remove after its re-ingest: their file is gone, or it was read and no longer
    gives them (a line removed from a JSONL file). A file that failed to load keeps its documents."""
    present = {load.name for load in loads}
    failed = {load.name for load in loads if load.error is not None}
    produced = {d.id for load in loads for d in load.documents}
    return [r.id for r in records
            if r.source is None or r.source not in present or (r.source not in failed and r.id not in produced)]


def renamed_pairs(records: Sequence[DocumentRecord], loads: Sequence[FileLoad],
                  written: Sequence[Document]) -> list[tuple[str, str]]:
    """``(old id, new id)`` for each document of a root (``records``) whose file is gone from it (``loads``: the
    root's files now) while a document this ingest wrote anew (``written``) holds its content, the name and the
    title it gives set aside: a file renamed in the folder. The user expects the document under its new name, not
    a second copy beside the old one until ``--prune``."""
    new = {d.id for d in written}
    by_id = {r.id: r for r in records}
    gone = [by_id[i] for i in to_prune(records, loads) if i in by_id and i not in new]
    pairs: list[tuple[str, str]] = []
    for doc in written if gone else ():
        same = [r for r in gone if r.bytes == len(doc.text.encode()) and content_part(r.content_hash) == content_part(
            content_hash(doc.model_copy(update={"source": r.source, "title": r.title})))]
        if len(same) == 1:
            pairs.append((same[0].id, doc.id))
            gone.remove(same[0])
    return pairs


def ingest_folder(resources: Resources, path: Path, *, include: Sequence[str] = (), exclude: Sequence[str] = (),
                  id_prefix: str = "", prune: bool = False, force: bool = False,
                  progress: Callable[[int], Progress] | None = None) -> FolderReport:
    """Ingest a file or folder: new and changed documents are written (unchanged ones skipped unless
    ``force``), one batch at a time; with ``prune``, documents of this root whose file is gone are deleted."""
    # Load the models (embedder, jieba) and open the collection before the clock starts: the rates are the work's.
    resources.warm_up()
    resources.ingestor.embedder.embed_documents(["warm up"])
    resources.ingestor.document_fields(Document(id="warm-up", text="马斯克在北京。"))  # jieba's tag table
    started = time.perf_counter()
    root = root_label(path)
    skipped: list[SkippedPath] = []
    duplicates: dict[str, str] = {}
    loads = load_files(folder_specs(path, include, exclude, id_prefix, skipped, duplicates))
    docs = [d for load in loads for d in load.documents]
    bar = progress(len(docs)) if progress else None
    report = IngestReport()
    outcomes: list[DocumentOutcome] = []
    sizer = BatchSizer(BATCH_SIZE)
    start = 0
    while start < len(docs):
        batch_started = time.perf_counter()
        batch = docs[start : start + sizer.size]
        found, part = ingest_each(resources.ingestor, batch, skip_unchanged=not force, root=root)
        sizer.record(len(batch), time.perf_counter() - batch_started)
        start += len(batch)
        outcomes += found
        report.add(part)
        if bar is not None:
            bar.update(len(found), part.chunks)
    if bar is not None:
        bar.close()
    done = {o.id for o in outcomes if o.status == "done"}
    renamed = renamed_pairs(resources.catalog.under(root) if resources.catalog is not None else [], loads,
                            [d for d in docs if d.id in done])
    for old_id, _ in renamed:
        resources.ingestor.delete(old_id)
    removed: list[str] = []
    if prune and resources.catalog is not None:
        for doc_id in to_prune(resources.catalog.under(root), loads):
            resources.ingestor.delete(doc_id)
            removed.append(doc_id)
    report.seconds = time.perf_counter() - started  # reading and parsing the files included
    return FolderReport(files=loads, report=report, outcomes=outcomes + failed_outcomes(loads), removed=removed,
                        skipped=skipped, renamed=renamed, duplicates=duplicates)
