"""The nlu7 paraphrase audit (tests/test_nlu_ordinal_audit.py) on the real MultiTQ KG with
SCoP/symbolic (MiniLM grounding, the full store): gold from the brute-force oracle on the real
table, the same questions and specs as the test.

    python bench/bench_nlu_ordinal_audit.py [--kg PATH] [--verbose]

Prints each miss (question, gold, prediction, parse) and the totals per question type.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "bench")]


def main() -> None:
    import bench_scop as B
    from test_nlu_ordinal_audit import CASES, SPECS

    from tkgqa_ray.data.oracle_answers import Oracle, QSpec
    from tkgqa_ray.methods.scop.method import SCoP
    from tkgqa_ray.time import day

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kg", default=str(B.DEFAULT_KG))
    p.add_argument("--verbose", action="store_true", help="print the right ones too")
    a = p.parse_args()
    ctx = B.build_ctx(Path(a.kg))
    t = ctx.table
    ent = {n: i for i, n in enumerate(t.entities)}
    rel = {n: i for i, n in enumerate(t.relations)}
    oracle = Oracle(t)

    def gold(key):
        qt, (s, r, o), ref, op, rank, at, tl, date = SPECS[key]
        spec = QSpec(qt, at, (ent.get(s), rel[r], ent.get(o)),
                     anchor_event=(ent[ref[0]], rel[ref[1]], ent[ref[2]]) if ref else None,
                     anchor_time=(day(date), day(date)) if date else None, op=op, rank=rank, time_level=tl)
        res = oracle.answer(spec)
        assert res.ok, (key, res.status)
        return res.answers

    rows = SCoP(ctx)([{"quid": str(i), "question": q} for i, (_, q) in enumerate(CASES)])
    right, total = Counter(), Counter()
    for (key, q), row in zip(CASES, rows):
        g, pred = gold(key), row["predictions"][:1]
        p0 = pred[0].replace("_", " ") if pred else None
        hit = p0 is not None and (any(x == p0[: len(x)] for x in g) if SPECS[key][5] == "time" else p0 in g)
        qt = SPECS[key][0]
        total[qt] += 1
        right[qt] += hit
        if not hit or a.verbose:
            tr = row["trace"]
            print("OK  " if hit else "MISS", key, "|", q, "\n     gold", g, "pred", row["predictions"][:2],
                  "\n     parse", tr.get("triples_raw"), tr.get("ranking"))
    for qt in sorted(total):
        print(f"{qt}: {right[qt]}/{total[qt]}")
    print(f"all: {sum(right.values())}/{sum(total.values())}")


if __name__ == "__main__":
    main()
