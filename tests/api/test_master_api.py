"""The master layer through the API, with trajectories logged, and the DPO export of the recorded runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli, demo_dir
from app.main import create_app
from app.observability.trajectories import TrajectoryLog
from app.schemas import API_PATH
from app.settings import Settings
from app.tools.dpo import read_export

URL = API_PATH


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    data = tmp_path_factory.mktemp("data")
    log = data / "trajectories.jsonl"
    settings = Settings(data_dir=data, trajectory_log=log, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as c:
        for line in (demo_dir() / "entities.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                assert c.post(URL, json={"action": "add-entity", **json.loads(line)}).status_code == 200
        docs = [json.loads(x) for x in (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
        assert c.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        yield c, log


def ask(client: TestClient, question: str, **kw: Any) -> dict[str, Any]:
    r = client.post(URL, json={"action": "query", "question": question, **kw})
    assert r.status_code == 200, r.text
    return r.json()


COMPARE = "特斯拉和SpaceX谁先成立？"


def test_comparison_gets_a_planner_team_with_parallel_steps(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    body = ask(client, COMPARE)
    master = body["master"]
    assert master["teamConfiguration"]["name"] == "planner_enhanced"
    assert master["teamConfiguration"]["maxTurns"] == 5 and master["teamConfiguration"]["reason"]
    assert master["plan"]["pattern"] == "comparison"
    q1, q2 = master["plan"]["subQuestions"][:2]
    assert (q1["id"], q1["strategy"], q2["id"], q2["strategy"]) == ("q1", "structured", "q2", "structured")
    first_round = [s for s in master["steps"] if s["turn"] == 1]
    assert {s["subQuestion"] for s in first_round} == {"q1", "q2"} and all(s["status"] == "ok" for s in first_round)
    assert master["sufficiency"][-1]["next"] == "answer" and master["sufficiency"][-1]["level"]
    titles = {r["docId"] for r in body["retrievalDetails"]["topResults"][:4]}
    assert any("tesla" in t for t in titles) and any("spacex" in t for t in titles)
    assert body["runId"] and body["citations"]
    steps = [s["node"] for s in body["workflow"]["steps"]]
    assert steps[:4] == ["parse_query", "validate_entities", "configure_team", "plan_query"]
    assert steps.count("execute_step") >= 2 and "monitor_sufficiency" in steps


def test_writer_only_and_forced_teams(served: tuple[TestClient, Path]) -> None:
    client, _ = served
    body = ask(client, "what is 6*7?")
    assert body["master"]["teamConfiguration"]["name"] == "writer_only" and body["answer"].endswith("42")
    assert body["retrievalDetails"]["searches"] == []
    body = ask(client, COMPARE, team="executor_inclusive")
    assert body["master"]["teamConfiguration"]["name"] == "executor_inclusive" and body["master"]["plan"] is None
    assert ask(client, "hello", team="bogus" if False else "auto")["answerMode"] == "direct"
    r = client.post(URL, json={"action": "query", "question": "q", "team": "committee"})
    assert r.status_code == 422 or r.status_code == 400


def test_trajectories_are_logged_and_export_to_dpo_pairs(served: tuple[TestClient, Path], tmp_path: Path) -> None:
    client, log = served
    good = ask(client, COMPARE)["runId"]
    bad = ask(client, COMPARE, searchMode="semantic")["runId"]
    runs = {t.run_id: t for t in TrajectoryLog(log).read()}
    assert {good, bad} <= set(runs)
    recorded = runs[good]
    assert recorded.team == "planner_enhanced" and recorded.question == COMPARE
    assert [s.decision_point for s in recorded.steps if s.decision_point][:1] == ["D1"]
    assert all(s.thought and s.action and s.observation for s in recorded.steps)

    feedback = tmp_path / "feedback.jsonl"
    feedback.write_text(f'{{"run_id": "{good}", "label": "good"}}\n{{"run_id": "{bad}", "label": "bad"}}\n')
    out = tmp_path / "dpo.jsonl"
    result = CliRunner().invoke(cli, ["export-dpo", "--trajectories", str(log), "--feedback", str(feedback),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(read_export(out)) == 1
    [group] = read_export(out)
    assert group.question == COMPARE
    d1 = [p for p in group.pairs if p.decision_point == "D1"]
    assert d1 and d1[0].chosen_run_id == good and d1[0].rejected_run_id == bad
    assert d1[0].chosen.startswith("plan:") and "semantic" in d1[0].rejected and COMPARE in d1[0].prompt
