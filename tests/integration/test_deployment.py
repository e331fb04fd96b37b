"""docker-compose.yml, Dockerfile and .dockerignore: structure, and ``docker compose config`` where available.

No Docker engine is needed: the structure is checked by parsing the files, and ``docker compose config``
(which validates against the Compose schema and resolves variables without a daemon) runs when a Compose
v2 client is installed (``docker compose`` plugin or a standalone ``docker-compose`` v2); else it is skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
import yaml

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
CORE = ("etcd", "minio", "milvus-standalone", "redis", "api")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return compose["services"]


def env_of(service: dict[str, Any]) -> dict[str, str | None]:
    env = service.get("environment", {})
    if isinstance(env, list):
        return {k: (v if sep else None) for k, sep, v in (item.partition("=") for item in env)}
    return {k: None if v is None else str(v) for k, v in env.items()}


def depends(service: dict[str, Any]) -> dict[str, str]:
    deps = service.get("depends_on", {})
    if isinstance(deps, list):
        return dict.fromkeys(deps, "service_started")
    return {name: spec.get("condition", "service_started") for name, spec in deps.items()}


def healthcheck_test(service: dict[str, Any]) -> str:
    test = service["healthcheck"]["test"]
    return " ".join(test) if isinstance(test, list) else str(test)


# -- structure -------------------------------------------------------------------------------------


def test_core_services_run_without_a_profile(services: dict[str, dict[str, Any]]) -> None:
    assert set(CORE) <= set(services)
    for name in CORE:
        assert "profiles" not in services[name], f"{name} must start with a plain `docker compose up`"


@pytest.mark.parametrize(
    ("name", "image"),
    [
        ("milvus-standalone", r"milvusdb/milvus:v2\.[56]\.\d+"),
        ("etcd", r"quay\.io/coreos/etcd:v3\.5\.\d+"),
        ("minio", r"minio/minio:RELEASE\.[0-9TZ-]+"),
        ("redis", r"redis:7-alpine"),
    ],
)
def test_images_are_pinned(services: dict[str, dict[str, Any]], name: str, image: str) -> None:
    assert re.fullmatch(image, services[name]["image"]), services[name]["image"]


@pytest.mark.parametrize(
    ("name", "probe"),
    [
        ("etcd", "etcdctl endpoint health"),
        ("minio", "http://localhost:9000/minio/health/live"),
        ("milvus-standalone", "http://localhost:9091/healthz"),
        ("redis", "redis-cli ping"),
        ("api", "/readyz"),
    ],
)
def test_every_core_service_has_a_healthcheck(
    services: dict[str, dict[str, Any]], name: str, probe: str
) -> None:
    check = services[name]["healthcheck"]
    assert probe in healthcheck_test(services[name])
    assert {"interval", "timeout", "retries"} <= set(check)


def test_milvus_standalone_matches_the_official_layout(services: dict[str, dict[str, Any]]) -> None:
    milvus = services["milvus-standalone"]
    assert milvus["command"] == ["milvus", "run", "standalone"]
    env = env_of(milvus)
    assert env["ETCD_ENDPOINTS"] == "etcd:2379" and env["MINIO_ADDRESS"] == "minio:9000"
    assert "start_period" in milvus["healthcheck"]  # Milvus takes about a minute to become healthy
    assert any(str(v).endswith(":/var/lib/milvus") for v in milvus["volumes"])
    assert depends(milvus) == {"etcd": "service_healthy", "minio": "service_healthy"}


def test_api_waits_for_healthy_stores(services: dict[str, dict[str, Any]]) -> None:
    assert depends(services["api"]) == {"milvus-standalone": "service_healthy", "redis": "service_healthy"}


def test_api_is_built_here_and_published_on_8000(services: dict[str, dict[str, Any]]) -> None:
    api = services["api"]
    build = api["build"] if isinstance(api["build"], dict) else {"context": api["build"]}
    assert (ROOT / build["context"] / build.get("dockerfile", "Dockerfile")).resolve() == DOCKERFILE
    assert any(str(p).endswith(":8000") for p in api["ports"])
    assert "start_period" in api["healthcheck"]


def test_api_environment_points_at_the_compose_stores(
    services: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    api = services["api"]
    env = env_of(api)
    milvus = urlparse(env["MILVUS_URI"] or "")
    assert (milvus.scheme, milvus.hostname, milvus.port) == ("http", "milvus-standalone", 19530)
    redis = urlparse(env["REDIS_URL"] or "")
    assert (redis.scheme, redis.hostname, redis.port, redis.path) == ("redis", "redis", 6379, "/0")
    assert milvus.hostname in services and redis.hostname in services
    assert env["AER_DATA_DIR"] == "/data"
    assert any(str(v).endswith(":/data") for v in api["volumes"]), "the data dir must be on a volume"

    # The names are the ones Settings reads.
    for key in list(os.environ):
        if key.startswith(("AER_", "MILVUS_", "REDIS_")):
            monkeypatch.delenv(key)
    for key, value in env.items():
        if value is not None and "${" not in value:
            monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.milvus_uri == "http://milvus-standalone:19530"
    assert settings.redis_url == "redis://redis:6379/0"
    assert settings.data_dir == Path("/data")
    assert not settings.llm_enabled, "without the llm variables the api runs rule-based"


def test_named_volumes_are_declared(compose: dict[str, Any], services: dict[str, dict[str, Any]]) -> None:
    declared = set(compose.get("volumes") or {})
    for name, service in services.items():
        for volume in service.get("volumes", []):
            source = str(volume).split(":", 1)[0]
            if not source.startswith((".", "/", "$")):
                assert source in declared, f"{name} uses undeclared volume {source}"


def test_llm_profile_offers_an_openai_compatible_server(services: dict[str, dict[str, Any]]) -> None:
    llm = {name: s for name, s in services.items() if "llm" in s.get("profiles", [])}
    assert "ollama" in llm and llm["ollama"]["image"].startswith("ollama/ollama:")
    assert "healthcheck" in llm["ollama"]
    pull = llm["ollama-pull"]
    assert depends(pull) == {"ollama": "service_healthy"}
    assert "${AER_LLM_MODEL" in " ".join(pull["entrypoint"]), "pulls the model the api is told to use"
    assert env_of(pull)["OLLAMA_HOST"] == "http://ollama:11434"
    # The api passes the LLM variables through from the shell; unset by default.
    api_env = env_of(services["api"])
    for key in ("AER_LLM_BASE_URL", "AER_LLM_MODEL"):
        assert key in api_env and api_env[key] is None
    assert set(Settings.model_fields) >= {"llm_base_url", "llm_model", "llm_api_key"}
    header = COMPOSE_FILE.read_text(encoding="utf-8").split("services:", 1)[0]
    assert "COMPOSE_PROFILES=llm AER_LLM_BASE_URL=http://ollama:11434/v1" in header


# -- secure by default ---------------------------------------------------------------------------------

ENV_EXAMPLE = ROOT / ".env.example"
README = ROOT / "README.md"
# The README's command that creates .env with a fresh key (docker-compose.yml's header and .env.example too).
MAKE_ENV = ("sed \"s/^AER_API_KEYS=$/AER_API_KEYS=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')/\" "
            ".env.example > .env")
VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` against ``env`` (ValueError for a
    missing required variable, as ``docker compose`` stops with that error)."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match.group(1), match.group(2) or "", match.group(3) or ""
        current = env.get(name)
        if op.endswith("?") and not current:
            raise ValueError(f"{name}: {arg}")
        return current if current else arg if op.endswith("-") else ""

    return VARIABLE.sub(one, value)


def published(service: dict[str, Any], env: dict[str, str]) -> list[tuple[str, str, str]]:
    """(host address, host port, container port) of each published port, with ``env`` interpolated."""
    out = []
    for port in service.get("ports", []):
        parts = interpolate(str(port), env).split(":")
        assert len(parts) == 3, f"{port}: publish on an explicit host address"
        out.append((parts[0], parts[1], parts[2]))
    return out


def test_published_ports_are_bound_to_loopback_unless_overridden(services: dict[str, dict[str, Any]]) -> None:
    ports = {name: published(s, {}) for name, s in services.items() if s.get("ports")}
    assert set(ports) == {"api", "milvus-standalone"}  # etcd, MinIO and Redis stay on the compose network
    assert ports["api"] == [("127.0.0.1", "8000", "8000")]
    assert ports["milvus-standalone"] == [("127.0.0.1", "19530", "19530")]
    exposed = {name: published(s, {"AER_BIND": "0.0.0.0", "MILVUS_BIND": "0.0.0.0", "AER_PORT": "9000"})
               for name, s in services.items() if s.get("ports")}
    assert exposed["api"] == [("0.0.0.0", "9000", "8000")] and exposed["milvus-standalone"][0][0] == "0.0.0.0"


def test_the_api_refuses_to_start_without_keys(services: dict[str, dict[str, Any]],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    env = env_of(services["api"])
    assert env["AER_REQUIRE_API_KEYS"] == "true"
    with pytest.raises(ValueError, match="AER_API_KEYS"):
        interpolate(env["AER_API_KEYS"] or "", {})  # `docker compose up` stops with this message
    with pytest.raises(ValueError):
        interpolate(env["AER_API_KEYS"] or "", {"AER_API_KEYS": ""})
    resolved = {k: interpolate(v, {"AER_API_KEYS": "k1"}) for k, v in env.items() if v is not None}
    for key in list(os.environ):
        if key.startswith(("AER_", "MILVUS_", "REDIS_")):
            monkeypatch.delenv(key)
    for key, value in resolved.items():
        monkeypatch.setenv(key, value)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert [k.get_secret_value() for k in settings.api_keys] == ["k1"] and settings.require_api_keys
    assert settings.require_key_for_queries  # queries and reads need the key too unless .env opens them
    assert settings.rate_limit_per_minute == 120 and settings.cors_origins == [] and settings.forwarded_allow_ips == []


def test_env_example_lists_every_variable_compose_reads_and_no_secret() -> None:
    example = dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.startswith("#"))
    assert example["AER_API_KEYS"] == "", "the example never carries a key"
    read = set(VARIABLE.findall(COMPOSE_FILE.read_text(encoding="utf-8").split("services:", 1)[1]))
    security = {name for name, _, _ in read} - {"AER_LLM_MODEL"}
    assert security <= set(example), f"missing from .env.example: {security - set(example)}"
    assert example["AER_BIND"] == example["MILVUS_BIND"] == "127.0.0.1"


def test_the_readmes_compose_command_creates_a_key(tmp_path: Path) -> None:
    assert MAKE_ENV in README.read_text(encoding="utf-8")
    (tmp_path / ".env.example").write_text(ENV_EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run(["bash", "-c", MAKE_ENV], cwd=tmp_path, check=True, timeout=60)
    made = dict(line.split("=", 1) for line in (tmp_path / ".env").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#"))
    assert len(made["AER_API_KEYS"]) >= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", made["AER_API_KEYS"])
    settings = Settings(_env_file=tmp_path / ".env")  # type: ignore[call-arg]
    assert [k.get_secret_value() for k in settings.api_keys] == [made["AER_API_KEYS"]]


# -- Dockerfile and build context -------------------------------------------------------------------


def dockerfile_lines() -> list[str]:
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_dockerfile_installs_the_package_as_a_non_root_user() -> None:
    lines = dockerfile_lines()
    froms = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert froms and all(f == "python:3.11-slim" for f in froms)
    assert any(line.startswith("RUN ") and re.search(r'pip install (\.|"\.\[[a-z,-]+\]")', line) for line in lines)
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    final = lines[max(i for i, line in enumerate(lines) if line.startswith("FROM ")) :]
    assert any(line.startswith("USER ") for line in final)
    assert any(line.startswith("ENV ") and "AER_REQUIRE_API_KEYS=true" in line for line in final)
    [health] = [line for line in lines if line.startswith("HEALTHCHECK ")]
    assert "/readyz" in health
    [cmd] = [line for line in lines if line.startswith("CMD ")]
    assert json.loads(cmd[4:]) == ["aer", "serve", "--host", "0.0.0.0", "--port", "8000"]
    assert "EXPOSE 8000" in lines


def test_dockerfile_copies_everything_the_build_needs() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]
    needed = {
        "pyproject.toml",
        pyproject["project"]["readme"],
        *wheel["packages"],
        *wheel.get("force-include", {}),
    }
    copied: set[str] = set()
    for line in dockerfile_lines():
        if line.startswith("COPY ") and "--from=" not in line:
            copied.update(p.rstrip("/").removeprefix("./") for p in line.split()[1:-1])
    assert needed <= copied, f"missing from the image: {needed - copied}"
    for path in copied:
        assert (ROOT / path).exists(), path


def test_dockerignore_keeps_out_local_state_but_not_the_sources() -> None:
    patterns = {
        line.strip().rstrip("/")
        for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {".venv", "data", "models", ".git", ".env", "**/__pycache__", ".pytest_cache"} <= patterns
    for source in ("app", "graphs", "prompts", "demo", "pyproject.toml", "README.md"):
        assert source not in patterns and f"{source}/" not in patterns


# -- docker compose config (client only, no engine) ------------------------------------------------


def compose_command() -> list[str] | None:
    """``docker compose`` or a standalone Compose v2 ``docker-compose``; None when neither works."""
    for cmd in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(cmd[0]) is None:
            continue
        try:
            out = subprocess.run([*cmd, "version"], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if out.returncode == 0 and re.search(r"v?2\.\d+", out.stdout):
            return cmd
    return None


def compose_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AER_", "COMPOSE_", "MILVUS_", "REDIS_"))}
    return {**env, **extra}


@pytest.fixture(scope="module")
def compose_cli() -> list[str]:
    cmd = compose_command()
    if cmd is None:
        pytest.skip("no Docker Compose v2 client (`docker compose` / `docker-compose`) installed")
    return cmd


@pytest.mark.parametrize("profile", [None, "llm"])
def test_compose_config_is_valid(compose_cli: list[str], profile: str | None) -> None:
    args = [
        *compose_cli,
        "-f",
        str(COMPOSE_FILE),
        *(["--profile", profile] if profile else []),
        "config",
        "-q",
    ]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT, env=compose_env())
    assert out.returncode == 0, out.stderr


def test_compose_llm_profile_points_the_api_at_ollama(compose_cli: list[str]) -> None:
    env = compose_env(
        COMPOSE_PROFILES="llm", AER_LLM_BASE_URL="http://ollama:11434/v1", AER_LLM_MODEL="qwen2.5:1.5b"
    )
    args = [*compose_cli, "-f", str(COMPOSE_FILE), "config", "--format", "json"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    resolved = json.loads(out.stdout)["services"]
    assert {"ollama", "ollama-pull"} <= set(resolved)
    api_env = resolved["api"]["environment"]
    assert (
        api_env["AER_LLM_BASE_URL"] == "http://ollama:11434/v1" and api_env["AER_LLM_MODEL"] == "qwen2.5:1.5b"
    )
    assert resolved["ollama-pull"]["entrypoint"] == ["ollama", "pull", "qwen2.5:1.5b"]


def test_compose_default_profile_leaves_the_llm_out(compose_cli: list[str]) -> None:
    args = [*compose_cli, "-f", str(COMPOSE_FILE), "config", "--format", "json"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=60, cwd=ROOT, env=compose_env())
    assert out.returncode == 0, out.stderr
    resolved = json.loads(out.stdout)["services"]
    assert set(resolved) == set(CORE)
    assert resolved["api"]["environment"].get("AER_LLM_BASE_URL") is None
