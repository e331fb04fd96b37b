"""The one redaction of every log line: the values of secret-like URL parameters become ``***``.

A key sent in a query string (``?api_key=…``, ``&bearer=…``, ``;pw=…``) reaches the access log, and a URL with
one can reach an error message or a traceback (an upstream's ``?api-key=``). ``RedactSecrets`` runs ``redact``
on a record's message, arguments and traceback; ``aer serve`` puts it on uvicorn's loggers and handlers, and the
CLI on the root logger's handlers (``install_redaction``). Light on purpose: the CLI imports it at start.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

REDACTED = "***"
# A parameter name that may carry a secret: any of these anywhere in it, case-insensitive, after percent-decoding
# (``X-Api-Key``, ``bearer``, ``pass``, ``pw``, ``client_secret``, ``X-Amz-Signature``, ``sessionid``, ...).
# Redacting a harmless name too (``passage``) costs a log line a value; missing one leaks a key.
_SECRET_NAME = re.compile(r"key|token|secret|pass|pw|auth|bearer|sig|credential|session|jwt|cookie|private|cert",
                          re.IGNORECASE)
# ``name=value`` after a ``?``, ``&`` or ``;`` (query separators and path parameters): the name and the value,
# which runs on over a ``?`` unless that ``?`` opens the query's first ``name=`` (``/a;sid=X?action=list``).
_PARAMETER = re.compile(r"(?P<lead>[?&;])(?P<name>[^=&;?#\s\"']*)="
                        r"(?P<value>(?:[^&;#\s\"'?]|\?(?![^=&;?#\s\"']*=))*)")
_URL_ENCODED_ROUNDS = 3  # ``%2570ass`` is ``%70ass`` is ``pass``


def secret_name(name: str) -> bool:
    """Whether a parameter ``name`` (as sent: percent-encoded, any case) names a secret."""
    for _ in range(_URL_ENCODED_ROUNDS):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return _SECRET_NAME.search(name) is not None


def redact(text: str) -> str:
    """``text`` with the value of every secret-like ``name=value`` parameter of a URL in it replaced by ``***``
    (after ``?``, ``&`` or ``;``): the one redaction of every log line (access, errors, tracebacks)."""
    if "=" not in text:
        return text
    return _PARAMETER.sub(lambda m: f"{m['lead']}{m['name']}={REDACTED}" if secret_name(m["name"]) else m[0], text)


def redact_query(target: str) -> str:
    """``target`` (a path with its query string) with the values of secret-like parameters replaced by ``***``."""
    return redact(target)


class RedactSecrets(logging.Filter):
    """A log filter that redacts secret-like URL parameters in a record: its message, its string arguments and
    its traceback (the access log's ``%s - "%s %s HTTP/%s" %d`` keeps its arguments, which uvicorn's access
    formatter reads one by one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        if isinstance(record.msg, str) and (clean := redact(record.msg)) != record.msg:
            try:
                record.msg, record.args = redact(record.getMessage()), ()
            except (TypeError, ValueError):
                record.msg = clean
        if record.exc_info and not record.exc_text:
            record.exc_text = _TRACEBACKS.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_TRACEBACKS = logging.Formatter()


def install_redaction(logger: logging.Logger | None = None) -> None:
    """Put ``RedactSecrets`` on every handler of ``logger`` (the root logger by default): records that other
    loggers propagate to it pass a handler's filters, never the logger's."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, RedactSecrets) for f in handler.filters):
            handler.addFilter(RedactSecrets())
