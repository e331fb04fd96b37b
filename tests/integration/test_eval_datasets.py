"""``aer eval`` end to end through the real stack (USE embedder, Milvus Lite, the graph)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app.tools.eval import MODES, eval_command

ROOT = Path(__file__).resolve().parents[2]
HOTPOT = ROOT.parent / "shared" / "data" / "hotpotqa_sample"
# The hotpot eval index takes a minute or two to build; keep it between runs (reused by content hash).
HOTPOT_CACHE = Path(os.environ.get("AER_EVAL_TEST_CACHE", Path(tempfile.gettempdir()) / "aer-eval-test-cache"))

PASSAGES = [
    ("eiffel", "Eiffel Tower", "The Eiffel Tower is a wrought-iron lattice tower in Paris, completed in 1889."),
    ("wall", "Great Wall", "The Great Wall of China stretches thousands of kilometres across northern China."),
    ("photo", "Photosynthesis", "Photosynthesis converts light energy into chemical energy stored in glucose."),
    ("gugong", "故宫", "故宫位于北京中轴线的中心，是明清两代的皇家宫殿，旧称紫禁城。"),
]
QUESTIONS = [
    ("q1", "When was the Eiffel Tower in Paris completed?", ["1889"], ["eiffel"], "single"),
    ("q2", "故宫旧称什么？", ["紫禁城"], ["gugong"], "single"),
    ("q3", "Which tower and which wall are famous landmarks?", ["Eiffel Tower"], ["eiffel", "wall"], "bridge"),
]


def _cli() -> typer.Typer:
    app = typer.Typer(add_completion=False)
    app.command()(eval_command)
    return app


def _write_jsonl(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean environment: no .env, no LLM, no server stores; the data dir in tmp."""
    monkeypatch.chdir(tmp_path)
    for name in ("AER_LLM_BASE_URL", "AER_LLM_API_KEY", "AER_MILVUS_URI", "MILVUS_URI", "AER_REDIS_URL",
                 "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AER_EMBEDDING_PROVIDER", "use")  # the default e5 is ~10x slower to ingest a dev set
    monkeypatch.setenv("AER_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def test_eval_runs_end_to_end_and_reuses_its_index(env: Path) -> None:
    dataset = env / "tiny"
    dataset.mkdir()
    _write_jsonl(dataset / "corpus.jsonl", [{"id": i, "title": t, "text": x, "metadata": {}} for i, t, x in PASSAGES])
    _write_jsonl(dataset / "questions.jsonl", [
        {"id": i, "question": q, "answers": a, "gold_ids": g, "type": t} for i, q, a, g, t in QUESTIONS
    ])
    out = env / "out"
    runner = CliRunner()

    first = runner.invoke(_cli(), [str(dataset), "--out", str(out)])
    assert first.exit_code == 0, first.output
    assert "| mode | R@2 | R@5 |" in first.stdout and "| full |" in first.stdout
    assert "ingested 4 documents as 4 chunks" in first.stderr
    report = json.loads((out / "eval-tiny.json").read_text(encoding="utf-8"))
    assert list(report["modes"]) == list(MODES)
    assert report["questions"] == {"total": 3, "evaluated": 3, "skipped": {"no_gold_ids": 0, "empty_question": 0}}
    assert report["corpus"]["documents"] == 4 and report["corpus"]["reused"] is False
    assert Path(report["corpus"]["index_dir"]).parent == env / "data" / "eval"
    for mode, s in report["modes"].items():
        assert s["em"] is None and s["f1"] is None, mode
        assert s["latency_ms"]["p50"] is not None and s["questions"] == 3
    assert report["modes"]["full"]["llm_calls_per_question"] == 0
    assert sum(report["modes"]["full"]["routes"].values()) == 3
    assert any("no LLM configured" in n for n in report["notes"])
    rows = [json.loads(line) for line in (out / "eval-tiny-questions.jsonl").read_text(encoding="utf-8").splitlines()]
    for row in rows:
        if row["id"] in ("q1", "q2"):
            assert row["recall@5"] == 1.0, row
    assert {p.name for p in out.iterdir()} >= {"eval-tiny.json", "eval-tiny.md", "eval-tiny-questions.jsonl"}

    second = runner.invoke(_cli(), [str(dataset), "--out", str(out), "--mode", "bm25,dense", "--limit", "2", "--json"])
    assert second.exit_code == 0, second.output
    assert "reused eval index" in second.stderr
    again = json.loads(second.stdout)
    assert list(again["modes"]) == ["bm25", "dense"] and again["corpus"]["reused"] is True
    assert again["questions"]["evaluated"] == 2 and again["modes"]["bm25"]["recall@5"] == 1.0


@pytest.mark.slow
def test_eval_on_hotpotqa_sample_with_limit(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not HOTPOT.is_dir():
        pytest.skip(f"{HOTPOT} is absent")
    monkeypatch.setenv("AER_DATA_DIR", str(HOTPOT_CACHE))
    result = CliRunner().invoke(_cli(), [str(HOTPOT), "--limit", "5", "--out", str(env / "out"), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["dataset"] == "hotpotqa_sample" and report["corpus"]["documents"] == 994
    assert report["questions"]["evaluated"] == 5
    for s in report["modes"].values():
        assert 0.0 <= s["recall@2"] <= s["recall@5"] <= 1.0
    assert report["modes"]["bm25"]["recall@5"] > 0
