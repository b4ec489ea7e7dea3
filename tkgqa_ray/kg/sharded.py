"""The fact store sharded over N Ray actors, and the client stages use.

Placement: a fact's subject-keyed postings ((s,r), (s,o), s, r, all) live on shard
``shard_of(subject)``, its object-keyed postings ((r,o), o) on ``shard_of(object)``. So a query
with a subject goes to one shard, one with only an object to one shard, ``entity=e`` expands
to (subject=e) ∨ (object=e) which both land on ``shard_of(e)``, and relation-only / key-less
queries scatter to every shard (each holds a disjoint subject partition) and are merged.

Each shard actor is built from the *source file(s)* plus its shard id — never from data
shipped by the driver — so when Ray restarts a dead shard (``max_restarts``) it rebuilds the
same postings by itself; a content hash check makes a changed file fail loudly instead of
answering from a different graph. The table (int32 columns + names) is ``ray.put`` once by
the creator and read zero-copy by every client, which needs it to merge shard answers by
start day and to render facts.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from .loader import load_kgs
from .store import FactStore, QuerySpec, _EMPTY, as_spec, between_specs, expand_entity, finish, merge_sorted
from .table import FactTable

log = logging.getLogger(__name__)

_HASH_MUL = np.uint64(2654435761)  # Knuth multiplicative hash: stable across processes


def shard_of(entity_ids, num_shards: int):
    """Shard of an entity id (int or array). Deterministic: ids are ranks of sorted names."""
    if isinstance(entity_ids, (int, np.integer)):
        return int(((int(entity_ids) * 2654435761) & 0xFFFFFFFF) % num_shards)
    a = np.asarray(entity_ids).astype(np.uint64)
    return (((a * _HASH_MUL) & np.uint64(0xFFFFFFFF)) % np.uint64(num_shards)).astype(np.int64)


def _paths(paths) -> list[str]:
    return [str(paths)] if isinstance(paths, (str, Path)) else [str(p) for p in paths]


def shard_name(name_prefix: str, shard_id: int) -> str:
    return f"{name_prefix}-kg-shard-{shard_id}"


class FactShard:
    """One shard's postings. Used as a Ray actor (``ray.remote(FactShard)``); plain class
    otherwise, which keeps it testable without Ray."""

    def __init__(
        self,
        paths: Sequence[str],
        shard_id: int,
        num_shards: int,
        expected_hash: str | None = None,
    ) -> None:
        if not 0 <= shard_id < num_shards:
            raise ValueError(f"shard_id {shard_id} not in [0, {num_shards})")
        t0 = time.perf_counter()
        table = load_kgs(list(paths))
        if expected_hash is not None and table.content_hash != expected_hash:
            raise RuntimeError(
                f"KG {list(paths)} changed since the store was created "
                f"(content hash {table.content_hash[:12]} != {expected_hash[:12]}); refusing to serve it"
            )
        s_facts = np.flatnonzero(shard_of(table.s, num_shards) == shard_id)
        o_facts = np.flatnonzero(shard_of(table.o, num_shards) == shard_id)
        self.store = FactStore(table, s_facts=s_facts, o_facts=o_facts)
        self.shard_id, self.num_shards = shard_id, num_shards
        self.content_hash = table.content_hash
        self.build_seconds = time.perf_counter() - t0
        self.num_s_facts, self.num_o_facts = len(s_facts), len(o_facts)

    def info(self) -> dict[str, Any]:
        import os

        return {
            "shard_id": self.shard_id,
            "num_shards": self.num_shards,
            "content_hash": self.content_hash,
            "s_facts": self.num_s_facts,
            "o_facts": self.num_o_facts,
            "build_seconds": self.build_seconds,
            "pid": os.getpid(),
        }

    def query_plain_many(self, specs: Sequence[QuerySpec]) -> tuple[np.ndarray, np.ndarray]:
        """Entity-free specs → all answers concatenated + lengths (one array, not a list of
        small ones, keeps the reply cheap to serialise)."""
        outs = [self.store.query_plain(s) for s in specs]
        lens = np.fromiter((len(x) for x in outs), dtype=np.int64, count=len(outs))
        return (np.concatenate(outs) if outs else _EMPTY), lens


class TableHolder:
    """Tiny named actor holding ``[ObjectRef]`` of the shared table so clients attaching by
    name find it. Kept out of the restartable shards: Ray cannot promise to restore object
    store arguments of a restarted actor (ray-project/ray#53727), and shards must not need them."""

    def __init__(self, table_box: list, content_hash: str) -> None:
        self.table_box = table_box
        self.content_hash = content_hash

    def get(self) -> tuple[list, str]:
        return self.table_box, self.content_hash


def holder_name(name_prefix: str) -> str:
    return f"{name_prefix}-kg-table"


class ShardedFactStoreClient:
    """Same ``query`` / ``query_many`` / ``facts_between`` API as ``FactStore``, answered by
    the shard actors. Picklable (actor handles + the table's ObjectRef): pass it to workers,
    or rebuild it in a worker with :meth:`connect`."""

    def __init__(self, handles: Sequence[Any], table_ref: Any, name_prefix: str | None = None, namespace: str | None = None):
        self._handles = list(handles)
        self._table_ref = table_ref
        self.name_prefix = name_prefix
        self.namespace = namespace
        self._table: FactTable | None = None

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_table"] = None  # re-read zero-copy from the object store on the other side
        return d

    @classmethod
    def connect(cls, name_prefix: str, num_shards: int, namespace: str | None = None, timeout_s: float = 60.0) -> "ShardedFactStoreClient":
        """Attach to a running sharded store by name (e.g. from a pipeline worker)."""
        import ray

        deadline = time.monotonic() + timeout_s
        handles = []
        for i in range(num_shards):
            while True:
                try:
                    handles.append(ray.get_actor(shard_name(name_prefix, i), namespace=namespace))
                    break
                except ValueError:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"no KG shard actor {shard_name(name_prefix, i)!r} in namespace {namespace!r}") from None
                    time.sleep(0.2)
        holder = ray.get_actor(holder_name(name_prefix), namespace=namespace)
        box, content_hash = ray.get(holder.get.remote())
        client = cls(handles, box[0], name_prefix, namespace)
        hashes = {i["content_hash"] for i in client.shard_info()}
        if hashes != {content_hash}:
            raise RuntimeError(f"KG shards {name_prefix!r} disagree with the shared table: {hashes} vs {content_hash}")
        return client

    @property
    def num_shards(self) -> int:
        return len(self._handles)

    @property
    def handles(self) -> list[Any]:
        return list(self._handles)

    @property
    def table(self) -> FactTable:
        if self._table is None:
            import ray

            self._table = ray.get(self._table_ref)
        return self._table

    # ------------------------------------------------------------------ remote calls
    restart_timeout_s: float = 120.0  # how long the one retry waits for a restarting shard

    def _retry(self, shard: int, method: str, *args):
        """The one retry after a failure. It waits while the shard reports itself unavailable
        (restarting: Ray fails such calls fast instead of queueing them); a shard that is dead
        for good (``ActorDiedError``) or fails again raises."""
        import ray
        from ray.exceptions import ActorUnavailableError

        deadline = time.monotonic() + self.restart_timeout_s
        delay = 0.05
        while True:
            try:
                return ray.get(getattr(self._handles[shard], method).remote(*args))
            except ActorUnavailableError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(delay)
                delay = min(2 * delay, 1.0)

    def _call_with_retry(self, shard: int, method: str, *args):
        import ray
        from ray.exceptions import RayActorError

        try:
            return ray.get(getattr(self._handles[shard], method).remote(*args))
        except RayActorError as e:  # includes ActorUnavailableError / ActorDiedError
            log.warning("KG shard %d failed (%s); retrying once while it restarts", shard, type(e).__name__)
            return self._retry(shard, method, *args)

    def _gather(self, per_shard: dict[int, list[QuerySpec]]) -> dict[int, list[np.ndarray]]:
        """One remote call per shard, all in flight together; a failed shard is retried once."""
        import ray
        from ray.exceptions import RayActorError

        refs = {k: self._handles[k].query_plain_many.remote(v) for k, v in per_shard.items()}
        out: dict[int, list[np.ndarray]] = {}
        for k, ref in refs.items():
            try:
                flat, lens = ray.get(ref)
            except RayActorError as e:
                log.warning("KG shard %d failed (%s); retrying once while it restarts", k, type(e).__name__)
                flat, lens = self._retry(k, "query_plain_many", per_shard[k])
            out[k] = np.split(flat, np.cumsum(lens)[:-1]) if len(lens) else []
        return out

    # ------------------------------------------------------------------ query API
    def _ids(self, spec: QuerySpec) -> QuerySpec:
        t = self.table
        def ent(x):
            if x is None or isinstance(x, (int, np.integer)):
                return None if x is None else int(x)
            try:
                return t.entity_id[x]
            except KeyError:
                raise KeyError(f"unknown entity {x!r} (KG form, with underscores)") from None
        def rel(x):
            if isinstance(x, (int, np.integer)):
                return int(x)
            try:
                return t.relation_id[x]
            except KeyError:
                raise KeyError(f"unknown relation {x!r} (KG form, with underscores)") from None
        r = spec.relation
        if r is not None:
            r = rel(r) if isinstance(r, (str, int, np.integer)) else tuple(rel(x) for x in r)
        if spec.order not in ("asc", "desc"):
            raise ValueError(f"order must be 'asc' or 'desc', got {spec.order!r}")
        return replace(spec, subject=ent(spec.subject), object=ent(spec.object), entity=ent(spec.entity), relation=r)

    def _route(self, d: QuerySpec) -> list[int]:
        n = len(self._handles)
        if d.subject is not None:
            return [shard_of(d.subject, n)] if 0 <= d.subject < len(self.table.entities) else []
        if d.object is not None:
            return [shard_of(d.object, n)] if 0 <= d.object < len(self.table.entities) else []
        return list(range(n))

    def query_many(self, specs: Iterable[QuerySpec | Mapping[str, Any]]) -> list[np.ndarray]:
        """A batch: specs grouped by shard, one remote call per shard, answers merged."""
        specs = [self._ids(as_spec(q)) for q in specs]
        per_shard: dict[int, list[QuerySpec]] = {}
        slots: list[list[tuple[int, int]]] = []  # per spec: (shard, position in that shard's list)
        for spec in specs:
            mine: list[tuple[int, int]] = []
            for d in expand_entity(spec):
                for k in self._route(d):
                    lst = per_shard.setdefault(k, [])
                    mine.append((k, len(lst)))
                    lst.append(d)
            slots.append(mine)
        answers = self._gather(per_shard) if per_shard else {}
        start = self.table.start
        out = []
        for spec, mine in zip(specs, slots):
            if len(mine) == 1:  # one shard answered with order and limit applied already
                k, i = mine[0]
                out.append(answers[k][i])
                continue
            parts = [answers[k][i] for k, i in mine]
            if spec.order == "desc":
                parts = [p[::-1] for p in parts]
            out.append(finish(merge_sorted(parts, start), spec.order, spec.limit))
        return out

    def query(
        self,
        subject=None,
        relation=None,
        object=None,
        entity=None,
        start_min: int | None = None,
        start_max: int | None = None,
        overlaps: tuple[int, int] | None = None,
        order: str = "asc",
        limit: int | None = None,
    ) -> np.ndarray:
        return self.query_many([QuerySpec(subject, relation, object, entity, start_min, start_max, overlaps, order, limit)])[0]

    def query_spec(self, spec: QuerySpec) -> np.ndarray:
        return self.query_many([spec])[0]

    def query_many_merged(self, specs: Sequence[QuerySpec], order: str = "asc", limit: int | None = None) -> np.ndarray:
        parts = self.query_many([replace(as_spec(s), order="asc", limit=None) for s in specs])
        return finish(merge_sorted(parts, self.table.start), order, limit)

    def facts_between(self, a, b, both_directions: bool = True, relation=None, start_min=None, start_max=None,
                      overlaps=None, order: str = "asc", limit: int | None = None) -> np.ndarray:
        return self.query_many_merged(between_specs(a, b, both_directions, relation, start_min, start_max, overlaps), order, limit)

    def shard_info(self) -> list[dict[str, Any]]:
        return [self._call_with_retry(k, "info") for k in range(len(self._handles))]


