"""Deterministic question signals: temporal cue, explicit time, answer type and granularity.

TCC-RAG extracts the temporal cue by pattern rules over the question surface (the paper's
"small closed set of operator words"); the same rules give the answer type and the time level,
which the authors' code read from gold labels and we infer from the text instead. The
baselines and PoK reuse these rules so every method sees the question the same way.
"""

from __future__ import annotations

import calendar
import datetime as _dt
import re
from dataclasses import dataclass, field
from typing import Literal

Order = Literal["before", "after", "same", "in"]
Select = Literal["first", "last"]

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
_MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTH_ALT = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))

# Explicit times, most specific first; each match is masked before the next pattern runs.
_TIME_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("iso_day", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("mdy", re.compile(rf"\b({_MONTH_ALT})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)),
    ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_ALT})\.?,?\s+(\d{{4}})\b", re.I)),
    ("iso_month", re.compile(r"\b(\d{4})-(\d{1,2})\b")),
    ("my", re.compile(rf"\b({_MONTH_ALT})\.?,?\s+(?:of\s+)?(\d{{4}})\b", re.I)),
    ("year", re.compile(r"\b(1[5-9]\d{2}|20\d{2})\b")),
]

_TIME_Q = re.compile(
    r"^\s*(?:when\b|what\s+(?:time|year|month|day|date)\b|which\s+(?:year|month|day|date)\b|"
    r"(?:in|on|at|during)\s+(?:which|what)\s+(?:year|month|day|date|time)\b|"
    r"what\s+was\s+the\s+(?:date|year|month|day|time)\b|name\s+the\s+(?:year|month|day|date)\b)",
    re.I,
)
_TIME_Q_ANY = re.compile(r"\b(?:when|(?:which|what)\s+(?:year|month|date|day))\b", re.I)
_YEAR_Q = re.compile(r"\b(?:(?:which|what)\s+year|name\s+the\s+year)\b", re.I)
_MONTH_Q = re.compile(r"\b(?:(?:which|what)\s+month|name\s+the\s+month)\b", re.I)
_DAY_Q = re.compile(r"\b(?:which|what)\s+(?:day|date)\b", re.I)

_TIME_CLAUSE = r"(?:\s+the\s+time(?:\s+that|\s+when)?)?"
_BEFORE = re.compile(r"\b(?:before|prior\s+to|earlier\s+than|ahead\s+of)\b" + _TIME_CLAUSE, re.I)
_AFTER = re.compile(r"\b(?:after|following|later\s+than|subsequent\s+to)\b" + _TIME_CLAUSE, re.I)
_SAME = re.compile(
    r"\b(?:(?:in|on|during)\s+the\s+)?same\s+(day|month|year|date|time)\s+(?:as|that|when)?\b|"
    r"\bat\s+the\s+same\s+time\s+(?:as)?\b|"
    r"\b(?:in|on|during|within)\s+the\s+(?:very\s+|same\s+)?(day|month|year)\s+(?:in\s+which|on\s+which|that|when|as)\b",
    re.I,
)
_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10}
_OFFSET = re.compile(
    r"\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(day|week)s?\s+"
    r"(before|prior\s+to|earlier\s+than|after|following|later\s+than)\b(?:\s+the\s+time(?:\s+that|\s+when)?)?",
    re.I,
)
_FIRST = re.compile(r"\b(?:first|earliest|initially|for\s+the\s+first\s+time)\b", re.I)
_LAST = re.compile(r"\b(?:last|latest|most\s+recent(?:ly)?|final(?:ly)?|for\s+the\s+last\s+time)\b", re.I)
_IN = re.compile(r"\b(?:in|on|during|at|of|throughout)\s*$", re.I)


@dataclass(frozen=True)
class ExplicitTime:
    lo: int  # day ordinal
    hi: int
    granularity: str  # day | month | year
    start: int  # char span in the question
    end: int
    text: str


@dataclass(frozen=True)
class QuestionSignals:
    """What the rules read off a question; ``order``/``select`` compose (before + last)."""

    answer_type: Literal["entity", "time"]
    granularity: str  # granularity of a time answer (or of the explicit time for entity answers)
    order: Order | None
    select: Select | None
    explicit: ExplicitTime | None
    same_granularity: str | None = None  # "same month as" -> month
    offset_days: int = 0  # "3 days after X" -> +3 (order becomes "same" at day level)
    order_span: tuple[int, int] | None = None  # char span of the order cue words
    time_spans: list[tuple[int, int]] = field(default_factory=list)

    @property
    def cue(self) -> str:
        parts = [p for p in (self.order, self.select) if p]
        return "_".join(parts) if parts else "none"


