"""``aer bench``: ingest throughput, per-route latency, HTTP QPS and memory on a synthetic bilingual corpus.

Every size gets a fresh data dir (Milvus Lite file + SQLite entity store) under ``--work-dir`` and runs:

1. entity load and ingest in this process (chunks/s with embedding, and the Milvus part alone);
2. a fixed set of generated questions through the real graph in this process, no LLM: latency p50/p95
   per route (structured, structured with relaxation, semantic, hybrid) and the time split per node,
   with the Milvus calls and the question embeddings separated from the orchestration;
3. ``aer serve`` as a subprocess on a free loopback port against that data dir, loaded by a bounded
   asyncio client at each concurrency level (QPS, latency, server RSS); the server is always stopped.

The corpus, entities and questions come from a seeded RNG: the same seed and size give the same data.
The bench measures the default offline stack (USE embedder, Milvus Lite, SQLite, fusion reranker, no LLM)
and ignores ``AER_*`` settings of the environment so that runs compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import math
import os
import platform
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

import httpx
import typer
from langchain_core.embeddings import Embeddings

from graphs.domain import Chunk, Document, EntityMetadata, EntityType, Hit
from graphs.rag.graph import NODES as GRAPH_NODES
from graphs.stores.base import DocumentChunks, FusionMethod, VectorIndex

Route = Literal["structured", "structured_relaxed", "semantic", "hybrid"]
ROUTES: tuple[Route, ...] = ("structured", "structured_relaxed", "semantic", "hybrid")
API_PATH = "/api/adaptive-entity-rag"
MARKER = ".aer-bench"  # only directories carrying it are ever deleted by the bench
CHUNK_CHARS_MAX = 780  # under the ingest splitter's 800: one document is exactly one chunk
CORPUS_YEARS = (2019, 2024)
ABSENT_YEAR = 2012  # no document is dated in it: a question naming it needs relaxation
NODES = tuple(module.__name__.rsplit(".", 1)[-1] for module in GRAPH_NODES)
"""Every node of the graph, in wiring order (the per-node table lists those that ran)."""


# ---------------------------------------------------------------------------- synthetic data

SURNAMES = (
    ("张", "Zhang"), ("王", "Wang"), ("李", "Li"), ("刘", "Liu"), ("陈", "Chen"), ("杨", "Yang"), ("黄", "Huang"),
    ("赵", "Zhao"), ("周", "Zhou"), ("吴", "Wu"), ("徐", "Xu"), ("孙", "Sun"), ("马", "Ma"), ("朱", "Zhu"),
    ("胡", "Hu"), ("郭", "Guo"), ("何", "He"), ("林", "Lin"), ("罗", "Luo"), ("高", "Gao"),
)  # fmt: skip
GIVEN = (
    ("思", "si"), ("远", "yuan"), ("明", "ming"), ("华", "hua"), ("晓", "xiao"), ("婷", "ting"), ("志", "zhi"),
    ("强", "qiang"), ("欣", "xin"), ("涵", "han"), ("俊", "jun"), ("杰", "jie"), ("怡", "yi"), ("浩", "hao"),
    ("宇", "yu"), ("诚", "cheng"), ("敏", "min"), ("磊", "lei"), ("静", "jing"), ("峰", "feng"),
)  # fmt: skip
WESTERN = (
    ("Alice", "爱丽丝"), ("Brian", "布莱恩"), ("Clara", "克拉拉"), ("David", "大卫"), ("Emma", "艾玛"),
    ("Frank", "弗兰克"), ("Grace", "格蕾丝"), ("Henry", "亨利"), ("Irene", "艾琳"), ("Jack", "杰克"),
)  # fmt: skip
WESTERN_LAST = (
    ("Walker", "沃克"), ("Turner", "特纳"), ("Parker", "帕克"), ("Morgan", "摩根"), ("Collins", "柯林斯"),
    ("Bennett", "贝内特"), ("Hughes", "休斯"), ("Foster", "福斯特"),
)  # fmt: skip
ORG_PREFIX = (
    ("星河", "Xinghe"), ("蓝海", "Lanhai"), ("云帆", "Yunfan"), ("华辰", "Huachen"), ("天工", "Tiangong"),
    ("鼎新", "Dingxin"), ("博远", "Boyuan"), ("启明", "Qiming"), ("青松", "Qingsong"), ("汇智", "Huizhi"),
    ("睿思", "Ruisi"), ("恒泰", "Hengtai"),
)  # fmt: skip
ORG_SUFFIX = (
    ("科技", "Technology"), ("集团", "Group"), ("银行", "Bank"), ("研究院", "Research Institute"), ("资本", "Capital"),
)  # fmt: skip
# country -> city -> districts, each as (Chinese, English).
PLACES: tuple[tuple[tuple[str, str], tuple[tuple[tuple[str, str], tuple[tuple[str, str], ...]], ...]], ...] = (
    (("中国", "China"), (
        (("北京", "Beijing"), (("朝阳", "Chaoyang"), ("海淀", "Haidian"), ("东城", "Dongcheng"))),
        (("上海", "Shanghai"), (("浦东", "Pudong"), ("徐汇", "Xuhui"), ("静安", "Jing'an"))),
        (("广州", "Guangzhou"), (("天河", "Tianhe"), ("越秀", "Yuexiu"))),
        (("深圳", "Shenzhen"), (("南山", "Nanshan"), ("福田", "Futian"))),
        (("杭州", "Hangzhou"), (("滨江", "Binjiang"), ("余杭", "Yuhang"))),
        (("成都", "Chengdu"), (("锦江", "Jinjiang"), ("武侯", "Wuhou"))),
    )),
    (("美国", "United States"), (
        (("纽约", "New York"), (("曼哈顿", "Manhattan"), ("布鲁克林", "Brooklyn"))),
        (("旧金山", "San Francisco"), ()),
    )),
    (("日本", "Japan"), ((("东京", "Tokyo"), (("涩谷", "Shibuya"),)),)),
)  # fmt: skip
TOPICS = (
    ("人工智能", "artificial intelligence"), ("新能源汽车", "electric vehicles"), ("芯片设计", "chip design"),
    ("量子计算", "quantum computing"), ("生物医药", "biomedicine"), ("云计算", "cloud computing"),
    ("储能电池", "battery storage"), ("自动驾驶", "autonomous driving"), ("数字货币", "digital currency"),
    ("卫星通信", "satellite communication"), ("智能制造", "smart manufacturing"), ("碳中和", "carbon neutrality"),
)  # fmt: skip
EVENTS = (
    ("发布会", "launch event"), ("行业论坛", "industry forum"), ("年度峰会", "annual summit"),
    ("合作签约仪式", "partnership signing"), ("技术研讨会", "technical workshop"),
)  # fmt: skip
ROLES = ("首席执行官", "首席科学家", "总裁", "研究员", "副总裁")
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
QUESTION_POOL = 200  # questions come from the first tagged documents: every size >= ~230 asks the same


@dataclass(frozen=True)
class BenchQuestion:
    """A generated question and the route its wording is meant to take."""

    text: str
    route: Route


@dataclass(frozen=True)
class SyntheticCorpus:
    """Entities, one-chunk documents and questions, all from one seed."""

    seed: int
    entities: list[EntityMetadata]
    documents: list[Document]
    questions: list[BenchQuestion]


def generate_entities(seed: int = 42) -> list[EntityMetadata]:
    """Persons, organizations and a location hierarchy with Chinese names and English aliases."""
    rng = random.Random(f"entities:{seed}")
    entities: list[EntityMetadata] = []
    surfaces: set[str] = set()

    def add(entity: EntityMetadata) -> None:
        forms = {entity.standard_name, *entity.aliases}
        if not forms & surfaces:  # aliases are unique in the entity store
            surfaces.update(forms)
            entities.append(entity)

    for country, cities in PLACES:
        add(
            EntityMetadata(
                standard_name=country[0], type="LOCATION", aliases=[country[1]], hierarchy=[country[0]]
            )
        )
        for city, districts in cities:
            path = [country[0], city[0]]
            add(EntityMetadata(standard_name=city[0], type="LOCATION", aliases=[city[1]], hierarchy=path))
            for district in districts:
                add(
                    EntityMetadata(
                        standard_name=district[0],
                        type="LOCATION",
                        aliases=[district[1]],
                        hierarchy=[*path, district[0]],
                    )
                )
    for prefix in ORG_PREFIX:
        for suffix in ORG_SUFFIX:
            add(
                EntityMetadata(
                    standard_name=prefix[0] + suffix[0],
                    type="ORGANIZATION",
                    aliases=[f"{prefix[1]} {suffix[1]}"],
                )
            )
    names = [(s, g1, g2) for s in SURNAMES for g1 in GIVEN for g2 in GIVEN if g1 != g2]
    for s, g1, g2 in rng.sample(names, 160):
        add(
            EntityMetadata(
                standard_name=s[0] + g1[0] + g2[0],
                type="PERSON",
                aliases=[f"{s[1]} {(g1[1] + g2[1]).capitalize()}"],
            )
        )
    western = [(f, last) for f in WESTERN for last in WESTERN_LAST]
    for first, last in rng.sample(western, 30):
        add(
            EntityMetadata(
                standard_name=f"{first[0]} {last[0]}", type="PERSON", aliases=[f"{first[1]}·{last[1]}"]
            )
        )
    return entities


def _by_type(entities: Sequence[EntityMetadata], etype: EntityType) -> list[EntityMetadata]:
    return [e for e in entities if e.type == etype]


def _english(entity: EntityMetadata) -> str:
    """The entity's Latin-script form (its standard name or its first Latin alias)."""
    for form in (entity.standard_name, *entity.aliases):
        if form.isascii():
            return form
    return entity.standard_name


