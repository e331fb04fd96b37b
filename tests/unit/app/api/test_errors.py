"""A request a model's own validator refuses is a 422 whose message is the validator's sentence, never pydantic's
words about itself ("Value error, ..."): the chat endpoint once answered a client "body: Value error, the last
message must be the user's question". A mistyped field name or value is told the one most likely meant."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.api.errors import fields_at, install_error_handlers, nearest


class Order(BaseModel):
    count: int

    @model_validator(mode="after")
    def _positive(self) -> Order:
        if self.count < 1:
            raise ValueError("the count must be at least 1")
        return self


def client() -> TestClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/orders")
    async def order(body: Order) -> dict[str, int]:
        return {"count": body.count}

    @app.get("/orders/{number}")
    async def one(number: int) -> dict[str, int]:
        return {"number": number}

    @app.delete("/orders/{number}")
    async def cancel(number: int) -> dict[str, int]:
        return {"number": number}

    return TestClient(app)


def test_a_validators_sentence_is_the_message_without_pydantics_prefix() -> None:
    r = client().post("/orders", json={"count": 0})
    assert r.status_code == 422
    error = r.json()["error"]
    assert (error["code"], error["message"]) == ("invalid_request", "body: the count must be at least 1")
    assert [d["msg"] for d in error["details"]] == ["the count must be at least 1"]


def test_a_missed_route_says_which_request_missed_and_where_the_endpoints_are() -> None:
    r = client().get("/api/documents", params={"workspace": "newuser8"})
    error = r.json()["error"]
    assert (r.status_code, error["code"]) == (404, "not_found")
    assert error["message"].startswith("no endpoint GET /api/documents: ") and "/docs" in error["message"]
    assert "?action=documents" in error["message"]


def test_a_wrong_method_names_the_methods_the_endpoint_takes_and_keeps_allow() -> None:
    r = client().get("/orders")
    error = r.json()["error"]
    assert (r.status_code, error["code"]) == (405, "method_not_allowed")
    assert error["message"] == "GET /orders is not allowed: this endpoint takes POST"
    assert r.headers["allow"] == "POST"  # RFC 9110: a 405 names the methods it allows


def test_an_explicit_not_found_keeps_its_own_message() -> None:
    from fastapi import HTTPException

    app = FastAPI()
    install_error_handlers(app)

    @app.get("/things/{name}")
    async def thing(name: str) -> None:
        raise HTTPException(404, f"no thing {name!r}")

    r = TestClient(app).get("/things/x")
    assert (r.status_code, r.json()["error"]["message"]) == (404, "no thing 'x'")


def test_a_405_names_every_method_the_path_takes_not_only_the_first_routes() -> None:
    """Two routes on one path (as the action endpoint's POST and GET ?action=): the router's 405 named only the
    first route's methods."""
    r = client().post("/orders/7", json={})
    assert r.status_code == 405 and r.headers["allow"] == "DELETE, GET"
    assert r.json()["error"]["message"] == "POST /orders/7 is not allowed: this endpoint takes DELETE, GET"


def test_a_405_on_a_router_included_with_dependencies_names_its_methods() -> None:
    """``include_router(..., dependencies=...)`` (as the service's own routers) wraps the routes: the methods are
    asked of each route, not read from it."""
    from fastapi import APIRouter, Depends

    app = FastAPI()
    install_error_handlers(app)
    router = APIRouter(prefix="/act")

    @router.post("")
    async def act() -> None: ...

    @router.get("")
    async def read() -> None: ...

    app.include_router(router, dependencies=[Depends(lambda: None)])
    r = TestClient(app).delete("/act")
    assert (r.status_code, r.headers["allow"]) == (405, "GET, POST")
    assert r.json()["error"]["message"] == "DELETE /act is not allowed: this endpoint takes GET, POST"


# -- "did you mean": a mistyped field name or value is told the one meant ---------------------------------------


class Line(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    sku: str
    unit_price: int = Field(alias="unitPrice")


class Ship(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["ship"]
    lines: list[Line]
    speed: Literal["standard", "express", "overnight"] = "standard"


class Collect(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["collect"]
    store: str


Parcel = Annotated[Ship | Collect, Field(discriminator="kind")]


class Loose(BaseModel):  # extra fields allowed, as a chat client's body
    recipients: list[str]
    note: str | None = None


def parcels() -> TestClient:
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/parcels")
    async def parcel(body: Parcel) -> dict[str, str]:
        return {"kind": body.kind}

    @app.post("/letters")
    async def letter(body: Loose) -> dict[str, int]:
        return {"recipients": len(body.recipients)}

    return TestClient(app)


@pytest.mark.parametrize(("word", "choices", "meant"), [
    ("unitprice", ["sku", "unitPrice"], "unitPrice"), ("unit-price", ["unitPrice"], "unitPrice"),
    ("recipents", ["recipients", "note"], "recipients"), ("expres", ["standard", "express"], "express"),
    ("colour", ["sku", "unitPrice"], None), ("sku", ["sku", "unitPrice"], None), ("", ["sku"], None),
    (3, ["sku"], None),
    # by words: the one choice holding all of the word's words, or held by them, ending alike
    ("price", ["sku", "unitPrice"], "unitPrice"), ("docId", ["action", "id"], "id"),
    ("document_id", ["id", "title"], "id"), ("mode", ["searchMode", "answerMode"], None),
    ("modeSearch", ["searchMode"], None),
])
def test_nearest_is_the_choice_equal_but_for_case_and_separators_else_the_closest_spelling(
        word: object, choices: list[str], meant: str | None) -> None:
    assert nearest(word, choices) == meant


def test_fields_at_walks_a_union_branch_list_items_and_aliases() -> None:
    assert fields_at(Parcel, ["ship"]) == ["kind", "lines", "speed"]
    assert fields_at(Parcel, ["ship", "lines", 2]) == ["sku", "unitPrice"]
    assert fields_at(Parcel, ["collect"]) == ["kind", "store"]
    assert fields_at(Parcel, ["ship", "nowhere"]) is None


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/parcels", {"kind": "ship", "lines": [{"sku": "a1", "unitprice": 3}]},
     "lines[0].unitprice' (did you mean 'unitPrice'?)"),
    ("/parcels", {"kind": "ship", "lines": [{"sku": "a1", "unitprice": 3}]}, "unitPrice: Field required;"),
    ("/parcels", {"kind": "ship", "lines": [], "sped": "express"}, "sped' (did you mean 'speed'?)"),
    ("/parcels", {"kind": "ship", "lines": [], "speed": "expres"}, "(did you mean 'express'?)"),
    ("/parcels", {"kind": "colect", "store": "x"}, "(did you mean 'collect'?)"),
    ("/letters", {"recipient": ["Ann"]}, "recipients: Field required (sent as 'recipient'?)"),
    ("/parcels", {"kind": "collect", "store": "x", "colour": "red"}, "colour'"),
])
def test_a_mistyped_name_or_value_is_told_the_one_meant(path: str, body: dict[str, object], message: str) -> None:
    r = parcels().post(path, json=body)
    assert r.status_code in (400, 422), r.text
    assert message in r.json()["error"]["message"], r.json()["error"]


@pytest.mark.parametrize(("path", "body", "message"), [
    # one required field missing and one unknown key sent at the same place: the key was meant as the field,
    # however it is spelled (a user of another API writes "query" or "text" for "question")
    ("/parcels", {"kind": "collect", "shop": "x"}, "shop' (did you mean 'store'?)"),
    ("/letters", {"to": ["Ann"]}, "recipients: Field required (sent as 'to'?)"),
    ("/parcels", {"kind": "ship", "lines": [{"sku": "a1", "amount": 3}]},
     "lines[0].amount' (did you mean 'unitPrice'?)"),
])
def test_the_one_unknown_key_beside_the_one_missing_field_is_told_as_meant_for_it(
        path: str, body: dict[str, object], message: str) -> None:
    error = parcels().post(path, json=body).json()["error"]
    assert message in error["message"], error
    assert "sent as" not in error["message"] or "unknown field" not in error["message"], error  # told once


@pytest.mark.parametrize("body", [
    {"kind": "collect", "shop": "x", "colour": "red"},  # two unknown keys: no telling which was meant
    {"kind": "ship", "speed": "express", "items": []},  # unknown "items" with "lines" missing: a pair ...
])
def test_no_pairing_unless_exactly_one_missing_and_one_unknown(body: dict[str, object]) -> None:
    error = parcels().post("/parcels", json=body).json()["error"]
    pairs = [d for d in error["details"] if "suggestion" in d]
    if body.get("kind") == "collect":
        assert pairs == [], error
    else:
        assert [(d["loc"][-1], d["suggestion"]) for d in pairs] == [("items", "lines")], error


def test_no_suggestion_where_nothing_is_near() -> None:
    error = parcels().post("/parcels", json={"kind": "collect", "store": "x", "colour": "red"}).json()["error"]
    assert "did you mean" not in error["message"] and "suggestion" not in error["details"][0]


def test_the_suggestion_is_also_in_the_details() -> None:
    error = parcels().post("/letters", json={"recipient": ["Ann"]}).json()["error"]
    assert error["details"][0]["suggestion"] == "recipients" and error["details"][0]["sentAs"] == "recipient"
