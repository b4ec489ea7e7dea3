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

from typing import Any, Sequence

import numpy as np

from .constraints import MAX_EVIDENCE, apply_constraints, rank_select
from .state import ScopStage, ScopState, scop_state
from .types import UNKNOWN, AltReading, Constraint, Evidence, Ranking, Reading, Triple

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


_PLACES: dict[object, dict[str, np.ndarray]] = {}  # kg.table.table_cache_key -> place members


def place_members(table: Any) -> dict[str, np.ndarray]:
    """Place key (``nlu.actors.place_lexicon``: ISO alpha-3 or a region's name) -> ids of that
    place's actors (``Police_(Kenya)`` is Kenya's) and of the place's own entity (``Kenya``),
    built once per table (one pass over the entity names)."""
    from tkgqa_ray.kg.table import table_cache_key

    cache_key = table_cache_key(table)
    got = _PLACES.get(cache_key)
    if got is None:
        from tkgqa_ray.nlu.actors import decompose, place_lexicon

        lex = place_lexicon()
        by: dict[str, list[int]] = {}
        for i, name in enumerate(table.entities):
            d = decompose(name)
            key = lex.resolve(d.place if d is not None else name)
            if key is not None:
                by.setdefault(key, []).append(i)
        got = _PLACES[cache_key] = {k: np.asarray(v, dtype=np.int64) for k, v in by.items()}
    return got


def scope_ids(ctx: Any, question: str) -> np.ndarray | None:
    """Entity ids an answer scope of the question allows ("which party from Syria": Syria and
    Syria's actors), or None when the question has no scope."""
    from tkgqa_ray.nlu.cache import context_analysis

    scope = context_analysis(question, ctx).answer_scope
    if not scope:
        return None
    members = place_members(ctx.table)
    ids = [members[k] for k in scope if k in members]
    return np.unique(np.concatenate(ids)) if ids else None


def group_readings(ctx: Any, question: str) -> dict[str, tuple[str, ...]]:
    """KG name -> the readings of the group written alone it is one of (nlu's shared
    ``QuestionAnalysis.group_readings``: "al-Qaeda" = ``Combatant_(Al_Qaeda)``, ...)."""
    from tkgqa_ray.nlu.cache import context_analysis

    return context_analysis(question, ctx).group_readings


def group_union(store: Any, res: NameResolver, t: Triple, groups: dict[str, tuple[str, ...]],
                fetched: dict[tuple, np.ndarray] | None = None) -> np.ndarray | None:
    """The facts of a search triple whose named slot is one reading of a group written alone,
    over every reading of that group (sorted by (start, id) like :func:`structural`); None when
    its named slot is no such reading. refs26: a rank ("the last to make a statement about
    al-Qaeda") is over the group's facts, all its sectors together. Ids unique, sorted by id."""
    named = t.o if t.s == UNKNOWN else t.s
    alts = groups.get(named)
    if not alts or named == UNKNOWN:
        return None
    parts = [structural(store, res, Triple(t.s, t.r, a) if t.s == UNKNOWN else Triple(a, t.r, t.o), fetched) for a in alts]
    return np.unique(np.concatenate(parts))


def relation_union(store: Any, res: NameResolver, t: Triple, rel_groups: dict[str, tuple[str, ...]] | None,
                   groups: dict[str, tuple[str, ...]] | None = None,
                   fetched: dict[tuple, np.ndarray] | None = None) -> np.ndarray | None:
    """The facts of the asked triple over its relation and that relation's near-tied
    co-readings (``rel_groups``, :func:`~tkgqa_ray.methods.scop.alignment.relation_coreadings`),
    each with the group union of :func:`group_union` where it applies; None when the relation
    has no co-reading. refs27: a rank over a phrase the KG names by several near-tied relations
    ("the last one Obama eased sanctions against": administrative and economic sanctions) is
    over all of them. Ids unique, sorted by id."""
    co = (rel_groups or {}).get(t.r)
    if not co:
        return None
    parts = []
    for r in (t.r, *co):
        tr = Triple(t.s, r, t.o)
        u = group_union(store, res, tr, groups, fetched) if groups else None
        parts.append(u if u is not None else structural(store, res, tr, fetched))
    return np.unique(np.concatenate(parts))


