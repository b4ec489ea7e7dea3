"""The ``dev2`` phrasing set: a second *development* set for question understanding (issue #10),
focused on the four types that relate the asked event to a reference event (before_after,
equal_multi, after_first, before_last).

Not blind: the nlu authors study its misses. Written from English, not from ``tkgqa_ray/nlu``:
the reference event is phrased the ways people phrase it — a bare actor ("before Japan
did"), a full clause ("after China signed an agreement with Japan"), a nominalisation
("after China's agreement with Japan", "following Obama's visit to Iran"), a gerund ("before
X criticising Y", "after visiting Y" with the subject left implicit), a pronoun ("before it
visited Y", "its visit to Y"), an explicit time; the cue comes first or last and in many words
("prior to", "earlier than", "ahead of", "subsequent to", "later than", "once", "as soon as",
"in the wake of"); the rank as "the first one to", "the earliest", "the most recent ... before",
"for the last time". Single-event types get a few templates only (the generator needs every
variant). Actors and relations are written as ``dev`` writes them (its tables); this module
adds the gerund and the noun form of each relation.

Cue words and relation phrases are ``str`` with extra attributes, read by templates through
``str.format`` attribute access: ``{bw.lead}`` = the clause-introducing form of a cue
("once" for after), ``{same.cl}`` = the clause form of a same-period cue, ``{arb.ger}`` /
``{arb.nom}`` = the gerund / noun phrase of the reference relation, ``{rp.pp}`` / ``{arp.pp}``
= the passive participle phrase ("Who was {rp.pp} by {S} before {A} was?", issue #10's
passive round; :func:`passive_participle`). Every surface keeps the
meaning exact; gold comes from the oracle over KG names.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tkgqa_ray.data import phrasings_dev
from tkgqa_ray.data.lexicon import RelPhrase, relation_phrase
from tkgqa_ray.data import phrasings
from tkgqa_ray.data.phrasings import Template


class _W(str):
    """A word with alternative forms as attributes (missing ones fall back to the word)."""

    def __new__(cls, s: str, **forms: str) -> "_W":
        w = super().__new__(cls, s)
        w.__dict__.update(forms)
        return w

    def __getattr__(self, name: str) -> str:  # only called for missing attributes
        if name.startswith("__"):
            raise AttributeError(name)
        return str(self)


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev2")


WORDS: dict[str, tuple[str, ...]] = {
    # before a bare actor, a time, a noun phrase or a gerund
    "before": (_W("before", lead="before"), _W("prior to", lead="prior to the time"),
               _W("earlier than", lead="before"), _W("ahead of", lead="in the time before")),
    "after": (_W("after", lead="once"), _W("following", lead="as soon as"),
              _W("subsequent to", lead="after"), _W("later than", lead="once"),
              _W("in the wake of", lead="after")),
    # before a finite clause (also after "N days")
    "before_clause": (_W("before", lead="before"), _W("prior to the time", lead="prior to the time"),
                      _W("earlier than when", lead="before"), _W("ahead of the moment", lead="before")),
    "after_clause": (_W("after", lead="once"), _W("following the time", lead="after"),
                     _W("later than when", lead="once"), _W("subsequent to the moment", lead="as soon as")),
    "fadj_asc": ("first", "earliest", "very first"),
    "fadj_desc": ("last", "latest", "most recent", "final"),
    "fadv_asc": ("first", "for the first time", "initially"),
    "fadv_desc": ("last", "for the last time", "most recently"),
    # "as" forms take a clause or a noun phrase; .cl forms take a clause only
    "same_day": (_W("on the same day as", cl="on the day when"),
                 _W("the same day as", cl="on the very day that"),
                 _W("on the very same day as", cl="on the same day that")),
    "same_month": (_W("in the same month as", cl="in the month when"),
                   _W("during the same month as", cl="during the month in which"),
                   _W("the same month as", cl="in the same month that")),
    "same_year": (_W("in the same year as", cl="in the year when"),
                  _W("during the same year as", cl="in the same year that"),
                  _W("the same year as", cl="during the year in which")),
    "when_day": ("On which date", "On what day", "When", "On what date"),
    "when_month": ("In which month", "What month", "During which month", "In what month"),
    "when_year": ("In which year", "What year", "In what year", "Which year"),
}
TIME_STYLES = ("text", "text_dmy", "text", "iso")

TEMPLATES: list[Template] = [
    # ---- single-event types: a few forms only (the generator needs every variant)
    *_t("eq_obj_time", "Who did {S} {rb} {inT}?", "{InT}, whom did {S} {rb}?"),
    *_t("eq_subj_time", "Who {rp} {O} {inT}?", "{InT}, which actor {rp} {O}?"),
    *_t("eq_time", "{When} did {S} {rb} {O}?", "Could you tell me the {unit} when {S} {rp} {O}?"),
    *_t("fl_subj", "Who was the {fadj} to {rb} {O}?", "Who {rp} {O} {fadv}?"),
    *_t("fl_obj", "Who did {S} {rb} {fadv}?", "Who was the {fadj} one {S} {rp}?"),
    *_t("fl_time", "{When} did {S} {fadv} {rb} {O}?", "{When} did {S} {rb} {O} {fadv}?"),
    # ---- before_after, reference = the same relation and object, another subject ({A} = AS)
    *_t("ba_subj_event",
        "Who {rp} {O} {bw} {A} did?",
        "{Bw} {A}, who {rp} {O}?",
        "Who {rp} {O} {bwc} {AS} {arp} {AO}?",
        "Who {rp} {O} {bw} {AS}'s {arb.nom} {AO}?",
        "{Bw} {AS} {arb.ger} {AO}, which actor {rp} {O}?",
        "{bw.lead} {AS} {arp} {AO}, who {rp} {O}?",
        "Can you name someone who {rp} {O} {bw} {A} did?",
        "Which party {rp} {O}, and did so {bw} {A}?",
        # passive voice (main and/or reference clause)
        "By whom was {O} {rp.pp} {bw} {A}?",
        "{Bwc} {O} was {arp.pp} by {AS}, who {rp} {O}?",
        "Who was {O} {rp.pp} by {bwc} it was {arp.pp} by {AS}?"),
    # ---- before_after, reference = the same subject and relation, another object ({A} = AO)
    *_t("ba_obj_event",
        "Who did {S} {rb} {bw} {A}?",
        "{Bw} {A}, who did {S} {rb}?",
        "Who did {S} {rb} {bw} {arb.ger} {AO}?",
        "{Bw} {arb.ger} {AO}, whom did {S} {rb}?",
        "Whom did {S} {rb} {bwc} it {arp} {AO}?",
        "Who did {S} {rb} {bw} its {arb.nom} {AO}?",
        "{bw.lead} {AS} {arp} {AO}, which actor did {S} {rb}?",
        "Tell me who {S} {rp} {bw} {AS}'s {arb.nom} {AO}.",
        "Who was {rp.pp} by {S} {bw} {A} was?",
        "Which actor was {rp.pp} by {S} {bwc} {AO} was {arp.pp} by it?",
        "{Bwc} {AO} was {arp.pp} by {AS}, who was {rp.pp} by {S}?"),
    *_t("ba_obj_time",
        "Who did {S} {rb} {bw} {T}?",
        "{Bw} {T}, whom did {S} {rb}?",
        "Which actor did {S} {rb} at some point {bw} {T}?",
        "Who was it that {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw} {T}?",
        "{Bw} {T}, which actor {rp} {O}?",
        "Name someone who {rp} {O} {bw} {T}.",
        "Which party {rp} {O} sometime {bw} {T}?"),
    # ---- equal_multi: the same period as another event
    *_t("em_obj_event",
        "Who did {S} {rb} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, whom did {S} {rb}?",
        "Who did {S} {rb} {same} {AS}'s {arb.nom} {AO}?",
        "Can you tell me who {S} {rp} {same.cl} {AS} {arp} {AO}?",
        "{same.cl} {AS} {arp} {AO}, which actor did {S} {rb}?",
        "Which actor did {S} {rb} {same} {AS} {arb.ger} {AO}?",
        "Who was {rp.pp} by {S} {same.cl} {AO} was {arp.pp} by {AS}?",
        "{Same} {AS}'s {arb.nom} {AO}, who was {rp.pp} by {S}?"),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "{Same} {AS}'s {arb.nom} {AO}, who {rp} {O}?",
        "{same.cl} {AS} {arp} {AO}, which actor {rp} {O}?",
        "Tell me who {rp} {O} {same.cl} {AS} {arp} {AO}.",
        "Who {rp} {O} {same} {AS} {arb.ger} {AO}?",
        "By whom was {O} {rp.pp} {same.cl} {AO} was {arp.pp} by {AS}?",
        "Who was {O} {rp.pp} by {same.cl} {AS} {arp} {AO}?"),
    *_t("em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bw} {AS}'s {arb.nom} {AO}, whom did {S} {rb}?",
        "Exactly {Nd} {bwc} {AS} {arp} {AO}, which actor did {S} {rb}?",
        "Who was {rp.pp} by {S} {Nd} {bwc} {AO} was {arp.pp} by {AS}?"),
    # ---- after_first / before_last (op and rank come together: after+first, before+last)
    *_t("xr_subj",
        "{Bw} {A}, who was the {fadj} to {rb} {O}?",
        "Who was the {fadj} to {rb} {O} {bw} {A} did?",
        "{bw.lead} {AS} {arp} {AO}, who was the {fadj} one to {rb} {O}?",
        "Who {fadv} {rp} {O} {bw} {AS}'s {arb.nom} {AO}?",
        "{Bw} {AS} {arb.ger} {AO}, which actor {rp} {O} {fadv}?",
        "Which was the {fadj} party to {rb} {O} {bwc} {AS} {arp} {AO}?",
        "Name the {fadj} one that {rp} {O} {bw} {A}.",
        "By whom was {O} {fadv} {rp.pp} {bw} {A}?",
        "Who was the {fadj} to {rb} {O} {bwc} it was {arp.pp} by {AS}?"),
    *_t("xr_obj",
        "Who did {S} {fadv} {rb} {bw} {A}?",
        "{Bw} {arb.ger} {AO}, who did {S} {rb} {fadv}?",
        "Who was the {fadj} one {S} {rp} {bwc} it {arp} {AO}?",
        "{bw.lead} {AS} {arp} {AO}, who was the {fadj} that {S} {rp}?",
        "Whom did {S} {rb} {fadv} {bw} its {arb.nom} {AO}?",
        "{Bw} {A}, which actor did {S} {rb} {fadv}?",
        "Who was the {fadj} to be {rp.pp} by {S} {bw} {A}?",
        "Which actor was {fadv} {rp.pp} by {S} {bwc} {AO} was?"),
    *_t("xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{bwc.lead} {AS} {arp} {AO}, {when_lc} did {S} {fadv} {rb} {O}?",
        "{When} was the {fadj} time {S} {rp} {O} {bw} {AS}'s {arb.nom} {AO}?",
        "Could you tell me the {unit} on which {S} {rp} {O} {fadv} {bw} {AS} {arb.ger} {AO}?",
        "{When} did {S} {rb} {O} {fadv} {bwc} {AS} {arp} {AO}?",
        "{When} was {O} {fadv} {rp.pp} by {S} {bwc} {AO} was {arp.pp} by {AS}?",
        "{When} was {O} {rp.pp} by {S} {fadv} {bw} {AS}'s {arb.nom} {AO}?"),
]


# --------------------------------------------------------------------------- relations
# Noun phrases for the reference event ("X's visit to Y"), KG subject as the possessor; a
# relation missing here is written with its gerund ("X's criticizing Y").
_NOM: dict[str, tuple[str, ...]] = {
    "Make_statement": ("statement about", "comments on"),
    "Consult": ("consultation with", "talks with"),
    "Express_intent_to_meet_or_negotiate": ("offer of talks to", "proposal to negotiate with"),
    "Make_an_appeal_or_request": ("appeal to", "request to"),
    "Make_a_visit": ("visit to", "trip to"),
    "Host_a_visit": ("hosting of",),
    "Arrest,_detain,_or_charge_with_legal_action": ("arrest of", "detention of"),
    "Praise_or_endorse": ("praise for", "endorsement of"),
    "Criticize_or_denounce": ("criticism of", "denunciation of"),
    "Accuse": ("accusation against", "accusations against"),
    "Engage_in_negotiation": ("negotiations with",),
    "Sign_formal_agreement": ("agreement with", "signing of an agreement with"),
    "Express_intent_to_cooperate": ("pledge to cooperate with",),
    "Engage_in_diplomatic_cooperation": ("diplomatic cooperation with",),
    "Use_conventional_military_force": ("military action against", "attack on"),
    "Demand": ("demand on",),
    "Investigate": ("investigation into", "probe into"),
    "Reject": ("rejection of",),
    "Make_optimistic_comment": ("optimistic remarks about",),
    "Discuss_by_telephone": ("phone call with", "telephone conversation with"),
    "Make_pessimistic_comment": ("pessimistic remarks about",),
    "Threaten": ("threat against", "threats against"),
    "Meet_at_a_'third'_location": ("meeting on neutral ground with",),
    "Provide_humanitarian_aid": ("humanitarian aid to",),
    "Provide_aid": ("aid to",),
    "Impose_embargo,_boycott,_or_sanctions": ("sanctions against",),
    "Bring_lawsuit_against": ("lawsuit against",),
}

_VOWELS = "aeiou"
_NO_DOUBLE = {"open", "visit", "offer", "enter", "order", "differ", "limit", "edit", "exit"}


def gerund(verb: str) -> str:
    """The -ing form of one English verb ("make" -> "making", "plan" -> "planning")."""
    v = verb.lower()
    if v in ("be", "see", "flee", "agree"):
        return v + "ing"
    if v.endswith("ie"):
        return v[:-2] + "ying"
    if v.endswith("e") and not v.endswith(("ee", "ye", "oe")):
        return v[:-1] + "ing"
    if (len(v) <= 4 and len(v) >= 3 and v not in _NO_DOUBLE and v[-1] not in _VOWELS + "wxy"
            and v[-2] in _VOWELS and v[-3] not in _VOWELS):
        return v + v[-1] + "ing"
    return v + "ing"


# Passive participle phrases ("Japan was {pp} by Iran") for relations whose phrases do not
# passivise word for word ("express intent to negotiate with"): an exact paraphrase that does.
_PASSIVE: dict[str, str] = {
    "Express_intent_to_meet_or_negotiate": "offered talks",
    "Express_intent_to_cooperate": "offered cooperation",
    "Express_intent_to_cooperate_economically": "offered economic cooperation",
    "Express_intent_to_provide_economic_aid": "promised economic aid",
    "Express_intent_to_provide_material_aid": "promised material aid",
    "Make_optimistic_comment": "spoken positively about",
    "Make_pessimistic_comment": "spoken pessimistically about",
    "Make_empathetic_comment": "offered condolences",
    "Provide_humanitarian_aid": "sent humanitarian aid",
    "Provide_aid": "given aid",
    "Provide_economic_aid": "given economic aid",
    "Provide_military_aid": "given military aid",
    "Meet_at_a_'third'_location": "met at a third location",
    "Impose_embargo,_boycott,_or_sanctions": "sanctioned",
    "Give_ultimatum": "given an ultimatum",
    "Grant_asylum": "granted asylum",
    "Grant_diplomatic_recognition": "recognized",
    "Demand": "pressed with demands",
    "Engage_in_diplomatic_cooperation": "worked with diplomatically",
    "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)": "promised diplomatic support",
    "Occupy_territory": "occupied",
}
_PARTICIPLE = {"held": "held", "sought": "sought", "spoke": "spoken", "took": "taken", "gave": "given",
               "broke": "broken", "beat": "beaten", "forgave": "forgiven", "did": "done", "was": "been"}
_PASSIVE_PREP = {"to", "with", "on", "about", "for", "against", "into", "from", "of", "at", "up", "down", "free"}


def participle(past: str) -> str:
    """The past participle phrase of a past-tense phrase ("spoke highly of" -> "spoken highly of")."""
    first, _, rest = past.partition(" ")
    return _PARTICIPLE.get(first, first) + (" " + rest if rest else "")


def _passivises(past: str) -> bool:
    """A verb alone or with one particle/preposition: "visited", "called on", "turned down"."""
    w = past.split()
    return len(w) == 1 or (len(w) == 2 and w[1] in _PASSIVE_PREP)


def passive_participle(relation: str, past: str) -> str:
    """How ``relation`` reads in the passive ("Japan was {pp} by Iran"): the chosen phrase
    when it passivises, else another of the relation's phrases that does, else a hand-written
    exact paraphrase (:data:`_PASSIVE`), else the chosen phrase's participle."""
    if _passivises(past):
        return participle(past)
    for _base, other in phrasings_dev._REL.get(relation, ()):
        if _passivises(other):
            return participle(other)
    return _PASSIVE.get(relation) or participle(past)


def _with_forms(relation: str, p: RelPhrase, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    first, _, rest = p.base.partition(" ")
    ger = gerund(first) + (" " + rest if rest else "")
    noms = _NOM.get(relation)
    nom = pick(noms) if noms else ger
    pp = passive_participle(relation, p.past)
    return RelPhrase(_W(p.base, ger=ger, nom=nom, pp=pp), _W(p.past, ger=ger, nom=nom, pp=pp))


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    p = phrasings_dev.relation_surface(relation, pick) or relation_phrase(relation)
    return _with_forms(relation, p, pick)


entity_surface = phrasings_dev.entity_surface

__all__ = ["TEMPLATES", "TIME_STYLES", "WORDS", "entity_surface", "gerund", "passive_participle", "relation_surface"]
