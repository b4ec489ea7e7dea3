"""Brute-force gold oracle for generated questions.

A question is generated from a :class:`QSpec` (its logical form); this module derives the
gold answers by full scans of the fact columns with plain numpy, never through the posting
lists of ``tkgqa_ray.kg.store`` — so the same gold can check the store, the index and every
method. The semantics are the ones documented in ``docs/data.md`` ("Question semantics"):

1. *Anchor*: an event anchor is a complete triple. All its facts must share one time span
   (one day for point KGs; at the question's granularity for ``equal``); otherwise the
   question is ambiguous and rejected (status ``ambiguous_anchor``). An explicit time anchor
   is a calendar span (year/month/day).
2. *Candidates*: facts matching the target pattern (one ``None`` slot asks for an entity; a
   complete triple asks for a time).
3. *Filter* (SCoP predicates on candidate X=[lx,ux] and anchor A=[la,ua]): before ux < la;
   after lx > ua; equal: coarsen both to the granularity, then overlap; before/after with an
   offset δ: X must cover la−δ / ua+δ; allen: ``allen(X, A) == rel`` (instant convention).
4. *Rank*: asc/desc by start day, keep the facts on the k-th distinct start day.
5. *Answers*: the asked slot's display names, or the start days formatted at ``time_level``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from tkgqa_ray.time import allen, coarsen, coarsen_array, format_day

MAX_ANSWERS = 20
# MultiTQ's six question types and their labels (Single: one temporal constraint; Multiple:
# an event reference *and* an ordering or an equal-time relation to it)
QTYPES = ("equal", "before_after", "first_last", "equal_multi", "after_first", "before_last")
QLABEL = {"equal": "Single", "before_after": "Single", "first_last": "Single",
          "equal_multi": "Multiple", "after_first": "Multiple", "before_last": "Multiple"}

Status = Literal["ok", "no_anchor", "ambiguous_anchor", "empty", "too_many"]


@dataclass(frozen=True)
class QSpec:
    """Logical form of a generated question (ids are the table's entity/relation ids)."""

    qtype: str
    answer_type: Literal["entity", "time"]
    target: tuple[int | None, int, int | None]  # (s, r, o); None = asked entity slot
    anchor_event: tuple[int, int, int] | None = None  # complete anchor triple
    anchor_time: tuple[int, int] | None = None  # explicit [lo, hi] day span
    op: Literal["before", "after", "equal", "allen"] | None = None
    allen_rel: str | None = None  # AllenRelation value when op == "allen"
    granularity: Literal["day", "month", "year"] | None = None  # for op == "equal"
    offset: int = 0  # days, with op before/after
    rank: Literal["asc", "desc"] | None = None
    k: int = 1  # rank position (1 = first/last)
    time_level: Literal["day", "month", "year"] = "day"  # answer / question granularity

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "QSpec":
        d = dict(d)
        for key in ("target", "anchor_event", "anchor_time"):
            if d.get(key) is not None:
                d[key] = tuple(d[key])
        return cls(**d)


@dataclass
class OracleResult:
    status: Status
    answers: list[str] = field(default_factory=list)
    answer_facts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    anchor_facts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    anchor_span: tuple[int, int] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class Oracle:
    """Full-scan answerer over a table's columns (``s, r, o, start, end``, names)."""

    def __init__(self, table: Any, max_answers: int = MAX_ANSWERS) -> None:
        self.s = np.asarray(table.s)
        self.r = np.asarray(table.r)
        self.o = np.asarray(table.o)
        self.start = np.asarray(table.start, dtype=np.int64)
        self.end = np.asarray(table.end, dtype=np.int64)
        self.entities: list[str] = list(table.entities)
        self.max_answers = max_answers

    # -- scans -----------------------------------------------------------------------------

    def match(self, s: int | None, r: int | None, o: int | None) -> np.ndarray:
        """Ids of facts matching a pattern (None = any): one full scan of the most selective
        given column, then the other columns checked on the survivors. No index involved."""
        cols = [(c, v) for c, v in ((self.s, s), (self.o, o), (self.r, r)) if v is not None]
        if not cols:
            return np.arange(len(self.s))
        col, v = cols[0]
        ids = np.flatnonzero(col == v)
        for col, v in cols[1:]:
            ids = ids[col[ids] == v]
        return ids

    def anchor(self, spec: QSpec) -> tuple[Status, np.ndarray, tuple[int, int] | None]:
        if spec.anchor_time is not None:
            return "ok", np.zeros(0, np.int64), (int(spec.anchor_time[0]), int(spec.anchor_time[1]))
        if spec.anchor_event is None:
            return "ok", np.zeros(0, np.int64), None
        ids = self.match(*spec.anchor_event)
        if len(ids) == 0:
            return "no_anchor", ids, None
        g = spec.granularity if spec.op == "equal" else None
        lo, hi = coarsen_array(self.start[ids], self.end[ids], g)
        if np.any(lo != lo[0]) or np.any(hi != hi[0]):
            return "ambiguous_anchor", ids, None
        return "ok", ids, (int(lo[0]), int(hi[0]))

    def admissible(self, spec: QSpec, cand: np.ndarray, span: tuple[int, int] | None) -> np.ndarray:
        if spec.op is None or span is None:
            return cand
        la, ua = span
        lx, ux = self.start[cand], self.end[cand]
        if spec.op in ("before", "after") and spec.offset:
            # SCoP offsets: target days la±δ and ua±δ; X must cover one of them.
            sign = -1 if spec.op == "before" else 1
            t1, t2 = la + sign * spec.offset, ua + sign * spec.offset
            keep = ((lx <= t1) & (ux >= t1)) | ((lx <= t2) & (ux >= t2))
        elif spec.op == "before":
            keep = ux < la
        elif spec.op == "after":
            keep = lx > ua
        elif spec.op == "equal":
            cl, cu = coarsen_array(lx, ux, spec.granularity)
            al, au = coarsen(la, ua, spec.granularity)
            keep = (cl <= au) & (cu >= al)
        elif spec.op == "allen":
            keep = np.array(
                [allen((int(a), int(b)), (la, ua)).value == spec.allen_rel for a, b in zip(lx, ux)],
                dtype=bool,
            )
        else:
            raise ValueError(f"unknown op {spec.op!r}")
        return cand[keep]

    def ranked(self, spec: QSpec, ids: np.ndarray) -> np.ndarray:
        if spec.rank is None or len(ids) == 0:
            return ids
        days = np.unique(self.start[ids])  # ascending distinct start days
        if spec.k > len(days):
            return ids[:0]
        pick = days[spec.k - 1] if spec.rank == "asc" else days[-spec.k]
        return ids[self.start[ids] == pick]

    def answer(self, spec: QSpec) -> OracleResult:
        status, anchor_ids, span = self.anchor(spec)
        if status != "ok":
            return OracleResult(status, anchor_facts=anchor_ids)
        if spec.op is not None and span is None:
            return OracleResult("no_anchor")
        ts, tr, to = spec.target
        ids = self.admissible(spec, self.match(ts, tr, to), span)
        ids = self.ranked(spec, ids)
        if spec.answer_type == "entity":
            col = self.s if ts is None else self.o
            answers = sorted({self.entities[int(e)].replace("_", " ") for e in col[ids]})
        else:
            answers = sorted({format_day(int(d), spec.time_level) for d in self.start[ids]})
        if not answers:
            return OracleResult("empty", anchor_facts=anchor_ids, anchor_span=span)
        if len(answers) > self.max_answers:
            return OracleResult("too_many", answers, ids, anchor_ids, span)
        return OracleResult("ok", answers, ids, anchor_ids, span)


def oracle_answers(table: Any, spec: QSpec) -> list[str]:
    """Convenience: the gold answers of one spec (empty list when not answerable)."""
    res = Oracle(table).answer(spec)
    return res.answers if res.ok else []