def _chinese(entity: EntityMetadata) -> str:
    for form in (entity.standard_name, *entity.aliases):
        if not form.isascii():
            return form
    return entity.standard_name


def _document(
    i: int,
    rng: random.Random,
    persons: list[EntityMetadata],
    orgs: list[EntityMetadata],
    places: list[EntityMetadata],
    start: date,
    days: int,
) -> Document:
    who = rng.sample(persons, 2 if rng.random() < 0.3 else 1)
    org = rng.choice(orgs)
    where = rng.choice(places)
    topic_cn, topic_en = rng.choice(TOPICS)
    event_cn, event_en = rng.choice(EVENTS)
    when = start + timedelta(days=rng.randrange(days))
    p = who[0]
    cn_date = f"{when.year}年{when.month}月{when.day}日"
    en_date = f"{MONTHS[when.month - 1]} {when.day}, {when.year}"  # not strftime: no locale
    sentences = [
        f"{cn_date}，{_chinese(org)}{rng.choice(ROLES)}{_chinese(p)}在{_chinese(where)}出席了{event_cn}，"
        f"重点介绍了{topic_cn}的最新进展。",
        f"On {en_date}, {_english(p)} of {_english(org)} presented work on {topic_en} at the {event_en} "
        f"in {_english(where)}.",
        f"{_chinese(p)}表示，{_chinese(org)}将在{_chinese(where)}继续加大对{topic_cn}的投入，预计{rng.randint(2, 6)}年内见效。",
        f"Analysts said {topic_en} could reshape the industry, and {_english(org)} plans "
        f"{rng.randint(3, 40)} new projects.",
        f"业内人士认为，{topic_cn}正在改变产业格局，相关投资同比增长{rng.randint(5, 60)}%。",
    ]
    if len(who) > 1:
        sentences.append(f"{_chinese(who[1])} also joined the discussion on {topic_en} with {_english(p)}.")
    head, tail = sentences[:2], sentences[2:]
    rng.shuffle(tail)
    text = " ".join(head + tail[: rng.randint(1, len(tail))])
    while len(text) > CHUNK_CHARS_MAX:  # never reached with these templates; keeps the one-chunk promise
        text = text.rsplit(" ", 1)[0]
    metadata: dict[str, Any] = {"date": when.isoformat(), "topic": topic_en}
    if i == 0 or rng.random() < 0.9:
        # Mostly standard names, sometimes an alias (normalized at ingest); the rest is extracted from text.
        metadata["entities"] = {
            "PERSON": [e.standard_name if rng.random() < 0.8 else e.aliases[0] for e in who],
            "ORGANIZATION": [org.standard_name],
            "LOCATION": [where.standard_name],
        }
    title = f"{_chinese(org)}{event_cn}：{_chinese(p)}谈{topic_cn}"
    return Document(id=f"bench-{i:07d}", title=title, text=text, metadata=metadata)