class ShardedFactStore:
    """Creates and owns the shard actors of one run (driver side)."""

    def __init__(self, handles: list[Any], table_ref: Any, name_prefix: str, namespace: str | None, paths: list[str],
                 holder: Any = None):
        self.handles = handles
        self.holder = holder
        self.table_ref = table_ref
        self.name_prefix = name_prefix
        self.namespace = namespace
        self.paths = paths

    @classmethod
    def create(
        cls,
        paths: str | Path | Sequence[str | Path],
        num_shards: int = 4,
        name_prefix: str | None = None,
        namespace: str | None = None,
        max_restarts: int = 3,
        num_cpus: float = 0,
        max_concurrency: int = 2,
        table: FactTable | None = None,
    ) -> "ShardedFactStore":
        """Start ``num_shards`` named shard actors ``{name_prefix}-kg-shard-{i}`` over the KG
        file(s) and put the table in the object store once. ``table`` (already loaded from the
        same files) saves the driver a second parse."""
        import ray

        if num_shards < 1:
            raise ValueError(f"num_shards must be >= 1, got {num_shards}")
        paths = _paths(paths)
        name_prefix = name_prefix or f"tkgqa-{uuid.uuid4().hex[:10]}"
        table = table if table is not None else load_kgs(paths)
        table.triples  # computed once here, shared with every client through the object store  # noqa: B018
        table_ref = ray.put(table)
        actor_cls = ray.remote(FactShard)
        handles = [
            actor_cls.options(
                name=shard_name(name_prefix, i),
                namespace=namespace,
                max_restarts=max_restarts,
                max_task_retries=0,  # the client retries once itself, visibly
                num_cpus=num_cpus,
                max_concurrency=max_concurrency,
            ).remote(paths, i, num_shards, table.content_hash)
            for i in range(num_shards)
        ]
        holder = ray.remote(TableHolder).options(
            name=holder_name(name_prefix), namespace=namespace, num_cpus=0, max_restarts=0
        ).remote([table_ref], table.content_hash)
        try:
            ray.get([h.info.remote() for h in handles] + [holder.get.remote()])  # built, or the build error
        except BaseException:
            for h in [*handles, holder]:
                ray.kill(h, no_restart=True)
            raise
        log.info("KG store: %d shard actors %s-kg-shard-* over %s", num_shards, name_prefix, paths)
        return cls(handles, table_ref, name_prefix, namespace, paths, holder)

    def client(self) -> ShardedFactStoreClient:
        return ShardedFactStoreClient(self.handles, self.table_ref, self.name_prefix, self.namespace)

    def shutdown(self) -> None:
        import ray

        for h in [*self.handles, *([self.holder] if self.holder is not None else [])]:
            try:
                ray.kill(h, no_restart=True)
            except Exception:  # noqa: BLE001 - already gone is fine
                pass
        self.handles, self.holder = [], None


def start_sharded_store(
    kg_path, num_shards: int = 4, name: str | None = None, namespace: str | None = None,
    max_restarts: int = 3, table: FactTable | None = None,
):
    """Pipeline entry point: ``(client, stop_fn)`` for a run's shared store."""
    store = ShardedFactStore.create(kg_path, num_shards=num_shards, name_prefix=name, namespace=namespace,
                                   max_restarts=max_restarts, table=table)
    return store.client(), store.shutdown
