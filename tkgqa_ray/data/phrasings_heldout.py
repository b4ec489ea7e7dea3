"""Held-out question templates: phrasings the symbolic NLU was NOT written against.

Quality on these measures how far the deterministic question understanding generalises
beyond the wording it was developed on. Authors of ``tkgqa_ray/nlu`` must not read this file
(see docs/data.md). Same slots and variants as :mod:`tkgqa_ray.data.phrasings`.
"""

from __future__ import annotations

from tkgqa_ray.data.phrasings import Template


def _t(variant: str, *texts: str) -> list[Template]:
    return [Template(f"heldout/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


WORDS: dict[str, tuple[str, ...]] = {
    "before_clause": ("earlier than when",),
    "after_clause": ("later than when", "subsequent to the time"),
    "before": ("earlier than", "ahead of"),
    "after": ("later than", "subsequent to"),
    "fadj_asc": ("very first", "earliest"),
    "fadj_desc": ("final", "most recent"),
    "fadv_asc": ("for the first time",),
    "fadv_desc": ("for the last time",),
    "same_day": ("on the very day that",),
    "same_month": ("within the same month in which", "during the month in which"),
    "same_year": ("within the same year in which", "during the year in which"),
    "when_day": ("Which day", "What date"),
    "when_month": ("Which month", "What month"),
    "when_year": ("Which year", "What year"),
    "allen_before": ("earlier than the time",),
    "allen_after": ("later than the time",),
    "allen_during": ("at some point within the period in which",),
    "allen_contains": ("throughout a span covering the period in which",),
    "allen_meets": ("up to the day the period started in which",),
    "allen_met_by": ("from the day the period finished in which",),
}
TIME_STYLES = ("iso",)

TEMPLATES: list[Template] = [
    *_t("eq_obj_time",
        "{InT}, whom did {S} {rb}?",
        "Tell me who {S} {rp} {inT}."),
    *_t("eq_subj_time",
        "Who was it that {rp} {O} {inT}?"),
    *_t("eq_time",
        "{When} was it when {S} {rp} {O}?"),
    *_t("ba_subj_event",
        "Which parties {rp} {O} {bw} {A} did so?"),
    *_t("ba_obj_event",
        "{Bw} {A}, which parties did {S} {rb}?"),
    *_t("ba_obj_time",
        "Whom did {S} {rb} at any time {bw} {T}?"),
    *_t("ba_subj_time",
        "Which parties {rp} {O} at some point {bw} {T}?"),
    *_t("fl_subj",
        "Who {fadv} {rp} {O}?",
        "Among all parties, who was the {fadj} one that {rp} {O}?"),
    *_t("fl_obj",
        "Whom did {S} {rb} {fadv}?"),
    *_t("fl_time",
        "{When} did {S} {rb} {O} {fadv}?"),
    *_t("em_obj_event",
        "Whom did {S} {rb} {same} {AS} {arp} {AO}?"),
    *_t("em_subj_event",
        "Tell me who {rp} {O} {same} {AS} {arp} {AO}."),
    *_t("em_obj_offset",
        "Exactly {Nd} {bwc} {AS} {arp} {AO}, whom did {S} {rb}?"),
    *_t("xr_subj",
        "Who was the {fadj} party to {rb} {O} {bw} {A} did so?",
        "{Bw} {A}, which party {fadv} {rp} {O}?"),
    *_t("xr_obj",
        "Whom did {S} {rb} {fadv} {bw} {A}?"),
    *_t("xr_time",
        "{When} did {S} {rb} {O} {fadv} {bwc} {AS} {arp} {AO}?"),
    *_t("iv_time",
        "{When} marks the start of {S}'s time to {rb} {O}?"),
    *_t("iv_in_time",
        "Who was it that {rp} {O} {inT}?"),
    *_t("iv_allen_subj",
        "Tell me who {rp} {O} {allen} {AS} {arp} {AO}."),
    *_t("iv_ordinal",
        "Who came {k} among those who {rp} {O}?"),
    *_t("iv_anchor_ordinal",
        "Counting from when {AS} {arp} {AO}, who was the {k} to {rb} {O} {bw} that?"),
]