def structural_key(res: NameResolver, t: Triple) -> tuple[int | None, int, int | None] | None:
    """(subject id, relation id, object id) of a triple pattern (``?`` = None), or None when
    a named slot is not in the KG (then no fact can match)."""
    s, r, o = t.s, t.r, t.o
    rid = res.relation(r)
    sid = None if s == UNKNOWN else res.entity(s)
    oid = None if o == UNKNOWN else res.entity(o)
    if rid is None or (s != UNKNOWN and sid is None) or (o != UNKNOWN and oid is None):
        return None
    return sid, rid, oid


def prefetch_structural(store: Any, res: NameResolver, readings: Sequence[Reading]) -> dict[tuple, np.ndarray]:
    """Structural candidates of every anchor/search triple of a batch in one ``query_many``:
    with the sharded store that is one remote call per shard per batch instead of ~2 per
    question (which dominated a symbolic SCoP run on Ray)."""
    keys: list[tuple] = []
    seen: set[tuple] = set()
    for rd in readings:
        for t in list(rd.anchors) + ([rd.search] if rd.search is not None else []):
            k = structural_key(res, t)
            if k is not None and k not in seen:
                seen.add(k)
                keys.append(k)
    if not keys or not hasattr(store, "query_many"):
        return {}
    from tkgqa_ray.kg.store import QuerySpec

    got = store.query_many([QuerySpec(subject=k[0], relation=k[1], object=k[2]) for k in keys])
    return {k: np.asarray(ids, dtype=np.int64) for k, ids in zip(keys, got)}


def structural(store: Any, res: NameResolver, t: Triple, fetched: dict[tuple, np.ndarray] | None = None) -> np.ndarray:
    """Fact ids x with Γ(x, t) = 1, sorted by (start, id)."""
    k = structural_key(res, t)
    if k is None:
        return np.zeros(0, np.int64)
    if fetched is not None and k in fetched:
        return fetched[k]
    return np.asarray(store.query(subject=k[0], relation=k[1], object=k[2]), dtype=np.int64)


def build_evidence(
    ctx: Any, res: NameResolver, reading: Reading, constraints: Sequence[Constraint] = (), ranking: Ranking | None = None,
    cap: int | None = None, fetched: dict[tuple, np.ndarray] | None = None, scope: np.ndarray | None = None,
    groups: dict[str, tuple[str, ...]] | None = None, rel_groups: dict[str, tuple[str, ...]] | None = None,
) -> Evidence:
    """The deterministic part of Stage IV for one question's ``reading`` (``cap`` None = the
    default 20; ``fetched`` = :func:`prefetch_structural` of its batch, optional; ``scope``:
    entity ids the asked slot should take (:func:`scope_ids`), applied before RankSelect when
    some admissible fact fits it; ``groups``: the question's group readings, :func:`group_readings`,
    whose union a ranked search triple takes, :func:`group_union`; ``rel_groups``: the asked
    phrase's near-tied relation readings, whose union a ranked asked triple takes,
    :func:`relation_union`)."""
    table, store = ctx.table, ctx.store
    start, end = table.start, table.end
    anchors = list(reading.anchors)
    search = reading.search
    cons = list(constraints)
    cap = int(cap or MAX_EVIDENCE)

    anchor_ids = [structural(store, res, a, fetched) for a in anchors]
    anchor_spans = [list(zip(start[ids].tolist(), end[ids].tolist())) for ids in anchor_ids]
    if search is not None:
        mode = "search"
        cand = structural(store, res, search, fetched)
        union = None
        if ranking is not None and rel_groups:
            union = relation_union(store, res, search, rel_groups, groups, fetched)
        if union is None and ranking is not None and groups:
            union = group_union(store, res, search, groups, fetched)
        if union is not None:
            cand = union  # (rank_select orders them)
    elif anchors:
        mode = "anchor_only"
        referenced = {int(c.reference) for c in cons if c.ref_type == "event"}  # type: ignore[arg-type]
        targets = [i for i in range(len(anchors)) if i not in referenced] or [0]
        parts = [anchor_ids[i] for i in targets]
        if ranking is not None and rel_groups and 0 in targets:  # the asked event (time questions)
            union = relation_union(store, res, anchors[0], rel_groups, None, fetched)
            if union is not None:
                parts[targets.index(0)] = union
        cand = np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
        cons = [c for c in cons if not (c.ref_type == "event" and int(c.reference) in targets)]  # type: ignore[arg-type]
    else:
        mode = "none"
        cand = np.zeros(0, np.int64)
    initial = int(len(cand))
    if len(cand) and cons:
        cand = cand[apply_constraints(start[cand], end[cand], cons, anchor_spans)]
    if scope is not None and mode == "search" and len(cand):
        col = table.s if search.s == UNKNOWN else table.o
        fit = np.isin(col[cand], scope)
        if fit.any():  # "the first party from Syria": rank among Syria's actors only
            cand = cand[fit]
    admissible = int(len(cand))
    final = rank_select(cand, start, ranking, cap)
    return Evidence(
        mode=mode,
        target_facts=final.tolist(),
        anchor_facts=[ids[:ANCHOR_CONTEXT].tolist() for ids in anchor_ids],
        anchor_counts=[int(len(ids)) for ids in anchor_ids],
        initial=initial,
        admissible=admissible,
        final=int(len(final)),
    )


