"""The ``dev5`` phrasing set: a fifth *development* set for question understanding (issue #10),
written without reading ``tkgqa_ray/nlu``, the methods' parsers or the blind sets. It targets
the two types that relate the asked event to a reference without an ordinal —
**before_after** (an event before / after a reference event or an explicit date) and
**equal_multi** (an event in the same day / month / year as a reference event, or exactly N
days before / after it) — in shapes none of dev/dev2/dev3 produced:

- a country's adjective as the reference event's determiner ("3 days after the Japanese
  condemnation of Iran", "in the month of the Iranian threat against Israel");
- the reference as a separate sentence with an anaphor ("Kenya visited Iran. Who did the same
  after that?", "… Who did China criticise that same month?", "… 3 days later, who …?");
- race / sequence verbs ("Who beat Kenya to visiting Iran?", "Who followed Kenya in
  visiting Iran?"); "who else"; "apart from"; "at a later date than Kenya's visit to Iran";
- "the month that saw Kenya's visit to Iran", "in the year of …", "on the day of …",
  "in the month Kenya visited Iran", "during the month in which …", "that very day";
- cue words "in advance of", "preceding", "previous to", "sooner than", "in the wake of",
  "once", "thereafter", "subsequently", "beforehand", "before the start of", "after the end
  of", "exactly N days prior to the day …";
- frames: in-situ wh ("Iran was visited by whom …?", "China criticised whom …?"), the
  reference in the middle ("Who, in the year China visited Japan, …?"), imperatives and
  declaratives ("Name …", "List …", "Identify …", "Tell me …", some without a question
  mark), yes/no-then-wh ("Did anyone … ? If so, who?"), clefts ("Which actor was it that …"),
  wh-determiners with generic heads only ("Which actor", "What party": a head noun such as
  "Which country" would be false for answer sets that mix kinds of entity);
- relations through this set's own CAMEO-exact paraphrases (``phrasings_dev5.yaml``:
  "slammed", "lashed out at", "called on", "urged", "probed", "inked an agreement with",
  "voiced willingness to meet or negotiate with", "phoned" …) with passive and noun forms.

Actors are written with the dev3 actor tables (``phrasings_dev3.actor_forms``: "the Kenyan
police", "Kenya's foreign ministry", "Peruvians", with was/were and pronoun agreement) plus
this set's own forms for 33 sectors dev3 leaves literal ("a Ghanaian scholar", "Israeli
settlers", "the ombudsman of Croatia", "a legislator in France", "Armenia's economy ministry").

What the generator's variants allow (``generator.VARIANTS``): before_after and equal_multi
ask for an *entity* (subject or object); their time dimension is the reference (explicit
day / month / year for before_after, day / month / year granularity or an N-day offset for
equal_multi). Time *answers* at every level exist only in equal / first_last /
after_first / before_last, which get a few templates each here ("… When was that?",
"Give me the month of China's first visit to Japan after …"). The generator capitalises
every question, so lower-case starts cannot be rendered.

Mechanics as in dev3: slot values are ``str`` subclasses with extra forms as attributes
(``{bw.np}``, ``{same.saw}``, ``{arb.nom}``, ``{A.pos}`` …); a template asking for a form
no value provides fails loudly. Gold comes from the oracle over KG names. Not blind.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data import phrasings, phrasings_dev3
from tkgqa_ray.data.lexicon import RelPhrase
from tkgqa_ray.data.phrasings import Template
from tkgqa_ray.data.phrasings_dev3 import _W

_DATA_PATH = Path(__file__).with_name("phrasings_dev5.yaml")


def _cue(s: str, **forms: str) -> _W:
    """A cue word with its forms, each also capitalised (``{bw.That}`` opens a sentence)."""
    forms.update({k[:1].upper() + k[1:]: v[:1].upper() + v[1:] for k, v in list(forms.items())})
    return _W(s, **forms)


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev5")


# ---------------------------------------------------------------------------- cue words
# A before/after cue is one row of forms, all of the same direction:
#   str   before a bare actor ("before Kenya" = before Kenya did it)
#   np    before an event noun phrase ("in advance of Kenya's visit to Iran")
#   cl    before a finite clause ("earlier than the day Kenya visited Iran")
#   t     before an explicit date ("before the start of March 2009")
#   that  an anaphoric adverbial ("before that", "thereafter"); every form also capitalised
#         (``That``) to open a sentence
#   race/race2  a sequence verb and its preposition ("beat Kenya to", "followed Kenya in")
#   date  "at <date> than …" ("an earlier date")
#   tc/tv a conjunction and a verb around a date ("before March 2009 began", "once 2009 was over")
WORDS: dict[str, tuple[str, ...]] = {
    "before": (
        _cue("before", np="before", cl="before", t="before", that="before that",
             race="beat", race2="to", tc="before", tv="began", date="an earlier date"),
        _cue("prior to", np="in advance of", cl="earlier than the day", t="prior to", that="beforehand",
             race="got ahead of", race2="in", tc="before", tv="started", date="an earlier point in time"),
        _cue("earlier than", np="preceding", cl="prior to the moment", t="earlier than", that="prior to that",
             race="beat", race2="to", tc="before", tv="got under way", date="an earlier time"),
        _cue("sooner than", np="prior to", cl="at some point before", t="previous to", that="earlier",
             race="preceded", race2="in", tc="before", tv="had begun", date="an earlier date"),
        _cue("ahead of", np="ahead of", cl="before the time", t="before the start of", that="earlier on",
             race="got ahead of", race2="in", tc="before", tv="began", date="an earlier point in time"),
    ),
    "after": (
        _cue("after", np="after", cl="after", t="after", that="after that",
             race="followed", race2="in", tc="after", tv="ended", date="a later date"),
        _cue("following", np="in the wake of", cl="later than the day", t="following", that="afterwards",
             race="came after", race2="in", tc="once", tv="was over", date="a later point in time"),
        _cue("later than", np="following", cl="subsequent to the moment", t="later than", that="subsequently",
             race="followed", race2="in", tc="after", tv="had ended", date="a later time"),
        _cue("subsequent to", np="subsequent to", cl="at some point after", t="subsequent to", that="later",
             race="came after", race2="in", tc="once", tv="came to an end", date="a later date"),
        _cue("after", np="after", cl="once", t="after the end of", that="thereafter",
             race="followed", race2="in", tc="after", tv="was over", date="a later point in time"),
    ),
    # before a finite clause after "N days"; .adv closes "N days <adv>"; .np before a noun phrase
    "before_clause": (
        _W("before", adv="earlier", np="before"),
        _W("prior to the day", adv="earlier", np="prior to"),
        _W("ahead of the day", adv="before that", np="ahead of"),
    ),
    "after_clause": (
        _W("after", adv="later", np="after"),
        _W("after the day", adv="afterwards", np="following"),
        _W("following the day", adv="after that", np="subsequent to"),
    ),
    # same period. str: before a clause or a noun phrase; cl: before a clause; inthe: before a
    # bare clause ("in the month Kenya visited Iran"); np: before an event noun phrase;
    # that: anaphoric ("that same month"); saw: "in the month that saw <event noun phrase>";
    # a: before a clause, indefinite ("in a month when Kenya visited Iran"); both: the period alone
    "same_day": (
        _W("on the same day as", cl="the same day that", inthe="on the day", np="on the day of",
           that="that very day", saw="on the day that saw", a="on a day when", both="on the same day"),
        _W("on the same date as", cl="on the very day that", inthe="on the same day",
           np="on the same date as", that="on that same day", saw="on the date that saw",
           a="on a day on which", both="that same day"),
        _W("the same day as", cl="on the day when", inthe="on the very day", np="the same day as",
           that="on the same day", saw="on the same day that saw", a="on a date when",
           both="on that very day"),
    ),
    "same_month": (
        _W("in the same month as", cl="in the same month that", inthe="in the month", np="in the month of",
           that="that same month", saw="in the month that saw", a="in a month when", both="in the same month"),
        _W("the same month as", cl="during the month in which", inthe="during the month",
           np="during the month of", that="in that very month", saw="during the month that saw",
           a="during a month in which", both="that same month"),
        _W("within the same calendar month as", cl="in the month when", inthe="in the same month",
           np="within the same calendar month as", that="during that same month",
           saw="in the same month that saw", a="in a month in which", both="within the same month"),
    ),
    "same_year": (
        _W("in the same year as", cl="in the same year that", inthe="in the year", np="in the year of",
           that="that same year", saw="in the year that saw", a="in a year when", both="in the same year"),
        _W("the same year as", cl="during the year in which", inthe="during the year",
           np="during the year of", that="in that very year", saw="during the year that saw",
           a="during a year in which", both="that same year"),
        _W("within the same calendar year as", cl="in the year when", inthe="in the same year",
           np="within the same calendar year as", that="during that same year",
           saw="in the same year that saw", a="in a year in which", both="within the same year"),
    ),
    "fadj_asc": ("first", "earliest"),
    "fadj_desc": ("last", "latest", "most recent"),
    "fadv_asc": (_W("first", time="for the first time"),),
    "fadv_desc": (_W("last", time="for the last time"),),
    "when_day": ("On what date", "What day", "On which date exactly", "When"),
    "when_month": ("In which month", "What month", "During what month", "In what month and year"),
    "when_year": ("In which year", "What year", "During which year"),
}
# lexicon.render_time styles: "May 17, 2010" (twice as often), "17 May 2010", "the 17th of May
# 2010" / "May of 2010" / "the year 2010", "Aug. 17, 2010" / "Aug. 2010", "2010-05-17" / "2010-05"
TIME_STYLES = ("text", "text_dmy", "text", "ord", "abbr", "iso")


# ---------------------------------------------------------------------------- templates
# ba_*_event: the reference repeats the asked relation and the shared entity ({A} = the other
# actor of the reference); ba_*_time: an explicit date {T} at the question's level;
# em_*: a reference event {AS} {arp} {AO} with another relation; {same} at the granularity.

TEMPLATES: list[Template] = [
    # ---------------------------------------------------------------- before_after, subject asked
    *_t("ba_subj_event",
        "{A} {arp} {O}. Who did the same {bw.that}?",
        "Who {bw.race} {A} {bw.race2} {arb.ger} {O}?",
        "{O} {O.be} {rp.pp} whom {bw} {A}?",
        "Consider {A.pos} {arb.nom} {O}: who else {rp} {O.it} {bw.that}?",
        "Looking only at events {bw.np} {A.pos} {arb.nom} {O}, who {rp} {O.it}?",
        "Did anyone {rb} {O} {bw.cl} {A} {arp} {O.it}? If so, who?",
        "Name every party that {rp} {O} {bw} {A}.",
        "which actor {rp} {O} at {bw.date} than {A}",
        "{rp.agent} which actor {O.be} {O} {rp.ppx} {bw.np} the {arb.nom} {O.it} by {A}?",
        "{A} {A.be}n't alone in {arb.ger} {O}; who did so {bw} {A.it}?",
        "Who, {bw.cl} {A} {arp} {O}, also {rp} {O.it}?",
        "Tell me who {rp} {O} {bw} {A} did.",
        "List the actors that {rp} {O} {bw.np} {A.pos} {arb.nom} {O.it}.",
        "Which other party {rp} {O}, and did so {bw} {A}?",
        "I'm trying to find out who {rp} {O} {bw.cl} {A} {arp} {O.it}.",
        "Of everyone who {rp} {O}, who did so {bw} {A}?",
        "We know that {A} {arp} {O}. Who {rp} {O.it} {bw.that}?",
        "Among those who {rp} {O}, which ones did so {bw.np} {A.pos} {arb.nom} {O.it}?",
        "Who else {rp} {O} {bw.np} {A.attr} {arb.nom} {O.it}?",
        "I wonder who {rp} {O} {bw} {A}."),
    # ---------------------------------------------------------------- before_after, object asked
    *_t("ba_obj_event",
        "{S} {rp} {A}. Whom did {S.they} {rb} {bw.that}?",
        "{S} {rp} whom {bw.cl} {S.they} {arp} {A}?",
        "Whom did {S} {rb} {bw.np} {S.its} {arb.nom} {A}?",
        "Apart from {A}, who did {S} {rb} {bw.np} {S.pos} {arb.nom} {A.it}?",
        "Looking at the time {bw.np} {S.pos} {arb.nom} {A}, who else did {S.they} {rb}?",
        "Did {S} {rb} anyone {bw.cl} {A} {A.be} {arp.pp} {S.it}? Who?",
        "Name the actors {S} {rp} {bw.np} {S.its} {arb.nom} {A}.",
        "Which party did {S} {rb} at {bw.date} than {S.its} {arb.nom} {A}?",
        "who was {rp.pp} {S} {bw} {A}",
        "Identify everyone that {S} {rp} {bw.cl} {S.they} {arp} {A}.",
        "{bw.np} {S.pos} {arb.nom} {A}, {S} {rp} which other actors?",
        "Which actors, other than {A}, were {rp.pp} {S} {bw.cl} {A} {A.be}?",
        "Could you list whom {S} {rp} {bw} {A}, please?",
        "Who, {bw.np} {S.pos} {arb.nom} {A}, did {S.they} {rb}?",
        "Of all the actors {S} {rp}, which ones came {bw} {A}?",
        "Whom did {S} {rb}, counting only the period {bw.np} {S.its} {arb.nom} {A}?",
        "Which actor did {S} {rb} {bw.np} {S.attr} {arb.nom} {A}?"),
    # ---------------------------------------------------------------- before_after, explicit date
    *_t("ba_obj_time",
        "Whom did {S} {rb} {bw.t} {T}?",
        "{S} {rp} whom {bw.t} {T}?",
        "Name the actors that {S} {rp} {bw.t} {T}.",
        "{bw.t} {T} — which party did {S} {rb}?",
        "Which actor was it that {S} {rp} {bw.t} {T}?",
        "Take {T} as the reference point: whom did {S} {rb} {bw.that}?",
        "Any idea who {S} {rp} at some point {bw.t} {T}?",
        "List everyone {S} {rp} {bw.t} {T}",
        "Who was {rp.pp} {S} {bw.t} {T}?",
        "Tell me which actors {S} {rp} {bw.t} {T}.",
        "Of all the actors {S} {rp}, which ones did {S.they} {rb} {bw.t} {T}?",
        "Whom did {S} {rb} — {bw.t} {T}, that is?",
        "Whom did {S} {rb} {bw.tc} {T} {bw.tv}?"),
    *_t("ba_subj_time",
        "{O} {O.be} {rp.pp} whom {bw.t} {T}?",
        "Which parties {rp} {O} at any point {bw.t} {T}?",
        "Tell me who {rp} {O} {bw.t} {T}.",
        "{bw.t} {T}, {rp.agent} which actor {O.be} {O} {rp.ppx}?",
        "Name all who {rp} {O} {bw.t} {T}",
        "Do you know who {rp} {O} {bw.t} {T}?",
        "With {T} as the cut-off, who {rp} {O} {bw.that}?",
        "Who was it that {rp} {O} {bw.t} {T}?",
        "Identify the actors who {rp} {O} {bw.t} {T}.",
        "What party {rp} {O} {bw.t} {T}?",
        "From among those who {rp} {O}, which did so {bw.t} {T}?",
        "Who {rp} {O}? Only {bw.t} {T}, please.",
        "{bw.Tc} {T} {bw.tv}, who {rp} {O}?",
        "Which actors, if any, {rp} {O} {bw.t} {T}?"),
    # ---------------------------------------------------------------- equal_multi, object asked
    *_t("em_obj_event",
        "{AS} {arp} {AO}. Who did {S} {rb} {same.that}?",
        "Whom did {S} {rb} {same.np} {AS.pos} {arb.nom} {AO}?",
        "{S} {rp} whom {same.cl} {AO} {AO.be} {arp.pp} {AS}?",
        "Which actors did {S} {rb} {same.saw} {AS.pos} {arb.nom} {AO}?",
        "Who, {same.inthe} {AS} {arp} {AO}, was {rp.pp} {S}?",
        "Name the actors {S} {rp} {same} {AS} {arp} {AO}.",
        "Tell me who {S} {rp} {same.cl} {AO} {AO.be} {arp.pp} {AS}",
        "{same.inthe} {AS} {arp} {AO}, {S} {rp} whom?",
        "Identify the party that {S} {rp} {same.saw} the {arb.nom} {AO} by {AS}.",
        "Was there anyone {S} {rp} {same.cl} {AS} {arp} {AO}? Who?",
        "What party did {S} {rb} {same} {AO} {AO.be} {arp.pp} {AS}?",
        "I'd like a list of whom {S} {rp} {same.np} the {arb.nom} {AO} by {AS}.",
        "{AO} {AO.be} {arp.pp} {AS}; who did {S} {rb} {same.that}?",
        "Could you tell me which actor was {rp.pp} {S} {same.inthe} {AS} {arp} {AO}?",
        "Which actor did {S} {rb} {same.a} {AS} {arp} {AO}?",
        "Whom, {same.cl} {AS} {arp} {AO}, did {S} {rb}?",
        "Who did {S} {rb} {same.np} {AS.attr} {arb.nom} {AO}?",
        "{S} {rp} someone {same.cl} {AS} {arp} {AO} — who?",
        "{AS} {arp} {AO}, and {same.both} {S} {rp} someone. Who?",
        "Find the actors {S} {rp} {same.np} {AS.pos} {arb.nom} {AO}."),
    # ---------------------------------------------------------------- equal_multi, subject asked
    *_t("em_subj_event",
        "{AS} {arp} {AO}. Who {rp} {O} {same.that}?",
        "Who {rp} {O} {same.np} {AS.pos} {arb.nom} {AO}?",
        "{O} {O.be} {rp.pp} whom {same.cl} {AS} {arp} {AO}?",
        "Which actor {rp} {O} {same.saw} the {arb.nom} {AO} by {AS}?",
        "Who, {same.inthe} {AS} {arp} {AO}, {rp} {O}?",
        "List the parties that {rp} {O} {same.cl} {AO} {AO.be} {arp.pp} {AS}.",
        "tell me who {rp} {O} {same} {AS.pos} {arb.nom} {AO}",
        "{same.cl} {AS} {arp} {AO}, {rp.agent} whom {O.be} {O} {rp.ppx}?",
        "Which party was it that {rp} {O} {same} {AS} {arp} {AO}?",
        "Do you happen to know who {rp} {O} {same.np} the {arb.nom} {AO} by {AS}?",
        "{same.inthe} {AO} {AO.be} {arp.pp} {AS}, who {rp} {O}?",
        "Is there anyone who {rp} {O} {same.saw} {AS.pos} {arb.nom} {AO}? Name them.",
        "{AO} {AO.be} {arp.pp} {AS}. {rp.Agent} whom {O.be} {O} {rp.ppx} {same.that}?",
        "Identify whoever {rp} {O} {same.cl} {AS} {arp} {AO}.",
        "{rp.agent} whom, {same.cl} {AS} {arp} {AO}, {O.be} {O} {rp.ppx}?",
        "Who {rp} {O} {same.a} {AS} {arp} {AO}?",
        "{same.saw} {AS.attr} {arb.nom} {AO}, who {rp} {O}?",
        "Someone {rp} {O} {same.cl} {AS} {arp} {AO}. Who was it?",
        "{AS} {arp} {AO}, and {same.both} someone {rp} {O}. Who?",
        "Give me everyone who {rp} {O} {same.a} {AS} {arp} {AO}."),
    # ---------------------------------------------------------------- equal_multi, N-day offset
    *_t("em_obj_offset",
        "{AS} {arp} {AO}. {Nd} {bwc.adv}, who did {S} {rb}?",
        "Whom did {S} {rb} exactly {Nd} {bwc.np} {AS.pos} {arb.nom} {AO}?",
        "{S} {rp} whom {Nd} {bwc} {AO} {AO.be} {arp.pp} {AS}?",
        "Name the actors {S} {rp} precisely {Nd} {bwc} {AS} {arp} {AO}.",
        "Which party did {S} {rb} on the day falling {Nd} {bwc.np} the {arb.nom} {AO} by {AS}?",
        "{AO} {AO.be} {arp.pp} {AS}; {Nd} {bwc.adv}, which actor was {rp.pp} {S}?",
        "Counting from the day {AS} {arp} {AO}, whom did {S} {rb} {Nd} {bwc.adv}?",
        "Who was {rp.pp} {S} {Nd} {bwc.np} the day on which {AO} {AO.be} {arp.pp} {AS}?",
        "{Nd} {bwc.np} {AS.attr} {arb.nom} {AO}, whom did {S} {rb}?",
        "{S} {rp} someone {Nd} {bwc} {AS} {arp} {AO}. Who?"),
    # ---------------------------------------------------------------- other types (a few each)
    *_t("eq_obj_time",
        "{S} {rp} whom {inT}?",
        "List the actors {S} {rp} {inT}."),
    *_t("eq_subj_time",
        "{inT}, {rp.agent} which actor {O.be} {O} {rp.ppx}?",
        "Which parties {rp} {O} {inT}?"),
    *_t("eq_time",
        "{S} {rp} {O}. {When} was that?",
        "Give me the {unit} of {S.pos} {rb.nom} {O}."),
    *_t("fl_subj",
        "{O} {O.be} {rp.pp} whom {fadv.time}?",
        "Which actor was the {fadj} to {rb} {O}?"),
    *_t("fl_obj",
        "Whom did {S} {rb} {fadv.time}?",
        "Name the {fadj} actor {S} {rp}."),
    *_t("fl_time",
        "{When} did {S} {rb} {O} {fadv.time}?",
        "Give the {unit} of {S.pos} {fadj} {rb.nom} {O}."),
    *_t("xr_subj",
        "{A} {arp} {O}. {bw.That}, who was the {fadj} to do the same?",
        "Who was the {fadj} actor to {rb} {O} {bw.np} {A.pos} {arb.nom} {O.it}?"),
    *_t("xr_obj",
        "{S} {rp} {A}. {bw.That}, whom did {S.they} {fadv} {rb}?",
        "Name the {fadj} actor {S} {rp} {bw.np} {S.its} {arb.nom} {A}."),
    *_t("xr_time",
        "{AS} {arp} {AO}. {bw.That}, {when_lc} did {S} {fadv} {rb} {O}?",
        "Give the {unit} of {S.pos} {fadj} {rb.nom} {O} {bw.np} {AS.pos} {arb.nom} {AO}."),
]


# ---------------------------------------------------------------------------- relations

# verbs of this set's table that dev3's morphology does not inflect right
_IRREG = {"slam": ("slammed", "slammed", "slamming"), "commit": ("committed", "committed", "committing"),
          "go": ("went", "gone", "going")}


def conjugate(phrase: str, kind: str) -> str:
    """``past`` / ``part`` / ``ing`` of a verb phrase (dev3's rules plus ``_IRREG``)."""
    words = phrase.split()
    i = phrasings_dev3._verb_index(words)
    if words[i] in _IRREG:
        words[i] = _IRREG[words[i]][("past", "part", "ing").index(kind)]
        return " ".join(words)
    return phrasings_dev3.conjugate(phrase, kind)


def _forms(base: str, passive: str, noun: str) -> dict[str, str]:
    ppx, _, agent = passive.rpartition(" ")
    return {"ger": conjugate(base, "ing"), "nom": noun,
            "pp": passive, "ppx": ppx, "agent": agent, "Agent": agent.capitalize()}


@lru_cache(maxsize=1)
def relation_table() -> dict[str, list[tuple[str, str, dict[str, str]]]]:
    """This set's relation paraphrases (``phrasings_dev5.yaml``), parsed once."""
    with open(_DATA_PATH, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    out: dict[str, list[tuple[str, str, dict[str, str]]]] = {}
    for rel, v in data["relations"].items():
        out[rel] = [(base, conjugate(base, "past"),
                     _forms(base, v["passive"][i % len(v["passive"])], v["noun"][i % len(v["noun"])]))
                    for i, base in enumerate(v["verbs"])]
    return out


def relation_forms(relation: str) -> list[RelPhrase]:
    """Every paraphrase of the KG relation: this set's table, else dev3's."""
    rows = relation_table().get(relation)
    if rows:
        return [RelPhrase(_W(b, **f), _W(p, **f)) for b, p, f in rows]
    out = []
    for p in phrasings_dev3.relation_forms(relation):
        f = {k: getattr(p.base, k) for k in ("ger", "nom", "pp", "ppx", "agent")}
        f["Agent"] = f["agent"].capitalize()
        out.append(RelPhrase(_W(str(p.base), **f), _W(str(p.past), **f)))
    return out


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    return pick(relation_forms(relation))


# ---------------------------------------------------------------------------- actors


@lru_cache(maxsize=1)
def sector_table() -> dict[str, dict[str, Any]]:
    """This set's extra ICEWS sectors (``phrasings_dev5.yaml``, ``sectors``), parsed once."""
    with open(_DATA_PATH, encoding="utf-8") as f:
        return yaml.safe_load(f)["sectors"]


def _extra_sector_forms(display: str) -> list[_W] | None:
    """``display`` written through this set's sector table (None: not one of its sectors)."""
    m = phrasings_dev3._SECTOR_RE.match(display)
    t3 = phrasings_dev3.tables()
    if not m or display in t3["literal"]:
        return None
    spec, c = sector_table().get(m.group(1).replace(" ", "_")), t3["countries"].get(m.group(2))
    if spec is None or c is None:
        return None
    keys = {"C": c["name"], "Cs": phrasings_dev3._possessive(c["name"]), "people": c["people"]}
    texts = []
    for f in spec["forms"]:
        for adj in (c["adj"] if "{adj}" in f else [None]):
            if "{people}" in f and not c["people"]:
                continue
            texts.append(phrasings_dev3._AN.sub(r"an \1", f.format(adj=adj, **keys)))
    if not texts:
        return None
    plural, person = bool(spec.get("plural")), bool(spec.get("person"))
    pos_base = next((x for x in texts if not x.endswith(c["name"])), texts[0])
    they = "they" if plural or person else "it"
    return [phrasings_dev3._actor(x, be="were" if plural else "was", they=they,
                                  it="them" if they == "they" else "it",
                                  its="their" if they == "they" else "its",
                                  pos=phrasings_dev3._possessive(pos_base)) for x in texts]


def actor_forms(display: str) -> list[_W]:
    """How this set writes the KG entity ``display``: its own extra sectors, else dev3's tables.
    Each form also has ``attr``, a determiner for an event noun: "the Iranian" for a country
    ("the Iranian threat against Israel"), the possessive otherwise ("the Kenyan police's")."""
    forms = _extra_sector_forms(display) or phrasings_dev3.actor_forms(display)
    country = phrasings_dev3.tables()["countries"].get(display)
    attr = f"the {country['adj'][0]}" if country and country["adj"] else None
    return [_W(str(f), **{**vars(f), "attr": attr or f.pos}) for f in forms]


def entity_surface(display: str, pick: Callable[[Sequence[Any]], Any]) -> _W:
    return pick(actor_forms(display))
