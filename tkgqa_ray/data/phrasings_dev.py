"""The ``dev`` phrasing set: a *development* set for question understanding (issue #10).

Not blind: the nlu authors study its misses. It was written from how people ask about news
events (MultiTQ-like questions: "Who condemned Abhisit Vejjajiva in May 2010?", "In which
month did the Kenyan police first accuse Al-Shabaab?", "Before the Royal Administration of
Saudi Arabia, who did Egypt want to negotiate with first?"), NOT from ``tkgqa_ray/nlu``'s data
files: the actor forms, country adjectives and relation paraphrases below are this module's
own tables, so a miss here says the grammar lacks a way people write, not that two copies of
the same table disagree. Fixes in ``nlu`` must be general (KG naming, CAMEO semantics), never
this file's literal strings.

Contents: question wrappers ("Could you tell me ...", "Do you know in which year ...", "I'd
like to know the date on which ...", "Name the ...", "Which country was the first to ...");
actor references of every kind (adjective + sector, "X's sector", "the sector of X",
"sector from X", people nouns, plurals, an occasional KG display name); relation paraphrases
for ~100 of MultiTQ's CAMEO relations, including direction-swapping ones read with the
KG subject first ("X received a visit from Y" = ``Host_a_visit(X, Y)``); varied time words.
Gold comes from the oracle over KG names; every surface keeps the meaning exact.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tkgqa_ray.data.lexicon import RelPhrase
from tkgqa_ray.data import phrasings
from tkgqa_ray.data.phrasings import Template


def _t(variant: str, *texts: str) -> list[Template]:
    return phrasings._t(variant, *texts, prefix="dev")


WORDS: dict[str, tuple[str, ...]] = {
    "before_clause": ("before", "prior to when", "earlier than the time"),
    "after_clause": ("after", "following the time when", "later than when"),
    "before": ("before", "prior to", "ahead of", "earlier than"),
    "after": ("after", "following", "later than", "subsequent to"),
    "fadj_asc": ("first", "earliest", "very first"),
    "fadj_desc": ("last", "latest", "most recent", "final"),
    "fadv_asc": ("first", "for the first time", "initially"),
    "fadv_desc": ("last", "for the last time", "most recently"),
    "same_day": ("on the same day as", "on the same day that", "on the very day when"),
    "same_month": ("in the same month as", "during the same month that", "in the same month when"),
    "same_year": ("in the same year as", "during the same year that", "in the same year when"),
    "when_day": ("On which date", "On what day", "When", "On which day"),
    "when_month": ("In which month", "What month", "Which month", "In what month", "During which month"),
    "when_year": ("In which year", "What year", "Which year", "In what year", "During which year"),
    "allen_before": ("before",),
    "allen_after": ("after",),
    "allen_during": ("while",),
    "allen_contains": ("over a period spanning the whole time that",),
    "allen_meets": ("until exactly when the period began in which",),
    "allen_met_by": ("from exactly when the period ended in which",),
}
TIME_STYLES = ("text", "text_dmy", "text", "iso")

TEMPLATES: list[Template] = [
    *_t("eq_obj_time",
        "Who did {S} {rb} {inT}?",
        "{InT}, whom did {S} {rb}?",
        "Could you tell me who {S} {rp} {inT}?",
        "Which country did {S} {rb} {inT}?",
        "Name the one {S} {rp} {inT}.",
        "Do you know who {S} {rp} during {T}?",
        "{S} {rp} whom {inT}?",
        "What country did {S} {rb} {inT}?",
        "Tell me the one that {S} {rp} {inT}.",
        "In {T}, who was it that {S} {rp}?"),
    *_t("eq_subj_time",
        "Who {rp} {O} {inT}?",
        "{InT}, who {rp} {O}?",
        "Which country {rp} {O} {inT}?",
        "Can you tell me who {rp} {O} {inT}?",
        "I'd like to know who {rp} {O} {inT}.",
        "Who was it that {rp} {O} {inT}?",
        "Which one {rp} {O} {inT}?",
        "Tell me who {rp} {O} sometime {inT}.",
        "Please name the party that {rp} {O} {inT}."),
    *_t("eq_time",
        "{When} did {S} {rb} {O}?",
        "Could you tell me the {unit} when {S} {rp} {O}?",
        "Do you know {when_lc} {S} {rp} {O}?",
        "I'd like to know the {unit} on which {S} {rp} {O}.",
        "Name the {unit} when {S} {rp} {O}.",
        "At what {unit} did {S} {rb} {O}?",
        "{S} {rp} {O} - {when_lc}?",
        "Can you say {when_lc} {S} {rp} {O}?",
        "Which {unit} was it when {S} {rp} {O}?"),
    *_t("ba_subj_event",
        "{Bw} {A}, who {rp} {O}?",
        "Who {rp} {O} {bw} {A} did?",
        "Which country {rp} {O} {bw} {A}?",
        "Could you tell me who {rp} {O} {bw} {A}?",
        "Who, {bw} {A}, {rp} {O}?",
        "{Bw} {A} did, who {rp} {O}?"),
    *_t("ba_obj_event",
        "Who did {S} {rb} {bw} {A}?",
        "{Bw} {A}, who did {S} {rb}?",
        "Do you know whom {S} {rp} {bw} {A}?",
        "Which country did {S} {rb} {bw} {A}?",
        "{S} {rp} whom {bw} {A}?"),
    *_t("ba_obj_time",
        "Who did {S} {rb} {bw} {T}?",
        "{Bw} {T}, whom did {S} {rb}?",
        "Can you tell me who {S} {rp} {bw} {T}?",
        "Who had {S} {rp} {bw} {T}?"),
    *_t("ba_subj_time",
        "Who {rp} {O} {bw} {T}?",
        "{Bw} {T}, which country {rp} {O}?",
        "I wonder who {rp} {O} {bw} {T}.",
        "Which countries {rp} {O} {bw} {T}?"),
    *_t("fl_subj",
        "Who was the {fadj} to {rb} {O}?",
        "Who {rp} {O} {fadv}?",
        "Which country was the {fadj} to {rb} {O}?",
        "Do you know who was the {fadj} to {rb} {O}?",
        "Name the {fadj} one to {rb} {O}.",
        "Which was the {fadj} country to {rb} {O}?",
        "Can you name the {fadj} one that {rp} {O}?",
        "Who {fadv} {rp} {O}?"),
    *_t("fl_obj",
        "Who did {S} {rb} {fadv}?",
        "Whom did {S} {fadv} {rb}?",
        "Could you tell me who {S} {rp} {fadv}?",
        "Which country did {S} {fadv} {rb}?",
        "Who was the {fadj} one {S} {rp}?",
        "{S} {rp} whom {fadv}?"),
    *_t("fl_time",
        "{When} did {S} {fadv} {rb} {O}?",
        "{When} did {S} {rb} {O} {fadv}?",
        "Could you tell me the {unit} when {S} {fadv} {rp} {O}?",
        "Do you know {when_lc} {S} {rp} {O} {fadv}?",
        "{When} was the {fadj} time that {S} {rp} {O}?",
        "{When} did {S} {rb} {O} for the {fadj} time?"),
    *_t("em_obj_event",
        "Who did {S} {rb} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, whom did {S} {rb}?",
        "Can you tell me who {S} {rp} {same} {AS} {arp} {AO}?",
        "{S} {rp} whom {same} {AS} {arp} {AO}?"),
    *_t("em_subj_event",
        "Who {rp} {O} {same} {AS} {arp} {AO}?",
        "{Same} {AS} {arp} {AO}, who {rp} {O}?",
        "Which country {rp} {O} {same} {AS} {arp} {AO}?",
        "Tell me who {rp} {O} {same} {AS} {arp} {AO}."),
    *_t("em_obj_offset",
        "Who did {S} {rb} {Nd} {bwc} {AS} {arp} {AO}?",
        "{Nd} {bwc} {AS} {arp} {AO}, whom did {S} {rb}?",
        "Exactly {Nd} {bwc} {AS} {arp} {AO}, who did {S} {rb}?"),
    *_t("xr_subj",
        "{Bw} {A}, who was the {fadj} to {rb} {O}?",
        "Who {rp} {O} {fadv} {bw} {A}?",
        "{Bw} {A}, which country {fadv} {rp} {O}?",
        "Do you know who was the {fadj} to {rb} {O} {bw} {A}?",
        "Who was the {fadj} one to {rb} {O} {bw} {A} did?",
        "{Bw} {A} did, which was the {fadj} country to {rb} {O}?"),
    *_t("xr_obj",
        "Who did {S} {rb} {fadv} {bw} {A}?",
        "{Bw} {A}, who did {S} {fadv} {rb}?",
        "{Bw} {A}, whom did {S} {rb} {fadv}?",
        "Who was the {fadj} one that {S} {rp} {bw} {A}?"),
    *_t("xr_time",
        "{When} did {S} {fadv} {rb} {O} {bwc} {AS} {arp} {AO}?",
        "{Bwc} {AS} {arp} {AO}, {when_lc} did {S} {fadv} {rb} {O}?",
        "Could you tell me {when_lc} {S} {rp} {O} {fadv} {bwc} {AS} {arp} {AO}?",
        "{When} did {S} {rb} {O} for the {fadj} time {bwc} {AS} {arp} {AO}?"),
]


# --------------------------------------------------------------------------- actors
# Countries as people write them: (names, adjective, people noun). The KG spelling is always
# one of the names; "" = none people use.
_COUNTRIES: dict[str, tuple[tuple[str, ...], str, str]] = {
    "United_States": (("the United States", "the US", "America", "the USA"), "American", "Americans"),
    "United_Kingdom": (("the United Kingdom", "the UK", "Britain"), "British", "Britons"),
    "Russia": (("Russia",), "Russian", "Russians"),
    "China": (("China",), "Chinese", ""),
    "Japan": (("Japan",), "Japanese", ""),
    "India": (("India",), "Indian", "Indians"),
    "Pakistan": (("Pakistan",), "Pakistani", "Pakistanis"),
    "Afghanistan": (("Afghanistan",), "Afghan", "Afghans"),
    "Iran": (("Iran",), "Iranian", "Iranians"),
    "Iraq": (("Iraq",), "Iraqi", "Iraqis"),
    "Syria": (("Syria",), "Syrian", "Syrians"),
    "Israel": (("Israel",), "Israeli", "Israelis"),
    "Palestinian_Territory,_Occupied": (("Palestine", "the Palestinian territories"), "Palestinian", "Palestinians"),
    "Egypt": (("Egypt",), "Egyptian", "Egyptians"),
    "Saudi_Arabia": (("Saudi Arabia",), "Saudi", "Saudis"),
    "Turkey": (("Turkey",), "Turkish", "Turks"),
    "Lebanon": (("Lebanon",), "Lebanese", ""),
    "Jordan": (("Jordan",), "Jordanian", "Jordanians"),
    "Yemen": (("Yemen",), "Yemeni", "Yemenis"),
    "Qatar": (("Qatar",), "Qatari", "Qataris"),
    "Libya": (("Libya",), "Libyan", "Libyans"),
    "Sudan": (("Sudan",), "Sudanese", ""),
    "South_Sudan": (("South Sudan",), "South Sudanese", ""),
    "Somalia": (("Somalia",), "Somali", "Somalis"),
    "Kenya": (("Kenya",), "Kenyan", "Kenyans"),
    "Uganda": (("Uganda",), "Ugandan", "Ugandans"),
    "Tanzania": (("Tanzania",), "Tanzanian", "Tanzanians"),
    "Ethiopia": (("Ethiopia",), "Ethiopian", "Ethiopians"),
    "Nigeria": (("Nigeria",), "Nigerian", "Nigerians"),
    "South_Africa": (("South Africa",), "South African", "South Africans"),
    "Zimbabwe": (("Zimbabwe",), "Zimbabwean", "Zimbabweans"),
    "Zambia": (("Zambia",), "Zambian", "Zambians"),
    "Mali": (("Mali",), "Malian", "Malians"),
    "Senegal": (("Senegal",), "Senegalese", ""),
    "Mauritania": (("Mauritania",), "Mauritanian", "Mauritanians"),
    "Thailand": (("Thailand",), "Thai", "Thais"),
    "Philippines": (("the Philippines",), "Philippine", "Filipinos"),
    "Indonesia": (("Indonesia",), "Indonesian", "Indonesians"),
    "Malaysia": (("Malaysia",), "Malaysian", "Malaysians"),
    "Vietnam": (("Vietnam",), "Vietnamese", ""),
    "Cambodia": (("Cambodia",), "Cambodian", "Cambodians"),
    "Myanmar": (("Myanmar", "Burma"), "Burmese", ""),
    "Bangladesh": (("Bangladesh",), "Bangladeshi", "Bangladeshis"),
    "Sri_Lanka": (("Sri Lanka",), "Sri Lankan", "Sri Lankans"),
    "Nepal": (("Nepal",), "Nepalese", ""),
    "Singapore": (("Singapore",), "Singaporean", "Singaporeans"),
    "Taiwan": (("Taiwan",), "Taiwanese", ""),
    "South_Korea": (("South Korea",), "South Korean", "South Koreans"),
    "North_Korea": (("North Korea",), "North Korean", "North Koreans"),
    "Australia": (("Australia",), "Australian", "Australians"),
    "New_Zealand": (("New Zealand",), "New Zealand", "New Zealanders"),
    "Canada": (("Canada",), "Canadian", "Canadians"),
    "Mexico": (("Mexico",), "Mexican", "Mexicans"),
    "Brazil": (("Brazil",), "Brazilian", "Brazilians"),
    "Argentina": (("Argentina",), "Argentine", "Argentines"),
    "Colombia": (("Colombia",), "Colombian", "Colombians"),
    "Venezuela": (("Venezuela",), "Venezuelan", "Venezuelans"),
    "Peru": (("Peru",), "Peruvian", "Peruvians"),
    "Chile": (("Chile",), "Chilean", "Chileans"),
    "Guatemala": (("Guatemala",), "Guatemalan", "Guatemalans"),
    "France": (("France",), "French", ""),
    "Germany": (("Germany",), "German", "Germans"),
    "Italy": (("Italy",), "Italian", "Italians"),
    "Greece": (("Greece",), "Greek", "Greeks"),
    "Belgium": (("Belgium",), "Belgian", "Belgians"),
    "Portugal": (("Portugal",), "Portuguese", ""),
    "Poland": (("Poland",), "Polish", "Poles"),
    "Hungary": (("Hungary",), "Hungarian", "Hungarians"),
    "Romania": (("Romania",), "Romanian", "Romanians"),
    "Bulgaria": (("Bulgaria",), "Bulgarian", "Bulgarians"),
    "Croatia": (("Croatia",), "Croatian", "Croatians"),
    "Slovakia": (("Slovakia",), "Slovak", "Slovaks"),
    "Czech_Republic": (("the Czech Republic",), "Czech", "Czechs"),
    "Ukraine": (("Ukraine",), "Ukrainian", "Ukrainians"),
    "Belarus": (("Belarus",), "Belarusian", "Belarusians"),
    "Georgia": (("Georgia",), "Georgian", "Georgians"),
    "Kyrgyzstan": (("Kyrgyzstan",), "Kyrgyz", ""),
    "Turkmenistan": (("Turkmenistan",), "Turkmen", ""),
    "Kazakhstan": (("Kazakhstan",), "Kazakh", "Kazakhs"),
    "Ireland": (("Ireland",), "Irish", ""),
    "Spain": (("Spain",), "Spanish", "Spaniards"),
    "Denmark": (("Denmark",), "Danish", "Danes"),
    "Sweden": (("Sweden",), "Swedish", "Swedes"),
    "Norway": (("Norway",), "Norwegian", "Norwegians"),
    "Netherlands": (("the Netherlands",), "Dutch", ""),
    "Ghana": (("Ghana",), "Ghanaian", "Ghanaians"),
    "Cuba": (("Cuba",), "Cuban", "Cubans"),
    "Bahrain": (("Bahrain",), "Bahraini", "Bahrainis"),
}

# Sectors as people write them: singular forms (the plural is added below when marked
# with "+"), most frequent MultiTQ sectors first. Each form must mean this sector exactly.
_SECTORS: dict[str, tuple[str, ...]] = {
    "Citizen": ("citizens", "people", "residents", "civilians", "a citizen"),
    "Police": ("police", "police force", "police officers", "policemen"),
    "Government": ("government", "authorities"),
    "Head_of_Government": ("leader", "head of government", "prime minister", "premier"),
    "Men": ("men", "a man"),
    "Military": ("army", "military", "armed forces"),
    "Ministry": ("ministry", "a government ministry"),
    "Foreign_Affairs": ("foreign ministry", "foreign minister", "ministry of foreign affairs", "diplomats"),
    "Lawyer/Attorney": ("lawyers", "a lawyer", "attorneys"),
    "Media_Personnel": ("journalists", "reporters", "a journalist"),
    "Criminal": ("criminals", "a criminal", "gangsters"),
    "Cabinet_/_Council_of_Ministers_/_Advisors": ("cabinet", "council of ministers"),
    "Other_Authorities_/_Officials": ("officials",),
    "Member_of_Parliament": ("MPs", "a member of parliament", "parliamentarians"),
    "Protester": ("protesters", "demonstrators", "protestors"),
    "Women": ("women",),
    "Military_Personnel": ("soldiers", "servicemen"),
    "Business": ("businesses", "companies", "business community"),
    "Court_Judge": ("judge", "judges", "court"),
    "Royal_Administration": ("royal family", "monarchy", "royal court"),
    "Armed_Gang": ("armed gang", "gunmen"),
    "Media": ("media", "press"),
    "Armed_Rebel": ("rebels", "armed rebels"),
    "Party_Member": ("party members", "a party member"),
    "City_Mayor": ("mayor", "city mayors"),
    "Children": ("children", "kids"),
    "Militant": ("militants",),
    "Governor": ("governor", "governors"),
    "Envoy": ("envoy", "envoys"),
    "Legislature": ("legislature", "parliament"),
    "Businessperson": ("businessmen", "business people", "businessman"),
    "Employee": ("employees", "workers"),
    "Insurgent": ("insurgents",),
    "Defense_/_Security_Ministry": ("defence ministry", "defense ministry", "ministry of defense", "defence minister"),
    "Lawmaker": ("lawmakers", "legislators"),
    "Education": ("education ministry", "Department of Education", "education department"),
    "Labor_Union": ("trade unions", "labour unions", "unions"),
    "Medical_Personnel": ("doctors", "medical staff", "health workers"),
    "Student": ("students",),
    "Muslim": ("Muslims",),
    "Villager": ("villagers",),
    "Naval": ("navy",),
    "Election_Commission": ("election commission", "electoral commission"),
    "Treasury/Finance_Ministry": ("finance ministry", "treasury", "finance minister"),
    "Justice_Department/Ministery": ("justice ministry", "ministry of justice"),
    "Domestic_Affairs": ("interior ministry", "ministry of interior", "home ministry"),
    "High_Ranking_Military_Personnel": ("generals", "senior military officers", "top military officers"),
    "Thief": ("thieves", "robbers"),
    "Senate": ("senate",),
    "Farm_Worker": ("farmers", "farm workers"),
    "Fishermen": ("fishermen",),
    "Activist": ("activists",),
    "Attacker": ("attackers", "assailants"),
    "Guerrilla": ("guerrillas",),
    "Government_Official": ("government officials",),
    "Energy_Department/Ministry": ("energy ministry",),
    "Newspaper": ("newspaper", "a newspaper"),
    "Combatant": ("fighters", "combatants"),
    "Presidential_Candidate": ("presidential candidate",),
    "Political_Parties": ("political parties",),
    "Indigenous_People": ("indigenous people", "indigenous communities"),
    "Member_of_the_Judiciary": ("judiciary", "judicial officials"),
}
_NO_DET = ("a ", "an ")


def _split(name: str) -> tuple[str, str] | None:
    """``Police_(Kenya)`` -> ("Police", "Kenya") (KG form; None if not ``Sector_(Place)``)."""
    if not name.endswith(")") or "_(" not in name:
        return None
    i = name.rfind("_(")
    sector, place = name[:i], name[i + 2 : -1]
    return (sector, place) if sector and place and "(" not in place else None


_ORG_WORDS = ("Party", "Union", "Council", "Organization", "Organisation", "Commission", "Agency",
              "Front", "Movement", "Association", "Bank", "Nations", "Fund", "Committee", "Church",
              "Assembly", "Alliance", "Congress", "Federation", "Coalition", "Forum", "Court")


def entity_surface(name: str, pick: Callable[[Sequence[Any]], Any]) -> str:
    """How a person writes entity ``name`` (display form with spaces) in a question."""
    kg = name.replace(" ", "_")
    if kg in _COUNTRIES:  # a country itself
        return pick((name,) + _COUNTRIES[kg][0])
    sp = _split(kg)
    if sp is None or sp[1] not in _COUNTRIES:
        # organisations take an article in running text ("the African Union")
        if sp is None and not name.startswith("The ") and any(w in name.split() for w in _ORG_WORDS):
            return pick((name, f"the {name}"))
        return name
    sector, place = sp
    names, adj, people = _COUNTRIES[place]
    forms = _SECTORS.get(sector)
    if forms is None:  # a sector this set has no words for: its own words, lower case
        own = sector.replace("_", " ").split("/")[0].strip().lower()
        return pick((name, f"the {own} of {pick(names)}", f"{pick(names)}'s {own}"))
    f = pick(forms)
    bare = f[2:] if f.startswith("a ") else f
    country = pick(names)
    variants = [
        f"the {adj} {bare}",
        f"{adj} {bare}" if not f.startswith(_NO_DET) else f"an {adj} {bare}" if adj[0] in "AEIOU" else f"a {adj} {bare}",
        f"the {bare} of {country}",
        f"{country}'s {bare}" if not country.startswith("the ") else f"the {bare} in {country}",
        f"{bare} from {country}" if bare.endswith("s") else f"the {bare} of {country}",
        name,
    ]
    if sector == "Citizen" and people:
        variants += [people, people]
    return pick(variants)


# --------------------------------------------------------------------------- relations
# relation -> (base, past) pairs, KG subject first, ending in what the object needs.
_REL: dict[str, tuple[tuple[str, str], ...]] = {
    "Make_statement": (("comment on", "commented on"), ("make remarks about", "made remarks about"),
                       ("issue a statement on", "issued a statement on"), ("say something about", "said something about")),
    "Consult": (("consult with", "consulted with"), ("hold consultations with", "held consultations with"),
                ("meet", "met"), ("hold a meeting with", "held a meeting with")),
    "Express_intent_to_meet_or_negotiate": (
        ("want to negotiate with", "wanted to negotiate with"), ("seek talks with", "sought talks with"),
        ("express willingness to meet", "expressed willingness to meet"), ("hope to hold talks with", "hoped to hold talks with"),
        ("propose a meeting with", "proposed a meeting with"), ("be willing to negotiate with", "was willing to negotiate with")),
    "Make_an_appeal_or_request": (("appeal to", "appealed to"), ("call on", "called on"), ("request something from", "requested something from"),
                                  ("plead with", "pleaded with"), ("make a request of", "made a request of")),
    "Make_a_visit": (("visit", "visited"), ("pay a visit to", "paid a visit to"), ("travel to", "travelled to"),
                     ("make a trip to", "made a trip to")),
    "Host_a_visit": (("host", "hosted"), ("receive a visit from", "received a visit from"), ("welcome", "welcomed")),
    "Arrest,_detain,_or_charge_with_legal_action": (("arrest", "arrested"), ("detain", "detained"), ("charge", "charged"),
                                                     ("take into custody", "took into custody")),
    "Praise_or_endorse": (("praise", "praised"), ("endorse", "endorsed"), ("speak highly of", "spoke highly of"),
                          ("compliment", "complimented"), ("applaud", "applauded")),
    "Criticize_or_denounce": (("condemn", "condemned"), ("criticise", "criticised"), ("denounce", "denounced"),
                              ("blast", "blasted"), ("censure", "censured")),
    "Accuse": (("accuse", "accused"), ("blame", "blamed"), ("point the finger at", "pointed the finger at")),
    "Engage_in_negotiation": (("negotiate with", "negotiated with"), ("hold talks with", "held talks with"),
                              ("conduct negotiations with", "conducted negotiations with")),
    "Sign_formal_agreement": (("sign an agreement with", "signed an agreement with"), ("sign a deal with", "signed a deal with"),
                              ("conclude an accord with", "concluded an accord with")),
    "Express_intent_to_cooperate": (("express willingness to cooperate with", "expressed willingness to cooperate with"),
                                    ("pledge to cooperate with", "pledged to cooperate with"),
                                    ("want to work with", "wanted to work with")),
    "Engage_in_diplomatic_cooperation": (("cooperate diplomatically with", "cooperated diplomatically with"),
                                         ("work diplomatically with", "worked diplomatically with")),
    "Express_intent_to_engage_in_diplomatic_cooperation_(such_as_policy_support)": (
        ("promise diplomatic support to", "promised diplomatic support to"),
        ("offer policy support to", "offered policy support to")),
    "Use_conventional_military_force": (("attack", "attacked"), ("use military force against", "used military force against"),
                                        ("launch a military assault on", "launched a military assault on")),
    "Use_unconventional_violence": (("use violence against", "used violence against"), ("carry out violent attacks on", "carried out violent attacks on")),
    "Demand": (("demand something of", "demanded something of"), ("make demands on", "made demands on")),
    "Investigate": (("investigate", "investigated"), ("launch an investigation into", "launched an investigation into"),
                    ("probe", "probed")),
    "fight_with_small_arms_and_light_weapons": (("fire on", "fired on"), ("exchange gunfire with", "exchanged gunfire with"),
                                                ("clash with", "clashed with")),
    "Reject": (("reject", "rejected"), ("refuse", "refused"), ("turn down", "turned down")),
    "Make_optimistic_comment": (("make an optimistic remark about", "made an optimistic remark about"),
                                ("express optimism about", "expressed optimism about"),
                                ("speak positively about", "spoke positively about"),
                                ("be upbeat about", "was upbeat about")),
    "Discuss_by_telephone": (("phone", "phoned"), ("have a phone call with", "had a phone call with"),
                             ("speak by telephone with", "spoke by telephone with"), ("call", "called")),
    "Make_pessimistic_comment": (("make a pessimistic remark about", "made a pessimistic remark about"),
                                 ("express pessimism about", "expressed pessimism about"),
                                 ("voice doubts about", "voiced doubts about")),
    "Threaten": (("threaten", "threatened"), ("issue threats against", "issued threats against"),
                 ("make threats against", "made threats against")),
    "Engage_in_symbolic_act": (("make a symbolic gesture to", "made a symbolic gesture to"),),
    "Demonstrate_or_rally": (("demonstrate against", "demonstrated against"), ("hold a rally against", "held a rally against"),
                             ("march against", "marched against")),
    "Appeal_for_diplomatic_cooperation_(such_as_policy_support)": (
        ("ask for diplomatic support from", "asked for diplomatic support from"),
        ("seek diplomatic backing from", "sought diplomatic backing from")),
    "Meet_at_a_'third'_location": (("meet at a third location with", "met at a third location with"),
                                   ("meet on neutral ground with", "met on neutral ground with")),
    "Return,_release_person(s)": (("release", "released"), ("free", "freed"), ("set free", "set free")),
    "Abduct,_hijack,_or_take_hostage": (("kidnap", "kidnapped"), ("abduct", "abducted"), ("take hostage", "took hostage")),
    "Provide_humanitarian_aid": (("send humanitarian aid to", "sent humanitarian aid to"),
                                 ("deliver relief supplies to", "delivered relief supplies to")),
    "Make_empathetic_comment": (("express sympathy for", "expressed sympathy for"), ("offer condolences to", "offered condolences to")),
    "Confiscate_property": (("confiscate the property of", "confiscated the property of"), ("seize the assets of", "seized the assets of")),
    "Deny_responsibility": (("deny responsibility to", "denied responsibility to"),),
    "Protest_violently,_riot": (("riot against", "rioted against"), ("protest violently against", "protested violently against")),
    "Reduce_relations": (("downgrade relations with", "downgraded relations with"), ("scale back ties with", "scaled back ties with")),
    "Physically_assault": (("assault", "assaulted"), ("beat up", "beat up"), ("physically attack", "physically attacked")),
    "Provide_aid": (("give aid to", "gave aid to"), ("provide assistance to", "provided assistance to"), ("assist", "assisted")),
    "Expel_or_deport_individuals": (("deport", "deported"), ("expel", "expelled")),
    "Cooperate_economically": (("cooperate economically with", "cooperated economically with"),
                               ("do business with", "did business with")),
    "Occupy_territory": (("occupy territory of", "occupied territory of"), ("occupy land belonging to", "occupied land belonging to")),
    "Impose_embargo,_boycott,_or_sanctions": (("impose sanctions on", "imposed sanctions on"), ("boycott", "boycotted"),
                                              ("place an embargo on", "placed an embargo on")),
    "Bring_lawsuit_against": (("sue", "sued"), ("take legal action against", "took legal action against"),
                              ("file a lawsuit against", "filed a lawsuit against")),
    "Use_tactics_of_violent_repression": (("violently repress", "violently repressed"), ("crack down on", "cracked down on")),
    "Mobilize_or_increase_armed_forces": (("mobilize troops against", "mobilized troops against"),),
    "Impose_administrative_sanctions": (("impose administrative sanctions on", "imposed administrative sanctions on"),),
    "Provide_economic_aid": (("give economic aid to", "gave economic aid to"), ("provide financial assistance to", "provided financial assistance to")),
    "Express_intent_to_cooperate_economically": (("want to cooperate economically with", "wanted to cooperate economically with"),
                                                 ("hope to boost trade with", "hoped to boost trade with")),
    "Ease_administrative_sanctions": (("ease sanctions on", "eased sanctions on"), ("lift restrictions on", "lifted restrictions on")),
    "Reduce_or_break_diplomatic_relations": (("cut diplomatic ties with", "cut diplomatic ties with"),
                                             ("break off relations with", "broke off relations with")),
    "Consider_policy_option": (("consider a policy option regarding", "considered a policy option regarding"),),
    "Rally_support_on_behalf_of": (("rally support for", "rallied support for"), ("drum up support for", "drummed up support for")),
    "Reject_proposal_to_meet,_discuss,_or_negotiate": (("refuse to meet with", "refused to meet with"),
                                                       ("reject talks with", "rejected talks with")),
    "Yield": (("yield to", "yielded to"), ("give in to", "gave in to"), ("concede to", "conceded to")),
    "Express_intent_to_provide_economic_aid": (("pledge economic aid to", "pledged economic aid to"),
                                               ("promise financial aid to", "promised financial aid to")),
    "Coerce": (("coerce", "coerced"), ("pressure", "pressured")),
    "Engage_in_material_cooperation": (("cooperate materially with", "cooperated materially with"),),
    "Threaten_with_military_force": (("threaten military action against", "threatened military action against"),),
    "Conduct_suicide,_car,_or_other_non-military_bombing": (("bomb", "bombed"), ("carry out a bombing against", "carried out a bombing against")),
    "Grant_diplomatic_recognition": (("recognize", "recognized"), ("grant diplomatic recognition to", "granted diplomatic recognition to")),
    "Express_intent_to_provide_material_aid": (("promise material aid to", "promised material aid to"),),
    "Express_intent_to_settle_dispute": (("want to resolve the dispute with", "wanted to resolve the dispute with"),
                                         ("offer to settle the conflict with", "offered to settle the conflict with")),
    "Sexually_assault": (("sexually assault", "sexually assaulted"),),
    "Cooperate_militarily": (("cooperate militarily with", "cooperated militarily with"), ("hold joint military exercises with", "held joint military exercises with")),
    "Provide_military_aid": (("supply weapons to", "supplied weapons to"), ("give military aid to", "gave military aid to")),
    "Defy_norms,_law": (("defy", "defied"),),
    "Express_accord": (("agree with", "agreed with"), ("express agreement with", "expressed agreement with")),
    "Retreat_or_surrender_militarily": (("surrender to", "surrendered to"), ("retreat from", "retreated from")),
    "Give_ultimatum": (("give an ultimatum to", "gave an ultimatum to"), ("issue an ultimatum to", "issued an ultimatum to")),
    "Complain_officially": (("lodge a complaint with", "lodged a complaint with"), ("complain to", "complained to")),
    "Share_intelligence_or_information": (("share information with", "shared information with"), ("share intelligence with", "shared intelligence with")),
    "Express_intent_to_release_persons_or_property": (("promise to release", "promised to release"),),
    "Appeal_for_change_in_leadership": (("call for a change of leadership in", "called for a change of leadership in"),),
    "Kill_by_physical_assault": (("kill", "killed"), ("beat to death", "beat to death")),
    "Investigate_crime,_corruption": (("investigate corruption by", "investigated corruption by"),
                                      ("open a corruption probe into", "opened a corruption probe into")),
    "Accuse_of_crime,_corruption": (("level corruption charges against", "levelled corruption charges against"), ("make criminal accusations against", "made criminal accusations against")),
    "Acknowledge_or_claim_responsibility": (("claim responsibility to", "claimed responsibility to"),),
    "Accuse_of_human_rights_abuses": (("allege human rights abuses by", "alleged human rights abuses by"),
                                      ("level rights abuse accusations at", "levelled rights abuse accusations at")),
    "Halt_negotiations": (("break off talks with", "broke off talks with"), ("suspend negotiations with", "suspended negotiations with")),
    "Demand_change_in_leadership": (("demand the resignation of", "demanded the resignation of"),),
    "Apologize": (("apologise to", "apologised to"), ("say sorry to", "said sorry to")),
    "Appeal_for_release_of_persons_or_property": (("call for the release of", "called for the release of"),),
    "Declare_truce,_ceasefire": (("declare a ceasefire with", "declared a ceasefire with"), ("agree to a truce with", "agreed to a truce with")),
    "Mediate": (("mediate for", "mediated for"), ("act as mediator for", "acted as mediator for")),
    "Assassinate": (("assassinate", "assassinated"),),
    "Torture": (("torture", "tortured"),),
    "Defend_verbally": (("defend", "defended"), ("speak up for", "spoke up for")),
    "Veto": (("veto", "vetoed"),),
    "Decline_comment": (("decline to comment on", "declined to comment on"), ("refuse to comment on", "refused to comment on")),
    "Forgive": (("forgive", "forgave"), ("pardon", "pardoned")),
    "Grant_asylum": (("grant asylum to", "granted asylum to"), ("give refuge to", "gave refuge to")),
    "Impose_blockade,_restrict_movement": (("blockade", "blockaded"), ("restrict the movement of", "restricted the movement of")),
    "Obstruct_passage,_block": (("block", "blocked"), ("obstruct", "obstructed")),
    "Appeal_for_aid": (("ask for aid from", "asked for aid from"), ("seek help from", "sought help from")),
    "Appeal_for_economic_aid": (("ask for economic aid from", "asked for economic aid from"),),
    "Appeal_for_humanitarian_aid": (("ask for humanitarian aid from", "asked for humanitarian aid from"),),
    "Demand_meeting,_negotiation": (("demand talks with", "demanded talks with"),),
    "Express_intent_to_mediate": (("offer to mediate for", "offered to mediate for"),),
    "Engage_in_judicial_cooperation": (("cooperate on legal matters with", "cooperated on legal matters with"),),
    "Express_intent_to_cooperate_militarily": (("pledge military cooperation with", "pledged military cooperation with"),),
    "Employ_aerial_weapons": (("carry out airstrikes on", "carried out airstrikes on"), ("launch air raids on", "launched air raids on")),
    "Carry_out_suicide_bombing": (("carry out a suicide bombing against", "carried out a suicide bombing against"),),
}


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> RelPhrase | None:
    """A phrase people use for ``relation`` (KG subject first), or None = the default."""
    opts = _REL.get(relation)
    if not opts:
        return None
    base, past = pick(opts)
    return RelPhrase(base, past)


__all__ = ["TEMPLATES", "TIME_STYLES", "WORDS", "entity_surface", "relation_surface"]
