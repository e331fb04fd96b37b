"""The ``aer`` group and what its commands share: the lazy offline tools' commands (``LAZY_COMMANDS``), the
``--server`` option and routing, the local stores opened and closed, a remote client with readable errors, and
the exit codes every command uses (``EXIT_*``)."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from typer.core import TyperCommand, TyperGroup

import app
from app.console import EXIT_PARTIAL, EXIT_REFUSED, EXIT_UNAVAILABLE, error, json_output, refused, unavailable  # noqa: F401

if TYPE_CHECKING:
    from app.client import RemoteClient
    from app.container import Resources
    from app.settings import Settings
    from app.workspaces import Workspaces


EntityType = Literal["PERSON", "ORGANIZATION", "PRODUCT", "EVENT", "LOCATION", "DATE", "CONCEPT", "OTHER"]
"""``graphs.domain.EntityType``, spelled here so that building the commands imports no model (a test keeps the
two equal)."""

LAZY_COMMANDS: dict[str, tuple[str, str, str]] = {
    "eval": ("app.tools.eval", "eval_command",
             "Measure retrieval (Recall@2/5, MRR) and answer quality (EM/F1) of a dataset, per search mode."),
    "fit-answerability": ("app.tools.fit_answerability", "fit_command",
                          "Fit the answerability score on the dev sets (unanswerable protocol), validate it "
                          "leave-one-dataset-out, and write the weights with the table and a note of the data."),
    "fit-fusion": ("app.tools.fit_fusion", "fit_fusion_command",
                   "Fit RRF k and the dense weight of hybrid search on eval sets (held-aside split, leave-one-dataset-out)."),
    "trial": ("app.tools.http_trial", "trial_command",
              "Upload a folder of your own documents to a running service and score its answers to your "
              "questions."),
    "bench": ("app.tools.bench.command", "bench_command",
              "Benchmark ingest, per-route latency, HTTP QPS and memory on synthetic bilingual data."),
    "reindex": ("app.cli.reindex", "reindex_command",
                "Re-embed every chunk with another embedder (e5, use, openai) into a new collection, then switch to it."),
    "loadtest": ("app.tools.loadtest", "loadtest_command",
                 "Sustained mixed load (queries + add-entity) on a real `aer serve`; fails on any error or lost "
                 "write."),
    "export-dpo": ("app.tools.dpo", "export_dpo_command",
                   "Export critical-step DPO pairs (D1 strategy, D2 continue/stop, D3 switch) from logged "
                   "trajectories."),
    "keys": ("app.cli.keys", "keys_cli", "API keys scoped to workspaces, with roles: create (printed once, stored "
             "hashed), list, revoke."),
    "local-llm": ("app.tools.local_llm", "local_llm_app",
                  "Install and serve the optional offline LLM (xllamacpp + Qwen2.5)."),
}
"""Commands imported only when run: name -> (module, attribute, the help ``aer --help`` lists)."""


def load_command(name: str) -> Any:
    """The click command of a lazy command (its module imported now)."""
    module, attr, about = LAZY_COMMANDS[name]
    target = getattr(importlib.import_module(module), attr)
    command: Any
    if isinstance(target, typer.Typer):
        command = typer.main.get_group(target)
        command.help = about
    else:
        single = typer.Typer(add_completion=False)
        single.command(name)(target)
        command = typer.main.get_command(single)
    command.name = name
    _plain_help(command)
    return command


def _plain_help(command: Any) -> None:
    """Plain click help for a command and its subcommands, like the rest of ``aer`` (a lazy command's own Typer
    would draw rich boxes: ``rich_markup_mode`` is set per Typer, and the module's Typer is not ``cli``)."""
    command.rich_markup_mode = None
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


class LazyGroup(TyperGroup):
    """The ``aer`` group, with the offline tools' commands listed by name and help and imported when run."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: set[str] = set()
        for name, (_, _, about) in LAZY_COMMANDS.items():
            self.commands.setdefault(name, TyperCommand(name, help=about))

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else None
        if name in LAZY_COMMANDS and name not in self._loaded:
            self.commands[name] = load_command(name)
            self._loaded.add(name)
        return super().resolve_command(ctx, args)


# Plain click help: Typer's rich help imports rich's markdown and traceback modules (about 0.3 s of CPU, more
# than all the rest of `aer --help`).
cli = typer.Typer(cls=LazyGroup, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                  help="Adaptive entity-routing RAG service.")

ServerOption = Annotated[
    str | None,
    typer.Option("--server", help="Use a running server (http://host:8000) instead of opening the local stores."),
]
ApiKeyOption = Annotated[
    str | None,
    typer.Option("--api-key", show_default=False, metavar="KEY",
                 help="The API key to send to the server (with --server, or the server a held data dir routes "
                      "to); default: AER_API_KEY, else the first of AER_API_KEYS. Never printed."),
]
WorkspaceOption = Annotated[
    str | None,
    typer.Option("--workspace", help="The workspace (knowledge base) to work in; default: AER_WORKSPACE, else "
                                     "`default` (`aer workspaces list` shows them)."),
]


def demo_dir() -> Path:
    """The bundled demo corpus and entity list."""
    packaged = Path(app.__file__).parent / "_demo"
    return packaged if packaged.is_dir() else Path(app.__file__).resolve().parent.parent / "demo"


def data_dir_holder(settings: Settings) -> bool:
    """Whether another process holds this data dir's Milvus Lite file (a Milvus server URI: never)."""
    if settings.milvus_uri:
        return False
    from graphs.stores.lite_lock import lite_file_locked

    return lite_file_locked(Path(settings.milvus_target()))


SERVED_AT = "served-at.json"
"""In the data dir while `aer serve` runs: the URL it answers on (``{"url": ..., "pid": ...}``). A command run
beside it finds the server there when it listens on another port than AER_PORT (`aer serve --port 8755`: the CLI
once said "add --server" although the server it needed was running)."""


def local_url(host: str, port: int) -> str:
    """The URL a process on this machine reaches a server bound to ``host:port`` at."""
    return f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"


def record_served_url(data_dir: Path, url: str) -> Path:
    """Write where `aer serve` answers into its data dir; the path, for `forget_served_url`."""
    path = data_dir / SERVED_AT
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"url": url, "pid": os.getpid()}) + "\n", encoding="utf-8")
    return path


