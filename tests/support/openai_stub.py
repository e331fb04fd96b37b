"""A scripted OpenAI-compatible server on a loopback port: chat completions and embeddings.

The service talks to it through its real clients (``ChatOpenAI``, ``OpenAIEmbeddings``) exactly as to
OpenAI, vLLM or llama.cpp; a test switches ``chat`` / ``embeddings`` between ``ok`` and a fault:

- ``slow``: answer after ``delay_s`` (past the service's timeout);
- ``invalid_json``: structured-output requests get prose instead of JSON (plain-text requests are fine);
- ``http_503``: an HTTP 503 with an OpenAI error body;
- ``disconnect``: close the connection without a response (a crashed or restarting upstream).
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Mode = Literal["ok", "slow", "invalid_json", "http_503", "disconnect"]
EMBED_DIM = 64
ANSWER = "根据资料，机器学习是人工智能的一个分支[1]。"


def embed(text: str) -> list[float]:
    """A bag of hashed characters and words, normalized: texts sharing characters are similar."""
    vec = [0.0] * EMBED_DIM
    for token in [*text, *text.split()]:
        if token.strip():
            vec[int(hashlib.md5(token.encode()).hexdigest(), 16) % EMBED_DIM] += 1.0
    norm = math.sqrt(sum(v * v for v in vec)) or 1.0
    return [v / norm for v in vec]


def extraction(prompt: str) -> dict[str, Any]:
    """A valid QueryExtraction for the question in the prompt."""
    conceptual = "什么是" in prompt or "what is" in prompt.lower()
    return {"entities": [], "negated": [], "intent": "conceptual" if conceptual else "factual",
            "complexity": "simple", "keywords": [], "confidence": 0.9}


class OpenAIStub:
    """Start with ``with OpenAIStub() as stub:``; ``stub.url`` is the ``/v1`` base URL."""

    def __init__(self, delay_s: float = 10.0) -> None:
        self.chat: Mode = "ok"
        self.embeddings: Mode = "ok"
        self.delay_s = delay_s
        self.requests: list[str] = []
        self.prompts: list[str] = []
        self.condensed = "腾讯是哪一年成立的？"  # the reply to a follow-up condensing prompt (<conversation>)
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, body: Any) -> None:
                data = json.dumps(body, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _fault(self, mode: Mode) -> bool:
                """Act out a fault; True when the request is answered (or dropped) by it."""
                if mode == "slow":
                    time.sleep(stub.delay_s)
                    return False  # then answer normally: the client has given up by now
                if mode == "http_503":
                    self._json(503, {"error": {"message": "overloaded", "type": "server_error", "code": None}})
                    return True
                if mode == "disconnect":
                    self.close_connection = True
                    return True
                return False

            def do_GET(self) -> None:
                self._json(200, {"object": "list", "data": [{"id": "stub", "object": "model", "owned_by": "test"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                stub.requests.append(self.path)
                try:
                    if self.path.endswith("/embeddings"):
                        if not self._fault(stub.embeddings):
                            inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                            self._json(200, {"object": "list", "model": body.get("model"),
                                             "data": [{"object": "embedding", "index": i, "embedding": embed(str(t))}
                                                      for i, t in enumerate(inputs)],
                                             "usage": {"prompt_tokens": 1, "total_tokens": 1}})
                    elif self.path.endswith("/chat/completions"):
                        if not self._fault(stub.chat):
                            self._complete(body)
                    else:
                        self._json(404, {"error": {"message": "no such route"}})
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout) while we were slow

            def _complete(self, body: dict[str, Any]) -> None:
                prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
                stub.prompts.append(prompt)
                if body.get("response_format"):
                    content = ("Sure! The question is conceptual and names no entities."
                               if stub.chat == "invalid_json" else json.dumps(extraction(prompt), ensure_ascii=False))
                elif "<conversation>" in prompt:
                    content = stub.condensed
                else:
                    content = ANSWER
                if body.get("stream"):
                    self._stream(body, content)
                    return
                self._json(200, {"id": "c", "object": "chat.completion", "created": 0, "model": body.get("model"),
                                 "choices": [{"index": 0, "finish_reason": "stop",
                                              "message": {"role": "assistant", "content": content}}],
                                 "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

            def _stream(self, body: dict[str, Any], content: str) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                self.close_connection = True

                def chunk(delta: dict[str, Any], finish: str | None) -> bytes:
                    event = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": body.get("model"),
                             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                    return f"data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()

                self.wfile.write(chunk({"role": "assistant", "content": content}, None))
                self.wfile.write(chunk({}, "stop"))
                self.wfile.write(b"data: [DONE]\n\n")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> OpenAIStub:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
