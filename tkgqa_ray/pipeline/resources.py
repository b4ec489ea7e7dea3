"""The run's shared actors and what a worker builds from them.

The driver builds the fact table once; the sharded store puts it in the object store (workers
map it zero-copy) and starts the fact-store shard actors; the embedding-service actor is
:mod:`tkgqa_ray.embed.actor`'s (named per run, owned by the driver so they die with it).
Workers get picklable clients of both. Each
worker then builds its backbone, ``RunContext`` and method exactly once.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from omegaconf import DictConfig, OmegaConf

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- shared run resources


@dataclass
class SharedResources:
    """What the driver starts once per run; ``worker_setup()`` is the picklable part workers get."""

    run_id: str
    store: Any  # ShardedFactStoreClient; its ``table`` is the run's FactTable in the object store
    embeddings: Any = None  # EmbeddingClient of the run's embedding-service actor
    actors: list[Any] = field(default_factory=list)
    stop_fns: list[Any] = field(default_factory=list)
    backbone_cfg: dict[str, Any] | None = None  # what workers build (e.g. openai -> the shared server)

    def shutdown(self) -> None:
        import ray

        for fn in self.stop_fns:
            try:
                fn()
            except Exception:  # noqa: BLE001
                log.debug("shutdown hook failed", exc_info=True)
        for a in self.actors:
            try:
                ray.kill(a, no_restart=True)
            except Exception:  # noqa: BLE001
                pass


def _build_store(table: Any, kg_path: str, cfg: DictConfig, run_id: str, namespace: str | None):
    """The sharded fact store (shard actors keyed by hash of the key entity); it puts ``table``
    in the object store once, and workers map it from there zero-copy."""
    from tkgqa_ray.kg.sharded import start_sharded_store

    return start_sharded_store(
        kg_path, num_shards=int(cfg.store.num_shards), name=f"tkgqa-store-{run_id}", namespace=namespace,
        max_restarts=int(cfg.store.max_restarts), table=table,
    )


def _build_embeddings(kg_path: str, cfg: DictConfig, run_id: str, namespace: str | None):
    """The run's embedding-service actor (:mod:`tkgqa_ray.embed.actor`), rebuilt from the KG
    file if it is restarted; not waited for: its one-time index builds overlap the workers
    starting, and ``embeddings.warm=false`` defers them to the first call."""
    from tkgqa_ray.embed.actor import EmbeddingClient

    e = cfg.embeddings
    client = EmbeddingClient.create(
        kg_path, name=f"tkgqa-embed-{run_id}", namespace=namespace, get_if_exists=False,
        num_cpus=float(e.num_cpus), max_restarts=int(cfg.store.max_restarts), max_concurrency=8,
        wait=False, warm=bool(e.warm),
        encoder_name=str(e.encoder), cache_dir=str(e.cache_dir), indices=tuple(e.indices), device=e.device,
        threads=e.threads, backend=str(e.backend),
    )
    stops = []
    if bool(OmegaConf.select(cfg, "run.progress", default=True)):
        # One-time index builds run in that actor; show them in this console (bar + ETA,
        # "cached at" / "reused" lines) while the question bar waits for its first batch.
        stops.append(client.watch_progress().stop)
    return client, stops


def start_shared(table: Any, kg_path: str, cfg: DictConfig) -> SharedResources:
    import ray

    run_id = uuid.uuid4().hex[:10]
    namespace = ray.get_runtime_context().namespace or OmegaConf.select(cfg, "ray.namespace")
    store, stop_store = _build_store(table, kg_path, cfg, run_id, namespace)
    res = SharedResources(run_id, store, stop_fns=[stop_store])
    try:
        res.embeddings, stops = _build_embeddings(kg_path, cfg, run_id, namespace)
        res.actors.append(res.embeddings.handle)
        res.stop_fns += stops
        # once per run: a CPU vLLM server / vLLM engine pool shared by every worker
        from tkgqa_ray.backbones.factory import prepare_backbone

        prepared = prepare_backbone(cfg.backbone)
        res.backbone_cfg = prepared.worker_cfg
        res.stop_fns.append(prepared.close)
    except BaseException:
        res.shutdown()
        raise
    return res


def _plugin_method(name: str) -> Any:
    """A ``module:Class`` method outside the package travels by value (cloudpickle), so a
    plugin file next to the driver works on workers that cannot import it."""
    import sys

    from ray import cloudpickle

    from tkgqa_ray.methods.base import method_class

    cls = method_class(name)
    mod = sys.modules.get(cls.__module__)
    if mod is None or cls.__module__.split(".")[0] == "tkgqa_ray":
        return None
    cloudpickle.register_pickle_by_value(mod)
    return cls


def worker_setup(res: SharedResources, cfg: DictConfig, meta: dict[str, str]) -> dict[str, Any]:
    plain = OmegaConf.to_container(cfg, resolve=True)
    if res.backbone_cfg is not None:
        plain["backbone"] = res.backbone_cfg
    return {
        "method_cls": _plugin_method(str(cfg.method.name)),
        "meta": meta,
        "cfg": plain,
        "store": res.store,
        "embeddings": res.embeddings,
    }


def build_worker_method(setup: dict[str, Any]):
    """Inside a worker actor: connect, build backbone + RunContext + method once."""
    from tkgqa_ray.backbones.factory import build_backbone
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.methods.base import method_class

    cfg = setup["cfg"]
    table = setup["store"].table  # zero-copy from the object store
    options = dict(cfg["method"].get("options") or {})
    backbone = build_backbone(cfg["backbone"], cache_dir=cfg.get("backbone_cache_dir"))
    ctx = RunContext(table=table, store=setup["store"], embeddings=setup["embeddings"], backbone=backbone, options=options)
    backbone.bind(ctx)
    cls = setup.get("method_cls") or method_class(cfg["method"]["name"])
    method = cls(ctx, ablation=cfg["ablation"]["name"], **options)
    return method, ctx
