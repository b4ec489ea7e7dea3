"""Brute-force answers to store queries: full scans of the table columns, no index.

This is the ground truth the posting-list store, the sharded store and the question
generator's gold answers are checked against. It deliberately shares no code with
``index.py``/``store.py`` beyond the ``FactTable`` columns: a bug in the indexes cannot hide
here. Semantics are documented in ``store.py``'s module docstring.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from .table import FactTable


def _ent(table: FactTable, x) -> int:
    return table.entity_id[x] if isinstance(x, str) else int(x)


def _rel(table: FactTable, x) -> int:
    return table.relation_id[x] if isinstance(x, str) else int(x)


def match_mask(
    table: FactTable,
    subject=None,
    relation=None,
    object=None,
    entity=None,
    start_min: int | None = None,
    start_max: int | None = None,
    overlaps: tuple[int, int] | None = None,
) -> np.ndarray:
    """Boolean mask over all facts for the query's constraints (ANDed)."""
    n = table.num_facts
    m = np.ones(n, dtype=bool)
    if subject is not None:
        m &= table.s == _ent(table, subject)
    if object is not None:
        m &= table.o == _ent(table, object)
    if entity is not None:
        e = _ent(table, entity)
        m &= (table.s == e) | (table.o == e)
    if relation is not None:
        rels = [relation] if isinstance(relation, (str, int, np.integer)) else list(relation)
        rm = np.zeros(n, dtype=bool)
        for x in rels:
            rm |= table.r == _rel(table, x)
        m &= rm
    if start_min is not None:
        m &= table.start >= start_min
    if start_max is not None:
        m &= table.start <= start_max
    if overlaps is not None:
        lo, hi = overlaps
        m &= (table.start <= hi) & (table.end >= lo)
    return m


def sort_ids(table: FactTable, ids: np.ndarray, order: str = "asc", limit: int | None = None) -> np.ndarray:
    ids = np.asarray(ids, dtype=np.int64)
    ids = ids[np.lexsort((ids, table.start[ids]))]  # by start, then id
    if order == "desc":
        ids = ids[::-1]
    elif order != "asc":
        raise ValueError(f"order must be 'asc' or 'desc', got {order!r}")
    return ids if limit is None else ids[:limit]


def query(
    table: FactTable,
    subject=None,
    relation=None,
    object=None,
    entity=None,
    start_min: int | None = None,
    start_max: int | None = None,
    overlaps: tuple[int, int] | None = None,
    order: str = "asc",
    limit: int | None = None,
) -> np.ndarray:
    """Same contract as ``FactStore.query``, by a full scan."""
    m = match_mask(table, subject, relation, object, entity, start_min, start_max, overlaps)
    return sort_ids(table, np.flatnonzero(m), order, limit)


def query_many(table: FactTable, specs: Sequence[Any]) -> list[np.ndarray]:
    out = []
    for q in specs:
        kw = q if isinstance(q, Mapping) else {f: getattr(q, f) for f in q.__dataclass_fields__}
        out.append(query(table, **kw))
    return out


def facts_between(
    table: FactTable, a, b, both_directions: bool = True, relation=None,
    start_min=None, start_max=None, overlaps=None, order: str = "asc", limit: int | None = None,
) -> np.ndarray:
    ea, eb = _ent(table, a), _ent(table, b)
    pair = (table.s == ea) & (table.o == eb)
    if both_directions:
        pair |= (table.s == eb) & (table.o == ea)
    m = pair & match_mask(table, relation=relation, start_min=start_min, start_max=start_max, overlaps=overlaps)
    return sort_ids(table, np.flatnonzero(m), order, limit)


def query_python(table: FactTable, **kw) -> list[int]:
    """A second, loop-based oracle (no numpy masks) for small tables: checks the first."""
    subject, obj, entity = kw.get("subject"), kw.get("object"), kw.get("entity")
    rel = kw.get("relation")
    rels = None if rel is None else ({rel} if isinstance(rel, int) else set(rel))
    smin, smax, ov = kw.get("start_min"), kw.get("start_max"), kw.get("overlaps")
    hits = []
    for i in range(table.num_facts):
        s, r, o, st, en = (int(table.s[i]), int(table.r[i]), int(table.o[i]), int(table.start[i]), int(table.end[i]))
        if subject is not None and s != subject:
            continue
        if obj is not None and o != obj:
            continue
        if entity is not None and entity not in (s, o):
            continue
        if rels is not None and r not in rels:
            continue
        if smin is not None and st < smin:
            continue
        if smax is not None and st > smax:
            continue
        if ov is not None and not (st <= ov[1] and en >= ov[0]):
            continue
        hits.append((st, i))
    hits.sort(reverse=kw.get("order", "asc") == "desc")
    ids = [i for _, i in hits]
    lim = kw.get("limit")
    return ids if lim is None else ids[:lim]
