"""The "blind4" phrasing set: a fourth BLIND set (issue #10). Parser authors must not read it.

**BLIND**: written so the coordinator can measure question understanding once, on wording
that nobody tuned a parser against. Authors of ``tkgqa_ray/nlu/``, of the methods and their
parsers must not read this module, ``phrasings_blind4.yaml`` or ``tests/test_data_blind4.py``,
nor questions generated with this set.

Covers every point variant of ``generator.VARIANTS`` (all six MultiTQ types), weighted to the
"Multiple" types: the after_first / before_last variants (``xr_*``, shared by both types) and
equal_multi have the most templates, then before_after. Reference events are written as
clauses, noun phrases ("the visit by Iran to Iraq", from the ``nouns`` table; "the time /
the day / the occasion when ..."), separate sentences, fronted or
trailing; rank words vary (first, earliest, next, last, latest, most recent, "came first").
Actors are written as journalists write them (``phrasings_blind4.yaml``: ``Police_(Kenya)`` ->
"the Kenyan police" / "Kenya's police"; sectors with country adjectives and possessives; a
few plain entities with "the" or a short form); relations as CAMEO-faithful everyday
paraphrases (the same file; relations it lacks fall back to ``lexicon.relation_phrase``).

Slot word conventions of this set (see ``WORDS``): ``{bw}`` ("before"/"prior to",
"after"/"following") is always followed by a noun phrase; ``{bwc}`` is used *only* in the
``xr_*`` templates, where *after* always comes with the earliest rank and *before* with the
latest, so it holds a rank adjective ("next" / "most recent"); ``{fadv}`` reads as an adverb
("first", "most recently"); ``{same}`` always ends in "as".

Written from English, the KG's entity and relation names and CAMEO meanings. Read for it:
``generator.py``, ``oracle_answers.py``, ``phrasings.py`` (the ``Template`` class, ``_t`` and the
shape of ``WORDS`` / ``TIME_STYLES``), ``lexicon.py``, ``tests/phrasing_checks.py``,
``tests/conftest.py``, docs/data.md (generator and "Question semantics"; of the other sets'
paragraphs their names, the ``surface_blind`` one read by mistake, and a few lines glimpsed
while placing this set's), the shared reference notes, the KG and issue #10. Not read: ``tkgqa_ray/nlu/``,
methods, retrieval, ``surface_actors.py``, ``surface_relations.py``, any other phrasing set or
its tests, any generated questions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data.lexicon import RelPhrase, relation_phrase
from tkgqa_ray.data.phrasings import Template, _t

_TABLES = yaml.safe_load(Path(__file__).with_name("phrasings_blind4.yaml").read_text(encoding="utf-8"))
COUNTRIES: dict[str, list[Any]] = _TABLES["countries"]
PLAIN: dict[str, list[str]] = _TABLES["plain"]
MILITARY_SKIP: frozenset[str] = frozenset(_TABLES["military_skip"])
SECTORS: dict[str, list[str]] = _TABLES["sectors"]
RELATIONS: dict[str, list[RelPhrase]] = {
    rel: [RelPhrase(str(b), str(p)) for b, p in forms] for rel, forms in _TABLES["relations"].items()
}

NOUNS: dict[str, tuple[str, str]] = {rel: (str(h), str(k)) for rel, (h, k) in _TABLES["nouns"].items()}

_SECTOR_RE = re.compile(r"^(?P<sector>.+) \((?P<parent>[^()]+)\)$")


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


@lru_cache(maxsize=None)
def entity_forms(display: str) -> tuple[str, ...]:
    """Every way this set writes the entity whose display name is ``display`` (KG name with
    spaces); the display name itself when the tables have nothing for it."""
    kg = display.replace(" ", "_")
    if kg in PLAIN:
        return tuple(PLAIN[kg])
    m = _SECTOR_RE.match(display)
    if not m:
        return (display,)
    sector, parent = m["sector"].replace(" ", "_"), m["parent"].replace(" ", "_")
    if sector not in SECTORS or parent not in COUNTRIES:
        return (display,)
    if sector == "Military" and parent in MILITARY_SKIP:
        return (display,)
    adj, name = COUNTRIES[parent]
    vals = {"N": name, "Ns": _possessive(name)}
    if adj:
        vals["adj"] = adj
        vals["a_adj"] = ("an " if adj[0] in "AEIO" else "a ") + adj
    forms = []
    for f in SECTORS[sector]:
        keys = set(re.findall(r"\{(\w+)\}", f))
        if keys <= set(vals):
            forms.append(f.format(**vals))
    return tuple(forms) or (display,)


def entity_surface(name: str, pick: Callable[[Sequence[Any]], Any]) -> str:
    return pick(entity_forms(name))


class _Past(str):
    """A past-tense phrase that also carries the event as a noun phrase for reference events:
    templates write ``{arp.nh} {AS} {arp.np} {AO}`` ("the visit by Iran to Iraq"); relations
    without a noun form read "the time Iran <past> Iraq"."""

    nh: str
    np: str


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    forms = RELATIONS.get(relation)
    p = pick(forms) if forms else relation_phrase(relation)
    past = _Past(p.past)
    past.nh, past.np = NOUNS.get(relation) or ("the time", p.past)
    return RelPhrase(p.base, past)


WORDS: dict[str, tuple[str, ...]] = {
    # always followed by a noun phrase (an entity, a date, "the day ...", "that")
    "before": ("before", "prior to"),
    "after": ("after", "following"),
    # xr_* templates only (after = earliest, before = latest there): a rank adjective
    "after_clause": ("next", "first", "earliest"),
    "before_clause": ("last", "latest", "most recent"),
    "fadj_asc": ("first", "earliest", "very first"),
    "fadj_desc": ("last", "latest", "most recent"),
    "fadv_asc": ("first",),
    "fadv_desc": ("last", "most recently"),
    "same_day": ("on the same day as", "on the very same day as"),
    "same_month": ("in the same month as", "during the same month as"),
    "same_year": ("in the same year as", "during the same year as"),
    "when_day": ("On which day", "On what date"),
    "when_month": ("In which month", "In what month"),
    "when_year": ("In which year", "In what year"),
    # interval kinds are not covered by this set; kept for the shape only
    "allen_before": ("before",),
    "allen_after": ("after",),
    "allen_during": ("while",),
    "allen_contains": ("over a period spanning the whole time that",),
    "allen_meets": ("until exactly when the period began in which",),
    "allen_met_by": ("from exactly when the period ended in which",),
}
TIME_STYLES = ("text", "text_dmy", "abbr", "ord")


def _b4(variant: str, *texts: str) -> list[Template]:
    return _t(variant, *texts, prefix="blind4")


TEMPLATES: list[Template] = [
    # ---- equal (Single)
    *_b4("eq_obj_time",
         "Whom did {S} {rb} {inT}?",
         "Could you tell me who {S} {rp} {inT}?",
         "{S} {rp} whom {inT}?",
         "I'm trying to find out which actors {S} {rp} {inT}.",
         "{InT}, which parties did {S} {rb}?"),
    *_b4("eq_subj_time",
         "{InT}, which actor {rp} {O}?",
         "Can you name who {rp} {O} {inT}?",
         "Do you know who {rp} {O} {inT}?",
         "Which party or person {rp} {O} {inT}?",
         "Tell me who it was that {rp} {O} {inT}."),
    *_b4("eq_time",
         "When did {S} {rb} {O}? Give me the {unit}.",
         "Could you tell me the {unit} when {S} {rp} {O}?",
         "{When} was it that {S} {rp} {O}?",
         "Do you happen to know {when_lc} {S} {rp} {O}?"),
    # ---- before_after (Single)
    *_b4("ba_subj_event",
         "{Bw} {A}, which actors {rp} {O}?",
         "Can you list everyone who {rp} {O} {bw} {A}?",
         "Which countries, groups or people {rp} {O} {bw} {A}?",
         "I'd like to know who {rp} {O} {bw} {A}.",
         "Who {rp} {O} {bw} the time {AS} {arp} {AO}?",
         "Name those who {rp} {O} {bw} {A}.",
         "Who {rp} {O} {bw} {arp.nh} {AS} {arp.np} {AO}?"),
    *_b4("ba_obj_event",
         "Whom did {S} {rb} {bw} {A}?",
         "{Bw} {A}, which actors did {S} {rb}?",
         "Could you list who {S} {rp} {bw} the day {AS} {arp} {AO}?",
         "Which people or groups did {S} {rb} {bw} {A}?",
         "Tell me whom {S} {rp} {bw} {A}.",
         "{S} {rp} {A} once. {Bw} that, whom did {S} {rb}?"),
    *_b4("ba_obj_time",
         "Whom did {S} {rb} {bw} {T}?",
         "{Bw} {T}, who did {S} {rb}?",
         "Can you tell me who {S} {rp} {bw} {T}?",
         "List the parties {S} {rp} {bw} {T}.",
         "{S} {rp} whom {bw} {T}?",
         "I need to know who {S} {rp} at any point {bw} {T}."),
    *_b4("ba_subj_time",
         "Which actors {rp} {O} {bw} {T}?",
         "{Bw} {T}, which parties {rp} {O}?",
         "Could you tell me who {rp} {O} {bw} {T}?",
         "Do you know which countries or groups {rp} {O} {bw} {T}?",
         "Who are the ones that {rp} {O} {bw} {T}?",
         "Give me everyone who {rp} {O} {bw} {T}."),
    # ---- first_last (Single)
    *_b4("fl_subj",
         "Who was the {fadj} to {rb} {O}?",
         "Which actor {fadv} {rp} {O}?",
         "Can you tell me who {rp} {O} {fadv}?",
         "Of all those who {rp} {O}, who did so {fadv}?",
         "Name the {fadj} actor that {rp} {O}."),
    *_b4("fl_obj",
         "Whom did {S} {fadv} {rb}?",
         "Which actor did {S} {rb} {fadv}?",
         "Could you tell me who {S} {rp} {fadv}?",
         "Of everyone {S} {rp}, who came {fadv}?",
         "Tell me the {fadj} actor that {S} {rp}."),
    *_b4("fl_time",
         "{When} did {S} {fadv} {rb} {O}?",
         "When was the {fadj} time {S} {rp} {O}? I need the {unit}.",
         "Could you tell me the {unit} when {S} {fadv} {rp} {O}?",
         "Do you know {when_lc} {S} {rp} {O} {fadv}?"),
    # ---- equal_multi (Multiple)
    *_b4("em_obj_event",
         "Whom did {S} {rb} {same} {AS} {arp} {AO}?",
         "{Same} {AS} {arp} {AO}, who did {S} {rb}?",
         "{AS} {arp} {AO}. {Same} that, whom did {S} {rb}?",
         "Which actors did {S} {rb} {same} the time {AS} {arp} {AO}?",
         "Could you tell me who {S} {rp} {same} {AS} {arp} {AO}?",
         "I'm curious who {S} {rp} {same} {AS} {arp} {AO}.",
         "{S} {rp} whom {same} {AS} {arp} {AO}?",
         "Thinking of the time {AS} {arp} {AO}, whom did {S} {rb} {same} that?",
         "Whom did {S} {rb} {same} {arp.nh} {AS} {arp.np} {AO}?"),
    *_b4("em_subj_event",
         "Who {rp} {O} {same} {AS} {arp} {AO}?",
         "{Same} {AS} {arp} {AO}, which actors {rp} {O}?",
         "{AS} {arp} {AO}. Who {rp} {O} {same} that?",
         "Can you tell me who {rp} {O} {same} {AS} {arp} {AO}?",
         "Which parties {rp} {O} {same} the time {AS} {arp} {AO}?",
         "Do you know who {rp} {O} {same} {AS} {arp} {AO}?",
         "Who was it that {rp} {O} {same} {AS} {arp} {AO}?",
         "I'd like to know which actors {rp} {O} {same} {AS} {arp} {AO}.",
         "{Same} {arp.nh} {AS} {arp.np} {AO}, who {rp} {O}?"),
    *_b4("em_obj_offset",
         "Whom did {S} {rb} exactly {Nd} {bw} the day {AS} {arp} {AO}?",
         "{AS} {arp} {AO}. {Nd} {bw} that, whom did {S} {rb}?",
         "Who did {S} {rb} {Nd} {bw} the date on which {AS} {arp} {AO}?",
         "Can you tell me whom {S} {rp} exactly {Nd} {bw} the day that {AS} {arp} {AO}?",
         "Exactly {Nd} {bw} the day {AS} {arp} {AO}, which actors did {S} {rb}?",
         "Take the day {AS} {arp} {AO}: whom did {S} {rb} {Nd} {bw} that day?",
         "{S} {rp} whom exactly {Nd} {bw} the day {AS} {arp} {AO}?",
         "I want to know who {S} {rp} {Nd} {bw} the day of the event in which {AS} {arp} {AO}.",
         "Whom did {S} {rb} {Nd} {bw} {arp.nh} {AS} {arp.np} {AO}?"),
    # ---- after_first / before_last (Multiple): the xr_* variants serve both types
    *_b4("xr_subj",
         "Who was the {fadj} to {rb} {O} {bw} {A}?",
         "{Bw} {A}, who {fadv} {rp} {O}?",
         "Who was the {bwc} one to {rb} {O} {bw} the time {AS} {arp} {AO}?",
         "{AS} {arp} {AO} at one point. Who was the {bwc} to {rb} {O} {bw} that?",
         "Among those who {rp} {O}, who came {fadv} {bw} {A}?",
         "Could you tell me which actor {fadv} {rp} {O} {bw} the occasion when {AS} {arp} {AO}?",
         "Looking only at the period {bw} the day {AS} {arp} {AO}, who was the {fadj} to {rb} {O}?",
         "I'm wondering who was the {fadj} to {rb} {O} {bw} {A}.",
         "Who {fadv} {rp} {O} {bw} {A}?",
         "Which actor was the {bwc} to {rb} {O}, {bw} the day {AS} {arp} {AO}?",
         "Who was the {fadj} to {rb} {O} {bw} {arp.nh} {AS} {arp.np} {AO}?"),
    *_b4("xr_obj",
         "Whom did {S} {fadv} {rb} {bw} {A}?",
         "{Bw} {A}, which actor did {S} {rb} {fadv}?",
         "Who was the {bwc} party {S} {rp} {bw} the time {AS} {arp} {AO}?",
         "{S} {arp} {A} on one occasion. Who was the {bwc} actor {S} {rp} {bw} that?",
         "Could you tell me whom {S} {rp} {fadv} {bw} {A}?",
         "Looking only at the period {bw} the day {AS} {arp} {AO}, who was the {fadj} actor that {S} {rp}?",
         "Who did {S} {rb} {fadv} {bw} the occasion when {AS} {arp} {AO}?",
         "Which was the {fadj} actor {S} {rp} {bw} {A}?",
         "Of all the actors {S} {rp} {bw} {A}, which came {fadv}?",
         "I'd like to know the {bwc} actor {S} {rp} {bw} {A}.",
         "{Bw} {arp.nh} {AS} {arp.np} {AO}, whom did {S} {fadv} {rb}?"),
    *_b4("xr_time",
         "{When} did {S} {fadv} {rb} {O} {bw} the day {AS} {arp} {AO}?",
         "{AS} {arp} {AO} at one point. When was the {bwc} time {S} {rp} {O} {bw} that? Give the {unit}.",
         "{Bw} the time {AS} {arp} {AO}, {when_lc} did {S} {fadv} {rb} {O}?",
         "Could you tell me the {unit} of the {bwc} time {S} {rp} {O} {bw} the occasion when {AS} {arp} {AO}?",
         "When, {bw} the day {AS} {arp} {AO}, did {S} {fadv} {rb} {O}? I need the {unit}.",
         "What was the {unit} when {S} {fadv} {rp} {O} {bw} the time {AS} {arp} {AO}?",
         "Looking only at the period {bw} the day {AS} {arp} {AO}, {when_lc} did {S} {rb} {O} {fadv}?",
         "Do you know {when_lc} {S} {fadv} {rp} {O} {bw} the event in which {AS} {arp} {AO}?",
         "Name the {unit} of the {fadj} occasion on which {S} {rp} {O} {bw} the day {AS} {arp} {AO}.",
         "{AS} {arp} {AO}. {Bw} that, {when_lc} did {S} {fadv} {rb} {O}?",
         "{When} did {S} {fadv} {rb} {O} {bw} {arp.nh} {AS} {arp.np} {AO}?"),
]
