"""A relation-paraphrase audit: each phrase of an audit file in the frame "Who <phrase> Japan in
2010?" through nlu's analysis and ``ground_relation``; right first = the top candidate is the
intended relation, in the intended direction (``fwd``: Who is the subject; ``rev``: the object).

    python bench/bench_relation_audit.py bench/audits/relations_rare_names29.tsv [-v]

Audit files are tab-separated ``rank  relation  phrase  dir``; ``{X}`` in a phrase stands where
"Japan" goes when it is not last. Written from a sample of the KG before reading the grammar
(docs/nlu-actors.md, eleventh session: names29's 246 phrases for the relations ranked 164-251).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))

import bench_methods as BM  # noqa: E402
from tkgqa_ray.nlu import EntityMatcher  # noqa: E402
from tkgqa_ray.nlu.analysis import analyze  # noqa: E402
from tkgqa_ray.nlu.relations import ground_relation  # noqa: E402

KG = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("audit", type=Path)
    ap.add_argument("--kg", type=Path, default=KG)
    ap.add_argument("-v", action="store_true", help="print the top four candidates of each miss")
    a = ap.parse_args()
    if not a.kg.exists():
        sys.exit(f"no KG at {a.kg} (the real MultiTQ KG, ../shared/data/multitq/kg/): nothing to audit")
    ctx = BM.build_ctx(a.kg, None, dense=False)
    matcher = EntityMatcher.for_table(ctx.table)
    rows = [ln.rstrip("\n").split("\t") for ln in a.audit.open(encoding="utf-8") if ln.strip() and not ln.startswith("#")]
    ok = 0
    for rank, rel, phrase, d in rows:
        q = f"Who {phrase.replace('{X}', 'Japan') if '{X}' in phrase else phrase + ' Japan'} in 2010?"
        an = analyze(q, matcher, ctx.embeddings)
        cands = ground_relation(an.main.phrase, ctx.embeddings, 10, ctx.table.relations)
        got = gdir = None
        if cands:
            got = cands[0].name
            gdir = "fwd" if (an.main.open_slot == "subject") != bool(cands[0].swap) else "rev"
        right = got == rel and gdir == d
        ok += right
        line = f"{'OK' if right else 'XX'}\t{rank}\t{rel}\t{d}\t{q}\t[{an.main.phrase}|{an.main.open_slot}]\t{got}\t{gdir}"
        if a.v and not right:
            line += "\t" + "; ".join(f"{x.name}/{int(x.swap)}/{x.score:.2f}" for x in cands[:4])
        print(line)
    print(f"right first: {ok} / {len(rows)}")


if __name__ == "__main__":
    main()
