"""The run's shared actors and what a worker builds from them.

The driver builds the fact table once; the sharded store puts it in the object store (workers
map it zero-copy) and starts the fact-store shard actors; the embedding-service actor is
:mod:`tkgqa_ray.embed.actor`'s (named per run, owned by the driver so they die with it).
Workers get picklable clients of both. Each
worker then builds its backbone, ``RunContext`` and method exactly once.

Runs in one driver process (a Hydra multirun sweep, a notebook, a test session) keep the store
and the embedding service for the next run over the same KG (``store.reuse``): a sweep's second
job then starts no shard actor, parses no KG file in a shard, puts no table in the object store
and keeps the FAISS indices loaded. One set is kept at a time (a run over another KG, or with
other store / embedding settings, stops it first), it is checked alive before it is reused, and
it is stopped at interpreter exit (the actors are the driver's, so they die with it anyway).
"""

from __future__ import annotations

import atexit
import json
import logging
import threading
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
    reused_from: str | None = None  # run id whose store + embedding service this run reuses
    kept: "KeptActors | None" = None  # handed back to the keeper at shutdown (store.reuse)

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
        if self.kept is not None:
            _keep(self.kept)
            self.kept = None


@dataclass
class KeptActors:
    """A run's store and embedding service, kept for the next run in this process."""

    key: tuple
    run_id: str
    store: Any
    stop_store: Any
    embeddings: Any

    def alive(self, timeout_s: float = 30.0) -> bool:
        import ray

        try:
            self.store.shard_info()  # every shard answers (a restarted one after its rebuild)
            ray.get(self.embeddings.handle.__ray_ready__.remote(), timeout=timeout_s)
            return True
        except Exception:  # noqa: BLE001 - any failure: build afresh
            log.info("kept store / embedding service of run %s is gone; starting new ones", self.run_id, exc_info=True)
            return False

    def stop(self) -> None:
        import ray

        for fn in (self.stop_store, lambda: ray.kill(self.embeddings.handle, no_restart=True)):
            try:
                fn()
            except Exception:  # noqa: BLE001 - already gone is fine
                pass


_KEPT: KeptActors | None = None
_KEPT_LOCK = threading.Lock()
_ATEXIT = False


def _keep(kept: KeptActors) -> None:
    global _KEPT, _ATEXIT
    with _KEPT_LOCK:
        old, _KEPT = _KEPT, kept
        if not _ATEXIT:
            atexit.register(release_kept_actors)  # after ray.init's own hook: runs before ray.shutdown
            _ATEXIT = True
    if old is not None and old is not kept:
        old.stop()


def _take_kept(key: tuple) -> KeptActors | None:
    """The kept set if it matches ``key`` and answers; any other kept set is stopped."""
    global _KEPT
    with _KEPT_LOCK:
        kept, _KEPT = _KEPT, None
    if kept is None:
        return None
    if kept.key != key:
        if kept.key[:3] == key[:3]:  # same cluster and job: ours to stop (else Ray already did)
            kept.stop()
        return None
    if not kept.alive():
        kept.stop()
        return None
    return kept


def release_kept_actors() -> None:
    """Stop the store and embedding service kept for a next run (notebooks: frees their memory)."""
    global _KEPT
    with _KEPT_LOCK:
        kept, _KEPT = _KEPT, None
    if kept is not None:
        try:
            import ray

            if ray.is_initialized() and ray.get_runtime_context().gcs_address == kept.key[0]:
                kept.stop()
        except Exception:  # noqa: BLE001 - at exit, Ray may be half down
            pass


def reuse_key(table: Any, kg_path: str, cfg: DictConfig) -> tuple:
    """What the store and embedding service depend on: the Ray cluster and job they live in,
    the KG's content and file, and every store / embedding setting."""
    import ray

    ctx = ray.get_runtime_context()
    settings = {
        "store": {k: v for k, v in OmegaConf.to_container(cfg.store, resolve=True).items() if k != "reuse"},
        "embeddings": OmegaConf.to_container(cfg.embeddings, resolve=True),
    }
    return (ctx.gcs_address, ctx.get_job_id(), ctx.namespace, table.content_hash, str(kg_path),
            json.dumps(settings, sort_keys=True, default=str))


def _build_store(table: Any, kg_path: str, cfg: DictConfig, run_id: str, namespace: str | None):
    """The sharded fact store (shard actors keyed by hash of the key entity); it puts ``table``
    in the object store once, and workers map it from there zero-copy."""
    from tkgqa_ray.kg.sharded import start_sharded_store

    return start_sharded_store(
        kg_path, num_shards=int(cfg.store.num_shards), name=f"tkgqa-store-{run_id}", namespace=namespace,
        max_restarts=int(cfg.store.max_restarts), table=table,
    )


def embedding_settings(cfg: DictConfig) -> dict[str, Any]:
    """The ``EmbeddingService`` keyword arguments of ``cfg.embeddings``: one source for the run's
    actor and for ``tkgqa-ray plan``'s in-process service, so a plan encodes with the run's
    encoder *and backend* (its evidence, hence its prompt sizes, are the run's)."""
    e = cfg.embeddings
    return {"encoder_name": str(e.encoder), "cache_dir": str(e.cache_dir), "indices": tuple(e.indices),
            "device": e.device, "threads": e.threads, "backend": str(e.backend)}


def _build_embeddings(kg_path: str, cfg: DictConfig, run_id: str, namespace: str | None):
    """The run's embedding-service actor (:mod:`tkgqa_ray.embed.actor`), rebuilt from the KG
    file if it is restarted; not waited for: its one-time index builds overlap the workers
    starting, and ``embeddings.warm=false`` defers them to the first call."""
    from tkgqa_ray.embed.actor import EmbeddingClient

    e = cfg.embeddings
    client = EmbeddingClient.create(
        kg_path, name=f"tkgqa-embed-{run_id}", namespace=namespace, get_if_exists=False,
        num_cpus=float(e.num_cpus), max_restarts=int(cfg.store.max_restarts), max_concurrency=8,
        wait=False, warm=bool(e.warm), **embedding_settings(cfg),
    )
    return client


def start_shared(table: Any, kg_path: str, cfg: DictConfig) -> SharedResources:
    import ray

    run_id = uuid.uuid4().hex[:10]
    namespace = ray.get_runtime_context().namespace or OmegaConf.select(cfg, "ray.namespace")
    reuse = bool(OmegaConf.select(cfg, "store.reuse", default=True))
    key = reuse_key(table, kg_path, cfg)
    kept = _take_kept(key) if reuse else None
    if not reuse:
        release_kept_actors()
    if kept is not None:
        log.info("reusing the KG store and embedding service of run %s (same KG and settings)", kept.run_id)
        res = SharedResources(run_id, kept.store, embeddings=kept.embeddings, reused_from=kept.run_id, kept=kept)
    else:
        store, stop_store = _build_store(table, kg_path, cfg, run_id, namespace)
        res = SharedResources(run_id, store, stop_fns=[stop_store])
    try:
        if kept is None:
            res.embeddings = _build_embeddings(kg_path, cfg, run_id, namespace)
            if reuse:  # handed to the keeper at shutdown instead of stopped
                res.stop_fns.remove(stop_store)
                res.kept = KeptActors(key, run_id, res.store, stop_store, res.embeddings)
            else:
                res.actors.append(res.embeddings.handle)
        if bool(OmegaConf.select(cfg, "run.progress", default=True)):
            # One-time index builds run in that actor; show them in this console (bar + ETA,
            # "cached at" / "reused" lines) while the question bar waits for its first batch.
            res.stop_fns.append(res.embeddings.watch_progress().stop)
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
