"""The antecedent of a pronoun: which name of the other clause it stands for (nlu13).

A question with two clauses often writes a name of one clause again as a pronoun in the
other ("When did the Democratic Party first criticise Ugandan citizens after the court eased
sanctions against **them**?"). English picks the antecedent by agreement first: "he" / "him"
/ "his" and "she" / "her" are one person (of that gender), "it" / "its" a country, an
organisation or a singular institution, "they" / "them" / "their" a group of people
("citizens", "the police"), an organisation, or (singular "they") one person of a sector role.
Among the names that agree, the caller's order decides (its own rule for the likelier slot:
the subject of the asked event, or the reference's object for a pro-form).

The features come from the KG name and the question's surface: a ``Sector_(Place)`` actor is
a group, a person or an institution by its sector (table ``data/agreement.tsv``), a plural
head noun in the surface ("Ugandan citizens", "the courts of Mauritius") is a group, a place
is a country, a plain name with an organisation word ("Democratic_Party") an organisation,
and one whose first word is a known given name a person of that gender. A plain name with
none of these is *unknown*: it agrees with every pronoun as well as a known match of no
stated gender (refs16), so the caller's order decides between them. A definite description
("the fund", "the bank") agrees with a name that has its noun among the KG name's own words
(the sector's for an actor: refs17), "the country" with a country only.

SCoP (``methods/scop/symbolic.py``) and TCC-RAG (``methods/tccrag``) both pick antecedents
through :func:`antecedent`; before, each had its own "nearest plural / first non-actor" rules.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from typing import Sequence

from .actors import decompose, place_lexicon
from .text import data_lines

# a pronoun's agreement class: "m" / "f" (a person), "it" (one thing), "they" (a group)
PRONOUN_CLASS = {
    "he": "m", "him": "m", "his": "m", "himself": "m",
    "she": "f", "her": "f", "hers": "f", "herself": "f",
    "it": "it", "its": "it", "itself": "it",
    "they": "they", "them": "they", "their": "they", "theirs": "they", "themselves": "they",
}
PRONOUN_RE = re.compile(r"\b(?:" + "|".join(sorted(PRONOUN_CLASS, key=len, reverse=True)) + r")\b", re.I)
# plural heads without an "-s" and the "-s" words that are no plurals
_PLURAL_HEADS = {"police", "people", "men", "women", "children", "fishermen", "french", "british", "dutch", "swiss", "chinese",
                 "japanese", "lebanese", "sudanese", "vietnamese", "portuguese", "congolese", "irish", "welsh"}
# collective nouns, referred back to as "it" or "they" ("the Russian military ... it")
_COLLECTIVE_HEADS = {"military", "media", "personnel", "staff", "clergy", "youth", "public", "army", "business"}
_NOT_PLURAL = {"news", "affairs", "congress", "status", "bus", "us", "is", "its", "this", "has", "was", "as"}


@dataclass(frozen=True, slots=True)
class Features:
    """What a name agrees with: ``kind`` is "person", "group", "collective" (a collective noun,
    "the military": "it" or "they"), "country", "org" or "unknown";
    ``gender`` "m" / "f" for a person with a known given name; ``role``: a person written as a
    sector role ("Egypt's head of government"), which may also be referred back to as "they"."""

    kind: str
    gender: str | None = None
    role: bool = False
    words: frozenset[str] = frozenset()  # the name's own words ("fund" of the IMF): :data:`DESCRIPTION_RE`
    plural: bool = False  # a plural head in the surface ("international organisations"): :func:`plural_surface`
    actor: bool = False  # a KG ``Sector_(Place)`` actor (its words are the sector's)


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for cols in data_lines("agreement.tsv"):
        kind, value = cols[:2]
        out.setdefault(kind.strip(), set()).add(value.strip().casefold())
    return out


def organisation_words() -> frozenset[str]:
    """Words that make a plain KG name an organisation's (``org`` rows of ``data/agreement.tsv``:
    party, brigade, court, ...): such a name is no person's (``nlu.names``) and takes "it"."""
    return frozenset(_table().get("org", ()))


def plural_surface(surface: str) -> bool:
    """True when the surface's head noun is plural: the last word, or the word before "of"
    ("the courts of Mauritius", "Ugandan citizens", "Venezuelans", "the Swedish police")."""
    w = _head(surface)
    if not w:
        return False
    if re.search(r"\b[A-Z]{2,}s$", surface.split(" of ")[0].strip()):  # an acronym's plural: "MPs", "NGOs"
        return True
    if w in _PLURAL_HEADS:
        return True
    return len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")) and w not in _NOT_PLURAL


def _head(surface: str) -> str:
    """The head noun of a surface: its last word, or the word before "of"."""
    words = [w for w in re.findall(r"[a-z'’-]+", surface.lower().split(" of ")[0]) if w not in ("the", "a", "an")]
    return re.sub(r"['’]s?$", "", words[-1]) if words else ""


