"""Backbone kinds: one registered class per ``kind`` owns its config schema, build and prepare.

A kind is a :class:`BackboneKind` subclass in its own module under
``tkgqa_ray/backbones/kinds/`` (decorated with :func:`register`); every module there is
imported on the first lookup, so adding a kind is one module plus one ``conf/backbone/*.yaml``.
Another installed package adds one with an entry point in the ``tkgqa_ray.backbone_kinds``
group (see :data:`KINDS`).
Kind modules import their transports inside ``build``/``prepare``, so validating a config
starts no server, loads no model and needs no API key.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping

from pydantic import Field

from tkgqa_ray.backbones.base import Backbone
from tkgqa_ray.registry import Registry
from tkgqa_ray.schema import ConfigError, StrictModel, check, did_you_mean


class BackboneConfig(StrictModel):
    """Keys every kind has. Subclasses add theirs; anything else is refused."""

    name: str = Field(min_length=1, description="the backbone's label in results (conf/backbone/<name>.yaml)")
    kind: str = Field(description="the registered BackboneKind that builds it")
    description: str | None = Field(None, description="free text for people; not read by the code")


@dataclass
class PreparedBackbone:
    """What the driver holds for a run: the config workers build from, and the cleanup."""

    worker_cfg: dict[str, Any]
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()


class BackboneKind(ABC):
    """One ``kind:`` of backbone config. Class methods only: a kind holds no state."""

    kind: ClassVar[str]
    Config: ClassVar[type[BackboneConfig]] = BackboneConfig

    @classmethod
    def validate(cls, raw: Mapping[str, Any]) -> BackboneConfig:
        """The config as this kind's schema, or a :class:`ConfigError` naming ``backbone.<key>``."""
        return check(cls.Config, dict(raw), prefix="backbone")  # type: ignore[return-value]

    @classmethod
    @abstractmethod
    def build(cls, cfg: Any, cache_dir: str | Path | None = None) -> Backbone:
        """A ready backbone from a validated config (in a worker, or in-process)."""

    @classmethod
    def prepare(cls, cfg: Any) -> PreparedBackbone:
        """Driver side, once per run, before workers start: start what must exist once (a
        server, an engine pool) and return the config workers build from. Default: nothing."""
        return PreparedBackbone(cfg.model_dump(exclude_unset=True))


# Discovered on the first lookup: every public module under ``backbones/kinds/`` is imported
# (their ``@register`` decorators run), and installed packages add kinds as entry points
# ``[project.entry-points."tkgqa_ray.backbone_kinds"] name = "module:Class"`` (imported only
# when that kind is used). See docs/architecture.md, "Adding a backbone kind".
KINDS: Registry[type[BackboneKind]] = Registry(
    "backbone kind", package="tkgqa_ray.backbones.kinds", entry_points="tkgqa_ray.backbone_kinds"
)


def register(cls: type[BackboneKind]) -> type[BackboneKind]:
    """Class decorator: make ``cls.kind`` buildable from configs."""
    if not (isinstance(cls, type) and issubclass(cls, BackboneKind)) or not isinstance(vars(cls).get("kind"), str):
        raise TypeError(f"@register needs a BackboneKind subclass with its own kind, got {cls!r}")
    KINDS.register(cls.kind, cls)
    return cls


def kinds() -> tuple[str, ...]:
    """Every registered kind, sorted."""
    return tuple(KINDS.names())


def backbone_kind(kind: Any) -> type[BackboneKind]:
    """The class of a kind, or a :class:`ConfigError` on ``backbone.kind`` with a did-you-mean."""
    if not (isinstance(kind, str) and kind in KINDS):
        hint = did_you_mean(kind, KINDS.names()) if isinstance(kind, str) else ""
        raise ConfigError("backbone.kind", f"is unknown: {kind!r}{hint} (choose from {', '.join(KINDS.names())})")
    try:
        cls = KINDS.get(kind)
    except (ImportError, AttributeError) as exc:  # an entry point naming a missing module/class
        raise ConfigError("backbone.kind", f"{kind!r} cannot be loaded: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, BackboneKind)) or cls.kind != kind:
        raise ConfigError("backbone.kind", f"{kind!r} is registered to {cls!r}, not a BackboneKind of that kind")
    return cls
