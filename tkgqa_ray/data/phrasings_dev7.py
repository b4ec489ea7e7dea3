"""The ``dev7`` phrasing set: a development set for question understanding (issue #10),
written without reading ``tkgqa_ray/nlu``, the methods' parsers, the blind sets or the other
sets' templates / relation tables. Its focus is how people phrase **relations** and
**question wrappers**, across all six MultiTQ types, with most templates on **first_last**,
**equal_multi** and the **time answers** (``eq_time``, ``fl_time``, ``xr_time``) at day /
month / year level.

- Relations: this set's own CAMEO-exact news-reader paraphrases (``phrasings_dev7.yaml``:
  "wanted to negotiate with", "had talks with", "slammed", "rebuked", "gave aid to", "sent
  troops against", "cut ties with", "welcomed", "paid a visit to", "put sanctions on",
  "signed a deal with" …), negation-free, in past, base, past-participle and -ing forms.
- Wrappers the way people ask an assistant: "Could you tell me the exact month when …",
  "I'm curious which …", "Any idea who …", "Do you happen to know …", "Remind me …",
  "I need the date …", "Which was the first month in which …", "In what year did … for the
  last time", "… — in which month was that?", "Just the year, please."
- equal_multi: "the same day …", "on the very day that", "during the month when", "in the
  year …", the reference as its own sentence ("… Who did China visit that same month?"),
  "exactly N days after", "N days later" / "N days earlier".
- Time words follow the record's time level through the ``When`` word's forms
  (``{When.d}`` = date / month / year, ``{When.u}`` = day / month / year, ``{When.on}``,
  ``{When.wh}``, ``{When.In}``, ``{When.lc}``); rank words through ``fadj`` / ``fadv`` forms
  ("for the first time", "most recently", "before anyone else", "right after").

Actors use dev3's actor tables (``phrasings_dev3.actor_forms``, with ``{S.they}`` agreement).
Entity answers use generic heads only ("Who", "Whom", "Which actor", "What party"). Gold
comes from the oracle over KG names; the wording asks exactly what docs/data.md's question
semantics say. Not blind once measured.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data import phrasings, phrasings_dev3
from tkgqa_ray.data.lexicon import RelPhrase, relation_phrase
from tkgqa_ray.data.phrasings import Template
from tkgqa_ray.data.phrasings_dev3 import _W

_DATA_PATH = Path(__file__).with_name("phrasings_dev7.yaml")


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev7")


# ---------------------------------------------------------------------------- verb morphology

_IRR = {  # verb: (past, participle)
    "make": ("made", "made"), "meet": ("met", "met"), "fight": ("fought", "fought"),
    "give": ("gave", "given"), "hold": ("held", "held"), "send": ("sent", "sent"),
    "speak": ("spoke", "spoken"), "take": ("took", "taken"), "pay": ("paid", "paid"),
    "put": ("put", "put"), "lead": ("led", "led"), "have": ("had", "had"), "sit": ("sat", "sat"),
    "seal": ("sealed", "sealed"), "beat": ("beat", "beaten"), "set": ("set", "set"),
    "cut": ("cut", "cut"), "say": ("said", "said"), "strong-arm": ("strong-armed", "strong-armed"),
    "build": ("built", "built"), "drum": ("drummed", "drummed"), "side": ("sided", "sided"),
    "hand": ("handed", "handed"), "break": ("broke", "broken"), "file": ("filed", "filed"),
    "sue": ("sued", "sued"), "bring": ("brought", "brought"), "play": ("played", "played"),
    "signal": ("signaled", "signaled"), "level": ("leveled", "leveled"),
    "travel": ("traveled", "traveled"), "kidnap": ("kidnapped", "kidnapped"), "shell": ("shelled", "shelled"),
    "fire": ("fired", "fired"), "withhold": ("withheld", "withheld"), "stand": ("stood", "stood"),
    "keep": ("kept", "kept"), "seek": ("sought", "sought"), "cave": ("caved", "caved"),
    "let": ("let", "let"), "hide": ("hid", "hidden"), "go": ("went", "gone"),
}
_DOUBLE = {"slam", "slap", "ban", "stop", "rob", "drop", "plan", "expel", "sit", "put", "cut",
           "set", "drum", "strong-arm", "confer", "let"}
_ADVERBS = {"physically", "sexually", "violently", "formally", "publicly"}


def inflect(verb: str, kind: str) -> str:
    """One verb's ``past`` / ``part`` (past participle) / ``ing`` form."""
    if kind == "ing":
        if verb.endswith("ie"):
            return verb[:-2] + "ying"
        if verb in _DOUBLE and verb != "strong-arm":
            return verb + verb[-1] + "ing"
        if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
            return verb[:-1] + "ing"
        return verb + "ing"
    if verb in _IRR:
        return _IRR[verb][0 if kind == "past" else 1]
    if verb in _DOUBLE:
        return verb + verb[-1] + "ed"
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def conjugate(phrase: str, kind: str) -> str:
    """``"pay a visit to"`` -> ``"paid a visit to"`` (past), ``"paying a visit to"`` (ing);
    a leading adverb ("physically attack") is skipped."""
    words = phrase.split()
    i = 1 if len(words) > 1 and words[0] in _ADVERBS else 0
    words[i] = inflect(words[i], kind)
    return " ".join(words)