def generate_documents(n: int, entities: Sequence[EntityMetadata], seed: int = 42) -> list[Document]:
    """``n`` one-chunk bilingual news items whose entities come from ``entities``."""
    rng = random.Random(f"documents:{seed}")
    persons, orgs = _by_type(entities, "PERSON"), _by_type(entities, "ORGANIZATION")
    places = [e for e in _by_type(entities, "LOCATION") if len(e.hierarchy) >= 2]  # cities and districts
    start = date(CORPUS_YEARS[0], 1, 1)
    days = (date(CORPUS_YEARS[1], 12, 31) - start).days + 1
    return [_document(i, rng, persons, orgs, places, start, days) for i in range(n)]


def _city(entities_by_name: dict[str, EntityMetadata], place: str) -> EntityMetadata:
    """The city of a city or district (hierarchy: country, city[, district])."""
    return entities_by_name[entities_by_name[place].hierarchy[1]]


def generate_questions(
    documents: Sequence[Document], entities: Sequence[EntityMetadata], seed: int = 42, per_route: int = 8
) -> list[BenchQuestion]:
    """``per_route`` questions per route, alternating Chinese and English; entity ones match some document."""
    rng = random.Random(f"questions:{seed}")
    by_name = {e.standard_name: e for e in entities}
    alias_of = {a: e for e in entities for a in e.aliases}
    tagged = [d for d in documents if isinstance(d.metadata.get("entities"), dict)][:QUESTION_POOL]
    pairs: list[tuple[EntityMetadata, EntityMetadata]] = []
    for doc in rng.sample(tagged, min(len(tagged), 2 * per_route)):
        meta = doc.metadata["entities"]
        name = meta["PERSON"][0]
        person = by_name.get(name) or alias_of[name]
        pairs.append((person, _city(by_name, meta["LOCATION"][0])))
    questions: list[BenchQuestion] = []
    for i in range(per_route):
        person, city = pairs[i % len(pairs)]
        other, other_city = pairs[(i + per_route) % len(pairs)]
        topic_cn, topic_en = TOPICS[(i + seed) % len(TOPICS)]
        zh = i % 2 == 0
        questions += [
            BenchQuestion(
                f"{_chinese(person)}在{_chinese(city)}参加了哪些活动？"
                if zh
                else f"Which events did {_english(person)} attend in {_english(city)}?",
                "structured",
            ),
            BenchQuestion(
                f"{_chinese(other)}{ABSENT_YEAR}年在{_chinese(other_city)}参加了哪些活动？"
                if zh
                else f"Which events did {_english(other)} attend in {_english(other_city)} in {ABSENT_YEAR}?",
                "structured_relaxed",
            ),
            BenchQuestion(
                f"请解释{topic_cn}的概念" if zh else f"Explain the concept of {topic_en}.", "semantic"
            ),
            BenchQuestion(
                f"{topic_cn}领域有哪些新的投资？" if zh else f"Which new investments target {topic_en}?",
                "hybrid",
            ),
        ]
    return questions


def generate_corpus(n_chunks: int, seed: int = 42, per_route: int = 8) -> SyntheticCorpus:
    """The whole synthetic data set for one size (one document = one chunk)."""
    if n_chunks < 1:
        raise ValueError("n_chunks must be positive")
    entities = generate_entities(seed)
    documents = generate_documents(n_chunks, entities, seed)
    return SyntheticCorpus(
        seed, entities, documents, generate_questions(documents, entities, seed, per_route)
    )


