"""``LLMBackbone``: the logic shared by every LLM transport.

Per batch: render each request's prompt (fixed few-shot prefix + question turn), send all calls
to the transport at once, validate JSON roles against their pydantic schema, and re-ask the
invalid ones with a repair turn (the model's bad answer + ``prompts/_shared/repair.txt``) up to
``max_attempts`` calls in total at temperature 0. What is still invalid becomes
``RoleResult(ok=False, error="parse_failure: ...", raw=<last text>)``; transport failures
become ``error="transport: ..."``. Each transport call is looked up in the request cache first;
only replies that passed validation are stored, under a key that holds the model identity the
server reports (see :mod:`tkgqa_ray.backbones.cache`), so a rerun against the same server
replays the valid replies without calling the model, and nothing else is ever served.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from tkgqa_ray.backbones.base import Backbone, RoleRequest, RoleResult
from tkgqa_ray.backbones.cache import KEY_VERSION, RequestCache, request_key
from tkgqa_ray.backbones.prompts import PromptLibrary
from tkgqa_ray.backbones.transports.base import ChatCall, Completion, Transport
from tkgqa_ray.backbones.validation import validate_output

log = logging.getLogger(__name__)


class TokenCounter:
    """Fallback token counts with the model's tokenizer when a server reports no usage."""

    def __init__(self, tokenizer: str) -> None:
        from transformers import AutoTokenizer

        self.tok = AutoTokenizer.from_pretrained(tokenizer)

    def prompt(self, messages: list[dict[str, str]]) -> int:
        ids = self.tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
        if hasattr(ids, "keys"):  # transformers 5 returns a BatchEncoding (not a dict subclass)
            ids = ids["input_ids"]
        return len(ids)

    def text(self, text: str) -> int:
        return len(self.tok(text, add_special_tokens=False)["input_ids"])


@dataclass
class _Conv:
    """One request's conversation across attempts."""

    messages: list[dict[str, str]]
    call: ChatCall
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    all_cached: bool = True
    cached_calls: int = 0
    raw: str | None = None
    history: list[str] = field(default_factory=list)


