"""Sharded store (Ray actors) answers exactly like the in-process store, also across a
shard restart; plus the shard placement rule without Ray."""

from __future__ import annotations

import datetime as dt
import pickle
import uuid

import numpy as np
import pytest

from tkgqa_ray.kg import FactStore, QuerySpec, load_kg
from tkgqa_ray.kg import oracle
from tkgqa_ray.kg.sharded import FactShard, shard_of

from test_kg_store import random_spec, synth_table


def write_tsv(table, path):
    iso = lambda d: dt.date.fromordinal(int(d)).isoformat()  # noqa: E731
    lines = [
        f"{f.subject}\t{f.relation}\t{f.object}\t{iso(f.start)}\t{iso(f.end)}"
        for f in table.facts(range(table.num_facts))
    ]
    path.write_text("\r\n".join(lines) + "\r\n")
    return path


def test_shard_of_is_stable_and_spreads():
    ids = np.arange(10_000)
    a = shard_of(ids, 4)
    assert a.tolist()[:5] == [shard_of(i, 4) for i in range(5)]
    assert shard_of(0, 4) == 0 and shard_of(1, 4) == (2654435761 & 0xFFFFFFFF) % 4
    counts = np.bincount(a, minlength=4)
    assert counts.min() > 2000  # roughly even


def test_plain_shards_partition_every_fact(tmp_path):
    """Without Ray: every fact sits in exactly one shard's subject partition and one shard's
    object partition, and a subject query on its shard equals the full store's answer."""
    t = synth_table(seed=21, n=800)
    p = write_tsv(t, tmp_path / "kg.tsv")
    table = load_kg(p)
    shards = [FactShard([str(p)], k, 3, table.content_hash) for k in range(3)]
    assert sum(s.num_s_facts for s in shards) == table.num_facts
    assert sum(s.num_o_facts for s in shards) == table.num_facts
    full = FactStore(table)
    for e in range(len(table.entities)):
        sh = shards[shard_of(e, 3)]
        assert np.array_equal(sh.store.query(subject=e), full.query(subject=e))
        assert np.array_equal(sh.store.query(entity=e), full.query(entity=e))
    with pytest.raises(RuntimeError, match="changed since"):
        FactShard([str(p)], 0, 3, "0" * 64)


@pytest.mark.ray
def test_sharded_equals_unsharded_and_survives_restart(ray_session, tmp_path):
    ray = ray_session
    from tkgqa_ray.kg.sharded import ShardedFactStore, ShardedFactStoreClient

    t = synth_table(seed=5, n=2000, interval=True)
    p = write_tsv(t, tmp_path / "kg.tsv")
    table = load_kg(p)
    full = FactStore(table)
    prefix = f"test-{uuid.uuid4().hex[:6]}"
    store = ShardedFactStore.create(p, num_shards=3, name_prefix=prefix, max_restarts=2)
    try:
        client = store.client()
        assert client.table.content_hash == table.content_hash
        rng = np.random.default_rng(9)
        specs = [random_spec(rng, table) for _ in range(600)]
        specs += [{"entity": "E3", "relation": ["rel_1", "rel_2"]}, {"subject": "E1", "object": "E2"}, {}]
        want = [oracle.query(table, **kw) for kw in specs]
        got = client.query_many(specs)
        assert all(np.array_equal(g, w) for g, w in zip(got, want))
        assert all(np.array_equal(full.query(**kw), w) for kw, w in zip(specs, want))
        for kw, w in list(zip(specs, want))[:40]:  # single-query path
            assert np.array_equal(client.query(**kw), w)
        for a, b in [(1, 2), (3, 3), (5, 7)]:
            assert np.array_equal(client.facts_between(a, b), oracle.facts_between(table, a, b))

        # a worker attaches by name, and a pickled client works in a task
        other = ShardedFactStoreClient.connect(prefix, 3)
        assert all(np.array_equal(g, w) for g, w in zip(other.query_many(specs[:100]), want[:100]))
        assert pickle.loads(pickle.dumps(client))._table is None

        @ray.remote
        def remote_batch(c, qs):
            return c.query_many(qs)

        assert all(np.array_equal(g, w) for g, w in zip(ray.get(remote_batch.remote(client, specs[:50])), want[:50]))

        # kill one shard: Ray restarts it from the source file; answers stay identical
        info0 = client.shard_info()
        ray.kill(store.handles[0], no_restart=False)
        got2 = client.query_many(specs)
        assert all(np.array_equal(g, w) for g, w in zip(got2, want))
        info1 = client.shard_info()
        assert info1[0]["pid"] != info0[0]["pid"]  # really a new process
        assert info1[1]["pid"] == info0[1]["pid"]
        assert {i["content_hash"] for i in info1} == {table.content_hash}
        # the restarted shard 0 still hands out the shared table to clients attaching by name
        late = ShardedFactStoreClient.connect(prefix, 3)
        assert late.table.content_hash == table.content_hash
        assert all(np.array_equal(g, w) for g, w in zip(late.query_many(specs[:100]), want[:100]))
    finally:
        store.shutdown()


