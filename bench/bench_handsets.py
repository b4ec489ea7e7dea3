"""Methods on the hand-written question sets (``tkgqa_ray/data/handsets/``), real MultiTQ KG.

Each set's gold comes from the oracle over its logical forms (:mod:`tkgqa_ray.data.handwritten`);
every method runs in-process with ``backbone=symbolic`` (as ``bench_methods.py --mode quality
--no-dense``: structured paths, no dense fact index). Prints, per set and method, Hits@1 (MultiTQ
official) overall, Single / Multiple, entity / time and per question type, with the
parse-failure and no-evidence rates.

    python bench/bench_handsets.py                       # every packaged set, scop + tccrag
    python bench/bench_handsets.py --sets dev8 --runs scop tccrag pok rag --dump /tmp/hs
    python bench/bench_handsets.py --generated heldout fresh blind4 -n 600 --seed 1   # + generated sets, one table

``--generated`` adds questions generated in the named phrasing sets (``tkgqa-ray generate``'s
``--phrasing-set``) to the same table, one context for all. A set whose header says it is
BLIND, and the generator's blind phrasing sets, print aggregates only: ``--dump``
(per-question rows) is refused for them, so nobody who writes parsers reads their questions
by accident.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"
QTYPES = ("equal", "before_after", "first_last", "equal_multi", "after_first", "before_last")
# the generator's phrasing sets written blind to the parsers (docs/data.md)
BLIND_PHRASINGS = ("fresh", "surface_blind", "blind3", "blind4")


def is_blind(path: Path) -> bool:
    """True when the set's ``//`` header declares it BLIND."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("//"):
            if line.strip():
                break
            continue
        if "BLIND" in line:
            return True
    return False


def main() -> None:
    import bench_methods as BM
    import pandas as pd

    from tkgqa_ray.data.generator import generate
    from tkgqa_ray.data.handwritten import answer_specs, packaged_sets, read_specs, resolve_specs
    from tkgqa_ray.eval.metrics import score_col, score_questions
    from tkgqa_ray.eval.protocols import PRIMARY_PROTOCOL
    from tkgqa_ray.records import Gold, Question

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kg", default=str(DEFAULT_KG))
    ap.add_argument("--sets", nargs="*", default=None, help="packaged set names or files (default: all packaged)")
    ap.add_argument("--generated", nargs="*", default=[], help="phrasing sets to generate questions in, too")
    ap.add_argument("-n", type=int, default=600, help="questions per generated set")
    ap.add_argument("--seed", type=int, default=1, help="generator seed")
    ap.add_argument("--runs", nargs="*", default=["scop", "tccrag"], help="method[:ablation] ...")
    ap.add_argument("--dump", default=None, help="per-question jsonl here (refused for BLIND sets)")
    ap.add_argument("--json", default=None, help="write the aggregate table as JSON here")
    a = ap.parse_args()
    if not Path(a.kg).exists():
        sys.exit(f"no KG at {a.kg} (the real MultiTQ KG is expected in ../shared/data/multitq/kg/)")
    sets = packaged_sets() if a.sets is None else a.sets
    paths = {s: resolve_specs(s) for s in sets}
    blind = [s for s, p in paths.items() if is_blind(p)] + [g for g in a.generated if g in BLIND_PHRASINGS]
    if a.dump and blind:
        sys.exit(f"--dump refused: {', '.join(blind)} is BLIND (aggregates only); run the others without it")
    ctx = BM.build_ctx(Path(a.kg), None, dense=False)
    col = score_col(PRIMARY_PROTOCOL, 1)
    table = []
    todo = [(s, lambda p=p: answer_specs(ctx.table, read_specs(p))) for s, p in paths.items()]
    todo += [(g, lambda g=g: generate(ctx.table, a.n, seed=a.seed, phrasing_set=g)) for g in a.generated]
    for s, make in todo:
        recs = make()
        golds = {str(r["quid"]): Gold(str(r["quid"]), tuple(r["answers"]), r["answer_type"], r["qtype"], r["qlabel"],
                                      r["time_level"], events=tuple(r["events"])) for r in recs}
        questions = [Question(str(r["quid"]), r["question"]) for r in recs]
        for run in a.runs:
            name, abl = run.split(":") if ":" in run else (run, "none")
            t0 = time.perf_counter()
            rows, _ = BM.run_method(ctx, name, abl, questions)
            secs = time.perf_counter() - t0
            sc = score_questions(rows, golds)
            h = sc[col].astype(float)
            label = s + (" (BLIND)" if s in blind else "") + (f" gen seed {a.seed}" if s in a.generated else "")
            rec = {"set": label, "method": run, "n": len(sc), "overall": h.mean()}
            for lab, key in (("Single", "qlabel"), ("Multiple", "qlabel"), ("entity", "answer_type"), ("time", "answer_type")):
                rec[lab] = h[sc[key].astype(str) == lab].mean()
            for qt in QTYPES:
                rec[qt] = h[sc["qtype"] == qt].mean()
            by = [str(r.get("answered_by") or "") for r in rows]
            rec["parse_fail"] = sum(b == "parse_failure" for b in by) / len(rows)
            rec["no_evidence"] = sum(b == "no_evidence" for b in by) / len(rows)
            rec["errors"] = sum(1 for r in rows if r.get("error"))
            rec["q/s"] = len(rows) / secs
            table.append(rec)
            print(f"{label:16s} {run:12s} hits@1={rec['overall']:.3f} ({secs:.1f}s)", flush=True)
            if a.dump:
                out = Path(a.dump)
                out.mkdir(parents=True, exist_ok=True)
                hit = dict(zip(sc["quid"].astype(str), h))
                with open(out / f"{s}_{run.replace(':', '_')}.jsonl", "w") as fh:
                    for r, rc in zip(rows, recs):
                        fh.write(json.dumps({"quid": r["quid"], "id": rc["template"].split("/", 1)[1],
                                             "question": rc["question"], "qtype": rc["qtype"], "spec": rc["spec"],
                                             "gold": rc["answers"], "hit": bool(hit[str(r["quid"])]), "pred": (r.get("predictions") or [])[:3],
                                             "answered_by": r.get("answered_by"), "error": r.get("error"),
                                             "trace": r.get("trace")}, default=str) + "\n")
    df = pd.DataFrame(table)
    print()
    print(df.to_markdown(index=False, floatfmt=".3f"))
    if a.json:
        Path(a.json).write_text(df.to_json(orient="records", indent=1))


if __name__ == "__main__":
    main()
