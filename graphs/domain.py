"""Domain types shared by the graph, the stores and the ingest pipeline.

Field names are snake_case in Python and camelCase on the wire (``model_dump(by_alias=True)``),
so the API contract (``standardName``, ``rerankedScore`` ...) is kept without un-Pythonic code.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from graphs.unicode_policy import JOINERS, text_problem, visible, visible_text

EntityType = Literal["PERSON", "ORGANIZATION", "PRODUCT", "EVENT", "LOCATION", "DATE", "CONCEPT", "OTHER"]
ENTITY_TYPES: tuple[EntityType, ...] = get_args(EntityType)
# Highest priority first: relaxation drops from the end of this tuple.
DEFAULT_PRIORITY: tuple[EntityType, ...] = ENTITY_TYPES

Intent = Literal["factual", "conceptual", "comparison", "procedural", "exploratory"]
Complexity = Literal["simple", "moderate", "complex"]
MatchKind = Literal["exact", "alias", "fuzzy", "pinyin", "date", "none"]
# Milvus string literals cannot carry most control characters (the filter builder refuses them), and a
# document id is looked up by a filter: ids with them are refused on the way in, on every path.
NO_CONTROL_CHARS = r"^[^\x00-\x1F\x7F]*$"
# Text may keep tabs and line breaks; the other C0 controls and DEL never come from real documents.
_CONTROL = re.compile(r"[\x00-\x08\x0B\x0C\x0E-\x1F\x7F]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
PathPart = str | int


def unsafe_string(value: str) -> str | None:
    """Why a string cannot be stored (a lone surrogate: no UTF-8 encoding; a control character), or None."""
    if m := _SURROGATE.search(value):
        return f"lone surrogate U+{ord(m.group()):04X} at position {m.start()} (not valid Unicode text)"
    if m := _CONTROL.search(value):
        return f"control character U+{ord(m.group()):04X} at position {m.start()}"
    return None


def find_unsafe(value: Any, path: tuple[PathPart, ...] = ()) -> tuple[tuple[PathPart, ...], str] | None:
    """The path and reason of the first string (a key or a value, at any depth) that cannot be stored."""
    if isinstance(value, str):
        reason = unsafe_string(value)
        return (path, reason) if reason else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and (reason := unsafe_string(key)):
                # the key itself goes in the path escaped: a lone surrogate cannot be written anywhere
                return (*path, key.encode("utf-8", "backslashreplace").decode()), f"key: {reason}"
            if found := find_unsafe(item, (*path, key if isinstance(key, str | int) else str(key))):
                return found
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            if found := find_unsafe(item, (*path, i)):
                return found
    return None


def format_path(path: tuple[PathPart, ...]) -> str:
    """``metadata.entities.PERSON[0]`` from its parts."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# Entity names, aliases, hierarchy levels and related entities: what may be written (API, CLI, imports),
