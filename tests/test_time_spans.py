"""Time spans: parsing, formatting, coarsening — hand-checked calendar facts."""

from __future__ import annotations

from datetime import date

import numpy as np
import pyarrow as pa
import pytest

from tkgqa_ray.time import (
    MAX_DAY,
    MIN_DAY,
    TimeSpan,
    coarsen,
    coarsen_array,
    day,
    days_array,
    format_day,
    granularity_of,
    parse_time,
)

D = lambda s: date.fromisoformat(s).toordinal()  # noqa: E731  independent reference


def test_day_is_proleptic_ordinal():
    assert day("0001-01-01") == 1
    assert day("1970-01-01") == 719163
    assert day("2010-05-17") == D("2010-05-17")
    assert day("2008-02-29") - day("2008-02-28") == 1
    assert day("2008-03-01") - day("2008-02-29") == 1


@pytest.mark.parametrize("bad", ["2009-02-29", "1900-02-29", "2010-13-01", "2010-00-10", "2010-05", "2010",
                                 "2010/05/17", "2010-W01-1", "", "abcd-ef-gh"])
def test_day_rejects(bad):
    with pytest.raises(ValueError, match="bad day"):
        day(bad)


def test_day_leap_2000_ok():
    assert day("2000-02-29") == D("2000-02-29")


def test_parse_day_month_year():
    assert parse_time("2010-05-17") == TimeSpan(D("2010-05-17"), D("2010-05-17"), "day")
    assert parse_time("2010-05") == TimeSpan(D("2010-05-01"), D("2010-05-31"), "month")
    assert parse_time("2010") == TimeSpan(D("2010-01-01"), D("2010-12-31"), "year")
    assert parse_time(" 2010-04 ") == TimeSpan(D("2010-04-01"), D("2010-04-30"), "month")


@pytest.mark.parametrize(
    "s,days",
    [("2008-02", 29), ("1900-02", 28), ("2000-02", 29), ("2009-02", 28), ("2010-12", 31), ("2010-11", 30),
     ("2008", 366), ("1900", 365), ("2000", 366), ("2010", 365)],
)
def test_span_lengths_leap_years(s, days):
    t = parse_time(s)
    assert t.hi - t.lo + 1 == days


def test_parse_intervals_and_open_ends():
    t = parse_time("2010-05..2012")
    assert (t.lo, t.hi, t.granularity) == (D("2010-05-01"), D("2012-12-31"), "month")
    t = parse_time("1990-01-01..1995-06-30")
    assert (t.lo, t.hi, t.granularity) == (D("1990-01-01"), D("1995-06-30"), "day")
    t = parse_time("2010..")
    assert (t.lo, t.hi) == (D("2010-01-01"), MAX_DAY) and t.open_end and not t.open_start
    t = parse_time("..2010")
    assert (t.lo, t.hi) == (MIN_DAY, D("2010-12-31")) and t.open_start
    t = parse_time("2010-05-17..unknown")
    assert t.hi == MAX_DAY
    assert parse_time("2010-05-17T00:00:00") == parse_time("2010-05-17")
    # same-unit interval collapses to the unit's span
    assert parse_time("2010..2010") == parse_time("2010")


@pytest.mark.parametrize("bad", ["..", "2012..2010", "2010-02-30", "2010-13", "0000", "20100517",
                                 "May 2010", "2010..2011..2012", "2010-5"])
def test_parse_rejects(bad):
    with pytest.raises(ValueError, match="bad time"):
        parse_time(bad)


def test_format_roundtrip():
    for s in ["2010", "2010-05", "2010-05-17", "2008-02-29", "2010-05..2012-12", "2010..", "..2010-05-17",
              "1990-01-01..1995-06-30"]:
        assert parse_time(s).format() == s
        assert parse_time(parse_time(s).format()) == parse_time(s)
    # an interval formats both ends at its (finer) granularity; the span survives a round trip
    assert parse_time("2010-05..2012").format() == "2010-05..2012-12"
    assert format_day(D("2010-05-17"), "year") == "2010"
    assert format_day(D("2010-05-17"), "month") == "2010-05"
    assert format_day(D("2010-05-17")) == "2010-05-17"
    assert format_day(D("0999-03-04")) == "0999-03-04"
    with pytest.raises(ValueError, match="granularity"):
        format_day(1, "week")


def test_granularity_of():
    assert granularity_of("2010") == "year"
    assert granularity_of("2010-05") == "month"
    assert granularity_of("2010-05-17") == "day"
    assert granularity_of("Barack Obama") is None
    assert granularity_of("2010-13") is None
    assert granularity_of("1234 Main") is None


def test_coarsen_hand_checked():
    d = D("2008-02-14")
    assert coarsen(d, d, "month") == (D("2008-02-01"), D("2008-02-29"))
    assert coarsen(d, d, "year") == (D("2008-01-01"), D("2008-12-31"))
    assert coarsen(d, d, "day") == (d, d)
    assert coarsen(d, d, None) == (d, d)
    # across a month end: both months covered
    assert coarsen(D("1900-01-30"), D("1900-02-02"), "month") == (D("1900-01-01"), D("1900-02-28"))
    assert coarsen(D("2009-12-31"), D("2010-01-01"), "year") == (D("2009-01-01"), D("2010-12-31"))
    assert parse_time("2010-05-17").coarsen("month") == TimeSpan(D("2010-05-01"), D("2010-05-31"), "month")


def test_coarsen_array_matches_scalar_random():
    rng = np.random.default_rng(0)
    lo = rng.integers(D("1890-01-01"), D("2030-12-31"), 3000)
    hi = lo + rng.integers(0, 800, 3000)
    lo = np.concatenate([lo, [MIN_DAY, D("9999-12-31"), D("2000-02-29")]])
    hi = np.concatenate([hi, [MIN_DAY + 3, MAX_DAY, D("2000-02-29")]])
    for g in ("day", "month", "year"):
        clo, chi = coarsen_array(lo, hi, g)
        ref = np.array([coarsen(a, b, g) for a, b in zip(lo, hi)])
        assert np.array_equal(clo, ref[:, 0]) and np.array_equal(chi, ref[:, 1]), g


def test_days_array():
    vals = ["2005-01-01", "2008-02-29", "2015-12-31"]
    expect = np.array([D(v) for v in vals])
    assert np.array_equal(days_array(vals), expect)
    assert np.array_equal(days_array(pa.array(vals)), expect)
    with pytest.raises(ValueError, match="2009-02-29"):
        days_array(["2005-01-01", "2009-02-29"])
    with pytest.raises(ValueError, match="2010-05"):
        days_array(["2005-01-01", "2010-05"])


def test_timespan_validation():
    with pytest.raises(ValueError, match="empty"):
        TimeSpan(5, 4)
    with pytest.raises(ValueError, match="granularity"):
        TimeSpan(1, 2, "week")  # type: ignore[arg-type]
