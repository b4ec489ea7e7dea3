"""The ``blind3`` phrasing set: a third **blind** evaluation set for question understanding
(issue #10). Written by a helper who did not read ``tkgqa_ray/nlu``, the methods' parsers or
any other phrasing set's templates; **authors of question-understanding code must not read,
generate from, tune on or evaluate on this file or ``phrasings_blind3.yaml``** (the
coordinator runs it once).

It aims at the way real users and MultiTQ's test set write the six MultiTQ types: terse
MultiTQ shapes ("Who was the first to X Y after Z?", "Before Z, who did X Y last?"),
actors as a journalist writes them (``Police_(Kenya)`` -> "the Kenyan police", "police in
Kenya"), CAMEO-faithful relation paraphrases, polite and indirect wrappers, in-situ and
declarative forms, and reference events as clauses, possessive nouns or bare actors.

Mechanics: slot values are ``str`` subclasses (:class:`F`) carrying extra forms as
attributes — ``{S.pos}`` (possessive), ``{rb.ing}`` (gerund), ``{rb.nom}`` (noun phrase that
takes the object: "China's visit to Iran"), ``{same.pre}``/``{same.n}`` ("in"/"month"). The
surfaces only change how a KG name is written; gold comes from the oracle over KG names.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data.lexicon import RelPhrase, relation_phrase
from tkgqa_ray.data.phrasings import Template

_DATA_PATH = Path(__file__).with_name("phrasings_blind3.yaml")
Pick = Callable[[Sequence[Any]], Any]


class F(str):
    """A slot value with extra forms as attributes (``{S.pos}``, ``{rb.nom}``)."""

    def __new__(cls, text: str, **forms: str) -> "F":
        obj = super().__new__(cls, text)
        obj.__dict__.update(forms)
        return obj


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    return yaml.safe_load(_DATA_PATH.read_text(encoding="utf-8"))


def possessive(np_: str) -> str:
    return np_ + ("'" if np_.endswith("s") else "'s")


def _article(word: str) -> str:
    """By sound: "an Iranian", "an Uzbek", but "a Ugandan", "a Ukrainian", "a Uruguayan"."""
    w = word.lower()
    return ("an " if w[:1] in "aeio" or w.startswith("uzb") else "a ") + word


_SECTOR_RE = re.compile(r"^(.*) \((.*)\)$")


def actor_forms(name: str) -> list[str]:
    """Every way this set writes the actor with display name ``name`` (first = default)."""
    tb = tables()
    countries, sectors = tb["countries"], tb["sectors"]
    if name in countries:
        return list(countries[name]["np"])
    m = _SECTOR_RE.match(name)
    if m and m.group(1) in sectors and m.group(2) in countries:
        c = countries[m.group(2)]
        adj, cnp = c["adj"], c["np"][0]
        out = []
        for f in sectors[m.group(1)]:
            if ("{adj}" in f or "{a_adj}" in f) and not adj:
                continue
            out.append(f.format(adj=adj, a_adj=_article(adj) if adj else "", c=cnp, cpos=possessive(cnp)))
        if out:
            return out
    return [name]


_PREP_TAIL = re.compile(r" (?:of|in|from) ")


def entity_surface(name: str, pick: Pick) -> F:
    """The actor as one drawn form; its possessive avoids "citizens of Peru's" by taking the
    first form without a prepositional tail ("Peruvian citizens'") when there is one."""
    forms = actor_forms(name)
    form = pick(forms)
    owner = form if not _PREP_TAIL.search(form) else next((f for f in forms if not _PREP_TAIL.search(f)), form)
    return F(form, pos=possessive(owner))


def gerund(base: str, past: str = "") -> str:
    """'make a statement about' -> 'making a statement about' (first word only); a past form
    with a doubled consonant ('expelled') doubles it in the gerund too ('expelling')."""
    w, _, rest = base.partition(" ")
    pw = past.split(" ", 1)[0]
    if w.endswith("ie"):
        g = w[:-2] + "ying"
    elif w.endswith("e") and not w.endswith("ee") and len(w) > 2:
        g = w[:-1] + "ing"
    elif pw == w + w[-1:] + "ed" or (not pw and len(w) <= 4 and re.search(r"[^aeiou][aeiou][bdgmnpt]$", w)):
        g = w + w[-1] + "ing"
    else:
        g = w + "ing"
    return f"{g} {rest}".strip()


def relation_forms(relation: str) -> list[tuple[str, str, str, str]]:
    """(base, past, gerund, noun) alternatives for a KG relation: this set's table, else the
    lexicon phrase with a derived gerund (which also serves as the noun: "China's expelling
    individuals to Iran")."""
    rows = tables()["relations"].get(relation)
    if rows:
        return [tuple(r) for r in rows]
    p = relation_phrase(relation)
    g = gerund(p.base, p.past)
    return [(p.base, p.past, g, g)]


def relation_surface(relation: str, pick: Pick) -> RelPhrase:
    base, past, ing, nom = pick(relation_forms(relation))
    return RelPhrase(F(base, ing=ing, nom=nom), F(past, ing=ing, nom=nom))


WORDS: dict[str, tuple[Any, ...]] = {
    "before_clause": ("before",),
    "after_clause": ("after",),
    "before": ("before", "prior to", "ahead of", "earlier than"),
    "after": ("after", "following", "later than", "subsequent to"),
    "fadj_asc": ("first", "earliest"),
    "fadj_desc": ("last", "latest", "most recent"),
    "fadv_asc": ("first",),
    "fadv_desc": ("last", "most recently"),
    "same_day": (F("on the same day", pre="on", n="day"),),
    "same_month": (F("in the same month", pre="in", n="month"), F("during the same month", pre="in", n="month")),
    "same_year": (F("in the same year", pre="in", n="year"), F("during the same year", pre="in", n="year")),
    "when_day": ("On which date", "On what date", "On which day"),
    "when_month": ("In which month", "In what month"),
    "when_year": ("In which year", "In what year"),
}
TIME_STYLES = ("text", "text", "text_dmy", "abbr", "ord")


def _t(variant: str, *texts: str) -> list[Template]:
    return [Template(f"blind3/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


TEMPLATES: list[Template] = [
    # ---------------------------------------------------------------- equal (explicit time)
    *_t(
        "eq_obj_time",
        "Who did {S} {rb} {inT}?",
        "{InT}, who did {S} {rb}?",
        "{S} {rp} whom {inT}?",
        "Could you tell me who {S} {rp} {inT}?",
        "I'd like to know which actors {S} {rp} {inT}.",
        "{InT}, {S} {rp} someone. Who was it?",
        "Name the actor that {S} {rp} {inT}.",
        "Who was on the receiving end when {S} {rp} someone {inT}?",
    ),
    *_t(
        "eq_subj_time",
        "Who {rp} {O} {inT}?",
        "{InT}, who {rp} {O}?",
        "Which actor {rp} {O} {inT}?",
        "Do you know who {rp} {O} {inT}?",
        "Someone {rp} {O} {inT}. Who was it?",
        "Who was it that {rp} {O} {inT}?",
        "I'm trying to find out who {rp} {O} {inT}.",
        "Whose {rb.nom} {O} happened {inT}?",
    ),
    *_t(
        "eq_time",
        "{When} did {S} {rb} {O}?",
        "Could you tell me the exact {unit} when {S} {rp} {O}?",
        "Do you know {when_lc} {S} {rp} {O}?",
        "I'd like to know the {unit} of {S.pos} {rb.nom} {O}.",
        "{S} {rp} {O} {when_lc}?",
        "What was the {unit} when {S} {rp} {O}?",
        "Which {unit} saw {S.pos} {rb.nom} {O}?",
        "When exactly did {S} {rb} {O}? I need the {unit}.",
    ),
    # ---------------------------------------------------------------- before_after
    *_t(
        "ba_subj_event",
        "Who {rp} {O} {bw} {A}?",
        "Who {rp} {O} {bwc} {A} did?",
        "{A} {rp} {O} at one point. Who {rp} {O} {bwc} that?",
        "Which actors {rp} {O} {bwc} {A} {rp} {O}?",
        "I'd like to know who {rp} {O} {bw} {A.pos} {rb.nom} {O}.",
    ),
    *_t(
        "ba_obj_event",
        "Who did {S} {rb} {bw} {A}?",
        "{Bwc} {rb.ing} {A}, who did {S} {rb}?",
        "{S} {rp} whom {bwc} {rb.ing} {A}?",
        "Do you know who {S} {rp} {bw} {S.pos} {rb.nom} {A}?",
        "Tell me who {S} {rp} {bw} {A}.",
    ),
    *_t(
        "ba_obj_time",
        "Who did {S} {rb} {bw} {T}?",
        "{Bw} {T}, who did {S} {rb}?",
        "Could you tell me whom {S} {rp} {bw} {T}?",
        "{S} {rp} whom {bw} {T}?",
        "List everyone {S} {rp} {bw} {T}.",
    ),
    *_t(
        "ba_subj_time",
        "Who {rp} {O} {bw} {T}?",
        "{Bw} {T}, who {rp} {O}?",
        "Which actors {rp} {O} {bw} {T}?",
        "I want to know who was {rb.ing} {O} {bw} {T}.",
        "Name those who {rp} {O} {bw} {T}.",
    ),
    # ---------------------------------------------------------------- first_last
    *_t(
        "fl_subj",
        "Who was the {fadj} to {rb} {O}?",
        "Who {fadv} {rp} {O}?",
        "Which actor was the {fadj} to {rb} {O}?",
        "Do you know who {rp} {O} {fadv}?",
        "Whose {rb.nom} {O} was the {fadj}?",
        "I'd like to know who was the {fadj} to {rb} {O}.",
    ),
    *_t(
        "fl_obj",
        "Who did {S} {rb} {fadv}?",
        "Which actor did {S} {rb} {fadv}?",
        "{S} {rp} whom {fadv}?",
        "Could you tell me the {fadj} actor {S} {rp}?",
        "Tell me who {S} {rp} {fadv}.",
        "Who was the {fadj} that {S} {rp}?",
    ),
    *_t(
        "fl_time",
        "{When} did {S} {fadv} {rb} {O}?",
        "{When} was the {fadj} time {S} {rp} {O}?",
        "Could you tell me the {unit} of {S.pos} {fadj} {rb.nom} {O}?",
        "I'd like to know the {unit} when {S} {fadv} {rp} {O}.",
        "What {unit} did {S} {fadv} {rb} {O}?",
        "{When} was {S.pos} {fadj} {rb.nom} {O}?",
    ),
    # ---------------------------------------------------------------- equal_multi
    *_t(
        "em_obj_event",
        "Who did {S} {rb} {same} as {AS.pos} {arb.nom} {AO}?",
        "{Same} that {AS} {arp} {AO}, who did {S} {rb}?",
        "{AS} {arp} {AO}. {Same}, who did {S} {rb}?",
        "Could you tell me whom {S} {rp} {same.pre} the {same.n} when {AS} {arp} {AO}?",
        "{S} {rp} whom {same.pre} the {same.n} of {AS.pos} {arb.nom} {AO}?",
        "Tell me who {S} {rp} {same} that {AS} {arp} {AO}.",
    ),
    *_t(
        "em_subj_event",
        "Who {rp} {O} {same} as {AS.pos} {arb.nom} {AO}?",
        "{Same} that {AS} {arp} {AO}, who {rp} {O}?",
        "Which actors {rp} {O} {same.pre} the {same.n} when {AS} {arp} {AO}?",
        "I'd like to know who {rp} {O} {same} that {AS} {arp} {AO}.",
        "{AS} {arp} {AO}. Who {rp} {O} that same {same.n}?",
        "Do you know who was {rb.ing} {O} {same} as {AS.pos} {arb.nom} {AO}?",
    ),
    *_t(
        "em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bw} {AS.pos} {arb.nom} {AO}, who did {S} {rb}?",
        "Exactly {Nd} {bwc} {AS} {arp} {AO}, {S} {rp} someone. Who?",
        "Could you tell me whom {S} {rp} {Nd} {bw} {AS.pos} {arb.nom} {AO}?",
        "{S} {rp} whom exactly {Nd} {bwc} {AS} {arp} {AO}?",
        "I'd like to know who {S} {rp} {Nd} {bwc} {AS} {arp} {AO}.",
    ),
    # ------------------------------------- after_first / before_last (shared variants: the
    # op and rank words come from the type: after + first/earliest, before + last/latest)
    *_t(
        "xr_subj",
        "Who was the {fadj} to {rb} {O} {bw} {A}?",
        "{Bw} {A}, who {rp} {O} {fadv}?",
        "Who {fadv} {rp} {O} {bwc} {A} did?",
        "Could you tell me which actor was the {fadj} to {rb} {O} {bw} {A.pos} {rb.nom} {O}?",
        "{A} {rp} {O}. Who was the {fadj} to do so {bwc} that?",
        "Do you know who was the {fadj} to {rb} {O} {bwc} {A} {rp} {O}?",
        "Whose {rb.nom} {O} came {fadv} {bw} {A.pos}?",
    ),
    *_t(
        "xr_obj",
        "Who did {S} {rb} {fadv} {bw} {A}?",
        "{Bw} {A}, who did {S} {rb} {fadv}?",
        "{Bwc} {rb.ing} {A}, who did {S} {rb} {fadv}?",
        "{S} {rp} {A}. Who did {S} {rb} {fadv} {bwc} that?",
        "Could you tell me whom {S} {rp} {fadv} {bw} {S.pos} {rb.nom} {A}?",
        "{S} {rp} whom {fadv} {bwc} {rb.ing} {A}?",
        "Which actor was the {fadj} that {S} {rp} {bw} {A}?",
    ),
    *_t(
        "xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{Bw} {AS.pos} {arb.nom} {AO}, {when_lc} did {S} {fadv} {rb} {O}?",
        "Could you tell me the exact {unit} when {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. {When} was the {fadj} time {S} {rp} {O} {bwc} that?",
        "I'd like to know the {unit} of {S.pos} {fadj} {rb.nom} {O} {bw} {AS.pos} {arb.nom} {AO}.",
        "What {unit} was {S.pos} {fadj} {rb.nom} {O} {bwc} {AS} {arp} {AO}?",
        "Tell me the {unit} {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}.",
    ),
]