# by the one policy of ``graphs.unicode_policy`` (document ids and file names follow it too).
STORED = {"stored": True}
"""Validation context of entities read back from a store: their names were checked when they were written
(or predate the check), so reading them never fails."""


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot name an entity (None when it can): a character the Unicode policy refuses
    (control, line-separator, bidirectional, invisible formatting or blank-looking, private-use, noncharacter
    or unassigned; ``graphs.unicode_policy``) anywhere, or no letter or digit at all (blank,
    invisible-only or punctuation-only values such as ``_`` would match everywhere)."""
    if (problem := text_problem(text, "name")) is not None:
        return problem
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        shown = any(visible(ch) and ch not in JOINERS for ch in text)
        return "must contain a letter or a digit" if shown else "has no visible character"
    return None


def id_problem(text: str) -> str | None:
    """Why ``text`` cannot be a document id (None when it can): the Unicode policy (no control, bidirectional,
    zero-width or other invisible, private-use, noncharacter or unassigned code point), and something visible."""
    if (problem := text_problem(text, "id")) is not None:
        return problem
    return None if visible_text(text) else "has no visible character"


def check_document_id(value: str) -> str:
    """A document id as written (API, uploads, corpora, folders): ``invalid_document_id`` when the Unicode
    policy refuses it."""
    if (problem := id_problem(value)) is not None:
        raise PydanticCustomError("invalid_document_id", "document id {id} {problem}",
                                  {"id": repr(value[:64]), "problem": problem})
    return value


def clean_name(value: str, info: ValidationInfo) -> str:
    """An entity name as it is stored: NFKC-normalized and trimmed; ``invalid_entity_name`` when it is
    unusable (see ``name_problem``). Values read back from a store (``STORED`` context) pass unchanged."""
    if info.context and info.context.get("stored"):
        return value
    folded = unicodedata.normalize("NFKC", value)
    if (problem := name_problem(folded)) is not None:  # before trimming: a trailing LF is refused, not cut
        raise PydanticCustomError("invalid_entity_name", "{name} {problem}",
                                  {"name": repr(value[:64]), "problem": problem})
    return folded.strip()


EntityNameText = Annotated[str, AfterValidator(clean_name)]
"""A name, alias, hierarchy level or related entity: NFKC, trimmed, no control, bidirectional or invisible
formatting characters, at least one letter or digit (422 ``invalid_entity_name`` otherwise)."""


class Model(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)


class EntityMetadata(Model):
    """An entity of the entity store."""

    standard_name: Annotated[str, Field(min_length=1, max_length=256), AfterValidator(clean_name)]
    type: EntityType
    aliases: list[EntityNameText] = Field(default_factory=list)
    hierarchy: list[EntityNameText] = Field(
        default_factory=list,
        description="Path from the root to this entity, e.g. ['中国', '北京', '朝阳'].",
    )
    related_entities: list[EntityNameText] = Field(default_factory=list)

    @property
    def ancestors(self) -> list[str]:
        """Names above this entity in its hierarchy, nearest last."""
        path = list(self.hierarchy)
        if path and path[-1] == self.standard_name:
            path = path[:-1]
        return [p for p in path if p != self.standard_name]


class NameWarning(Model):
    """A name accepted with a warning: it looks like another entity's name or alias (``confusable_name``)."""

    code: Literal["confusable_name"] = "confusable_name"
    value: str = Field(description="The new name or alias.")
    looks_like: str = Field(description="The existing name or alias it can be mistaken for.")
    owner: str = Field(description="The entity that has the existing one.")
    message: str


class EntityMatch(Model):
    """The result of looking a surface form up in the entity store."""

    entity: EntityMetadata
    match: MatchKind
    score: float = Field(ge=0.0, le=1.0)
    matched: str = Field(description="The surface form (name or alias) that matched.")


class DateRange(Model):
    """An inclusive range of dates as YYYYMMDD integers."""

    start: int
    end: int
    granularity: Literal["year", "month", "day"]
    label: str

    def widen(self) -> DateRange | None:
        """Return the enclosing year of a month or day range, None for a year."""
        if self.granularity == "year":
            return None
        year = self.start // 10000
        return DateRange(start=year * 10000 + 101, end=year * 10000 + 1231, granularity="year", label=str(year))


class QueryEntity(Model):
    text: str
    type: EntityType
    source: Literal["gazetteer", "pinyin", "pos", "date_rule", "llm", "title_case"] = "gazetteer"
    confidence: float = 1.0
    date_range: DateRange | None = None


class LogicalRelation(Model):
    operator: Literal["AND", "OR", "NOT"]
    entities: list[str]


class ParsedQuery(Model):
    original_query: str
    entities: list[QueryEntity] = Field(default_factory=list)
    logical_relations: list[LogicalRelation] = Field(default_factory=list)
    intent: Intent = "factual"
    complexity: Complexity = "simple"
    complexity_score: float = Field(default=0.0, ge=0.0, le=1.0)
    complexity_features: dict[str, float] = Field(default_factory=dict)
    """The static features behind the score (length, question words, entities, cues, nesting, bridge)."""
    confidence: float = 0.5
    keywords: list[str] = Field(default_factory=list)
    parser: Literal["llm", "rules"] = "rules"


