"""The documents resource: add-documents, an upload's per-file options, delete-document, the inventory and one
document with its chunks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic.alias_generators import to_camel

from app.schemas.base import (
    DocumentId,
    NewDocumentId,
    Wire,
    WireRequest,
    WorkspaceRequest,
    check_strings,
)
from graphs.domain import (
    Chunk,
    DocumentRecord,
    check_document_fields,
)


class DocumentIn(WireRequest):
    id: NewDocumentId
    title: str = Field(default="", max_length=1000)
    text: str = Field(min_length=1, max_length=1_000_000)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _storable(self) -> DocumentIn:
        check_strings({"title": self.title, "text": self.text, "metadata": self.metadata})
        check_document_fields(None, self.text, self.metadata)
        return self


class AddDocumentsRequest(WorkspaceRequest):
    action: Literal["add-documents"]
    documents: list[DocumentIn] = Field(min_length=1, max_length=500)
    skip_unchanged: bool = Field(
        default=False, description="Leave alone a document whose content is the one already indexed.")
    background: bool | None = Field(
        default=None, description="true: run as an ingest job (202 with jobId); false: wait for the write; unset: "
                                  "a job when the documents hold more than AER_INGEST_SYNC_MAX_CHARS characters.")


class DocumentFileOptions(Wire):
    """Per-file fields of an upload (the ``metadata`` form field maps each file name to one of these)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")
    id: NewDocumentId | None = None
    title: str | None = Field(default=None, max_length=1000)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _storable(self) -> DocumentFileOptions:
        check_strings({"title": self.title or "", "metadata": self.metadata})
        check_document_fields(None, None, self.metadata)
        return self


class DeleteDocumentRequest(WorkspaceRequest):
    action: Literal["delete-document"]
    id: DocumentId


class AddDocumentsResponse(Wire):
    success: Literal[True] = True
    documents: int = Field(description="Documents written (an existing id is replaced).")
    chunks: int = Field(description="Chunks written.")
    ids: list[str] = Field(description="The ids of the documents written.")
    replaced: list[str] = Field(default_factory=list, description="Of those, the ids that replaced an earlier "
                                                                  "version (never silent).")
    reread: list[str] = Field(default_factory=list, description="Of those replaced, the ids whose content was "
                              "unchanged but that were read again because the ingest pipeline (parsers, chunker) "
                              "changed since they were indexed.")
    linked: list[str] = Field(default_factory=list, description="Names linked across scripts by this write (a "
                              "Chinese and a Latin name of one thing, now one entity), each with why.")
    link_error: str | None = Field(default=None, description="Why names could not be linked (the documents are "
                                   "written; the next ingest links them).")


class DeleteDocumentResponse(Wire):
    success: Literal[True] = True
    id: str
    deleted_chunks: int = Field(description="Chunks removed with the document.")


class DocumentListResponse(Wire):
    success: Literal[True] = True
    total: int = Field(description="Documents that match the filters.")
    offset: int
    limit: int
    documents: list[DocumentRecord]


class DocumentResponse(Wire):
    success: Literal[True] = True
    document: DocumentRecord
    chunks: list[Chunk] = Field(description="Its chunks in order, with their entity tags, date and location.")