@functools.lru_cache(maxsize=8192)
def features(surface: str, name: str) -> Features:
    """The agreement features of a name written as ``surface`` with KG name ``name``."""
    actor = decompose(name)
    own = actor.sector if actor is not None else name
    return dc_replace(_features(surface, name), words=frozenset(w.casefold() for w in re.findall(r"[^\W_]+", own)),
                      plural=plural_surface(surface), actor=actor is not None)


def _features(surface: str, name: str) -> Features:
    t = _table()
    actor = decompose(name)
    if actor is not None:
        sector = actor.sector.replace(" ", "_").casefold()
        if _head(surface) in _COLLECTIVE_HEADS and not plural_surface(surface):
            return Features("collective")
        if plural_surface(surface) or sector in t.get("plural", ()):
            return Features("group")
        if sector in t.get("person", ()):
            return Features("person", role=True)
        return Features("org")
    plain = name.replace("_", " ")
    if place_lexicon().is_place(plain) or place_lexicon().is_place(surface):
        return Features("country")
    words = [w.casefold() for w in re.findall(r"[\w'’-]+", plain)]
    if any(w in t.get("org", ()) for w in words):
        return Features("org")
    if words and words[0] in t.get("female", ()):
        return Features("person", "f")
    if words and words[0] in t.get("male", ()):
        return Features("person", "m")
    if plural_surface(surface) and len(words) == 1:
        return Features("group")
    return Features("unknown")


# a definite description that refers back to a country of the other clause ("before Human Rights
# Watch visited **the country**"): it agrees with a country only (class "country")
# ("... the same year Bolivian farm workers demonstrated **there**": a place adverb ending the
# clause stands for a country the same way, refs18)
# a place adverb ending a clause ("... demonstrated **there**", "had Z last gone **there**?"): one
# pattern for nlu's reference and asked clauses and TCC-RAG's slots
_PLACE_ADVERB = r"\bthere\b(?=\s*(?:[,.;:?!]|$))"
PLACE_ADVERB_RE = re.compile(f"({_PLACE_ADVERB})", re.I)  # group 1: the adverb, as a pronoun's
COUNTRY_ANAPHOR_RE = re.compile(
    r"\b(?:the|that|this)\s+(?:same\s+)?(?:country|nation)\b(?!\s*['’]s?\b)|" + _PLACE_ADVERB, re.I)


# a definite description that refers back to a name of the other clause by a word of that
# name, its head noun as a rule ("before Serbia's central bank spoke about **the fund**": the
# International Monetary Fund; "the council", "the bank"); lower case, so no name itself, and
# no possessor or head of a longer noun phrase ("the fund's director", "the bank of ...")
DESCRIPTION_RE = re.compile(r"\b(?i:the|that|this)\s+(?P<noun>[a-z]{3,})\b(?!\s*['’]s?\b|\s+of\b)")


def _class_of(pronoun: str) -> str | None:
    """A pronoun's agreement class (:data:`PRONOUN_CLASS`), "country" for "the country",
    "description" for another definite description (:data:`DESCRIPTION_RE`)."""
    if COUNTRY_ANAPHOR_RE.fullmatch(pronoun.strip()):
        return "country"
    if DESCRIPTION_RE.fullmatch(pronoun.strip().casefold()):
        return "description"  # (in either case: "with the Fund" agrees by its word, refs22)
    return PRONOUN_CLASS.get(pronoun.casefold())


def agreement(pronoun: str, f: Features) -> int:
    """How well a pronoun agrees with a name: 0 not at all, 1 possibly (an organisation as
    "they", a plural-written one as "it"), 2 well (an unknown name; a sector role as singular
    "they" too), 3 a person of the pronoun's known gender, a group ("citizens", "the police")
    or a sector role written in the plural ("Indian MPs") as "they": English reads "they" as
    plural first, so "the attorney general criticised the police before **they** released X"
    is the police (refs18).
    "the country" (:data:`COUNTRY_ANAPHOR_RE`) agrees with a country only."""
    c = _class_of(pronoun)
    if c == "country":
        return 2 if f.kind == "country" else 0
    if c == "description":  # a word of the name's own (refs17), or a newspaper's title word (refs24)
        d = DESCRIPTION_RE.fullmatch(pronoun.strip().casefold())
        noun = d.group("noun")
        if noun in f.words or _press(noun, f):
            return 2
        if _generic_org(noun, f):
            return 1
        return 1 if _demonstrative_org(d.group(0), noun, f) else 0
    if c is None:
        return 0
    if f.kind == "unknown":
        # (as well as a known match of no gender: a name we know nothing of may be that very
        # person or organisation -- "Denis Napthine ... he", "Human Rights Watch ... it" -- and
        # then the caller's order, the more salient slot, decides, not our ignorance of it)
        return 2
    if c in ("m", "f"):
        if f.kind != "person":
            return 0
        return 3 if f.gender == c else (0 if f.gender else 2)
    if c == "it":
        # an organisation written in the plural ("international organisations") is "they"
        return (1 if f.plural else 2) if f.kind == "org" else (2 if f.kind in ("country", "collective") else 0)
    if f.kind == "group":  # the plain reading of "they", above a singular "they" (refs18)
        return 3
    if f.kind == "collective":
        return 2
    if f.role:  # singular "they" for a person of no stated gender ("the chief of staff ... them");
        return 3 if f.plural else 2  # written in the plural ("Indian MPs"), a group
    return (2 if f.plural else 1) if f.kind == "org" else 0


