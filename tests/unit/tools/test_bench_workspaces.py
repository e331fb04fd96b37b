"""``aer bench --workspaces``: a tiny run end to end (real Lite files, the real graph): every workspace built and
asked, the p95 ratio computed from the two series, the partition-key collection holding every workspace's rows
tagged and searchable under its filter."""

from __future__ import annotations

import json
from pathlib import Path

from pymilvus import MilvusClient

from app.tools.bench.workspaces import PK_COLLECTION, HashVectors, format_workspaces, workspaces_command


def test_hash_vectors_are_unit_and_stable() -> None:
    emb = HashVectors()
    a, b = emb.embed_query("Quillfeather"), emb.embed_documents(["Quillfeather", "other"])
    assert a == b[0] and a != b[1] and len(a) == 512
    assert abs(sum(x * x for x in a) - 1) < 1e-5


def test_a_small_workspaces_bench(tmp_path: Path) -> None:
    out = tmp_path / "ws.json"
    result = workspaces_command(tmp_path / "work", out, 40, 3, 7, 1, 1, True, False, lambda _: None)
    assert json.loads(out.read_text()) == json.loads(json.dumps(result))
    build, lat = result["build"], result["latency"]
    assert build["chunks"] == 40 and build["import_s"] is not None
    assert [p.name for p in sorted((tmp_path / "work" / "workspaces").iterdir())] == ["w00", "w01", "w02"]
    assert lat["single_ms"]["n"] == lat["multi_ms"]["n"] == result["questions"] > 0
    assert lat["p95_ratio"] == round(lat["multi_ms"]["p95"] / lat["single_ms"]["p95"], 3)
    pk = result["partition_key"]
    assert pk["rows"] == 3 * 40
    assert all(v["n"] == result["questions"] for v in pk["searches_ms"].values())
    client = MilvusClient(uri=str(tmp_path / "work" / "pk" / "milvus.db"))
    try:
        client.load_collection(PK_COLLECTION)
        hits = client.query(PK_COLLECTION, filter='workspace == "w01"', output_fields=["id", "workspace"])
        assert len(hits) == 40 and {h["workspace"] for h in hits} == {"w01"}
    finally:
        client.close()
    assert "p95 ratio" in format_workspaces(result)