def forget_served_url(path: Path) -> None:
    """Remove the record when it is still this process's (another `aer serve` may have taken the data dir since)."""
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError, AttributeError):
        pass


def _answers(url: str) -> bool:
    import httpx

    try:
        answer = httpx.get(f"{url}/healthz", timeout=2.0)
        return answer.status_code == 200 and answer.json().get("status") == "ok"
    except (httpx.HTTPError, ValueError, AttributeError):
        return False


def local_server(settings: Settings) -> str | None:
    """The URL of this service answering on the configured host and port, else at the URL the `aer serve` that
    holds this data dir recorded there (a stale record: it does not answer), or None."""
    url = local_url(settings.host, settings.port)
    if _answers(url):
        return url
    try:
        record = json.loads((settings.data_dir / SERVED_AT).read_text(encoding="utf-8"))
        recorded, pid = record.get("url"), record.get("pid")
    except (OSError, ValueError, AttributeError):
        return None
    if not (isinstance(recorded, str) and isinstance(pid, int) and recorded != url and _alive(pid)):
        return None  # a stale record (a killed server): its port may be another server's now
    return recorded if _answers(recorded) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def locked_out(settings: Settings) -> typer.Exit:
    """Say that the data dir is in use and how to reach the process using it (exit 3)."""
    return unavailable("data_dir_in_use", f"{settings.milvus_target()} is in use by another process (a running "
                       "`aer serve`?): add --server http://HOST:PORT to go through that server")


