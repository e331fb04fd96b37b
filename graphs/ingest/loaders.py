"""Loaders of the files the service ingests: entity lists (JSONL or a JSON array), JSONL corpora, and
documents from files and folders (every type in ``formats``: ``SUPPORTED_SUFFIXES``)."""

from __future__ import annotations

import fnmatch
import json
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pydantic import ValidationError

from graphs.domain import Document, DocumentSection, EntityMetadata
from graphs.ingest.formats import (
    SECTION_SEPARATOR,
    SUPPORTED_SUFFIXES,
    FileParseError,
    format_of,
    joined,
    parse_file,
)
from graphs.unicode_policy import text_problem


def load_entities_jsonl(path: str | Path) -> list[EntityMetadata]:
    """Read entities (camelCase fields) from a JSONL file or a JSON array; ValueError names the bad record."""
    path = Path(path)
    text = path.read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: invalid JSON: {exc}") from exc
        records = [(f"item {i}", item) for i, item in enumerate(items)]
    else:
        records = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"line {lineno}", json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}: line {lineno}: invalid JSON: {exc}") from exc
    entities = []
    for where, record in records:
        try:
            entities.append(EntityMetadata.model_validate(record))
        except ValidationError as exc:
            raise ValueError(f"{path}: {where}: invalid entity: {exc}") from exc
    return entities


# ---------------------------------------------------------------------------- documents from files

DOCUMENT_ID_MAX = 256


def load_file(data: bytes, name: str, *, doc_id: str, source: str, title: str | None = None,
              metadata: Mapping[str, Any] | None = None) -> list[Document]:
    """The documents of one file: a JSONL corpus's lines (with their own ids), or one document with id
    ``doc_id``, its title (``title``, else one found in the file, else the file name) and its sections.
    ``FileParseError`` names the file and what is wrong with it."""
    if (problem := text_problem(name, "file name")) is not None:
        # a file's name becomes its document's id and source: "gpj.\u202eexe-trav8.md" shows as "...8vart-exe.jpg"
        raise FileParseError("invalid_file_name", f"{name.encode('unicode_escape').decode('ascii')}: the file "
                             f"name {problem}")
    suffix = PurePosixPath(name).suffix.lower()
    fmt = format_of(suffix)
    if fmt is not None and fmt.documents is not None:  # a corpus: its documents carry their own ids
        return [d.model_copy(update={"source": d.source or name}) for d in fmt.documents(data, name)]
    parsed = parse_file(data, name, suffix)
    try:
        return [Document(id=doc_id, title=title or parsed.title or title_of_name(name),
                         text=joined(parsed.sections), metadata=dict(metadata or {}), source=source,
                         sections=without_title(parsed.sections, parsed.title))]
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        if first.get("loc") == ("id",) and first["type"] == "string_too_long":
            # the id is the file's path: "id: String should have at most 256 characters" said neither whose id nor
            # what to do
            raise FileParseError("invalid_file_name", f"{name}: the document's id, the file's path ({len(doc_id):,} "
                                 f"characters), is over the {DOCUMENT_ID_MAX} an id may have: shorten the file's "
                                 "name or its folders' names (an upload's metadata may give it a shorter id)") from exc
        raise FileParseError("invalid_document", f"{name}: {where + ': ' if where else ''}{first['msg']}") from exc


def title_of_name(name: str) -> str:
    """A file's title when the file states none: its name without the suffix, underscores read as the spaces they
    stand for (``norvik_ax40_manual.txt`` → "norvik ax40 manual": the words a question names it by). Hyphens stay:
    they join model codes (AX-40)."""
    stem = PurePosixPath(name).stem
    return " ".join(stem.replace("_", " ").split()) or stem


def without_title(sections: list[DocumentSection], title: str) -> list[DocumentSection]:
    """Drop the document's title from the front of each heading path (``Guide > Setup`` → ``Setup``): it is
    the citation's title already."""
    if not title:
        return sections
    head = title + SECTION_SEPARATOR
    out = []
    for s in sections:
        if s.section == title:
            s = s.model_copy(update={"section": None})
        elif s.section and s.section.startswith(head):
            s = s.model_copy(update={"section": s.section[len(head) :]})
        out.append(s)
    return out


@dataclass(frozen=True)
class FoundFile:
    """A file under an ingest root: where it is and its path relative to the root (``guide/setup.md``)."""

    path: Path
    relative: str