@pytest.mark.ray
@pytest.mark.realkg
def test_sharded_real_kg_random_queries(ray_session, real_kg_path, real_kg_table):
    from tkgqa_ray.kg.sharded import ShardedFactStore

    table = real_kg_table
    store = ShardedFactStore.create(real_kg_path, num_shards=2, table=table)
    try:
        client = store.client()
        full = FactStore(table)
        rng = np.random.default_rng(1)
        specs = [QuerySpec(**random_spec(rng, table)) for _ in range(300)]
        for g, s in zip(client.query_many(specs), specs):
            assert np.array_equal(g, full.query_spec(s)), s
    finally:
        store.shutdown()


def test_client_retries_once_on_dead_actor(monkeypatch, tmp_path):
    """Without a cluster: a fake shard whose first reply is an actor failure is asked again
    (once); a second failure propagates. Answers still merge like the real store's."""
    ray = pytest.importorskip("ray")
    from ray.exceptions import ActorUnavailableError, RayActorError

    from tkgqa_ray.kg.sharded import ShardedFactStoreClient

    t = synth_table(seed=8, n=500)
    p = write_tsv(t, tmp_path / "kg.tsv")
    table = load_kg(p)
    shards = [FactShard([str(p)], k, 2, table.content_hash) for k in range(2)]
    # shard 0: the in-flight call dies, then the shard is restarting twice, then answers;
    # shard 1: unavailable once, then answers.
    failures = {
        0: [RayActorError(), ActorUnavailableError("restarting", None), ActorUnavailableError("restarting", None)],
        1: [ActorUnavailableError("restarting", None)],
    }
    calls = []

    class Method:
        def __init__(self, k, name):
            self.k, self.name = k, name

        def remote(self, *args):
            calls.append((self.k, self.name))
            return (self.k, self.name, args)

    class Handle:
        def __init__(self, k):
            self.k = k

        def __getattr__(self, name):
            return Method(self.k, name)

    def fake_get(ref):
        k, name, args = ref
        if failures[k]:
            raise failures[k].pop(0)
        return getattr(shards[k], name)(*args)

    monkeypatch.setattr(ray, "get", fake_get)
    client = ShardedFactStoreClient([Handle(0), Handle(1)], None)
    client._table = table
    full = FactStore(table)
    specs = [{"subject": 1}, {"object": 2}, {"relation": 0, "limit": 3, "order": "desc"}, {"entity": 4}]
    got = client.query_many(specs)
    assert all(np.array_equal(g, full.query(**kw)) for g, kw in zip(got, specs))
    assert calls.count((0, "query_plain_many")) == 4 and calls.count((1, "query_plain_many")) == 2
    failures[0] = [RayActorError(), RayActorError()]  # fails again on the retry: the error surfaces
    assert shard_of(0, 2) == 0
    with pytest.raises(RayActorError):
        client.query(subject=0)
    client.restart_timeout_s = 0.2  # restarting for longer than the client waits: surfaces too
    failures[0] = [RayActorError()] + [ActorUnavailableError("restarting", None)] * 1000
    with pytest.raises(ActorUnavailableError):
        client.query(subject=0)
