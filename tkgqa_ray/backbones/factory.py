"""``build_backbone(cfg)``: one Hydra backbone config → one :class:`Backbone`.

The config's ``kind`` picks a registered :class:`~tkgqa_ray.backbones.kind.BackboneKind`
(``symbolic`` | ``openai`` | ``vllm`` | ``cpu_vllm_server``, one module each under
``backbones/kinds/``), whose pydantic schema validates the config (an unknown key is refused
naming it, with a did-you-mean) and whose ``build``/``prepare`` do the rest. Keys are
documented in docs/backbones.md and in the schemas' field descriptions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tkgqa_ray.backbones.base import Backbone
from tkgqa_ray.backbones.kind import BackboneConfig, PreparedBackbone, backbone_kind, kinds

__all__ = ["PreparedBackbone", "build_backbone", "kinds", "prepare_backbone", "validate_backbone_config"]


def _plain(cfg: Any) -> dict[str, Any]:
    from omegaconf import DictConfig, OmegaConf

    if isinstance(cfg, DictConfig):
        return OmegaConf.to_container(cfg, resolve=True)  # type: ignore[return-value]
    return dict(cfg)


def validate_backbone_config(cfg: Any) -> BackboneConfig:
    """Check a backbone config without building it (no server start, no model load, no key);
    raises :class:`~tkgqa_ray.schema.ConfigError` (a ``ValueError``) naming ``backbone.<key>``."""
    raw = _plain(cfg)
    return backbone_kind(raw.get("kind")).validate(raw)


def build_backbone(cfg: Any, *, cache_dir: str | Path | None = None) -> Backbone:
    """Build the backbone of a config; ``cache_dir`` (e.g. the run's cache folder) is the default
    home of the request cache when the config does not name one."""
    raw = _plain(cfg)
    kind = backbone_kind(raw.get("kind"))
    return kind.build(kind.validate(raw), cache_dir=cache_dir)


def prepare_backbone(cfg: Any) -> PreparedBackbone:
    """Driver side, once per run, before workers start: bring up what must exist once (the
    kind's ``prepare``: a ``cpu_vllm_server`` starts its server and workers get an ``openai``
    config pointing at it; ``vllm`` creates the named engine pool; others start nothing).
    ``close()`` at the end of the run stops the server / kills the pool."""
    raw = _plain(cfg)
    kind = backbone_kind(raw.get("kind"))
    return kind.prepare(kind.validate(raw))
