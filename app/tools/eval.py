"""``aer eval``: retrieval (Recall@k, MRR) and answer (EM/F1) quality of a dataset, per search mode."""

from __future__ import annotations

import asyncio
import enum
import hashlib
import json
import random
import re
import shutil
import string
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import typer
from pydantic import BaseModel, ValidationError, model_validator

from app.container import Resources, build_resources
from app.observability.trajectories import TrajectoryLog
from app.settings import Settings
from app.tools.bench.vectors import CachedEmbeddings, VectorCache, cache_name
from app.tools.stats import mean, percentile
from graphs.domain import Document
from graphs.embeddings import E5Embeddings, EmbedderUnavailable, USEEmbeddings, fingerprint_of
from graphs.stores.base import FusionMethod, StoreError
from graphs.stores.fusion import RRF_DENSE_WEIGHT, RRF_K, WEIGHTED_DENSE_WEIGHT
from graphs.vectors import EmbedderMismatch

MODES: tuple[str, ...] = ("bm25", "dense", "hybrid", "hybrid-weighted", "graph", "planner", "full")
# Chunks asked of the index per question; deduplicated to documents, of which the top 10 are scored.
CHUNK_LIMIT = 30
RANK_DEPTH = 10
FULL_TOP_K = 5
# Bump when the way an eval index is built changes in a way the fingerprint cannot see.
INDEX_FORMAT = 2  # 2: the knowledge graph is built at ingest
MANIFEST = "manifest.json"
NO_LLM_NOTE = "no LLM configured"

Log = Callable[[str], None]


class EvalQuestion(BaseModel):
    """One ``questions.jsonl`` line."""

    id: str
    question: str
    answers: list[str] = []
    gold_ids: list[str] = []
    type: str = ""

    @model_validator(mode="before")
    @classmethod
    def _files_are_gold_ids(cls, data: Any) -> Any:
        """A user's own questions name the files that answer (``files``: paths under the folder, which are
        the documents' ids) and a ``category``: read as ``gold_ids`` and ``type``."""
        if isinstance(data, dict) and "gold_ids" not in data and "files" in data:
            data = {**data, "gold_ids": data["files"]}
        if isinstance(data, dict) and not data.get("type") and data.get("category"):
            data = {**data, "type": data["category"]}
        return data


# -- metrics ---------------------------------------------------------------------------------


