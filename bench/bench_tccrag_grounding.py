"""TCC-RAG entity grounding (path B): the fuzzy tier, rapidfuzz vs the difflib baseline.

Path B of progressive parsing grounds each mention of the mention extractor exact name →
embedding cosine ≥ 0.85 → fuzzy string ratio ≥ 0.85 over all KG entity names
(``tccrag.parsing.match_mention_candidates``). This bench takes the symbolic extractor's
mentions of every question, then times

* the fuzzy tier alone on the mentions that reach it (no exact name, no cosine ≥ 0.85):
  ``rapidfuzz.process.extractOne(scorer=fuzz.ratio)`` (the method's ``_fuzzy``) against the
  earlier ``difflib.get_close_matches`` + ``SequenceMatcher.ratio`` (the baseline, kept here
  only), with how many mentions the two ground to the same entity;
* the whole path-B grounding (``match_mention_candidates``) with either fuzzy tier;
* the stage's call pattern, with a cold query-vector cache: one ``match_mention_candidates``
  call per question (before) against one per batch of 32 questions (``_per_state``, after:
  one embedding search, so one encoder batch, per stage batch).

Wall and CPU seconds (``time.process_time``, steadier on a shared machine) are both printed;
the ratio is baseline / after. For the first two rows the query vectors are encoded once
before timing (they time the fuzzy tier, not the encoder).

    python bench/bench_tccrag_grounding.py --dataset multitq --root /tmp/tcc2/dev3_s7
"""

from __future__ import annotations

import argparse
import difflib
import os
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def difflib_fuzzy(mention: str, names: list[str], first: dict[str, int]):
    """The earlier fuzzy tier (baseline): ``get_close_matches`` over the folded names."""
    from tkgqa_ray.methods.tccrag.parsing import FUZZY_CUTOFF
    from tkgqa_ray.nlu.text import fold

    q = fold(mention)
    best = difflib.get_close_matches(q, names, n=1, cutoff=FUZZY_CUTOFF)
    if not best:
        return None
    return first[best[0]], difflib.SequenceMatcher(None, q, best[0]).ratio()


def timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    from unittest import mock

    from tkgqa_ray.backbones.symbolic import SymbolicBackbone
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.data.loaders import load_dataset
    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.kg.loader import load_kg
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.methods.tccrag import parsing
    from tkgqa_ray.nlu.entities import EntityMatcher
    from tkgqa_ray.nlu.text import fold

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="default")
    ap.add_argument("--root", default=None)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--cache-dir", default=None)
    args = ap.parse_args()

    ds = load_dataset(args.dataset, args.root, limit=args.limit)
    table = load_kg(ds.kg_path)
    emb = EmbeddingService(table, cache_dir=args.cache_dir, fact_index=False)
    ctx = RunContext(table=table, store=FactStore(table), embeddings=emb, backbone=SymbolicBackbone())
    mentions = [m for q in ds.questions for m in parsing.symbolic_mention_extractor({"question": q.question})["mentions"]]
    print(f"{len(ds.questions)} questions, {len(mentions)} path-B mentions, {len(table.entities)} KG entities")

    # the mentions that reach the fuzzy tier (no exact name, no embedding hit ≥ 0.85)
    matcher = EntityMatcher.for_table(table)
    rest = [m for m in mentions if not matcher.lookup_scored(m)]
    emb.encode(rest)  # warm the query-vector cache: time grounding, not the encoder
    scores, ids = emb.search("entity", rest, 1)
    fz = [m for m, s, i in zip(rest, scores, ids) if not (len(i) and int(i[0]) >= 0 and float(s[0]) >= parsing.GROUNDING_THRESHOLD)]
    names = [fold(table.display(e)) for e in table.entities]
    first = {n: i for i, n in reversed(list(enumerate(names)))}
    parsing._fuzzy("warm", table)  # build the name list outside the timing, as the baseline's

    base, bw, bc = timed(lambda: [difflib_fuzzy(m, names, first) for m in fz])
    new, nw, nc = timed(lambda: [parsing._fuzzy(m, table) for m in fz])
    same = sum((a is None) == (b is None) and (a is None or a[0] == b[0]) for a, b in zip(base, new))
    print(f"fuzzy tier on {len(fz)} mentions: grounded difflib {sum(x is not None for x in base)}, "
          f"rapidfuzz {sum(x is not None for x in new)}; same result {same}/{len(fz)}")
    for m, a, b in zip(fz, base, new):
        if (a is None) != (b is None) or (a is not None and a[0] != b[0]):
            show = lambda x: None if x is None else (table.entities[x[0]], round(x[1], 3))  # noqa: E731
            print(f"  differs: {m!r}: difflib {show(a)}  rapidfuzz {show(b)}")

    def stage():
        return parsing.match_mention_candidates(mentions, ctx)

    _, sw_new, sc_new = timed(stage)
    with mock.patch.object(parsing, "_fuzzy", lambda m, t: difflib_fuzzy(m, names, first)):
        _, sw_base, sc_base = timed(stage)

    # the stage's call pattern, cold query cache each time (the encoder is what it costs)
    from tkgqa_ray.embed.service import QueryLRU
    from tkgqa_ray.methods.tccrag.method import _per_state

    per_q = [parsing.symbolic_mention_extractor({"question": q.question})["mentions"] for q in ds.questions]

    def cold(fn):
        emb.query_cache = QueryLRU(emb.query_cache.max_size)
        return timed(fn)

    _, qw, qc = cold(lambda: [parsing.match_mention_candidates(ms, ctx) for ms in per_q])
    _, bw2, bc2 = cold(lambda: [_per_state(parsing.match_mention_candidates, per_q[i:i + 32], ctx)
                                for i in range(0, len(per_q), 32)])

    print("\n| part | before wall / CPU s | after wall / CPU s | speed-up (CPU) |\n| --- | ---: | ---: | ---: |")
    print(f"| fuzzy tier, {len(fz)} mentions: difflib -> rapidfuzz | {bw:.2f} / {bc:.2f} | {nw:.3f} / {nc:.3f} | "
          f"{bc / max(nc, 1e-9):,.0f}x |")
    print(f"| path-B grounding, {len(mentions)} mentions (warm vectors): difflib -> rapidfuzz | {sw_base:.2f} / {sc_base:.2f} | "
          f"{sw_new:.2f} / {sc_new:.2f} | {sc_base / max(sc_new, 1e-9):,.1f}x |")
    print(f"| path-B grounding, cold vectors: a call per question -> per batch of 32 | {qw:.2f} / {qc:.2f} | "
          f"{bw2:.2f} / {bc2:.2f} | {qc / max(bc2, 1e-9):,.1f}x |")


if __name__ == "__main__":
    main()
