"""The KG's distinct (s, r, o) triples indexed by subject and by object (CSR), shared per table.

A leaf module: the alignment stage enumerates facts through it and the symbolic parser asks it
whether two names are linked, so neither imports the other."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np


class TripleIndex:
    """Distinct (s, r, o) triples of a table in CSR form by subject and by object."""

    _cache: dict[Any, "TripleIndex"] = {}
    _lock = threading.Lock()

    def __init__(self, table: Any) -> None:
        tr = np.asarray(table.triples)
        E = len(table.entities)
        self.triples = tr
        self.by_s = np.argsort(tr[:, 0], kind="stable").astype(np.int64)
        self.by_o = np.argsort(tr[:, 2], kind="stable").astype(np.int64)
        self.s_off = np.searchsorted(tr[self.by_s, 0], np.arange(E + 1))
        self.o_off = np.searchsorted(tr[self.by_o, 2], np.arange(E + 1))
        self.s = np.ascontiguousarray(tr[:, 0])
        self.r = np.ascontiguousarray(tr[:, 1])
        self.o = np.ascontiguousarray(tr[:, 2])
        self._rsim = threading.local()

    def rsim_buffer(self, n: int) -> np.ndarray:
        """A per-thread relation-similarity table filled with -inf (callers reset it)."""
        buf = getattr(self._rsim, "buf", None)
        if buf is None or len(buf) != n:
            buf = self._rsim.buf = np.full(n, -np.inf)
        return buf

    @classmethod
    def for_table(cls, table: Any) -> "TripleIndex":
        from tkgqa_ray.kg.table import table_cache_key

        key = table_cache_key(table)
        with cls._lock:
            idx = cls._cache.get(key)
            if idx is None:
                idx = cls._cache[key] = cls(table)
            return idx

    def with_subject(self, e: int) -> np.ndarray:
        return self.by_s[self.s_off[e] : self.s_off[e + 1]]

    def with_object(self, e: int) -> np.ndarray:
        return self.by_o[self.o_off[e] : self.o_off[e + 1]]

    def triples_of_entities(self, ents: list[int]) -> np.ndarray:
        parts = [self.with_subject(e) for e in ents] + [self.with_object(e) for e in ents]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)
