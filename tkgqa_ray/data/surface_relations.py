"""How people write KG relations and wrap questions (``Express_intent_to_meet_or_negotiate``
-> "wanted to negotiate with"; "Could you tell me the exact month when ...").

Used by the ``people`` phrasing set (train templates + :data:`WRAPPER_TEMPLATES`, with
:func:`relation_surface` for relations). Every phrase is active voice with the KG subject
first, exactly as the templates put ``{S} {rp} {O}``, and ends with the preposition the object
needs; it keeps the relation's meaning (intent stays intent, hosting stays hosting), because
gold comes from the oracle over the KG names. Relations not listed keep the generator's
lexicon phrase. Not blind: the same author wrote ``tkgqa_ray/nlu`` (this set checks
coverage, the blind sets check generalisation).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tkgqa_ray.data.lexicon import RelPhrase
from tkgqa_ray.data.phrasings import Template

# relation -> (base, past) pairs people write; one is drawn per question
_SURFACES: dict[str, tuple[tuple[str, str], ...]] = {
    "Make_statement": (("make a statement about", "made a statement about"), ("comment on", "commented on"),
                       ("speak about", "spoke about"), ("talk about", "talked about")),
    "Consult": (("consult", "consulted"), ("meet with", "met with"), ("hold talks with", "held talks with"),
                ("confer with", "conferred with")),
    "Express_intent_to_meet_or_negotiate": (
        ("want to negotiate with", "wanted to negotiate with"), ("hope to meet with", "hoped to meet with"),
        ("wish to negotiate with", "wished to negotiate with"), ("offer to hold talks with", "offered to hold talks with"),
        ("plan to meet", "planned to meet"), ("intend to negotiate with", "intended to negotiate with")),
    "Make_an_appeal_or_request": (("ask", "asked"), ("call on", "called on"), ("urge", "urged"),
                                  ("appeal to", "appealed to"), ("make a request to", "made a request to")),
    "Make_a_visit": (("visit", "visited"), ("pay a visit to", "paid a visit to"), ("travel to", "travelled to"),
                     ("go to", "went to")),
    "Host_a_visit": (("host", "hosted"), ("receive a visit from", "received a visit from"),
                     ("play host to", "played host to")),
    "Arrest,_detain,_or_charge_with_legal_action": (("arrest", "arrested"), ("detain", "detained"),
                                                     ("take into custody", "took into custody")),
    "Praise_or_endorse": (("praise", "praised"), ("hail", "hailed"), ("laud", "lauded"), ("commend", "commended")),
    "Criticize_or_denounce": (("criticize", "criticized"), ("condemn", "condemned"), ("denounce", "denounced"),
                              ("blame", "blamed"), ("slam", "slammed")),
    "Accuse": (("accuse", "accused"), ("level accusations against", "levelled accusations against")),
    "Engage_in_negotiation": (("negotiate with", "negotiated with"), ("hold negotiations with", "held negotiations with")),
    "Sign_formal_agreement": (("sign an agreement with", "signed an agreement with"), ("sign a deal with", "signed a deal with"),
                              ("sign a treaty with", "signed a treaty with")),
    "Express_intent_to_cooperate": (("want to cooperate with", "wanted to cooperate with"),
                                    ("promise to work with", "promised to work with"),
                                    ("pledge to cooperate with", "pledged to cooperate with")),
    "Engage_in_diplomatic_cooperation": (("cooperate diplomatically with", "cooperated diplomatically with"),
                                         ("engage in diplomatic cooperation with", "engaged in diplomatic cooperation with")),
    "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)": (
        ("offer diplomatic support to", "offered diplomatic support to"),
        ("promise diplomatic cooperation to", "promised diplomatic cooperation to")),
    "Use_conventional_military_force": (("use military force against", "used military force against"),
                                        ("launch military strikes against", "launched military strikes against")),
    "Use_unconventional_violence": (("use violence against", "used violence against"),),
    "Demand": (("demand something from", "demanded something from"), ("make demands of", "made demands of")),
    "Investigate": (("investigate", "investigated"), ("probe", "probed"), ("look into", "looked into")),
    "Reject": (("reject", "rejected"), ("turn down", "turned down"), ("rebuff", "rebuffed")),
    "Make_optimistic_comment": (("feel optimistic about", "felt optimistic about"),
                                ("express optimism about", "expressed optimism about"),
                                ("speak optimistically about", "spoke optimistically about")),
    "Make_pessimistic_comment": (("express pessimism about", "expressed pessimism about"),
                                 ("speak pessimistically about", "spoke pessimistically about")),
    "Discuss_by_telephone": (("phone", "phoned"), ("talk by phone with", "talked by phone with"),
                             ("call", "called")),
    "Threaten": (("threaten", "threatened"), ("issue a threat to", "issued a threat to")),
    "Provide_aid": (("give aid to", "gave aid to"), ("help", "helped")),
    "Provide_economic_aid": (("give economic aid to", "gave economic aid to"), ("fund", "funded")),
    "Provide_military_aid": (("give military aid to", "gave military aid to"), ("send weapons to", "sent weapons to")),
    "Provide_humanitarian_aid": (("send humanitarian aid to", "sent humanitarian aid to"),),
    "Impose_embargo,_boycott,_or_sanctions": (("impose sanctions on", "imposed sanctions on"), ("sanction", "sanctioned")),
    "Express_intent_to_settle_dispute": (("want to settle the dispute with", "wanted to settle the dispute with"),
                                         ("offer to resolve the dispute with", "offered to resolve the dispute with")),
    "Express_intent_to_cooperate_economically": (("want to trade with", "wanted to trade with"),
                                                 ("plan to cooperate economically with", "planned to cooperate economically with")),
    "Cooperate_economically": (("trade with", "traded with"), ("cooperate economically with", "cooperated economically with")),
    "Complain_officially": (("file a complaint with", "filed a complaint with"), ("complain to", "complained to")),
    "Bring_lawsuit_against": (("sue", "sued"), ("file a lawsuit against", "filed a lawsuit against")),
    "Make_empathetic_comment": (("express sympathy for", "expressed sympathy for"),),
    "Reduce_or_break_diplomatic_relations": (("sever diplomatic ties with", "severed diplomatic ties with"),),
    "Engage_in_symbolic_act": (("make a symbolic gesture toward", "made a symbolic gesture toward"),),
    "Demonstrate_or_rally": (("protest against", "protested against"), ("rally against", "rallied against")),
    "Return,_release_person(s)": (("free", "freed"), ("release", "released")),
    "Abduct,_hijack,_or_take_hostage": (("kidnap", "kidnapped"), ("abduct", "abducted")),
    "Deny_responsibility": (("deny responsibility to", "denied responsibility to"),),
    "Express_accord": (("agree with", "agreed with"),),
    "Yield": (("give in to", "gave in to"), ("back down to", "backed down to")),
    "Grant_diplomatic_recognition": (("recognize", "recognized"),),
}


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase | None:
    """A people-like phrase for ``relation`` (active voice, subject first), drawn with
    ``pick``; None = the generator's default lexicon phrase."""
    opts = _SURFACES.get(relation)
    if not opts:
        return None
    base, past = pick(opts)
    return RelPhrase(base, past)