# ---------------------------------------------------------------------------- statistics


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between ranks (numpy's default)."""
    if not values:
        raise ValueError("percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError("q must lie in [0, 100]")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def latency_summary(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, mean, p50, p95 and max of latencies (None when there are none)."""
    if not values:
        return {"n": 0, "mean": None, "p50": None, "p95": None, "max": None}
    return {
        "n": len(values),
        "mean": round(sum(values) / len(values), 3),
        "p50": round(percentile(values, 50), 3),
        "p95": round(percentile(values, 95), 3),
        "max": round(max(values), 3),
    }


def route_of(response: dict[str, Any]) -> str:
    """The route a query response took: first search action, ``structured_relaxed`` after any relaxation."""
    actions = [d["action"] for d in response["routingDecision"]["decisions"]]
    if "relax_constraints" in actions:
        return "structured_relaxed"
    first = next((a for a in actions if a.endswith("_search")), None)
    return first.removesuffix("_search") if first else "none"


@dataclass
class QueryRecord:
    """One answered query: where its time went."""

    route: str
    expected: str
    wall_ms: float
    graph_ms: float
    milvus_ms: float
    embed_ms: float | None
    nodes: dict[str, float]
    searches: int

    @classmethod
    def from_response(
        cls, body: dict[str, Any], expected: str, wall_ms: float, embed_ms: float | None = None
    ) -> QueryRecord:
        nodes: dict[str, float] = {}
        for step in body["workflow"]["steps"]:
            nodes[step["node"]] = nodes.get(step["node"], 0.0) + float(step["durationMs"])
        searches = body["retrievalDetails"]["searches"]
        return cls(
            route=route_of(body),
            expected=expected,
            wall_ms=wall_ms,
            graph_ms=float(body["workflow"]["totalDuration"]),
            milvus_ms=sum(float(s["durationMs"]) for s in searches),
            embed_ms=embed_ms,
            nodes=nodes,
            searches=len(searches),
        )


def time_split(records: Sequence[QueryRecord]) -> dict[str, Any]:
    """Mean ms per node and of Milvus / embedding, and the orchestration overhead share."""
    if not records:
        return {}
    n = len(records)

    def mean(xs: Sequence[float]) -> float:
        return round(sum(xs) / n, 3)

    wall = mean([r.wall_ms for r in records])
    milvus = mean([r.milvus_ms for r in records])
    nodes = {node: mean([r.nodes.get(node, 0.0) for r in records]) for node in NODES}
    out: dict[str, Any] = {
        "queries": n,
        "wall_ms": wall,
        "graph_ms": mean([r.graph_ms for r in records]),
        "milvus_ms": milvus,
        "nodes_ms": {k: v for k, v in nodes.items() if v},
    }
    search_nodes = sum(v for k, v in nodes.items() if k.startswith("search_"))
    # LangGraph's own cost: what the run took beyond the nodes' work (dispatch, state merges, response)
    node_total = mean([sum(r.nodes.values()) for r in records])
    out["framework_ms"] = round(wall - node_total, 3)
    out["framework_pct"] = round(100 * (wall - node_total) / wall, 1) if wall else None
    out["search_nodes_minus_milvus_ms"] = round(search_nodes - milvus, 3)
    out["non_milvus_pct"] = round(100 * (wall - milvus) / wall, 1) if wall else None
    if all(r.embed_ms is not None for r in records):
        embed = mean([r.embed_ms or 0.0 for r in records])
        out["embed_ms"] = embed
        out["overhead_ms"] = round(wall - milvus - embed, 3)
        out["overhead_pct"] = round(100 * (wall - milvus - embed) / wall, 1) if wall else None
    return out


def route_table(records: Sequence[QueryRecord]) -> dict[str, Any]:
    """Latency summary and time split per observed route."""
    out: dict[str, Any] = {}
    for route in [*ROUTES, *sorted({r.route for r in records} - set(ROUTES))]:
        rs = [r for r in records if r.route == route]
        if rs:
            out[route] = {"latency_ms": latency_summary([r.wall_ms for r in rs]), "split": time_split(rs)}
    return out


# ---------------------------------------------------------------------------- timing wrappers


class Stopwatch:
    """Seconds spent inside ``measure()`` blocks (thread-safe)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def measure(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self.seconds += time.perf_counter() - started
                self.calls += 1

    def reset(self) -> None:
        with self._lock:
            self.seconds, self.calls = 0.0, 0


class TimedEmbeddings(Embeddings):
    """An embedder that adds its time to a stopwatch."""

    def __init__(self, inner: Embeddings, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self.watch.measure():
            return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        with self.watch.measure():
            return self.inner.embed_query(text)


class TimedIndex:
    """A VectorIndex whose writes (replace, delete, flush) add their time to a stopwatch."""

    def __init__(self, inner: VectorIndex, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch

    def search_dense(self, vector: Sequence[float], *, filter: str | None, limit: int) -> list[Hit]:
        return self.inner.search_dense(vector, filter=filter, limit=limit)

    def search_bm25(self, text: str, *, filter: str | None, limit: int, raw: bool = False) -> list[Hit]:
        return self.inner.search_bm25(text, filter=filter, limit=limit, raw=raw)

    def search_hybrid(
        self,
        vector: Sequence[float],
        text: str,
        *,
        filter: str | None,
        limit: int,
        fusion: FusionMethod = "rrf",
        dense_weight: float | None = None,
    ) -> list[Hit]:
        return self.inner.search_hybrid(
            vector, text, filter=filter, limit=limit, fusion=fusion, dense_weight=dense_weight
        )

    def count(self, filter: str | None = None) -> int:
        return self.inner.count(filter)

    def replace_document(
        self, doc_id: str, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]
    ) -> int:
        with self.watch.measure():
            return self.inner.replace_document(doc_id, chunks, vectors)

    def replace_documents(self, docs: Sequence[DocumentChunks]) -> int:
        with self.watch.measure():
            return self.inner.replace_documents(docs)

    def delete_document(self, doc_id: str) -> int:
        with self.watch.measure():
            return self.inner.delete_document(doc_id)

    def document_ids(self) -> set[str]:
        return self.inner.document_ids()

    def flush(self) -> None:
        with self.watch.measure():
            self.inner.flush()

    def ping(self) -> None:
        self.inner.ping()

    def close(self) -> None:
        self.inner.close()


# ---------------------------------------------------------------------------- memory and load


def rss_mb(pid: int) -> dict[str, float | None]:
    """Current and peak resident set size of a process in MiB (/proc; psutil, current only, elsewhere)."""
    status = Path(f"/proc/{pid}/status")
    try:
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        rss, hwm = (float(fields[k].split()[0]) if k in fields else None for k in ("VmRSS", "VmHWM"))
        return {
            "rss_mb": round(rss / 1024, 1) if rss else None,
            "peak_mb": round(hwm / 1024, 1) if hwm else None,
        }
    except OSError:
        pass
    try:
        import psutil

        return {"rss_mb": round(psutil.Process(pid).memory_info().rss / 2**20, 1), "peak_mb": None}
    except Exception:  # psutil missing or the process gone: memory is simply not reported
        return {"rss_mb": None, "peak_mb": None}


def self_peak_rss_mb() -> float:
    """Peak RSS of this process so far (getrusage; KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / 2**20 if sys.platform == "darwin" else peak / 1024, 1)


def langgraph_floor_ms(nodes: int = 7, runs: int = 300, *, rag_state: bool = False) -> float:
    """Median ms of one run of a chain of ``nodes`` no-op async nodes: LangGraph's floor on this machine now
    (the machine's speed and load move it; the graph's own time in the tables is to be read against it).

    With ``rag_state`` the chain moves the service's own state schema (its ~45 channels and reducers) and
    each node appends a workflow step as the instrumented nodes do: the floor of a query's path with no work.
    """
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    from graphs.domain import WorkflowStep
    from graphs.rag.state import RagState

    class S(TypedDict, total=False):
        x: int

    async def step(state: S) -> S:
        return {"x": state.get("x", 0) + 1}

    async def rag_step(state: RagState) -> dict[str, Any]:
        return {"steps": [WorkflowStep(node="noop", started="", duration_ms=0.0, summary="")]}

    builder: StateGraph[Any, None, Any, Any] = StateGraph(RagState if rag_state else S)
    names = [f"n{i}" for i in range(nodes)]
    for name in names:
        builder.add_node(name, rag_step if rag_state else step)
    for a, b in zip([START, *names], [*names, END], strict=True):
        builder.add_edge(a, b)
    graph = builder.compile()
    first: dict[str, Any] = {"question": "q"} if rag_state else {"x": 0}

    async def measure() -> float:
        times = []
        for i in range(runs + 30):
            started = time.perf_counter()
            await graph.ainvoke(first)
            if i >= 30:
                times.append((time.perf_counter() - started) * 1000)
        return statistics.median(times)

    return round(asyncio.run(measure()), 2)


def load_average() -> list[float] | None:
    """The 1/5/15-minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


# ---------------------------------------------------------------------------- in-process phases


def fresh_dir(path: Path) -> Path:
    """Empty ``path`` for a run; refuse to delete a non-empty directory the bench did not create."""
    if path.exists():
        if any(path.iterdir()) and not (path / MARKER).exists():
            raise typer.BadParameter(
                f"{path} is not empty and was not created by `aer bench`; choose another --work-dir"
            )
        shutil.rmtree(path)
    path.mkdir(parents=True)
    (path / MARKER).write_text("created by `aer bench`; deleted by the next run\n")
    return path


def bench_settings(data_dir: Path) -> Any:
    """Default settings with only the data dir set (the environment is not read: runs compare)."""
    from app.settings import Settings

    return Settings.model_construct(data_dir=data_dir)


@dataclass
class Instrumented:
    """The process resources with timed embedder and index."""

    resources: Any
    embed_watch: Stopwatch
    milvus_watch: Stopwatch


def open_resources(data_dir: Path, embedder: Embeddings) -> Instrumented:
    """Build the real resources for ``data_dir`` around a shared, timed embedder."""
    from app.container import build_resources

    resources = build_resources(bench_settings(data_dir))  # its own embedder is lazy and never loads
    embed_watch, milvus_watch = Stopwatch(), Stopwatch()
    timed = TimedEmbeddings(embedder, embed_watch)
    context = dataclasses.replace(resources.context, embedder=timed)
    ingestor = dataclasses.replace(
        resources.ingestor, embedder=timed, index=TimedIndex(resources.context.index, milvus_watch)
    )
    return Instrumented(
        dataclasses.replace(resources, context=context, ingestor=ingestor), embed_watch, milvus_watch
    )


def ingest_phase(
    inst: Instrumented, corpus: SyntheticCorpus, batch_size: int, echo: Callable[[str], None]
) -> dict[str, Any]:
    """Load the entities, then ingest every document; throughput overall and per part."""
    res = inst.resources
    started = time.perf_counter()
    for entity in corpus.entities:
        res.ingestor.upsert_entity(entity)
    entity_s = time.perf_counter() - started
    inst.embed_watch.reset()
    inst.milvus_watch.reset()
    total = len(corpus.documents)
    done = 0
    next_report = time.monotonic() + 30

    def progress(n: int) -> None:
        nonlocal done, next_report
        done += n
        if time.monotonic() >= next_report:
            next_report = time.monotonic() + 30
            rate = done / (time.perf_counter() - started)
            echo(
                f"  ingest {done}/{total} documents ({rate:.0f}/s, ~{(total - done) / rate / 60:.1f} min left)"
            )

    started = time.perf_counter()
    report = res.ingestor.ingest(corpus.documents, batch_size=batch_size, progress=progress)
    seconds = time.perf_counter() - started
    stored = res.context.index.count()
    embed_s, milvus_s = inst.embed_watch.seconds, inst.milvus_watch.seconds
    return {
        "documents": report.documents,
        "chunks": report.chunks,
        "stored_rows": stored,
        "extracted_from_text": report.extracted,
        "entities": len(corpus.entities),
        "entity_load_s": round(entity_s, 3),
        "seconds": round(seconds, 3),
        "chunks_per_s": round(report.chunks / seconds, 1) if seconds else None,
        "embed_s": round(embed_s, 3),
        "embed_chunks_per_s": round(report.chunks / embed_s, 1) if embed_s else None,
        "milvus_s": round(milvus_s, 3),
        "milvus_chunks_per_s": round(report.chunks / milvus_s, 1) if milvus_s else None,
        "other_s": round(seconds - embed_s - milvus_s, 3),
        "batch_size": batch_size,
    }


async def query_phase(
    inst: Instrumented, questions: Sequence[BenchQuestion], repeats: int
) -> list[QueryRecord]:
    """Every question ``repeats`` times through the real graph, one at a time, after a warm-up pass."""
    from app.api.schemas import QueryRequest
    from app.service import answer

    res = inst.resources
    for q in questions:
        await answer(res, QueryRequest(question=q.text))
    records = []
    for _ in range(repeats):
        for q in questions:
            inst.embed_watch.reset()
            started = time.perf_counter()
            response = await answer(res, QueryRequest(question=q.text))
            wall = (time.perf_counter() - started) * 1000
            body = response.model_dump(by_alias=True, mode="json")
            records.append(QueryRecord.from_response(body, q.route, wall, inst.embed_watch.seconds * 1000))
    return records


# ---------------------------------------------------------------------------- HTTP phase


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_command(port: int) -> list[str]:
    """``aer serve`` of this environment on a loopback port (``python -m app.cli`` without the script)."""
    script = Path(sys.executable).with_name("aer")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]
    return [*base, "serve", "--host", "127.0.0.1", "--port", str(port)]


def server_env(data_dir: Path) -> dict[str, str]:
    """This environment without service configuration, pointed at ``data_dir``."""
    drop = ("AER_", "MILVUS_", "REDIS_", "OPENAI_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**env, "AER_DATA_DIR": str(data_dir.resolve()), "PYTHONUNBUFFERED": "1"}


class BenchServer:
    """``aer serve`` in its own session on a free loopback port; ``stop()`` always ends its process group."""

    def __init__(self, data_dir: Path, log: Path, startup_timeout_s: float = 300.0) -> None:
        self.data_dir = data_dir
        self.log = log
        self.startup_timeout_s = startup_timeout_s
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.startup_s: float | None = None

    def __enter__(self) -> BenchServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> BenchServer:
        started = time.monotonic()
        with self.log.open("wb") as log:
            # cwd is the data dir: no .env of the caller is read.
            self.proc = subprocess.Popen(
                serve_command(self.port), cwd=self.data_dir, env=server_env(self.data_dir), stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        try:
            while time.monotonic() - started < self.startup_timeout_s:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"aer serve exited with {self.proc.returncode}:\n{self.tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"{self.base_url}/healthz", timeout=2.0).status_code == 200:
                        self.startup_s = round(time.monotonic() - started, 2)
                        return self
                time.sleep(0.25)
            raise RuntimeError(
                f"aer serve did not answer within {self.startup_timeout_s:.0f} s:\n{self.tail()}"
            )
        except BaseException:
            self.stop()
            raise

    def memory(self) -> dict[str, float | None]:
        return (
            rss_mb(self.proc.pid)
            if self.proc and self.proc.poll() is None
            else {"rss_mb": None, "peak_mb": None}
        )

    def stop(self, timeout_s: float = 30.0) -> int | None:
        """SIGTERM the server's process group, SIGKILL it after ``timeout_s``; the exit code."""
        proc = self.proc
        if proc is None:
            return None
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=timeout_s)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)  # leftovers of the group, if any
        return proc.returncode

    def tail(self, n: int = 3000) -> str:
        try:
            return self.log.read_text(errors="replace")[-n:]
        except OSError:
            return ""


