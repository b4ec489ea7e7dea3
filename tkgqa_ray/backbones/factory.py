"""``build_backbone(cfg)``: one Hydra backbone config → one :class:`Backbone`.

Simple dispatch on ``cfg.kind`` (no ``_target_``), so configs stay short and typos get clear
errors: ``symbolic`` | ``openai`` | ``vllm`` | ``cpu_vllm_server``. Keys are documented in
docs/backbones.md; unknown keys are rejected naming the config.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

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

    c = cfg.get("cache")
    if isinstance(c, bool):
        c = {"enabled": c}
    c = c or {}
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


def validate_backbone_config(cfg: Any) -> None:
    """Check a backbone config without building it (no server start, no model load, no key)."""
    cfg = _plain(cfg)
    kind = cfg.get("kind")
    if not cfg.get("name"):
        raise ValueError(f"backbone config has no 'name' (kind {kind!r})")
    allowed = {
        "symbolic": {"name", "kind", "description"},
        "openai": _COMMON | _HTTP,
        "cpu_vllm_server": _COMMON | _HTTP | _SERVER,
        "vllm": _COMMON | _VLLM,
    }
    if kind not in allowed:
        raise ValueError(f"backbone config {cfg.get('name')!r}: unknown kind {kind!r} (choose from {KINDS})")
    _check_keys(cfg, allowed[kind])
    if kind == "openai" and not cfg.get("base_url"):
        raise ValueError(f"backbone config {cfg['name']!r} (kind openai) needs base_url")
    if kind in ("openai", "vllm") and not cfg.get("model"):
        raise ValueError(f"backbone config {cfg['name']!r} (kind {kind}) needs model")
    if kind == "vllm":
        from tkgqa_ray.backbones.transports.vllm_actor import EnginePoolConfig

        pool = dict(cfg.get("engine_pool") or {})
        pool.setdefault("model_source", cfg.get("model"))
        EnginePoolConfig.from_dict(pool)


@dataclass
class PreparedBackbone:
    """What the driver holds for a run: the config workers build from, and the cleanup."""

    worker_cfg: dict[str, Any]
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()


def prepare_backbone(cfg: Any) -> PreparedBackbone:
    """Driver side, once per run, before workers start: bring up what must exist once.

    - ``cpu_vllm_server``: start (or reuse) the managed server here; workers get an ``openai``
      config pointing at it (same ``name``), so N workers share one server, not N.
    - ``vllm``: create the named engine-actor pool here, so the driver owns the engines (an
      engine created by a stage worker would die with it); workers find it by name.
    - ``symbolic`` / ``openai``: nothing to start.
    ``close()`` at the end of the run stops the server / kills the pool.
    """
    cfg = _plain(cfg)
    validate_backbone_config(cfg)
    kind = cfg["kind"]
    if kind == "cpu_vllm_server":
        from tkgqa_ray.backbones.transports.cpu_server import acquire_server, release_server, server_settings

        server = acquire_server(**server_settings(cfg))
        worker = {k: v for k, v in cfg.items() if k not in _SERVER}
        worker.update(kind="openai", base_url=server.base_url, model=server.served_model_name)
        return PreparedBackbone(worker, [lambda: release_server(server)])
    if kind == "vllm":
        from tkgqa_ray.backbones.transports.vllm_actor import VLLMActorTransport

        transport = VLLMActorTransport.from_config(cfg)
        transport.start(wait=True)
        return PreparedBackbone(cfg, [transport.shutdown])
    return PreparedBackbone(cfg)
