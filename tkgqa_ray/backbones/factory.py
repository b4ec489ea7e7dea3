"""``build_backbone(cfg)``: one Hydra backbone config → one :class:`Backbone`.

Simple dispatch on ``cfg.kind`` (no ``_target_``), so configs stay short and typos get clear
errors: ``symbolic`` | ``openai`` | ``vllm`` | ``cpu_vllm_server``. Keys are documented in
docs/backbones.md; unknown keys are rejected naming the config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from tkgqa_ray.backbones.base import Backbone

KINDS = ("symbolic", "openai", "vllm", "cpu_vllm_server")

_COMMON = {"name", "kind", "model", "max_tokens", "role_max_tokens", "temperature", "max_attempts",
           "cache", "prompts_dir", "tokenizer", "description"}  # fmt: skip
_HTTP = {"base_url", "api_key_env", "api_key_required", "qps", "concurrency", "timeout_s",
         "connect_timeout_s", "max_retries", "backoff_s", "max_backoff_s", "supports_json_schema",
         "json_schema_strict", "extra_body"}  # fmt: skip
_SERVER = {"model_dir", "port", "max_model_len", "startup_timeout_s", "server_args", "kvcache_space_gib"}
_VLLM = {"engine_pool", "namespace"}


def _plain(cfg: Any) -> dict[str, Any]:
    try:
        from omegaconf import DictConfig, OmegaConf

        if isinstance(cfg, DictConfig):
            return OmegaConf.to_container(cfg, resolve=True)  # type: ignore[return-value]
    except ImportError:  # pragma: no cover
        pass
    return dict(cfg)


def _check_keys(cfg: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(cfg) - allowed)
    if extra:
        raise ValueError(
            f"backbone config {cfg.get('name')!r} (kind {cfg.get('kind')!r}) has unknown key(s) {extra}; "
            f"allowed: {sorted(allowed)}"
        )


def _cache(cfg: Mapping[str, Any], cache_dir: str | Path | None):
    from tkgqa_ray.backbones.cache import RequestCache
    from tkgqa_ray.backbones.transports.cpu_server import default_cache_dir

    c = cfg.get("cache") or {}
    if isinstance(c, bool):
        c = {"enabled": c}
    if not c.get("enabled", True):
        return None
    if c.get("path"):
        return RequestCache(c["path"])
    root = Path(c.get("dir") or cache_dir or default_cache_dir())
    return RequestCache(root / "requests.sqlite")


def _llm(cfg: Mapping[str, Any], transport: Any, cache_dir: Any, owned: list[Any] | None = None) -> Backbone:
    from tkgqa_ray.backbones.llm import LLMBackbone
    from tkgqa_ray.backbones.prompts import PromptLibrary

    return LLMBackbone(
        cfg["name"],
        transport,
        prompts=PromptLibrary(cfg.get("prompts_dir")),
        cache=_cache(cfg, cache_dir),
        max_tokens=int(cfg.get("max_tokens", 256)),
        role_max_tokens=cfg.get("role_max_tokens") or {},
        temperature=float(cfg.get("temperature", 0.0)),
        max_attempts=int(cfg.get("max_attempts", 3)),
        tokenizer=cfg.get("tokenizer"),
        owned=owned,
    )


def _http_kwargs(cfg: Mapping[str, Any]) -> dict[str, Any]:
    return {k: cfg[k] for k in _HTTP - {"base_url"} if k in cfg and cfg[k] is not None}


def build_backbone(cfg: Any, *, cache_dir: str | Path | None = None) -> Backbone:
    """Build the backbone of a config; ``cache_dir`` (e.g. the run's cache folder) is the default
    home of the request cache when the config does not name one."""
    cfg = _plain(cfg)
    kind = cfg.get("kind")
    if "name" not in cfg:
        raise ValueError(f"backbone config has no 'name' (kind {kind!r})")
    if kind == "symbolic":
        from tkgqa_ray.backbones.symbolic import SymbolicBackbone

        _check_keys(cfg, {"name", "kind", "description"})
        return SymbolicBackbone(cfg["name"])
    if kind == "openai":
        from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

        _check_keys(cfg, _COMMON | _HTTP)
        transport = OpenAIHTTPTransport(cfg["base_url"], cfg["model"], **_http_kwargs(cfg))
        return _llm(cfg, transport, cache_dir)
    if kind == "cpu_vllm_server":
        from tkgqa_ray.backbones.transports.cpu_server import SharedServerLease, acquire_server, server_settings
        from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

        _check_keys(cfg, _COMMON | _HTTP | _SERVER)
        # One server per process and settings, reference counted: several backbones (or a test
        # fixture and a backbone) share it; close() of the last one stops it.
        server = acquire_server(**server_settings(cfg))
        lease = SharedServerLease(server)
        try:
            transport = OpenAIHTTPTransport(server.base_url, server.served_model_name, **_http_kwargs(cfg))
            return _llm(cfg, transport, cache_dir, owned=[lease])
        except BaseException:
            lease.stop()
            raise
    if kind == "vllm":
        from tkgqa_ray.backbones.transports.vllm_actor import VLLMActorTransport

        _check_keys(cfg, _COMMON | _VLLM)
        transport = VLLMActorTransport.from_config(cfg)
        return _llm(cfg, transport, cache_dir)
    raise ValueError(f"backbone config {cfg.get('name')!r}: unknown kind {kind!r} (choose from {KINDS})")
