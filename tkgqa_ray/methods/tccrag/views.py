"""TCC-RAG's multi-view causal cue graph as thin views over the shared fact store.

The store already keeps posting lists keyed by (subject, object), (subject, relation) and
(relation, object), each sorted by start day: those *are* TEG, SCCI and OCCI. A view is a named
query on them (hash lookup + binary search + slice), never a copy, so the store is built once
per run and shared by every method.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


class CausalCueGraph:
    """TEG / SCCI / OCCI over ``store`` (a ``FactStore`` or its sharded client: same API).

    Time bounds are inclusive start-day bounds (``start_min``/``start_max``); ``None`` = open.
    Results are fact ids sorted by (start, id) — the temporal order the causal cues encode.
    """

    def __init__(self, store: Any, starts: np.ndarray | None = None) -> None:
        self.store = store
        self.starts = starts  # fact start days: lets prefetched posting lists be cut by time
        self._memo: dict[tuple, np.ndarray] = {}

    def prefetch(self, keys: Sequence[tuple[int | None, int | None, int | None]]) -> None:
        """Fetch the posting lists of many (subject, relation, object) patterns (None = open)
        in one ``query_many`` (one round trip per shard for a whole batch of questions and
        candidate readings); later view calls on them are served from memory. Replaces the
        previous batch's lists."""
        self._memo = {}
        keys = [k for k in dict.fromkeys(keys) if not (k[0] is None and k[2] is None)]
        if not keys or self.starts is None or not hasattr(self.store, "query_many"):
            return
        from tkgqa_ray.kg.store import QuerySpec

        got = self.store.query_many([QuerySpec(subject=s, relation=r, object=o) for s, r, o in keys])
        self._memo = {k: np.asarray(ids, dtype=np.int64) for k, ids in zip(keys, got)}

    def _query(self, subject, relation, obj, start_min, start_max) -> np.ndarray:
        key = (subject, relation, obj)
        ids = self._memo.get(key) if isinstance(relation, (int, np.integer, type(None))) else None
        if ids is None:
            return self.store.query(subject=subject, object=obj, relation=relation,
                                    start_min=start_min, start_max=start_max)
        if start_min is None and start_max is None:
            return ids
        st = self.starts[ids]  # sorted by (start, id): a time range is a slice
        lo = 0 if start_min is None else int(np.searchsorted(st, start_min, "left"))
        hi = len(ids) if start_max is None else int(np.searchsorted(st, start_max, "right"))
        return ids[lo:hi]

    def teg(self, subject: int, obj: int, relation: int | Sequence[int] | None = None,
            start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Directed edges subject → object (optionally of ``relation``): paired-entity lookup."""
        return self._query(subject, relation, obj, start_min, start_max)

    def scci(self, subject: int, relation: int | Sequence[int],
             start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Subject Causal Cue Index: the (subject, relation) posting list in a time range."""
        return self._query(subject, relation, None, start_min, start_max)

    def occi(self, relation: int | Sequence[int], obj: int,
             start_min: int | None = None, start_max: int | None = None) -> np.ndarray:
        """Object Causal Cue Index: the (relation, object) posting list in a time range."""
        return self._query(None, relation, obj, start_min, start_max)
