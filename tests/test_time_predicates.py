"""SCoP predicates with offsets: hand-checked cases, a day-set oracle, scalar == vectorised."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from tkgqa_ray.time import admissible_any, admissible_mask, parse_time, satisfies

D = lambda s: date.fromisoformat(s).toordinal()  # noqa: E731


def S(x: str) -> tuple[int, int]:
    t = parse_time(x)
    return t.lo, t.hi


APRIL = S("2005-04")


@pytest.mark.parametrize(
    "x,op,ref,gran,offset,expect",
    [
        # before: ux < la
        ("2005-03-31", "before", "2005-04", None, 0, True),
        ("2005-04-01", "before", "2005-04", None, 0, False),
        ("2005-03-01..2005-04-01", "before", "2005-04", None, 0, False),
        ("2005-03", "before", "2005-04", None, 0, True),
        ("2004", "before", "2005-04-17", None, 0, True),
        ("2005", "before", "2005-04-17", None, 0, False),
        # after: lx > ua
        ("2005-05-01", "after", "2005-04", None, 0, True),
        ("2005-04-30", "after", "2005-04", None, 0, False),
        ("2006", "after", "2005", None, 0, True),
        ("2005-12-31", "after", "2005", None, 0, False),
        # inside
        ("2005-04-15", "inside", "2005-04", None, 0, True),
        ("2005-04", "inside", "2005-04", None, 0, True),
        ("2005-03-31..2005-04-02", "inside", "2005-04", None, 0, False),
        ("2005-04", "inside", "2005-04-15", None, 0, False),
        # overlap
        ("2005-03-31..2005-04-01", "overlap", "2005-04", None, 0, True),
        ("2005-04-30..2005-06-01", "overlap", "2005-04", None, 0, True),
        ("2005-05-01..2005-06-01", "overlap", "2005-04", None, 0, False),
        ("2005-04", "overlap", "2005-04-15", None, 0, True),
        # equal at a granularity: coarsen both, then overlap
        ("2005-04-02", "equal", "2005-04-17", "month", 0, True),
        ("2005-05-01", "equal", "2005-04-17", "month", 0, False),
        ("2005-03-31", "equal", "2005-04-17", "month", 0, False),
        ("2005-01-01", "equal", "2005-12-31", "year", 0, True),
        ("2006-01-01", "equal", "2005-12-31", "year", 0, False),
        ("2005-04-02", "equal", "2005-04-17", None, 0, False),
        ("2005-04-17", "equal", "2005-04-17", "day", 0, True),
        ("2005-04-02", "equal", "2005-04", None, 0, True),
        ("2008-02-29", "equal", "2008-02-01", "month", 0, True),
        ("2008-03-01", "equal", "2008-02-01", "month", 0, False),
        # offsets crossing month/year ends and leap days
        ("2005-02-02", "after", "2005-01-30", None, 3, True),
        ("2005-02-01", "after", "2005-01-30", None, 3, False),
        ("2005-02-03", "after", "2005-01-30", None, 3, False),
        ("2008-02-29", "after", "2008-02-27", None, 2, True),
        ("2009-03-01", "after", "2009-02-27", None, 2, True),
        ("2009-02-28", "after", "2009-02-27", None, 2, False),
        ("2008-02-29", "before", "2008-03-01", None, 1, True),
        ("2010-02-28", "before", "2010-03-01", None, 1, True),
        ("2009-12-29", "before", "2010-01-03", None, 5, True),
        ("2009-12-30", "before", "2010-01-03", None, 5, False),
        ("1900-03-01", "after", "1900-02-28", None, 1, True),
        ("2000-02-29", "after", "2000-02-28", None, 1, True),
        # offset from a month reference: targets la+δ and ua+δ
        ("2005-04-08", "after", "2005-04", None, 7, True),
        ("2005-05-07", "after", "2005-04", None, 7, True),
        ("2005-04-20", "after", "2005-04", None, 7, False),
        ("2005-05-01..2005-05-10", "after", "2005-04", None, 7, True),
        ("2005-03-25", "before", "2005-04", None, 7, True),
        ("2005-04-23", "before", "2005-04", None, 7, True),
        ("2005-03-24", "before", "2005-04", None, 7, False),
    ],
)
def test_hand_checked(x, op, ref, gran, offset, expect):
    lx, ux = S(x)
    la, ua = S(ref)
    assert satisfies(lx, ux, op, la, ua, gran, offset) is expect
    got = admissible_mask(np.array([lx]), np.array([ux]), op, la, ua, gran, offset)
    assert got.dtype == bool and got.tolist() == [expect]


def test_errors():
    with pytest.raises(ValueError, match="operator"):
        satisfies(1, 2, "during", 1, 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="offset must be >= 0"):
        satisfies(1, 2, "after", 1, 2, offset=-3)
    with pytest.raises(ValueError, match="before/after"):
        admissible_mask(np.array([1]), np.array([2]), "equal", 1, 2, "month", offset=3)
    with pytest.raises(ValueError, match="granularity"):
        satisfies(1, 2, "equal", 1, 2, granularity="week")  # type: ignore[arg-type]


def test_empty_results():
    empty = np.array([], dtype=np.int64)
    for op in ("before", "after", "equal", "inside", "overlap"):
        m = admissible_mask(empty, empty, op, *APRIL, granularity="month")
        assert m.shape == (0,) and m.dtype == bool
    lx = np.array([D("2005-04-10"), D("2005-04-20")])
    assert not admissible_mask(lx, lx, "before", *APRIL).any()
    assert not admissible_any(lx, lx, "overlap", []).any()  # no anchor time -> nothing admissible
    # any-of several anchors
    m = admissible_any(lx, lx, "after", [(D("2005-04-15"),) * 2, (D("2005-04-25"),) * 2])
    assert m.tolist() == [False, True]
    m = admissible_any(lx, lx, "before", [(D("2005-04-15"),) * 2, (D("2005-04-25"),) * 2])
    assert m.tolist() == [True, True]


def _unit(d: int, g):
    x = date.fromordinal(d)
    return {None: d, "day": d, "month": (x.year, x.month), "year": x.year}[g]


def _oracle(lx, ux, op, la, ua, g, off):
    """Day-set semantics, independent of the implementation's inequalities."""
    X, A = range(lx, ux + 1), range(la, ua + 1)
    if off:
        t = (la + off, ua + off) if op == "after" else (la - off, ua - off)
        return t[0] in X or t[1] in X
    if op == "before":
        return all(x < a for x in X for a in A)
    if op == "after":
        return all(x > a for x in X for a in A)
    if op == "inside":
        return set(X) <= set(A)
    if op == "overlap":
        return bool(set(X) & set(A))
    return bool({_unit(x, g) for x in X} & {_unit(a, g) for a in A})


