"""Allen's 13 relations: hand-checked cases, converse symmetry, definitional oracle, numpy form."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tkgqa_ray.time import ALLEN_RELATIONS, AllenRelation, allen, allen_array, parse_time

R = AllenRelation


@pytest.mark.parametrize(
    "x,y,rel",
    [
        ((1, 3), (5, 9), R.BEFORE),
        ((5, 9), (1, 3), R.AFTER),
        ((1, 5), (5, 9), R.MEETS),
        ((5, 9), (1, 5), R.MET_BY),
        ((1, 6), (4, 9), R.OVERLAPS),
        ((4, 9), (1, 6), R.OVERLAPPED_BY),
        ((1, 4), (1, 9), R.STARTS),
        ((1, 9), (1, 4), R.STARTED_BY),
        ((3, 5), (1, 9), R.DURING),
        ((1, 9), (3, 5), R.CONTAINS),
        ((6, 9), (1, 9), R.FINISHES),
        ((1, 9), (6, 9), R.FINISHED_BY),
        ((1, 9), (1, 9), R.EQUAL),
        # degenerate (point) ranges under the instant convention
        ((5, 5), (5, 5), R.EQUAL),
        ((5, 5), (5, 9), R.STARTS),
        ((5, 5), (1, 5), R.FINISHES),
        ((5, 5), (1, 9), R.DURING),
        ((4, 4), (5, 5), R.BEFORE),
    ],
)
def test_hand_checked_instants(x, y, rel):
    assert allen(x, y) is rel
    assert allen(y, x) is rel.converse
    assert int(allen_array(np.array([x[0]]), np.array([x[1]]), y[0], y[1])[0]) == rel.code


@pytest.mark.parametrize(
    "x,y,rel",
    [
        ((1, 5), (6, 9), R.MEETS),  # consecutive days: no gap, no shared day
        ((1, 5), (5, 9), R.OVERLAPS),  # share day 5
        ((1, 4), (6, 9), R.BEFORE),
        ((5, 5), (5, 5), R.EQUAL),
        ((5, 5), (6, 6), R.MEETS),
        ((5, 5), (5, 9), R.STARTS),
    ],
)
def test_hand_checked_closed_days(x, y, rel):
    assert allen(x, y, closed_days=True) is rel
    assert allen(y, x, closed_days=True) is rel.converse


def test_years_from_strings():
    a, b = parse_time("1990..1994"), parse_time("1995..2000")
    assert allen(a, b) is R.BEFORE  # 1994-12-31 < 1995-01-01 as instants
    assert allen(a, b, closed_days=True) is R.MEETS  # consecutive days
    assert allen(parse_time("2008-02"), parse_time("2008")) is R.DURING
    assert allen(parse_time("2008-01"), parse_time("2008")) is R.STARTS
    assert allen(parse_time("2008-12"), parse_time("2008")) is R.FINISHES


def test_converses_are_involutions():
    assert len(ALLEN_RELATIONS) == 13
    for r in ALLEN_RELATIONS:
        assert r.converse.converse is r
    assert R.EQUAL.converse is R.EQUAL


def _definitional(a1, a2, b1, b2):
    """Allen's table for proper intervals (a1<a2, b1<b2): exactly one must hold."""
    return [r for r, ok in [
        (R.BEFORE, a2 < b1), (R.AFTER, b2 < a1), (R.MEETS, a2 == b1), (R.MET_BY, b2 == a1),
        (R.OVERLAPS, a1 < b1 < a2 < b2), (R.OVERLAPPED_BY, b1 < a1 < b2 < a2),
        (R.STARTS, a1 == b1 and a2 < b2), (R.STARTED_BY, a1 == b1 and b2 < a2),
        (R.DURING, b1 < a1 and a2 < b2), (R.CONTAINS, a1 < b1 and b2 < a2),
        (R.FINISHES, b1 < a1 and a2 == b2), (R.FINISHED_BY, a1 < b1 and a2 == b2),
        (R.EQUAL, a1 == b1 and a2 == b2),
    ] if ok]


def test_exhaustive_small_grid_against_definition():
    pts = range(6)
    spans = [(a, b) for a, b in itertools.product(pts, pts) if a <= b]
    seen = set()
    for x, y in itertools.product(spans, spans):
        r = allen(x, y)
        assert allen(y, x) is r.converse
        if x[0] < x[1] and y[0] < y[1]:
            d = _definitional(*x, *y)
            assert d == [r], (x, y, d, r)
            seen.add(r)
        # closed-days convention == instants on half-open [lo, hi+1)
        assert allen(x, y, closed_days=True) is allen((x[0], x[1] + 1), (y[0], y[1] + 1))
    assert seen == set(ALLEN_RELATIONS)


def test_vectorised_matches_scalar_random():
    rng = np.random.default_rng(3)
    n = 5000
    xlo = rng.integers(0, 30, n)
    xhi = xlo + rng.integers(0, 8, n)
    ylo = rng.integers(0, 30, n)
    yhi = ylo + rng.integers(0, 8, n)
    for closed in (False, True):
        codes = allen_array(xlo, xhi, ylo, yhi, closed_days=closed)
        assert codes.dtype == np.int8
        for i in range(n):
            assert ALLEN_RELATIONS[codes[i]] is allen((xlo[i], xhi[i]), (ylo[i], yhi[i]), closed_days=closed)


def test_bad_range():
    with pytest.raises(ValueError, match="empty range"):
        allen((5, 4), (1, 2))