# ---------------------------------------------------------------------------- relations


@lru_cache(maxsize=1)
def relation_table() -> dict[str, list[str]]:
    """KG relation -> this set's base-form paraphrases (``phrasings_dev7.yaml``)."""
    with open(_DATA_PATH, encoding="utf-8") as f:
        return {str(k): [str(p) for p in v] for k, v in yaml.safe_load(f).items()}


def _phrase(base: str) -> RelPhrase:
    forms = {"ger": conjugate(base, "ing"), "part": conjugate(base, "part")}
    return RelPhrase(_W(base, **forms), _W(conjugate(base, "past"), **forms))


def relation_forms(relation: str) -> list[RelPhrase]:
    """Every way this set writes the KG relation (outside the table: the lexicon's phrase)."""
    bases = relation_table().get(relation)
    if bases is None:
        bases = [relation_phrase(relation).base]
    return [_phrase(b) for b in bases]


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    return pick(relation_forms(relation))


def entity_surface(display: str, pick: Callable[[Sequence[Any]], Any]) -> _W:
    return phrasings_dev3.entity_surface(display, pick)


# ---------------------------------------------------------------------------- words


def _when(text: str, *, d: str, u: str, on: str, wh: str) -> _W:
    return _W(text, d=d, u=u, on=on, wh=wh, In=on.capitalize(), lc=text[:1].lower() + text[1:])


def _rank(text: str, *, time: str, rec: str, ever: str, occ: str) -> _W:
    return _W(text, time=time, rec=rec, ever=ever, occ=occ)


def _same(text: str, g: str, *, dur: str) -> _W:
    inthe = {"day": "on the day", "month": "in the month", "year": "in the year"}[g]
    return _W(text, that=f"that same {g}", dur=dur, Dur=dur[:1].upper() + dur[1:], inthe=inthe, u=g)


