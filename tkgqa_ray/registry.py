"""A small lazy registry in the style of lm-evaluation-harness, and plugin discovery.

Entries are ``"module:Attr"`` strings resolved on first use, or objects registered by a
decorator in their own module. A registry may *discover* its entries on first lookup: import
every public module of one package (where the decorators run) and read one
``importlib.metadata`` entry-point group (``name = "module:Attr"``, imported only when that
name is used), so a third-party package adds an entry by declaring it in its
``pyproject.toml``. Unknown names get a "did you mean" hint.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from importlib import metadata
from typing import Any, Generic, TypeVar

T = TypeVar("T")


def import_submodules(package: str) -> None:
    """Import every module under ``package`` (recursively) whose own name does not start with
    ``_``: what registers the decorated classes defined there."""
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
        if not info.name.rpartition(".")[2].startswith("_"):
            importlib.import_module(info.name)


def entry_point_targets(group: str) -> dict[str, str]:
    """``{name: "module:Attr"}`` of the installed distributions' entry points in ``group``
    (nothing is imported here)."""
    return {ep.name: ep.value for ep in metadata.entry_points(group=group)}


def target_ref(target: Any) -> str:
    if isinstance(target, str):
        return target
    return f"{getattr(target, '__module__', '?')}:{getattr(target, '__qualname__', repr(target))}"


class Registry(Generic[T]):
    """``name -> T``. ``package`` / ``entry_points``: discovered on the first lookup (see the
    module docstring); ``register`` works at any time and never triggers discovery."""

    def __init__(self, kind: str, *, package: str | None = None, entry_points: str | None = None) -> None:
        self.kind = kind
        self._targets: dict[str, str | T] = {}
        self._package = package
        self._group = entry_points
        self._discovered = package is None and entry_points is None
        self._discovering = False

    def register(self, name: str, target: str | T) -> None:
        old = self._targets.get(name)
        if old is not None and target_ref(old) != target_ref(target):
            raise ValueError(f"{self.kind} {name!r} is already registered ({target_ref(old)}, not {target_ref(target)})")
        if old is None or not isinstance(target, str):  # keep a resolved object over its own string
            self._targets[name] = target

    def unregister(self, name: str) -> None:
        """Forget ``name`` (tests that register a throwaway entry)."""
        self._targets.pop(name, None)

    def discover(self, refresh: bool = False) -> None:
        """Import the package's modules and read the entry points (once; ``refresh``: again, e.g.
        after a plugin was installed into the running process)."""
        if (self._discovered and not refresh) or self._discovering:  # a module imported here may look a name up
            return
        self._discovering = True
        try:
            if self._package:
                import_submodules(self._package)
            if self._group:
                for name, target in entry_point_targets(self._group).items():
                    self.register(name, target)
            self._discovered = True  # a failed import is raised again on the next lookup
        finally:
            self._discovering = False

    def names(self) -> list[str]:
        self.discover()
        return sorted(self._targets)

    def get(self, name: str) -> T:
        self.discover()
        try:
            target = self._targets[name]
        except KeyError:
            hint = difflib.get_close_matches(name, self._targets, n=1)
            extra = f"; did you mean {hint[0]!r}?" if hint else ""
            raise KeyError(
                f"unknown {self.kind} {name!r}{extra} (known: {', '.join(self.names())})"
            ) from None
        if isinstance(target, str):
            target = load(target)
            self._targets[name] = target
        return target  # type: ignore[return-value]

    def __contains__(self, name: object) -> bool:
        self.discover()
        return name in self._targets


def load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
