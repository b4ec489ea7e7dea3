"""Day ordinals, closed day ranges and calendar granularity.

Every time in the system is a closed range ``[lo, hi]`` of proleptic Gregorian day ordinals
(``datetime.date.toordinal()``): a day is ``[d, d]``, a month or a year is its whole calendar
span, an interval ``A..B`` runs from the first day of A to the last day of B. Ints compare and
vectorise cheaply, so the KG columns, the predicates and the Allen relations all work on them.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Iterable, Literal

import numpy as np

Granularity = Literal["day", "month", "year"]
GRANULARITIES: tuple[str, ...] = ("day", "month", "year")  # finest first

MIN_DAY: int = date.min.toordinal()  # 0001-01-01 == 1; stands for an open start
MAX_DAY: int = date.max.toordinal()  # 9999-12-31; stands for an open end
EPOCH_ORDINAL: int = date(1970, 1, 1).toordinal()  # numpy/arrow day 0

_WIDTH = {"year": 4, "month": 7, "day": 10}
_POINT_RE = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$")
_OPEN = {"", "?", "..", "none", "null", "unknown", "open"}


def _check_granularity(granularity: str) -> None:
    if granularity not in _WIDTH:
        raise ValueError(f"granularity must be one of day|month|year, got {granularity!r}")


@dataclass(frozen=True, slots=True, order=True)
class TimeSpan:
    """Closed day range ``[lo, hi]`` and the granularity it was stated at.

    ``granularity`` is the calendar unit of the source string ("2010" -> year); for an
    interval it is the finer unit of its two ends.
    """

    lo: int
    hi: int
    granularity: Granularity = "day"

    def __post_init__(self) -> None:
        _check_granularity(self.granularity)
        if self.lo > self.hi:
            raise ValueError(f"empty time span: lo={self.lo} > hi={self.hi}")

    @classmethod
    def of_day(cls, ordinal: int) -> "TimeSpan":
        return cls(ordinal, ordinal, "day")

    @property
    def open_start(self) -> bool:
        return self.lo == MIN_DAY

    @property
    def open_end(self) -> bool:
        return self.hi == MAX_DAY

    @property
    def is_calendar_unit(self) -> bool:
        """True when the span is exactly one day/month/year of its granularity."""
        return (
            coarsen(self.lo, self.lo, self.granularity) == (self.lo, self.hi)
            and not (self.open_start or self.open_end)
        )

    def contains(self, ordinal: int) -> bool:
        return self.lo <= ordinal <= self.hi

    def coarsen(self, granularity: Granularity) -> "TimeSpan":
        lo, hi = coarsen(self.lo, self.hi, granularity)
        return TimeSpan(lo, hi, granularity)

    def format(self) -> str:
        """Inverse of :func:`parse_time`: "2010", "2010-05", "2010-05-17" or "A..B"."""
        if self.is_calendar_unit:
            return format_day(self.lo, self.granularity)
        a = "" if self.open_start else format_day(self.lo, self.granularity)
        b = "" if self.open_end else format_day(self.hi, self.granularity)
        return f"{a}..{b}"

    def __str__(self) -> str:
        return self.format()

    def as_tuple(self) -> tuple[int, int]:
        return (self.lo, self.hi)


def calendar_span(text: str) -> tuple[int, int, Granularity]:
    """The one strict ISO parser: ``YYYY`` / ``YYYY-MM`` / ``YYYY-MM-DD`` → (first day, last
    day, granularity). Strict on purpose (zero padding, real calendar dates): ``2010-2-30`` is
    an error, never silently shifted. The ``ValueError`` says what is wrong; callers add the
    string and where it came from (:func:`parse_time`, :func:`parse_time_span`)."""
    m = _POINT_RE.match(text)
    if not m:
        raise ValueError("expected YYYY, YYYY-MM or YYYY-MM-DD")
    y, mo, d = m.groups()
    year = int(y)
    if year < 1:
        raise ValueError("year 0000 is outside the proleptic calendar")
    try:
        if d is not None:
            o = date(year, int(mo), int(d)).toordinal()
            return o, o, "day"
        if mo is not None:
            month = int(mo)
            last = calendar.monthrange(year, month)[1]  # raises on month 13
            return date(year, month, 1).toordinal(), date(year, month, last).toordinal(), "month"
    except (ValueError, calendar.IllegalMonthError) as e:
        raise ValueError(str(e)) from None
    return date(year, 1, 1).toordinal(), date(year, 12, 31).toordinal(), "year"


def parse_time_span(text: str) -> tuple[int, int]:
    """A KG time column value → inclusive (first day, last day) ordinals (no intervals, no
    clock suffix: a KG row holds one calendar unit per column). Raises ``ValueError``."""
    try:
        lo, hi, _ = calendar_span(text)
    except ValueError as e:
        raise ValueError(f"time {text!r}: {e}") from None
    return lo, hi


def _point(s: str, where: str) -> TimeSpan:
    if not _POINT_RE.match(s):
        raise ValueError(f"bad time {where!r}: expected YYYY, YYYY-MM, YYYY-MM-DD or A..B")
    try:
        lo, hi, gran = calendar_span(s)
    except ValueError as e:
        raise ValueError(f"bad time {where!r}: {e}") from None
    return TimeSpan(lo, hi, gran)


@lru_cache(maxsize=65536)
def parse_time(s: str) -> TimeSpan:
    """Parse ``YYYY``, ``YYYY-MM``, ``YYYY-MM-DD`` or an interval ``A..B`` into a span.

    Either end of an interval may be open (empty, ``?``, ``unknown``): ``2010..`` runs to
    :data:`MAX_DAY`, ``..2010`` from :data:`MIN_DAY`. A time-of-day suffix
    (``2010-05-17T00:00:00``, Wikidata style) is dropped. Raises ``ValueError`` naming the
    string for anything else, including impossible dates (``2009-02-29``).
    """
    if not isinstance(s, str):
        raise TypeError(f"parse_time expects str, got {type(s).__name__}")
    text = s.strip()
    if ".." in text:
        a, sep, b = text.partition("..")
        if ".." in b:
            raise ValueError(f"bad time {s!r}: more than one '..'")
        a, b = a.strip(), b.strip()
        a_open, b_open = a.lower() in _OPEN, b.lower() in _OPEN
        if a_open and b_open:
            raise ValueError(f"bad time {s!r}: both ends of the interval are open")
        sa = None if a_open else _point(_strip_clock(a), s)
        sb = None if b_open else _point(_strip_clock(b), s)
        lo = MIN_DAY if sa is None else sa.lo
        hi = MAX_DAY if sb is None else sb.hi
        grans = [x.granularity for x in (sa, sb) if x is not None]
        gran = min(grans, key=GRANULARITIES.index)
        if lo > hi:
            raise ValueError(f"bad time {s!r}: interval ends before it starts")
        return TimeSpan(lo, hi, gran)  # type: ignore[arg-type]
    return _point(_strip_clock(text), s)


def _strip_clock(s: str) -> str:
    t = s.find("T")
    return s[:t] if t == 10 else s


def day(s: str) -> int:
    """Ordinal of a full date ``YYYY-MM-DD`` (strict: coarser strings raise)."""
    if isinstance(s, str):
        try:
            lo, _, granularity = calendar_span(s)
        except ValueError:
            granularity = None
        if granularity == "day":
            return lo
    _bad_day(s)
    raise AssertionError  # unreachable


def _bad_day(s: object) -> None:
    raise ValueError(f"bad day {s!r}: expected YYYY-MM-DD")


def days_array(values: Iterable[str]) -> np.ndarray:
    """Vectorised :func:`day` for a column of ``YYYY-MM-DD`` strings (list, numpy or arrow).

    Uses Arrow's ISO date cast (C speed); raises ``ValueError`` naming the first bad value.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(list(values), pa.string())
    bad_len = pc.not_equal(pc.utf8_length(arr), 10)
    if pc.any(bad_len).as_py():
        idx = pc.index(bad_len, True).as_py()
        _bad_day(arr[idx].as_py())
    try:
        d = arr.cast(pa.date32())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        for v in arr.to_pylist():
            day(v)  # raises with the first bad value
        raise
    if d.null_count:
        idx = pc.index(pc.is_null(d), True).as_py()
        _bad_day(arr[idx].as_py())
    return np.asarray(d.cast(pa.int32()).to_numpy(zero_copy_only=False), dtype=np.int64) + EPOCH_ORDINAL