class ValidatedEntity(Model):
    text: str
    type: EntityType
    standard_name: str | None = None
    match: MatchKind = "none"
    score: float = 0.0
    valid: bool = False
    hierarchy: list[str] = Field(default_factory=list)
    date_range: DateRange | None = None
    negated: bool = False


class Constraint(Model):
    """One filter on the vector search, derived from a validated entity."""

    type: EntityType
    value: str
    date_range: DateRange | None = None
    ancestors: list[str] = Field(default_factory=list, description="Wider values, nearest last.")
    negated: bool = False


class Relaxation(Model):
    type: EntityType
    value: str
    action: Literal["dropped", "widened"]
    new_value: str | None = None
    reason: str


RouteAction = Literal[
    "structured_search", "semantic_search", "hybrid_search", "graph_search", "relax_constraints", "rerank"
]


class RoutingDecision(Model):
    action: RouteAction
    reason: str


class Hit(Model):
    id: str
    doc_id: str
    title: str = ""
    text: str
    score: float
    channel: Literal["structured", "semantic", "hybrid", "bm25", "graph"]
    dense_score: float | None = None
    bm25_score: float | None = None
    graph_score: float | None = None
    hop: int | None = None
    """Graph route: edges from the nearest seed (0 for a seed)."""
    path: list[str] | None = None
    """Graph route: the nodes from a seed to this result."""
    reranked_score: float | None = None
    relevance_explanation: str | None = None
    date: int | None = None
    entities: dict[str, list[str]] = Field(default_factory=dict)
    source: str | None = None
    """The file the chunk came from (its path under the ingest root, or the uploaded name)."""
    section: str | None = None
    """The heading path of the chunk's section (``Setup > Install``), when the document has headings."""
    page: int | None = None
    """The 1-based page of a PDF chunk."""


class SearchRecord(Model):
    channel: Literal["structured", "semantic", "hybrid", "bm25", "graph"]
    filter: str | None
    count: int
    duration_ms: float


class FusionWeights(Model):
    """Cross-layer score fusion: ``combined = vector·v + fts·f + graph·g``; graph score 1.0 for a seed and
    ``decay^(hop+1)`` for a node ``hop`` edges away from the nearest seed."""

    vector: float = Field(default=0.5, ge=0.0, le=1.0)
    fts: float = Field(default=0.2, ge=0.0, le=1.0)
    graph: float = Field(default=0.3, ge=0.0, le=1.0)
    decay: float = Field(default=0.5, gt=0.0, le=1.0)

    def graph_score(self, hop: int) -> float:
        """1.0 for a seed (hop 0), else ``decay^(hop+1)``."""
        return 1.0 if hop == 0 else self.decay ** (hop + 1)

    def combine(self, vector: float, fts: float, graph: float) -> float:
        """The fused score of one node or chunk."""
        return self.vector * vector + self.fts * fts + self.graph * graph


class GraphNode(Model):
    """A knowledge-graph node reached by the graph route, with its fused score's components."""

    node: str
    name: str
    doc_id: str | None = None
    chunk_id: str | None = None
    text: str = ""
    """The best chunk's text (what the sufficiency judgment and the evidence selector read)."""
    hop: int = 0
    seed: bool = False
    via: str | None = None
    edge: str | None = None
    path: list[str] = Field(default_factory=list)
    vector: float = 0.0
    fts: float = 0.0
    graph: float = 0.0
    combined: float = 0.0


ExpansionDecision = Literal["sufficient", "expand", "stop"]


class ExpansionStep(Model):
    """One sufficiency judgment of the adaptive expansion."""

    depth: int
    decision: ExpansionDecision
    num_results: int
    reason: str
    judge: Literal["llm", "rules"] = "rules"
    frontier: list[str] = Field(default_factory=list)
    coverage: float | None = None


class SelectedNode(Model):
    node: str
    relevance: float = Field(ge=0.0, le=1.0)


