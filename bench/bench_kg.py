"""Benchmark the KG store on the real MultiTQ graph.

1. Load + index: wall time, CPU time and peak RSS of a fresh process that runs
   ``load_kg`` + ``FactStore`` (a subprocess, so RSS is the store's own and nothing else's).
2. (subject, relation, start <= T) queries: posting lists vs a naive vectorised numpy mask over
   the whole fact table, on the same random queries in one run; answers are compared.

    python bench/bench_kg.py [--kg PATH] [--queries 100000] [--naive-queries 300] [--repeat 3] [--sharded N] [--json OUT]

Skips (exit 0, with a message) when the real KG is absent.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"

_CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
from tkgqa_ray.kg import load_kg, FactStore
t1 = time.perf_counter(); c1 = time.process_time()
table = load_kg(sys.argv[1])
t2 = time.perf_counter(); c2 = time.process_time()
store = FactStore(table)
t3 = time.perf_counter(); c3 = time.process_time()
print(json.dumps({
    "import_s": t1 - t0, "load_s": t2 - t1, "index_s": t3 - t2, "load_index_s": t3 - t1,
    "load_index_cpu_s": c3 - c1, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "facts": table.num_facts, "index_mib": store.stats()["index_bytes"] / 2**20,
}))
"""


def load_and_index(kg: Path, repeat: int = 1) -> dict:
    """Fresh subprocess per run (cold Python, own RSS); the fastest run is reported because on
    a shared machine the slower ones measure the neighbours. All runs are kept in ``runs``."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _CHILD, str(kg)], capture_output=True, text=True, check=True, cwd=ROOT)
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = dict(min(runs, key=lambda r: r["load_index_s"]))
    best["runs"] = runs
    best["peak_rss_mib"] = max(r["peak_rss_mib"] for r in runs)
    return best


def bench_queries(kg: Path, n_queries: int, n_naive: int, seed: int) -> dict:
    from tkgqa_ray.kg import FactStore, load_kg

    table = load_kg(kg)
    store = FactStore(table)
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, table.num_facts, n_queries)
    subj = table.s[pick].tolist()
    rel = table.r[pick].tolist()
    # T around the picked fact's day so answers are non-trivial (some empty, most not).
    before = (table.start[pick] + rng.integers(-365, 365, n_queries)).tolist()

    q = store.query
    t0, c0 = time.perf_counter(), time.process_time()
    hits = 0
    for s, r, T in zip(subj, rel, before):
        hits += len(q(subject=s, relation=r, start_max=T))
    post_wall, post_cpu = time.perf_counter() - t0, time.process_time() - c0

    # the same queries as one vectorised batch (query_batch: array searchsorted, zero-copy slices)
    sa, ra, ba = np.asarray(subj), np.asarray(rel), np.asarray(before)
    t0, c0 = time.perf_counter(), time.process_time()
    res = store.query_batch(subject=sa, relation=ra, start_max=ba)
    batch_wall, batch_cpu = time.perf_counter() - t0, time.process_time() - c0
    batch_cpu = max(batch_cpu, 1e-6)
    batch_mismatch = int(res.counts.sum()) != hits

    S, R, ST = table.s, table.r, table.start

    def naive(s, r, T):
        ids = np.flatnonzero((S == s) & (R == r) & (ST <= T))
        return ids[np.lexsort((ids, ST[ids]))]  # same (start, id) order as the store

    t0, c0 = time.perf_counter(), time.process_time()
    naive_out = [naive(s, r, T) for s, r, T in zip(subj[:n_naive], rel[:n_naive], before[:n_naive])]
    naive_wall, naive_cpu = time.perf_counter() - t0, time.process_time() - c0
    mismatches = sum(
        not np.array_equal(a, q(subject=s, relation=r, start_max=T))
        for a, s, r, T in zip(naive_out, subj, rel, before)
    )
    post_qps = n_queries / post_cpu
    naive_qps = n_naive / naive_cpu
    return {
        "queries": n_queries,
        "naive_queries": n_naive,
        "mean_hits": hits / n_queries,
        "posting_qps_cpu": post_qps,
        "posting_qps_wall": n_queries / post_wall,
        "naive_qps_cpu": naive_qps,
        "naive_qps_wall": n_naive / naive_wall,
        "naive_ms_per_query": 1000 * naive_cpu / n_naive,
        "speedup_cpu": post_qps / naive_qps,
        "batch_qps_cpu": n_queries / batch_cpu,
        "batch_qps_wall": n_queries / batch_wall,
        "batch_speedup_cpu": (n_queries / batch_cpu) / naive_qps,
        "mismatches": mismatches + int(batch_mismatch),
    }


def bench_sharded(kg: Path, num_shards: int, n_queries: int, batch: int, seed: int) -> dict:
    """Sharded store on a local Ray: build time and query_many throughput (batches of
    ``batch`` specs, one remote call per shard per batch), answers checked against FactStore."""
    import ray

    from tkgqa_ray.kg import FactStore, QuerySpec, load_kg
    from tkgqa_ray.kg.sharded import ShardedFactStore

    table = load_kg(kg)
    rng = np.random.default_rng(seed + 1)
    pick = rng.integers(0, table.num_facts, n_queries)
    before = table.start[pick] + rng.integers(-365, 365, n_queries)
    specs = [QuerySpec(subject=int(s), relation=int(r), start_max=int(T))
             for s, r, T in zip(table.s[pick], table.r[pick], before)]
    ray.init(num_cpus=num_shards + 2, include_dashboard=False, log_to_driver=False,
             object_store_memory=512 * 1024**2)
    try:
        t0 = time.perf_counter()
        store = ShardedFactStore.create(kg, num_shards=num_shards, table=table)
        build = time.perf_counter() - t0
        client = store.client()
        client.query_many(specs[:batch])  # warm
        t0 = time.perf_counter()
        got = []
        for i in range(0, n_queries, batch):
            got.extend(client.query_many(specs[i : i + batch]))
        wall = time.perf_counter() - t0
        full = FactStore(table)
        mismatches = sum(not np.array_equal(g, full.query_spec(q)) for g, q in zip(got, specs))
        store.shutdown()
    finally:
        ray.shutdown()
    return {"num_shards": num_shards, "build_s": build, "qps_wall": n_queries / wall, "batch": batch,
            "queries": n_queries, "mismatches": mismatches}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kg", type=Path, default=DEFAULT_KG)
    ap.add_argument("--queries", type=int, default=100_000)
    ap.add_argument("--naive-queries", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3, help="load+index runs (fastest reported)")
    ap.add_argument("--sharded", type=int, default=0, help="also time the Ray-sharded store with N shards")
    ap.add_argument("--batch", type=int, default=1000, help="query_many batch size for --sharded")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    if not args.kg.exists():
        print(f"SKIP: real MultiTQ KG not found at {args.kg} (pass --kg PATH)")
        return 0
    li = load_and_index(args.kg, args.repeat)
    qb = bench_queries(args.kg, args.queries, args.naive_queries, args.seed)
    rows = [
        ("facts", f"{li['facts']:,}", ""),
        ("load (parse + encode)", f"{li['load_s']:.2f} s", "wall"),
        ("index build (7 posting-list views)", f"{li['index_s']:.2f} s", "wall"),
        ("load + index", f"{li['load_index_s']:.2f} s", f"wall, best of {len(li['runs'])}; {li['load_index_cpu_s']:.2f} s CPU; target <= 3 s"),
        ("peak RSS (whole process)", f"{li['peak_rss_mib']:.0f} MiB", "max over runs; target <= 1024 MiB"),
        ("index memory", f"{li['index_mib']:.0f} MiB", ""),
        ("posting-list queries", f"{qb['posting_qps_cpu']:,.0f} q/s", f"CPU time, {qb['queries']:,} queries; {qb['posting_qps_wall']:,.0f} q/s wall"),
        ("naive numpy mask scan", f"{qb['naive_qps_cpu']:,.0f} q/s", f"{qb['naive_ms_per_query']:.2f} ms/query CPU, {qb['naive_queries']} queries"),
        ("speedup, one query per call", f"{qb['speedup_cpu']:,.0f}x", "target >= 500x"),
        ("posting lists, vectorised batch", f"{qb['batch_qps_cpu']:,.0f} q/s", f"query_batch, same queries; {qb['batch_qps_wall']:,.0f} q/s wall"),
        ("speedup, vectorised batch", f"{qb['batch_speedup_cpu']:,.0f}x", "target >= 500x"),
        ("mean answers per query", f"{qb['mean_hits']:.1f}", f"mismatches vs naive: {qb['mismatches']}"),
    ]
    sh = None
    if args.sharded:
        try:
            sh = bench_sharded(args.kg, args.sharded, min(args.queries, 50_000), args.batch, args.seed)
        except Exception as e:  # noqa: BLE001 - a Ray that cannot start on a busy box is not a KG result
            print(f"sharded part skipped: {type(e).__name__}: {e}", file=sys.stderr)
    if sh:
        rows += [
            (f"sharded store build ({sh['num_shards']} actors)", f"{sh['build_s']:.2f} s", "wall, actors parse the file in parallel"),
            ("sharded query_many", f"{sh['qps_wall']:,.0f} q/s", f"wall, batches of {sh['batch']}; mismatches {sh['mismatches']}"),
        ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print(f"| {'measure':<{w0}} | {'value':>{w1}} | note |")
    print(f"|{'-' * (w0 + 2)}|{'-' * (w1 + 1)}:|------|")
    for a, b, c in rows:
        print(f"| {a:<{w0}} | {b:>{w1}} | {c} |")
    if args.json:
        args.json.write_text(json.dumps({"load_index": li, "queries": qb, "sharded": sh}, indent=2))
    return 1 if qb["mismatches"] or (sh and sh["mismatches"]) else 0


if __name__ == "__main__":
    sys.exit(main())
