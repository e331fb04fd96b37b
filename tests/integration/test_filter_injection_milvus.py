"""End-to-end property: filters built from hostile values select exactly the right rows of a real Milvus Lite
collection (one collection shared by every example, a few dozen examples: seconds, not minutes)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from graphs.domain import Chunk, Constraint
from graphs.stores.filters import build_filter, encode_value
from graphs.stores.milvus import MilvusIndex

DIM = 8
VECTOR = [1.0] * DIM
FRAGMENTS = ['"', "'", "\\", '\\"', "|", "||", "&&", " or ", ")", "(", "%", "_", "~", "~7C", "\n", "\t", "\x00",
             "\x1f", " ", "id != ", "北京", "Zoë", "🚀"]
hostile = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), min_size=1, max_size=6).map("".join)
# Milvus string literals (document ids go into one) cannot hold most control characters: the API refuses them.
doc_ids = hostile.map(lambda s: "".join(ch for ch in s if ord(ch) >= 0x20)).filter(lambda s: s.strip())
FEW = settings(max_examples=20, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
_serial = itertools.count()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusIndex]:
    idx = MilvusIndex(str(Path(tmp_path_factory.mktemp("milvus")) / "filters.db"), "chunks", dim=DIM)
    # Rows a wildcard or an escaped quote could leak into a result.
    idx.replace_document("decoys", [
        Chunk(id=f"decoys#{i}", doc_id="decoys", chunk_index=i, title="", text="decoy", entities={"PERSON": [name]})
        for i, name in enumerate(["a", "ab", "%", "_", "\\", '"', "|", "x", " or ", "北京", "朝阳"])
    ], [VECTOR] * 11)
    yield idx
    idx.close()


def person_rows(idx: MilvusIndex, value: str, negated: bool = False) -> list[tuple[str, list[str]]]:
    expr = build_filter([Constraint(type="PERSON", value=value, negated=negated)])
    hits = idx.search_dense(VECTOR, filter=expr, limit=10_000)
    # Names are matched stripped (the filter field stores them so); the row keeps them as given.
    return [(h.id, [n.strip() for n in h.entities.get("PERSON", [])]) for h in hits]


@FEW
@given(value=hostile)
def test_a_hostile_value_selects_only_rows_that_hold_it(index: MilvusIndex, value: str) -> None:
    assume(encode_value(value))
    name = value.strip()
    doc = f"planted-{next(_serial)}"
    # One row holds the value; the others hold it glued to other text, or a neighbour of it.
    neighbours = [["x" + name], [name + "x"], [name[:-1] or "y"], [name + "|" + name + "z"], ["other"]]
    chunks = [Chunk(id=f"{doc}#0", doc_id=doc, chunk_index=0, title="", text="t", entities={"PERSON": ["other", value]})]
    chunks += [Chunk(id=f"{doc}#{i}", doc_id=doc, chunk_index=i, title="", text="t", entities={"PERSON": names})
               for i, names in enumerate(neighbours, start=1)]
    index.replace_document(doc, chunks, [VECTOR] * len(chunks))

    rows = person_rows(index, value)
    assert f"{doc}#0" in [row_id for row_id, _ in rows]
    assert all(name in names for _, names in rows), rows
    negated = person_rows(index, value, negated=True)
    assert negated and all(name not in names for _, names in negated)
    assert len(rows) + len(negated) == index.count()


@FEW
@given(doc_id=doc_ids)
def test_a_hostile_document_id_deletes_only_its_own_chunks(index: MilvusIndex, doc_id: str) -> None:
    tag = next(_serial)
    target, twin = f"{doc_id}{tag}", f"{doc_id}{tag}x"  # the twin shares a prefix with the target
    for d in (target, twin):
        index.replace_document(d, [Chunk(id=f"{d}#0", doc_id=d, chunk_index=0, title="", text="t")], [VECTOR])
    before = index.count()
    # Replacing re-writes the target's rows through the doc/ids filters; the twin must be untouched.
    index.replace_document(target, [Chunk(id=f"{target}#0", doc_id=target, chunk_index=0, title="", text="v2")],
                           [VECTOR])
    assert index.count() == before
    assert index.delete_document(target) == 1
    assert index.count() == before - 1
    assert {target, twin} & index.document_ids() == {twin}