class EvidenceSelection(Model):
    """The minimal set of graph nodes that answers the question, and why."""

    selected_nodes: list[SelectedNode] = Field(default_factory=list)
    reasoning_path: list[str] = Field(default_factory=list)
    excluded_nodes: list[str] = Field(default_factory=list)
    selector: Literal["llm", "heuristic"] = "heuristic"
    reasoning: str = ""


TeamName = Literal["writer_only", "executor_inclusive", "planner_enhanced"]
"""The master layer's team configurations: no retrieval, one retrieval path, or a plan of sub-questions."""


class TeamConfiguration(Model):
    """Which team the master layer put on a question, why, and its budgets."""

    name: TeamName
    reason: str
    max_turns: int = Field(ge=0, description="Most retrieval turns (searches, or plan rounds) the team may take.")
    time_budget_s: float = Field(gt=0, description="Wall-clock budget; past it the team answers with what it has.")
    complexity_score: float = 0.0


Strategy = Literal["structured", "semantic", "hybrid", "graph", "temporal"]
"""How a sub-question is retrieved; ``temporal`` is a hybrid search ordered by date."""


class SubQuestion(Model):
    """One node of the plan's DAG."""

    id: str
    question: str
    strategy: Strategy
    depends_on: list[str] = Field(default_factory=list)
    entity: str | None = None
    """The entity the sub-question is about: a document titled with it ranks first among its results."""
    reason: str = ""
    status: Literal["pending", "done", "failed", "aborted"] = "pending"
    attempts: int = 0


class QueryPlan(Model):
    """The planner's DAG of sub-questions."""

    sub_questions: list[SubQuestion]
    pattern: Literal["comparison", "bridge", "temporal", "single", "llm"]
    planner: Literal["llm", "rules"] = "rules"
    reason: str = ""


class StepOutcome(Model):
    """One execution of one sub-question (a plan step)."""

    sub_question: str
    question: str
    strategy: Strategy
    attempt: int
    turn: int
    status: Literal["ok", "empty", "error", "timeout"]
    hits: list[Hit] = Field(default_factory=list)
    finding: str = ""
    """The step's short answer, handed to the sub-questions that depend on it."""
    error: str | None = None
    duration_ms: float = 0.0
    route: list[str] = Field(default_factory=list)
    """The routing actions the step's retrieval took."""


SufficiencyLevel = Literal["fully_sufficient", "partially_sufficient", "contradictory", "insufficient", "max_turns"]
"""The ADR's sufficiency levels."""


class SufficiencyJudgment(Model):
    """The monitor's judgment after one turn, and what it does next."""

    turn: int
    level: SufficiencyLevel
    reason: str
    missing: list[str] = Field(default_factory=list)
    next: Literal["answer", "continue", "follow_up", "switch_strategy", "reflect"] = "answer"
    judge: Literal["llm", "rules"] = "rules"
    coverage: float | None = None


class Claim(Model):
    value: str
    hit_ids: list[str]


class Contradiction(Model):
    """Sources that disagree on one fact."""

    fact: str
    claims: list[Claim]


class Reflection(Model):
    """What the reflection step did about one failed step."""

    sub_question: str
    failure: str
    action: Literal["retry", "switch_strategy", "replan", "abort"]
    reason: str
    attempt: int
    turn: int = 0
    new_strategy: Strategy | None = None


class Answerability(Model):
    """Whether the retrieved passages support an answer to the question, checked before writing."""

    decision: Literal["answerable", "not_found"]
    score: float = Field(ge=0.0, le=1.0, description="How likely the passages answer the question: the calibrated "
                         "answerability (a probability fitted on the dev sets), or, where a rule decided, the "
                         "weighted share of the question the best evidence covers.")
    reason: str
    attribute: str | None = Field(default=None, description="The attribute the question asks about (the lexicon's "
                                  "name: stock code, mayor, death toll …), when the lexicon knows it.")
    threshold: float | None = Field(default=None, description="The minAnswerability the score was held to.")
    features: dict[str, float] = Field(default_factory=dict, description="What the score read of the best evidence.")


