"""The one redaction of every log line: secret-like URL parameters under any name, after any separator, in
any part of a record (message, arguments, traceback), on every handler."""

from __future__ import annotations

import io
import logging

import pytest

from app.api.serving import log_config
from app.observability.redaction import RedactSecrets, install_redaction, redact, secret_name

SECRET = "s3cr3t-VALUE"
NAMES = ["key", "api_key", "apikey", "apiKey", "X-Api-Key", "token", "access_token", "id_token", "bearer", "Bearer",
         "pass", "passwd", "password", "PASSWORD", "pw", "pwd", "secret", "client_secret", "auth", "authorization",
         "sig", "signature", "X-Amz-Signature", "credential", "sessionid", "jwt", "private_key", "%70ass", "%2570w",
         "api%5Fkey", "p%61ssword", "Auth+Token"]
HARMLESS = ["action", "type", "limit", "offset", "q", "id", "title", "root", "source"]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lead", ["?", "&", ";"])
def test_a_secret_like_name_has_its_value_redacted_after_any_separator(name: str, lead: str) -> None:
    target = f"/api?action=entities{lead}{name}={SECRET}&limit=5" if lead != "?" else f"/api?{name}={SECRET}&limit=5"
    out = redact(target)
    assert SECRET not in out and f"{name}=***" in out and "limit=5" in out
    assert secret_name(name)


@pytest.mark.parametrize("name", HARMLESS)
def test_ordinary_parameters_are_kept(name: str) -> None:
    target = f"/api?{name}=v1;{name}=v2&{name}=v3"
    assert redact(target) == target and not secret_name(name)


def test_path_parameters_and_urls_inside_messages_are_redacted() -> None:
    assert redact(f"/api;jsessionid={SECRET}?action=documents") == "/api;jsessionid=***?action=documents"
    text = f"upstream failed: GET https://llm.example/v1/chat?api-version=2&api-key={SECRET} (timeout)"
    assert redact(text) == "upstream failed: GET https://llm.example/v1/chat?api-version=2&api-key=*** (timeout)"


def _record(logger: str, msg: str, args: tuple[object, ...], exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise RuntimeError(f"could not reach http://h/x?token={SECRET}")
        except RuntimeError:
            import sys
            exc_info = sys.exc_info()
    return logging.LogRecord(logger, logging.ERROR, __file__, 1, msg, args, exc_info)


def test_message_arguments_and_traceback_are_redacted() -> None:
    access = _record("uvicorn.access", '%s - "%s %s HTTP/%s" %d',
                     ("127.0.0.1:5000", "GET", f"/api?action=document;pw={SECRET}&bearer={SECRET}", "1.1", 401))
    assert RedactSecrets().filter(access)
    assert access.getMessage() == '127.0.0.1:5000 - "GET /api?action=document;pw=***&bearer=*** HTTP/1.1" 401'
    assert isinstance(access.args, tuple) and len(access.args) == 5  # uvicorn's access formatter unpacks them
    inline = _record("app", f"called /x?pass={SECRET} for %s", ("me",))
    assert RedactSecrets().filter(inline) and inline.getMessage() == "called /x?pass=*** for me"
    failed = _record("app", "request failed", (), exc=True)
    assert RedactSecrets().filter(failed)
    assert failed.exc_text and "token=***" in failed.exc_text and SECRET not in failed.exc_text


def test_every_handler_redacts_records_propagated_from_any_logger() -> None:
    config = log_config()
    assert all("redact_secrets" in h["filters"] for h in config["handlers"].values())
    stream = io.StringIO()
    root = logging.getLogger("aer-test-root")
    handler = logging.StreamHandler(stream)
    root.addHandler(handler)
    root.propagate = False
    try:
        install_redaction(root)
        install_redaction(root)  # once only
        assert sum(isinstance(f, RedactSecrets) for f in handler.filters) == 1
        logging.getLogger("aer-test-root.child").warning("GET /api?APIKEY=%s", SECRET)
        assert stream.getvalue().strip() == "GET /api?APIKEY=***"
    finally:
        root.removeHandler(handler)


def test_a_question_mark_inside_a_secret_value_does_not_end_it() -> None:
    assert redact(f"/api?token=ab?{SECRET}&limit=5") == "/api?token=***&limit=5"
