"""Servers the tests start as real processes on loopback ports: ``milvus-lite server`` (the gRPC server the
service's remote-URI path talks to) and ``aer serve``. Every wait is bounded and every process (and its process
group) is always reaped, also when a test fails."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.schemas import API_PATH
from app.tools.bench.harness import free_port

URL = API_PATH
LITE_START_TIMEOUT_S = 90.0
START_TIMEOUT_S = 240.0  # embedder, jieba and Milvus Lite load before the port opens; 2 shared cores are slow
STOP_TIMEOUT_S = 60.0
HTTP_TIMEOUT = httpx.Timeout(120.0, connect=5.0)


def milvus_lite_server_command() -> list[str]:
    """``python -m milvus_lite server``: the gRPC server of milvus-lite 3.x (a dependency; its absence fails)."""
    assert importlib.util.find_spec("milvus_lite.adapter.grpc.server") is not None, (
        "this milvus-lite has no `server` command (milvus-lite >= 3, as pyproject.toml requires, provides it)")
    return [sys.executable, "-m", "milvus_lite", "server"]


class LiteServer:
    """``milvus-lite server`` in a subprocess on a loopback port; ``stop()`` always reaps it."""

    def __init__(self, command: list[str], data_dir: Path, port: int | None = None) -> None:
        self.command = command
        self.data_dir = data_dir
        self.port = port or free_port()
        self.log = data_dir.parent / f"milvus-lite-{self.port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def uri(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiteServer:
        cmd = [
            *self.command,
            "--data-dir",
            str(self.data_dir),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + LITE_START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"milvus-lite server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(
            f"milvus-lite server did not listen within {LITE_START_TIMEOUT_S:.0f} s:\n{self.tail()}"
        )

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


def aer_command() -> list[str]:
    """The installed ``aer`` console script of this environment (``python -m app.cli`` if absent)."""
    script = Path(sys.executable).with_name("aer")
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]


CHECKOUT = Path(__file__).resolve().parents[2]
"""The checkout these tests belong to: a child ``aer`` imports its code first. A git worktree sharing another
checkout's venv would otherwise run the code the venv's editable install points at (the console script imports
``app`` from there), and a page test would check the other checkout's page."""


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without service configuration, so the child sees only what the test sets; the checkout
    under test first on its ``PYTHONPATH``."""
    drop = ("AER_", "MILVUS_", "REDIS_", "OPENAI_")
    # the suite's embedder (tests/conftest.py: USE unless a test names another) reaches child servers too
    suite = {k: os.environ[k] for k in ("AER_EMBEDDING_PROVIDER",) if k in os.environ}
    path = os.pathsep.join(p for p in (str(CHECKOUT), os.environ.get("PYTHONPATH", "")) if p)
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(drop)},
        **suite,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": path,
        **extra,
    }


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ServerProcess:
    """``aer serve`` in a new session; ``stop()`` sends SIGTERM, then SIGKILL to the group after a bound."""

    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        self.workdir = workdir
        self.env = env or {"AER_DATA_DIR": str(workdir / "data")}
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "serve.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        cmd = [*aer_command(), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        # cwd is the temp dir: no .env of the checkout is read, relative paths stay inside it.
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=self.workdir, env=clean_env(**self.env), stdout=log,
                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        started = time.monotonic()
        while time.monotonic() - started < START_TIMEOUT_S:
            if self.proc.poll() is not None:
                raise RuntimeError(f"aer serve exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                if httpx.get(f"{self.base_url}/healthz", timeout=2.0).status_code == 200:
                    self.startup_s = time.monotonic() - started
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.25)
        self.kill()
        raise RuntimeError(
            f"aer serve did not answer /healthz within {START_TIMEOUT_S:.0f} s:\n{self.tail()}"
        )

    def stop(self) -> int:
        """SIGTERM and wait; the exit code (SIGKILL after STOP_TIMEOUT_S counts as failure)."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.kill()
                raise
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc is None:
            return
        if group_alive(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(timeout=30)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


