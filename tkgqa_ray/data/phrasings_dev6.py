"""The ``dev6`` phrasing set: a sixth *development* set for question understanding (issue #10),
written by helper dev6 without reading ``tkgqa_ray/nlu``, the methods' parsers, the blind sets
or any other set's templates / relation tables (only the generator's mechanism, the dev3 actor
API and docs/data.md's question semantics).

Focus: the two ranked multi-event types **after_first** and **before_last** (variants
``xr_subj`` / ``xr_obj`` / ``xr_time``; one template serves both types, the direction and the
rank words come from the spec), secondarily **first_last**. Shapes, varied so no frame
dominates:

- the reference as a bare actor / ellipsis ("After Kenya, who was the first to visit Iran?",
  "… after Kenya did", "… after Iran was"), a full clause, a pluperfect clause ("once Kenya
  had visited Iran"), a passive clause ("after it had been visited by Kenya"), a
  nominalisation or possessive ("in the wake of Kenya's visit to Iran", "the visit to Iran by
  Kenya"), a gerund ("after visiting Iran"), its own sentence with an anaphor ("Kenya visited
  Iran. Who was the next to do so?"); the reference first, last or in the middle;
- rank words: "the first", "the earliest", "the very first", "next", "soonest", "the last",
  "the latest", "the most recent", "the final", "the previous one", "most recently", "for the
  first/last time", "initial"/"most recent" as noun modifiers; "among those who …, who was …";
- cue words: "after", "following", "since", "in the wake of", "subsequent to", "once",
  "since then", "afterwards"; "before", "prior to", "ahead of", "in the run-up to",
  "leading up to", "preceding", "in the period before", "prior to the moment";
- answers as subject, object, passive agent ("Who was Iran first visited by after …",
  "By whom …") or relative clause ("the first actor that China visited after …"); time
  answers at day / month / year ("On what date …", "In which month …", "What year …",
  "What was the month of China's first visit to Japan after …", "… When was that?");
- frames: plain wh, in-situ wh, wrapped ("Could you tell me …", "I'd like to know …", "Do you
  know …", "I wonder …"), imperatives ("Name …", "Identify …", "Tell me …"), some ending in a
  full stop;
- head nouns: "Which country" only when every gold answer is a country (``answer_slots``),
  else "actor" / "party".

Relations come from this set's own table ``phrasings_dev6.yaml`` (97 CAMEO relations, 98% of
the real KG's facts, 1-3 paraphrases each with passive and event-noun forms, e.g. "want to negotiate with", "hold
talks with", "receive a visit from" for Host_a_visit with its direction kept); other relations
fall back to ``lexicon.relation_phrase`` with forms made by rule. Actors are written with the
dev3 actor tables (``phrasings_dev3.entity_surface``). Gold comes from the oracle over KG
names. Not blind once measured.
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

_DATA_PATH = Path(__file__).with_name("phrasings_dev6.yaml")
_PREPS = {"to", "with", "against", "of", "on", "for", "about", "by", "from", "at", "in", "into", "toward"}
# irregular forms the shared conjugator lacks (verb -> past, participle)
_IRREG = {"go": ("went", "gone"), "slam": ("slammed", "slammed"), "hit": ("hit", "hit"),
          "strike": ("struck", "struck"), "shoot": ("shot", "shot")}


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev6")


def conjugate(phrase: str, kind: str) -> str:
    """past / part / ing of a verb phrase (the first word is the verb)."""
    words = phrase.split()
    if words[0] in _IRREG and kind in ("past", "part"):
        words[0] = _IRREG[words[0]][0 if kind == "past" else 1]
        return " ".join(words)
    return phrasings_dev3.conjugate(phrase, kind)


def _forms(base: str, passive: str | None, noun: str | None) -> dict[str, str]:
    ger, part = conjugate(base, "ing"), conjugate(base, "part")
    if passive is None:
        words = base.split()
        if len(words) == 1 or (len(words) == 2 and words[1] in _PREPS):
            passive = f"{part} by"
        else:
            core = ger.split()
            if core[-1] in _PREPS:
                core = core[:-1]
            passive = f"the target of {' '.join(core)} by"
    ppx, _, agent = passive.rpartition(" ")
    return {"ger": ger, "part": part, "pp": passive, "ppx": ppx, "agent": agent,
            "nom": noun or f"act of {ger}"}


@lru_cache(maxsize=1)
def relation_table() -> dict[str, list[tuple[str, str, str]]]:
    data = yaml.safe_load(_DATA_PATH.read_text(encoding="utf-8"))
    return {rel: [tuple(row) for row in rows] for rel, rows in data.items()}


@lru_cache(maxsize=None)
def relation_forms(relation: str) -> list[RelPhrase]:
    """Every paraphrase of a KG relation: base / past ``_W`` carrying ``ger`` ("visiting"),
    ``part`` ("visited"), ``pp`` ("visited by"), ``ppx`` + ``agent``, ``nom`` ("visit to")."""
    rows = relation_table().get(relation)
    out = []
    if rows:
        for base, passive, noun in rows:
            f = _forms(base, passive, noun)
            out.append(RelPhrase(_W(base, **f), _W(conjugate(base, "past"), **f)))
        return out
    p = relation_phrase(relation)
    f = _forms(p.base, None, None)
    return [RelPhrase(_W(p.base, **f), _W(p.past, **f))]


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase:
    return pick(relation_forms(relation))


def entity_surface(display: str, pick: Callable[[Sequence[Any]], Any]) -> _W:
    return phrasings_dev3.entity_surface(display, pick)


def answer_slots(answers: Sequence[str], pick: Callable[[Sequence[Any]], Any]) -> dict[str, Any]:
    """``{head}``: "country" only when every gold answer is a country, else a generic noun."""
    countries = phrasings_dev3.tables()["countries"]
    if answers and all(a in countries for a in answers):
        return {"head": pick(("country", "actor"))}
    return {"head": pick(("actor", "party"))}


# ------------------------------------------------------------------------------ words

def _bw(s: str, n: str, ev: str, that: str) -> _W:
    """Cue before an actor / short NP (``bw``), ``n`` plain ("after"), ``ev`` before an event
    noun phrase, ``that`` an anaphoric adverbial ("after that")."""
    return _W(s, n=n, ev=ev, that=that, That=that[:1].upper() + that[1:])


def _rk(s: str, *, nx: str, pred: str, post: str, mod: str, nadv: str) -> _W:
    """A rank word (``the {fadj} to …``) and its other forms: ``nx`` predicate with article
    ("Who was next to …"), ``pred`` predicate ("who was first?"), ``post`` post-verbal adverb
    ("for the first time"), ``mod`` noun modifier ("the initial visit"), ``nadv`` adverb after
    the object ("visited Iran next")."""
    return _W(s, nx=nx, pred=pred, post=post, mod=mod, nadv=nadv)


WORDS: dict[str, tuple[Any, ...]] = {
    "after": (
        _bw("after", "after", "in the wake of", "after that"),
        _bw("following", "after", "following", "since then"),
        _bw("subsequent to", "after", "after", "afterwards"),
        _bw("after", "after", "subsequent to", "after that"),
    ),
    "before": (
        _bw("before", "before", "in the run-up to", "before that"),
        _bw("prior to", "before", "leading up to", "prior to that"),
        _bw("ahead of", "before", "before", "before then"),
        _bw("before", "before", "preceding", "before that"),
    ),
    "after_clause": (_W("after", had="once"), _W("since", had="after"), _W("after", had="after"),
                     _W("following the time", had="once")),
    "before_clause": (_W("before", had="before"), _W("prior to the moment", had="before"),
                      _W("in the period before", had="before"), _W("before", had="before")),
    "fadj_asc": (
        _rk("first", nx="next", pred="first", post="for the first time", mod="first", nadv="next"),
        _rk("earliest", nx="the first", pred="the earliest", post="for the first time", mod="earliest",
            nadv="first"),
        _rk("very first", nx="the next", pred="the very first", post="first", mod="initial", nadv="soonest"),
    ),
    "fadj_desc": (
        _rk("last", nx="the last", pred="last", post="for the last time", mod="last", nadv="last"),
        _rk("most recent", nx="the most recent one", pred="the most recent", post="most recently",
            mod="most recent", nadv="most recently"),
        _rk("latest", nx="the previous one", pred="the latest", post="for the last time", mod="latest",
            nadv="last"),
        _rk("last", nx="the last", pred="the last", post="last", mod="final", nadv="last"),
    ),
    "fadv_asc": ("first",),
    "fadv_desc": ("last", "most recently"),
    "same_day": ("on the same day that", "on the very day that"),
    "same_month": ("in the same month that", "during the same month that"),
    "same_year": ("in the same year that", "during the same year in which"),
    "when_day": ("On what date", "On which day", "What day"),
    "when_month": ("In which month", "In what month", "Which month"),
    "when_year": ("In which year", "What year", "In what year"),
}
TIME_STYLES = ("text", "text_dmy")


# ------------------------------------------------------------------------------ templates

TEMPLATES: list[Template] = [
    # -- focus: after_first / before_last ------------------------------------------------
    *_t("xr_subj",
        "{bw} {A}, who was the {fadj} to {rb} {O}?",
        "Who {fadv} {rp} {O} {bwc} {A} did?",
        "Who was {fadj.nx} to {rb} {O} {bw} {A}?",
        "{A} {rp} {O}. Who was the {fadj} to do so {bw.that}?",
        "Name the {fadj} {head} that {rp} {O} {bw.ev} {A.pos} {rb.nom} {O.it}.",
        "Who {O.be} {O} {fadv} {rb.pp} {bwc.had} {O.they} had been {rb.pp} {A}?",
        "Could you tell me who {rp} {O} {fadj.post} {bw.ev} {A.pos} {rb.nom} {O.it}?",
        "I'd like to know which {head} was the {fadj} to {rb} {O} {bwc.had} {A} had {rb.part} {O.it}.",
        "Do you know who {rp} {O} {fadj.nadv} {bw} {A}?",
        "{bw.ev} the {rb.nom} {O} by {A}, who {rp} {O.it} {fadj.nadv}?",
        "Among those who {rp} {O} {bwc} {A} did, who was {fadj.pred}?",
        "Who, {bw} {A}, {fadv} {rp} {O}?",
        "{rb.agent} whom {O.be} {O} {fadv} {rb.ppx} {bw.ev} {A.pos} {rb.nom} {O.it}?",
        "Identify the {fadj} {head} to {rb} {O} {bwc} {A} {rp} {O.it}.",
        "I wonder who {fadv} {rp} {O} {bwc} {A} {rp} {O.it}.",
        "{A} {rp} {O}. {bw.That}, who {fadv} {rp} {O.it}?",
        "{bw} {A}, who was {fadj.pred} to {rb} {O}?",
        "{bwc} {A} {rp} {O}, who was the {fadj} to {rb} {O.it}?",
        "Which {head} was {fadj.nx} {bw} {A} to {rb} {O}?",
    ),
    *_t("xr_obj",
        "{bw} {A}, who did {S} {fadv} {rb}?",
        "Who did {S} {rb} {fadj.nadv} {bw.n} {rb.ger} {A}?",
        "Name the {fadj} {head} {S} {rp} {bw.ev} {S.its} {rb.nom} {A}.",
        "Who was {fadv} {rb.pp} {S} {bwc} {A} {A.be}?",
        "{S} {rp} {A}. Who was the {fadj} {head} {S.they} {rp} {bw.that}?",
        "I'd like to know whom {S} {fadv} {rp} {bwc} {S.they} {rp} {A}.",
        "{bw.ev} {S.pos} {rb.nom} {A}, who was the {fadj} to be {rb.pp} {S.it}?",
        "Could you tell me the {fadj} {head} that {S} {rp} {bw} {A}?",
        "{S} {fadv} {rp} whom {bwc.had} {S.they} had {rb.part} {A}?",
        "Do you know who {S} {rp} {fadj.post} {bw.ev} {S.its} {rb.nom} {A}?",
        "Which {head} was the {fadj} to be {rb.pp} {S} {bwc.had} {A} had been?",
        "Tell me who {S} {rp} {fadj.nadv} {bw} {A}.",
        "Of all the parties {S} {rp} {bwc} {S.they} {rp} {A}, which one was {fadj.pred}?",
        "{bw} {A}, whom did {S} {rb} {fadj.post}?",
        "Whom did {S} {rb} {fadj.nadv}, {bw} {A}?",
        "{A} {A.be} {rb.pp} {S}. Who was the {fadj} to be {rb.pp} {S.it} {bw.that}?",
    ),
    *_t("xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. {When} did {S} {fadv} {rb} {O} {bw.that}?",
        "What was the {unit} of {S.pos} {fadj.mod} {rb.nom} {O} {bw.ev} {AS.pos} {arb.nom} {AO}?",
        "I'd like to know the {unit} when {O} {O.be} {fadv} {rb.pp} {S} {bwc} {AS} {arp} {AO}.",
        "{S} {rp} {O} {fadj.post} {bw.ev} the {arb.nom} {AO} by {AS}. {When} was that?",
        "Do you know {when_lc} {S} {rp} {O} {fadj.nadv} {bwc.had} {AS} had {arb.part} {AO}?",
        "Could you tell me the {unit} of the {fadj} {rb.nom} {O} by {S} {bw.ev} {AS.pos} {arb.nom} {AO}?",
        "{bw.ev} {AS.pos} {arb.nom} {AO}, {when_lc} did {S} {fadv} {rb} {O}?",
        "Give me the {unit} of the {fadj} time {S} {rp} {O} {bwc} {AO} {AO.be} {arb.pp} {AS}.",
        "{When} {O.be} {O} {fadv} {rb.pp} {S} {bwc} {AS} {arp} {AO}?",
        "{When} did {S} {rb} {O} {fadj.post} {bw.ev} {AS.pos} {arb.nom} {AO}?",
        "{bwc} {AS} {arp} {AO}, when was the {fadj} time {S} {rp} {O}? Answer with the {unit}.",
        "When did {S} {fadv} {rb} {O} {bw.ev} {AS.pos} {arb.nom} {AO}? Please give the {unit}.",
        "{S.pos} {fadj.mod} {rb.nom} {O} {bw.ev} the {arb.nom} {AO} by {AS} took place {when_lc}?",
    ),
    # -- secondary: first_last -------------------------------------------------------------
    *_t("fl_subj",
        "Who was the {fadj} to {rb} {O}?",
        "Who {fadv} {rp} {O}?",
        "Name the {fadj} {head} that {rp} {O}.",
        "Who {O.be} {O} {fadv} {rb.pp}?",
        "Of everyone who {rp} {O}, who was {fadj.pred}?",
        "Could you tell me who {rp} {O} {fadj.post}?",
    ),
    *_t("fl_obj",
        "Who did {S} {fadv} {rb}?",
        "Which {head} was the {fadj} to be {rb.pp} {S}?",
        "I'd like to know whom {S} {rp} {fadj.post}.",
        "The {fadj} {head} that {S} {rp}: who was it?",
        "Do you know who was {fadv} {rb.pp} {S}?",
    ),
    *_t("fl_time",
        "{When} did {S} {fadv} {rb} {O}?",
        "What was the {unit} of {S.pos} {fadj.mod} {rb.nom} {O}?",
        "Tell me the {unit} when {O} {O.be} {rb.pp} {S} {fadj.post}.",
        "{S} {rp} {O} {fadj.post}. {When} was that?",
    ),
    # -- the other variants: two or three each ----------------------------------------------
    *_t("eq_obj_time",
        "Who did {S} {rb} {inT}?",
        "{InT}, which {head} did {S} {rb}?",
    ),
    *_t("eq_subj_time",
        "Who {rp} {O} {inT}?",
        "Could you tell me which {head} {rp} {O} {inT}?",
    ),
    *_t("eq_time",
        "{When} did {S} {rb} {O}?",
        "Tell me when {S} {rp} {O}; give the {unit}.",
    ),
    *_t("ba_subj_event",
        "Who {rp} {O} {bw.n} {A} did?",
        "{bw.n} {A.pos} {rb.nom} {O}, who {rp} {O.it}?",
    ),
    *_t("ba_obj_event",
        "Who did {S} {rb} {bw.n} {rb.ger} {A}?",
        "Name the parties {S} {rp} {bwc} {S.they} {rp} {A}.",
    ),
    *_t("ba_obj_time",
        "Who did {S} {rb} {bw.n} {T}?",
        "{bw.n} {T}, which {head} did {S} {rb}?",
    ),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw.n} {T}?",
        "I'd like to know who {rp} {O} {bw.n} {T}.",
    ),
    *_t("em_obj_event",
        "Who did {S} {rb} {same} {AS} {arp} {AO}?",
        "{same} {AO} {AO.be} {arb.pp} {AS}, whom did {S} {rb}?",
    ),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "Which {head} {rp} {O} {same} {AS} {arp} {AO}?",
    ),
    *_t("em_obj_offset",
        "Who did {S} {rb} exactly {Nd} {bw.n} {AS} {arp} {AO}?",
        "{AS} {arp} {AO}. Exactly {Nd} {bw.n} that, whom did {S} {rb}?",
    ),
]
