"""The backbone contract shared by every method and transport.

A *role* is a named step of a method that a language model would do (SCoP's event parser,
PoK's planner, ...). Stages describe a role call with a :class:`RoleRequest`; the backbone
turns a batch of requests into :class:`RoleResult` s. LLM backbones render
``prompts/<method>/<role>.*`` with ``inputs``, call their transport, validate JSON against
``schema`` (retrying, then recording a parse failure); the symbolic backbone dispatches to a
registered Python implementation of the same role (``SYMBOLIC_ROLES``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable

from pydantic import BaseModel

from tkgqa_ray.registry import Registry

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext


@dataclass
class RoleRequest:
    method: str  # prompt folder: prompts/<method>/
    role: str  # prompt file stem and symbolic role name
    inputs: dict[str, Any]  # template variables; must hold "question" for question-level roles
    schema: type[BaseModel] | None = None  # JSON roles; None = free text
    quid: str | None = None  # for logs and the request ledger only


@dataclass
class RoleResult:
    role: str
    output: Any = None  # validated dict (JSON roles) or str; None on failure
    ok: bool = True
    raw: str | None = None  # raw model text (kept on parse failure)
    attempts: int = 1
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False  # every attempt's reply came from the request cache
    error: str | None = None  # "parse_failure: ..." / "transport: ..."
    cached_calls: int = 0  # attempts whose reply came from the request cache

    @property
    def parse_failure(self) -> bool:
        return bool(self.error and self.error.startswith("parse_failure"))

    def record(self) -> dict[str, Any]:
        """The per-question ledger entry (no prompt text: that lives in the trace if wanted)."""
        # shallow, and never touching ``output``: asdict would deep-copy the (possibly large)
        # output only to drop it (profiled at ~15% of a symbolic SCoP run)
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "output"}


class Backbone(ABC):
    """Runs roles. ``is_llm`` is False only for the symbolic backbone, which tables must say."""

    name: str = "backbone"
    is_llm: bool = True

    def bind(self, ctx: "RunContext") -> None:
        """Give the backbone the run's store/embeddings (the symbolic backbone needs them)."""
        self.ctx = ctx

    @abstractmethod
    def run(self, requests: list[RoleRequest]) -> list[RoleResult]:
        """Answer a batch of role requests, in order. Never raises for one bad output."""

    def close(self) -> None:  # release engines / sessions
        pass


# Symbolic role implementations: "method.role" -> "module:function".
# A function takes (inputs: dict, ctx: RunContext) and returns the role's output (a dict
# that validates against the role's schema, or a str for free-text roles).
SymbolicRole = Callable[[dict[str, Any], "RunContext"], Any]
SYMBOLIC_ROLES: Registry[SymbolicRole] = Registry("symbolic role")


class RoleLedger:
    """Helper for stages: appends role records to a state's ``roles`` list."""

    @staticmethod
    def add(state: dict[str, Any], result: RoleResult) -> None:
        state.setdefault("roles", []).append(result.record())
