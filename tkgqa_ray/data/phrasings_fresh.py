"""Blind held-out question templates ("fresh"): written after the symbolic question
understanding existed, by someone other than its author, without reading that code.

Scores on this set measure how far the deterministic question understanding generalises to
wordings nobody tuned it against. **Authors of ``tkgqa_ray/nlu`` and of the methods' symbolic
parsers (``tkgqa_ray/methods/*/symbolic.py``, ``tkgqa_ray/methods/tccrag/parsing.py``) must
not read this file** — once they do, the set is no longer blind (see docs/data.md).

Same slots and variants as :mod:`tkgqa_ray.data.phrasings`; sentence shapes, cue words and the
mix of date renderings differ from both the train and the held-out set.
"""

from __future__ import annotations

from tkgqa_ray.data.phrasings import Template


def _t(variant: str, *texts: str) -> list[Template]:
    return [Template(f"fresh/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


WORDS: dict[str, tuple[str, ...]] = {
    "before_clause": ("earlier than the moment", "in advance of the moment"),
    "after_clause": ("later than the moment", "past the moment"),
    "before": ("at an earlier date than", "preceding"),
    "after": ("at a later date than",),
    "fadj_asc": ("initial", "earliest recorded"),
    "fadj_desc": ("most recently recorded",),
    "fadv_asc": ("earliest of all", "at the earliest point in time"),
    "fadv_desc": ("most recently of all", "at the most recent point in time"),
    "same_day": ("on the date when", "on the calendar day when"),
    "same_month": ("in the month when", "in the calendar month when"),
    "same_year": ("in the year when", "in the calendar year when"),
    "when_day": ("On what calendar date", "On which exact day"),
    "when_month": ("During which month", "In the course of which month"),
    "when_year": ("During which year", "In the course of which year"),
    "allen_before": ("over a span that ended earlier than the first day of the span during which",),
    "allen_after": ("over a span that began later than the final day of the span during which",),
    "allen_during": ("over a span lying strictly inside the span during which",),
    "allen_contains": ("over a span that strictly enclosed the span during which",),
    "allen_meets": ("over a span whose last day was the first day of the span during which",),
    "allen_met_by": ("over a span whose first day was the last day of the span during which",),
}
TIME_STYLES = ("text_dmy", "iso")

TEMPLATES: list[Template] = [
    # equal
    *_t("eq_obj_time",
        "List everyone that {S} {rp} {inT}.",
        "Focusing on {T}, which actors did {S} {rb}?"),
    *_t("eq_subj_time",
        "Name every actor that {rp} {O} {inT}.",
        "Focusing on {T}, can you say who {rp} {O}?"),
    *_t("eq_time",
        "{S} {rp} {O}. {When} did this take place?",
        "Provide the {unit} when {S} {rp} {O}."),
    # before_after
    *_t("ba_subj_event",
        "Considering when {A} {rp} {O}, who {rp} {O} {bw} that?",
        "Name every actor that {rp} {O} {bw} {A}."),
    *_t("ba_obj_event",
        "Considering when {S} {rp} {A}, who else did {S} {rb} {bw} that?",
        "Name each one that {S} {rp} {bw} the occasion when {S} {rp} {A}."),
    *_t("ba_obj_time",
        "List everyone that {S} {rp} {bw} {T}.",
        "{Bw} {T}, which actors did {S} {rb}?"),
    *_t("ba_subj_time",
        "List every actor that {rp} {O} {bw} {T}.",
        "Can you say who {rp} {O} {bw} {T}?"),
    # first_last
    *_t("fl_subj",
        "Of all those who {rp} {O}, who did so {fadv}?",
        "Name the actor who {rp} {O} {fadv}."),
    *_t("fl_obj",
        "Among all the ones {S} {rp}, which did {S} {rb} {fadv}?",
        "Name the one that {S} {rp} {fadv}."),
    *_t("fl_time",
        "Looking at every time {S} {rp} {O}, {when_lc} was the {fadj} occasion?",
        "Provide the {unit} of the {fadj} occasion on which {S} {rp} {O}."),
    # equal_multi
    *_t("em_obj_event",
        "Name the ones {S} {rp} {same} {AS} {arp} {AO}.",
        "{Same} {AS} {arp} {AO}, which actors did {S} {rb}?"),
    *_t("em_subj_event",
        "Name every actor that {rp} {O} {same} {AS} {arp} {AO}.",
        "{Same} {AS} {arp} {AO}, can you say who {rp} {O}?"),
    *_t("em_obj_offset",
        "List everyone that {S} {rp} precisely {Nd} {bwc} {AS} {arp} {AO}.",
        "Which actors did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?"),
    # after_first / before_last (direction and rank words come from the spec)
    *_t("xr_subj",
        "Of those who {rp} {O} {bw} {A}, who did so {fadv}?",
        "Consider when {A} {rp} {O}. {Bw} that, who {rp} {O} {fadv}?"),
    *_t("xr_obj",
        "Of the ones {S} {rp} {bw} {A}, which did {S} {rb} {fadv}?",
        "Consider when {S} {rp} {A}. {Bw} that, who did {S} {rb} {fadv}?"),
    *_t("xr_time",
        "Consider when {AS} {arp} {AO}. {Bw} that, {when_lc} was the {fadj} occasion on which {S} {rp} {O}?",
        "Provide the {unit} of the {fadj} occasion on which {S} {rp} {O} {bwc} {AS} {arp} {AO}."),
    # interval KGs
    *_t("iv_time",
        "{When} did the earliest period in which {S} {rp} {O} commence?",
        "Give the starting {unit} of the earliest period in which {S} {rp} {O}."),
    *_t("iv_in_time",
        "Name every actor that {rp} {O} at some point {inT}.",
        "Focusing on {T}, can you say who {rp} {O}?"),
    *_t("iv_allen_subj",
        "Name every actor that {rp} {O} {allen} {AS} {arp} {AO}.",
        "Which actors {rp} {O} {allen} {AS} {arp} {AO}?"),
    *_t("iv_ordinal",
        "Ranking those who {rp} {O} by when they started, who comes {k}?",
        "Name the actor in {k} place by start date among those who {rp} {O}."),
    *_t("iv_anchor_ordinal",
        "Among those who began to {rb} {O} once the period in which {AS} {arp} {AO} was over, "
        "who was {k} to begin?",
        "Ranking by start date those who began to {rb} {O} only once the span during which "
        "{AS} {arp} {AO} had finished, who comes {k}?"),
]
