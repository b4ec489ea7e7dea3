"""The ``dev4`` phrasing set: a fourth *development* set for question understanding (issue #10),
written without reading ``tkgqa_ray/nlu``, the methods' parsers or the blind sets. It targets
the two ranked multi-event types, **after_first** (the earliest event of a kind after a
reference event) and **before_last** (the latest one before it), in shapes the earlier dev sets
did not write; the single-event types get two templates per variant, only so every type can be
generated.

What varies (combined per template; see ``TEMPLATES``):

- the asked slot: subject, object, or the *time* ("When did X first …", "Which month saw X …",
  "What was the year of X's last visit to Y before …", "X last visited Y before …, in which
  year?");
- the ordinal: adjective ("the next to", "the very first", "the most recent", "the final"),
  pre-verbal adverb ("X next visited", "initially", "most recently"), post-posed adverb ("who
  visited Iran soonest after", "whom did X visit next after"), "for the first/last time",
  a ranked noun phrase ("the earliest visitor to Iran", "the previous critic of Israel",
  "X's first trip to Iran"), a relative clause ("the last country that X visited before");
- the frame: wh-questions, in-situ wh ("X first visited whom after …?", "The first visitor to
  Iran after Y was who?"), imperatives ("Name …", "Identify …", "List …", "Give …"),
  declaratives ("I want to know …", "I wonder …"), "Can you tell me / Do you know"; head
  nouns after "which/what" ("Which country", "Which Kenyan actor", "Which government body")
  chosen only when every gold answer is of that kind (``answer_slots``); a missing question
  mark; lower-case starts (a template text starting with ``~`` is not capitalised);
- the reference: a bare actor (MultiTQ's ellipsis), "Y did the same", "Y had", "Y had done so",
  a pluperfect clause, a passive pluperfect ("after Iran had been visited by Y"), a date-less
  event noun ("the Iranian threat against Israel", "Y's condemnation of Z", "the condemnation
  of Z by Y"), a two-sentence context ("Y visited Iran. Who was the next to do so after it?"),
  the reference first, last, or in the middle ("Who, after Y, was …"); cue words "in the wake
  of", "on the heels of", "since", "once", "subsequent to", "later/earlier than", "previous
  to", "preceding", "leading up to", "in the run-up to", "by the time", "ahead of";
- relations: new CAMEO-exact paraphrases in ``phrasings_dev4.yaml`` for the 44 most frequent
  relations (with passive, noun and agent-noun forms), dev3's table for the rest;
- actors: dev3's country and ``Sector (Country)`` forms, plus an attributive form ("the
  Iranian" in "the Iranian threat against Israel"; the possessive for non-countries).

Mechanics as in dev3: slot values are ``str`` subclasses (``_W``) with other forms as
attributes, read by templates through ``str.format`` attribute access. Gold comes from the
oracle over KG names; every surface names exactly one KG entity / relation, and a head noun
is used only when it is true of every gold answer, so restricting to it keeps the gold. Not
blind: the nlu authors study it.
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

_DATA_PATH = Path(__file__).with_name("phrasings_dev4.yaml")


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev4")


# ---------------------------------------------------------------------------- cue words
# A cue (before/after) is drawn per question; its forms fit different positions:
#   str  before a bare actor (MultiTQ's ellipsis "after the Danish ministry")
#   .np  before an event noun phrase ("in the wake of Iran's threat against Israel")
#   .cl  before a finite clause ("once Iran threatened Israel")
#   .cmp a comparative ("later than" / "earlier than")
#   .fol the verb "followed" / "preceded" ("who directly followed Y in visiting Iran" = the
#        earliest after Y; "directly preceded" = the latest before Y)
# Every form of an "after" cue means strictly after the reference ("since" only before a noun
# phrase, where it cannot read as "because"), every "before" form strictly
# before it ("by the time" only with a clause: the latest event by the time Y happened).

WORDS: dict[str, tuple[str, ...]] = {
    "after": (
        _W("after", np="in the wake of", cl="once", cmp="later than", fol="followed"),
        _W("following", np="on the heels of", cl="after", cmp="later than", fol="followed"),
        _W("subsequent to", np="after", cl="after", cmp="later than", fol="followed"),
        _W("after", np="since", cl="after", cmp="later than", fol="followed"),
        _W("later than", np="subsequent to", cl="following the moment", cmp="later than", fol="followed"),
        _W("after", np="in the aftermath of", cl="after", cmp="later than", fol="followed"),
    ),
    "before": (
        _W("before", np="in the run-up to", cl="by the time", cmp="earlier than", fol="preceded"),
        _W("prior to", np="previous to", cl="before", cmp="earlier than", fol="preceded"),
        _W("earlier than", np="ahead of", cl="before", cmp="earlier than", fol="preceded"),
        _W("before", np="preceding", cl="prior to the moment", cmp="earlier than", fol="preceded"),
        _W("ahead of", np="leading up to", cl="before", cmp="earlier than", fol="preceded"),
        _W("before", np="prior to", cl="previous to the time", cmp="earlier than", fol="preceded"),
    ),
    # {bwc} (unused by this set's templates; the generator fills it for every before/after)
    "after_clause": ("after",),
    "before_clause": ("before",),
    # the rank as an adjective ("the next to visit"); .mod before a noun ("the previous
    # visitor"); .occ an occasion noun phrase ("the next time"); .fl the same rank without a
    # reference event, for first_last ("next"/"previous" need one)
    "fadj_asc": (
        _W("first", mod="first", occ="the first time", fl="first"),
        _W("earliest", mod="earliest", occ="the earliest occasion", fl="earliest"),
        _W("very first", mod="very first", occ="the very first time", fl="very first"),
        _W("next", mod="next", occ="the next time", fl="first"),
    ),
    "fadj_desc": (
        _W("last", mod="last", occ="the last time", fl="last"),
        _W("latest", mod="previous", occ="the latest occasion", fl="latest"),
        _W("most recent", mod="most recent", occ="the most recent time", fl="most recent"),
        _W("last", mod="final", occ="the final time", fl="final"),
        _W("very last", mod="very last", occ="the previous time", fl="very last"),
    ),
    # the rank as a pre-verbal adverb; .post after the verb phrase; .time "for the first time"
    "fadv_asc": (
        _W("first", post="first", time="for the first time", fl="first"),
        _W("next", post="next", time="for the first time", fl="first"),
        _W("initially", post="soonest", time="for the first time", fl="first"),
        _W("first", post="earliest", time="for the first time", fl="first"),
    ),
    "fadv_desc": (
        _W("last", post="last", time="for the last time", fl="last"),
        _W("most recently", post="most recently", time="for the last time", fl="most recently"),
        _W("last", post="most recently", time="for the final time", fl="last"),
    ),
    "same_day": (_W("on the same day as", cl="on the day that"), _W("on the very day of", cl="on the very day")),
    "same_month": (_W("in the same month as", cl="in the month when"), _W("within the same month as", cl="in the same month when")),
    "same_year": (_W("in the same year as", cl="in the year when"), _W("within the same year as", cl="in the same year when")),
    # time asked: {When} "In which month"; .wh "which month" (subject/object of a verb); .insitu
    # "in which month" at the end of a declarative
    "when_day": (_W("On which date", wh="which day", insitu="on which date"),
                 _W("On what day", wh="what date", insitu="on what day"),
                 _W("When", wh="which date", insitu="on what date")),
    "when_month": (_W("In which month", wh="which month", insitu="in which month"),
                   _W("In what month", wh="what month", insitu="in what month"),
                   _W("When", wh="which month", insitu="in which month")),
    "when_year": (_W("In which year", wh="which year", insitu="in which year"),
                  _W("In what year", wh="what year", insitu="in what year"),
                  _W("When", wh="which year", insitu="in which year")),
}
TIME_STYLES = ("text", "text_dmy")


# ---------------------------------------------------------------------------- templates
# Slots as in phrasings.py / phrasings_dev3.py, plus {H}: a head noun true of every gold
# answer ({H.pl} plural); actor forms .attr; relation forms .part (past participle), .doer
# (agent noun + preposition). A template starting with "~" keeps its lower-case start.
# xr_subj: (?, r, O) vs reference (A, r, O); xr_obj: (S, r, ?) vs (S, r, A); xr_time: the time
# of (S, r, O) vs a full reference event (AS, ar, AO).

TEMPLATES: list[Template] = [
    # ---- after_first / before_last, subject asked
    *_t("xr_subj",
        "Who, {bw} {A}, was the {fadj} to {rb} {O}?",
        "{bw.cl} {A} did the same, who was the {fadj} to {rb} {O}?",
        "Name the {fadj.mod} {rb.doer} {O} {bw} {A}.",
        "Tell me who {rp} {O} {fadv.post} {bw.cl} {A} had.",
        "Which {H} was the {fadj} to {rb} {O} {bw.np} {A.pos} {arb.nom} {O.it}?",
        "{O} {O.be} {rp.pp} whom {fadv.post} {bw} {A}?",
        "I want to know which {H} {rp} {O} {fadv.post} {bw.cl} {A} had {arp.part} {O.it}.",
        "Do you know the {fadj} {H} to {rb} {O} {bw.cmp} {A}?",
        "{bw.np} {A.attr} {arb.nom} {O}, which {H} {rp} {O.it} {fadv.post}",
        "~who was the {fadj} {H} that {rp} {O} {bw.cl} {A} did?",
        "Identify the {H} that {fadv} {rp} {O} {bw} {A}.",
        "Can you tell me which {H} {O} {O.be} {fadv.post} {rp.pp} {bw.cl} {A} {arp} {O.it}?",
        "{bw.cl} {O} had been {arp.pp} {A}, who {rp} {O.it} {fadv.post}?",
        "Who is the {fadj} on record to have {rp.part} {O} {bw} {A}?",
        "The {fadj.mod} {rb.doer} {O} {bw} {A} was who?",
        "I wonder who {fadv} {rp} {O} {bw.cl} {A} had done so.",
        "List the {fadj} {H.pl} to {rb} {O} {bw} {A}.",
        "{A} {arp} {O}. Who was the {fadj} to do so {bw} {A.it}?",
        "{bw} {A}, the {fadj} to {rb} {O} was which {H}?",
        "~who {fadv} {rp} {O} {bw.np} the {arb.nom} {O.it} by {A}",
        "Which {H} was seen {rb.ger} {O} {fadv.post} {bw} {A}?",
        "Among those who {rp} {O} {bw} {A}, who was the {fadj}?",
        "Whose {rb.nom} {O} came {fadv.post} {bw} {A.pos}?",
        "Who directly {bw.fol} {A} in {rb.ger} {O}?",
        "What's the name of the {fadj.mod} {rb.doer} {O} {bw.cl} {A} {arp} {O.it}?",
        "Who came {fadv.post} {bw} {A} in {rb.ger} {O}?"),
    # ---- after_first / before_last, object asked
    *_t("xr_obj",
        "Which {H} did {S} {rb} {fadv.post} {bw} {A}?",
        "{S} {fadv} {rp} whom {bw} {A}?",
        "Whom did {S} {rb} {fadv.post} {bw.cl} {S.they} had {arp.part} {A}?",
        "What was the {fadj.mod} {H} {S} {rp} {bw} {A}?",
        "Name the {fadj.mod} {H} that {S} {rp} {bw.np} {S.its} {arb.nom} {A}.",
        "{S}, {bw} {A}, {fadv} {rp} which {H}?",
        "Tell me whom {S} {rp} {fadv.post} {bw.cl} {A} {A.be} {arp.pp} {S.it}",
        "{bw.np} {S.attr} {arb.nom} {A}, whom did {S.they} {rb} {fadv.post}?",
        "Which {H} was the {fadj} to be {rp.pp} {S} {bw.cmp} {A}?",
        "Identify the {H} {S} {rp} {fadv.post} {bw.cl} {S.they} {arp} {A}.",
        "{bw.cl} {S} {arp} {A}, what {H} did {S.they} {rb} {fadv.post}",
        "{S} {arp} {A}. Which {H} did {S.they} {rb} {fadv.post} {bw} that?",
        "~whom did {S} {rb} {fadv.post} {bw.cmp} {A}",
        "The {fadj.mod} {H} {S} {rp} {bw} {A}: which was it?",
        "List the {fadj} {H.pl} {S} {rp} {bw.np} {S.its} {arb.nom} {A}.",
        "Could you name the {fadj} {H} that was {rp.pp} {S} {bw.cl} {A} had been?",
        "Do you know who {S} {fadv} {rp} {bw} {A}?",
        "Among the {H.pl} {S} {rp} {bw} {A}, which was the {fadj}?",
        "Of all the {H.pl} {S} {rp} {bw.np} {S.its} {arb.nom} {A}, which came {fadv.post}?",
        "Find the {H} that {S} {rp} {fadv.post} {bw.cl} {A} had been {arp.pp} {S.it}.",
        "Please name the {H} {S} {fadv} {rp} {bw.cmp} {A}."),
    # ---- after_first / before_last, time asked (a full reference event)
    *_t("xr_time",
        "When did {S} {fadv} {rb} {O} {bw.cl} {AS} {arp} {AO}?",
        "{When.wh} did {S} {rb} {O} {fadv.post} {bw.np} {AS.attr} {arb.nom} {AO}?",
        "{S} {fadv} {rp} {O} {bw.cl} {AS} had {arp.part} {AO}, {When.insitu}?",
        "Tell me the {unit} {S} {rp} {O} {fadv.time} {bw.np} the {arb.nom} {AO} by {AS}.",
        "{When} was {S.pos} {fadj.mod} {rb.nom} {O} {bw} {AS.pos} {arb.nom} {AO}?",
        "{bw.cl} {AO} {AO.be} {arp.pp} {AS}, when did {S} {fadv} {rb} {O}?",
        "I want to know the {unit} of the {fadj.mod} {rb.nom} {O} by {S} {bw.np} {AS.pos} {arb.nom} {AO}.",
        "{When.wh} saw {S} {rb} {O} {fadv.post} {bw.cl} {AS} {arp} {AO}?",
        "Do you know {When.insitu} {S} {rp} {O} {fadv.time} {bw.cl} {AS} {arp} {AO}?",
        "{S} {rp} {O} {fadv.time} {bw.np} {AS.pos} {arb.nom} {AO} {When.insitu}?",
        "When was {fadj.occ} that {O} {O.be} {rp.pp} {S} {bw.cl} {AS} {arp} {AO}?",
        "Give the {unit} when {S} {fadv} {rp} {O} {bw.cl} {AS} had {arp.part} {AO}",
        "~when did {S} {fadv} {rb} {O} {bw.np} {AS.pos} {arb.nom} {AO}",
        "What was the {unit} of {S.pos} {fadj.mod} {rb.nom} {O} {bw.cl} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. {When} did {S} {fadv} {rb} {O} {bw} that?",
        "Can you tell me {When.insitu} {S}, {bw.np} {AS.pos} {arb.nom} {AO}, {fadv} {rp} {O}?",
        "Think of {fadj.occ} {S} {rp} {O} {bw.cl} {AO} had been {arp.pp} {AS}: what was the {unit}?",
        "{S.pos} {fadj.mod} {rb.nom} {O} {bw} {AS.pos} {arb.nom} {AO} happened {When.insitu}?",
        "When did the {rb.nom} {O} by {S} that directly {bw.fol} {AS.pos} {arb.nom} {AO} take place?",
        "Please give the {unit} of {fadj.occ} {S} {rp} {O} {bw.cl} {AS} {arp} {AO}."),
    # ---- single-event and equal_multi types: two templates each (the generator needs them)
    *_t("eq_obj_time",
        "Whom did {S} {rb} {inT}?",
        "{inT}, {S} {rp} which {H}?"),
    *_t("eq_subj_time",
        "Which {H} {rp} {O} {inT}?",
        "Tell me who {rp} {O} {inT}."),
    *_t("eq_time",
        "{When.wh} saw {S} {rb} {O}?",
        "{S} {rp} {O} {When.insitu}?"),
    *_t("ba_subj_event",
        "Which {H} {rp} {O} {bw.cl} {A} did the same?",
        "{bw} {A}, name who {rp} {O}."),
    *_t("ba_obj_event",
        "Whom did {S} {rb} {bw.cl} {S.they} had {arp.part} {A}?",
        "{S} {rp} which {H} {bw} {A}?"),
    *_t("ba_obj_time",
        "Whom did {S} {rb} {bw} {T}?",
        "{bw} {T}, {S} {rp} which {H}?"),
    *_t("ba_subj_time",
        "Which {H} {rp} {O} {bw} {T}?",
        "Tell me who {rp} {O} {bw} {T}."),
    *_t("fl_subj",
        "Name the {fadj.fl} {rb.doer} {O}.",
        "Which {H} {fadv.fl} {rp} {O}?"),
    *_t("fl_obj",
        "{S} {fadv.fl} {rp} which {H}?",
        "What was the {fadj.fl} {H} that {S} {rp}?"),
    *_t("fl_time",
        "When did {S} {fadv.fl} {rb} {O}?",
        "{When.wh} saw {S.pos} {fadj.fl} {rb.nom} {O}?"),
    *_t("em_obj_event",
        "Whom did {S} {rb} {same} {AS.attr} {arb.nom} {AO}?",
        "{same.cl} {AS} had {arp.part} {AO}, {S} {rp} which {H}?"),
    *_t("em_subj_event",
        "Which {H} {rp} {O} {same} {AS.attr} {arb.nom} {AO}?",
        "Tell me who {rp} {O} {same.cl} {AS} {arp} {AO}."),
    *_t("em_obj_offset",
        "Whom did {S} {rb} {Nd} {bw} {AS.pos} {arb.nom} {AO}?",
        "{Nd} {bw} {AS.attr} {arb.nom} {AO}, {S} {rp} which {H}?"),
]


# ---------------------------------------------------------------------------- verb morphology

_PAST = {**phrasings_dev3._PAST, "go": "went", "have": "had", "seek": "sought", "say": "said"}
_PART = {**phrasings_dev3._PART, "go": "gone", "have": "had", "seek": "sought", "say": "said"}
_DOUBLE = phrasings_dev3._DOUBLE | {"slam", "commit"}
_ADVERBS = phrasings_dev3._ADVERBS


def _inflect(verb: str, kind: str) -> str:
    if kind == "ing":
        if verb in _DOUBLE and not verb.endswith("e"):
            return verb + verb[-1] + "ing"
        if verb == "have":
            return "having"
        return phrasings_dev3._inflect(verb, "ing")
    table = _PAST if kind == "past" else _PART
    if verb in table:
        return table[verb]
    if verb in _DOUBLE:
        return verb + verb[-1] + "ed"
    return phrasings_dev3._inflect(verb, kind)


def conjugate(phrase: str, kind: str) -> str:
    """``"go on a visit to"`` -> past ``"went on a visit to"``, ``part`` ``"gone on a visit
    to"``, ``ing`` ``"going on a visit to"``; a leading adverb is skipped, "V or V" both
    inflected (as dev3)."""
    words = phrase.split()
    i = 1 if len(words) > 1 and words[0] in _ADVERBS else 0
    words[i] = _inflect(words[i], kind)
    if len(words) > i + 2 and words[i + 1] == "or":
        words[i + 2] = _inflect(words[i + 2], kind)
    return " ".join(words)


def _forms(base: str, passive: str | None, noun: str | None, doer: str | None) -> dict[str, str]:
    forms = phrasings_dev3._relation_forms(base, passive, noun)
    forms["ger"] = conjugate(base, "ing")
    forms["part"] = conjugate(base, "part")
    # an agent noun where the table has one, else "party to <base>" ("the first party to sue")
    forms["doer"] = doer or f"party to {base}"
    return forms


# ---------------------------------------------------------------------------- tables


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    """This set's relation table and head nouns (``phrasings_dev4.yaml``), parsed once."""
    with open(_DATA_PATH, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    relations: dict[str, list[tuple[str, str, dict[str, str]]]] = {}
    for rel, v in data["relations"].items():
        rows = []
        doers = v.get("doer") or [None]
        for i, base in enumerate(v["verbs"]):
            forms = _forms(base, v["passive"][i % len(v["passive"])], v["noun"][i % len(v["noun"])],
                           doers[i % len(doers)])
            rows.append((base, conjugate(base, "past"), forms))
        relations[rel] = rows
    return {"relations": relations, "heads": data["heads"], "body_sectors": set(data["body_sectors"]),
            "org_sectors": set(data["org_sectors"]),
            "not_countries": {n.replace("_", " ") for n in data["not_countries"]}}


# ---------------------------------------------------------------------------- actors


def actor_forms(display: str) -> list[_W]:
    """dev3's forms of the KG entity ``display`` plus ``.attr``: the country adjective with
    "the" for a plain country ("the Iranian" threat), else the possessive."""
    countries = phrasings_dev3.tables()["countries"]
    c = countries.get(display)
    attr = f"the {c['adj'][0]}" if c and c["adj"] else None
    return [_W(str(f), **f.__dict__, attr=attr or f.pos) for f in phrasings_dev3.actor_forms(display)]


def entity_surface(display: str, pick: Callable[[Sequence[Any]], Any]) -> _W:
    return pick(actor_forms(display))


# ---------------------------------------------------------------------------- relations


def relation_forms(relation: str) -> list[RelPhrase]:
    """Every paraphrase of the KG relation: this set's table, else dev3's, else the lexicon."""
    rows = tables()["relations"].get(relation)
    if not rows:
        rows3 = phrasings_dev3.tables()["relations"].get(relation)
        if rows3:
            rows = [(b, p, {**f, "ger": conjugate(b, "ing"), "part": conjugate(b, "part"),
                            "doer": f"party to {b}"}) for b, p, f in rows3]
        else:
            lex = relation_phrase(relation)
            rows = [(lex.base, lex.past, _forms(lex.base, None, None, None))]
    return [RelPhrase(_W(base, **forms), _W(past, **forms)) for base, past, forms in rows]


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    return pick(relation_forms(relation))


# ---------------------------------------------------------------------------- head nouns


def _kind(display: str) -> tuple[str, str | None]:
    """("country", None) for a plain country, ("sector", country) for a ``Sector (Country)``
    actor of a known country (("body", country) for a state institution, ("org", country) for
    another organisation), else ("other", None)."""
    t3 = phrasings_dev3.tables()
    if display in t3["countries"]:
        return ("other" if display in tables()["not_countries"] else "country"), None
    m = phrasings_dev3._SECTOR_RE.match(display)
    if m and m.group(2) in t3["countries"] and display not in t3["literal"]:
        sector = m.group(1).replace(" ", "_")
        t = tables()
        kind = "body" if sector in t["body_sectors"] else "org" if sector in t["org_sectors"] else "sector"
        return kind, m.group(2)
    return "other", None


def head_nouns(answers: Sequence[str]) -> list[_W]:
    """Head nouns true of every answer in ``answers`` (display names): "country" when all are
    plain countries; "government body" when all are state institutions; "organisation" when
    all are organisations; "Kenyan actor" ("Kenyan organisation") when all are sector actors
    (organisations) of Kenya; always the generic ones ("actor", "party", …)."""
    heads = tables()["heads"]
    out = [_W(h["sg"], pl=h["pl"]) for h in heads["generic"]]
    kinds = [_kind(a) for a in answers]
    if not kinds:
        return out
    if all(k == "country" for k, _ in kinds):
        out += [_W(h["sg"], pl=h["pl"]) for h in heads["country"]] * 2
    if all(k == "body" for k, _ in kinds):
        out += [_W(h["sg"], pl=h["pl"]) for h in heads["body"]]
    orgs = all(k in ("body", "org") for k, _ in kinds)
    if orgs:
        out += [_W(h["sg"], pl=h["pl"]) for h in heads["org"]]
    countries = {c for _, c in kinds}
    if all(k in ("sector", "body", "org") for k, _ in kinds) and len(countries) == 1:
        c = phrasings_dev3.tables()["countries"][countries.pop()]
        keys = {"adj": c["adj"][0] if c["adj"] else "", "C": c["name"]}
        for h in heads["national"] + (heads["national_org"] if orgs else []):
            if "{adj}" in h["sg"] and not c["adj"]:
                continue
            out += [_W(h["sg"].format(**keys), pl=h["pl"].format(**keys))] * 2
    return out


def answer_slots(answers: Sequence[str], pick: Callable[[Sequence[Any]], Any]) -> dict[str, Any]:
    """Slots that depend on the gold answers (only ``{H}``, a head noun true of all of them)."""
    return {"H": pick(head_nouns(answers))}
