"""A request a model's own validator refuses is a 422 whose message is the validator's sentence, never pydantic's
words about itself ("Value error, ..."): the chat endpoint once answered a client "body: Value error, the last
message must be the user's question"."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, model_validator

from app.api.errors import install_error_handlers


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

    return TestClient(app)


def test_a_validators_sentence_is_the_message_without_pydantics_prefix() -> None:
    r = client().post("/orders", json={"count": 0})
    assert r.status_code == 422
    error = r.json()["error"]
    assert (error["code"], error["message"]) == ("invalid_request", "body: the count must be at least 1")
    assert [d["msg"] for d in error["details"]] == ["the count must be at least 1"]
