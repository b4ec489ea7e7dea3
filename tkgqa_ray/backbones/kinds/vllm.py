"""``kind: vllm``: a named, shared pool of vLLM engine actors on a GPU Ray cluster."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from tkgqa_ray.backbones.kind import BackboneKind, PreparedBackbone, register
from tkgqa_ray.backbones.kinds._llm import LLMConfig, llm_backbone
from tkgqa_ray.backbones.transports.vllm_actor import DEFAULT_NAMESPACE, EnginePoolConfig


class VLLMConfig(LLMConfig):
    model: str = Field(min_length=1, description="HF model name (also the pool's model_source by default)")
    engine_pool: EnginePoolConfig = Field(description="the engine actors; backbones naming the same pool share it")
    namespace: str | None = Field(None, description=f"Ray namespace of the pool's named actors (null: {DEFAULT_NAMESPACE!r})")

    @model_validator(mode="before")
    @classmethod
    def _pool_model_defaults_to_model(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("engine_pool"), dict) and data.get("model"):
            data = {**data, "engine_pool": {"model_source": data["model"], **data["engine_pool"]}}
        return data


def _transport(cfg: VLLMConfig):
    from tkgqa_ray.backbones.transports.vllm_actor import VLLMActorTransport

    return VLLMActorTransport(cfg.engine_pool, cfg.namespace or DEFAULT_NAMESPACE)


@register
class VLLM(BackboneKind):
    kind = "vllm"
    Config = VLLMConfig

    @classmethod
    def build(cls, cfg: VLLMConfig, cache_dir=None):
        return llm_backbone(cfg, _transport(cfg), cache_dir)

    @classmethod
    def prepare(cls, cfg: VLLMConfig) -> PreparedBackbone:
        """Create the named engine-actor pool here, so the driver owns the engines (an engine
        created by a stage worker would die with it); workers find it by name."""
        transport = _transport(cfg)
        transport.start(wait=True)
        return PreparedBackbone(cfg.model_dump(exclude_unset=True), [transport.shutdown])
