"""Question templates of the *train* phrasing set (the held-out set is ``phrasings_heldout``).

A template belongs to a *variant* (a logical shape, see ``generator.VARIANTS``) and renders
one :class:`~tkgqa_ray.data.oracle_answers.QSpec`. Slots:

- ``{S}``/``{O}``: target subject/object (display names); ``{A}``: the other entity of an
  elliptic anchor that repeats the target's relation ("before Iran" = before Iran did it);
  ``{AS}``/``{AO}``/``{arp}``: a full anchor event (subject, object, past-tense relation).
- ``{rb}``/``{rp}``: relation base / past phrase ("visit" / "visited").
- ``{inT}``/``{InT}``: "in May 2010"; ``{T}``: "May 2010"; ``{When}``: "In which month".
- ``{bw}``/``{Bw}``: before/after word; ``{fadj}``: first/last adjective; ``{fadv}``:
  first/last adverb; ``{same}``/``{Same}``: "in the same month as"; ``{Nd}``: a day count ("3 days"); ``{bwc}``/``{Bwc}``: before/after
  word that introduces a clause ("prior to the time");
  ``{k}``: an ordinal word ("second"); ``{allen}``: an Allen-relation phrase.

Word choices come from the set's ``WORDS`` table (one synonym drawn per question).
``time_styles`` lists the date renderings the set uses.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Template:
    id: str
    variant: str
    text: str


def _t(variant: str, *texts: str, prefix: str = "train") -> list[Template]:
    return [Template(f"{prefix}/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


WORDS: dict[str, tuple[str, ...]] = {
    "before_clause": ("before", "prior to the time"),
    "after_clause": ("after", "following the time"),
    "before": ("before", "prior to"),
    "after": ("after", "following"),
    "fadj_asc": ("first", "earliest"),
    "fadj_desc": ("last", "latest"),
    "fadv_asc": ("first",),
    "fadv_desc": ("last",),
    "same_day": ("on the same day as", "on the same day that"),
    "same_month": ("in the same month as", "in the same month that"),
    "same_year": ("in the same year as", "in the same year that"),
    "when_day": ("On which date", "On what day"),
    "when_month": ("In which month", "In what month"),
    "when_year": ("In which year", "In what year"),
    "allen_before": ("before",),
    "allen_after": ("after",),
    "allen_during": ("while", "during the time that"),
    "allen_contains": ("over a period spanning the whole time that",),
    "allen_meets": ("until exactly when the period began in which",),
    "allen_met_by": ("from exactly when the period ended in which",),
}
TIME_STYLES = ("text", "text_dmy")

TEMPLATES: list[Template] = [
    # equal — explicit time, entity answers
    *_t("eq_obj_time",
        "Who did {S} {rb} {inT}?",
        "{InT}, who did {S} {rb}?",
        "Which entity did {S} {rb} {inT}?"),
    *_t("eq_subj_time",
        "Who {rp} {O} {inT}?",
        "{InT}, who {rp} {O}?",
        "Which party {rp} {O} {inT}?"),
    # equal — time answers
    *_t("eq_time",
        "{When} did {S} {rb} {O}?",
        "{S} {rp} {O} {when_lc}?",
        "Name the {unit} in which {S} {rp} {O}."),
    # before_after
    *_t("ba_subj_event",
        "{Bw} {A}, who {rp} {O}?",
        "Who {rp} {O} {bw} {A} did?",
        "Who {rp} {O} {bw} {A}?"),
    *_t("ba_obj_event",
        "Who did {S} {rb} {bw} {A}?",
        "{Bw} {A}, who did {S} {rb}?",
        "Which entity did {S} {rb} {bw} {A}?"),
    *_t("ba_obj_time",
        "Who did {S} {rb} {bw} {T}?",
        "{Bw} {T}, who did {S} {rb}?"),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw} {T}?",
        "{Bw} {T}, who {rp} {O}?"),
    # first_last
    *_t("fl_subj",
        "Who was the {fadj} to {rb} {O}?",
        "Who {rp} {O} {fadv}?",
        "Which party was the {fadj} to {rb} {O}?"),
    *_t("fl_obj",
        "Who did {S} {rb} {fadv}?",
        "Who did {S} {fadv} {rb}?",
        "Which entity did {S} {fadv} {rb}?"),
    *_t("fl_time",
        "{When} did {S} {fadv} {rb} {O}?",
        "{When} was the {fadj} time that {S} {rp} {O}?"),
    # equal_multi
    *_t("em_obj_event",
        "Who did {S} {rb} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, who did {S} {rb}?",
        "Which entity did {S} {rb} {same} {AS} {arp} {AO}?"),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, who {rp} {O}?",
        "Which party {rp} {O} {same} {AS} {arp} {AO}?"),
    *_t("em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bwc} {AS} {arp} {AO}, who did {S} {rb}?"),
    # after_first / before_last (direction words come from the spec)
    *_t("xr_subj",
        "{Bw} {A}, who was the {fadj} to {rb} {O}?",
        "Who {rp} {O} {fadv} {bw} {A}?",
        "Who was the {fadj} to {rb} {O} {bw} {A}?"),
    *_t("xr_obj",
        "Who did {S} {rb} {fadv} {bw} {A}?",
        "{Bw} {A}, who did {S} {fadv} {rb}?"),
    *_t("xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{Bwc} {AS} {arp} {AO}, {when_lc} did {S} {fadv} {rb} {O}?"),
    # interval KGs
    *_t("iv_time",
        "{When} did {S} start to {rb} {O}?",
        "{When} did {S} first {rb} {O}?",
        "{S} started to {rb} {O} {when_lc}?",
        "Name the {unit} in which {S} began to {rb} {O}."),
    *_t("iv_in_time",
        "Who {rp} {O} {inT}?",
        "{InT}, who {rp} {O}?",
        "Which party {rp} {O} {inT}?",
        "Who was the one who {rp} {O} {inT}?"),
    *_t("iv_allen_subj",
        "Who {rp} {O} {allen} {AS} {arp} {AO}?",
        "{Allen} {AS} {arp} {AO}, who {rp} {O}?",
        "Which party {rp} {O} {allen} {AS} {arp} {AO}?",
        "Who is the one that {rp} {O} {allen} {AS} {arp} {AO}?"),
    *_t("iv_ordinal",
        "Who was the {k} to {rb} {O}?",
        "Which party was the {k} to {rb} {O}?",
        "Who {rp} {O} {k}?",
        "Who was the {k} one to {rb} {O}?"),
    *_t("iv_anchor_ordinal",
        "Who was the {k} to {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{Bwc} {AS} {arp} {AO}, who was the {k} to {rb} {O}?",
        "Which party was the {k} to {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{Bwc} {AS} {arp} {AO}, who {rp} {O} {k}?"),
]
