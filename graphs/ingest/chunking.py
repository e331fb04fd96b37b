"""Chunking: split documents at sentence boundaries, tag each chunk with normalized entity fields, a date and
its location, and the pure helpers around it (metadata fields, the graph's view of a document, content hashes,
what gets embedded). ``Chunker`` is the ``Ingestor``'s chunking part (``graphs.ingest.pipeline``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from pathlib import PurePath
from typing import Any

from langchain_text_splitters import RecursiveCharacterTextSplitter

from graphs.domain import (
    ENTITY_TYPE_KEYS,
    Chunk,
    Document,
    DocumentSection,
    EntityType,
    Hit,
    iso_date,
)
from graphs.ingest.loaders import title_of_name
from graphs.ingest.tags import confident_tags
from graphs.kg.base import KgDocument
from graphs.stores.base import EntityStore
from graphs.text.dates import find_dates, first_date, header_date
from graphs.text.entity_spotting import extract_entities
from graphs.text.fields import field_of
from graphs.text.gazetteer import Gazetteer

SEPARATORS = ["\n\n", "\n", "。", "！", "？", ". ", "! ", "? ", "；", "; ", "，", ", ", " ", ""]
_TYPE_KEYS = ENTITY_TYPE_KEYS


def make_splitter(chunk_size: int = 800, overlap: int = 100) -> RecursiveCharacterTextSplitter:
    """A splitter that cuts Chinese and English text at sentence boundaries first."""
    return RecursiveCharacterTextSplitter(
        chunk_size=chunk_size, chunk_overlap=overlap, separators=SEPARATORS, keep_separator="end"
    )


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, Iterable):
        return [str(v) for v in value if str(v).strip()]
    return [str(value)]


def metadata_entities(metadata: Mapping[str, Any]) -> dict[EntityType, list[str]]:
    """Typed entity values from metadata: ``{"entities": {"PERSON": [...]}}`` or ``{"person": ...}``."""
    found: dict[EntityType, list[str]] = {}
    sources: list[Mapping[str, Any]] = [metadata]
    nested = metadata.get("entities")
    if isinstance(nested, Mapping):
        sources.append(nested)
    elif isinstance(nested, list):
        for item in nested:
            if isinstance(item, Mapping) and str(item.get("type", "")).lower() in _TYPE_KEYS:
                found.setdefault(_TYPE_KEYS[str(item["type"]).lower()], []).extend(_as_list(item.get("text") or item.get("name")))
    for source in sources:
        for key, value in source.items():
            etype = _TYPE_KEYS.get(str(key).lower())
            if etype and etype != "DATE":
                found.setdefault(etype, []).extend(_as_list(value))
    return found


def metadata_date(metadata: Mapping[str, Any], today: date) -> int | None:
    """The document date from ``metadata['date']`` as YYYYMMDD (an ISO date or a YYYYMMDD integer, checked
    when the document was built: ``graphs.domain.iso_date``); None when it has none."""
    try:
        return iso_date(metadata.get("date"))
    except ValueError:  # a document built before dates were checked (a resumed job's)
        return None


def metadata_related(metadata: Mapping[str, Any], title: str = "") -> list[tuple[str, str]]:
    """(entity, related entity) pairs from ``metadata['relatedEntities']`` (or ``related_entities``).

    Accepts ``{"A": ["B", ...]}``, ``[["A", "B"], ...]``, ``[{"source": "A", "target": "B"}]``, and
    plain names, which are related to the document's title.
    """
    raw = metadata.get("relatedEntities", metadata.get("related_entities"))
    pairs: list[tuple[str, str]] = []
    if isinstance(raw, Mapping):
        pairs = [(str(a), b) for a, values in raw.items() for b in _as_list(values)]
    elif isinstance(raw, Iterable) and not isinstance(raw, str):
        for item in raw:
            if isinstance(item, Mapping):
                a, b = item.get("source") or item.get("from"), item.get("target") or item.get("to")
                if a is not None and b is not None:
                    pairs.append((str(a), str(b)))
            elif isinstance(item, list | tuple) and len(item) == 2:
                pairs.append((str(item[0]), str(item[1])))
            elif isinstance(item, str) and title.strip():
                pairs.append((title, item))
    elif isinstance(raw, str) and title.strip():
        pairs = [(title, raw)]
    return list(dict.fromkeys((a.strip(), b.strip()) for a, b in pairs if a.strip() and b.strip()))


def kg_document(doc: Document, chunks: Iterable[Chunk]) -> KgDocument:
    """What the knowledge graph keeps of a document: its entity fields (all types but DATE) and relations."""
    entities = [name for c in chunks for etype, names in c.entities.items() if etype != "DATE" for name in names]
    return KgDocument(
        doc_id=doc.id, title=doc.title, text=doc.text, entities=list(dict.fromkeys(entities)),
        related=metadata_related(doc.metadata, doc.title),
    )


def content_hash(doc: Document, pipeline: str | None = None) -> str:
    """SHA-256 of what a document's index entries are made of (all but its id), then ``@`` and the fingerprint of
    the ingest pipeline that makes them (``graphs.ingest.fingerprint``; None: the default one): equal keys, equal
    chunks."""
    from graphs.ingest.fingerprint import keyed, pipeline_fingerprint

    payload = json.dumps(doc.model_dump(mode="json", exclude={"id"}), sort_keys=True, ensure_ascii=False)
    return keyed(hashlib.sha256(payload.encode()).hexdigest(), pipeline or pipeline_fingerprint())


def embedding_text(chunk: Chunk | Hit) -> str:
    """What gets embedded for a chunk (or a hit of it): its title (and section) give the passage its subject."""
    head = " — ".join(part for part in (chunk.title, chunk.section) if part)
    return f"{head}\n{chunk.text}" if head else chunk.text



class IngestCancelled(Exception):
    """The caller's ``cancelled`` said stop before the batch was written: nothing of it was."""


