"""One question's temporal signals for the retrieval methods (TCC-RAG, PoK, the baselines).

TCC-RAG's temporal cue is "a small closed set of operator words" read by deterministic
patterns; PoK and the RAG baselines need the same reading (explicit time window, before /
after / same-unit, first / last). This module condenses :func:`parse_temporal_cues` (the
cue grammar SCoP's parser also uses) into one :class:`QuestionSignals` per question, and
takes answer type and time level from :func:`infer_answer_type` / :func:`infer_time_level`,
so every method reads a question the same way and no method reads gold labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from tkgqa_ray.time import parse_time

from .text import CUE_TIME_CLAUSE_RE
from .wrappers import strip_wrapper, wrapper_spans
from .temporal import Cue, find_dates, infer_answer_type, infer_time_level, parse_temporal_cues

Order = Literal["before", "after", "same", "in"]
Select = Literal["first", "last"]

# "after the time that X ...": the words that introduce an event clause belong to the cue,
# so the reference entity starts right after ``order_span`` (nlu.text.CUE_TIME_CLAUSE_RE).
_TIME_CLAUSE = CUE_TIME_CLAUSE_RE


@dataclass(frozen=True)
class ExplicitTime:
    """An explicit date, month, year or interval in the question (day ordinals)."""

    lo: int
    hi: int
    granularity: str  # day | month | year (an interval: the finer of its ends)
    start: int  # char span of the time expression in the question
    end: int
    text: str


@dataclass(frozen=True)
class QuestionSignals:
    """What the rules read off a question; ``order``/``select`` compose (before + last)."""

    answer_type: Literal["entity", "time"]
    granularity: str  # of a time answer, or of the explicit time / same-unit cue ("day" default)
    order: Order | None
    select: Select | None
    explicit: ExplicitTime | None
    same_granularity: str | None = None  # "same month as" -> month
    offset_days: int = 0  # "3 days after X" -> +3 (order becomes "same" at day level)
    order_span: tuple[int, int] | None = None  # char span of the order cue words
    time_spans: tuple[tuple[int, int], ...] = ()  # every explicit time
    wrapper_spans: tuple[tuple[int, int], ...] = ()  # "Could you tell me", "..., please?"

    @property
    def cue(self) -> str:
        parts = [p for p in (self.order, self.select) if p]
        return "_".join(parts) if parts else "none"


def explicit_times(question: str) -> list[ExplicitTime]:
    """Every explicit date/month/year in the question, in order of appearance."""
    out = []
    for a, b, iso, gran in find_dates(question):
        sp = parse_time(iso)
        out.append(ExplicitTime(sp.lo, sp.hi, gran, a, b, question[a:b]))
    return out


def _explicit_of(cue: Cue, question: str, times: list[ExplicitTime]) -> ExplicitTime:
    """The window of a time/interval cue; its char span covers only the date text(s)."""
    sp = parse_time(cue.time)  # "2005", "2005-04", "2005-04-12" or "A..B"
    inside = [t for t in times if cue.start <= t.start and t.end <= cue.end]
    a, b = (inside[0].start, inside[-1].end) if inside else (cue.start, cue.end)
    return ExplicitTime(sp.lo, sp.hi, cue.granularity or sp.granularity, a, b, question[a:b])


def _op_span(cue: Cue, question: str, explicit: ExplicitTime | None) -> tuple[int, int]:
    """The operator words of a cue: before the date for time cues, plus a following
    "the time that" for event cues."""
    if cue.kind == "time" and explicit is not None and explicit.start > cue.start:
        return cue.start, len(question[: explicit.start].rstrip())
    m = _TIME_CLAUSE.match(question, cue.end)
    return cue.start, (m.end() if m else cue.end)


def order_fields(question: str, cues: list[Cue], times: list[ExplicitTime] | None = None) -> dict:
    """The ordering fields of :class:`QuestionSignals` condensed from ``cues`` (read off
    ``question``): an offset cue first ("3 days after X" → same at day level, shifted), then
    a same-unit cue, then before / after, then an explicit time alone ("in"); ``order`` None
    when there is no cue. One condensation for every reading of the cues (TCC-RAG also runs
    it on nlu's clause analysis' cues: ``methods.tccrag.cues``). ``times``: the question's
    :func:`explicit_times`, when the caller has them."""
    times = explicit_times(question) if times is None else times
    timed = [c for c in cues if c.kind in ("time", "interval")]
    explicit = _explicit_of(timed[0], question, times) if timed else None
    order: Order | None = None
    order_span = None
    same_gran = None
    offset = 0
    offsets = [c for c in cues if c.kind in ("event", "time") and c.offset]
    sames = [c for c in cues if c.kind == "event" and c.op == "equal" and not c.offset]
    directed = [c for c in cues if c.kind in ("event", "time") and c.op in ("before", "after") and not c.offset]
    if offsets:
        c = offsets[0]
        own = _explicit_of(c, question, times) if c.kind == "time" else None
        if own is not None:
            explicit = own
        order, order_span, same_gran = "same", _op_span(c, question, own), "day"
        offset = -c.offset if c.op == "before" else c.offset
    elif sames:
        c = sames[0]
        order, order_span, same_gran = "same", _op_span(c, question, None), c.granularity or "day"
    elif directed:
        c = directed[0]
        own = _explicit_of(c, question, times) if c.kind == "time" else None
        if own is not None:
            explicit = own
        order, order_span = c.op, _op_span(c, question, own)  # type: ignore[assignment]
    elif explicit is not None:
        order = "in"
    return {"order": order, "order_span": order_span, "same_granularity": same_gran, "offset_days": offset,
            "explicit": explicit}


@lru_cache(maxsize=16384)
def question_signals(question: str) -> QuestionSignals:
    """Signals of one question (cached: stages of one method read them several times)."""
    cues = parse_temporal_cues(strip_wrapper(question))  # wrapper words are never cues
    times = explicit_times(question)
    ordinals = [c for c in cues if c.kind == "ordinal" and c.k == 1]
    select: Select | None = None
    if ordinals:
        select = "first" if ordinals[0].order == "asc" else "last"
    atype = "time" if infer_answer_type(question) == "time" else "entity"
    gran = infer_time_level(question, cues)
    return QuestionSignals(
        answer_type=atype,
        granularity=gran,
        select=select,
        **order_fields(question, cues, times),
        time_spans=tuple((t.start, t.end) for t in times),
        wrapper_spans=wrapper_spans(question),
    )


__all__ = ["ExplicitTime", "QuestionSignals", "explicit_times", "order_fields", "question_signals"]