class LLMBackbone(Backbone):
    is_llm = True

    def __init__(
        self,
        name: str,
        transport: Transport,
        *,
        prompts: PromptLibrary | None = None,
        cache: RequestCache | None = None,
        max_tokens: int = 256,
        role_max_tokens: dict[str, int] | None = None,
        temperature: float = 0.0,
        max_attempts: int = 3,
        tokenizer: str | None = None,
        owned: list[Any] | None = None,
    ) -> None:
        self.name = name
        self.transport = transport
        self.prompts = prompts or PromptLibrary()
        self.cache = cache
        self.max_tokens = max_tokens
        self.role_max_tokens = dict(role_max_tokens or {})
        self.temperature = temperature
        self.max_attempts = max(1, int(max_attempts))
        self._tokenizer_name = tokenizer
        self._counter: TokenCounter | None = None
        self._owned = list(owned or [])  # e.g. a managed CPU server, stopped on close()
        self.calls_made = 0  # transport calls actually sent (not cache hits)
        self._warned_no_identity = False

    def __repr__(self) -> str:
        return f"LLMBackbone(name={self.name!r}, transport={self.transport!r})"

    def __getstate__(self) -> dict[str, Any]:
        # A copy shipped to a Ray worker talks to the same server / engine pool but does not own
        # it: only the object built on the driver stops a managed server in close().
        state = dict(self.__dict__)
        state["_owned"], state["_counter"] = [], None
        state.pop("ctx", None)
        return state

    # -- helpers -----------------------------------------------------------------------------
    def _max_tokens(self, req: RoleRequest) -> int:
        return self.role_max_tokens.get(f"{req.method}.{req.role}", self.role_max_tokens.get(req.role, self.max_tokens))

    def _key(self, req: RoleRequest, call: ChatCall, server: dict[str, Any]) -> str:
        return request_key(
            v=KEY_VERSION,
            backbone=self.name,
            model=self.transport.model,
            server=server,  # what the server says it serves: another server's replies never match
            transport=self.transport.output_settings(),
            role=f"{req.method}.{req.role}",
            messages=call.messages,  # the rendered prompt
            sampling=call.sampling(),  # max_tokens, temperature, the role's JSON schema
        )

    def _store(self, key: str | None, comp: Completion) -> None:
        """Store a fresh reply that passed validation (the only kind the cache may serve)."""
        if key is None or self.cache is None or comp.error is not None or comp.extra.get("cached"):
            return
        self.cache.put(
            key,
            {
                "text": comp.text,
                "prompt_tokens": comp.prompt_tokens,
                "completion_tokens": comp.completion_tokens,
                "finish_reason": comp.finish_reason,
                "usage": comp.usage,
            },
        )

    def _count_tokens(self, comp: Completion, messages: list[dict[str, str]]) -> None:
        if comp.usage == "server" or comp.text is None or not self._tokenizer_name:
            return
        if self._counter is None:
            self._counter = TokenCounter(self._tokenizer_name)
        comp.prompt_tokens = self._counter.prompt(messages)
        comp.completion_tokens = self._counter.text(comp.text)
        comp.usage = "tokenizer"

    # -- the batch ---------------------------------------------------------------------------
    def run(self, requests: list[RoleRequest]) -> list[RoleResult]:
        results: list[RoleResult | None] = [None] * len(requests)
        convs: dict[int, _Conv] = {}
        for i, req in enumerate(requests):
            schema_json = req.schema.model_json_schema() if req.schema is not None else None
            messages = self.prompts.render(req.method, req.role, req.inputs, json_schema=schema_json)
            call = ChatCall(
                messages=messages,
                max_tokens=self._max_tokens(req),
                temperature=self.temperature,
                json_schema=schema_json,
                schema_name=req.schema.__name__ if req.schema is not None else "output",
            )
            convs[i] = _Conv(messages=messages, call=call)

        pending = list(convs)
        while pending:
            comps, keys = self._send([(requests[i], convs[i].call) for i in pending])
            still: list[int] = []
            for i, comp, key in zip(pending, comps, keys):
                req, conv = requests[i], convs[i]
                conv.attempts += 1
                conv.prompt_tokens += comp.prompt_tokens
                conv.completion_tokens += comp.completion_tokens
                conv.latency_s += comp.latency_s
                conv.all_cached &= bool(comp.extra.get("cached"))
                conv.cached_calls += bool(comp.extra.get("cached"))
                if comp.error is not None:
                    results[i] = self._result(req, conv, None, comp.error)
                    continue
                conv.raw = comp.text
                output, err = validate_output(req.schema, comp.text or "")
                if err is None:
                    self._store(key, comp)
                    results[i] = self._result(req, conv, output, None)
                elif conv.attempts >= self.max_attempts:
                    if comp.finish_reason == "length":
                        err += " (output hit max_tokens)"
                    results[i] = self._result(req, conv, None, err)
                else:  # repair turn: show the model its answer and what was wrong
                    reason = err.removeprefix("parse_failure: ")
                    msgs = conv.call.messages + [
                        {"role": "assistant", "content": comp.text or ""},
                        self.prompts.repair_turn(reason, conv.call.json_schema),
                    ]
                    conv.call = ChatCall(**{**conv.call.__dict__, "messages": msgs})
                    still.append(i)
            pending = still
        return [r for r in results if r is not None]

    def _send(self, items: list[tuple[RoleRequest, ChatCall]]) -> tuple[list[Completion], list[str | None]]:
        """Cache lookups first; one transport batch for the misses. Returns the completions
        and each one's cache key (``None``: no cache, or the server's identity is unknown, in
        which case nothing is read from or written to the cache)."""
        out: list[Completion | None] = [None] * len(items)
        keys: list[str | None] = [None] * len(items)
        miss: list[int] = []
        server = self.transport.server_identity() if self.cache is not None else None
        if self.cache is not None and server is None and not self._warned_no_identity:
            self._warned_no_identity = True
            log.warning("%s: the server did not say which model it serves (unreachable?); "
                        "request cache bypassed for these calls", self.name)
        for j, (req, call) in enumerate(items):
            if server is not None:
                keys[j] = self._key(req, call, server)
                hit = self.cache.get(keys[j])  # type: ignore[union-attr,arg-type]
                if hit is not None:
                    out[j] = Completion(**hit, extra={"cached": True})
                    out[j].latency_s = 0.0  # type: ignore[union-attr]
                    continue
            miss.append(j)
        if miss:
            t0 = time.perf_counter()
            comps = self.transport.complete([items[j][1] for j in miss])
            self.calls_made += len(miss)
            log.debug("%s: %d calls in %.2f s", self.name, len(miss), time.perf_counter() - t0)
            for j, comp in zip(miss, comps):
                self._count_tokens(comp, items[j][1].messages)
                out[j] = comp
        return out, keys  # type: ignore[return-value]

    @staticmethod
    def _result(req: RoleRequest, conv: _Conv, output: Any, error: str | None) -> RoleResult:
        return RoleResult(
            role=req.role,
            output=output,
            ok=error is None,
            raw=conv.raw,
            attempts=conv.attempts,
            prompt_tokens=conv.prompt_tokens,
            completion_tokens=conv.completion_tokens,
            latency_s=conv.latency_s,
            cached=conv.all_cached,
            error=error,
            cached_calls=conv.cached_calls,
        )

    def close(self) -> None:
        self.transport.close()
        for obj in reversed(self._owned):
            obj.stop()
        self._owned.clear()
