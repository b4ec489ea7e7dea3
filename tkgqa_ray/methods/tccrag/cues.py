"""TCC-RAG's temporal cue: ``nlu.question_signals`` completed by nlu's clause analysis.

The cue is read by deterministic patterns (the paper: "via deterministic pattern matching on
the query surface"). ``question_signals`` runs the cue grammar over the raw question; nlu's
clause analysis (``nlu.analyze``, cached per run context, the parse SCoP reads) runs the same
grammar over the question with its names blanked and adds the anaphor of a reference stated
before the question. Two kinds of cue are therefore only in the analysis:

* a same-unit cue whose event follows directly: "**On the very day** Iran had rejected Sudan,
  ...", "Who, **in the month** X offered ..., ...", "**once** an Austrian businessperson was
  sought out by X" (the grammar wants a blanked name after the cue words);
* the anaphor of a stated reference: "X condemned Y. **Subsequently**, who was the first to do
  the same?", "X asked Y. Who did Z propose talks with **on that same day**?", "X signed an
  accord with Y; **6 days earlier**, who ...", and the operator a date statement lends its
  time cue ("Take 7 August 2010 as the reference point: whom did X ask **earlier**?").

:func:`cue_signals` condenses the analysis' cues with ``question_signals``' own condensation
(``nlu.signals.order_fields``: an offset cue first, then a same-unit cue, then before/after,
then an explicit time) and takes that ordering cue when it differs from the signals'; the
ordinal (first/last), answer type and granularity stay the signals', except that a time
question only the blanked text reads as one asks a time (:func:`_asked_time`, tccrag22). Before (issue #10, ``tccrag3`` round) TCC-RAG read
``question_signals`` alone: such a question had no order cue, or its cue had no reference
clause, and its chain was unbounded (see docs/methods.md, TCC-RAG).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from tkgqa_ray.nlu.cache import context_analysis
from tkgqa_ray.nlu.signals import QuestionSignals, order_fields, question_signals


def cue_signals(question: str, ctx: Any = None) -> QuestionSignals:
    """The question's signals with the ordering cue of nlu's clause analysis when it differs
    from ``question_signals``' own (module doc); ``question_signals`` alone without a run
    context (no KG names to blank)."""
    sig = question_signals(question)
    if ctx is None or getattr(ctx, "table", None) is None:
        return sig
    a = context_analysis(question, ctx)
    sig = _asked_time(sig, a)
    cues = _cue_clauses(question, a.cues)
    own = order_fields(question, cues)
    if own["order"] is None or (own["order"], own["offset_days"], own["same_granularity"]) == (
            sig.order, sig.offset_days, sig.same_granularity):
        return sig
    return dataclasses.replace(sig, **own)


def _asked_time(sig: QuestionSignals, a) -> QuestionSignals:
    """The signals asking a time when nlu's clause analysis reads the question, its names
    blanked, as a time question and ``question_signals`` (the raw text) as an entity one:
    "I'm trying to find the last year in which the Australian police accused Australian
    citizens": a name's words between the wh-word and the clause hide the asked time noun from
    the raw reading, the blanked one reads it (as SCoP, which reads the analysis, answers a
    time there). Its unit is the analysis' too. One way only: a blanked name never makes an
    entity question of a time one (tccrag22)."""
    if sig.answer_type == "entity" and a.answer_type == "time":
        return dataclasses.replace(sig, answer_type="time", granularity=a.time_level)
    return sig


# "the months **when** X did Y": "when" right after the asked time noun is a relative adverb
# that opens the asked clause, not a cue of another event; the question's cue is elsewhere
# ("..., **in the year** Z did W")
_RELATIVE_WHEN_RE = re.compile(r"\b(?:days?|dates?|weeks?|months?|years?|times?)\s+$", re.I)


def _relative_when(question: str, c) -> bool:
    """``c`` is a bare "when" written right after a time noun ("the months when")."""
    return c.kind == "event" and c.text.lower() == "when" and bool(_RELATIVE_WHEN_RE.search(question[:c.start]))


def _unit_less_time(question: str, c, cues: list) -> bool:
    """``c`` is "(at) the time" written right before a before / after cue: "Looking at **the
    time preceding** X's denunciation of Y, ...": "time" names no unit of its own, it is the
    head the directed cue modifies (the period before X), so the question's cue is "preceding"."""
    if not (c.kind == "event" and c.op == "equal" and not c.offset and c.text.lower().split()[-1:] == ["time"]):
        return False
    return any(d.kind == "event" and d.op in ("before", "after") and d.start >= c.end
               and not question[c.end:d.start].strip() for d in cues)


def _cue_clauses(question: str, cues: list) -> list:
    """``cues`` less a unit-less "the time" before a directed cue (:func:`_unit_less_time`) and
    a relative "when" (:func:`_relative_when`) when another event cue is left:
    "Tell me the months when the GNP said it would cooperate with the DP, in the year the
    Democrats called for reform": the year clause is the reference, the "when" clause the main
    event. Before, the first cue ("when") won, and the main event became the reference."""
    cues = [c for c in cues if not _unit_less_time(question, c, cues)]
    rel = [c for c in cues if _relative_when(question, c)]
    if not rel or not any(c.kind == "event" and c not in rel for c in cues):
        return cues
    return [c for c in cues if c not in rel]


__all__ = ["cue_signals"]
