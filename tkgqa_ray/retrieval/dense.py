"""Dense fact retrieval: the question's nearest distinct triples, expanded to dated facts.

The one dense retriever of the retrieval methods (the baselines' ``DenseRetrieve`` stage, PoK's
Retrieve step, TCC-RAG's semantic fallback): one batched FAISS call per batch of queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from tkgqa_ray.methods.base import Stage, State
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.retrieval.render import fact_keys

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext


def dense_fact_ids(
    ctx: "RunContext",
    queries: Sequence[str],
    k: int,
    *,
    time_hints: Sequence[tuple[int, int] | None] | None = None,
    triple_pool: int | None = None,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Dense top-``k`` dated facts per query: (fact ids, cosine of their triple).

    The FAISS "fact" index holds distinct (s, r, o) triples (dates would only add near-duplicate
    vectors). A fact-level index ranks the dated copies of one triple by how well their date
    text matches the question, so we expand each retrieved triple to its dated facts and order
    them: facts inside the question's explicit time first, then round-robin over triples by
    rank (each triple's best-dated fact before any triple's second), nearest date first.
    """
    if not queries:
        return []
    table = ctx.table
    pool = triple_pool or k
    scores, tids = ctx.embeddings.search("fact", list(queries), pool)
    hints = list(time_hints) if time_hints is not None else [None] * len(queries)
    out = []
    for qi in range(len(queries)):
        valid = tids[qi] >= 0
        t = np.asarray(tids[qi][valid], dtype=np.int64)
        sc = np.asarray(scores[qi][valid], dtype=np.float32)
        if t.size == 0:
            out.append((np.empty(0, np.int64), np.empty(0, np.float32)))
            continue
        fids = table.facts_of_triples(t)
        ft = table.fact_triple[fids]
        rank_of = {int(x): i for i, x in enumerate(t.tolist())}
        trank = np.array([rank_of[int(x)] for x in ft], dtype=np.int64)
        start = table.start[fids].astype(np.int64)
        end = table.end[fids].astype(np.int64)
        hint = hints[qi]
        if hint is not None:
            lo, hi = hint
            miss = ~((start <= hi) & (end >= lo))
            dist = np.where(miss, np.minimum(np.abs(start - lo), np.abs(start - hi)), 0)
        else:
            miss = np.zeros(len(fids), bool)
            dist = start - start.min()
        # position of each fact within its triple, by (mismatch, distance, start)
        order = np.lexsort((start, dist, miss, trank))
        within = np.empty(len(fids), np.int64)
        prev, pos = -1, 0
        for idx in order:
            if trank[idx] != prev:
                prev, pos = trank[idx], 0
            within[idx] = pos
            pos += 1
        final = np.lexsort((trank, within, miss))[:k]
        out.append((fids[final].astype(np.int64), sc[trank[final]]))
    return out


class DenseRetrieve(Stage):
    """Dense top-k facts for the raw question (one FAISS call per batch)."""

    name = "dense_retrieve"

    def __init__(self, ctx: "RunContext", k: int = 20, triple_pool: int | None = None) -> None:
        super().__init__(ctx)
        self.k = k
        self.triple_pool = triple_pool or 2 * k

    def __call__(self, states: list[State]) -> list[State]:
        qs = [s["question"] for s in states]
        hints = []
        for q in qs:
            e = question_signals(q).explicit
            hints.append((e.lo, e.hi) if e else None)
        hits = dense_fact_ids(self.ctx, qs, self.k, time_hints=hints, triple_pool=self.triple_pool)
        for state, (fids, scores) in zip(states, hits):
            keys = fact_keys(self.ctx.table, fids)
            state["evidence"] = keys
            state["initial_evidence_count"] = len(keys)
            state["trace"]["retrieved"] = [
                {"fact": k, "score": round(float(s), 4)} for k, s in zip(keys, scores)
            ]
        return states
