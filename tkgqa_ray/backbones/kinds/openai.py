"""``kind: openai``: any OpenAI-compatible endpoint (``vllm serve``, a hosted API)."""

from __future__ import annotations

from pydantic import Field

from tkgqa_ray.backbones.kind import BackboneKind, register
from tkgqa_ray.backbones.kinds._llm import HTTPConfig, LLMConfig, http_kwargs, llm_backbone


class OpenAIConfig(LLMConfig, HTTPConfig):
    base_url: str = Field(min_length=1, description="e.g. http://127.0.0.1:8000/v1")
    model: str = Field(min_length=1, description="model name sent to the server")


@register
class OpenAI(BackboneKind):
    kind = "openai"
    Config = OpenAIConfig

    @classmethod
    def build(cls, cfg: OpenAIConfig, cache_dir=None):
        from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

        transport = OpenAIHTTPTransport(cfg.base_url, cfg.model, **http_kwargs(cfg))
        return llm_backbone(cfg, transport, cache_dir)
