"""The run's shared actors and what a worker builds from them.

The driver builds the fact table once, puts it in the object store (workers map it
zero-copy), starts the fact-store shard actors and the embedding-service actor (named per
run, owned by the driver so they die with it), and hands workers picklable clients. Each
worker then builds its backbone, ``RunContext`` and method exactly once.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from typing import Any

from omegaconf import DictConfig, OmegaConf

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- generic proxy


class _Hosted:
    """Actor body hosting one object built *inside* the actor from a factory.

    The object is built on first use (or by ``ready()``, which the driver fires without
    waiting), so a slow build (loading an encoder, embedding a KG) overlaps with the workers
    starting, and a method that never uses the service never pays for it.
    """

    def __init__(self, factory: Any, args: tuple, kwargs: dict) -> None:
        import threading

        self._factory, self._args, self._kwargs = factory, args, kwargs
        self._lock = threading.Lock()
        self._obj: Any = None

    def _get(self) -> Any:
        with self._lock:
            if self._obj is None:
                self._obj = self._factory(*self._args, **self._kwargs)
            return self._obj

    def call(self, name: str, args: tuple, kwargs: dict) -> Any:
        return getattr(self._get(), name)(*args, **kwargs)

    def ready(self) -> bool:
        self._get()
        return True

    def progress(self, cursor: int = 0) -> dict:
        """One-time build progress in this actor process (never waits for the build)."""
        from tkgqa_ray.embed.progress import board_snapshot

        return board_snapshot(cursor)


class ActorProxy:
    """Forwards method calls to a hosted object; picklable (holds an actor handle).

    Calls are retried while a restartable actor is being rebuilt (``max_restarts``), so a
    killed service actor costs latency, not error rows.
    """

    def __init__(self, handle: Any, retries: int = 20, backoff_s: float = 0.25) -> None:
        self._handle = handle
        self._retries = retries
        self._backoff_s = backoff_s

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            import time

            import ray
            from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

            for attempt in range(self._retries + 1):
                try:
                    return ray.get(self._handle.call.remote(name, args, kwargs))
                except (ActorUnavailableError, ActorDiedError, RayActorError):
                    if attempt == self._retries:
                        raise
                    time.sleep(min(self._backoff_s * 2**attempt, 5.0))

        return call


def host_actor(factory: Any, *args: Any, name: str, namespace: str | None, max_restarts: int = 3, num_cpus: float = 0, wait: bool = True, warm: bool = True, **kwargs: Any) -> ActorProxy:
    import ray

    cls = ray.remote(_Hosted).options(
        name=name, namespace=namespace, max_restarts=max_restarts, max_task_retries=0, num_cpus=num_cpus,
        max_concurrency=8,
    )
    handle = cls.remote(factory, args, kwargs)
    if wait:
        ray.get(handle.ready.remote())
    elif warm:
        handle.ready.remote()  # start building now; calls wait for it
    return ActorProxy(handle)


# --------------------------------------------------------------------------- shared run resources


@dataclass
class SharedResources:
    """What the driver starts once per run; ``setup()`` is the picklable part workers get."""

    run_id: str
    table_ref: Any
    store: Any
    embeddings: Any
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
    """The sharded fact store (shard actors keyed by hash of the key entity)."""
    from tkgqa_ray.kg.sharded import start_sharded_store

    store, stop = start_sharded_store(
        kg_path, num_shards=int(cfg.store.num_shards), name=f"tkgqa-store-{run_id}", namespace=namespace,
        max_restarts=int(cfg.store.max_restarts), table=table,
    )
    return store, [], [stop]


def _embedding_service(kg_path: str, encoder: str, cache_dir: str, device: str | None, indices: list[str],
                       threads: int | None = None, backend: str = "torch"):
    import os

    import torch

    n = int(threads or os.cpu_count() or 1)
    torch.set_num_threads(n)  # Ray set OMP threads to 1 here

    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.kg import load_kg

    return EmbeddingService(load_kg(kg_path), encoder_name=encoder, cache_dir=cache_dir, indices=tuple(indices),
                            device=device, backend=backend, threads=n, progress=False)


def _build_embeddings(kg_path: str, cfg: DictConfig, run_id: str, namespace: str | None):
    e = cfg.embeddings
    args = (kg_path, str(e.encoder), str(e.cache_dir), e.device, list(e.indices), e.get("threads"),
            str(e.get("backend", "torch")))
    proxy = host_actor(
        _embedding_service, *args, name=f"tkgqa-embed-{run_id}", namespace=namespace,
        max_restarts=int(cfg.store.max_restarts), wait=False, warm=bool(e.get("warm", True)),
        num_cpus=float(e.get("num_cpus", 0)),
    )
    stops = []
    if bool(OmegaConf.select(cfg, "run.progress", default=True)):
        # One-time index builds run in that actor; show them in this console (bar + ETA,
        # "cached at" / "reused" lines) while the question bar waits for its first batch.
        import ray

        from tkgqa_ray.embed.progress import ProgressPoller

        handle = proxy._handle
        poller = ProgressPoller(lambda cursor: ray.get(handle.progress.remote(cursor), timeout=30)).start()
        stops.append(poller.stop)
    return proxy, [proxy._handle], stops


def start_shared(table: Any, kg_path: str, cfg: DictConfig) -> SharedResources:
    import ray

    run_id = uuid.uuid4().hex[:10]
    namespace = OmegaConf.select(cfg, "ray.namespace")
    ctx_ns = ray.get_runtime_context().namespace
    namespace = ctx_ns or namespace
    store, actors, stops = _build_store(table, kg_path, cfg, run_id, namespace)
    table_ref = getattr(store, "_table_ref", None) or ray.put(table)  # the store's copy when it has one
    res = SharedResources(run_id, table_ref, store, None, actors, stops)
    try:
        emb, eactors, estops = _build_embeddings(kg_path, cfg, run_id, namespace)
    except BaseException:
        res.shutdown()
        raise
    res.embeddings = emb
    res.actors += eactors
    res.stop_fns += estops
    try:  # once per run: a CPU vLLM server / vLLM engine pool shared by every worker
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
        "table_ref": [res.table_ref],  # wrapped: Ray does not resolve nested refs for us
        "store": res.store,
        "embeddings": res.embeddings,
    }


def build_worker_method(setup: dict[str, Any]):
    """Inside a worker actor: connect, build backbone + RunContext + method once."""
    import ray

    from tkgqa_ray.backbones.factory import build_backbone
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.methods.base import method_class

    cfg = setup["cfg"]
    table = ray.get(setup["table_ref"][0])
    options = dict(cfg["method"].get("options") or {})
    backbone = build_backbone(cfg["backbone"], cache_dir=cfg.get("backbone_cache_dir"))
    ctx = RunContext(table=table, store=setup["store"], embeddings=setup["embeddings"], backbone=backbone, options=options)
    backbone.bind(ctx)
    cls = setup.get("method_cls") or method_class(cfg["method"]["name"])
    method = cls(ctx, ablation=cfg["ablation"]["name"], **options)
    return method, ctx
