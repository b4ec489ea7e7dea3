"""Surface forms the question generator uses: relation verb phrases and date renderings.

Relations are KG names (``Make_a_visit``); a question needs a base form ("visit", used after
"did"/"to") and a past form ("visited"). Frequent CAMEO relations (MultiTQ's top ~60 and
everything the synthesiser emits) have hand-written phrases; any other relation gets a
rule-based one (conjugate the leading verb(s), add "with" to multi-word phrases that end
without a preposition) so the generator works on any TKG.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class RelPhrase:
    base: str  # "make a visit to" — after "did", "to"
    past: str  # "made a visit to"


# relation -> (base, past); entries end in the preposition the object needs.
_LEXICON: dict[str, tuple[str, str]] = {
    "Make_a_visit": ("visit", "visited"),
    "Host_a_visit": ("host a visit by", "hosted a visit by"),
    "Make_statement": ("make a statement about", "made a statement about"),
    "Consult": ("consult", "consulted"),
    "Express_intent_to_meet_or_negotiate": ("express intent to negotiate with", "expressed intent to negotiate with"),
    "Make_an_appeal_or_request": ("make an appeal to", "made an appeal to"),
    "Arrest,_detain,_or_charge_with_legal_action": ("arrest", "arrested"),
    "Praise_or_endorse": ("praise", "praised"),
    "Criticize_or_denounce": ("criticize", "criticized"),
    "Accuse": ("accuse", "accused"),
    "Engage_in_negotiation": ("negotiate with", "negotiated with"),
    "Sign_formal_agreement": ("sign a formal agreement with", "signed a formal agreement with"),
    "Express_intent_to_cooperate": ("express intent to cooperate with", "expressed intent to cooperate with"),
    "Engage_in_diplomatic_cooperation": ("engage in diplomatic cooperation with", "engaged in diplomatic cooperation with"),
    "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)": (
        "express intent to engage in diplomatic cooperation with",
        "expressed intent to engage in diplomatic cooperation with",
    ),
    "Use_conventional_military_force": ("use conventional military force against", "used conventional military force against"),
    "Use_unconventional_violence": ("use unconventional violence against", "used unconventional violence against"),
    "Demand": ("make a demand of", "made a demand of"),
    "Investigate": ("investigate", "investigated"),
    "fight_with_small_arms_and_light_weapons": ("fight with small arms against", "fought with small arms against"),
    "Reject": ("reject", "rejected"),
    "Make_optimistic_comment": ("make an optimistic comment about", "made an optimistic comment about"),
    "Discuss_by_telephone": ("discuss by telephone with", "discussed by telephone with"),
    "Make_pessimistic_comment": ("make a pessimistic comment about", "made a pessimistic comment about"),
    "Threaten": ("threaten", "threatened"),
    "Engage_in_symbolic_act": ("engage in a symbolic act with", "engaged in a symbolic act with"),
    "Demonstrate_or_rally": ("demonstrate against", "demonstrated against"),
    "Appeal_for_diplomatic_cooperation_(such_as_policy_support)": (
        "appeal for diplomatic cooperation to",
        "appealed for diplomatic cooperation to",
    ),
    "Meet_at_a_'third'_location": ("meet at a third location with", "met at a third location with"),
    "Return,_release_person(s)": ("release persons to", "released persons to"),
    "Abduct,_hijack,_or_take_hostage": ("abduct", "abducted"),
    "Provide_humanitarian_aid": ("provide humanitarian aid to", "provided humanitarian aid to"),
    "Make_empathetic_comment": ("make an empathetic comment about", "made an empathetic comment about"),
    "Confiscate_property": ("confiscate property of", "confiscated property of"),
    "Deny_responsibility": ("deny responsibility to", "denied responsibility to"),
    "Protest_violently,_riot": ("protest violently against", "protested violently against"),
    "Reduce_relations": ("reduce relations with", "reduced relations with"),
    "Physically_assault": ("physically assault", "physically assaulted"),
    "Sexually_assault": ("sexually assault", "sexually assaulted"),
    "Provide_aid": ("provide aid to", "provided aid to"),
    "Expel_or_deport_individuals": ("expel individuals to", "expelled individuals to"),
    "Cooperate_economically": ("cooperate economically with", "cooperated economically with"),
    "Occupy_territory": ("occupy territory of", "occupied territory of"),
    "Impose_embargo,_boycott,_or_sanctions": ("impose sanctions on", "imposed sanctions on"),
    "Bring_lawsuit_against": ("bring a lawsuit against", "brought a lawsuit against"),
    "Provide_economic_aid": ("provide economic aid to", "provided economic aid to"),
    "Provide_military_aid": ("provide military aid to", "provided military aid to"),
    "Threaten_with_military_force": ("threaten with military force", "threatened with military force"),
    "Grant_diplomatic_recognition": ("grant diplomatic recognition to", "granted diplomatic recognition to"),
    "Express_accord": ("express accord with", "expressed accord with"),
    "Cooperate_militarily": ("cooperate militarily with", "cooperated militarily with"),
    "Share_intelligence_or_information": ("share intelligence with", "shared intelligence with"),
    "Complain_officially": ("complain officially to", "complained officially to"),
    "Give_ultimatum": ("give an ultimatum to", "gave an ultimatum to"),
    "Mobilize_or_increase_armed_forces": ("mobilize armed forces against", "mobilized armed forces against"),
    "Yield": ("yield to", "yielded to"),
    "Coerce": ("coerce", "coerced"),
    "Kill_by_physical_assault": ("kill by physical assault", "killed by physical assault"),
    "Express_intent_to_settle_dispute": ("express intent to settle a dispute with", "expressed intent to settle a dispute with"),
    "Engage_in_material_cooperation": ("engage in material cooperation with", "engaged in material cooperation with"),
    "Reduce_or_break_diplomatic_relations": ("break diplomatic relations with", "broke diplomatic relations with"),
    "Express_intent_to_cooperate_economically": ("express intent to cooperate economically with", "expressed intent to cooperate economically with"),
    # interval relations of the synthesiser's interval mode
    "Hold_office": ("hold the office of", "held the office of"),
    "Belong_to": ("belong to", "belonged to"),
    "Lead_organisation": ("lead", "led"),
    "Play_for": ("play for", "played for"),
    "Coach_team": ("coach", "coached"),
    "Receive_award": ("receive", "received"),
    "Chair": ("chair", "chaired"),
}

_IRREGULAR = {
    "make": "made", "meet": "met", "fight": "fought", "give": "gave", "bring": "brought",
    "hold": "held", "lead": "led", "take": "took", "send": "sent", "break": "broke",
    "seize": "seized", "win": "won", "get": "got", "keep": "kept", "leave": "left",
    "begin": "began", "run": "ran", "set": "set", "put": "put", "shoot": "shot",
    "steal": "stole", "sell": "sold", "buy": "bought", "tell": "told", "pay": "paid",
    "forgive": "forgave", "withhold": "withheld", "undertake": "undertook",
}
# Stressed final syllables double their consonant ("expel" -> "expelled"); the short-verb
# rule below cannot see stress, so these are listed.
_DOUBLE_FINAL = {"expel", "compel", "propel", "control", "patrol", "commit", "omit", "admit",
                 "permit", "submit", "refer", "prefer", "occur", "deter", "regret", "equip", "rebel"}
_PREPOSITIONS = {"to", "with", "against", "of", "on", "for", "about", "by", "from", "at", "in", "into", "toward"}
_VERBISH = re.compile(r"^[a-z]+$")


def past_tense(verb: str) -> str:
    v = verb.lower()
    if v in _IRREGULAR:
        return _IRREGULAR[v]
    if v in _DOUBLE_FINAL:
        return v + v[-1] + "ed"
    if v.endswith("e"):
        return v + "d"
    if len(v) > 2 and v.endswith("y") and v[-2] not in "aeiou":
        return v[:-1] + "ied"
    if re.search(r"[^aeiou][aeiou][bdgmnpt]$", v) and len(v) <= 4:
        return v + v[-1] + "ed"
    return v + "ed"


def _rule_phrase(relation: str) -> tuple[str, str]:
    """Fallback: 'Express_intent_to_settle_dispute' -> 'express intent to settle dispute with'."""
    text = re.sub(r"\(.*?\)", "", relation.replace("_", " ")).replace("'", "")
    text = re.sub(r"\s+", " ", text).strip(" ,").lower()
    # "Impose embargo, boycott, or sanctions" -> keep the first alternative's head words
    text = re.split(r",\s*(?:or\s+)?", text)[0]
    words = text.split()
    if not words:
        return relation, relation
    if len(words) >= 3 and words[1] == "or" and _VERBISH.match(words[2]):
        words = [words[0]] + words[3:]  # "criticize or denounce" -> "criticize"
    base = " ".join(words)
    if len(words) > 1 and words[-1] not in _PREPOSITIONS:
        base += " with"
    # an adverb before the verb ("sexually assault") keeps its form; the verb takes the tense
    head = 1 if len(words) > 1 and words[0].endswith("ly") else 0
    rest = base.split()
    past = " ".join([*rest[:head], past_tense(rest[head]), *rest[head + 1:]])
    return base, past


def relation_phrase(relation: str) -> RelPhrase:
    base, past = _LEXICON.get(relation) or _rule_phrase(relation)
    return RelPhrase(base, past)


# --------------------------------------------------------------------------- dates

MONTHS = [calendar.month_name[i] for i in range(13)]


# AP-style month abbreviations (style "abbr")
MONTH_ABBR = ["", "Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."]


def _ordinal_suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def render_time(ordinal: int, granularity: str, style: str) -> str:
    """A date at a granularity, in one of the styles: ``text`` ("May 17, 2010" / "May 2010" /
    "2010"), ``text_dmy`` ("17 May 2010"), ``iso`` ("2010-05-17" / "2010-05" / "2010"),
    ``ord`` ("the 17th of May 2010" / "May of 2010" / "the year 2010"), ``abbr``
    ("Aug. 17, 2010" / "Aug. 2010" / "2010")."""
    d = date.fromordinal(int(ordinal))
    if style == "iso":
        return d.isoformat()[: {"year": 4, "month": 7, "day": 10}[granularity]]
    if style == "ord":
        return {"year": f"the year {d.year}", "month": f"{MONTHS[d.month]} of {d.year}",
                "day": f"the {d.day}{_ordinal_suffix(d.day)} of {MONTHS[d.month]} {d.year}"}[granularity]
    if style == "abbr" and granularity != "year":
        m = MONTH_ABBR[d.month]
        return f"{m} {d.year}" if granularity == "month" else f"{m} {d.day}, {d.year}"
    if granularity == "year":
        return str(d.year)
    if granularity == "month":
        return f"{MONTHS[d.month]} {d.year}"
    if style == "text_dmy":
        return f"{d.day} {MONTHS[d.month]} {d.year}"
    return f"{MONTHS[d.month]} {d.day}, {d.year}"


def in_time(ordinal: int, granularity: str, style: str) -> str:
    """Preposition + date: "in 2010", "in May 2010", "on May 17, 2010"."""
    prep = "on" if granularity == "day" else "in"
    return f"{prep} {render_time(ordinal, granularity, style)}"


ORDINALS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