def route(server: str | None) -> str | None:
    """The server a command should use: ``--server`` when given; else, when another process holds the data dir,
    the server answering on AER_HOST:AER_PORT (said on stderr), or exit 3 with one line saying to add
    ``--server``; None: open the data dir here."""
    if server:
        return server
    from app.settings import Settings

    settings = Settings()
    if not data_dir_holder(settings):
        return None
    url = local_server(settings)
    if url is None:
        raise locked_out(settings)
    typer.secho(f"note: {settings.milvus_target()} is in use by the server at {url}: using it (--server {url})",
                fg="yellow", err=True)
    return url


def workspace_name(workspace: str | None, settings: Settings | None = None) -> str:
    """The workspace a command works in (``--workspace``, else AER_WORKSPACE, else ``default``); a name that
    cannot be one: one line, exit 2."""
    from app.errors import ServiceError
    from app.settings import Settings
    from app.workspaces import check_workspace_name

    name = workspace if workspace is not None else (settings or Settings()).workspace
    try:
        return check_workspace_name(name)
    except ServiceError as exc:
        raise refused(exc.code, exc.message, exc.details) from exc


@contextmanager
def service_errors() -> Iterator[None]:
    """A ServiceError raised inside becomes one error (its code and message) and exit code 2."""
    from app.errors import ServiceError

    try:
        yield
    except ServiceError as exc:
        raise refused(exc.code, exc.message, exc.details) from exc


@contextmanager
def opened_workspaces(settings: Settings | None = None) -> Iterator[Workspaces]:
    """The data dir's workspace registry (nothing started), closed afterwards, with store errors made readable
    (a data dir another process holds: one line, exit 3)."""
    from app.settings import Settings
    from app.workspaces import Workspaces
    from graphs.embeddings import EmbedderMismatch
    from graphs.stores.base import StoreError

    settings = settings or Settings()
    if data_dir_holder(settings):
        raise locked_out(settings)
    workspaces = Workspaces(settings)
    try:
        try:
            _ = workspaces.default  # opens the default workspace: the shared models every other one uses
        except EmbedderMismatch as exc:  # the message names both embedders and `aer reindex`
            raise refused("embedder_mismatch", str(exc)) from exc
        except StoreError as exc:
            raise _store_failed(exc) from exc
        try:
            yield workspaces
        except StoreError as exc:  # a store first touched by the command itself (the registry opens lazily)
            raise _store_failed(exc) from exc
    finally:
        workspaces.close()


def _store_failed(exc: Exception) -> typer.Exit:
    """One line and a hint for a store the command could not use (exit 3): `aer workspaces list` run while an
    `aer serve` was starting on the data dir printed two pages of rich traceback (the server took the Milvus Lite
    file between the check above and the command's first count)."""
    return unavailable("store_unavailable", str(exc),
                       hint="is a server already using this data dir? Only one process may open a Milvus Lite file "
                            "(add --server URL to go through it).")


@contextmanager
def opened(settings: Settings | None = None, workspace: str | None = None) -> Iterator[Resources]:
    """Open the resources of a workspace (``workspace``, else AER_WORKSPACE, else ``default``) and close them
    afterwards, with store errors made readable (a data dir another process holds: one line, exit 3; a
    workspace that does not exist: one line, exit 2)."""
    from app.settings import Settings

    settings = settings or Settings()
    name = workspace_name(workspace, settings)
    with opened_workspaces(settings) as workspaces:
        yield open_workspace(workspaces, name)


def unknown_workspace(name: str, known: list[str], server: str | None = None, said: str | None = None) -> typer.Exit:
    """Say that a workspace does not exist (``said``: the server's words for it): how to create it and, of the
    workspaces the caller may use (``known``), the one most likely meant (``newuser`` for ``newuser9``)."""
    from app.errors import nearest

    meant = nearest(name, known)
    create = f"aer workspaces create {name}" + (f" --server {server}" if server else "")
    return refused("workspace_not_found", (said or f"no workspace {name!r}")
                   + (f" (did you mean {meant!r}? or create it: {create})" if meant else f" (create it: {create})"),
                   {"workspace": name, **({"suggestion": meant} if meant else {})})


