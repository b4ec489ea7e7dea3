"""The run config's schema and the checks that run before any work starts (no Ray, no KG load).

One source: the pydantic models below say which keys each group (``run``, ``store``,
``embeddings``, ``ray``, ``dataset``, ``method``, ``ablation``, ``backbone``) has and what
they accept; the values' defaults live in ``conf/``. Every model forbids unknown keys, so a
typo is refused naming the key whichever way it arrived (a YAML file, an override, or Hydra's
``+run.limitt=5`` append). What one group alone cannot say is checked against its registry:
dataset names and splits from ``data.loaders``, ``method.options`` by the method class's own
``Options`` schema, the ablation by the method's ``ablations``, the backbone by its kind's
schema (``backbones/kinds/``). ``tkgqa-ray run run.batch_size=0`` fails in well under a second
with ``config error: run.batch_size must be an integer >= 1 (got 0)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException
from pydantic import Field, field_validator

from tkgqa_ray.embed.encoder import BACKENDS
from tkgqa_ray.schema import ConfigError, StrictModel, check, did_you_mean

__all__ = ["ConfigError", "RunConfig", "validate_config"]

class RunSettings(StrictModel):
    output_dir: str | None = Field(description="where predictions/metrics go; null = Hydra's run dir; reusing a dir resumes")
    batch_size: int = Field(ge=1, description="questions per Ray Data batch (one part file per finished batch)")
    num_workers: int = Field(ge=1, description="size of the method-worker actor pool")
    worker_num_cpus: float = Field(ge=0, description="CPUs reserved per method worker")
    worker_num_gpus: float = Field(ge=0, description="GPUs reserved per method worker")
    limit: int | None = Field(ge=1, description="evaluate only the first N questions of the split (null = all)")
    seed: int = Field(ge=0)
    resume: bool = Field(description="skip questions already written in output_dir; false = start over")
    retry_failed: bool = Field(description="on resume, re-run questions whose row has an error")
    progress: bool = Field(description="tqdm bar in the driver")


class StoreSettings(StrictModel):
    num_shards: int = Field(ge=1, description="fact-store shard actors (hash of the key entity)")
    max_restarts: int = Field(ge=0, description="a killed shard actor is rebuilt from the same KG file")
    reuse: bool = Field(True, description="keep the store + embedding service for the next run in this process (same KG and settings)")


class EmbeddingSettings(StrictModel):
    encoder: str = Field(min_length=1, description="packaged offline name or a hub name (clusters)")
    backend: str = Field(description=f"how the encoder runs on CPU: one of {', '.join(BACKENDS)} (docs/embeddings.md)")
    cache_dir: str = Field(min_length=1, description="on-disk embedding cache shared by runs")
    device: str | None = Field(description="null = cuda when available, else cpu")
    indices: list[str] = Field(description="indices built when the run starts; others on first use")
    num_cpus: float = Field(ge=0, description="CPU slots reserved for the embedding-service actor")
    threads: int | None = Field(ge=1, description="torch threads in that actor (null = all cores of its node)")
    warm: bool = Field(description="start building indices while the workers start")

    @field_validator("backend")
    @classmethod
    def _known_backend(cls, v: str) -> str:
        if v not in BACKENDS:
            raise ValueError(f"must be one of {', '.join(BACKENDS)} (got {v!r})")
        return v


class RaySettings(StrictModel):
    address: str | None = Field(description="'auto', 'ray://host:10001', or null = start a local Ray")
    num_cpus: int | None = Field(ge=1, description="local Ray only; null = all cores")
    object_store_memory: int | None = Field(ge=1, description="bytes, local Ray only")
    include_dashboard: bool | None = Field(description="local Ray only; null = Ray's default")
    namespace: str = Field(min_length=1)


class DatasetSettings(StrictModel):
    name: str = Field(min_length=1, description="a dataset registered in tkgqa_ray.data.loaders (or an alias)")
    root: str | None = Field(description="dataset root; null only for the packaged default")
    split: str = Field(description="a split of tkgqa_ray.data.loaders.SPLITS")
    kg: str | None = Field(description="override the KG file found under root")

    @field_validator("name")
    @classmethod
    def _registered(cls, v: str) -> str:
        from tkgqa_ray.data.loaders import dataset_key, dataset_names

        if dataset_key(v) is None:
            known = dataset_names()
            raise ValueError(f"is unknown: {v!r}{did_you_mean(v.lower(), known)} (known: {', '.join(known)})")
        return v

    @field_validator("split")
    @classmethod
    def _split(cls, v: str) -> str:
        from tkgqa_ray.data.loaders import SPLITS

        if v not in SPLITS:
            raise ValueError(f"must be one of {SPLITS} (got {v!r})")
        return v


class MethodSettings(StrictModel):
    name: str = Field(min_length=1, description='a registered method, or "module:Class"')
    options: dict[str, Any] | None = Field(None, description="checked against the method class's Options schema")


class AblationSettings(StrictModel):
    name: str = Field(min_length=1, description="'none' or one of the method's ablations")


class RunConfig(StrictModel):
    """The whole ``tkgqa-ray run`` config (``conf/config.yaml`` + the chosen group files)."""

    # (in the order errors are reported)
    run: RunSettings
    store: StoreSettings
    embeddings: EmbeddingSettings
    ray: RaySettings
    dataset: DatasetSettings
    method: MethodSettings
    ablation: AblationSettings
    backbone: dict[str, Any] = Field(description="validated by the schema of its kind (backbones/kinds/)")


def _plain(cfg: DictConfig) -> dict[str, Any]:
    """The resolved config as plain containers; a missing value or a broken interpolation is a
    :class:`ConfigError` naming its key."""
    try:
        data = OmegaConf.to_container(cfg, resolve=True, throw_on_missing=True)
    except OmegaConfBaseException as exc:  # MissingMandatoryValue and interpolation errors carry the key
        raise ConfigError(exc.full_key or "config", f"is required but not set ({type(exc).__name__}: {exc.msg or exc})") from None
    data.pop("hydra", None)  # present only with compose(return_hydra_config=True)
    return data  # type: ignore[return-value]


def _multirun() -> bool:
    try:
        from hydra.core.hydra_config import HydraConfig
        from hydra.types import RunMode

        return HydraConfig.initialized() and HydraConfig.get().mode == RunMode.MULTIRUN
    except Exception:  # noqa: BLE001 - not inside a Hydra app
        return False


def validate_config(cfg: DictConfig) -> RunConfig:
    """Raise :class:`ConfigError` for the first invalid key, else return the typed config.
    Cheap: imports the method class (its ablations and Options) and the backbone kind's
    module, nothing heavier."""
    conf: RunConfig = check(RunConfig, _plain(cfg))  # type: ignore[assignment]
    _check_paths(conf)
    _check_method(conf)
    from tkgqa_ray.backbones.factory import validate_backbone_config

    validate_backbone_config(conf.backbone)
    return conf


def _check_paths(conf: RunConfig) -> None:
    out = conf.run.output_dir
    if out is not None and _multirun():
        raise ConfigError("run.output_dir", "must not be set in a multirun sweep (each job gets its own dir under hydra.sweep.dir)")
    if out is not None and Path(out).exists() and not Path(out).is_dir():
        raise ConfigError("run.output_dir", f"exists and is not a directory: {out}")
    d = conf.dataset
    if d.name != "default" and d.root is None:
        raise ConfigError("dataset.root", f"is required for dataset {d.name!r} (dataset.root=DIR)")
    if d.root is not None and not Path(d.root).expanduser().is_dir():
        raise ConfigError("dataset.root", f"is not a directory: {d.root}")
    if d.kg is not None and not Path(d.kg).expanduser().is_file():
        raise ConfigError("dataset.kg", f"is not a file: {d.kg}")


def _check_method(conf: RunConfig) -> None:
    from tkgqa_ray.methods.base import method_class

    name = conf.method.name
    try:
        method_cls = method_class(name)
    except (KeyError, ImportError, AttributeError, TypeError) as exc:
        raise ConfigError("method.name", f"cannot be loaded: {exc.args[0] if exc.args else exc}") from None
    check(method_cls.Options, conf.method.options or {}, prefix="method.options")
    ablation = conf.ablation.name
    if ablation not in method_cls.ablations:
        raise ConfigError(
            "ablation.name",
            f"{ablation!r} is not an ablation of method {name!r} (choose from {', '.join(method_cls.ablations)})",
        )
