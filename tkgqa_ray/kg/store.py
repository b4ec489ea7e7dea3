"""In-process fact store: posting-list queries by key, time range, order and limit.

Query semantics (shared by ``oracle.py`` and the sharded client — keep them in step):

* ``subject``/``object``: entity id (or KG-form name) the fact's subject/object must equal.
* ``relation``: one id/name, or a sequence meaning "any of these" (an empty sequence matches
  nothing).
* ``entity``: the fact's subject *or* object equals it (ANDed with the other constraints).
* ``start_min``/``start_max``: inclusive bounds on the fact's start day.
* ``overlaps=(lo, hi)``: the fact's ``[start, end]`` meets ``[lo, hi]`` (``start <= hi and
  end >= lo``). For point facts this is the same as ``lo <= start <= hi``; for interval facts
  it is not (a fact that started before ``lo`` and is still running overlaps).
* Result: int64 fact ids sorted by ``(start, id)``; ``order="desc"`` is the exact reverse;
  ``limit`` keeps the first ``limit`` in that order. Results may be read-only views of the
  index: treat them as read-only.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, Iterable, Mapping, Sequence, Union

import numpy as np

from .index import SHIFT, PostingIndex
from .table import FactTable

_EMPTY = np.empty(0, dtype=np.int64)
_EMPTY.flags.writeable = False
_MAX_DAY = (1 << 31) - 1
_MASK32 = (1 << 32) - 1

Name = Union[int, str, np.integer]


@dataclass(frozen=True, slots=True)
class QuerySpec:
    """One query, in the form that travels in batches (``query_many``) and to shard actors."""

    subject: Name | None = None
    relation: Name | Sequence[Name] | None = None
    object: Name | None = None
    entity: Name | None = None
    start_min: int | None = None
    start_max: int | None = None
    overlaps: tuple[int, int] | None = None
    order: str = "asc"
    limit: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return asdict(self)


def as_spec(q: QuerySpec | Mapping[str, Any]) -> QuerySpec:
    return q if isinstance(q, QuerySpec) else QuerySpec(**q)


def expand_entity(spec: QuerySpec) -> list[QuerySpec]:
    """Rewrite ``entity=e`` into entity-free disjuncts (subject=e) ∨ (object=e), each ANDed
    with the spec's other constraints; a contradiction yields no disjunct. Results of the
    disjuncts may overlap (self-loops), so callers merge with de-duplication."""
    e = spec.entity
    if e is None:
        return [spec]
    s, o = spec.subject, spec.object
    base = replace(spec, entity=None)
    if s is not None and o is not None:
        return [base] if e == s or e == o else []
    if s is not None:
        return [base] if s == e else [replace(base, object=e)]
    if o is not None:
        return [base] if o == e else [replace(base, subject=e)]
    return [replace(base, subject=e), replace(base, object=e)]


def merge_sorted(parts: Sequence[np.ndarray], start: np.ndarray) -> np.ndarray:
    """Union of fact-id arrays, de-duplicated, sorted by (start, id)."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return _EMPTY
    if len(parts) == 1:
        return parts[0]
    ids = np.concatenate(parts)
    comb = np.unique((start[ids].astype(np.int64) << SHIFT) | ids)
    return comb & _MASK32


def finish(ids: np.ndarray, order: str, limit: int | None) -> np.ndarray:
    """Apply order and limit to ids sorted by (start, id)."""
    if order == "desc":
        ids = ids[::-1]
    elif order != "asc":
        raise ValueError(f"order must be 'asc' or 'desc', got {order!r}")
    if limit is not None:
        if limit < 0:
            raise ValueError(f"limit must be >= 0, got {limit}")
        ids = ids[:limit]
    return ids


