"""Sorted posting lists (CSR) with the time order baked into the sort key.

One ``PostingIndex`` per keying ((s,r), (r,o), (s,o), s, o, r, all). Facts are sorted by
``(key, start, id)`` and the sort key ``key << 32 | start`` is kept as one int64 array, so a
time-range lookup for a key is two ``searchsorted`` calls on that array and a slice of the
fact-id array — no per-key dict, no per-list objects, O(log n) per query, zero copies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SHIFT = 32
_MAX_DAY = (1 << 31) - 1


@dataclass(frozen=True)
class PostingIndex:
    """CSR posting lists for one keying.

    ``comb[i] = key_i << 32 | start_i`` sorted ascending; ``ids[i]`` the fact id at that
    position (ties in (key, start) are in id order); ``keys``/``offsets`` give the CSR view
    (list of key k = ``ids[offsets[j]:offsets[j+1]]`` where ``keys[j] == k``).
    """

    name: str
    comb: np.ndarray  # int64, sorted
    ids: np.ndarray  # int64, fact ids aligned with comb
    keys: np.ndarray  # int64 distinct keys, sorted
    offsets: np.ndarray  # int64, len(keys) + 1

    @classmethod
    def build(cls, name: str, key: np.ndarray, start: np.ndarray, fact_ids: np.ndarray) -> "PostingIndex":
        """``key``/``start`` are per-fact columns (full table); ``fact_ids`` (ascending) selects
        the facts this index holds (all of them, or one shard's share)."""
        fid = np.asarray(fact_ids, dtype=np.int64)
        k = key[fid].astype(np.int64)
        st = start[fid].astype(np.int64)
        if len(fid):
            smin = int(st.min())
            kb, sb, ib = int(k.max()).bit_length(), int(st.max() - smin).bit_length(), int(fid.max()).bit_length()
        if len(fid) and kb + sb + ib <= 63:
            # (key, start, id) packed into one int64 → a plain (SIMD) sort of unique values,
            # ~10x cheaper than a stable argsort; fields are unpacked afterwards.
            packed = (k << (sb + ib)) | ((st - smin) << ib) | fid
            packed.sort()
            ids = packed & ((1 << ib) - 1)
            sk = packed >> (sb + ib)
            comb = (sk << SHIFT) | (((packed >> ib) & ((1 << sb) - 1)) + smin)
        else:
            comb = (k << SHIFT) | st
            order = np.argsort(comb, kind="stable")  # stable + ascending fact_ids → ties by id
            comb = comb[order]
            ids = fid[order]
            sk = k[order]
        if len(sk):
            first = np.flatnonzero(np.r_[True, sk[1:] != sk[:-1]])
            keys = sk[first]
            offsets = np.r_[first, len(sk)].astype(np.int64)
        else:
            keys = np.empty(0, np.int64)
            offsets = np.zeros(1, np.int64)
        for a in (comb, ids, keys, offsets):
            a.flags.writeable = False
        return cls(name, comb, ids, keys, offsets)

    @property
    def num_keys(self) -> int:
        return len(self.keys)

    def bounds(self, key: int, lo_day: int = 0, hi_day: int = _MAX_DAY) -> tuple[int, int]:
        """Positions [a, b) of the facts with this key and lo_day <= start <= hi_day."""
        base = key << SHIFT
        ss = self.comb.searchsorted
        return int(ss(base | lo_day, "left")), int(ss(base | hi_day, "right"))

    def list_of(self, key: int) -> np.ndarray:
        """The whole posting list of ``key`` (ids sorted by (start, id)); empty if absent."""
        a, b = self.bounds(key)
        return self.ids[a:b]

    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def nbytes(self) -> int:
        return self.comb.nbytes + self.ids.nbytes + self.keys.nbytes + self.offsets.nbytes