WORDS: dict[str, tuple[Any, ...]] = {
    "before": (_W("before", imm="just before"), _W("prior to", imm="immediately prior to")),
    "after": (_W("after", imm="right after"), _W("following", imm="immediately following")),
    "before_clause": (_W("before", that="before that", That="Before that", rel="earlier"),
                      _W("prior to the time", that="before that", That="Before that", rel="earlier")),
    "after_clause": (_W("after", that="after that", That="After that", rel="later"),
                     _W("following the time", that="after that", That="After that", rel="later")),
    "fadj_asc": (_rank("first", time="for the first time", rec="first", ever="before anyone else", occ="first"),
                 _rank("earliest", time="for the first time", rec="first", ever="before anyone else", occ="first")),
    "fadj_desc": (_rank("last", time="for the last time", rec="most recently", ever="most recently of all",
                        occ="last"),
                  _rank("latest", time="for the last time", rec="most recently", ever="most recently of all",
                        occ="last")),
    "fadv_asc": (_rank("first", time="for the first time", rec="first", ever="before anyone else", occ="first"),),
    "fadv_desc": (_rank("last", time="for the last time", rec="most recently", ever="most recently of all",
                        occ="last"),),
    "same_day": (_same("on the same day that", "day", dur="on the day when"),
                 _same("on the very day that", "day", dur="on the day when"),
                 _same("the same day", "day", dur="on the day when")),
    "same_month": (_same("in the same month that", "month", dur="during the month when"),
                   _same("during the month when", "month", dur="in the month when"),
                   _same("the same month", "month", dur="during the month when")),
    "same_year": (_same("in the same year that", "year", dur="during the year when"),
                  _same("during the year when", "year", dur="in the year when"),
                  _same("the same year", "year", dur="during the year when")),
    "when_day": (_when("On which date", d="date", u="day", on="on", wh="which day"),
                 _when("On what day", d="date", u="day", on="on", wh="what date")),
    "when_month": (_when("In which month", d="month", u="month", on="in", wh="which month"),
                   _when("In what month", d="month", u="month", on="in", wh="what month")),
    "when_year": (_when("In which year", d="year", u="year", on="in", wh="which year"),
                  _when("In what year", d="year", u="year", on="in", wh="what year")),
}
TIME_STYLES = ("text", "text_dmy", "abbr", "ord")


# ---------------------------------------------------------------------------- templates

