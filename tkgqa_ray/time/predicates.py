"""SCoP's five temporal predicates with day offsets, scalar and vectorised.

Candidate ``X = [lx, ux]``, reference ``A = [la, ua]`` (closed day ranges):

- before:  ``ux < la``            after:   ``lx > ua``
- inside:  ``lx >= la and ux <= ua``
- overlap: ``lx <= ua and ux >= la``
- equal:   coarsen both to ``granularity`` (month/year/day), then overlap.

An offset ``δ > 0`` ("three days after X") replaces the comparison by coverage of a target
date: after -> targets ``la+δ`` and ``ua+δ``; before -> ``la-δ`` and ``ua-δ``; the candidate
must cover (``lx <= t <= ux``) at least one target. Offsets only make sense with before/after
and raise otherwise. ``granularity`` is part of SCoP's schema for ``equal`` only; the other
operators ignore it (their reference span is already at the stated granularity).

Coarsening only the reference is exact: a contiguous X touches every unit between its ends,
so coarsen(X) meets coarsen(A) iff X touches a unit A touches, iff X meets coarsen(A). That
saves a calendar conversion per candidate (the tests check it against a day-set oracle).
"""

from __future__ import annotations

from typing import Literal, Sequence

import numpy as np

from .spans import Granularity, coarsen, coarsen_array

Op = Literal["before", "after", "equal", "inside", "overlap"]
OPS: tuple[str, ...] = ("before", "after", "equal", "inside", "overlap")


def _check(op: str, offset: int) -> None:
    if op not in OPS:
        raise ValueError(f"temporal operator must be one of {'|'.join(OPS)}, got {op!r}")
    if offset < 0:
        raise ValueError(f"offset must be >= 0 days (direction comes from the operator), got {offset}")
    if offset and op not in ("before", "after"):
        raise ValueError(f"an offset only applies to before/after, got op={op!r} offset={offset}")


def _targets(op: str, la: int, ua: int, offset: int) -> tuple[int, int]:
    return (la + offset, ua + offset) if op == "after" else (la - offset, ua - offset)


def satisfies(
    lx: int,
    ux: int,
    op: Op,
    la: int,
    ua: int,
    granularity: Granularity | None = None,
    offset: int = 0,
) -> bool:
    """Does candidate ``[lx, ux]`` stand in relation ``op`` to reference ``[la, ua]``?"""
    _check(op, offset)
    if offset:
        t1, t2 = _targets(op, la, ua, offset)
        return (lx <= t1 <= ux) or (lx <= t2 <= ux)
    if op == "before":
        return ux < la
    if op == "after":
        return lx > ua
    if op == "inside":
        return lx >= la and ux <= ua
    if op == "equal" and granularity not in (None, "day"):
        la, ua = coarsen(la, ua, granularity)  # X itself needs no coarsening (module doc)
    return lx <= ua and ux >= la  # overlap, and equal after coarsening


def admissible_mask(
    lx: np.ndarray,
    ux: np.ndarray,
    op: Op,
    la: int | np.ndarray,
    ua: int | np.ndarray,
    granularity: Granularity | None = None,
    offset: int = 0,
) -> np.ndarray:
    """Vectorised :func:`satisfies` over candidate columns; ``la``/``ua`` broadcast."""
    _check(op, offset)
    lx = np.asarray(lx, dtype=np.int64)
    ux = np.asarray(ux, dtype=np.int64)
    la = np.asarray(la, dtype=np.int64)
    ua = np.asarray(ua, dtype=np.int64)
    if offset:
        t1, t2 = _targets(op, la, ua, offset)
        return ((lx <= t1) & (t1 <= ux)) | ((lx <= t2) & (t2 <= ux))
    if op == "before":
        return ux < la
    if op == "after":
        return lx > ua
    if op == "inside":
        return (lx >= la) & (ux <= ua)
    if op == "equal" and granularity not in (None, "day"):
        la, ua = coarsen_array(la, ua, granularity)
    return (lx <= ua) & (ux >= la)


def admissible_any(
    lx: np.ndarray,
    ux: np.ndarray,
    op: Op,
    anchors: Sequence[tuple[int, int]],
    granularity: Granularity | None = None,
    offset: int = 0,
) -> np.ndarray:
    """Admissible w.r.t. *any* of several reference spans (an event reference that matched
    several anchor facts). No anchors -> nothing is admissible, as in SCoP."""
    _check(op, offset)
    mask = np.zeros(np.shape(lx), dtype=bool)
    for la, ua in anchors:
        mask |= admissible_mask(lx, ux, op, la, ua, granularity, offset)
    return mask
