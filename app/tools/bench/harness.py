"""The bench's harness: fresh data dirs it may delete, the real resources around a timed embedder and index,
and ``aer serve`` in its own process group on a free loopback port (also used by ``aer loadtest``)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import typer
from langchain_core.embeddings import Embeddings

from app.tools.bench.timing import Stopwatch, TimedEmbeddings, TimedIndex, rss_mb

MARKER = ".aer-bench"  # only directories carrying it are ever deleted by the bench



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


def bench_settings(data_dir: Path, embedder: str = "auto", milvus_timeout_s: float | None = None) -> Any:
    """Default settings with only the data dir, the embedder and (given) the Milvus deadline set, and no question
    vector kept (the environment is not read: runs compare)."""
    from app.settings import Settings

    # no question vector kept (as the bench's servers, AER_QUERY_VECTOR_CACHE=0): every query embeds what it needs,
    # as in every earlier run of the bench (the service keeps 256 by default for a local embedder)
    if milvus_timeout_s is None:
        return Settings.model_construct(data_dir=data_dir, embedding_provider=embedder, query_vector_cache=0)
    return Settings.model_construct(data_dir=data_dir, embedding_provider=embedder, milvus_timeout_s=milvus_timeout_s,
                                    query_vector_cache=0)


@dataclass
class Instrumented:
    """The process resources with timed embedder and index."""

    resources: Any
    embed_watch: Stopwatch
    milvus_watch: Stopwatch


def open_resources(data_dir: Path, embedder: Embeddings, provider: str = "auto",
                   milvus_timeout_s: float | None = None) -> Instrumented:
    """Build the real resources for ``data_dir`` around a shared, timed embedder (``provider`` names it: the
    index records its fingerprint; ``milvus_timeout_s``: the deadline of each Milvus call, the service's when
    None)."""
    from app.container import build_resources

    # its own embedder is lazy and never loads
    resources = build_resources(bench_settings(data_dir, provider, milvus_timeout_s))
    embed_watch, milvus_watch = Stopwatch(), Stopwatch()
    timed = TimedEmbeddings(embedder, embed_watch)
    context = dataclasses.replace(resources.context, embedder=timed)
    ingestor = dataclasses.replace(
        resources.ingestor, embedder=timed, index=TimedIndex(resources.index, milvus_watch)
    )
    return Instrumented(
        dataclasses.replace(resources, context=context, ingestor=ingestor), embed_watch, milvus_watch
    )


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
    """This environment without service configuration, pointed at ``data_dir`` (the embedder: the one its index
    records, ``auto``)."""
    drop = ("AER_", "MILVUS_", "REDIS_", "OPENAI_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    return {**env, "AER_DATA_DIR": str(data_dir.resolve()), "AER_EMBEDDING_PROVIDER": "auto",
            "PYTHONUNBUFFERED": "1"}


class BenchServer:
    """``aer serve`` in its own session on a free loopback port; ``stop()`` always ends its process group."""

    def __init__(self, data_dir: Path, log: Path, startup_timeout_s: float = 300.0,
                 env: dict[str, str] | None = None) -> None:
        self.data_dir = data_dir
        self.env = env or {}
        """Settings of this server over ``server_env``'s (``AER_EMBEDDING_PROVIDER``: a new index's embedder)."""
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
                serve_command(self.port), cwd=self.data_dir, env={**server_env(self.data_dir), **self.env}, stdout=log,
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
