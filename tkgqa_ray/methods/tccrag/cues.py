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
ordinal (first/last), answer type and granularity stay the signals'. Before (issue #10, ``tccrag3`` round) TCC-RAG read
``question_signals`` alone: such a question had no order cue, or its cue had no reference
clause, and its chain was unbounded (see docs/methods.md, TCC-RAG).
"""

from __future__ import annotations

import dataclasses
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
    own = order_fields(question, context_analysis(question, ctx).cues)
    if own["order"] is None or (own["order"], own["offset_days"], own["same_granularity"]) == (
            sig.order, sig.offset_days, sig.same_granularity):
        return sig
    return dataclasses.replace(sig, **own)


__all__ = ["cue_signals"]