@dataclass
class LevelResult:
    concurrency: int
    records: list[QueryRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    server_memory: dict[str, float | None] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        ok = len(self.records)
        return {
            "concurrency": self.concurrency,
            "requests": ok + len(self.errors),
            "ok": ok,
            "errors": len(self.errors),
            "error_samples": self.errors[:3],
            "seconds": round(self.seconds, 3),
            "qps": round(ok / self.seconds, 2) if self.seconds else None,
            "latency_ms": latency_summary([r.wall_ms for r in self.records]),
            "split": time_split(self.records),
            "server_memory": self.server_memory,
            "routes": {route: sum(r.route == route for r in self.records) for route in ROUTES},
        }


async def http_level(
    base_url: str,
    questions: Sequence[BenchQuestion],
    concurrency: int,
    requests: int,
    duration_s: float,
    timeout_s: float = 120.0,
) -> LevelResult:
    """``requests`` queries (or as many as ``duration_s`` allows) from ``concurrency`` workers."""
    if not base_url.startswith("http://127.0.0.1:"):
        raise ValueError("the bench only talks to a loopback server")
    result = LevelResult(concurrency)
    issued = 0
    deadline = time.monotonic() + duration_s
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal issued
        while issued < requests and time.monotonic() < deadline:
            q = questions[issued % len(questions)]
            issued += 1
            started = time.perf_counter()
            try:
                r = await client.post(API_PATH, json={"action": "query", "question": q.text})
                wall = (time.perf_counter() - started) * 1000
                if r.status_code == 200:
                    result.records.append(QueryRecord.from_response(r.json(), q.route, wall))
                else:
                    result.errors.append(f"HTTP {r.status_code}: {r.text[:200]}")
            except httpx.HTTPError as exc:
                result.errors.append(f"{type(exc).__name__}: {exc}")

    async with httpx.AsyncClient(base_url=base_url, timeout=timeout_s, limits=limits) as client:
        started = time.perf_counter()
        tasks = [asyncio.create_task(worker(client)) for _ in range(concurrency)]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=duration_s + timeout_s)
        except TimeoutError:
            result.errors.append("level timed out")
        result.seconds = time.perf_counter() - started
    return result