def test_random_against_day_set_oracle_and_vectorised():
    rng = np.random.default_rng(7)
    base = D("2007-12-01")
    n = 400
    lx = base + rng.integers(0, 120, n)
    ux = lx + rng.integers(0, 40, n) * (rng.random(n) < 0.5)
    cases = [(op, g, 0) for op in ("before", "after", "inside", "overlap") for g in (None,)]
    cases += [("equal", g, 0) for g in (None, "day", "month", "year")]
    cases += [(op, None, off) for op in ("before", "after") for off in (1, 13, 31)]
    for la_off, width in [(30, 0), (45, 20), (60, 1), (10, 70)]:
        la, ua = base + la_off, base + la_off + width
        for op, g, off in cases:
            vec = admissible_mask(lx, ux, op, la, ua, g, off)
            for i in range(n):
                s = satisfies(int(lx[i]), int(ux[i]), op, la, ua, g, off)
                assert s == bool(vec[i]), (op, g, off, lx[i], ux[i], la, ua)
                if i < 120:  # the set oracle is O(len^2): check a slice
                    assert s == _oracle(int(lx[i]), int(ux[i]), op, la, ua, g, off), (op, g, off, i)


def test_broadcast_reference_arrays():
    lx = np.array([D("2005-04-10"), D("2005-06-10")])
    la = np.array([D("2005-04-01"), D("2005-07-01")])
    ua = la + 5
    assert admissible_mask(lx, lx, "before", la, ua).tolist() == [False, True]