def state_evidence(ctx: Any, res: NameResolver, s: ScopState, reading: Reading | None = None,
                   fetched: dict[tuple, np.ndarray] | None = None) -> Evidence:
    """:func:`build_evidence` with a state's constraints, ranking and cap, on its aligned
    reading (or ``reading``)."""
    return build_evidence(ctx, res, s.aligned if reading is None else reading, s.constraints, s.ranking, s.evidence_cap, fetched,
                          scope_ids(ctx, s.question), group_readings(ctx, s.question) if s.ranking is not None else None,
                          s.relation_groups if s.ranking is not None else None)


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


class EvidenceStage(ScopStage):
    name = "scop.evidence"
    reads = ("aligned", "readings", "constraints", "ranking")
    reads_optional = ("evidence_cap", "relation_groups")  # wo_constraint's top-10; None = MAX_EVIDENCE
    writes = ("chosen", "evidence")

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.res = NameResolver(ctx.table)

    def __call__(self, states: list[dict]) -> list[dict]:
        table = self.ctx.table
        ss = [scop_state(st) for st in states]
        fetched = prefetch_structural(self.ctx.store, self.res, [s.aligned for s in ss])
        evs = [state_evidence(self.ctx, self.res, s, fetched=fetched) for s in ss]
        picks = self._try_readings(ss, evs)
        for s, ev, pick in zip(ss, evs, picks):
            s.chosen = s.aligned
            if pick is not None:
                alt, ev, j = pick
                s.chosen = alt.reading
            s.evidence = ev
            tr = s.trace
            tr["evidence"] = {
                "mode": ev.mode,
                "initial": ev.initial,
                "admissible": ev.admissible,
                "final": ev.final,
                "anchor_counts": ev.anchor_counts,
                "anchor_facts": [[table.fact(i).key for i in ids] for ids in ev.anchor_facts],
            }
            ch = s.chosen
            asked = ch.search if ch.search is not None else (ch.anchors[0] if ch.anchors else None)
            if s.ranking is not None and asked is not None and s.relation_groups.get(asked.r):
                tr["evidence"]["relation_union"] = [asked.r, *s.relation_groups[asked.r]]  # refs27
            n = 1 + len(s.readings)
            if pick is None:
                tr["reading"] = {"chosen": 0, "of": n, "changed": None}
            else:
                tr["reading"] = {"chosen": j, "of": n, "changed": alt.changed, "swap": alt.swap,
                                 "score": alt.score, **alt.reading.to_json()}
        return states

    def _try_readings(self, ss: list[ScopState], evs: list[Evidence]) -> list[tuple[AltReading, Evidence, int] | None]:
        """For questions whose aligned reading admits no evidence, the alternative readings
        (alignment's candidate groundings) in order: the first with admissible evidence wins
        (the KG decides between near ties). Their triple patterns go to the store in one
        batched ``query_many`` for the whole batch."""
        out: list[tuple[AltReading, Evidence, int] | None] = [None] * len(ss)
        need = [i for i, (s, ev) in enumerate(zip(ss, evs)) if ev.final == 0 and s.readings]
        if not need:
            return out
        fetched = prefetch_structural(self.ctx.store, self.res, [r.reading for i in need for r in ss[i].readings])
        for i in need:
            for j, r in enumerate(ss[i].readings):
                ev = state_evidence(self.ctx, self.res, ss[i], r.reading, fetched)
                if ev.final > 0:
                    out[i] = (r, ev, j + 1)
                    break
        return out