async def http_phase(
    server: BenchServer,
    questions: Sequence[BenchQuestion],
    levels: Sequence[int],
    requests: int,
    duration_s: float,
    echo: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Warm the server up with one pass over the questions, then measure each concurrency level in turn."""
    warm = await http_level(server.base_url, questions, 1, len(questions), duration_s)
    if warm.errors:
        raise RuntimeError(f"the server failed during warm-up: {warm.errors[:3]}")
    out = []
    for c in levels:
        level = await http_level(server.base_url, questions, c, requests, duration_s)
        level.server_memory = server.memory()
        summary = level.summary()
        echo(f"  c={c}: {summary['ok']} ok, {summary['errors']} errors, {summary['qps']} QPS")
        out.append(summary)
    return out


# ---------------------------------------------------------------------------- orchestration


@dataclass(frozen=True)
class BenchConfig:
    sizes: tuple[int, ...] = (1000, 10000)
    work_dir: Path = Path("bench-data")
    seed: int = 42
    per_route: int = 8
    repeats: int = 3
    batch_size: int = 32
    concurrency: tuple[int, ...] = (1, 4, 16)
    requests: int = 200
    duration_s: float = 60.0
    startup_timeout_s: float = 300.0
    http: bool = True


def estimate_seconds(size: int, embed_per_s: float, config: BenchConfig) -> float:
    """A rough run time from what 2 shared cores did: Milvus Lite writes ~180 rows/s; a query takes
    ~30 ms plus ~8 ms per 1,000 chunks (Lite's FLAT search is linear); the server answers one at a time."""
    query_s = 0.03 + 8e-6 * size
    ingest = size / embed_per_s + size / 180 + size / 1000
    queries = (config.repeats + 1) * 4 * config.per_route * query_s
    http = 0.0
    if config.http:
        http = 25 + sum(min(config.requests * query_s, config.duration_s) for _ in config.concurrency)
    return ingest + queries + http


def run_size(
    size: int, config: BenchConfig, embedder: Embeddings, echo: Callable[[str], None]
) -> dict[str, Any]:
    """Generate, ingest, query in-process and over HTTP for one corpus size."""
    data_dir = fresh_dir(config.work_dir / f"chunks-{size}")
    out: dict[str, Any] = {"size": size, "data_dir": str(data_dir), "load_average": {"start": load_average()}}
    corpus = generate_corpus(size, config.seed, config.per_route)
    inst = open_resources(data_dir, embedder)
    try:
        echo(f"[{size}] ingest {len(corpus.documents)} documents, {len(corpus.entities)} entities")
        out["ingest"] = ingest_phase(inst, corpus, config.batch_size, echo)
        out["load_average"]["after_ingest"] = load_average()
        echo(f"[{size}] {len(corpus.questions)} questions x {config.repeats} in-process")
        records = asyncio.run(query_phase(inst, corpus.questions, config.repeats))
    finally:
        inst.resources.close()
    out["load_average"]["after_queries"] = load_average()
    out["in_process"] = {
        "queries": len(records),
        "routes": route_table(records),
        "all": time_split(records),
        "route_mismatches": sum(r.route != r.expected for r in records),
    }
    out["bench_peak_rss_mb"] = self_peak_rss_mb()
    if config.http:
        echo(f"[{size}] aer serve + HTTP load at concurrency {', '.join(map(str, config.concurrency))}")
        with BenchServer(data_dir, data_dir / "serve.log", config.startup_timeout_s) as server:
            out["server"] = {
                "base_url": server.base_url,
                "startup_s": server.startup_s,
                "memory_after_start": server.memory(),
            }
            out["http"] = asyncio.run(
                http_phase(
                    server, corpus.questions, config.concurrency, config.requests, config.duration_s, echo
                )
            )
            out["server"]["memory_end"] = server.memory()
        out["server"]["exit_code"] = server.proc.returncode if server.proc else None
        out["server"]["clean_shutdown"] = "Application shutdown complete" in server.tail()
        out["load_average"]["end"] = load_average()
    return out


def run_bench(config: BenchConfig, echo: Callable[[str], None] = typer.echo) -> dict[str, Any]:
    """Run every size; the JSON-ready results."""
    from app.container import build_embedder

    embedder, dim, name = build_embedder(bench_settings(config.work_dir))
    probe = [d.text for d in generate_documents(16, generate_entities(config.seed), config.seed + 1)]
    embedder.embed_documents(probe[:4])  # the first call loads the model
    started = time.perf_counter()
    embedder.embed_documents(probe)
    embed_per_s = len(probe) / (time.perf_counter() - started)
    for size in config.sizes:
        minutes = estimate_seconds(size, embed_per_s, config) / 60
        slow = "  (slow: Milvus Lite writes ~180 rows/s and searches linearly)" if size >= 100_000 else ""
        echo(
            f"estimate for {size} chunks: ~{minutes:.0f} min (embedding {embed_per_s:.0f} chunks/s here){slow}"
        )
    sizes: list[dict[str, Any]] = []
    meta: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seed": config.seed,
        "embedder": name,
        "dim": dim,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": load_average(),
        "calibration_embed_chunks_per_s": round(embed_per_s, 1),
        "langgraph_floor_ms": langgraph_floor_ms(),
        "path_floor_ms": langgraph_floor_ms(8, rag_state=True),
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(config).items()},
        "stack": "USE embedder, Milvus Lite (FLAT), SQLite entities, fusion reranker, no LLM",
    }
    for size in config.sizes:
        sizes.append(run_size(size, config, embedder, echo))
    meta["bench_peak_rss_mb"] = self_peak_rss_mb()
    return {"meta": meta, "sizes": sizes}


