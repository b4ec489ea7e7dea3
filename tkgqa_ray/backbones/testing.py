"""Test doubles for code that calls a backbone: a scripted OpenAI-compatible HTTP server.

Other modules' tests can use it to drive their LLM code paths without a model::

    with ScriptedServer(lambda body, n: (200, chat_response('{"answers": []}'))) as srv:
        backbone = build_backbone({"name": "t", "kind": "openai", "base_url": srv.base_url, "model": "m"})
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def chat_response(text: str, prompt_tokens: int = 11, completion_tokens: int = 5, usage: bool = True,
                  model: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "x",
        "object": "chat.completion",
        **({"model": model} if model else {}),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
    }
    if usage:
        body["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                         "total_tokens": prompt_tokens + completion_tokens}  # fmt: skip
    return body


# What a ScriptedServer's GET /v1/models lists unless a test says otherwise (vLLM-style entry).
DEFAULT_MODELS = [{"id": "m", "object": "model", "root": "/models/m"}]

# A reply is (status, json body) or ("sleep", seconds) to force a client timeout.
Reply = tuple[Any, Any]


class ScriptedServer:
    """An OpenAI-compatible ``/v1/chat/completions`` on 127.0.0.1 whose replies a test scripts.

    ``script(request_json, n) -> Reply`` is called for each request (n = 0-based request count);
    every request's JSON body and headers are recorded in ``requests``. ``GET /v1/models``
    lists ``models`` (what the server says it serves; ``None`` = 404, as on servers without
    that endpoint); ``model_probes`` counts those calls.
    """

    def __init__(self, script: Callable[[dict[str, Any], int], Reply],
                 models: list[dict[str, Any]] | None = DEFAULT_MODELS) -> None:
        self.script = script
        self.models = models
        self.model_probes = 0
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep pytest output quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                outer.model_probes += 1
                ok = self.path.rstrip("/").endswith("/models") and outer.models is not None
                data = json.dumps({"object": "list", "data": outer.models} if ok else {"error": "not found"}).encode()
                self.send_response(200 if ok else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer._lock:
                    n = len(outer.requests)
                    outer.requests.append(body)
                    outer.headers.append(dict(self.headers))
                status, payload = outer.script(body, n)
                try:
                    if status == "sleep":
                        time.sleep(payload)
                        return
                    data = json.dumps(payload).encode() if not isinstance(payload, str) else payload.encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> "ScriptedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