def _matches(relative: str, patterns: Sequence[str]) -> bool:
    name = PurePosixPath(relative).name
    return any(fnmatch.fnmatchcase(relative, p) or fnmatch.fnmatchcase(name, p) for p in patterns)


@dataclass(frozen=True)
class SkippedPath:
    """A path under an ingest root left out on purpose, and why (a symbolic link is never followed)."""

    relative: str
    reason: str


def _link_reason(path: Path, root: Path) -> str:
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "a symbolic link whose target does not exist or loops (links are not followed)"
    inside = target == root or root in target.parents
    where = "inside" if inside else "outside"
    return f"a symbolic link to a {'folder' if target.is_dir() else 'file'} {where} the root (links are not followed)"


def discover(root: Path, include: Sequence[str] = (), exclude: Sequence[str] = (),
             skipped: list[SkippedPath] | None = None) -> list[FoundFile]:
    """The supported files under ``root`` (a folder, recursively, or one file), sorted by relative path.

    Hidden files and folders (``.git``) are left out; ``include``/``exclude`` are globs matched against the
    relative path or the file name (``*.md``, ``drafts/*``; ``*`` crosses folders): with ``include`` only
    matching files are taken, then any matching ``exclude`` is dropped. Symbolic links below the root (to
    files or folders, inside or outside it) are never followed: an untrusted folder could otherwise pull in
    any file the process can read (``passwd.txt -> /etc/passwd``); each one goes to ``skipped`` with why.
    The root itself is what the user named, so a root that is a link is taken where it points.
    """
    skipped = skipped if skipped is not None else []
    if root.is_file():
        candidates = [(root.resolve(), root.name)]  # the file the user named, even through a link
    else:
        candidates = []
        base = root.resolve()
        for folder, dirs, files in os.walk(root, followlinks=False):
            here = Path(folder)
            for name in sorted(dirs):
                path = here / name
                relative = path.relative_to(root).as_posix()
                if name.startswith("."):
                    dirs.remove(name)
                elif path.is_symlink():
                    dirs.remove(name)  # os.walk does not descend into it either; say so
                    skipped.append(SkippedPath(relative, _link_reason(path, base)))
            for name in files:
                path = here / name
                relative = path.relative_to(root).as_posix()
                if name.startswith("."):
                    continue
                if path.is_symlink():
                    skipped.append(SkippedPath(relative, _link_reason(path, base)))
                elif path.is_file():
                    candidates.append((path, relative))
                else:
                    skipped.append(SkippedPath(relative, "not a regular file (a device, socket or pipe)"))
        candidates.sort(key=lambda c: c[1])
        skipped.sort(key=lambda s: s.relative)
    found = []
    for path, relative in candidates:
        if path.suffix.lower() not in SUPPORTED_SUFFIXES:
            continue
        if include and not _matches(relative, include):
            continue
        if exclude and _matches(relative, exclude):
            continue
        found.append(FoundFile(path=path, relative=relative))
    return found


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file, never through a symbolic link (``O_NOFOLLOW``): a file swapped for a link
    after ``discover`` is refused (``OSError``), not followed."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


@dataclass
class FileLoad:
    """What one file gave: its documents, or the error that kept it out (``documents`` then empty)."""

    name: str
    documents: list[Document]
    error: FileParseError | None = None


@dataclass(frozen=True)
class FileSpec:
    """One file to load: its name (a path under the root, or the uploaded name), bytes, and document fields."""

    name: str
    data: bytes
    doc_id: str
    title: str | None = None
    metadata: Mapping[str, Any] | None = None


def load_files(specs: Iterable[FileSpec]) -> list[FileLoad]:
    """Load every file; one that cannot be read (or repeats an id another file gave) fails alone."""
    loads: list[FileLoad] = []
    seen: dict[str, str] = {}
    for spec in specs:
        try:
            docs = load_file(spec.data, spec.name, doc_id=spec.doc_id, source=spec.name, title=spec.title,
                             metadata=spec.metadata)
            ids = [d.id for d in docs]
            if len(set(ids)) != len(ids):
                raise FileParseError("invalid_jsonl", f"{spec.name}: a document id appears twice")
            if clash := next((i for i in ids if i in seen), None):
                raise FileParseError("invalid_document",
                                     f"{spec.name}: document id {clash!r} is also given by {seen[clash]}")
        except FileParseError as exc:
            loads.append(FileLoad(spec.name, [], exc))
            continue
        seen.update(dict.fromkeys(ids, spec.name))
        loads.append(FileLoad(spec.name, docs))
    return loads