# ---------------------------------------------------------------------------- report


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]

    def line(values: Sequence[str]) -> str:
        pairs = enumerate(zip(values, widths, strict=True))
        return "  ".join(v.rjust(w) if i else v.ljust(w) for i, (v, w) in pairs)

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in cells)]


def format_report(results: dict[str, Any]) -> str:
    """Human-readable tables of a bench result."""
    meta = results["meta"]
    lines = [
        f"aer bench — {meta['stack']}; {meta['cpus']} CPUs, load average at start {meta['load_average']}",
        f"LangGraph floor here now: {meta.get('langgraph_floor_ms', '-')} ms per run of 7 trivial async nodes; "
        f"{meta.get('path_floor_ms', '-')} ms for 8 no-op steps over the service's state (a one-search query's path)",
    ]
    for s in results["sizes"]:
        ing = s["ingest"]
        lines += [
            "",
            f"== {s['size']} chunks (load average {s['load_average']}) ==",
            f"ingest: {ing['chunks']} chunks in {ing['seconds']:.1f} s = {ing['chunks_per_s']} chunks/s "
            f"(embedding {ing['embed_s']:.1f} s, {ing['embed_chunks_per_s']}/s; Milvus {ing['milvus_s']:.1f} s, "
            f"{ing['milvus_chunks_per_s']}/s; chunking+entities {ing['other_s']:.1f} s); "
            f"entities {ing['entities']} in {ing['entity_load_s']:.1f} s",
            "",
            "in-process latency per route (ms; graph = wall − the nodes' own time, i.e. LangGraph's"
            " dispatch and state merges; other = wall − Milvus − embedding):",
        ]
        rows = []
        for route, r in s["in_process"]["routes"].items():
            lat, sp = r["latency_ms"], r["split"]
            rows.append(
                [
                    route,
                    lat["n"],
                    lat["p50"],
                    lat["p95"],
                    lat["mean"],
                    sp["milvus_ms"],
                    sp.get("embed_ms"),
                    sp.get("framework_ms"),
                    sp.get("framework_pct"),
                    sp.get("overhead_ms"),
                    sp.get("overhead_pct"),
                ]
            )
        split = s["in_process"]["all"]
        if split:
            rows.append(["(all routes)", split["queries"], None, None, split["wall_ms"], split["milvus_ms"],
                         split.get("embed_ms"), split["framework_ms"], split["framework_pct"],
                         split.get("overhead_ms"), split.get("overhead_pct")])
        lines += _table(
            ["route", "n", "p50", "p95", "mean", "milvus", "embed", "graph", "graph%", "other", "other%"],
            rows,
        )
        if split:
            lines += ["", "time split per node, in-process mean over all queries (ms):"]
            node_rows = [[k, v, round(100 * v / split["wall_ms"], 1)] for k, v in split["nodes_ms"].items()]
            node_rows += [
                ["(Milvus calls)", split["milvus_ms"], round(100 * split["milvus_ms"] / split["wall_ms"], 1)],
                ["(embedding)", split.get("embed_ms"), None],
                ["(wall)", split["wall_ms"], 100.0],
            ]
            lines += _table(["node", "ms", "% of wall"], node_rows)
        if s["in_process"]["route_mismatches"]:
            lines.append(
                f"note: {s['in_process']['route_mismatches']} queries took another route than intended"
            )
        if "http" in s:
            srv = s["server"]
            lines += [
                "",
                f"HTTP (aer serve started in {srv['startup_s']} s; p50/p95 client-side; graph and Milvus ms are "
                "server-side means and, above concurrency 1, include waiting for the CPU and the index lock):",
            ]
            rows = [
                [
                    lv["concurrency"],
                    lv["requests"],
                    lv["errors"],
                    lv["qps"],
                    lv["latency_ms"]["p50"],
                    lv["latency_ms"]["p95"],
                    lv["split"].get("graph_ms"),
                    lv["split"].get("milvus_ms"),
                    lv["split"].get("non_milvus_pct"),
                    lv["server_memory"].get("rss_mb"),
                ]
                for lv in s["http"]
            ]
            lines += _table(
                ["conc", "reqs", "err", "QPS", "p50", "p95", "graph", "milvus", "non-milvus%", "srv RSS MB"],
                rows,
            )
            lines.append(
                f"server peak RSS {srv['memory_end'].get('peak_mb')} MiB; "
                f"bench process peak RSS {s['bench_peak_rss_mb']} MiB"
            )
    return "\n".join(lines)