TEMPLATES: list[Template] = [
    # equal — explicit time, entity answers
    *_t("eq_obj_time",
        "{InT} — do you happen to know who {S} {rp}?",
        "{InT}, which actor did {S} {rb}?",
        "I'm curious: {inT}, which party did {S} {rb}?",
        "Remind me who {S} {rp} back {inT}."),
    *_t("eq_subj_time",
        "Any idea who {rp} {O} {inT}?",
        "Who was it that {rp} {O} {inT}?",
        "Could you tell me which actor {rp} {O} {inT}?",
        "{InT}, someone {rp} {O}. Who was it?"),
    # equal — time answers (every time of the triple, at the record's level)
    *_t("eq_time",
        "Could you list the {When.u}s {When.on} which {S} {rp} {O}?",
        "Do you happen to know {When.wh} {S} {rp} {O}?",
        "Remind me, {When.lc} did {S} {rb} {O}?",
        "I need the {When.d} {S} {rp} {O}.",
        "Any idea {When.on} which {When.u} {S} {rp} {O}?",
        "{S} {rp} {O} — {When.lc} was that?",
        "What {When.d} was it when {S} {rp} {O}?",
        "I'm curious: {When.lc} did {S} {rb} {O}?"),
    # before_after
    *_t("ba_subj_event",
        "Any idea who {rp} {O} {bwc} {A} did?",
        "{Bw} {A}, who else {rp} {O}?",
        "Do you happen to know which party {rp} {O} {bw} {A}?"),
    *_t("ba_obj_event",
        "I'm curious whom {S} {rp} {bw} {A}.",
        "Remind me which actor {S} {rp} {bwc} {S.they} {rp} {A}.",
        "{Bw} {A}, whom did {S} {rb}?"),
    *_t("ba_obj_time",
        "Could you tell me whom {S} {rp} {bw} {T}?",
        "{Bw} {T}, which actor did {S} {rb}?",
        "Any idea who {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw} {T}, do you know?",
        "{Bw} {T}, which actor {rp} {O}?",
        "I'm curious who {rp} {O} {bw} {T}."),
    # first_last — entity answers
    *_t("fl_subj",
        "Do you happen to know who {fadv.rec} {rp} {O}?",
        "Which actor was the {fadj} to {rb} {O}?",
        "Any idea who {rp} {O} {fadj.ever}?",
        "Remind me: which party {rp} {O} {fadj.ever}?",
        "Of everyone who {rp} {O}, who did it {fadj.occ}?",
        "I'm curious who was the {fadj} actor to {rb} {O}.",
        "Could you tell me who {fadv.rec} {rp} {O}?"),
    *_t("fl_obj",
        "Whom did {S} {fadv.rec} {rb}?",
        "Of all the parties {S} {rp}, which came {fadj.occ}?",
        "Remind me who {S} {fadv.rec} {rp}.",
        "I'm curious about the {fadj} actor {S} {rp} — who was it?",
        "Do you happen to know which actor {S} {fadv.rec} {rp}?",
        "Any idea who was the {fadj} party that {S} {rp}?"),
    # first_last — time answers
    *_t("fl_time",
        "Could you tell me the exact {When.d} when {S} {fadv.rec} {rp} {O}?",
        "Which was the {fadj} {When.u} {When.on} which {S} {rp} {O}?",
        "{When.In} what {When.d} did {S} {rb} {O} {fadj.time}?",
        "I need the {When.d} of the {fadv} time {S} {rp} {O}.",
        "Do you happen to know {When.wh} {S} {rp} {O} {fadj.time}?",
        "Any idea when {S} {fadv.rec} {rp} {O}? Just the {When.d}, please.",
        "Remind me {When.wh} saw {S} {rb.ger} {O} {fadj.time}.",
        "I'm curious: when was the {fadv} time {S} {rp} {O}? Give me the {When.d}.",
        "{S} {rp} {O} {fadj.time} {When.on} which {When.u}?",
        "When did {S} {fadv.rec} {rb} {O}? The {When.d} is enough."),
    # equal_multi — same day / month / year as a full reference event
    *_t("em_obj_event",
        "{S} {rp} whom {same} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. Who did {S} {rb} {same.that}?",
        "{S} {rp} someone {same} {AS} {arp} {AO}. Do you happen to know which actor?",
        "{same.Dur} {AS} {arp} {AO}, {S} {rp} someone. I'm curious who.",
        "Think of the {same.u} when {AS} {arp} {AO}: who did {S} {rb} then?",
        "{Same} {AS} {arp} {AO}, which party did {S} {rb}?"),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. Any idea who {rp} {O} {same.that}?",
        "Could you tell me which party {rp} {O} {same.dur} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, who {rp} {O}?",
        "I'm curious who {rp} {O} {same.inthe} {AS} {arp} {AO}.",
        "Remind me which actor {rp} {O} {same} {AS} {arp} {AO}."),
    # equal_multi — exactly N days after / before a reference event
    *_t("em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. {Nd} {bwc.rel}, whom did {S} {rb}?",
        "Do you happen to know which actor {S} {rp} exactly {Nd} {bwc} {AS} {arp} {AO}?",
        "Remind me who {S} {rp} {Nd} {bwc} {AS} {arp} {AO}.",
        "{Nd} {bwc} {AS} {arp} {AO}, which party did {S} {rb}?",
        "{AS} {arp} {AO}; {S} {rp} someone {Nd} {bwc.rel}. Any idea who?"),
    # after_first / before_last (direction and rank come from the qtype)
    *_t("xr_subj",
        "Do you happen to know who was the {fadj} to {rb} {O} {bwc} {A} did?",
        "Any idea who {rp} {O} {bw.imm} {A}?",
        "{Bw} {A}, which actor was the {fadj} one to {rb} {O}?"),
    *_t("xr_obj",
        "Whom did {S} {rb} {bw.imm} {A}?",
        "Remind me which actor {S} {fadv} {rp} {bwc} {S.they} {rp} {A}.",
        "{Bw} {A}, who was the {fadj} actor {S} {rp}?"),
    *_t("xr_time",
        "Could you tell me the {When.d} when {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. {bwc.That}, {When.lc} did {S} {fadv} {rb} {O}?",
        "{When.In} what {When.d} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "I'm curious {When.wh} {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}.",
        "{Bwc} {AS} {arp} {AO}, when did {S} {fadv} {rb} {O}? I need the {When.d}.",
        "Any idea {When.wh} {S} {rp} {O} {fadj.time} {bwc} {AS} {arp} {AO}?"),
]
