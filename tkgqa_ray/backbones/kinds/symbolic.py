"""``kind: symbolic``: deterministic Python implementations of every role (no LLM)."""

from __future__ import annotations

from tkgqa_ray.backbones.kind import BackboneConfig, BackboneKind, register


@register
class Symbolic(BackboneKind):
    kind = "symbolic"
    Config = BackboneConfig  # name, kind, description: nothing to tune

    @classmethod
    def build(cls, cfg, cache_dir=None):
        from tkgqa_ray.backbones.symbolic import SymbolicBackbone

        return SymbolicBackbone(cfg.name)
