"""Blind surface-form and phrasing set ``surface_blind`` (issue #10).

Written without reading the question-understanding code (``tkgqa_ray/nlu/``, the methods'
parsers) or the other people-like sets, to measure those parsers honestly on the way people
write about ICEWS events: actors paraphrased ("Sector (Country)" → adjective, possessive,
"of"/"in" forms, people nouns, sector synonyms), relations paraphrased (CAMEO event types →
everyday verbs), and questions wrapped in polite or indirect forms. **Authors of
``tkgqa_ray/nlu`` and of the methods' parsers must not read this file or its data file
``surface_blind.yaml``.**

Exports the phrasing-set interface of ``phrasings.py`` (``WORDS``, ``TIME_STYLES``,
``TEMPLATES``; ids ``surface_blind/<variant>/<i>``) plus the two surface renderers the
generator calls with its seeded ``pick``: :func:`entity_surface` and
:func:`relation_surface`. Tables (relations, places, groups, sectors) live in the YAML data
file and are parsed once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

import yaml

from tkgqa_ray.data.lexicon import RelPhrase
from tkgqa_ray.data.phrasings import Template

Pick = Callable[[Sequence[Any]], Any]

DATA_FILE = Path(__file__).with_name("surface_blind.yaml")


def _t(variant: str, *texts: str) -> list[Template]:
    return [Template(f"surface_blind/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


# ------------------------------------------------------------------------------ phrasings

WORDS: dict[str, tuple[str, ...]] = {
    # clause-introducing: always followed by a full clause or an elliptic "A did"
    "before_clause": ("before", "prior to the time", "before the time"),
    "after_clause": ("after", "following the time", "after the time"),
    # followed by a noun phrase (an entity, a date, or "that")
    "before": ("before", "prior to", "earlier than", "ahead of"),
    "after": ("after", "following", "later than", "subsequent to"),
    "fadj_asc": ("first", "earliest", "very first"),
    "fadj_desc": ("last", "latest", "most recent"),
    "fadv_asc": ("first",),
    "fadv_desc": ("last", "most recently"),
    "same_day": ("on the same day as", "on the same day that", "on the very day that", "on the day when"),
    "same_month": ("in the same month as", "in the same month that", "during the same month in which",
                   "in the month when"),
    "same_year": ("in the same year as", "in the same year that", "during the same year in which",
                  "in the year when"),
    "when_day": ("On which date", "On what date", "On which day", "On what day"),
    "when_month": ("In which month", "In what month", "During which month"),
    "when_year": ("In which year", "In what year", "During which year"),
    # interval kinds are not part of this set; kept so the table has the usual keys
    "allen_before": ("before",),
    "allen_after": ("after",),
    "allen_during": ("while",),
    "allen_contains": ("over a period spanning the whole time that",),
    "allen_meets": ("until exactly when the period began in which",),
    "allen_met_by": ("from exactly when the period ended in which",),
}
TIME_STYLES = ("text", "text_dmy")

TEMPLATES: list[Template] = [
    # equal: (S, r, ?) / (?, r, O) in an explicit period T; eq_time: every time of (S, r, O)
    *_t("eq_obj_time",
        "Who was it that {S} {rp} {inT}?",
        "Could you tell me who {S} {rp} {inT}?",
        "{InT}, which party did {S} {rb}?",
        "Do you know whom {S} {rp} {inT}?",
        "{InT}, {S} {rp} someone. Who was it?",
        "Tell me which actor {S} {rp} {inT}.",
        "Any idea who {S} {rp} {inT}?"),
    *_t("eq_subj_time",
        "Who was it that {rp} {O} {inT}?",
        "Could you tell me who {rp} {O} {inT}?",
        "{InT}, which party {rp} {O}?",
        "I'd like to know who {rp} {O} {inT}.",
        "Do you happen to know which actor {rp} {O} {inT}?",
        "Someone {rp} {O} {inT}; who was it?"),
    *_t("eq_time",
        "{When} was it that {S} {rp} {O}?",
        "Could you tell me the exact {unit} when {S} {rp} {O}?",
        "Do you know {when_lc} {S} {rp} {O}?",
        "I'd like to know the {unit} when {S} {rp} {O}.",
        "{S} {rp} {O} at some point. {When} was that?",
        "When exactly did {S} {rb} {O}? Please give the {unit}.",
        "Can you say {when_lc} {S} {rp} {O}?"),
    # before_after with an elliptic anchor: (?, r, O) vs (A, r, O); (S, r, ?) vs (S, r, A)
    *_t("ba_subj_event",
        "Who {rp} {O} {bwc} {A} did?",
        "Could you tell me who {rp} {O} {bw} {A}?",
        "Which actors {rp} {O} {bwc} {A} did?",
        "I'd like to know which party {rp} {O} {bwc} {A} did so.",
        "{A} {rp} {O} on one occasion. Who else did so {bw} that?",
        "Do you know who {rp} {O} {bw} {A}?"),
    *_t("ba_obj_event",
        "Which party did {S} {rb} {bw} {A}?",
        "{Bwc} {S} {rp} {A}, who did {S} {rb}?",
        "Could you tell me who {S} {rp} {bw} {A}?",
        "{S} {rp} {A} at one point. Who did {S} {rb} {bw} that?",
        "Do you know which actor {S} {rp} {bw} {A}?"),
    # before_after with an explicit period
    *_t("ba_obj_time",
        "Which parties did {S} {rb} {bw} {T}?",
        "Could you tell me whom {S} {rp} {bw} {T}?",
        "{Bw} {T}, which party did {S} {rb}?",
        "I'd like to know who {S} {rp} at some point {bw} {T}.",
        "Do you know which actors {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Who was it that {rp} {O} {bw} {T}?",
        "{Bw} {T}, which actors {rp} {O}?",
        "Could you tell me which party {rp} {O} {bw} {T}?",
        "I'm trying to find out who {rp} {O} at some point {bw} {T}.",
        "Do you know who {rp} {O} {bw} {T}?"),
    # first_last
    *_t("fl_subj",
        "Who was the {fadj} among those who {rp} {O}?",
        "Could you tell me who {rp} {O} {fadv}?",
        "Which party was the {fadj} one to {rb} {O}?",
        "I'd like to know who was the {fadj} to {rb} {O}.",
        "Of all those who {rp} {O}, who did so {fadv}?"),
    *_t("fl_obj",
        "Whom did {S} {rb} {fadv}?",
        "Could you tell me who {S} {rp} {fadv}?",
        "Who was the {fadj} party that {S} {rp}?",
        "Of all the parties {S} {rp}, which was the {fadj}?",
        "I'd like to know the {fadj} actor {S} {rp}."),
    *_t("fl_time",
        "Tell me {when_lc} {S} {fadv} {rp} {O}.",
        "Could you tell me the {unit} of the {fadj} occasion on which {S} {rp} {O}?",
        "When was the {fadj} time that {S} {rp} {O}? I need the {unit}.",
        "Do you know {when_lc} {S} {fadv} {rp} {O}?",
        "Think of the {fadj} time {S} {rp} {O}: {when_lc} was it?"),
    # equal_multi: same day/month/year as a full anchor event; or exactly N days off it
    *_t("em_obj_event",
        "Which actor did {S} {rb} {same} {AS} {arp} {AO}?",
        "Could you tell me whom {S} {rp} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, which party did {S} {rb}?",
        "I'd like to know who {S} {rp} {same} {AS} {arp} {AO}.",
        "Do you know which actor {S} {rp} {same} {AS} {arp} {AO}?"),
    *_t("em_subj_event",
        "Who was it that {rp} {O} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, which actor {rp} {O}?",
        "Could you tell me which party {rp} {O} {same} {AS} {arp} {AO}?",
        "I wonder who {rp} {O} {same} {AS} {arp} {AO}.",
        "Do you know who {rp} {O} {same} {AS} {arp} {AO}?"),
    *_t("em_obj_offset",
        "Which party did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "Could you tell me whom {S} {rp} exactly {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bwc} {AS} {arp} {AO}, whom did {S} {rb}?",
        "{AS} {arp} {AO} on a certain day. Who did {S} {rb} {Nd} {bw} that?",
        "I'd like to know which party {S} {rp} {Nd} {bwc} {AS} {arp} {AO}."),
    # after_first / before_last (the spec pairs after+first and before+last)
    *_t("xr_subj",
        "Who was the {fadj} to {rb} {O} {bwc} {A} did?",
        "{Bwc} {A} {rp} {O}, who was the {fadj} to do so?",
        "Could you tell me who {rp} {O} {fadv} {bw} {A}?",
        "{A} {rp} {O} on one occasion. Who was the {fadj} to do the same {bw} that?",
        "I'd like to know which party was the {fadj} to {rb} {O} {bwc} {A} did."),
    *_t("xr_obj",
        "Which party did {S} {rb} {fadv} {bw} {A}?",
        "{Bwc} {S} {rp} {A}, who did {S} {rb} {fadv}?",
        "{S} {rp} {A} on one occasion. Who was the {fadj} party {S} {rp} {bw} that?",
        "Do you know whom {S} {rp} {fadv} {bw} {A}?",
        "Could you tell me the {fadj} party {S} {rp} {bw} {A}?"),
    *_t("xr_time",
        "{When} was it that {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}?",
        "Could you tell me {when_lc} {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}?",
        "{Bwc} {AS} {arp} {AO}, when was the {fadj} time that {S} {rp} {O}? Please give the {unit}.",
        "{AS} {arp} {AO} on one occasion. {When} did {S} {fadv} {rb} {O} {bw} that?",
        "I'd like to know the {unit} of the {fadj} occasion on which {S} {rp} {O} {bwc} {AS} {arp} {AO}."),
]


# ------------------------------------------------------------------------------ tables


@dataclass(frozen=True)
class _Parent:
    """Where a sector actor belongs: a place ("Kenya") or a group ("Taliban")."""

    names: tuple[str, ...]  # as written in running text, with any article ("the Philippines")
    adjs: tuple[str, ...]  # adjective / modifier ("Philippine"); empty when none reads well
    people: tuple[str, ...]  # plural demonym ("Filipinos"); empty when none


@dataclass(frozen=True)
class _Sector:
    the: tuple[str, ...]  # definite institution/office nouns ("police", "Foreign Ministry")
    pl: tuple[tuple[str, str], ...]  # (singular, plural) class nouns ("criminal", "criminals")
    x: tuple[str, ...]  # explicit patterns with {A} {C} {Cs} {D} {Db}
    where: str = "in"  # class nouns with a place: "in" C, "from" C (people abroad), "none"


@dataclass(frozen=True)
class _Tables:
    relations: dict[str, tuple[RelPhrase, ...]]
    places: dict[str, _Parent]
    groups: dict[str, _Parent]
    sectors: dict[str, _Sector]
    plain: dict[str, tuple[str, ...]]


def _alts(s: str) -> tuple[str, ...]:
    return tuple(a.strip() for a in s.split(";") if a.strip() and a.strip() != "-")


def _parse_sector(spec: str) -> _Sector:
    parts: dict[str, str] = {}
    for part in spec.split("|"):
        key, _, val = part.strip().partition(":")
        parts[key.strip()] = val
    pl = tuple(tuple(p.strip() for p in a.split("/", 1)) for a in _alts(parts.get("pl", "")))
    where = parts.get("where", "in").strip()
    if where not in ("in", "from", "none"):
        raise ValueError(f"{DATA_FILE.name}: bad 'where: {where}' in sector spec {spec!r}")
    return _Sector(_alts(parts.get("the", "")), pl, _alts(parts.get("x", "")), where)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def tables() -> _Tables:
    """Parse ``surface_blind.yaml`` once (a few hundred hand-written rows)."""
    raw = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    relations = {
        k: tuple(RelPhrase(*(s.strip() for s in p.split(" / ", 1))) for p in v)
        for k, v in raw["relations"].items()
    }
    places = {}
    for k, v in raw["places"].items():
        names, adjs, people = (p.strip() for p in v.split("|"))
        places[k] = _Parent(_alts(names), _alts(adjs), _alts(people))
    groups = {}
    for k, v in raw["groups"].items():
        names, mod = (p.strip() for p in v.split("|"))
        groups[k] = _Parent(_alts(names), _alts(mod), ())
    sectors = {k: _parse_sector(v) for k, v in raw["sectors"].items()}
    plain = {k: _alts(v) for k, v in raw["plain"].items()}
    return _Tables(relations, places, groups, sectors, plain)


# ------------------------------------------------------------------------------ relations


def relation_surface(relation: str, pick: Pick) -> RelPhrase | None:
    """A people-like phrase for KG relation ``relation`` (subject first, object last), or
    None when this set has none (the generator then uses the lexicon's phrase)."""
    phrases = tables().relations.get(relation)
    return pick(phrases) if phrases else None


# ------------------------------------------------------------------------------ entities

# last words that make a plain name an organisation written with "the"
_ORG_TAIL = {
    "Council", "Union", "Nations", "Organization", "Organisation", "Bank", "Fund", "Court",
    "Commission", "Committee", "Agency", "Party", "Army", "Forces", "Movement", "Front",
    "Association", "Assembly", "Parliament", "Senate", "Ministry", "Department", "Office",
    "Service", "Services", "Battalion", "Brigade", "Brigades", "Alliance", "League",
    "Foundation", "Institute", "Authority", "Board", "Congress", "Government", "Community",
    "Federation", "Guard", "Corps", "Tribunal", "Coalition", "Society", "Center", "Centre",
    "Secretariat", "Administration", "Bureau", "Cabinet", "Observatory", "Conference",
    "Network", "Programme", "Program", "Police", "Navy", "Legislature", "Chamber", "Force",
    "Club", "Prefecture", "Organizations", "Organisations", "Agencies", "Unions", "Parties",
    "Councils", "Commissions", "Committees", "Ministries", "Guards", "Brotherhood", "Tigers",
    "Mission", "Company", "Corporation", "Initiative", "Cartel", "Militia", "Militias",
}


def _is_org(name: str) -> bool:
    words = name.split()
    if len(words) < 2 or words[0].lower() == "the":
        return False
    return words[-1][:1].upper() + words[-1][1:] in _ORG_TAIL  # "Tasnim news agency" too


def _clean(name: str) -> str:
    """Drop parenthesis characters a KG name may still carry ("Zarko Korac (acting")."""
    return " ".join(name.replace("(", " ").replace(")", " ").split())


def split_actor(name: str) -> tuple[str, str] | None:
    """``"Police (Kenya)"`` → ``("Police", "Kenya")``; the parent may itself hold brackets
    (``"Citizen (Holy See (Vatican City State))"``). None for names without a trailing group."""
    if not name.endswith(")"):
        return None
    depth = 0
    for i in range(len(name) - 1, -1, -1):
        c = name[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                sector, parent = name[:i].strip(), name[i + 1 : -1].strip()
                return (sector, parent) if sector and parent else None
    return None


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _article(word: str) -> str:
    w = word.lower()
    if w.startswith(("ug", "uk", "uru", "us", "u.", "unit", "union", "univers", "uig", "eu", "one")):  # a Ugandan
        return "a"
    if w.startswith(("honorary", "hour")):
        return "an"
    return "an" if w[:1] in "aeiou" else "a"


# "a"/"an" before the word a pattern put after it ("a {A} ministry" with A = "Iranian")
_ARTICLE_RE = re.compile(r"(?<![\w'])an? (?=\w)(\w[\w.-]*)")
_PREP_RE = re.compile(r" (of|in|to|for|without) ")
_REPEAT_RE = re.compile(r"\b(\w+) (?i:\1)\b")


def _parent(parent: str) -> _Parent:
    t = tables()
    if parent in t.places:
        return t.places[parent]
    if parent in t.groups:
        return t.groups[parent]
    clean = _clean(parent)
    name = clean if not clean.split() or clean.split()[0].lower() == "the" else f"the {clean}"
    return _Parent((name,), (clean.removeprefix("the ").removeprefix("The "),), ())


def _generic_sector(sector: str) -> _Sector:
    """Plain but non-KG wording for a sector this set has no entry for."""
    noun = _clean(sector).replace(" / ", " and ").replace("/", " or ").lower()
    return _Sector((), (), (f"the {noun} of {{C}}", f"the {noun} in {{C}}", f"{{A}} {noun}"))


def _sector_forms(sec: _Sector, par: _Parent, pick: Pick) -> list[str]:
    c = pick(par.names)
    a = pick(par.adjs) if par.adjs else None
    d = pick(par.people) if par.people else None
    slots = {"C": c, "Cs": _possessive(c), "A": a, "D": d,
             "Db": d.removeprefix("the ") if d else None}
    pats: list[str] = []
    for n in sec.the:
        pats += [f"the {{A}} {n}", f"{{Cs}} {n}"]
        if not _PREP_RE.search(n):  # not "the head of the army of Kenya"
            pats.append(f"the {n} of {{C}}")
    for sg, plural in sec.pl:
        pats += [f"{{A}} {plural}", f"{{Cs}} {plural}"]
        if sec.where != "none":
            pats.append(f"{plural} {sec.where} {{C}}")
        if a:
            pats.append(f"{_article(a)} {{A}} {sg}")
    pats += list(sec.x)
    out = []
    for p in pats:
        needed = set(re.findall(r"\{(\w+)\}", p))
        if any(slots.get(k) is None for k in needed):
            continue
        text = _ARTICLE_RE.sub(lambda m: f"{_article(m.group(1))} {m.group(1)}", p.format_map(slots))
        out.append(_REPEAT_RE.sub(r"\1", text))  # "the X Party party leader" -> "... Party leader"
    return out


def entity_surface(name: str, pick: Pick) -> str:
    """How a person would write the entity whose display name is ``name`` (KG name with
    spaces). ``Sector (Parent)`` actors get varied natural renderings that still denote that
    sector of that country/group; plain names stay, with aliases and "the" for organisations."""
    t = tables()
    name = " ".join(name.split())  # some KG names carry non-breaking spaces
    split = split_actor(name)
    if split is None:
        if name in t.plain:
            return pick(t.plain[name])
        if name in t.places:
            return pick(t.places[name].names)
        if name in t.groups:
            return pick(t.groups[name].names)
        clean = _clean(name)
        return f"the {clean}" if _is_org(clean) else clean
    sector, parent = split
    par = _parent(parent)
    sec = t.sectors.get(sector) or _generic_sector(sector)
    forms = _sector_forms(sec, par, pick)
    if not forms:  # e.g. only adjective patterns and a parent without an adjective
        forms = _sector_forms(_generic_sector(sector), par, pick)
    if not forms:
        forms = [f"{_clean(sector).lower()} of {pick(par.names)}"]
    return pick(forms)


__all__ = ["TEMPLATES", "TIME_STYLES", "WORDS", "entity_surface", "relation_surface", "split_actor", "tables"]