def _t(variant: str, *texts: str) -> list[Template]:
    return [Template(f"people/{variant}/{i}", variant, t) for i, t in enumerate(texts)]


# Polite / indirect wrappers around each MultiTQ variant: the embedded question keeps the
# variant's logical form (same slots as the train templates, statement word order).
WRAPPER_TEMPLATES: list[Template] = [
    *_t("eq_obj_time",
        "Could you tell me who {S} {rp} {inT}?",
        "Do you know which entity {S} {rp} {inT}?"),
    *_t("eq_subj_time",
        "Can you tell me who {rp} {O} {inT}?",
        "I'd like to know which party {rp} {O} {inT}."),
    *_t("eq_time",
        "Could you tell me the exact {unit} when {S} {rp} {O}?",
        "Do you know {when_lc} {S} {rp} {O}?",
        "I'd like to know the {unit} in which {S} {rp} {O}."),
    *_t("ba_subj_event",
        "Could you tell me who {rp} {O} {bw} {A} did?",
        "Do you know who {rp} {O} {bw} {A}?"),
    *_t("ba_obj_event",
        "Can you tell me who {S} {rp} {bw} {A}?",
        "Please tell me who {S} {rp} {bw} {A}."),
    *_t("ba_obj_time",
        "Please tell me who {S} {rp} {bw} {T}.",
        "I wonder whom {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Could you tell me who {rp} {O} {bw} {T}?",
        "Do you happen to know who {rp} {O} {bw} {T}?"),
    *_t("fl_subj",
        "Do you know who was the {fadj} to {rb} {O}?",
        "Can you tell me who {rp} {O} {fadv}?"),
    *_t("fl_obj",
        "Could you tell me who {S} {rp} {fadv}?",
        "I'd like to know whom {S} {fadv} {rp}."),
    *_t("fl_time",
        "Could you tell me the {unit} when {S} {fadv} {rp} {O}?",
        "I'd like to know {when_lc} {S} {fadv} {rp} {O}."),
    *_t("em_obj_event",
        "Could you tell me who {S} {rp} {same} {AS} {arp} {AO}?",
        "Tell me who {S} {rp} {same} {AS} {arp} {AO}."),
    *_t("em_subj_event",
        "Do you know who {rp} {O} {same} {AS} {arp} {AO}?",
        "I wonder which party {rp} {O} {same} {AS} {arp} {AO}."),
    *_t("em_obj_offset",
        "Can you tell me who {S} {rp} {Nd} {bwc} {AS} {arp} {AO}?"),
    *_t("xr_subj",
        "Could you tell me who was the {fadj} to {rb} {O} {bw} {A}?",
        "Do you know who {rp} {O} {fadv} {bw} {A}?"),
    *_t("xr_obj",
        "Can you tell me who {S} {rp} {fadv} {bw} {A}?"),
    *_t("xr_time",
        "Could you tell me {when_lc} {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}?",
        "I'd like to know the {unit} when {S} {fadv} {rp} {O} {bwc} {AS} {arp} {AO}."),
]