def open_workspace(workspaces: Workspaces, name: str) -> Resources:
    """Workspace ``name`` of an open registry; one that does not exist: one line, exit 2."""
    from app.workspaces import UnknownWorkspace

    try:
        return workspaces.get(name)
    except UnknownWorkspace as exc:
        raise unknown_workspace(name, workspaces.names()) from exc


@contextmanager
def remote(server: str, workspace: str | None = None, api_key: str | None = None) -> Iterator[RemoteClient]:
    """A client of a running server, with its errors made readable (exit 2; 3 when unreachable or a 5xx), sending every
    call to ``workspace`` (else AER_WORKSPACE; neither: the server's default or the key's own).

    The API key it sends: ``api_key`` (``--api-key``), else AER_API_KEY, else the first of ``AER_API_KEYS`` (so one
    environment serves both ends); none: no key.
    """
    from app.api.workspace_scope import HEADER
    from app.client import RemoteClient, RemoteError
    from app.settings import Settings

    settings = Settings()
    key = api_key or (settings.api_key.get_secret_value() if settings.api_key else None) or (
        settings.api_keys[0].get_secret_value() if settings.api_keys else None)
    name = workspace if workspace is not None else (settings.workspace if "workspace" in settings.model_fields_set
                                                    else None)
    try:
        with RemoteClient(server, api_key=key) as client:
            if name is not None:
                client._http.headers[HEADER] = workspace_name(name)
            yield client
    except RemoteError as exc:
        if exc.code == "workspace_not_found" and isinstance(exc.details, dict) and exc.details.get("keyWorkspace"):
            # a key for one workspace: the server said which; creating the one asked is not this key's to do
            error(exc.code, exc.message, exc.details,
                  hint=f"--workspace {exc.details['keyWorkspace']} (or leave it out: the key's own workspace)")
            raise typer.Exit(EXIT_REFUSED) from exc
        if exc.code == "workspace_not_found" and isinstance(exc.details, dict) and exc.details.get("workspace"):
            meant = exc.details.get("suggestion")  # the server's guess: said once, in this line's own words
            said = exc.message.removesuffix(f" (did you mean {meant!r}?)") if meant else exc.message
            raise unknown_workspace(str(exc.details["workspace"]), _visible_workspaces(server, key), server,
                                    said) from exc
        hint = None
        if exc.status == 401:
            hint = (no_key_hint(settings).removeprefix("hint: ") if key is None else
                    "the key sent (--api-key, else AER_API_KEY, else the first of AER_API_KEYS) is not one this "
                    "server knows")
        error(exc.code, exc.message, exc.details, hint=hint)
        raise typer.Exit(EXIT_UNAVAILABLE if exc.status == 0 or exc.status >= 500 else EXIT_REFUSED) from exc


def no_key_hint(settings: Settings) -> str:
    """What a 401 without a key tells the user: where the key they lack comes from. With no ``AER_API_KEYS``,
    the keys ``aer keys create`` made in this data dir closed the service, and the user may hold none of them
    (they made a read key for a colleague)."""
    from app.services.keys import KeyStore, keys_file

    path = keys_file(settings.data_dir)
    if settings.api_keys or not path.is_file():
        return "hint: give the server's key with --api-key KEY (or AER_API_KEY)"
    store = KeyStore(path)
    try:
        made = store.active()
    finally:
        store.close()
    return ("hint: keys made by `aer keys create` close this service (aer keys list); send one with --api-key KEY "
            "or AER_API_KEY=KEY, or make your own: aer keys create --role admin --label me" if made else
            "hint: give the server's key with --api-key KEY (or AER_API_KEY)")


def _visible_workspaces(server: str, key: str | None) -> list[str]:
    """The workspaces a server lets this key use (what an unknown name is compared with: a key scoped to one
    workspace learns of no other); none where the listing fails (the error already said what went wrong)."""
    from app.client import RemoteClient, RemoteError

    try:
        with RemoteClient(server, api_key=key) as client:
            return [str(w.get("name")) for w in client.list_workspaces() if isinstance(w, dict)]
    except RemoteError:
        return []
