"""The transport contract: a batch of chat calls in, one :class:`Completion` per call out.

A transport retries what is transient (timeouts, 5xx, 429) itself and reports what is left as
``Completion.error`` ("transport: ..."); it never raises for one request, so one bad request
cannot kill a batch. Validation, repair turns and caching live above it in ``LLMBackbone``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ChatCall:
    messages: list[dict[str, str]]
    max_tokens: int = 256
    temperature: float = 0.0
    json_schema: dict[str, Any] | None = None  # guided decoding, where the transport supports it
    schema_name: str = "output"

    def sampling(self) -> dict[str, Any]:
        """Everything besides the messages that changes the output (part of the cache key)."""
        return {
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "json_schema": self.json_schema,
        }


@dataclass
class Completion:
    text: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str | None = None
    latency_s: float = 0.0
    error: str | None = None  # set after retries are exhausted; text is None then
    usage: str = "server"  # where token counts came from: "server" | "tokenizer" | "none"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None


class Transport(ABC):
    model: str = "?"
    # Whether the JSON schema of a role is enforced by the server (guided decoding).
    guided_json: bool = False

    @abstractmethod
    def complete(self, calls: list[ChatCall]) -> list[Completion]:
        """One completion per call, in order; never raises for a single failed request."""

    def server_identity(self) -> dict[str, Any] | None:
        """Which model actually answers, as the server reports it; part of the request-cache
        key. ``None`` = unknown right now (server unreachable): the cache is then bypassed,
        so no stored reply can stand in for a server that does not answer. In-process engines
        load ``model`` themselves, so that is their identity."""
        return {"id": self.model}

    def output_settings(self) -> dict[str, Any]:
        """Transport settings besides the call that change outputs (part of the cache key)."""
        return {"guided_json": self.guided_json}

    def close(self) -> None:
        pass
