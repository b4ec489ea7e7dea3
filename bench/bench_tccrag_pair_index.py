"""Micro benchmark: TCC-RAG's pair / per-entity triple lookups (tccrag22).

``method._pair_rows`` and ``method._kg_first`` used to mask the whole triple array (166,760 rows
on MultiTQ) per call; they now slice FactTable's per-entity CSR (``triples_with_subject`` /
``triples_with_object``). This times both on the same random pairs of the real KG, checks the
answers agree, and prints the ratio (timings are reported, never asserted).

    python bench/bench_tccrag_pair_index.py [--kg PATH] [--pairs 2000] [--seed 0]

Skips (exit 0, with a message) when the real KG is absent.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kg", default=str(DEFAULT_KG))
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    if not Path(a.kg).exists():
        print(f"skip: no KG at {a.kg}")
        return 0
    from tkgqa_ray.kg import load_kg
    from tkgqa_ray.methods.tccrag.method import _pair_rows

    table = load_kg(a.kg)
    tr = table.triples
    rng = np.random.default_rng(a.seed)
    # pairs that meet in the KG (half) and random ones (half), as the method's calls are
    picked = tr[rng.integers(0, len(tr), a.pairs // 2)]
    pairs = [(int(s), int(o)) for s, _, o in picked]
    pairs += [tuple(int(x) for x in rng.integers(0, len(table.entities), 2)) for _ in range(a.pairs - len(pairs))]

    t0 = time.perf_counter()
    table._entity_triple_postings  # noqa: B018 - build once, timed apart
    build = time.perf_counter() - t0

    def run(src):
        t = time.perf_counter()
        got = [{tuple(r) for r in _pair_rows(src, x, y).tolist()} for x, y in pairs]
        return time.perf_counter() - t, got

    scan_s, scan = run(tr)
    index_s, index = run(table)
    if scan != index:
        print("MISMATCH: indexed pair rows differ from the scan")
        return 1
    print(f"{table.num_triples} triples, {len(pairs)} pair lookups; index build {build * 1e3:.1f} ms (once)")
    print(f"scan  {scan_s * 1e3:9.1f} ms  ({scan_s / len(pairs) * 1e6:8.1f} us/lookup)")
    print(f"index {index_s * 1e3:9.1f} ms  ({index_s / len(pairs) * 1e6:8.1f} us/lookup)")
    print(f"ratio scan/index = {scan_s / max(index_s, 1e-9):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
