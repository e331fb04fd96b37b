"""``/api/adaptive-entity-rag/keys``: keys scoped to workspaces over the API (what ``aer keys`` does on the
server's machine). Every call needs an admin key for every workspace (the guard: ``KEYS_PATHS``), sent with the
request: on a service without keys, where everything else is open, no client may create the first key and lock
the others out (the first one is made with ``aer keys create``)."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import JSONResponse

from app.api.workspace_scope import principal_of
from app.errors import ServiceError
from app.schemas import API_PATH
from app.schemas.keys import CreatedKey, CreateKeyRequest, KeyList, KeyRecord, RevokedKey
from app.services.keys import KeyStore


def a_key_was_sent(request: Request) -> None:
    """403 ``forbidden`` unless the guard admitted the request by a key (not because the service is open)."""
    if principal_of(request).key_id is None:
        raise ServiceError("forbidden", "forbidden", "keys are managed with an admin key for every workspace; "
                           "create the first one on the server's machine: aer keys create --role admin")


router = APIRouter(prefix=f"{API_PATH}/keys", tags=["keys"], dependencies=[Depends(a_key_was_sent)])


def _store(request: Request) -> KeyStore:
    store: KeyStore = request.app.state.guard.stored.open()
    return store


@router.get("", response_model=KeyList)
async def list_keys(request: Request, revoked: Annotated[bool, Query(description="Also the revoked keys.")] = False
                    ) -> KeyList:
    """The keys' records (never a key)."""
    records = await asyncio.to_thread(lambda: _store(request).list(revoked=revoked))
    return KeyList(keys=[KeyRecord.model_validate(r.as_dict()) for r in records])


@router.post("", status_code=201, response_model=CreatedKey,
             responses={422: {"description": "invalid_request, invalid_workspace, workspace_required"}})
async def create_key(request: Request, body: CreateKeyRequest) -> JSONResponse:
    """Create a key; the response holds it this once (only its digest is stored)."""
    key, record = await asyncio.to_thread(lambda: _store(request).create(body.role, body.workspace, body.label))
    return JSONResponse(CreatedKey.model_validate({**record.as_dict(), "key": key}).model_dump(by_alias=True),
                        status_code=201)


@router.delete("/{key_id}", response_model=RevokedKey, responses={404: {"description": "key_not_found"}})
async def revoke_key(request: Request, key_id: Annotated[str, Path(max_length=12)]) -> RevokedKey:
    """Revoke a key: refused (401) from the next request on."""
    record = await asyncio.to_thread(lambda: _store(request).revoke(key_id))
    return RevokedKey.model_validate(record.as_dict())
