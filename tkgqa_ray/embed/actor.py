"""Ray actor form of :class:`EmbeddingService`: one model + indices per run, shared by name.

Pipeline workers do not each load MiniLM and re-build FAISS indices: one named actor per run
(started by ``pipeline/resources.py``) holds them and every worker's :class:`EmbeddingClient`
talks to it. Each client call sends the whole batch
in one remote call (encode 64 questions = one round trip, not 64). The client is picklable and
has the service's API, so a stage cannot tell it from the in-process class.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

import numpy as np
import ray

from tkgqa_ray.embed.service import EmbeddingService

log = logging.getLogger(__name__)

DEFAULT_ACTOR_NAME = "tkgqa-embeddings"


class _EmbeddingServiceActor:
    """Builds the service inside the actor; ``table`` may be a FactTable, an ObjectRef of one,
    a mapping of corpora, or a KG file path (rebuilt from the file, e.g. after a restart).

    The service is built on the first call (``ready()``), not in the constructor, so
    ``progress()`` — served on another thread of this threaded actor — can report the
    model load and the eager index builds while they run.
    """

    def __init__(self, table: Any = None, **service_kwargs: Any) -> None:
        import threading

        self._args = (table, service_kwargs)
        self._service: EmbeddingService | None = None
        self._build_lock = threading.Lock()

    @property
    def service(self) -> EmbeddingService:
        with self._build_lock:
            if self._service is None:
                import os

                import torch

                table, kwargs = self._args
                kwargs.setdefault("progress", False)  # the driver draws the bars
                # Ray sets OMP threads to 1 in an actor; this one owns its node's cores (or `threads`)
                kwargs["threads"] = int(kwargs.get("threads") or os.cpu_count() or 1)
                torch.set_num_threads(kwargs["threads"])
                self._service = EmbeddingService(table, **kwargs)
            return self._service

    def ready(self) -> dict:
        return {"model": self.service.model_name, "dim": self.service.dim,
                "indices": self.service.index_names()}

    def progress(self, cursor: int = 0) -> dict:
        """This process's build progress (see :mod:`tkgqa_ray.embed.progress`); never blocks."""
        from tkgqa_ray.embed.progress import board_snapshot

        return board_snapshot(cursor)

    def call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Dispatch one public service method (the client's single entry point)."""
        if method.startswith("_") or method not in _REMOTE_METHODS:
            raise AttributeError(f"EmbeddingService has no remote method {method!r}")
        return getattr(self.service, method)(*args, **kwargs)


_REMOTE_METHODS = frozenset({
    "encode", "search", "similarity", "similar", "similar_many", "similar_entities",
    "similar_relations", "build", "size", "texts", "vectors", "stats", "index_names", "is_built",
})

EmbeddingServiceActor = ray.remote(_EmbeddingServiceActor)


class EmbeddingClient:
    """Same API as :class:`EmbeddingService`, backed by a (named) :data:`EmbeddingServiceActor`."""

    def __init__(self, handle: "ray.actor.ActorHandle", timeout_s: float | None = None,
                 retries: int = 20, backoff_s: float = 0.25) -> None:
        self.handle = handle
        self.timeout_s = timeout_s
        self.retries = retries  # calls wait out a restarting actor (max_restarts): latency, not error rows
        self.backoff_s = backoff_s
        self._meta: dict | None = None

    # -- lifecycle ------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        table: Any = None,
        name: str | None = DEFAULT_ACTOR_NAME,
        *,
        namespace: str | None = None,
        num_cpus: float = 1,
        num_gpus: float = 0,
        max_restarts: int = 2,
        get_if_exists: bool = True,
        lifetime: str | None = None,
        wait: bool = True,
        warm: bool = True,
        progress: bool = True,
        max_concurrency: int = 4,
        **service_kwargs: Any,
    ) -> "EmbeddingClient":
        """Start the actor (or attach to an existing one of that ``name``).

        ``table`` is shipped once through the object store (pass ``ray.put(table)`` to share a
        ref you already have, or a KG path so a restarted actor rebuilds from the file).
        ``service_kwargs`` go to :class:`EmbeddingService` (``encoder_name``, ``cache_dir``,
        ``indices``, ``fact_index``, ``device``, ``batch_size``, ``index_config``, ...).
        ``wait`` blocks until the model is loaded and the eager indices are built, drawing
        their progress here when ``progress`` (see :meth:`watch_progress`); without ``wait``,
        ``warm`` starts that build now (calls wait for it), else the first call starts it.
        """
        # threaded: progress() answers while a build runs (the service itself is thread-safe)
        opts: dict[str, Any] = {"num_cpus": num_cpus, "num_gpus": num_gpus,
                                "max_restarts": max_restarts, "max_task_retries": 0,
                                "max_concurrency": max_concurrency}
        if name:
            opts.update(name=name, get_if_exists=get_if_exists)
        if namespace:
            opts["namespace"] = namespace
        if lifetime:
            opts["lifetime"] = lifetime
        handle = EmbeddingServiceActor.options(**opts).remote(table, **service_kwargs)
        client = cls(handle)
        if wait:
            poller = client.watch_progress(bars=progress)
            try:
                client._meta = ray.get(handle.ready.remote())
            finally:
                poller.stop()
        elif warm:
            handle.ready.remote()  # start building now, overlapping whatever the caller does next
        return client

    def progress(self, cursor: int = 0) -> dict:
        """Snapshot of the actor's builds: ``{"cursor", "builds", "messages"}`` (served on its own
        thread, so it never waits for a build; 30 s bounds a dead actor)."""
        return ray.get(self.handle.progress.remote(cursor), timeout=self.timeout_s or 30)

    def watch_progress(self, bars: bool = True, interval_s: float = 0.5, **kwargs: Any):
        """Start a :class:`~tkgqa_ray.embed.progress.ProgressPoller` on this actor (in the
        driver): tqdm bars with rate and ETA for its builds; ``.stop()`` it when done."""
        from tkgqa_ray.embed.progress import ProgressPoller

        return ProgressPoller(self.progress, interval_s=interval_s, bars=bars, **kwargs).start()

    @classmethod
    def connect(cls, name: str = DEFAULT_ACTOR_NAME, namespace: str | None = None) -> "EmbeddingClient":
        """Attach to a running named actor (what pipeline workers do)."""
        try:
            handle = ray.get_actor(name, namespace=namespace)
        except ValueError as exc:
            raise LookupError(
                f"no embedding service actor named {name!r}"
                f"{f' in namespace {namespace!r}' if namespace else ''}; start one with "
                "EmbeddingClient.create(table, name=...)"
            ) from exc
        return cls(handle)

    def kill(self) -> None:
        ray.kill(self.handle, no_restart=True)

    def __reduce__(self):  # ship the handle, not the cached metadata
        return (EmbeddingClient, (self.handle, self.timeout_s, self.retries, self.backoff_s))

    # -- service API ------------------------------------------------------------------------
    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        import time

        from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

        for attempt in range(self.retries + 1):
            try:
                return ray.get(self.handle.call.remote(method, *args, **kwargs), timeout=self.timeout_s)
            except (ActorUnavailableError, ActorDiedError, RayActorError):
                if attempt == self.retries:
                    raise
                time.sleep(min(self.backoff_s * 2**attempt, 5.0))

    def _info(self) -> dict:
        if self._meta is None:
            self._meta = ray.get(self.handle.ready.remote(), timeout=self.timeout_s)
        return self._meta

    @property
    def model_name(self) -> str:
        return self._info()["model"]

    @property
    def dim(self) -> int:
        return int(self._info()["dim"])

    def index_names(self) -> list[str]:
        return list(self._info()["indices"])

    def encode(self, texts: Sequence[str] | str) -> np.ndarray:
        return self._call("encode", _plain(texts))

    def search(self, index: str, queries, k: int = 10) -> tuple[np.ndarray, np.ndarray]:
        return self._call("search", index, _plain(queries), k)

    def similarity(self, index: str, queries, ids) -> np.ndarray:
        return self._call("similarity", index, _plain(queries), np.asarray(ids, np.int64))

    def similar(self, index: str, text: str, k: int = 10, threshold: float | None = None):
        return self._call("similar", index, text, k, threshold)

    def similar_many(self, index: str, texts: Sequence[str], k: int = 10,
                     threshold: float | None = None):
        return self._call("similar_many", index, list(texts), k, threshold)

    def similar_entities(self, text: str, k: int = 10, threshold: float | None = None):
        return self._call("similar_entities", text, k, threshold)

    def similar_relations(self, text: str, k: int = 10, threshold: float | None = None):
        return self._call("similar_relations", text, k, threshold)

    def build(self, index: str) -> dict:
        return self._call("build", index)

    def is_built(self, index: str) -> bool:
        return self._call("is_built", index)

    def size(self, index: str) -> int:
        return self._call("size", index)

    def texts(self, index: str) -> list[str]:
        return self._call("texts", index)

    def vectors(self, index: str) -> np.ndarray:
        return self._call("vectors", index)

    def stats(self) -> dict:
        return self._call("stats")


def _plain(x: Any) -> Any:
    """Strings/arrays travel as is; other sequences (tuples, pandas/arrow columns) as lists."""
    if isinstance(x, (str, np.ndarray)):
        return x
    return list(x)
