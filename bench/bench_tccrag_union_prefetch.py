"""Micro benchmark: TCC-RAG's ranked group union inside the batch prefetch (tccrag24).

A first / last question over a group written alone ("the last to comment on al-Qaeda") ranks
the union of the group's readings (``ChainRetrieve._chain``, tccrag20); the other readings'
posting lists were not among the keys of the batch's one ``query_many``
(``ChainRetrieve._prefetch``), so each was a store call of its own, per question and reading.
This runs TCC-RAG on the development hand-sets' questions that have such a union, once with the
alternatives left out of the prefetch (the old keys) and once with them, counts the store's
single ``query`` calls, times both, and checks that every prediction agrees (timings are
reported, never asserted).

    python bench/bench_tccrag_union_prefetch.py [--kg PATH] [--sets dev8 ... dev22]

Skips (exit 0, with a message) when the real KG is absent.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"
DEV_SETS = [f"dev{i}" for i in range(8, 23)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kg", default=str(DEFAULT_KG))
    ap.add_argument("--sets", nargs="*", default=DEV_SETS)
    a = ap.parse_args(argv)
    if not Path(a.kg).exists():
        print(f"skip: no KG at {a.kg}")
        return 0
    import bench_methods as BM

    from tkgqa_ray.data.handwritten import read_specs, resolve_specs
    from tkgqa_ray.methods.tccrag import method as M
    from tkgqa_ray.records import Question

    ctx = BM.build_ctx(Path(a.kg), None, dense=False)
    store = ctx.store
    calls = {"query": 0, "query_many": 0, "keys": 0}
    q0, qm0 = store.query, store.query_many

    def query(*args, **kw):
        calls["query"] += 1
        return q0(*args, **kw)

    def query_many(specs, *args, **kw):
        calls["query_many"] += 1
        calls["keys"] += len(specs)
        return qm0(specs, *args, **kw)

    store.query, store.query_many = query, query_many
    probe = M.ChainRetrieve(ctx)
    qs = []
    from bench_handsets import is_blind

    for s in a.sets:
        if is_blind(resolve_specs(s)):
            sys.exit(f"refused: {s} is BLIND (development sets only)")
        for spec in read_specs(resolve_specs(s)):
            if probe._group_alternatives({"question": spec.question}):
                qs.append(Question(f"{s}/{spec.id}", spec.question))
    if not qs:
        print("no question with a ranked group union in", " ".join(a.sets))
        return 0
    BM.run_method(ctx, "tccrag", "none", qs)  # warm: nlu caches, relation groundings

    def run(with_alternatives: bool):
        keep = M.ChainRetrieve._group_alternatives
        if not with_alternatives:
            M.ChainRetrieve._group_alternatives = lambda self, s: {}
        try:
            for k in calls:
                calls[k] = 0
            t = time.perf_counter()
            rows, _ = BM.run_method(ctx, "tccrag", "none", qs)
            return time.perf_counter() - t, dict(calls), [r.get("predictions") for r in rows]
        finally:
            M.ChainRetrieve._group_alternatives = keep

    old_s, old_c, old_p = run(False)
    new_s, new_c, new_p = run(True)
    if old_p != new_p:
        print("MISMATCH: predictions differ with the alternatives prefetched")
        return 1
    print(f"{len(qs)} questions with a ranked group union ({', '.join(a.sets)})")
    for label, secs, c in (("before (alternatives per call)", old_s, old_c), ("after (in the batch prefetch)", new_s, new_c)):
        print(f"{label:32s} {secs:7.2f} s  store.query calls {c['query']:5d}  query_many {c['query_many']:3d} ({c['keys']} keys)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
