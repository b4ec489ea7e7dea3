"""Allen's 13 interval relations between day ranges, scalar and vectorised.

Two conventions, because sources differ:

- ``closed_days=False`` (default, as TimelineKGQA / TimelineCronQ-R generate their gold):
  the ends are compared as instants, so ``[1990, 1995]`` *meets* ``[1995, 2000]``.
- ``closed_days=True``: a range is the set of its days, i.e. the half-open ``[lo, hi+1)``;
  ``[1, 5]`` meets ``[6, 9]`` and ``[1, 5]`` vs ``[5, 9]`` *overlaps* (they share day 5).

Degenerate ranges (a point fact, ``lo == hi``) under the instant convention are resolved by a
fixed precedence — equal, starts/started_by, finishes/finished_by, meets/met_by,
before/after, then during/contains/overlaps — which is symmetric, so
``allen(y, x) == allen(x, y).converse`` always holds and every pair gets exactly one relation.
"""

from __future__ import annotations

from enum import Enum
from typing import Sequence

import numpy as np

from .spans import TimeSpan


class AllenRelation(str, Enum):
    BEFORE = "before"
    AFTER = "after"
    MEETS = "meets"
    MET_BY = "met_by"
    OVERLAPS = "overlaps"
    OVERLAPPED_BY = "overlapped_by"
    STARTS = "starts"
    STARTED_BY = "started_by"
    DURING = "during"
    CONTAINS = "contains"
    FINISHES = "finishes"
    FINISHED_BY = "finished_by"
    EQUAL = "equal"

    @property
    def converse(self) -> "AllenRelation":
        return _CONVERSE[self]

    @property
    def code(self) -> int:
        return ALLEN_RELATIONS.index(self)


ALLEN_RELATIONS: tuple[AllenRelation, ...] = tuple(AllenRelation)
_PAIRS = [
    ("before", "after"),
    ("meets", "met_by"),
    ("overlaps", "overlapped_by"),
    ("starts", "started_by"),
    ("during", "contains"),
    ("finishes", "finished_by"),
    ("equal", "equal"),
]
_CONVERSE = {}
for _a, _b in _PAIRS:
    _CONVERSE[AllenRelation(_a)] = AllenRelation(_b)
    _CONVERSE[AllenRelation(_b)] = AllenRelation(_a)


def _ends(x: TimeSpan | Sequence[int]) -> tuple[int, int]:
    if isinstance(x, TimeSpan):
        return x.lo, x.hi
    lo, hi = x
    if lo > hi:
        raise ValueError(f"empty range {x!r}: lo > hi")
    return int(lo), int(hi)


def allen(x: TimeSpan | Sequence[int], y: TimeSpan | Sequence[int], closed_days: bool = False) -> AllenRelation:
    """The Allen relation R with ``x R y``."""
    a1, a2 = _ends(x)
    b1, b2 = _ends(y)
    if closed_days:
        a2 += 1
        b2 += 1
    R = AllenRelation
    if a1 == b1 and a2 == b2:
        return R.EQUAL
    if a1 == b1:
        return R.STARTS if a2 < b2 else R.STARTED_BY
    if a2 == b2:
        return R.FINISHES if a1 > b1 else R.FINISHED_BY
    if a2 == b1:
        return R.MEETS
    if a1 == b2:
        return R.MET_BY
    if a2 < b1:
        return R.BEFORE
    if a1 > b2:
        return R.AFTER
    if b1 < a1 and a2 < b2:
        return R.DURING
    if a1 < b1 and b2 < a2:
        return R.CONTAINS
    return R.OVERLAPS if a1 < b1 else R.OVERLAPPED_BY


def allen_array(
    xlo: np.ndarray, xhi: np.ndarray, ylo: np.ndarray | int, yhi: np.ndarray | int, closed_days: bool = False
) -> np.ndarray:
    """Vectorised :func:`allen`: int8 codes indexing :data:`ALLEN_RELATIONS` (broadcasts)."""
    a1 = np.asarray(xlo, dtype=np.int64)
    a2 = np.asarray(xhi, dtype=np.int64) + (1 if closed_days else 0)
    b1 = np.asarray(ylo, dtype=np.int64)
    b2 = np.asarray(yhi, dtype=np.int64) + (1 if closed_days else 0)
    R = AllenRelation
    # np.select takes the first true condition: same precedence as the scalar form.
    conds = [
        (a1 == b1) & (a2 == b2),
        (a1 == b1) & (a2 < b2),
        (a1 == b1),
        (a2 == b2) & (a1 > b1),
        (a2 == b2),
        a2 == b1,
        a1 == b2,
        a2 < b1,
        a1 > b2,
        (b1 < a1) & (a2 < b2),
        (a1 < b1) & (b2 < a2),
        a1 < b1,
    ]
    choices = [R.EQUAL, R.STARTS, R.STARTED_BY, R.FINISHES, R.FINISHED_BY, R.MEETS, R.MET_BY,
               R.BEFORE, R.AFTER, R.DURING, R.CONTAINS, R.OVERLAPS]
    codes = [np.int8(c.code) for c in choices]
    return np.select(conds, codes, default=np.int8(R.OVERLAPPED_BY.code)).astype(np.int8)