def stop_if(cancelled: Callable[[], bool] | None) -> None:
    """Raise ``IngestCancelled`` when the caller's ``cancelled`` says stop."""
    if cancelled is not None and cancelled():
        raise IngestCancelled("cancelled before the batch was written")


def _table_cell(line: str) -> bool:
    """Whether a line is a table's cell as ingest writes it ("column — row: value", ``table_sentences``)."""
    return (f := field_of(line)) is not None and bool(f.row)


def _named_by_file(doc: Document) -> bool:
    """Whether a document's title is its file's name (no title in the file: the loader's fallback)."""
    if not doc.source:
        return False
    name = PurePath(doc.source).name
    return doc.title.strip() in (title_of_name(name), PurePath(name).stem, name)


class Chunker:
    """Splits documents into tagged chunks (a part of ``Ingestor``, whose dataclass fields it reads)."""

    entities: EntityStore
    gazetteer: Callable[[], Gazetteer]
    today: Callable[[], date]
    splitter: RecursiveCharacterTextSplitter

    def normalize_entities(self, raw: Mapping[EntityType, list[str]]) -> dict[EntityType, list[str]]:
        """Map each value to its standard name (and add hierarchy ancestors); unknown values stay."""
        out: dict[EntityType, list[str]] = {}
        for etype, values in raw.items():
            for value in values:
                match = self.entities.lookup(value)
                if match is not None and match.match in ("exact", "alias"):
                    target = out.setdefault(match.entity.type, [])
                    target.extend([*match.entity.ancestors, match.entity.standard_name])
                else:
                    out.setdefault(etype, []).append(value.strip())
        return {t: list(dict.fromkeys(v)) for t, v in out.items()}

    def document_fields(self, doc: Document, *, extract: bool = True) -> tuple[dict[EntityType, list[str]], int | None, bool]:
        """Entity fields and date of a document; extracted from the text when metadata has none (``extract``
        False: only the date is, and the entities are left to each chunk)."""
        raw = metadata_entities(doc.metadata)
        when = metadata_date(doc.metadata, self.today())
        extracted = False
        if not raw and not extract:
            return {}, when if when is not None else first_date(f"{doc.title}\n{doc.text}", self.today()), True
        if not raw:
            extracted = True
            found = extract_entities(f"{doc.title}\n{doc.text}", self.gazetteer(), self.today())
            for e in found:
                if e.type == "DATE" and when is None and e.date_range is not None:
                    when = e.date_range.start
            # Dictionary hits and jieba's 人名/地名/机构名 that reach the tag confidence (``graphs.ingest.tags``).
            raw = confident_tags(found, f"{doc.title}\n{doc.text}")
        return self.normalize_entities(raw), when, extracted

    def chunks(self, doc: Document, cancelled: Callable[[], bool] | None = None) -> tuple[list[Chunk], bool]:
        """Split one document into chunks carrying its entity fields, date and location; ``cancelled`` is asked
        before each passage is tagged (a large file's tagging takes tens of seconds: a cancel stops it there).

        A document with structure (a loaded file) is split section by section (a heading's text, a PDF page),
        so no chunk crosses a heading or a page; when its metadata names no entities, each chunk gets those
        its own section and text name (a long file names many things, each in its own place).
        """
        fields, _, extracted = self.document_fields(doc, extract=not doc.sections)
        explicit = metadata_date(doc.metadata, self.today())
        header = header_date(doc.text, self.today()) if explicit is None else None
        parts = doc.sections or [DocumentSection(text=doc.text)]
        pieces = [(piece, part) for part in parts for piece in self.splitter.split_text(part.text)]
        if not pieces:
            pieces = [(doc.text, parts[0] if doc.sections else DocumentSection(text=doc.text))]
        per_chunk = extracted and bool(doc.sections)
        gazetteer = self.gazetteer() if per_chunk else None
        chunks = []
        for i, (piece, part) in enumerate(pieces):
            stop_if(cancelled)
            entities = fields
            if gazetteer is not None:
                head = " ".join(p for p in (doc.title, part.section) if p)
                entities = self.normalize_entities(self._extracted(f"{head}\n{piece}", gazetteer, doc.text))
            chunks.append(Chunk(id=f"{doc.id}#{i}", doc_id=doc.id, chunk_index=i, title=doc.title, text=piece,
                                date=explicit if explicit is not None else self.chunk_date(
                                    doc.title, part, piece, header, named_by_file=_named_by_file(doc)),
                                entities=entities, source=doc.source, section=part.section,
                                page=part.page))
        return chunks, extracted

    def chunk_date(self, title: str, part: DocumentSection, piece: str, header: int | None = None, *,
                   named_by_file: bool = False) -> int | None:
        """The date a chunk states: in its own text, else in the heading it is shown under, else the date its
        document's header states of the whole (the minutes' meeting date for the recorder's line at the end),
        else its title's; never a date found elsewhere in its file (a file's first date in its prose is not the
        date of its every chunk). A year or month stated that holds the header's day is that day (the title's
        "2025年第三次理事会" in the first chunk, over the header's 2025年8月14日).

        A table's cell lines date nothing: a row's year ("year built — Kestrel: 2015") is a value of that row,
        not the date of the chunk that lists the table. A title that is only the file's name (``season_2026``,
        ``budget-2025.txt``: ``named_by_file``) dates its chunks by a day or a month it names, never by a bare
        year turned into 1 January."""
        own = "\n".join(line for line in piece.splitlines() if not _table_cell(line))
        for text in (own, part.section or "", None, title):
            if text is None:
                if header is not None:
                    return header
                continue
            found = find_dates(text, self.today(), relative=False)
            if text is title and named_by_file:
                found = [d for d in found if d.range.granularity in ("day", "month")]
            if found:
                stated = found[0].range
                return header if header is not None and stated.start <= header <= stated.end else stated.start
        return None

    def _extracted(self, text: str, gazetteer: Gazetteer, document: str = "") -> dict[EntityType, list[str]]:
        """Dictionary hits and jieba's 人名/地名/机构名 in a text that reach the tag confidence (no dates: a
        chunk's date is found apart, ``chunk_date``); ``document``: the whole text, where a guessed name's repetition counts."""
        return confident_tags(extract_entities(text, gazetteer, self.today()), document or text)
