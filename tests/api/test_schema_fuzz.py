"""Schema fuzzing: schemathesis generates requests from the OpenAPI spec and sends them to the real app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import response_schema_conformance
from starlette.types import ASGIApp, Receive, Scope, Send

from app.main import create_app
from app.settings import Settings


class RunningApp:
    """Forward requests to the app the fixture started; answer lifespan events itself.

    schemathesis would otherwise run the app's lifespan on its own loop and close it only at exit;
    the fixture builds the resources once and closes them when the module is done.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        await self.app(scope, receive, send)


# The spec needs no resources: load it from an app that is never started, then point at the running one.
TARGET = RunningApp(create_app(Settings(_env_file=None)))  # type: ignore[call-arg]
# Values that have broken stores before, mixed into generated strings and integers.
HOSTILE_STRINGS = ["\x00", "a\x01b", "\x1f", "\x7f", "   ", "\u3000", "\t\n", '" or 1 == 1 or "', "a||b", "a&&b",
                   "x) or (1 == 1", "%", "_", "\\", "|", "~7C", "\u202e", "Zoë 🚀", "北京|朝阳", "９９"]
HOSTILE_INTEGERS = [-1, 0, 2**31, 2**63, 10**20]
CONFIG = SchemathesisConfig.from_dict({
    "dictionaries": {"strings": {"values": HOSTILE_STRINGS}, "integers": {"values": HOSTILE_INTEGERS}},
    "generation": {"max-examples": 25, "dictionaries": {"string": {"dictionary": "strings", "probability": 0.3},
                                                        "integer": {"dictionary": "integers", "probability": 0.3}}},
    # Four actions share the POST operation: give it more examples.
    "operations": [{"include-method": "POST", "generation": {"max-examples": 100}}],
})
schema = schemathesis.openapi.from_asgi("/openapi.json", TARGET, config=CONFIG)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    spec_only = TARGET.app
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("fuzz"), _env_file=None))  # type: ignore[call-arg]
    with TestClient(app):
        TARGET.app = app
        yield
    TARGET.app = spec_only


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_no_input_gets_a_500_and_every_4xx_has_the_error_shape(case: Case, running: None) -> None:
    response = case.call()
    assert response.status_code < 500, (response.status_code, response.text[:500])
    if 400 <= response.status_code < 500:
        body = response.json()
        if case.path.startswith("/v1/"):  # OpenAI's error shape, which its clients read
            assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "param", "code"}
        else:
            assert body["success"] is False
            assert set(body["error"]) == {"code", "message", "details"}
        assert isinstance(body["error"]["code"], str) and body["error"]["message"]
    # Documented statuses match their documented bodies (every error status: the ErrorResponse model).
    case.validate_response(response, checks=[response_schema_conformance])
