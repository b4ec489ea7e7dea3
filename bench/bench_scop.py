"""SCoP on the real MultiTQ KG: accuracy (symbolic backbone + ablations, generated questions
with oracle gold) and throughput of the deterministic stages vs a naive full-scan evidence
construction.

    python bench/bench_scop.py accuracy --n 2400 --phrasing heldout --out runs/scop_eval
    python bench/bench_scop.py throughput --n 2000

The KG path defaults to ../shared/data/multitq/kg/full.txt.gz (override with --kg).
Questions come from ``tkgqa_ray.data.generator`` (gold from its brute-force oracle); the
method sees only quid + question text.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_KG = ROOT.parent / "shared" / "data" / "multitq" / "kg" / "full.txt.gz"


def build_ctx(kg: Path):
    from tkgqa_ray.backbones.symbolic import SymbolicBackbone
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.kg import FactStore, load_kg

    t0 = time.perf_counter()
    table = load_kg(kg)
    t1 = time.perf_counter()
    store = FactStore(table)
    t2 = time.perf_counter()
    emb = EmbeddingService(table)
    t3 = time.perf_counter()
    bb = SymbolicBackbone()
    ctx = RunContext(table, store, emb, bb)
    bb.bind(ctx)
    print(f"load {t1 - t0:.1f}s  store {t2 - t1:.1f}s  embeddings {t3 - t2:.1f}s", file=sys.stderr)
    return ctx


def questions(table, n: int, seed: int, phrasing: str, cache_dir: Path | None = None):
    """Generated questions (cached as JSON next to the outputs: generation scans the KG)."""
    from tkgqa_ray.data.generator import generate
    from tkgqa_ray.records import Gold

    path = None if cache_dir is None else cache_dir / f"questions_{phrasing}_{n}_{seed}_{table.content_hash[:12]}.json"
    if path is not None and path.exists():
        recs = json.loads(path.read_text())
    else:
        t0 = time.perf_counter()
        recs = generate(table, n, seed=seed, phrasing_set=phrasing)
        print(f"generated {len(recs)} questions in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(recs))
    golds = {
        str(r["quid"]): Gold(
            str(r["quid"]), tuple(r["answers"]), r["answer_type"], r["qtype"], r.get("qlabel"),
            r["time_level"], events=tuple(r.get("events") or ()),
        )
        for r in recs
    }
    return recs, golds


def run_method(ctx, recs, ablation: str, batch: int = 256):
    from tkgqa_ray.methods.scop.method import SCoP

    m = SCoP(ctx, ablation=ablation)
    rows = []
    t0 = time.perf_counter()
    for i in range(0, len(recs), batch):
        states = [{"quid": str(r["quid"]), "question": r["question"]} for r in recs[i : i + batch]]
        rows.extend(m(states))
    return rows, time.perf_counter() - t0


def cmd_accuracy(a) -> None:
    from tkgqa_ray.eval.evidence import evidence_metrics
    from tkgqa_ray.eval.metrics import score_questions

    from tkgqa_ray.eval.metrics import score_col
    from tkgqa_ray.eval.protocols import PRIMARY_PROTOCOL

    ctx = build_ctx(Path(a.kg))
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    recs, golds = questions(ctx.table, a.n, a.seed, a.phrasing, out)
    report: dict = {"n": len(recs), "phrasing": a.phrasing, "seed": a.seed, "runs": {}}
    for ab in a.ablations.split(","):
        rows, secs = run_method(ctx, recs, ab)
        if a.dump:
            with open(out / f"rows_{ab}.jsonl", "w") as f:
                for r, rec in zip(rows, recs):
                    f.write(json.dumps({"quid": r["quid"], "q": r["question"], "qtype": rec["qtype"], "gold": rec["answers"][:5],
                                        "pred": r["predictions"][:3], "by": r.get("answered_by"), "err": r.get("error"),
                                        "trace": {k: r["trace"].get(k) for k in ("triples_raw", "triples_aligned", "constraints", "ranking", "evidence", "failures")}},
                                       default=str) + "\n")
        sc = score_questions(rows, golds)
        col = score_col(PRIMARY_PROTOCOL, 1)
        res = {
            "seconds": round(secs, 2),
            "q_per_s": round(len(rows) / secs, 1),
            "hits@1": round(float(sc[col].mean()), 4),
            "by_qtype": {k: round(float(v), 4) for k, v in sc.groupby("qtype")[col].mean().items()},
            "by_answer_type": {k: round(float(v), 4) for k, v in sc.groupby("answer_type")[col].mean().items()},
            "by_time_level": {k: round(float(v), 4) for k, v in sc.groupby("time_level")[col].mean().items()},
            "errors": int(sum(1 for r in rows if r.get("error"))),
            "parse_failures": int(sum(1 for r in rows if r.get("answered_by") == "parse_failure")),
            "no_evidence": int(sum(1 for r in rows if r.get("answered_by") == "no_evidence")),
        }
        if ab == "none":
            res["evidence"] = evidence_metrics(rows, golds)
        report["runs"][ab] = res
        print(ab, json.dumps({k: res[k] for k in ("hits@1", "q_per_s", "parse_failures", "no_evidence")}), file=sys.stderr)
    (out / "report.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    acc = sub.add_parser("accuracy")
    acc.add_argument("--kg", default=str(DEFAULT_KG))
    acc.add_argument("--n", type=int, default=2400)
    acc.add_argument("--seed", type=int, default=7)
    acc.add_argument("--phrasing", default="heldout", choices=("train", "heldout", "all"))
    acc.add_argument("--ablations", default="none,wo_triple,wo_alignment,wo_constraint")
    acc.add_argument("--out", default="runs/scop_eval")
    acc.add_argument("--dump", action="store_true", help="write per-question rows (debugging)")
    thr = sub.add_parser("throughput")
    thr.add_argument("--kg", default=str(DEFAULT_KG))
    thr.add_argument("--n", type=int, default=2000)
    thr.add_argument("--seed", type=int, default=11)
    thr.add_argument("--naive", type=int, default=200, help="questions for the naive full-scan baseline")
    a = p.parse_args()
    if a.cmd == "accuracy":
        cmd_accuracy(a)
    else:
        cmd_throughput(a)


def cmd_throughput(a) -> None:
    raise SystemExit("throughput: not implemented yet")


if __name__ == "__main__":
    main()