def _span(y: int, m: int | None = None, d: int | None = None) -> tuple[int, int] | None:
    try:
        if m is None:
            return _dt.date(y, 1, 1).toordinal(), _dt.date(y, 12, 31).toordinal()
        if d is None:
            last = calendar.monthrange(y, m)[1]
            return _dt.date(y, m, 1).toordinal(), _dt.date(y, m, last).toordinal()
        o = _dt.date(y, m, d).toordinal()
        return o, o
    except ValueError:
        return None


def explicit_times(question: str) -> list[ExplicitTime]:
    """Every explicit date/month/year in the question, in order of appearance."""
    text = question
    found: list[ExplicitTime] = []
    for kind, pat in _TIME_PATTERNS:
        for m in pat.finditer(text):
            g = m.groups()
            if kind == "iso_day":
                sp, gran = _span(int(g[0]), int(g[1]), int(g[2])), "day"
            elif kind == "mdy":
                sp, gran = _span(int(g[2]), _MONTHS[g[0].lower()], int(g[1])), "day"
            elif kind == "dmy":
                sp, gran = _span(int(g[2]), _MONTHS[g[1].lower()], int(g[0])), "day"
            elif kind == "iso_month":
                sp, gran = _span(int(g[0]), int(g[1])), "month"
            elif kind == "my":
                sp, gran = _span(int(g[1]), _MONTHS[g[0].lower()]), "month"
            else:
                sp, gran = _span(int(g[0])), "year"
            if sp is None:
                continue
            found.append(ExplicitTime(sp[0], sp[1], gran, m.start(), m.end(), m.group(0)))
        # mask matched text so "2005" inside "2005-04-12" is not read again
        for t in found:
            text = text[: t.start] + " " * (t.end - t.start) + text[t.end :]
    return sorted(found, key=lambda t: t.start)


def answer_type_of(question: str) -> Literal["entity", "time"]:
    if _TIME_Q.search(question):
        return "time"
    # "Who ..." / "Which country ..." questions are entity questions even if "when" appears later.
    if re.match(r"^\s*(?:who|whom|whose|which|what)\b", question, re.I):
        return "time" if re.match(r"^\s*(?:which|what)\s+(?:year|month|day|date|time)\b", question, re.I) else "entity"
    # e.g. "Before X, when did Y ...?": a time wh-word after a leading clause
    if _TIME_Q_ANY.search(question) and not re.search(r"\b(?:who|whom|which\s+(?!year|month|day|date))", question, re.I):
        return "time"
    return "entity"


def time_granularity_of(question: str) -> str:
    """Granularity a time answer should be formatted at: asked unit, default day."""
    if _YEAR_Q.search(question):
        return "year"
    if _MONTH_Q.search(question):
        return "month"
    return "day"


def parse_signals(question: str) -> QuestionSignals:
    atype = answer_type_of(question)
    times = explicit_times(question)
    explicit = times[0] if times else None
    masked = question
    for t in times:
        masked = masked[: t.start] + " " * (t.end - t.start) + masked[t.end :]
    order: Order | None = None
    order_span = None
    same_gran = None
    m_off = _OFFSET.search(masked)
    m_same = _SAME.search(masked)
    m_before = _BEFORE.search(masked)
    m_after = _AFTER.search(masked)
    offset = 0
    if m_off:
        n = m_off.group(1).lower()
        days = (int(n) if n.isdigit() else _NUM[n]) * (7 if m_off.group(2).lower() == "week" else 1)
        before = m_off.group(3).lower().startswith(("before", "prior", "earlier"))
        offset = -days if before else days
        order, order_span, same_gran = "same", m_off.span(), "day"
    elif m_same:
        order, order_span = "same", m_same.span()
        unit = (m_same.group(1) or m_same.group(2) or "day").lower()
        same_gran = {"date": "day", "time": "day"}.get(unit, unit)
    elif m_before and (not m_after or m_before.start() < m_after.start()):
        order, order_span = "before", m_before.span()
    elif m_after:
        order, order_span = "after", m_after.span()
    elif explicit is not None:
        order = "in"
    select: Select | None = None
    m_first, m_last = _FIRST.search(masked), _LAST.search(masked)
    if m_first and (not m_last or m_first.start() < m_last.start()):
        select = "first"
    elif m_last:
        select = "last"
    if atype == "time":
        gran = time_granularity_of(question)
    else:
        gran = explicit.granularity if explicit else (same_gran or "day")
    return QuestionSignals(
        answer_type=atype,
        granularity=gran,
        order=order,
        select=select,
        explicit=explicit,
        same_granularity=same_gran,
        offset_days=offset,
        order_span=order_span,
        time_spans=[(t.start, t.end) for t in times],
    )