class FactStore:
    """Posting-list indexes over a ``FactTable``; plain Python, no Ray needed.

    ``s_facts``/``o_facts`` restrict which facts the subject-keyed ((s,r), (s,o), s, r, all)
    and object-keyed ((r,o), o) indexes hold; the sharded store gives each shard its share
    (by hash of subject / object). Default: every fact in every index.
    """

    KEYINGS = ("sr", "ro", "so", "s", "o", "r", "all")

    def __init__(self, table: FactTable, s_facts: np.ndarray | None = None, o_facts: np.ndarray | None = None):
        self.table = table
        n = table.num_facts
        all_ids = np.arange(n, dtype=np.int64)
        s_ids = all_ids if s_facts is None else np.sort(np.asarray(s_facts, dtype=np.int64))
        o_ids = all_ids if o_facts is None else np.sort(np.asarray(o_facts, dtype=np.int64))
        self._R = R = max(len(table.relations), 1)
        self._E = E = max(len(table.entities), 1)
        s = table.s.astype(np.int64)
        r = table.r.astype(np.int64)
        o = table.o.astype(np.int64)
        st = table.start
        zero = np.zeros(n, dtype=np.int64)
        self.sr = PostingIndex.build("sr", s * R + r, st, s_ids)
        self.ro = PostingIndex.build("ro", r * E + o, st, o_ids)
        self.so = PostingIndex.build("so", s * E + o, st, s_ids)
        self.s = PostingIndex.build("s", s, st, s_ids)
        self.o = PostingIndex.build("o", o, st, o_ids)
        self.r = PostingIndex.build("r", r, st, s_ids)
        self.all = PostingIndex.build("all", zero, st, s_ids)
        self._start = table.start
        self._end = table.end
        self._rcol = table.r
        self._D = table.max_duration  # longest fact; bounds the overlap scan for intervals

    # ------------------------------------------------------------------ names → ids
    def _eid(self, x: Name) -> int:
        if isinstance(x, str):
            try:
                return self.table.entity_id[x]
            except KeyError:
                raise KeyError(f"unknown entity {x!r} (KG form, with underscores)") from None
        return int(x)

    def _rids(self, rel) -> tuple[int, ...] | None:
        if rel is None:
            return None
        if isinstance(rel, (str, int, np.integer)):
            rel = (rel,)
        out = []
        for x in rel:
            if isinstance(x, str):
                try:
                    out.append(self.table.relation_id[x])
                except KeyError:
                    raise KeyError(f"unknown relation {x!r} (KG form, with underscores)") from None
            else:
                out.append(int(x))
        return tuple(sorted(set(out)))

    # ------------------------------------------------------------------ core
    def _range(self, idx: PostingIndex, key: int, lo: int, hi: int, ov: tuple[int, int] | None) -> np.ndarray:
        """Ids of ``key``'s list with lo <= start <= hi and (if ov) overlapping ov.
        ``lo >= 0`` and ``hi <= 2**31 - 1`` (clamped by the caller)."""
        if ov is not None:
            ql, qh = ov
            if qh < hi:
                hi = qh
            if self._D == 0:  # point facts: overlap == start within [ql, qh]
                if ql > lo:
                    lo = ql
            else:
                # start >= ql overlaps for sure; start in [ql - D, ql) needs end >= ql.
                lo_scan = max(lo, ql - self._D)
                if lo_scan > hi or hi < 0:
                    return _EMPTY
                base = key << SHIFT
                ss = idx.comb.searchsorted
                a = int(ss(base | lo_scan, "left"))
                b = int(ss(base | hi, "right"))
                sure = max(lo, ql)
                c = b if sure > hi else int(ss(base | sure, "left"))
                head = idx.ids[a:c]
                if len(head):
                    head = head[self._end[head] >= ql]
                    if len(head):
                        return np.concatenate([head, idx.ids[c:b]])
                return idx.ids[c:b]
        if lo > hi or hi < 0:
            return _EMPTY
        base = key << SHIFT
        ss = idx.comb.searchsorted
        return idx.ids[int(ss(base | lo, "left")) : int(ss(base | hi, "right"))]

    def _parts(self, subject, relation, object, start_min, start_max, overlaps) -> list[np.ndarray]:
        """Entity-free query → list of id arrays, each sorted by (start, id)."""
        lo = 0 if start_min is None else max(int(start_min), 0)
        hi = _MAX_DAY if start_max is None else min(int(start_max), _MAX_DAY)
        ov = None
        if overlaps is not None:
            ql, qh = overlaps
            ov = (max(int(ql), 0), min(int(qh), _MAX_DAY))
        if relation is None:
            rels = None
        elif type(relation) is int:  # common case, skip the general normalisation
            if not 0 <= relation < self._R:
                return []
            rels = (relation,)
        else:
            rels = tuple(r for r in self._rids(relation) if 0 <= r < self._R)
            if not rels:
                return []
        E = self._E
        s = subject if subject is None or type(subject) is int else self._eid(subject)
        o = object if object is None or type(object) is int else self._eid(object)
        if (s is not None and not 0 <= s < E) or (o is not None and not 0 <= o < E):
            return []  # an id the KG does not have matches nothing
        if s is not None and o is not None:
            ids = self._range(self.so, s * E + o, lo, hi, ov)
            if rels is not None and len(ids):
                rc = self._rcol[ids]
                ids = ids[rc == rels[0]] if len(rels) == 1 else ids[np.isin(rc, rels)]
            return [ids]
        if s is not None:
            if rels is None:
                return [self._range(self.s, s, lo, hi, ov)]
            return [self._range(self.sr, s * self._R + r, lo, hi, ov) for r in rels]
        if o is not None:
            if rels is None:
                return [self._range(self.o, o, lo, hi, ov)]
            return [self._range(self.ro, r * E + o, lo, hi, ov) for r in rels]
        if rels is None:
            return [self._range(self.all, 0, lo, hi, ov)]
        return [self._range(self.r, r, lo, hi, ov) for r in rels]

    def plain_parts(self, spec: QuerySpec) -> list[np.ndarray]:
        """Parts of an entity-free spec with its time filters applied (no order/limit)."""
        return self._parts(spec.subject, spec.relation, spec.object, spec.start_min, spec.start_max, spec.overlaps)

    def query_plain(self, spec: QuerySpec) -> np.ndarray:
        """Entity-free spec → ids in the spec's order, limited (what a shard answers)."""
        return finish(merge_sorted(self.plain_parts(spec), self._start), spec.order, spec.limit)

    # ------------------------------------------------------------------ public API
    def query(
        self,
        subject: Name | None = None,
        relation: Name | Sequence[Name] | None = None,
        object: Name | None = None,
        entity: Name | None = None,
        start_min: int | None = None,
        start_max: int | None = None,
        overlaps: tuple[int, int] | None = None,
        order: str = "asc",
        limit: int | None = None,
    ) -> np.ndarray:
        """Fact ids matching all given constraints (see module docstring), sorted by (start, id)."""
        if entity is None:  # fast path: no spec object, usually one posting-list slice
            parts = self._parts(subject, relation, object, start_min, start_max, overlaps)
            ids = parts[0] if len(parts) == 1 else merge_sorted(parts, self._start)
            if order == "asc" and limit is None:
                return ids
            return finish(ids, order, limit)
        spec = QuerySpec(subject, relation, object, entity, start_min, start_max, overlaps, order, limit)
        return self.query_spec(spec)

    def query_spec(self, spec: QuerySpec) -> np.ndarray:
        if spec.entity is None:
            return self.query_plain(spec)
        if isinstance(spec.entity, str):
            spec = replace(spec, entity=self._eid(spec.entity))
        if isinstance(spec.subject, str):
            spec = replace(spec, subject=self._eid(spec.subject))
        if isinstance(spec.object, str):
            spec = replace(spec, object=self._eid(spec.object))
        parts: list[np.ndarray] = []
        for d in expand_entity(spec):
            parts.extend(self.plain_parts(d))
        return finish(merge_sorted(parts, self._start), spec.order, spec.limit)

    def query_many(self, specs: Iterable[QuerySpec | Mapping[str, Any]]) -> list[np.ndarray]:
        """A batch of queries in one call (one round trip when the store is an actor)."""
        return [self.query_spec(as_spec(q)) for q in specs]

    def facts_between(
        self,
        a: Name,
        b: Name,
        both_directions: bool = True,
        relation=None,
        start_min: int | None = None,
        start_max: int | None = None,
        overlaps: tuple[int, int] | None = None,
        order: str = "asc",
        limit: int | None = None,
    ) -> np.ndarray:
        """Facts linking two entities (a→b, and b→a unless ``both_directions=False``):
        the edges of a temporal evidence graph."""
        return self.query_many_merged(between_specs(a, b, both_directions, relation, start_min, start_max, overlaps), order, limit)

    def query_many_merged(self, specs: Sequence[QuerySpec], order: str = "asc", limit: int | None = None) -> np.ndarray:
        """Union of several queries (each without its own order/limit), then order/limit."""
        parts = [self.query_spec(replace(s, order="asc", limit=None)) for s in specs]
        return finish(merge_sorted(parts, self._start), order, limit)

    def query_batch(
        self,
        subject: np.ndarray | None = None,
        relation: np.ndarray | None = None,
        object: np.ndarray | None = None,
        start_min: np.ndarray | int | None = None,
        start_max: np.ndarray | int | None = None,
    ) -> "PostingSlices":
        """Vectorised batch of same-shaped queries (ids, one relation each, start range):
        every lookup is one array ``searchsorted`` over all queries, answers are zero-copy
        slices. For the hot loops of generators/benchmarks; the general form is ``query_many``."""
        given = tuple(x is not None for x in (subject, relation, object))
        arrays = [np.asarray(x, dtype=np.int64) for x in (subject, relation, object) if x is not None]
        n = len(arrays[0]) if arrays else 1
        if any(len(a) != n for a in arrays):
            raise ValueError("query_batch: key arrays must have equal length")
        E, R = self._E, self._R
        s, r, o = (np.asarray(x, dtype=np.int64) if x is not None else None for x in (subject, relation, object))
        if given == (True, True, False):
            idx, key, ok = self.sr, s * R + r, (s >= 0) & (s < E) & (r >= 0) & (r < R)
        elif given == (False, True, True):
            idx, key, ok = self.ro, r * E + o, (o >= 0) & (o < E) & (r >= 0) & (r < R)
        elif given == (True, False, True):
            idx, key, ok = self.so, s * E + o, (s >= 0) & (s < E) & (o >= 0) & (o < E)
        elif given == (True, False, False):
            idx, key, ok = self.s, s, (s >= 0) & (s < E)
        elif given == (False, False, True):
            idx, key, ok = self.o, o, (o >= 0) & (o < E)
        elif given == (False, True, False):
            idx, key, ok = self.r, r, (r >= 0) & (r < R)
        else:
            raise ValueError("query_batch supports keys (s,r), (r,o), (s,o), s, o or r; use query_many otherwise")
        lo = np.zeros(n, np.int64) if start_min is None else np.clip(np.broadcast_to(np.asarray(start_min, np.int64), (n,)), 0, _MAX_DAY)
        hi = np.full(n, _MAX_DAY, np.int64) if start_max is None else np.clip(np.broadcast_to(np.asarray(start_max, np.int64), (n,)), -1, _MAX_DAY)
        base = np.where(ok, key, 0) << SHIFT
        a = idx.comb.searchsorted(base | lo, "left")
        b = idx.comb.searchsorted(base | np.maximum(hi, 0), "right")
        b = np.where(ok & (hi >= lo), np.maximum(a, b), a)
        return PostingSlices(idx.ids, a, b)

    # ------------------------------------------------------------------ stats
    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"num_facts": self.table.num_facts}
        nbytes = 0
        for k in self.KEYINGS:
            idx: PostingIndex = getattr(self, k)
            ln = idx.lengths()
            out[k] = {"keys": idx.num_keys, "max_list": int(ln.max()) if len(ln) else 0}
            nbytes += idx.nbytes
        out["index_bytes"] = nbytes
        return out


@dataclass(frozen=True)
class PostingSlices:
    """Answers of ``query_batch``: answer i is ``ids[lo[i]:hi[i]]`` (sorted by (start, id))."""

    ids: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    def __len__(self) -> int:
        return len(self.lo)

    def __getitem__(self, i: int) -> np.ndarray:
        return self.ids[self.lo[i] : self.hi[i]]

    @property
    def counts(self) -> np.ndarray:
        return self.hi - self.lo

    def to_list(self) -> list[np.ndarray]:
        ids = self.ids
        return [ids[a:b] for a, b in zip(self.lo.tolist(), self.hi.tolist())]


def between_specs(a, b, both_directions=True, relation=None, start_min=None, start_max=None, overlaps=None) -> list[QuerySpec]:
    specs = [QuerySpec(subject=a, object=b, relation=relation, start_min=start_min, start_max=start_max, overlaps=overlaps)]
    if both_directions and a != b:
        specs.append(QuerySpec(subject=b, object=a, relation=relation, start_min=start_min, start_max=start_max, overlaps=overlaps))
    return specs