def format_day(ordinal: int, granularity: Granularity = "day") -> str:
    """"2010-05-17" / "2010-05" / "2010" for a day ordinal at the given granularity (the one
    formatter; the KG's ``iso_day`` is this at day granularity)."""
    _check_granularity(granularity)
    return date.fromordinal(int(ordinal)).isoformat()[: _WIDTH[granularity]]


def granularity_of(s: str) -> Granularity | None:
    """Granularity of a time string ("2010" -> year), or None when it is not a time."""
    text = s.strip()
    m = _POINT_RE.match(text)
    if not m:
        return None
    try:
        return parse_time(text).granularity
    except ValueError:
        return None


def coarsen(lo: int, hi: int, granularity: Granularity | None) -> tuple[int, int]:
    """Widen ``[lo, hi]`` to the enclosing calendar span(s): month/year of lo .. of hi."""
    if granularity is None or granularity == "day":
        return int(lo), int(hi)
    _check_granularity(granularity)
    a = date.fromordinal(int(lo))
    b = date.fromordinal(int(hi))
    if granularity == "month":
        return (
            date(a.year, a.month, 1).toordinal(),
            date(b.year, b.month, calendar.monthrange(b.year, b.month)[1]).toordinal(),
        )
    return date(a.year, 1, 1).toordinal(), date(b.year, 12, 31).toordinal()


def _to_d64(ordinals: np.ndarray) -> np.ndarray:
    return (np.asarray(ordinals, dtype=np.int64) - EPOCH_ORDINAL).astype("datetime64[D]")


def _from_d64(d: np.ndarray) -> np.ndarray:
    return d.astype("datetime64[D]").astype(np.int64) + EPOCH_ORDINAL


def coarsen_array(lo: np.ndarray, hi: np.ndarray, granularity: Granularity | None) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`coarsen` (numpy datetime64 is proleptic Gregorian too)."""
    lo = np.asarray(lo, dtype=np.int64)
    hi = np.asarray(hi, dtype=np.int64)
    if granularity is None or granularity == "day":
        return lo, hi
    _check_granularity(granularity)
    unit = "datetime64[M]" if granularity == "month" else "datetime64[Y]"
    lo_c = _from_d64(_to_d64(lo).astype(unit))
    hi_c = _from_d64(_to_d64(hi).astype(unit) + 1) - 1
    return lo_c, hi_c