def doc_ranking(doc_ids: Iterable[str]) -> list[str]:
    """Deduplicate document ids of chunk hits, keeping the first (best) occurrence."""
    return list(dict.fromkeys(doc_ids))


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Share of the gold documents found in the top ``k`` (0 when there is no gold)."""
    wanted = set(gold)
    return len(wanted & set(ranked[:k])) / len(wanted) if wanted else 0.0


def hit_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    """1.0 when any gold document is in the top ``k`` (RGB's measure: one positive passage holds the answer)."""
    return float(bool(set(gold) & set(ranked[:k])))


def reciprocal_rank(ranked: Sequence[str], gold: Iterable[str], depth: int = RANK_DEPTH) -> float:
    """1/rank of the first gold document within ``depth``, else 0."""
    wanted = set(gold)
    return next((1.0 / n for n, doc in enumerate(ranked[:depth], start=1) if doc in wanted), 0.0)


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_CITATION = re.compile(r"\[\d{1,3}\]")
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(f"[{_HAN}]|[^\\s{_HAN}]+")


def normalize_answer(text: str) -> str:
    """SQuAD normalization (case, punctuation, articles, whitespace), plus width folding for Chinese."""
    text = unicodedata.normalize("NFKC", text).lower()
    text = "".join(
        " " if ch in string.punctuation or unicodedata.category(ch).startswith("P") else ch for ch in text
    )
    return " ".join(_ARTICLES.sub(" ", text).split())


_ZH_NUMERAL = re.compile("[零〇一二两三四五六七八九十百千]+")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_LETTERS_DIGITS = re.compile(r"\d+(?:\.\d+)?|\D+")


def _zh_number(numeral: str) -> str:
    """A Chinese numeral as digits (十六 → 16, 一百二十 → 120, 二〇二二 → 2022); unchanged when it is not one."""
    if all(ch in _ZH_DIGITS for ch in numeral):
        return "".join(str(_ZH_DIGITS[ch]) for ch in numeral)
    total, digit, last = 0, None, 10_000
    for ch in numeral:
        if ch in _ZH_DIGITS:
            if digit is not None:
                return numeral
            digit = _ZH_DIGITS[ch]
        elif (unit := _ZH_UNITS[ch]) < last:
            total += (1 if digit is None else digit) * unit
            digit, last = None, unit
        else:
            return numeral
    return str(total + (digit or 0))


def answer_tokens(text: str) -> list[str]:
    """Normalized tokens: words for Latin script, single characters for Chinese; a number is one token however
    it is written (a Chinese numeral as digits: 十六 = 16) and wherever it stands (3% in "GDP3%" is 3, not a
    word "gdp3"), the same on both sides of a comparison."""
    folded = _ZH_NUMERAL.sub(lambda m: _zh_number(m[0]), normalize_answer(text))
    return [part for token in _TOKEN.findall(folded)
            for part in (_LETTERS_DIGITS.findall(token) if any(c.isdigit() for c in token) else [token])]


def exact_match(prediction: str, answers: Iterable[str]) -> float:
    """1.0 when the prediction equals any gold answer after normalization."""
    tokens = answer_tokens(prediction)
    return max((float(tokens == answer_tokens(a)) for a in answers), default=0.0)


def _f1(pred: list[str], gold: list[str]) -> float:
    if not pred or not gold:
        return float(pred == gold)
    common = sum((Counter(pred) & Counter(gold)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(gold)
    return 2 * precision * recall / (precision + recall)


def f1_score(prediction: str, answers: Iterable[str]) -> float:
    """Best token F1 against the gold answers (character-level for Chinese)."""
    tokens = answer_tokens(prediction)
    return max((_f1(tokens, answer_tokens(a)) for a in answers), default=0.0)


def clean_prediction(answer: str) -> str:
    """Drop citation markers like ``[1]`` from a generated answer."""
    return " ".join(_CITATION.sub(" ", answer).split())


def contains_answer(answer: str, answers: Iterable[str]) -> float:
    """1.0 when a gold answer, normalized, occurs in the normalized answer (as whole words for Latin script)."""
    text = f" {' '.join(answer_tokens(clean_prediction(answer)))} "
    return max((float(f" {' '.join(tokens)} " in text) for a in answers if (tokens := answer_tokens(a))),
               default=0.0)


_SEPARATOR = re.compile(r"(?<=\d)[,，](?=\d{3})|\s+")
_GOLD_DATE_ZH = re.compile(r"^(?:(?P<y>\d{4})年)?(?:(?P<m>\d{1,2})月)?(?P<d>\d{1,2})[日号]$")
_GOLD_DATE_EN = re.compile(r"^(?P<md>[a-z]+\.? \d{1,2}|\d{1,2} [a-z]+),? \d{4}$")
_GOLD_NUMBER = re.compile(r"^(?P<pre>[^\d]*?)(?P<n>\d+(?:\.\d+)?)(?P<unit>.*)$")


def compact(text: str) -> str:
    """A text folded for finding an answer in it: NFKC (full/half width), case, no spaces, no thousands
    separators (2,521,525 → 2521525)."""
    return _SEPARATOR.sub("", unicodedata.normalize("NFKC", text).casefold())


def answer_forms(answer: str) -> list[re.Pattern[str]]:
    """How a passage may state a gold answer, as patterns over ``compact`` text: the answer itself (a number not
    inside a longer number: 3% in "GDP3%", not in 13%); a date's shorter forms (3月23日 as 23日 after no digit
    and no other month; "March 23, 2023" as "March 23"); a number with its unit as the number followed by that
    unit's first character or by a magnitude (119人 as 119名 is not claimed: the number and a unit character)."""
    gold = compact(answer).rstrip("。.!！")
    if not gold:
        return []
    forms = [re.compile(("(?<![\\d.])" if gold[0].isdigit() else "") + re.escape(gold)
                        + ("(?![\\d])" if gold[-1].isdigit() else ""))]
    if m := _GOLD_DATE_ZH.match(gold):
        if m["m"]:
            forms.append(re.compile(f"(?<![\\d]){int(m['m'])}月0?{int(m['d'])}[日号]"))
            forms.append(re.compile(f"(?<![\\d月]){int(m['d'])}[日号]"))
    elif m := _GOLD_DATE_EN.match(unicodedata.normalize("NFKC", answer).casefold().strip()):
        forms.append(re.compile(re.escape(compact(m["md"])) + "(?!\\d)"))
    elif (m := _GOLD_NUMBER.match(gold)) and not m["pre"]:
        unit = m["unit"]
        follow = f"(?:{re.escape(unit[0])}|[万亿千百])" if unit else "(?![\\d.])"
        forms.append(re.compile(f"(?<![\\d.]){re.escape(m['n'])}{follow}"))
    return forms


def states_answer(text: str, answers: Iterable[str]) -> bool:
    """Whether a passage states a gold answer under a normalised match (``answer_forms``): the unanswerable
    protocol removes such a passage too, or the question stays answerable."""
    folded = compact(text)
    return any(p.search(folded) for a in answers for p in answer_forms(a))


# -- dataset and index -------------------------------------------------------------------------


def _read_jsonl(path: Path, model: type[BaseModel]) -> list[Any]:
    if not path.is_file():
        raise typer.BadParameter(f"{path} not found")
    items = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                items.append(model.model_validate_json(line))
            except ValidationError as exc:
                raise typer.BadParameter(f"{path}:{n}: {exc.errors()[0]['msg']}") from exc
    return items


def load_questions(dataset_dir: Path) -> list[EvalQuestion]:
    """Read ``questions.jsonl``."""
    return _read_jsonl(dataset_dir / "questions.jsonl", EvalQuestion)


def load_corpus(dataset_dir: Path) -> list[Document]:
    """Read ``corpus.jsonl``."""
    return _read_jsonl(dataset_dir / "corpus.jsonl", Document)


# -- a folder of the user's own documents (instead of corpus.jsonl) ------------------------------------


def own_documents(dataset_dir: Path) -> list[tuple[str, Path]]:
    """``(id, path)`` of the documents of a dataset folder that has no ``corpus.jsonl``: the supported files
    under its ``files/`` (or ``documents/``) folder, else under the folder itself; the id is the path under that
    root, as ``aer ingest`` and the upload give it."""
    from app.tools.http_trial import document_files

    return [] if (dataset_dir / "corpus.jsonl").is_file() else document_files(dataset_dir)


def own_fingerprint(files: Sequence[tuple[str, Path]], params: dict[str, Any]) -> str:
    """Content hash of the documents (their ids and bytes) and the index parameters (12 hex digits)."""
    digest = hashlib.sha256()
    for doc_id, path in files:
        digest.update(doc_id.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    digest.update(json.dumps(params, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:12]


def load_own_documents(files: Sequence[tuple[str, Path]], log: Log = lambda _: None) -> list[Document]:
    """The documents of the files, parsed and chunked by the loaders the upload uses; a file that cannot be
    read is named and left out (as the upload does)."""
    from graphs.ingest.loaders import FileSpec, load_files, read_regular

    loads = load_files([FileSpec(name=doc_id, data=read_regular(path), doc_id=doc_id) for doc_id, path in files])
    for load in loads:
        if load.error is not None:
            log(f"left out {load.name}: {load.error.code}: {load.error.message}")
    return [d for load in loads for d in load.documents]


def embedder_name(settings: Settings) -> str:
    """The name ``build_embedder`` will give the configured embedder."""
    if settings.embedding_provider in ("auto", "e5"):  # an eval index is new: auto gives e5 where it loads
        return E5Embeddings.name if E5Embeddings.available() is None else USEEmbeddings.name
    return USEEmbeddings.name if settings.embedding_provider == "use" else settings.embedding_model


def index_params(settings: Settings) -> dict[str, Any]:
    """Everything besides the corpus that decides what an eval index contains."""
    from graphs.ingest.pipeline import make_splitter
    from graphs.stores.milvus import index as milvus

    splitter = make_splitter()
    return {
        "embedder": embedder_name(settings),
        "chunk_size": getattr(splitter, "_chunk_size", None),
        "chunk_overlap": getattr(splitter, "_chunk_overlap", None),
        "analyzer": getattr(milvus, "DEFAULT_ANALYZER", None),
        # Milvus Lite keeps BM25 statistics per flushed segment, so the flush size changes BM25 scores.
        "lite_flush_rows": getattr(milvus, "LITE_FLUSH_ROWS", None),
        "format": INDEX_FORMAT,
    }


def fingerprint(corpus: Path, params: dict[str, Any]) -> str:
    """Content hash of the corpus file and the index parameters (12 hex digits)."""
    digest = hashlib.sha256()
    with corpus.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    digest.update(json.dumps(params, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:12]


def eval_data_dir(data_dir: Path, dataset: str, digest: str) -> Path:
    """Where the eval index of a dataset version lives (never the service's own files)."""
    return data_dir / "eval" / f"{dataset}-{digest}"


def read_manifest(folder: Path, digest: str) -> dict[str, Any] | None:
    """The manifest of a finished ingest with this fingerprint, else None."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) and manifest.get("fingerprint") == digest else None


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    """Mark the ingest as finished (written last, so a crash mid-ingest is never reused)."""
    tmp = folder / f"{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(folder / MANIFEST)


def eval_settings(settings: Settings, folder: Path) -> Settings:
    """The service settings pointed at the eval folder's own Milvus Lite and SQLite files."""
    return settings.model_copy(update={"data_dir": folder, "milvus_uri": None, "redis_url": None})


@dataclass
class PreparedIndex:
    resources: Resources
    folder: Path
    manifest: dict[str, Any]
    reused: bool


def prepare_index(
    dataset_dir: Path, settings: Settings, *, reingest: bool = False, log: Log = lambda _: None,
    opener: Callable[[Settings], Resources] = build_resources, exclude: frozenset[str] = frozenset(),
) -> PreparedIndex:
    """Open the eval index of a dataset (without the passages ``exclude`` names), ingesting the corpus unless
    a matching one exists."""
    corpus = dataset_dir / "corpus.jsonl"
    own = own_documents(dataset_dir)
    if not corpus.is_file() and not own:
        raise typer.BadParameter(f"{corpus} not found, and no documents (.md .txt .html .pdf .docx .csv .tsv) "
                                 f"under {dataset_dir}")
    params = index_params(settings) | ({"exclude": sorted(exclude)} if exclude else {})
    digest = fingerprint(corpus, params) if not own else own_fingerprint(own, params)
    folder = eval_data_dir(settings.data_dir, dataset_dir.resolve().name, digest)
    manifest = None if reingest else read_manifest(folder, digest)
    if manifest is not None:
        resources = opener(eval_settings(settings, folder))
        try:
            intact = resources.index.count() == manifest.get("chunks")
        except BaseException:
            resources.close()
            raise
        if intact:
            log(f"reused eval index {folder} ({manifest['documents']} documents, {manifest['chunks']} chunks)")
            return PreparedIndex(resources, folder, manifest, reused=True)
        resources.close()
        log(f"eval index {folder} does not match its manifest: ingesting again")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    docs = [d for d in (load_own_documents(own, log) if own else load_corpus(dataset_dir)) if d.id not in exclude]
    resources = opener(eval_settings(settings, folder))
    try:
        manifest = _ingest(resources, docs, digest, params, log, vector_cache_dir(settings))
    except BaseException:
        resources.close()
        raise
    write_manifest(folder, manifest)
    return PreparedIndex(resources, folder, manifest, reused=False)


def vector_cache_dir(settings: Settings) -> Path:
    """Where eval passage vectors are kept between runs (a changed chunk text simply misses)."""
    return settings.eval_vector_cache or settings.data_dir / "eval" / "vectors"


def _ingest(resources: Resources, docs: list[Document], digest: str, params: dict[str, Any], log: Log,
            cache_dir: Path | None = None) -> dict[str, Any]:
    from tqdm import tqdm

    started = time.perf_counter()
    ingestor = resources.ingestor
    inner = ingestor.embedder
    cached = None
    if cache_dir is not None:
        cached = CachedEmbeddings(inner, VectorCache(cache_dir, cache_name(inner), fingerprint_of(inner).dimension))
        ingestor.embedder = cached
    try:
        with tqdm(total=len(docs), unit="doc", desc="ingest", file=sys.stderr,
                  disable=not sys.stderr.isatty()) as bar:
            report = ingestor.ingest(docs, progress=bar.update)
    finally:
        ingestor.embedder = inner
        if cached is not None:
            cached.cache.save()
            log(f"passage vectors: {cached.hits} from the cache, {cached.misses} embedded ({cache_dir})")
    flush = getattr(resources.index, "flush", None)
    if callable(flush):
        flush()  # Milvus Lite scans unflushed rows one by one; not part of the VectorIndex protocol
    seconds = round(time.perf_counter() - started, 2)
    log(f"ingested {report.documents} documents as {report.chunks} chunks in {seconds:.1f} s")
    return {
        "fingerprint": digest, "params": params, "documents": report.documents, "chunks": report.chunks,
        "ingest_s": seconds, "created": _now(),
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- running the modes -------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one mode returned for one question."""

    docs: list[str]
    latency_ms: float
    llm_calls: int = 0
    answer: str | None = None
    route: str | None = None
    expansion_llm_calls: int | None = None
    """Graph route: LLM calls of the sufficiency judge and the evidence selector (parse and write excluded)."""
    hops: int | None = None
    relaxations: int = 0
    degraded: list[str] = field(default_factory=list)
    team: str | None = None
    """The master layer's team configuration."""
    span: str | None = None
    """The short answer (``answerSpan``)."""
    abstained: bool = False
    """The service said the documents do not answer the question (status ``no_results``)."""
    contradictions: list[str] = field(default_factory=list)
    """The facts the consistency check found the top passages disagree on (``fact: value | value``)."""
    answerability: float | None = None
    """The answerability score behind the decision."""
    features: dict[str, float] = field(default_factory=dict)
    """What the score read (``aer fit-answerability`` fits on them)."""
    reason: str | None = None
    """Why the answerability decision went as it did (a "not found" names the rule or score that refused)."""


Retriever = Callable[[str, str | None], Awaitable[Outcome]]
"""(question, question id) → what the mode retrieved; the id labels the run's logged trajectory."""


def retriever(mode: str, resources: Resources, graph_options: dict[str, Any] | None = None) -> Retriever:
    """The timed retrieval call of a mode (``graph_options``: fusion weights etc. of the graph route)."""
    from app.schemas import QueryRequest
    from app.services.query import answer

    ctx = resources.context
    index, embedder = ctx.index, ctx.embedder

    async def bm25(q: str, _: str | None = None) -> Outcome:
        t = time.perf_counter()
        hits = index.search_bm25(q, filter=None, limit=CHUNK_LIMIT)
        return Outcome(doc_ranking(h.doc_id for h in hits), _ms(t))

    async def dense(q: str, _: str | None = None) -> Outcome:
        t = time.perf_counter()
        hits = index.search_dense(embedder.embed_query(q), filter=None, limit=CHUNK_LIMIT)
        return Outcome(doc_ranking(h.doc_id for h in hits), _ms(t))

    def hybrid(fusion: FusionMethod) -> Retriever:
        async def run(q: str, _: str | None = None) -> Outcome:
            t = time.perf_counter()
            hits = index.search_hybrid(
                embedder.embed_query(q), q, filter=None, limit=CHUNK_LIMIT, fusion=fusion, question=q
            )
            return Outcome(doc_ranking(h.doc_id for h in hits), _ms(t))

        return run

    def through_graph(search_mode: Literal["graph", "auto"],
                      team: Literal["auto", "planner_enhanced"] = "auto") -> Retriever:
        async def run(q: str, question_id: str | None = None) -> Outcome:
            t = time.perf_counter()
            r = await answer(resources, QueryRequest(question=q, top_k=FULL_TOP_K, search_mode=search_mode, team=team,
                                                     **(graph_options or {})), question_id=question_id, mode=mode)
            decisions = r.routing_decision.decisions
            route = " > ".join(dict.fromkeys(d.action for d in decisions if d.action != "rerank")) or "rerank"
            details = r.retrieval_details
            expansion_calls = sum(x.judge == "llm" for x in details.expansion) + int(
                details.evidence is not None and details.evidence.selector == "llm"
            )
            return Outcome(
                doc_ranking(h.doc_id for h in details.top_results), _ms(t), llm_calls=r.llm.calls,
                answer=r.answer, route=route,
                relaxations=len(r.routing_decision.relaxed_constraints), degraded=list(r.degraded),
                expansion_llm_calls=expansion_calls if details.expansion else None,
                hops=sum(x.decision == "expand" for x in details.expansion) if details.expansion else None,
                team=r.master.team_configuration.name if r.master.team_configuration else None,
                span=r.answer_span, abstained=r.status == "no_results",
                contradictions=[f"{c.fact}: {' | '.join(cl.value for cl in c.claims)}" for c in r.contradictions],
                answerability=r.answerability.score if r.answerability is not None else None,
                features=dict(r.answerability.features) if r.answerability is not None else {},
                reason=r.answerability.reason if r.answerability is not None else None,
            )

        return run

    table: dict[str, Retriever] = {
        "bm25": bm25, "dense": dense, "hybrid": hybrid("rrf"), "hybrid-weighted": hybrid("weighted"),
        "graph": through_graph("graph"), "planner": through_graph("auto", "planner_enhanced"),
        "full": through_graph("auto"),
    }
    return table[mode]


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def score_question(q: EvalQuestion, out: Outcome, score_answers: bool) -> dict[str, Any]:
    """Per-question metrics of one mode."""
    row: dict[str, Any] = {
        "id": q.id, "type": q.type, "docs": out.docs[:RANK_DEPTH], "latency_ms": out.latency_ms,
        "llm_calls": out.llm_calls,
        "recall@2": recall_at_k(out.docs, q.gold_ids, 2), "recall@5": recall_at_k(out.docs, q.gold_ids, 5),
        "hit@5": hit_at_k(out.docs, q.gold_ids, 5), "mrr": reciprocal_rank(out.docs, q.gold_ids),
    }
    if out.route is not None:
        row |= {"route": out.route, "relaxations": out.relaxations, "degraded": out.degraded, "team": out.team,
                "contradictions": out.contradictions}
    if out.expansion_llm_calls is not None:
        row |= {"expansion_llm_calls": out.expansion_llm_calls, "hops": out.hops}
    if out.answer is not None and q.answers:
        # answers are judged without an LLM too: containment, the short answer's EM/F1, abstention
        row |= {"answer": out.answer, "span": out.span, "abstained": float(out.abstained),
                "answer_chars": len(clean_prediction(out.answer)),
                "contained": 0.0 if out.abstained else contains_answer(out.answer, q.answers),
                "span_em": exact_match(out.span, q.answers) if out.span else 0.0,
                "span_f1": f1_score(out.span, q.answers) if out.span else 0.0,
                "answerability": out.answerability, "features": out.features, "reason": out.reason}
        if score_answers:
            prediction = clean_prediction(out.answer)
            row |= {"em": exact_match(prediction, q.answers), "f1": f1_score(prediction, q.answers)}
    return row


def _avg(rows: Sequence[dict[str, Any]], key: str, digits: int = 4) -> float | None:
    value = mean([r[key] for r in rows if key in r])
    return None if value is None else round(value, digits)


def summarize_mode(rows: Sequence[dict[str, Any]], wall_s: float) -> dict[str, Any]:
    """Averages, latency percentiles and (for the graph) routes and relaxations of one mode."""
    latencies = [r["latency_ms"] for r in rows]
    summary: dict[str, Any] = {
        "questions": len(rows),
        "recall@2": _avg(rows, "recall@2"), "recall@5": _avg(rows, "recall@5"), "hit@5": _avg(rows, "hit@5"),
        "mrr@10": _avg(rows, "mrr"), "em": _avg(rows, "em"), "f1": _avg(rows, "f1"),
        "contained": _avg(rows, "contained"), "span_em": _avg(rows, "span_em"), "span_f1": _avg(rows, "span_f1"),
        "abstained": _avg(rows, "abstained"),
        "answer_chars": _round(percentile([r["answer_chars"] for r in rows if "answer_chars" in r], 50)),
        "latency_ms": {
            "p50": _round(percentile(latencies, 50)), "p95": _round(percentile(latencies, 95)),
            "mean": _round(mean(latencies)),
        },
        "llm_calls_per_question": _avg(rows, "llm_calls", 3),
        "wall_s": round(wall_s, 2),
        "by_type": {
            t: {"questions": len(sub), "recall@2": _avg(sub, "recall@2"), "recall@5": _avg(sub, "recall@5"),
                "mrr@10": _avg(sub, "mrr")}
            for t in sorted({r["type"] for r in rows}) if (sub := [r for r in rows if r["type"] == t])
        },
        "parts": split_parts(rows),
    }
    if any("route" in r for r in rows):
        summary["routes"] = dict(Counter(r["route"] for r in rows if r.get("route")).most_common())
        summary["relaxations"] = {str(k): v for k, v in sorted(Counter(r["relaxations"] for r in rows).items())}
        summary["degraded"] = dict(Counter(d for r in rows for d in r.get("degraded", [])))
        summary["contradictions"] = {"questions": sum(1 for r in rows if r.get("contradictions")),
                                     "facts": sum(len(r.get("contradictions", [])) for r in rows)}
        summary["fewer_than_5_docs"] = sum(1 for r in rows if len(r["docs"]) < FULL_TOP_K)
        summary["teams"] = {
            team: {"questions": len(sub), "llm_calls_per_question": _avg(sub, "llm_calls", 3),
                   "recall@5": _avg(sub, "recall@5")}
            for team in sorted({str(r.get("team")) for r in rows}) if (sub := [r for r in rows if str(r.get("team")) == team])
        }
        expanded = [r for r in rows if "hops" in r]
        summary["graph_route"] = {
            "questions": len(expanded),
            "hops": {str(k): v for k, v in sorted(Counter(r["hops"] for r in expanded).items())},
            # per question of the whole mode, so "fewer than 1 per question" reads directly
            "expansion_llm_calls_per_question": round(sum(r["expansion_llm_calls"] for r in expanded) / len(rows), 3),
        }
    return summary


def split_parts(rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Retrieval figures of the tuning part and the fixed held-aside 30 % (by the SHA-256 of the question id, as
    ``dense_recall`` and ``fit-fusion`` split): what was fitted on and what was not, reported apart."""
    from app.tools.dense_recall import held_aside

    out = {}
    for part, sub in (("tuning", [r for r in rows if not held_aside(r["id"])]),
                      ("held_aside", [r for r in rows if held_aside(r["id"])])):
        out[part] = {"questions": len(sub), "recall@2": _avg(sub, "recall@2"), "recall@5": _avg(sub, "recall@5"),
                     "hit@5": _avg(sub, "hit@5"), "mrr@10": _avg(sub, "mrr")}
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


async def run_modes(
    resources: Resources, questions: Sequence[EvalQuestion], modes: Sequence[str], score_answers: bool,
    graph_options: dict[str, Any] | None = None,
) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """Run every question through each mode, sequentially (Milvus Lite serializes calls anyway)."""
    from tqdm import tqdm

    summaries: dict[str, dict[str, Any]] = {}
    details: dict[str, list[dict[str, Any]]] = {}
    for mode in modes:
        call = retriever(mode, resources, graph_options)
        log, resources.trajectories = resources.trajectories, None  # the warm-up run is not logged
        await call(questions[0].question, None)  # warm-up: model load and first-query costs are not latency
        resources.trajectories = log
        rows = []
        started = time.perf_counter()
        for q in tqdm(questions, desc=mode, unit="q", file=sys.stderr, disable=not sys.stderr.isatty()):
            rows.append(score_question(q, await call(q.question, q.id), score_answers))
        summaries[mode] = summarize_mode(rows, time.perf_counter() - started)
        details[mode] = rows
    return summaries, details


def parse_modes(values: Iterable[str] | None) -> list[str]:
    """Modes from repeated and/or comma-separated options; all modes when none are given."""
    picked = [m.strip().lower() for v in values or () for m in v.split(",") if m.strip()]
    unknown = [m for m in picked if m not in MODES]
    if unknown:
        raise typer.BadParameter(f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}")
    return list(dict.fromkeys(picked)) or list(MODES)


@dataclass
class EvalResult:
    report: dict[str, Any]
    details: dict[str, list[dict[str, Any]]]


ANSWER_MODES = ("graph", "planner", "full")
"""The modes that answer (through the graph); the others only retrieve."""


def unanswerable_sample(questions: Sequence[EvalQuestion], k: int) -> list[EvalQuestion]:
    """``k`` of the questions, a seeded sample spread over the set (the same for the same set and ``k``)."""
    picked = random.Random(f"unanswerable:{k}").sample(range(len(questions)), min(k, len(questions)))
    return [questions[i] for i in sorted(picked)]


UnanswerableProtocol = Literal["answer-text", "gold-ids"]


class ProtocolChoice(enum.StrEnum):
    """``--unanswerable-protocol``'s values."""

    answer_text = "answer-text"
    gold_ids = "gold-ids"


def removed_passages(dataset_dir: Path, picked: Sequence[EvalQuestion],
                     protocol: UnanswerableProtocol = "answer-text") -> frozenset[str]:
    """The passages the unanswerable protocol removes: the picked questions' gold passages and (``answer-text``,
    the default) every other passage of the corpus that states one of their gold answers that is a value (with a
    digit: a date, a number) under the normalised match (``states_answer``);
    ``gold-ids`` removes the gold passages only (the protocol before: some questions stayed answerable)."""
    removed = {g for q in picked for g in q.gold_ids}
    corpus = dataset_dir / "corpus.jsonl"
    if protocol == "answer-text" and corpus.is_file():
        # values only (dates, numbers, quantities): a value a same-topic passage states is the answer written
        # otherwise (23日 for 3月23日), scored as a wrong answer when left; a name (北京) is in hundreds of
        # passages that do not answer, and one left that does answer shows as "still contained"
        wanted = [values for q in picked if (values := [a for a in q.answers if any(ch.isdigit() for ch in a)])]
        for doc in load_corpus(dataset_dir):
            if doc.id not in removed and any(states_answer(f"{doc.title} {doc.text}", a) for a in wanted):
                removed.add(doc.id)
    return frozenset(removed)


def run_unanswerable(
    dataset_dir: Path, settings: Settings, questions: Sequence[EvalQuestion], k: int, modes: Sequence[str], *,
    reingest: bool, log: Log, graph_options: dict[str, Any] | None, score_answers: bool,
    protocol: UnanswerableProtocol = "answer-text",
) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """Ask ``k`` questions of an index built without the passages that answer them (``removed_passages``): how
    often does each answering mode say the documents do not answer (abstained), still contain a gold answer, or
    answer wrongly with confidence?"""
    picked = unanswerable_sample(questions, k)
    removed = removed_passages(dataset_dir, picked, protocol)
    gold = {g for q in picked for g in q.gold_ids}
    modes = [m for m in modes if m in ANSWER_MODES] or ["full"]
    prepared = prepare_index(dataset_dir, settings, reingest=reingest, log=log, exclude=removed)
    try:
        summaries, details = asyncio.run(run_modes(prepared.resources, picked, modes, score_answers, graph_options))
    finally:
        prepared.resources.close()
    out: dict[str, Any] = {"questions": len(picked), "removed_passages": len(removed), "protocol": protocol,
                           "removed_gold_passages": len(gold & removed), "modes": {}}
    for mode, rows in details.items():
        n = len(rows) or 1
        abstained = sum(r.get("abstained", 0.0) for r in rows)
        contained = sum(r.get("contained", 0.0) for r in rows)
        out["modes"][mode] = {"abstained": round(abstained / n, 4), "contained": round(contained / n, 4),
                              "confident_wrong": round((n - abstained - contained) / n, 4),
                              "latency_ms": summaries[mode]["latency_ms"]}
    return out, {f"unanswerable:{m}": rows for m, rows in details.items()}


def calibration_of(details: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Per answering mode: ECE and the risk-coverage curve of its answerability scores (with ``--unanswerable``,
    over its answerable and gold-removed questions together)."""
    from app.tools.calibration import calibration

    out = {}
    for mode, rows in details.items():
        if mode in ANSWER_MODES and any(r.get("answerability") is not None for r in rows):
            out[mode] = calibration(rows, details.get(f"unanswerable:{mode}", []))
    return out


def run_eval(
    dataset_dir: Path, settings: Settings, modes: Sequence[str] = MODES, limit: int | None = None, *,
    reingest: bool = False, log: Log = lambda _: None, graph_options: dict[str, Any] | None = None,
    types: Sequence[str] = (), trajectories: Path | None = None, unanswerable: int = 0,
    protocol: UnanswerableProtocol = "answer-text",
) -> EvalResult:
    """Ingest (or reuse) the dataset's index, run the questions (of ``types``, when given) through each mode
    and build the report."""
    started = time.perf_counter()
    questions = load_questions(dataset_dir)
    if types:
        questions = [q for q in questions if q.type in types]
    total = len(questions)
    usable = [q for q in questions if q.gold_ids and q.question.strip()]
    skipped = {
        "no_gold_ids": sum(1 for q in questions if not q.gold_ids),
        "empty_question": sum(1 for q in questions if q.gold_ids and not q.question.strip()),
    }
    questions = usable[:limit]
    if not questions:
        raise typer.BadParameter(f"{dataset_dir}/questions.jsonl has no usable question (text and gold_ids)")
    prepared = prepare_index(dataset_dir, settings, reingest=reingest, log=log)
    if trajectories is not None:
        prepared.resources.trajectories = TrajectoryLog(trajectories)
    try:
        score_answers = settings.llm_enabled
        summaries, details = asyncio.run(run_modes(prepared.resources, questions, modes, score_answers,
                                                         graph_options))
        llm_name = prepared.resources.context.llm_name
    finally:
        prepared.resources.close()
    unanswered: dict[str, Any] | None = None
    if unanswerable:
        unanswered, more = run_unanswerable(dataset_dir, settings, questions, unanswerable, modes, reingest=reingest,
                                            log=log, graph_options=graph_options, score_answers=score_answers,
                                            protocol=protocol)
        details |= more
    notes = [] if score_answers else [f"EM/F1 not computed: {NO_LLM_NOTE} (the extractive answer is not a short span)"]
    if any(skipped.values()):
        notes.append(f"skipped questions: {', '.join(f'{v} {k}' for k, v in skipped.items() if v)}")
    if any(m != "full" for m in modes):
        notes.append("EM/F1 apply to the full graph only; the other modes retrieve without answering")
    m = prepared.manifest
    report = {
        "dataset": dataset_dir.resolve().name,
        "created": _now(),
        "config": {
            "modes": list(modes), "limit": limit, "types": list(types), "chunk_limit": CHUNK_LIMIT, "rank_depth": RANK_DEPTH,
            "full_top_k": FULL_TOP_K, "rrf": {"k": RRF_K, "dense_weight": RRF_DENSE_WEIGHT}, "hybrid_weighted_dense_weight": WEIGHTED_DENSE_WEIGHT,
            "llm": llm_name, "answers_scored": score_answers, "graph_options": graph_options or {}, **m["params"],
        },
        "corpus": {
            "documents": m["documents"], "chunks": m["chunks"], "fingerprint": m["fingerprint"],
            "index_dir": str(prepared.folder), "reused": prepared.reused, "ingest_s": None if prepared.reused else m["ingest_s"],
        },
        "questions": {"total": total, "evaluated": len(questions), "skipped": skipped},
        "modes": summaries,
        **({"unanswerable": unanswered} if unanswered is not None else {}),
        **({"calibration": calibrated} if (calibrated := calibration_of(details)) else {}),
        "notes": notes,
        "wall_s": round(time.perf_counter() - started, 2),
    }
    return EvalResult(report, details)


def _eval_failed(exc: Exception) -> typer.Exit:
    """Say why an eval stopped in the CLI's one format (``error: CODE: message``; under ``--json`` the API's error
    body): an index made by another embedder is refused (exit 2, the message names both and ``--reingest``); a
    store or the embedder that cannot be used now is an outage (exit 3). Before: ``error: message``, no code."""
    from app.console import refused, unavailable

    if isinstance(exc, EmbedderMismatch):
        return refused("embedder_mismatch", str(exc), hint="rebuild the eval index with --reingest")
    if isinstance(exc, EmbedderUnavailable):
        return unavailable("embedder_unavailable", str(exc))
    return unavailable("store_unavailable", str(exc),
                       hint="is another process using the eval index? Only one process may open a Milvus Lite file")


def eval_command(
    dataset_dir: Annotated[
        Path, typer.Argument(exists=True, file_okay=False, help="Folder with questions.jsonl and corpus.jsonl, or "
                             "with your own documents (in files/ if there is one; ids: their paths under it).")
    ],
    mode: Annotated[
        list[str] | None,
        typer.Option("--mode", "-m", help=f"Mode(s) to run, repeatable or comma-separated: {', '.join(MODES)}."),
    ] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    question_type: Annotated[
        list[str] | None, typer.Option("--type", help="Only questions of this type (e.g. comparison), repeatable.")
    ] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", file_okay=False, help="Folder for the JSON/Markdown/PNG report [default: AER_EVAL_RESULTS_DIR]."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the JSON report instead of the table.")] = False,
    trajectories: Annotated[Path | None, typer.Option(
        "--trajectories", dir_okay=False,
        help="Append each graph run's trajectory here (JSONL; the input of export-dpo with --gold questions.jsonl).",
    )] = None,
    reingest: Annotated[bool, typer.Option("--reingest", help="Rebuild the eval index even if one matches.")] = False,
    unanswerable: Annotated[int, typer.Option(
        "--unanswerable", min=0, metavar="K",
        help="Also ask K of the questions of an index without their gold passages (abstained / still contained / "
             "confident wrong).",
    )] = 0,
    protocol: Annotated[ProtocolChoice, typer.Option(
        "--unanswerable-protocol", case_sensitive=False,
        help="What --unanswerable removes: answer-text (the gold passages and every passage that states a gold "
             "answer, matched normalised: width, 23日 for 3月23日, 3% in GDP3%) or gold-ids (the gold passages only, "
             "the protocol before: some questions stay answerable).")] = ProtocolChoice.answer_text,
    vector_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: dense weight.")] = 0.5,
    fts_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: BM25 weight.")] = 0.2,
    graph_weight: Annotated[float, typer.Option(min=0.0, max=1.0, help="Graph route: graph weight.")] = 0.3,
    graph_decay: Annotated[float, typer.Option(min=0.01, max=1.0, help="Graph route: decay per hop.")] = 0.5,
    min_answerability: Annotated[float | None, typer.Option(
        "--min-answerability", min=0.0, max=1.0,
        help="Answer only from this answerability (the request option minAnswerability; default: the bundled "
             "threshold). 0 answers whatever the rules let through: the runs `aer fit-answerability` reads.")] = None,
    plot: Annotated[bool, typer.Option("--plot", help="Also write the risk-coverage curve as a PNG.")] = False,
) -> None:
    """Measure retrieval (Recall@2/5, MRR) and answer quality (EM/F1) of a dataset, per search mode."""
    from app.tools.eval_report import render_markdown, write_outputs

    modes = parse_modes(mode)
    weights: dict[str, Any] = {"vector_weight": vector_weight, "fts_weight": fts_weight,
                               "graph_weight": graph_weight, "graph_decay": graph_decay}
    if min_answerability is not None:
        weights["min_answerability"] = min_answerability
    settings = Settings()
    try:
        result = run_eval(
            dataset_dir, settings, modes, limit, reingest=reingest, log=lambda s: typer.echo(s, err=True),
            graph_options=weights, types=question_type or (), trajectories=trajectories, unanswerable=unanswerable,
            protocol=cast(UnanswerableProtocol, protocol.value),
        )
    except (StoreError, EmbedderUnavailable, EmbedderMismatch) as exc:
        raise _eval_failed(exc) from exc
    folder = out or settings.eval_results_dir
    for path in write_outputs(result.report, result.details, folder, log=lambda s: typer.echo(s, err=True)):
        typer.echo(f"wrote {path}", err=True)
    if plot:
        from app.tools.calibration import plot as plot_curve

        for mode, calibrated in result.report.get("calibration", {}).items():
            name = f"eval-{result.report['dataset']}-{mode}-risk-coverage.png"
            path = plot_curve(calibrated, folder / name, title=f"{result.report['dataset']} ({mode})")
            typer.echo(f"wrote {path}", err=True)
    if as_json:
        typer.echo(json.dumps(result.report, indent=2, ensure_ascii=False))
    else:
        typer.echo(render_markdown(result.report))
