"""Stage IV (b): deterministic evidence construction on the fact store.

Structural candidates Γ(x, u): relation must match; subject/object too unless ``?`` (one
posting-list slice: (s,r) or (r,o) or (s,r,o)). Anchor time resolution: every fact of an
aligned anchor triple is a reference range; no fact -> constraints on it admit nothing.
Targets: the search triple; without one (time questions) the *anchor-only* mode targets the
anchors that no event constraint refers to. Then conjunction of κ, RankSelect with ρ, at most
20 facts (10 in ``wo_constraint``). A slot that is not a KG name (alignment kept its surface
form) has no structural matches: the paper's schema-level equivalence.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tkgqa_ray.methods.base import Stage

from .constraints import MAX_EVIDENCE, apply_constraints, constraints_from_json, rank_select
from .roles import scop_trace
from .types import UNKNOWN, Ranking

ANCHOR_CONTEXT = 5  # anchor facts per anchor shown to the answerer next to the search facts


class NameResolver:
    """KG name or display form -> id (exact; no similarity: that is alignment's job)."""

    def __init__(self, table: Any) -> None:
        self.eid = table.entity_id
        self.rid = table.relation_id
        self.deid = table.display_entity_id
        self.drid = table.display_relation_id

    def entity(self, x: str) -> int | None:
        i = self.eid.get(x)
        return i if i is not None else self.deid.get(x)

    def relation(self, x: str) -> int | None:
        i = self.rid.get(x)
        return i if i is not None else self.drid.get(x)


def structural_key(res: NameResolver, t: list[str]) -> tuple[int | None, int, int | None] | None:
    """(subject id, relation id, object id) of a triple pattern (``?`` = None), or None when
    a named slot is not in the KG (then no fact can match)."""
    s, r, o = t
    rid = res.relation(r)
    sid = None if s == UNKNOWN else res.entity(s)
    oid = None if o == UNKNOWN else res.entity(o)
    if rid is None or (s != UNKNOWN and sid is None) or (o != UNKNOWN and oid is None):
        return None
    return sid, rid, oid


def prefetch_structural(store: Any, res: NameResolver, scratches: list[dict]) -> dict[tuple, np.ndarray]:
    """Structural candidates of every anchor/search triple of a batch in one ``query_many``:
    with the sharded store that is one remote call per shard per batch instead of ~2 per
    question (which dominated a symbolic SCoP run on Ray)."""
    keys: list[tuple] = []
    seen: set[tuple] = set()
    for sc in scratches:
        for t in list(sc.get("anchors") or []) + ([sc["search"]] if sc.get("search") is not None else []):
            k = structural_key(res, t)
            if k is not None and k not in seen:
                seen.add(k)
                keys.append(k)
    if not keys or not hasattr(store, "query_many"):
        return {}
    from tkgqa_ray.kg.store import QuerySpec

    got = store.query_many([QuerySpec(subject=k[0], relation=k[1], object=k[2]) for k in keys])
    return {k: np.asarray(ids, dtype=np.int64) for k, ids in zip(keys, got)}


def structural(store: Any, res: NameResolver, t: list[str], fetched: dict[tuple, np.ndarray] | None = None) -> np.ndarray:
    """Fact ids x with Γ(x, t) = 1, sorted by (start, id)."""
    k = structural_key(res, t)
    if k is None:
        return np.zeros(0, np.int64)
    if fetched is not None and k in fetched:
        return fetched[k]
    return np.asarray(store.query(subject=k[0], relation=k[1], object=k[2]), dtype=np.int64)


def build_evidence(ctx: Any, res: NameResolver, sc: dict, fetched: dict[tuple, np.ndarray] | None = None) -> dict:
    """The deterministic part of Stage IV for one question (``sc`` = the stage scratch;
    ``fetched`` = :func:`prefetch_structural` of its batch, optional)."""
    table, store = ctx.table, ctx.store
    start, end = table.start, table.end
    anchors: list[list[str]] = sc.get("anchors") or []
    search = sc.get("search")
    cons = constraints_from_json(sc.get("constraints") or [])
    rk = sc.get("ranking")
    ranking = Ranking(rk["order"], int(rk["k"])) if rk else None
    cap = int(sc.get("evidence_cap") or MAX_EVIDENCE)

    anchor_ids = [structural(store, res, a, fetched) for a in anchors]
    anchor_spans = [list(zip(start[ids].tolist(), end[ids].tolist())) for ids in anchor_ids]
    if search is not None:
        mode = "search"
        cand = structural(store, res, search, fetched)
    elif anchors:
        mode = "anchor_only"
        referenced = {int(c.reference) for c in cons if c.ref_type == "event"}  # type: ignore[arg-type]
        targets = [i for i in range(len(anchors)) if i not in referenced] or [0]
        parts = [anchor_ids[i] for i in targets]
        cand = np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
        cons = [c for c in cons if not (c.ref_type == "event" and int(c.reference) in targets)]  # type: ignore[arg-type]
    else:
        mode = "none"
        cand = np.zeros(0, np.int64)
    initial = int(len(cand))
    if len(cand) and cons:
        cand = cand[apply_constraints(start[cand], end[cand], cons, anchor_spans)]
    admissible = int(len(cand))
    final = rank_select(cand, start, ranking, cap)
    return {
        "mode": mode,
        "target_facts": final.tolist(),
        "anchor_facts": [ids[:ANCHOR_CONTEXT].tolist() for ids in anchor_ids],
        "anchor_counts": [int(len(ids)) for ids in anchor_ids],
        "initial": initial,
        "admissible": admissible,
        "final": int(len(final)),
    }


def fact_dict(table: Any, i: int) -> dict:
    f = table.fact(int(i))
    from tkgqa_ray.time import format_day

    return {
        "id": int(i),
        "s": table.display(f.subject),
        "r": table.display(f.relation),
        "o": table.display(f.object),
        "start": format_day(f.start, "day"),
        "end": format_day(f.end, "day"),
    }


class EvidenceStage(Stage):
    name = "scop.evidence"

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.res = NameResolver(ctx.table)

    def __call__(self, states: list[dict]) -> list[dict]:
        table = self.ctx.table
        scratches = [st["_scop"] for st in states]
        fetched = prefetch_structural(self.ctx.store, self.res, scratches)
        evs = [build_evidence(self.ctx, self.res, sc, fetched) for sc in scratches]
        chosen = self._try_readings(scratches, evs)
        for st, ev, pick in zip(states, evs, chosen):
            sc = st["_scop"]
            if pick is not None:
                ev = pick[1]
                sc.update(anchors=pick[0]["anchors"], search=pick[0]["search"])
            sc["evidence"] = ev
            st["initial_evidence_count"] = ev["initial"]
            st["final_evidence_count"] = ev["final"]
            st["evidence"] = [table.fact(i).key for i in ev["target_facts"]]
            tr = scop_trace(st)
            tr["evidence"] = {
                "mode": ev["mode"],
                "initial": ev["initial"],
                "admissible": ev["admissible"],
                "final": ev["final"],
                "anchor_counts": ev["anchor_counts"],
                "anchor_facts": [[table.fact(i).key for i in ids] for ids in ev["anchor_facts"]],
            }
            n = 1 + len(sc.get("readings") or [])
            if pick is None:
                tr["reading"] = {"chosen": 0, "of": n, "changed": None}
            else:
                r = pick[0]
                tr["reading"] = {"chosen": pick[2], "of": n, "changed": r["changed"], "swap": r.get("swap", False),
                                 "score": r["score"], "anchors": r["anchors"], "search": r["search"]}
            sc.pop("readings", None)
        return states

    def _try_readings(self, scratches: list[dict], evs: list[dict]) -> list[tuple[dict, dict, int] | None]:
        """For questions whose aligned reading admits no evidence, the alternative readings
        (alignment's candidate groundings) in order: the first with admissible evidence wins
        (the KG decides between near ties). Their triple patterns go to the store in one
        batched ``query_many`` for the whole batch."""
        out: list[tuple[dict, dict, int] | None] = [None] * len(scratches)
        need = [i for i, (sc, ev) in enumerate(zip(scratches, evs)) if ev["final"] == 0 and sc.get("readings")]
        if not need:
            return out
        alts = {i: [{**scratches[i], "anchors": r["anchors"], "search": r["search"]} for r in scratches[i]["readings"]] for i in need}
        fetched = prefetch_structural(self.ctx.store, self.res, [a for i in need for a in alts[i]])
        for i in need:
            for j, (r, alt) in enumerate(zip(scratches[i]["readings"], alts[i])):
                ev = build_evidence(self.ctx, self.res, alt, fetched)
                if ev["final"] > 0:
                    out[i] = (r, ev, j + 1)
                    break
        return out
