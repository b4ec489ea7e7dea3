"""A small lazy registry in the style of lm-evaluation-harness.

Entries are ``"module:Attr"`` strings resolved on first use, so importing the registry does
not import every method or backbone (vLLM, torch) up front. Unknown names get a
"did you mean" hint.
"""

from __future__ import annotations

import difflib
import importlib
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._targets: dict[str, str | T] = {}

    def register(self, name: str, target: str | T) -> None:
        if name in self._targets:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self._targets[name] = target

    def names(self) -> list[str]:
        return sorted(self._targets)

    def get(self, name: str) -> T:
        try:
            target = self._targets[name]
        except KeyError:
            hint = difflib.get_close_matches(name, self._targets, n=1)
            extra = f"; did you mean {hint[0]!r}?" if hint else ""
            raise KeyError(
                f"unknown {self.kind} {name!r}{extra} (known: {', '.join(self.names())})"
            ) from None
        if isinstance(target, str):
            module, _, attr = target.partition(":")
            target = getattr(importlib.import_module(module), attr)
            self._targets[name] = target
        return target  # type: ignore[return-value]

    def __contains__(self, name: object) -> bool:
        return name in self._targets


def load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
