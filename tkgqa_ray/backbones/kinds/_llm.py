"""Schema pieces and build helpers shared by the LLM kinds (not a kind: the leading ``_``
keeps discovery from importing it as one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from tkgqa_ray.backbones.base import Backbone
from tkgqa_ray.backbones.kind import BackboneConfig
from tkgqa_ray.schema import StrictModel


class CacheConfig(StrictModel):
    enabled: bool = Field(True, description="false: every role call goes to the model")
    dir: str | None = Field(None, description="folder of requests.sqlite (null: the run's cache folder, else $TKGQA_CACHE_DIR)")
    path: str | None = Field(None, description="the sqlite file itself (wins over dir)")


class LLMConfig(BackboneConfig):
    """Keys of every backbone that renders prompts and calls a model."""

    model: str | None = Field(None, description="model name sent to the server / engine")
    max_tokens: int = Field(256, ge=1, description="completion budget per role call")
    role_max_tokens: dict[str, int] = Field(default_factory=dict, description='per-role budget, e.g. {"scop.answerer": 32}')
    temperature: float = Field(0.0, ge=0)
    max_attempts: int = Field(3, ge=1, description="asks per role call before a parse failure is recorded")
    cache: bool | CacheConfig | None = Field(None, description="request cache: true/false or {enabled, dir, path}; null = on")
    prompts_dir: str | None = Field(None, description="prompt folder (null: the packaged prompts/)")
    tokenizer: str | None = Field(None, description="HF tokenizer for exact prompt-token counts (null: estimate)")


class HTTPConfig(StrictModel):
    """OpenAI-compatible HTTP transport keys. null / absent = the transport's default."""

    api_key_env: str | None = Field(None, description="NAME of the env variable holding the key (never the key)")
    api_key_required: bool | None = None
    qps: float | None = Field(None, ge=0, description="requests/second limit")
    concurrency: int | None = Field(None, ge=1)
    timeout_s: float | None = Field(None, gt=0)
    connect_timeout_s: float | None = Field(None, gt=0)
    max_retries: int | None = Field(None, ge=0, description="on timeouts, connection errors, 408/409/429/5xx")
    backoff_s: float | None = Field(None, ge=0)
    max_backoff_s: float | None = Field(None, ge=0)
    supports_json_schema: bool | None = Field(None, description="send response_format json_schema")
    json_schema_strict: bool | None = None
    extra_body: dict[str, Any] | None = Field(None, description="merged into every request body")


def http_kwargs(cfg: HTTPConfig) -> dict[str, Any]:
    """The transport keyword arguments a config sets (unset ones keep the transport's default)."""
    return {k: getattr(cfg, k) for k in HTTPConfig.model_fields if getattr(cfg, k) is not None}


def request_cache(cfg: LLMConfig, cache_dir: str | Path | None):
    from tkgqa_ray.backbones.cache import RequestCache
    from tkgqa_ray.backbones.transports.cpu_server import default_cache_dir

    c = cfg.cache
    if isinstance(c, bool):
        c = CacheConfig(enabled=c)
    c = c or CacheConfig()
    if not c.enabled:
        return None
    if c.path:
        return RequestCache(c.path)
    root = Path(c.dir or cache_dir or default_cache_dir())
    return RequestCache(root / "requests.sqlite")


def llm_backbone(cfg: LLMConfig, transport: Any, cache_dir: Any, owned: list[Any] | None = None) -> Backbone:
    from tkgqa_ray.backbones.llm import LLMBackbone
    from tkgqa_ray.backbones.prompts import PromptLibrary

    return LLMBackbone(
        cfg.name,
        transport,
        prompts=PromptLibrary(cfg.prompts_dir),
        cache=request_cache(cfg, cache_dir),
        max_tokens=cfg.max_tokens,
        role_max_tokens=cfg.role_max_tokens or {},
        temperature=cfg.temperature,
        max_attempts=cfg.max_attempts,
        tokenizer=cfg.tokenizer,
        owned=owned,
    )