class Citation(Model):
    index: int
    id: str
    doc_id: str
    title: str
    source: str | None = None
    page: int | None = None
    section: str | None = None

    @classmethod
    def of(cls, index: int, hit: Hit) -> Citation:
        """The citation numbered ``index`` of a hit: its chunk, document and where in the file it is."""
        return cls(index=index, id=hit.id, doc_id=hit.doc_id, title=hit.title, source=hit.source, page=hit.page,
                   section=hit.section)

    @property
    def location(self) -> str:
        """``notes/a.pdf, p. 3`` / ``guide.md § Setup > Install``: where a reader finds it ('' when unknown)."""
        where = self.source or ""
        if self.page is not None:
            where = f"{where}, p. {self.page}" if where else f"p. {self.page}"
        if self.section:
            where = f"{where} § {self.section}" if where else f"§ {self.section}"
        return where


class WorkflowStep(Model):
    node: str
    started: str
    duration_ms: float
    summary: str


class DocumentSection(Model):
    """A part of a document that chunks never cross: a heading's text, or a PDF page."""

    text: str
    section: str | None = None
    """The heading path (``Setup > Install``); None before the first heading."""
    page: int | None = Field(default=None, ge=1)


ENTITY_TYPE_KEYS: dict[str, EntityType] = {t.lower(): t for t in ENTITY_TYPES} | {
    "persons": "PERSON", "people": "PERSON", "organizations": "ORGANIZATION", "orgs": "ORGANIZATION",
    "org": "ORGANIZATION", "products": "PRODUCT", "events": "EVENT", "locations": "LOCATION",
    "places": "LOCATION", "concepts": "CONCEPT",
}
"""Metadata keys that name an entity type (``person``, ``places``, ``ORG`` ...), case-insensitively."""
_ISO_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


def iso_date(value: Any) -> int | None:
    """``metadata.date`` as YYYYMMDD (a year or month: its first day): an ISO date string (``2024``,
    ``2024-03``, ``2024-03-05``, ``2024-03-05T10:00:00Z``) or a YYYYMMDD integer that is a real date; None
    for null or "". ``ValueError`` for anything else (``true``, ``-1``, ``{"a":1}``, ``9999-99-99``,
    ``0000-01-01``): a date is refused, never coerced."""
    import datetime as _dt

    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"must be an ISO date string or a YYYYMMDD integer, not {type(value).__name__}")
    if isinstance(value, int):
        year, month, day = value // 10000, value // 100 % 100, value % 100
        parts: tuple[int, int, int] = (year, month, day)
    elif len(value.strip()) > 10 and value.strip()[10:11] in ("T", " "):  # a date and time: the date counts
        try:
            when = _dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"{value[:40]!r} is not an ISO date and time") from None
        parts = (when.year, when.month, when.day)
    else:
        found = _ISO_DATE.fullmatch(value.strip())
        if found is None:
            raise ValueError(f"{value[:40]!r} is not an ISO date (YYYY, YYYY-MM or YYYY-MM-DD)")
        parts = (int(found.group(1)), int(found.group(2) or 1), int(found.group(3) or 1))
    try:
        real = _dt.date(*parts)
    except (ValueError, OverflowError):
        raise ValueError(f"{value!r} is not a real date") from None
    return real.year * 10000 + real.month * 100 + real.day


def _entity_values(value: Any) -> str | None:
    """Why a metadata entity value is unusable (it must be a string or a list of strings), or None."""
    if value is None or isinstance(value, str):
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return None
    return f"must be a string or a list of strings, not {type(value).__name__}"


