"""The ``dev3`` phrasing set: a third, independent *development* set for question understanding
(issue #10), written without reading ``tkgqa_ray/nlu``, the methods' parsers, the blind sets or
the text of ``dev``/``dev2``. It targets the four types that relate the asked event to a
reference event (before_after, equal_multi, after_first, before_last) the way MultiTQ's own
test questions and users word them ("Before the Sudanese rebels, who did the Japanese
government condemn?", "After the Danish Ministry of Foreign Affairs, who was the first to
visit Iraq?", "Which country did Iran threaten after the Iranian cabinet did so?").

Variety: the reference first or last; as a bare actor, an ellipsis ("before Y did", "before Y
did so", "before Y were"), a full clause, a passive clause ("after Iran was visited by Y"), a
nominalisation ("after Y's visit to Iran", "after the visit to Iran by Y"), a gerund ("before
criticising Y"), a pronoun ("before it visited Y"); cue words "prior to", "following",
"subsequent to", "earlier/later than", "ahead of", "right after", "just before", "at the same
time as", "during the same month as", "the first/last time"; active and passive main clauses
("By whom was Iran visited ...", "Who was the first to be criticised by X ..."); a few polite
wrappers. Single-event types get three templates each (the generator needs every variant).

Actors and relations come from ``phrasings_dev3.yaml`` (this set's own tables): ICEWS
``Sector (Country)`` actors as people write them ("the Kenyan police", "Kenya's foreign
ministry", "the head of government of Chile", "Peruvians"), relations as CAMEO-exact
paraphrases with a passive and a noun form. Not blind: the nlu author studies it.

Mechanics: slot values are ``str`` subclasses with extra forms as attributes, read by the
templates through ``str.format`` attribute access — an actor's ``{O.be}`` ("was"/"were"),
``{O.it}``/``{O.they}``/``{O.theybe}``/``{O.its}`` (pronouns, or the name again where a
pronoun would not be clear), ``{O.pos}`` (possessive); a relation's ``{rp.pp}`` (passive with
agent word: "visited by"), ``{rp.ppx}``/``{rp.agent}`` (the same split: "visited", "by"),
``{rb.ger}`` (gerund), ``{rb.nom}`` (noun + preposition: "visit to"); a cue's ``{bw.cl}``
(before a clause), ``{bw.g}`` (before a gerund), ``{bw.imm}`` ("right after"/"just before");
``{same.cl}``; ``{fadv.time}`` ("for the first time"). Gold comes from the oracle over KG
names; every surface names exactly one KG entity / relation.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data import phrasings
from tkgqa_ray.data.lexicon import RelPhrase, relation_phrase
from tkgqa_ray.data.phrasings import Template

_DATA_PATH = Path(__file__).with_name("phrasings_dev3.yaml")


class _W(str):
    """A word or phrase with its other forms as attributes (a missing form is an error, so a
    template that asks for a form no surface provides fails loudly instead of rendering it)."""

    def __new__(cls, s: str, **forms: str) -> "_W":
        w = super().__new__(cls, s)
        w.__dict__.update(forms)
        return w


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev3")


# ---------------------------------------------------------------------------- cue words

WORDS: dict[str, tuple[str, ...]] = {
    # before a bare actor, a noun phrase or a time; .cl before a clause, .g before a gerund
    "before": (
        _W("before", cl="before", g="before", imm="just before"),
        _W("prior to", cl="prior to the time", g="prior to", imm="immediately before"),
        _W("earlier than", cl="earlier than", g="before", imm="just before"),
        _W("ahead of", cl="before", g="before", imm="right before"),
    ),
    "after": (
        _W("after", cl="after", g="after", imm="right after"),
        _W("following", cl="following the time", g="after", imm="immediately after"),
        _W("subsequent to", cl="subsequent to the time", g="subsequent to", imm="right after"),
        _W("later than", cl="later than", g="after", imm="immediately after"),
    ),
    # before a finite clause (also after "N days")
    "before_clause": ("before", "prior to the time", "before the day"),
    "after_clause": ("after", "following the time", "after the day"),
    "fadj_asc": ("first", "earliest"),
    "fadj_desc": ("last", "latest", "most recent"),
    "fadv_asc": (_W("first", time="for the first time"),),
    "fadv_desc": (_W("last", time="for the last time"), _W("most recently", time="for the last time")),
    # str = before a clause or a noun phrase; .cl = before a clause only
    "same_day": (
        _W("on the same day as", cl="on the same day that"),
        _W("at the same time as", cl="at the same time as"),
        _W("on the same date as", cl="on the very day that"),
    ),
    "same_month": (
        _W("in the same month as", cl="in the same month that"),
        _W("during the same month as", cl="during the same month in which"),
        _W("in the same calendar month as", cl="in the month in which"),
    ),
    "same_year": (
        _W("in the same year as", cl="in the same year that"),
        _W("during the same year as", cl="during the same year in which"),
        _W("in the same calendar year as", cl="in the year in which"),
    ),
    "when_day": ("On which date", "On what day", "On which day"),
    "when_month": ("In which month", "In what month", "During which month"),
    "when_year": ("In which year", "In what year", "During which year"),
}
TIME_STYLES = ("text", "text_dmy")


# ---------------------------------------------------------------------------- templates
# Slots as in phrasings.py; {A} is the reference event's other actor (subject for *_subj,
# object for *_obj variants), with the reference repeating the asked relation.

TEMPLATES: list[Template] = [
    # equal (explicit time)
    *_t("eq_obj_time",
        "Who did {S} {rb} {inT}?",
        "{inT}, which party did {S} {rb}?",
        "Can you tell me who was {rp.pp} {S} {inT}?"),
    *_t("eq_subj_time",
        "Who {rp} {O} {inT}?",
        "{inT}, {rp.agent} whom {O.be} {O} {rp.ppx}?",
        "Which actor {rp} {O} {inT}?"),
    *_t("eq_time",
        "{When} did {S} {rb} {O}?",
        "Do you know {when_lc} {O} {O.be} {rp.pp} {S}?",
        "Tell me the {unit} when {S} {rp} {O}."),
    # before_after — reference event with the asked relation, or an explicit time
    *_t("ba_subj_event",
        "{bw} {A}, who {rp} {O}?",
        "Who {rp} {O} {bw.cl} {A} did?",
        "Who {rp} {O} {bw} {A}?",
        "{rp.agent} whom {O.be} {O} {rp.ppx} {bw.cl} {O.theybe} {arp.pp} {A}?",
        "Who was the one that {rp} {O} {bw.cl} {A} {arp} {O.it}?",
        "{bw} {A.pos} {arb.nom} {O}, who {rp} {O.it}?",
        "Can you tell me who {rp} {O} {bw} {A}?",
        "Who {rp} {O} {bw} the {arb.nom} {O.it} by {A}?",
        "Who {rp} {O} {bw.cl} {O.theybe} {arp.pp} {A}?",
        "{bw.cl} {A} did so, who {rp} {O}?"),
    *_t("ba_obj_event",
        "{bw} {A}, who did {S} {rb}?",
        "Who did {S} {rb} {bw} {A}?",
        "Who did {S} {rb} {bw.cl} {S.they} {arp} {A}?",
        "Who did {S} {rb} {bw.g} {arb.ger} {A}?",
        "Who was {rp.pp} {S} {bw.cl} {A} {A.be}?",
        "{bw} {S.pos} {arb.nom} {A}, who did {S.they} {rb}?",
        "Which party did {S} {rb} {bw.cl} {A} {A.be} {arp.pp} {S.it}?",
        "Could you tell me who {S} {rp} {bw} {A}?",
        "Who did {S} {rb} {bw} {S.its} {arb.nom} {A}?"),
    *_t("ba_obj_time",
        "Who did {S} {rb} {bw} {T}?",
        "{bw} {T}, who was {rp.pp} {S}?",
        "Can you tell me who {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw} {T}?",
        "{bw} {T}, which actor {rp} {O}?",
        "{rp.agent} whom {O.be} {O} {rp.ppx} {bw} {T}?"),
    # equal_multi — a reference event with another relation, same day / month / year
    *_t("em_obj_event",
        "Who did {S} {rb} {same} {AS} {arp} {AO}?",
        "{same} {AS.pos} {arb.nom} {AO}, who did {S} {rb}?",
        "Who was {rp.pp} {S} {same.cl} {AO} {AO.be} {arp.pp} {AS}?",
        "{same.cl} {AS} {arp} {AO}, which party did {S} {rb}?",
        "Can you tell me who {S} {rp} {same} {AS} {arp} {AO}?",
        "Who did {S} {rb} {same} the {arb.nom} {AO} by {AS}?",
        "{S} {rp} whom {same.cl} {AS} {arp} {AO}?"),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "{same} {AS.pos} {arb.nom} {AO}, who {rp} {O}?",
        "{rp.agent} whom {O.be} {O} {rp.ppx} {same.cl} {AO} {AO.be} {arp.pp} {AS}?",
        "{same.cl} {AS} {arp} {AO}, which actor {rp} {O}?",
        "I'd like to know who {rp} {O} {same} {AS} {arp} {AO}.",
        "Who {rp} {O} {same} the {arb.nom} {AO} by {AS}?",
        "Who was it that {rp} {O} {same.cl} {AS} {arp} {AO}?"),
    *_t("em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bw} {AS.pos} {arb.nom} {AO}, who did {S} {rb}?",
        "Who was {rp.pp} {S} exactly {Nd} {bwc} {AO} {AO.be} {arp.pp} {AS}?",
        "Exactly {Nd} {bwc} {AS} {arp} {AO}, which party did {S} {rb}?"),
    # after_first / before_last (direction and rank words come from the spec)
    *_t("xr_subj",
        "{bw} {A}, who was the {fadj} to {rb} {O}?",
        "Who was the {fadj} to {rb} {O} {bw} {A}?",
        "Who {rp} {O} {bw.imm} {A} did?",
        "Who {rp} {O} {fadv} {bw.cl} {A} did?",
        "{rp.agent} whom {O.be} {O} {rp.ppx} {fadv} {bw.cl} {A} {arp} {O.it}?",
        "{bw.cl} {A} {arp} {O}, who was the {fadj} one to {rb} {O.it}?",
        "Can you tell me who was the {fadj} to {rb} {O} {bw} {A.pos} {arb.nom} {O.it}?",
        "Who was the {fadj} to {rb} {O} {bw.cl} {O.theybe} {arp.pp} {A}?",
        "{bw.imm} {A}, who {rp} {O}?"),
    *_t("xr_obj",
        "Who did {S} {fadv} {rb} {bw} {A}?",
        "{bw} {A}, who did {S} {rb} {fadv}?",
        "Who was the {fadj} that {S} {rp} {bw.cl} {S.they} {arp} {A}?",
        "Who did {S} {rb} {bw.imm} {arb.ger} {A}?",
        "Who was the {fadj} to be {rp.pp} {S} {bw.cl} {A} {A.be}?",
        "{bw} {S.pos} {arb.nom} {A}, who did {S.they} {rb} {fadv}?",
        "I'd like to know the {fadj} party {S} {rp} {bw} {A}.",
        "{S} {rp} whom {bw.imm} {A}?"),
    *_t("xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{bwc} {AS} {arp} {AO}, {when_lc} did {S} {rb} {O} {fadv}?",
        "{When} was the {fadj} time that {O} {O.be} {rp.pp} {S} {bw} {AS.pos} {arb.nom} {AO}?",
        "Can you tell me the {unit} when {S} {fadv} {rp} {O} {bw} the {arb.nom} {AO} by {AS}?",
        "{bw} {AS.pos} {arb.nom} {AO}, {when_lc} {O.be} {O} {rp.pp} {S} {fadv.time}?",
        "Name the {unit} when {S} {rp} {O} {fadv.time} {bwc} {AS} {arp} {AO}."),
    # first_last
    *_t("fl_subj",
        "Who was the {fadj} to {rb} {O}?",
        "{rp.agent} whom {O.be} {O} {rp.ppx} {fadv}?",
        "Which actor {rp} {O} {fadv}?"),
    *_t("fl_obj",
        "Who did {S} {fadv} {rb}?",
        "Who was the {fadj} to be {rp.pp} {S}?",
        "Can you tell me who {S} {rp} {fadv}?"),
    *_t("fl_time",
        "{When} did {S} {fadv} {rb} {O}?",
        "{When} {O.be} {O} {rp.pp} {S} {fadv.time}?",
        "Do you know the {unit} of the {fadj} time {S} {rp} {O}?"),
]


# ---------------------------------------------------------------------------- verb morphology

# irregular past / past participle / -ing forms of the verbs the tables use (regular ones by rule)
_PAST = {"make": "made", "meet": "met", "fight": "fought", "give": "gave", "bring": "brought",
         "hold": "held", "send": "sent", "speak": "spoke", "take": "took", "pay": "paid",
         "put": "put", "lead": "led", "break": "broke", "seize": "seized", "win": "won",
         "keep": "kept", "tell": "told", "sell": "sold", "buy": "bought", "shoot": "shot",
         "steal": "stole", "set": "set", "cut": "cut", "run": "ran", "begin": "began"}
_PART = {**_PAST, "give": "given", "speak": "spoken", "take": "taken", "break": "broken",
         "steal": "stolen", "run": "run", "begin": "begun"}
_DOUBLE = {"confer", "level", "signal", "travel", "kidnap", "slap", "cut", "put", "set", "run",
           "begin", "win", "shoot", "ban", "plan", "stop", "rob", "drop", "expel"}
_ADVERBS = {"physically", "sexually", "violently", "formally", "officially", "verbally", "fatally",
            "diplomatically"}


def _verb_index(words: list[str]) -> int:
    return 1 if len(words) > 1 and words[0] in _ADVERBS else 0


def _inflect(verb: str, kind: str) -> str:
    if kind == "ing":
        if verb.endswith("ie"):
            return verb[:-2] + "ying"
        if verb in _DOUBLE and not verb.endswith("e"):
            return verb + verb[-1] + "ing"
        if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
            return verb[:-1] + "ing"
        return verb + "ing"
    table = _PAST if kind == "past" else _PART
    if verb in table:
        return table[verb]
    if verb in _DOUBLE:
        return verb + verb[-1] + "ed"
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def conjugate(phrase: str, kind: str) -> str:
    """``"pay a visit to"`` -> past ``"paid a visit to"`` / ``ing`` ``"paying a visit to"`` /
    ``part`` (past participle); an adverb first ("physically assault") is skipped over."""
    words = phrase.split()
    i = _verb_index(words)
    words[i] = _inflect(words[i], kind)
    if len(words) > i + 2 and words[i + 1] == "or":  # "arrest or detain" -> "arrested or detained"
        words[i + 2] = _inflect(words[i + 2], kind)
    return " ".join(words)


_PREPS = {"to", "with", "against", "of", "on", "for", "about", "by", "from", "at", "in", "into", "toward"}


def _relation_forms(base: str, passive: str | None, noun: str | None) -> dict[str, str]:
    ger = conjugate(base, "ing")
    if passive is None:  # a relation outside the table: build the forms by rule
        words = base.split()
        i = _verb_index(words)
        rest = words[i + 1:]
        if not rest or (len(rest) == 1 and rest[0] in _PREPS):
            passive = " ".join([*words[:i], _inflect(words[i], "part"), *rest, "by"])
        else:
            core = ger.split()
            if core[-1] in _PREPS:
                core = core[:-1]
            passive = f"the target of {' '.join(core)} by"
    ppx, _, agent = passive.rpartition(" ")
    return {"ger": ger, "nom": noun or f"act of {ger}", "pp": passive, "ppx": ppx, "agent": agent}


# ---------------------------------------------------------------------------- tables


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    """The set's actor and relation tables (``phrasings_dev3.yaml``), parsed once."""
    with open(_DATA_PATH, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    countries: dict[str, dict[str, Any]] = {}
    for key, v in data["countries"].items():
        display = key.replace("_", " ")
        countries[display] = {"name": v.get("name", display), "adj": list(v.get("adj", [])),
                              "people": v.get("people")}
    relations: dict[str, list[tuple[str, str, dict[str, str]]]] = {}
    for rel, v in data["relations"].items():
        forms = []
        for i, base in enumerate(v["verbs"]):
            passive = v["passive"][i % len(v["passive"])]
            noun = v["noun"][i % len(v["noun"])]
            forms.append((base, conjugate(base, "past"), _relation_forms(base, passive, noun)))
        relations[rel] = forms
    return {"countries": countries, "sectors": data["sectors"], "relations": relations,
            "literal": {n.replace("_", " ") for n in data.get("literal", [])}}


# ---------------------------------------------------------------------------- actors

_SECTOR_RE = re.compile(r"^(.*) \(([^()]*)\)$")
# plain names English writes with "the" (organisations, plural / republic country names)
_THE_FIRST = {"United", "UN", "European", "African", "International", "Association", "Islamic",
              "National", "Central", "Grand", "High", "Democratic", "Republic", "Middle", "Office",
              "Supreme", "Provisional", "Moro", "Ogaden", "Organization", "World", "Arab", "Israeli",
              "Palestinian", "Asian", "East", "Economic"}
_THE_LAST = {"Union", "Council", "Fund", "Party", "Front", "Army", "Movement", "Forces", "Force",
             "Agency", "Commission", "Bank", "Nations", "Emirates", "Netherlands", "Philippines",
             "Organization", "Organizations", "Group", "Court", "Ministry", "Committee", "Assembly",
             "Parliament", "Republic", "Community", "Service", "Office", "Battalion",
             "Press", "Maldives", "Bahamas", "Comoros", "Islands"}


_AN = re.compile(r"\ba ([AEIOaeio]|Uzbek)")


def _possessive(s: str) -> str:
    return s + ("'" if s.endswith("s") else "'s")


def _article(name: str) -> str:
    words = name.split()
    if words and (words[0] in _THE_FIRST or words[-1] in _THE_LAST) and words[0] != "The":
        return "the " + name
    return name


def _sector_forms(sector: str, country: str) -> tuple[list[str], dict[str, Any]] | None:
    t = tables()
    spec = t["sectors"].get(sector.replace(" ", "_"))
    c = t["countries"].get(country)
    if spec is None or c is None:
        return None
    keys = {"C": c["name"], "Cs": _possessive(c["name"]), "people": c["people"]}
    forms = []
    for f in spec["forms"]:
        for adj in (c["adj"] or [None]) if "{adj}" in f else [None]:
            if adj is None and "{adj}" in f:
                continue
            if "{people}" in f and not c["people"]:
                continue
            forms.append(_AN.sub(r"an \1", f.format(adj=adj, **keys)))
    return (forms, spec) if forms else None


def _actor(text: str, *, be: str, they: str, it: str, its: str, pos: str) -> _W:
    return _W(text, be=be, they=they, it=it, its=its, pos=pos,
              theybe=f"{they} {'were' if they == 'they' or be == 'were' else 'was'}")


def actor_forms(display: str) -> list[_W]:
    """Every way this set writes the KG entity ``display`` ("Police (Kenya)")."""
    t = tables()
    m = _SECTOR_RE.match(display)
    got = _sector_forms(*m.groups()) if m and display not in t["literal"] else None
    if got is None:
        text = _article(display)
        pron = "it" if display in t["countries"] else None
        return [_actor(text, be="was", they=pron or text, it=pron or text,
                       its="its" if pron else _possessive(text), pos=_possessive(text))]
    forms, spec = got
    country_name = t["countries"][m.group(2)]["name"]
    plural, person = bool(spec.get("plural")), bool(spec.get("person"))
    # the possessive reads best on a form that does not end in "of/in/from <country>"
    pos_base = next((f for f in forms if not f.endswith(country_name)), forms[0])
    they = "they" if plural or person else "it"
    return [_actor(f, be="were" if plural else "was", they=they, it="them" if they == "they" else "it",
                   its="their" if they == "they" else "its", pos=_possessive(pos_base)) for f in forms]


def entity_surface(display: str, pick: Callable[[Sequence[Any]], Any]) -> _W:
    return pick(actor_forms(display))


# ---------------------------------------------------------------------------- relations


def relation_forms(relation: str) -> list[RelPhrase]:
    """Every paraphrase of the KG relation (base / past ``_W`` with the same forms)."""
    rows = tables()["relations"].get(relation)
    if not rows:  # outside the table: the lexicon's phrase, other forms by rule
        p = relation_phrase(relation)
        rows = [(p.base, p.past, _relation_forms(p.base, None, None))]
    return [RelPhrase(_W(base, **forms), _W(past, **forms)) for base, past, forms in rows]


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    return pick(relation_forms(relation))