def _demonstrative_org(desc: str, noun: str, f: Features) -> bool:
    """True when a demonstrative ("that / this") before an organisation noun points back to an
    organisation whose name has no such word ("after **that party** made a statement": the
    Democratic Union of Hungarians in Romania); "the" + noun needs the name's own word, a
    demonstrative is anaphoric by itself (refs25)."""
    return desc.startswith(("that ", "this ")) and f.kind == "org" and noun in organisation_words()


def _generic_org(noun: str, f: Features) -> bool:
    """True when "the <noun>" is a generic noun of organised groups ("the group", "the
    movement", "the organisation": ``group_noun`` rows of ``data/agreement.tsv``) and the name a
    plain one (no sector actor, no place, no person) that is an organisation or of unknown kind:
    "... before the MILF denounced **the group**" (Abu Sayyaf). A weaker agreement than a word
    of the name's own (refs31)."""
    return noun in _table().get("group_noun", ()) and not f.actor and f.kind in ("org", "unknown")


def _press(noun: str, f: Features) -> bool:
    """True when "the <noun>" is a newspaper description ("the paper") and the name a plain
    one with a newspaper title word ("Times_of_Zambia"; ``press_*`` rows of ``data/agreement.tsv``)."""
    t = _table()
    return noun in t.get("press_noun", ()) and f.kind in ("unknown", "org") and bool(f.words & t.get("press_title", set()))


def antecedent(pronoun: str, candidates: Sequence[tuple[str, str]]) -> int | None:
    """The index of the candidate (surface, KG name) the pronoun stands for: the best agreeing
    one, the first in the caller's order among equals; None when none agrees (the pronoun
    stands for no name: "before a US envoy demanded **them**" -- the talks, not Iran)."""
    best, pick = 0, None
    for k, (surface, name) in enumerate(candidates):
        s = agreement(pronoun, features(surface, name))
        if s > best:
            best, pick = s, k
    return pick


# an object pronoun of a reference clause ("before X threatened them", "in the year X expressed a
# wish to meet him"); not a passive agent ("once X was arrested by them": the asked event's doer
# acting, the parallel reading) nor a cleft / relative head ("it that"), nor the subject of a
# reported clause ("before ASEAN said **it** wanted to meet with them": ASEAN itself, refs16).
# A possessive "on its / their / his behalf" is the object of the action done for it ("rallied
# support on its behalf": CAMEO's Rally_support_on_behalf_of, refs16).
_REPORTED = r"(?<!\bsaid )(?<!\bsays )(?<!\bsay )(?<!\bstated )(?<!\bannounced )(?<!\bclaimed )(?<!\bdeclared )"
OBJECT_PRONOUN_RE = re.compile(
    r"(?<!\bby )" + _REPORTED + r"\b(them|it|him|her|(?<=\bon )(?:its|their|his)(?=\s+behalf\b))\b(?!\s+(?:that|who|which)\b)",
    re.I)
# a possessive pronoun before a noun, after a reference clause's verb: "occupied **his**
# territory", "turned down **their** proposal to meet". When the noun is one the CAMEO action
# is written with (Occupy_territory, Reject_proposal_to_meet: the caller checks), the
# possessor is the action's patient, like an object pronoun (refs19)
POSSESSIVE_PATIENT_RE = re.compile(r"\b(his|her|its|their)\s+(?:own\s+)?(?P<noun>[a-z]+)\b", re.I)
# a subject pronoun opening a reference clause, after the cue and an optional relative word:
# "on the day **it** said it would cooperate with Iraq", "before **he** negotiated with X";
# or the possessive of a nominal event, its doer ("prior to **their** statement about X",
# "before **his** visit to X": refs18)
SUBJECT_PRONOUN_RE = re.compile(
    r"\s*(?:(?:that|when|in\s+which|on\s+which)\s+)?(he|she|it|they|(?:his|her|its|their)(?=\s+[a-z]))\b", re.I)


def opening_pronoun(text: str) -> str | None:
    """The subject pronoun a clause's text (from its cue on) opens with, or None."""
    m = SUBJECT_PRONOUN_RE.match(text)
    return m.group(1) if m else None


__all__ = ["COUNTRY_ANAPHOR_RE", "DESCRIPTION_RE", "Features", "organisation_words", "OBJECT_PRONOUN_RE", "POSSESSIVE_PATIENT_RE", "SUBJECT_PRONOUN_RE", "opening_pronoun", "PRONOUN_CLASS", "PRONOUN_RE", "agreement", "antecedent", "features", "plural_surface"]
