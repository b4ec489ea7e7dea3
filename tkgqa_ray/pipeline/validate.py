"""Config checks that run before any work starts (no Ray, no KG load, no model).

Each check names the offending key, so `tkgqa-ray run run.batch_size=0` fails in well under a
second with ``run.batch_size must be an integer >= 1 (got 0)`` instead of minutes later.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf

KNOWN_DATASETS = ("default", "multitq", "timelinecronqr", "timelinecronq_r", "timequestions")
SPLITS = ("train", "dev", "test")


class ConfigError(ValueError):
    """A config value is invalid; the message starts with the key."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"config error: {key} {message}")


def _get(cfg: DictConfig, key: str) -> Any:
    try:
        return OmegaConf.select(cfg, key, throw_on_missing=True)
    except Exception as exc:  # MissingMandatoryValue and interpolation errors
        raise ConfigError(key, f"is required but not set ({type(exc).__name__}: {exc})") from None


def _int(cfg: DictConfig, key: str, minimum: int, optional: bool = False) -> int | None:
    v = _get(cfg, key)
    if v is None and optional:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
        raise ConfigError(key, f"must be an integer >= {minimum}{' or null' if optional else ''} (got {v!r})")
    return v


def _bool(cfg: DictConfig, key: str) -> bool:
    v = _get(cfg, key)
    if not isinstance(v, bool):
        raise ConfigError(key, f"must be true or false (got {v!r})")
    return v


def _str(cfg: DictConfig, key: str, optional: bool = False) -> str | None:
    v = _get(cfg, key)
    if v is None and optional:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ConfigError(key, f"must be a non-empty string (got {v!r})")
    return v


def _multirun() -> bool:
    try:
        from hydra.core.hydra_config import HydraConfig
        from hydra.types import RunMode

        return HydraConfig.initialized() and HydraConfig.get().mode == RunMode.MULTIRUN
    except Exception:  # noqa: BLE001
        return False


def validate_config(cfg: DictConfig) -> None:
    """Raise :class:`ConfigError` for the first invalid value. Cheap: imports the method class
    (to read its ablations) and the backbone factory, nothing heavier."""
    # --- run
    _int(cfg, "run.batch_size", 1)
    _int(cfg, "run.num_workers", 1)
    _int(cfg, "run.limit", 1, optional=True)
    _int(cfg, "run.seed", 0)
    _bool(cfg, "run.resume")
    _bool(cfg, "run.retry_failed")
    for key in ("run.worker_num_cpus", "run.worker_num_gpus"):
        v = _get(cfg, key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
            raise ConfigError(key, f"must be a number >= 0 (got {v!r})")
    out = _get(cfg, "run.output_dir")
    if out is not None and not isinstance(out, str):
        raise ConfigError("run.output_dir", f"must be a path string or null (got {out!r})")
    if out is not None and _multirun():
        raise ConfigError("run.output_dir", "must not be set in a multirun sweep (each job gets its own dir under hydra.sweep.dir)")
    if out is not None and Path(out).exists() and not Path(out).is_dir():
        raise ConfigError("run.output_dir", f"exists and is not a directory: {out}")
    # --- store / embeddings / ray
    _int(cfg, "store.num_shards", 1)
    _int(cfg, "store.max_restarts", 0)
    _str(cfg, "embeddings.encoder")
    _str(cfg, "embeddings.cache_dir")
    if OmegaConf.select(cfg, "embeddings.backend") is not None:
        from tkgqa_ray.embed.encoder import BACKENDS

        backend = _str(cfg, "embeddings.backend")
        if backend not in BACKENDS:
            raise ConfigError("embeddings.backend", f"must be one of {', '.join(BACKENDS)} (got {backend!r})")
    addr = _get(cfg, "ray.address")
    if addr is not None and not isinstance(addr, str):
        raise ConfigError("ray.address", f"must be a string (e.g. 'auto', 'ray://host:10001') or null (got {addr!r})")
    _int(cfg, "ray.num_cpus", 1, optional=True)
    # --- dataset
    name = _str(cfg, "dataset.name")
    if name.lower() not in KNOWN_DATASETS:
        raise ConfigError("dataset.name", f"is unknown: {name!r} (known: {', '.join(KNOWN_DATASETS)})")
    split = _str(cfg, "dataset.split")
    if split not in SPLITS:
        raise ConfigError("dataset.split", f"must be one of {SPLITS} (got {split!r})")
    root = _get(cfg, "dataset.root")
    if name != "default" and root is None:
        raise ConfigError("dataset.root", f"is required for dataset {name!r} (dataset.root=DIR)")
    if root is not None and not Path(str(root)).expanduser().is_dir():
        raise ConfigError("dataset.root", f"is not a directory: {root}")
    kg = _get(cfg, "dataset.kg")
    if kg is not None and not Path(str(kg)).expanduser().is_file():
        raise ConfigError("dataset.kg", f"is not a file: {kg}")
    # --- method / ablation
    from tkgqa_ray.pipeline.resources import method_class

    method = _str(cfg, "method.name")
    try:
        method_cls = method_class(method)
    except (KeyError, ImportError, AttributeError) as exc:
        raise ConfigError("method.name", f"cannot be loaded: {exc.args[0] if exc.args else exc}") from None
    opts = _get(cfg, "method.options")
    if opts is not None and not isinstance(opts, DictConfig):
        raise ConfigError("method.options", f"must be a mapping (got {opts!r})")
    ablation = _str(cfg, "ablation.name")
    if ablation not in method_cls.ablations:
        raise ConfigError(
            "ablation.name",
            f"{ablation!r} is not an ablation of method {method!r} (choose from {', '.join(method_cls.ablations)})",
        )
    # --- backbone
    _str(cfg, "backbone.name")
    _validate_backbone(cfg)


def _validate_backbone(cfg: DictConfig) -> None:
    """Check the backbone kind and keys without building it (no server, no model load)."""
    from tkgqa_ray.backbones import factory

    kind = OmegaConf.select(cfg, "backbone.kind")
    kinds = getattr(factory, "KINDS", ())
    if kinds and kind not in kinds:
        raise ConfigError("backbone.kind", f"is unknown: {kind!r} (choose from {', '.join(kinds)})")
    check = getattr(factory, "validate_backbone_config", None)
    if check is not None:
        try:
            check(cfg.backbone)
        except (KeyError, ValueError, TypeError) as exc:
            raise ConfigError("backbone", f"is invalid: {exc.args[0] if exc.args else exc}") from None