def _ints(value: str, name: str) -> tuple[int, ...]:
    try:
        items = tuple(int(v.replace("_", "")) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise typer.BadParameter(f"{name} must be comma-separated integers, got {value!r}") from exc
    if not items or any(i < 1 for i in items):
        raise typer.BadParameter(f"{name} must be positive integers, got {value!r}")
    return items


def bench_command(
    sizes: Annotated[
        str,
        typer.Option(
            help="Corpus sizes in chunks, comma-separated (100000 is slow: see the estimate printed first)."
        ),
    ] = "1000,10000",
    work_dir: Annotated[Path, typer.Option(help="Each size gets a fresh data dir below this one.")] = Path(
        "bench-data"
    ),
    out: Annotated[Path, typer.Option(help="Where to write the JSON results.")] = Path(
        "bench-results/bench.json"
    ),
    seed: Annotated[int, typer.Option(help="Seed of the synthetic corpus and questions.")] = 42,
    questions_per_route: Annotated[int, typer.Option(min=1, help="Generated questions per route.")] = 8,
    repeats: Annotated[int, typer.Option(min=1, help="In-process passes over the questions.")] = 3,
    concurrency: Annotated[str, typer.Option(help="HTTP concurrency levels, comma-separated.")] = "1,4,16",
    requests: Annotated[int, typer.Option(min=1, help="HTTP requests per concurrency level.")] = 200,
    duration: Annotated[float, typer.Option(min=1, help="At most this many seconds per HTTP level.")] = 60.0,
    batch_size: Annotated[int, typer.Option(min=1, help="Documents per ingest batch.")] = 32,
    http: Annotated[bool, typer.Option(help="Run the HTTP phase (aer serve subprocess).")] = True,
    startup_timeout: Annotated[float, typer.Option(min=1, help="Seconds to wait for aer serve.")] = 300.0,
) -> None:
    """Benchmark ingest, per-route latency, HTTP QPS and memory on synthetic bilingual data."""
    config = BenchConfig(
        sizes=_ints(sizes, "--sizes"),
        work_dir=work_dir,
        seed=seed,
        per_route=questions_per_route,
        repeats=repeats,
        batch_size=batch_size,
        concurrency=_ints(concurrency, "--concurrency"),
        requests=requests,
        duration_s=duration,
        startup_timeout_s=startup_timeout,
        http=http,
    )
    results = run_bench(config)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    typer.echo(format_report(results))
    typer.echo(f"\nresults written to {out}")
