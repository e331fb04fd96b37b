"""The entity writer: entities added, merged, stripped of aliases or deleted in the entity store, mirrored into the
knowledge graph, and the indexed chunks re-tagged to match (rewritten with their stored vectors, nothing embedded
again). Each write is journaled like a document write (``graphs.ingest.recovery``): one the stores could not finish
is re-mirrored and re-tagged by the next recovery. ``EntityWriter`` is the ``Ingestor``'s entity part."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from graphs.domain import (
    Chunk,
    EntityMetadata,
    EntityType,
)
from graphs.ingest.swaps import DocumentSwaps
from graphs.kg.base import KnowledgeGraph
from graphs.kg.mentions import canonical, contains_key, covered_by, key_spans, name_key
from graphs.stores.base import DocumentChunks, EntityStore, IndexedChunks
from graphs.stores.filters import mention_filter
from graphs.stores.journal import JournalEntry
from graphs.text.gazetteer import Gazetteer
from graphs.text.normalize import file_subject, normalize


class EntityWriter:
    """Writes entities and keeps the indexed chunks' tags in step (a part of ``Ingestor``)."""

    index: IndexedChunks
    entities: EntityStore
    kg: KnowledgeGraph | None
    _write_lock: threading.Lock
    _inflight: set[str]
    _inflight_lock: threading.Lock
    _recovered: bool
    swaps: DocumentSwaps

    if TYPE_CHECKING:  # the journal protocol (``Recovery``), composed in ``Ingestor``
        def _recover_locked(self, *, only_once: bool) -> list[str]: ...
        def _begin(self, entries: list[JournalEntry]) -> str: ...
        def _settle(self, batch: str) -> None: ...
        def _fail(self, batch: str, *, docs: Sequence[str] = (), names: Sequence[str] = ()) -> None: ...
        # the tagger (``Chunker``), composed in ``Ingestor``
        def normalize_entities(self, raw: Mapping[EntityType, list[str]]) -> dict[EntityType, list[str]]: ...
        def _extracted(self, text: str, gazetteer: Gazetteer, document: str = "") -> dict[EntityType, list[str]]: ...

    def upsert_entity(self, entity: EntityMetadata) -> EntityMetadata:
        """Add or merge an entity in the entity store, then mirror the merged entity into the graph."""
        batch = self._begin([("entity", entity.standard_name)])
        try:
            saved = self.entities.upsert(entity)
            self._mirror(saved)
        except Exception:
            self._fail(batch, names=[entity.standard_name])
            raise
        self._settle(batch)
        return saved

    def remove_aliases(self, standard_name: str, aliases: Sequence[str]) -> EntityMetadata | None:
        """Remove aliases from an entity in the store (its graph node stays); None if there is no such entity."""
        batch = self._begin([("entity", standard_name)])
        try:
            saved = self.entities.remove_aliases(standard_name, aliases)
            if saved is not None:
                self._mirror(saved)
        except Exception:
            self._fail(batch, names=[standard_name])
            raise
        self._settle(batch)
        return saved

    def delete_entity(self, standard_name: str) -> tuple[EntityMetadata, int] | None:
        """Delete an entity: the indexed chunks lose its tag first (while the store still holds it, so an
        interrupted delete is re-tagged by recovery and nothing is half-deleted), then the store forgets it and
        the graph drops the edges its tags and the store gave it. The entity as it was and the chunks untagged;
        None if there is no such entity."""
        entity = self.entities.get(standard_name)
        if entity is None:
            return None
        with self._write_lock:
            self._recover_locked(only_once=True)
            batch = self._begin([("entity", entity.standard_name)])
            try:
                untagged = self._untag_locked(entity)
                self.entities.delete(entity.standard_name)
                if self.kg is not None:
                    self.kg.delete_entity(entity.standard_name)
            except Exception:
                self._fail(batch, names=[entity.standard_name])
                raise
            self._settle(batch)
        return entity, untagged

    def _untag_locked(self, entity: EntityMetadata) -> int:
        """Remove ``entity``'s tag (its standard name or an alias as a tag value) from every indexed chunk, and
        give back the automatic tags its names had covered (``retagged`` dropped them); the number of chunks
        changed. Documents are rewritten with their stored vectors."""
        expr = mention_filter(_spellings([entity.standard_name, *entity.aliases]))
        if expr is None:
            return 0
        names = {normalize(n) for n in (entity.standard_name, *entity.aliases)}
        keys = [k for f in (entity.standard_name, *entity.aliases) if (k := name_key(f)) is not None]
        changed: dict[str, dict[str, Chunk]] = {}
        restore = _Restorer(self, entity, keys)
        for chunk in self.index.chunks_where(expr):
            tags = {t: [v for v in values if not (t == entity.type and normalize(v) in names)]
                    for t, values in chunk.entities.items()}
            for t, values in restore.tags(chunk).items():
                mine = tags.setdefault(t, [])
                mine.extend(v for v in values if v not in mine)
            tags = {t: v for t, v in tags.items() if v}
            if tags != {t: v for t, v in chunk.entities.items() if v}:
                changed.setdefault(chunk.doc_id, {})[chunk.id] = chunk.model_copy(update={"entities": tags})
        self._follow_mentions(self._rewrite(changed), entity)
        return sum(len(c) for c in changed.values())

    def _rewrite(self, changed: dict[str, dict[str, Chunk]]) -> dict[str, tuple[set[str], set[str]]]:
        """Rewrite the documents of ``changed`` (doc id -> chunk id -> its new chunk) with their stored vectors,
        a batch at a time, each document held from readers while its chunks are replaced. Per document, the names
        its chunks were tagged with before and after (what its ``mentions`` edges follow)."""
        doc_ids = sorted(changed)
        names: dict[str, tuple[set[str], set[str]]] = {}
        for start in range(0, len(doc_ids), self.RETAG_BATCH):
            batch: list[DocumentChunks] = []
            for doc_id in doc_ids[start : start + self.RETAG_BATCH]:
                vectors = self.index.chunk_vectors(doc_id)
                old = self.index.document_chunks(doc_id)
                chunks = [changed[doc_id].get(c.id, c) for c in old]
                batch.append((doc_id, chunks, [vectors[c.id] for c in chunks]))
                names[doc_id] = (_tag_names(old), _tag_names(chunks))
            with self.swaps.writing(doc_ids[start : start + self.RETAG_BATCH]):
                self.index.replace_documents(batch)
        return names

    def _follow_mentions(self, names: dict[str, tuple[set[str], set[str]]], entity: EntityMetadata) -> None:
        """The graph's ``mentions`` edges of the other names a re-tag dropped or gave back (a tag covered by the
        entity's name, ``retagged``; given back when it is deleted), as an ingest would have drawn them; the
        entity's own edges are its writer's."""
        if self.kg is None:
            return
        own = {normalize(n) for n in (entity.standard_name, *entity.aliases)}
        edges: dict[str, tuple[list[str], list[str]]] = {}
        for doc_id, (before, after) in names.items():
            for name in after - before:
                edges.setdefault(name, ([], []))[0].append(doc_id)
            for name in before - after:
                edges.setdefault(name, ([], []))[1].append(doc_id)
        for name, (add, remove) in edges.items():
            if normalize(name) not in own:
                self.kg.set_mentions(name, add=add, remove=remove)

    RETAG_BATCH = 32
    """Documents rewritten per write when re-tagging."""

    def retag(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int:
        """Bring the indexed chunks in step with an entity added or changed after they were ingested.

        Chunks whose title, section or text names the entity (its standard name or an alias, at word
        boundaries) get its tag and its hierarchy; a value tagged under one of its names (a metadata value
        written before it was known to be an alias) becomes its standard name; a chunk that named it only by a
        ``removed`` alias loses the tag. The documents' ``mentions`` edges in the knowledge graph follow.
        Each changed document is rewritten with its stored vectors (nothing is embedded again), all or nothing
        per batch. Returns the number of chunks re-tagged.
        """
        with self._write_lock:
            self._recover_locked(only_once=True)
            # journaled like a write: a re-tag the index could not finish is redone by the next recovery
            batch = self._begin([("entity", entity.standard_name)])
            try:
                retagged = self._retag_locked(entity, removed)
            except Exception:
                with self._inflight_lock:
                    self._inflight.discard(batch)
                self._recovered = False  # the next write (or start) re-tags it first
                raise
            self._settle(batch)
            return retagged

    def _retag_locked(self, entity: EntityMetadata, removed: Sequence[str] = ()) -> int:
        """``retag`` with the write lock held."""
        forms = [entity.standard_name, *entity.aliases]
        expr = mention_filter(_spellings([*forms, *removed]))
        if expr is None:
            return 0
        keys = [k for f in forms if (k := name_key(f)) is not None]
        gone = [k for f in removed if (k := name_key(f)) is not None]
        changed: dict[str, dict[str, Chunk]] = {}
        named: set[str] = set()
        unnamed: set[str] = set()
        for chunk in self.index.chunks_where(expr):
            new, tagged = retagged(chunk, entity, keys, gone)
            (named if tagged else unnamed).add(chunk.doc_id)
            if new is not None:
                changed.setdefault(chunk.doc_id, {})[chunk.id] = new
        self._follow_mentions(self._rewrite(changed), entity)
        if self.kg is not None:
            self.kg.set_mentions(entity.standard_name, add=sorted(named), remove=sorted(unnamed - named))
        return sum(len(c) for c in changed.values())

    def _mirror(self, saved: EntityMetadata) -> None:
        if self.kg is not None:
            ancestors = saved.ancestors
            self.kg.upsert_entity(
                saved.standard_name, related=saved.related_entities, parent=ancestors[-1] if ancestors else None
            )



def _spellings(forms: Iterable[str]) -> list[str]:
    """The ways a name is likely written in stored text (Milvus matches case-sensitively): as given, lower
    case, capitalised."""
    out: dict[str, None] = {}
    for form in forms:
        form = form.strip()
        if form:
            out.update(dict.fromkeys([form, form.lower(), form[:1].upper() + form[1:]]))
    return list(out)


def _tag_names(chunks: Iterable[Chunk]) -> set[str]:
    """The names chunks are tagged with (dates are no graph node)."""
    return {v for c in chunks for t, values in c.entities.items() if t != "DATE" for v in values}


def _named_text(chunk: Chunk) -> str:
    """The canonical text in which a chunk names things: its title, section, file name and text."""
    return canonical(" ".join(p for p in (chunk.title, chunk.section or "", file_subject(chunk.source, chunk.doc_id),
                                          chunk.text) if p))


def retagged(chunk: Chunk, entity: EntityMetadata, keys: Sequence[str], gone: Sequence[str]) -> tuple[Chunk | None, bool]:
    """The chunk with its tags brought in step with ``entity`` (None when they already are), and whether it
    carries the entity's tag (``keys``: its names' lookup keys; ``gone``: those of removed aliases). A tag the
    text only ever writes inside one of the entity's names (the tagger's "青川" LOCATION of "青川镇", its
    "欧阳明" PERSON of "欧阳明华") gives way to it, as the longest name wins when a document is tagged."""
    # the name of the chunk's file names it too ("鸿源银行_贷款批贷通知书.docx": every passage of the letter is the
    # bank's, where only its letterhead writes the name)
    text = _named_text(chunk)
    folded = {normalize(f) for f in (entity.standard_name, *entity.aliases)}
    tags = {t: [v for v in values if normalize(v) not in folded] for t, values in chunk.entities.items()}
    # a value written under an alias (not the standard name the tag would carry): what the text may not say
    own = normalize(entity.standard_name)
    by_value = any(normalize(v) in folded - {own} for values in chunk.entities.values() for v in values)
    names_it = any(contains_key(text, k) for k in keys)
    if names_it:
        tags = uncovered(tags, text, keys, keep=entity.ancestors)
    mine = tags.setdefault(entity.type, [])
    if names_it or by_value:
        mine.extend(n for n in [*entity.ancestors, entity.standard_name] if n not in mine)
    elif not any(contains_key(text, g) for g in gone):
        tags = {t: list(v) for t, v in chunk.entities.items()}  # named neither way: leave it as it was
    tags = {t: v for t, v in tags.items() if v}
    carries = entity.standard_name in tags.get(entity.type, [])
    if tags == {t: v for t, v in chunk.entities.items() if v}:
        return None, carries
    return chunk.model_copy(update={"entities": tags}), carries


def uncovered(tags: dict[EntityType, list[str]], text: str, keys: Sequence[str],
              keep: Sequence[str] = ()) -> dict[EntityType, list[str]]:
    """``tags`` without the values that ``text`` (canonical) only writes inside a name of ``keys`` (its lookup
    keys); ``keep``: values never dropped (the entity's own hierarchy)."""
    spans = [span for k in keys for span in key_spans(text, k)]
    kept = {normalize(v) for v in keep}
    return {t: [v for v in values if normalize(v) in kept or not covered_by(text, v, spans)]
            for t, values in tags.items()}


class _Restorer:
    """The automatic tags that ``entity``'s names covered in a chunk, as the tagger finds them without it: what
    deleting it gives back (the dictionary without it is built once, on the first chunk that names it)."""

    def __init__(self, writer: EntityWriter, entity: EntityMetadata, keys: Sequence[str]) -> None:
        self.writer, self.entity, self.keys = writer, entity, keys
        self._gazetteer: Gazetteer | None = None
        self._documents: dict[str, str] = {}

    def tags(self, chunk: Chunk) -> dict[EntityType, list[str]]:
        text = _named_text(chunk)
        spans = [span for k in self.keys for span in key_spans(text, k)]
        if not spans:
            return {}
        if self._gazetteer is None:
            self._gazetteer = Gazetteer((form, e) for form, e in self.writer.entities.surface_forms()
                                        if e.standard_name != self.entity.standard_name)
        if chunk.doc_id not in self._documents:  # a guessed name's repetition is counted over its document
            self._documents[chunk.doc_id] = "\n".join(
                c.text for c in self.writer.index.document_chunks(chunk.doc_id))
        head = " ".join(p for p in (chunk.title, chunk.section) if p)
        found = self.writer.normalize_entities(
            self.writer._extracted(f"{head}\n{chunk.text}", self._gazetteer, self._documents[chunk.doc_id]))
        own = {normalize(n) for n in (self.entity.standard_name, *self.entity.aliases)}
        return {t: kept for t, values in found.items()
                if (kept := [v for v in values if normalize(v) not in own and covered_by(text, v, spans)])}
