"""The keys resource (``/api/adaptive-entity-rag/keys``): create, list and revoke keys scoped to workspaces."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import WIRE_TIME, Wire, WireRequest


class CreateKeyRequest(WireRequest):
    role: Literal["read", "write", "admin"] = Field(description="read < write < admin (each with the rights of the one "
                                                                "before).")
    workspace: str | None = Field(default=None, max_length=32, description="The key's workspace; null: every "
                                  "workspace (admin keys only).", examples=["sales"])
    label: str = Field(default="", max_length=200, description="A note on whose key it is (listed, never secret).")


class KeyRecord(Wire):
    """A key's record: never the key (only its SHA-256 digest is stored)."""

    id: str = Field(description="Names the key in lists, logs and the rate limit: aer_<id>_<secret>.")
    role: Literal["read", "write", "admin"]
    workspace: str | None = Field(description="null: every workspace.")
    label: str
    created_at: str = Field(description=WIRE_TIME + ".")
    last_used: str | None = Field(description=f"{WIRE_TIME}; written at most once a minute.")
    revoked_at: str | None = Field(description=WIRE_TIME + ".")


class CreatedKey(KeyRecord):
    success: Literal[True] = True
    key: str = Field(description="The key itself, returned this once: store it now.")


class KeyList(Wire):
    success: Literal[True] = True
    keys: list[KeyRecord]


class RevokedKey(KeyRecord):
    success: Literal[True] = True
