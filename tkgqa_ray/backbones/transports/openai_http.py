"""OpenAI-compatible ``/v1/chat/completions`` over httpx (vLLM serve, hosted APIs, local servers).

Concurrency is a thread pool over one pooled ``httpx.Client``; a shared limiter spaces request
starts to at most ``qps`` per second; timeouts, connection errors, 408/409/429 and 5xx are
retried with exponential backoff + jitter (``Retry-After`` honoured), other 4xx (a prompt over
the context window, a bad model name, auth) fail at once. The API key is read from the
environment variable *named* in config (``api_key_env``), lives only in a :class:`Secret`, is
sent per request (never stored in client headers) and is scrubbed from every error message.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from tkgqa_ray.backbones.transports.base import ChatCall, Completion, Transport

log = logging.getLogger(__name__)

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class Secret:
    """Holds a credential; its repr/str never show it."""

    __slots__ = ("_value",)

    def __init__(self, value: str | None) -> None:
        self._value = value or None

    def get(self) -> str | None:
        return self._value

    def scrub(self, text: str) -> str:
        return text.replace(self._value, "***") if self._value else text

    def __bool__(self) -> bool:
        return self._value is not None

    def __repr__(self) -> str:
        return "Secret(***)" if self._value else "Secret(None)"

    __str__ = __repr__

    def __reduce__(self):  # pickled for Ray workers: re-read from the env there, not shipped
        raise TypeError("Secret is not picklable; transports re-read the key from the environment")


def read_api_key(api_key_env: str | None, required: bool) -> Secret:
    if not api_key_env:
        return Secret(None)
    value = os.environ.get(api_key_env)
    if not value and required:
        raise RuntimeError(
            f"the backbone needs an API key in the environment variable {api_key_env} (api_key_env); it is not set"
        )
    return Secret(value)


class RateLimiter:
    """Spaces request starts at least ``1/qps`` apart across threads (no bursts)."""

    def __init__(self, qps: float | None) -> None:
        self.interval = 1.0 / qps if qps and qps > 0 else 0.0
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        if not self.interval:
            return
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


class OpenAIHTTPTransport(Transport):
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = None,
        api_key_required: bool = False,
        qps: float | None = None,
        concurrency: int = 8,
        timeout_s: float = 120.0,
        connect_timeout_s: float = 10.0,
        max_retries: int = 4,
        backoff_s: float = 0.5,
        max_backoff_s: float = 30.0,
        supports_json_schema: bool = False,
        json_schema_strict: bool = False,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self._key = read_api_key(api_key_env, api_key_required)
        self.limiter = RateLimiter(qps)
        self.concurrency = max(1, int(concurrency))
        self.max_retries = max(0, int(max_retries))
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.guided_json = bool(supports_json_schema)
        self.json_schema_strict = json_schema_strict
        self.extra_body = dict(extra_body or {})
        self._timeout = httpx.Timeout(timeout_s, connect=connect_timeout_s)
        self._client: httpx.Client | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._identity: dict[str, Any] | None = None
        self._identity_checked = float("-inf")  # monotonic time of the last /models probe

    def __repr__(self) -> str:
        return (
            f"OpenAIHTTPTransport(base_url={self.base_url!r}, model={self.model!r}, "
            f"api_key_env={self.api_key_env!r}, concurrency={self.concurrency})"
        )

    # -- pickling (Ray ships the backbone to stage workers) ----------------------------------
    def __getstate__(self) -> dict[str, Any]:
        # No client/pool/lock, and never the key: the worker re-reads it from its environment.
        # The server identity is probed again in each process (it may have been restarted).
        skip = ("_client", "_pool", "_lock", "_key", "limiter", "_identity", "_identity_checked")
        state = {k: v for k, v in self.__dict__.items() if k not in skip}
        state["_qps"] = 1.0 / self.limiter.interval if self.limiter.interval else None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        qps = state.pop("_qps")
        self.__dict__.update(state)
        self._key = read_api_key(self.api_key_env, required=False)
        self.limiter = RateLimiter(qps)  # per process: qps is a per-worker limit
        self._client = self._pool = None
        self._lock = threading.Lock()
        self._identity, self._identity_checked = None, float("-inf")

    # -- server identity (request-cache key) -------------------------------------------------
    IDENTITY_RETRY_S = 30.0  # after a failed probe, ask again at most this often

    def server_identity(self) -> dict[str, Any] | None:
        """``GET {base_url}/models``: the entry of our model (or the only one served): its
        ``id`` and, where the server says (vLLM), its ``root`` (the weights it loaded).
        Failing that, the ``model`` field of a live reply in this process. ``None`` while the
        server has not answered at all."""
        if self._identity is not None:
            return self._identity
        now = time.monotonic()
        if now - self._identity_checked < self.IDENTITY_RETRY_S:
            return None
        self._identity_checked = now
        client, _ = self._ensure()
        try:
            resp = client.get(f"{self.base_url}/models", headers=self._headers(),
                              timeout=httpx.Timeout(min(self._timeout.read or 10.0, 10.0), connect=self._timeout.connect))
            data = resp.json().get("data") if resp.status_code == 200 else None
        except (httpx.HTTPError, ValueError, AttributeError) as exc:
            log.info("%s: no model list from %s (%s); request cache bypassed until the server answers",
                     self.model, self.base_url, type(exc).__name__)
            return self._identity
        entries = [e for e in data or [] if isinstance(e, dict) and e.get("id")]
        mine = [e for e in entries if e["id"] == self.model] or (entries if len(entries) == 1 else [])
        if mine:
            self._identity = {"id": str(mine[0]["id"]), "root": mine[0].get("root")}
        return self._identity

    def output_settings(self) -> dict[str, Any]:
        return {"guided_json": self.guided_json, "strict": self.json_schema_strict, "extra_body": self.extra_body}

    def _learn_identity(self, data: dict[str, Any]) -> None:
        if self._identity is None and isinstance(data.get("model"), str) and data["model"]:
            self._identity = {"id": data["model"], "root": None}

    # -- lifecycle ---------------------------------------------------------------------------
    def _ensure(self) -> tuple[httpx.Client, ThreadPoolExecutor]:
        with self._lock:
            if self._client is None:
                limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
                self._client = httpx.Client(timeout=self._timeout, limits=limits)
                self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="openai-http")
            return self._client, self._pool  # type: ignore[return-value]

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
            if self._client is not None:
                self._client.close()
            self._client = self._pool = None

    # -- requests ----------------------------------------------------------------------------
    def body(self, call: ChatCall) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": call.messages,
            "max_tokens": call.max_tokens,
            "temperature": call.temperature,
            **self.extra_body,
        }
        if call.json_schema is not None and self.guided_json:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": call.schema_name, "schema": call.json_schema, "strict": self.json_schema_strict},
            }
        return body

    def complete(self, calls: list[ChatCall]) -> list[Completion]:
        if not calls:
            return []
        _, pool = self._ensure()
        return list(pool.map(self._one, calls))

    def _headers(self) -> dict[str, str]:
        key = self._key.get()
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _one(self, call: ChatCall) -> Completion:
        client, _ = self._ensure()
        url = f"{self.base_url}/chat/completions"
        body = self.body(call)
        t0 = time.perf_counter()
        last = "no attempt made"
        last_retry_after: float | None = None
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self._backoff(attempt, last_retry_after))
            last_retry_after = None
            self.limiter.wait()
            try:
                resp = client.post(url, json=body, headers=self._headers())
            except httpx.TimeoutException as exc:
                last = f"timeout ({type(exc).__name__})"
                continue
            except httpx.TransportError as exc:  # connection refused/reset, DNS, ...
                last = f"{type(exc).__name__}: {exc}"
                continue
            if resp.status_code == 200:
                try:
                    data = resp.json()
                    comp = self._parse(data, time.perf_counter() - t0)
                    self._learn_identity(data)
                    return comp
                except (ValueError, KeyError, IndexError, TypeError) as exc:
                    last = f"malformed response: {type(exc).__name__}: {exc}"
                    continue
            last = f"HTTP {resp.status_code}: {resp.text[:300]}"
            if resp.status_code not in RETRY_STATUS:
                break
            last_retry_after = _retry_after(resp)
        else:
            last = f"{last} (after {self.max_retries + 1} attempts)"
        error = "transport: " + self._key.scrub(last)
        log.warning("%s request failed: %s", self.model, error)
        return Completion(error=error, latency_s=time.perf_counter() - t0, usage="none")

    def _backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_backoff_s)
        base = min(self.backoff_s * 2 ** (attempt - 1), self.max_backoff_s)
        return base * (0.5 + random.random() / 2)  # jitter: retries of a batch do not align

    @staticmethod
    def _parse(data: dict[str, Any], latency: float) -> Completion:
        choice = data["choices"][0]
        text = choice["message"].get("content") or ""
        usage = data.get("usage") or {}
        has_usage = "prompt_tokens" in usage
        return Completion(
            text=text,
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            finish_reason=choice.get("finish_reason"),
            latency_s=latency,
            usage="server" if has_usage else "none",
        )


def _retry_after(resp: httpx.Response) -> float | None:
    value = resp.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