def metadata_problem(metadata: dict[str, Any]) -> tuple[str, str, str] | None:
    """``(code, path, reason)`` of the first metadata field the service would have to coerce: a ``date`` that
    is no real ISO date (``invalid_metadata_date``), an entity type it does not know under ``entities``
    (``invalid_entity_type``), entity values that are not strings (``invalid_metadata``); None when clean."""
    try:
        iso_date(metadata.get("date"))
    except ValueError as exc:
        return "invalid_metadata_date", "metadata.date", str(exc)
    known = ", ".join(ENTITY_TYPES)
    for key, value in metadata.items():
        if str(key).lower() in ENTITY_TYPE_KEYS and str(key).lower() != "date" and (why := _entity_values(value)):
            return "invalid_metadata", f"metadata.{key}", why
    nested = metadata.get("entities")
    if isinstance(nested, dict):
        for key, value in nested.items():
            if str(key).lower() not in ENTITY_TYPE_KEYS:
                return "invalid_entity_type", f"metadata.entities.{key}", f"unknown entity type (one of {known})"
            if str(key).lower() != "date" and (why := _entity_values(value)):
                return "invalid_metadata", f"metadata.entities.{key}", why
    elif isinstance(nested, list):
        for i, item in enumerate(nested):
            if not isinstance(item, dict):
                return "invalid_metadata", f"metadata.entities[{i}]", "must be an object {type, text}"
            if str(item.get("type", "")).lower() not in ENTITY_TYPE_KEYS:
                return ("invalid_entity_type", f"metadata.entities[{i}].type",
                        f"unknown entity type {str(item.get('type'))[:40]!r} (one of {known})")
            if why := _entity_values(item.get("text") or item.get("name")):
                return "invalid_metadata", f"metadata.entities[{i}].text", why
    elif nested is not None:
        return "invalid_metadata", "metadata.entities", "must be an object of type -> names, or a list"
    return None


def check_document_fields(doc_id: str | None, text: str | None, metadata: dict[str, Any]) -> None:
    """What every written document must be, on every path (API, uploads, corpora, folders): an id the
    Unicode policy accepts, text with something visible in it (``empty_document``), metadata that needs no
    coercion. Raises ``PydanticCustomError`` with the code as its type."""
    if doc_id is not None:
        check_document_id(doc_id)
    if text is not None and not visible_text(text):
        raise PydanticCustomError("empty_document", "text has no visible character (only whitespace, "
                                  "zero-width characters or byte-order marks)")
    if found := metadata_problem(metadata):
        code, path, reason = found
        raise PydanticCustomError(code, "{path}: {reason}", {"path": path, "reason": reason})


class Document(Model):
    """A corpus document as ingested (``corpus.jsonl`` line, or a loaded file)."""

    id: str = Field(min_length=1, max_length=256, pattern=NO_CONTROL_CHARS)
    title: str = ""
    text: str = Field(min_length=1)
    metadata: dict[str, Any] = Field(default_factory=dict)
    source: str | None = None
    """The file it was loaded from (path under the ingest root, or the uploaded name); None for JSON documents."""
    sections: list[DocumentSection] = Field(default_factory=list)
    """Structure from the file (headings, pages): chunk boundaries and chunk metadata. Empty: ``text`` is one part."""

    @model_validator(mode="after")
    def _storable(self) -> Document:
        """Refuse strings no store can hold (lone surrogates, control characters) with their path."""
        fields = {"title": self.title, "text": self.text, "metadata": self.metadata, "source": self.source or ""}
        if found := find_unsafe(fields):
            raise ValueError(f"{format_path(found[0])}: {found[1]}")
        check_document_fields(self.id, self.text, self.metadata)
        return self


class DocumentRecord(Model):
    """One document of the inventory: what was ingested, from where, when and as how many chunks."""

    id: str
    title: str = ""
    source: str | None = None
    root: str | None = None
    """The folder (or upload) it was ingested from: a re-ingest of the folder with ``--prune`` removes the
    documents of that root whose file is gone."""
    chunks: int = 0
    bytes: int = 0
    content_hash: str | None = None
    """SHA-256 of the parsed document (title, text, structure, metadata); None for documents indexed before the
    inventory existed."""
    ingested_at: str | None = None
    """UTC ISO 8601."""


class Chunk(Model):
    """One indexed piece of a document, with its scalar filter fields."""

    id: str
    doc_id: str
    chunk_index: int
    title: str
    text: str
    date: int | None = None
    entities: dict[EntityType, list[str]] = Field(
        default_factory=dict, description="Standard names by type, ancestors included."
    )
    source: str | None = None
    section: str | None = None
    page: int | None = None
