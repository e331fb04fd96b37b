"""The fingerprint of the ingest pipeline: what a re-ingest's "skip unchanged" is keyed by, with a document's
content hash.

A document is skipped only when its parsed content is the indexed one AND the pipeline that would index it now is
the one that did: the source of the parsers and of the code that turns a document into tagged chunks, and the
splitter's settings. A fix to any of them re-reads every file on the next ingest (the job says ``reread``); an
unchanged file under an unchanged pipeline costs nothing.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path
from typing import Any

PIPELINE_MODULES = (
    "graphs.ingest.formats",  # the parsers (a package: every module of it)
    "graphs.ingest.loaders",
    "graphs.ingest.chunking",
    "graphs.ingest.tags",
    "graphs.text.entity_spotting",
    "graphs.text.dates",
)
"""The code a document's index entries are made by (besides the embedder, which ``aer reindex`` changes)."""
SEPARATOR = "@"
"""Between a document's content hash and the pipeline's fingerprint in the inventory's ``content_hash``."""


def _sources(module: str) -> list[Path]:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return []
    origin = Path(spec.origin)
    return sorted(origin.parent.rglob("*.py")) if spec.submodule_search_locations else [origin]


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 of the source of ``PIPELINE_MODULES`` (read once per process)."""
    digest = hashlib.sha256()
    for module in PIPELINE_MODULES:
        for path in _sources(module):
            digest.update(f"{module}:{path.name}\n".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def pipeline_fingerprint(splitter: Any = None) -> str:
    """12 hex digits naming the pipeline: its code and the splitter's size, overlap and separators (None: the
    default splitter)."""
    if splitter is None:
        from graphs.ingest.chunking import make_splitter

        splitter = make_splitter()
    settings = [getattr(splitter, "_chunk_size", None), getattr(splitter, "_chunk_overlap", None),
                list(getattr(splitter, "_separators", []) or [])]
    return hashlib.sha256(f"{code_fingerprint()}\n{settings!r}".encode()).hexdigest()[:12]


def keyed(content: str, pipeline: str) -> str:
    """What the inventory stores: the content hash, then the pipeline that indexed it."""
    return f"{content}{SEPARATOR}{pipeline}"


def content_part(stored: str | None) -> str | None:
    """The content hash of a stored key (an inventory row written before pipelines were fingerprinted: all of
    it)."""
    return None if stored is None else stored.partition(SEPARATOR)[0]
