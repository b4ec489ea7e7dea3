"""Rules of the names34 round (names and relation words left on dev21 / dev22), hand-checked
against tiny entity lists below (their names as in the MultiTQ KG), in our own phrasings.

- organisations the KG keeps by their English names are written by the initials of their own
  language's name ("the FIDH", "MSF", "the PSOE"); Libya's transitional government is the KG's
  National_Transitional_Council (the KG has no Government_(Libya)) (data/aliases.tsv);
- "Islamist" spells the KG's "Islamic" of a sector ("an Islamist extremist group"); person nouns of
  business ("businesspeople") read Business_(X) too, below Businessperson_(X) (data/sectors.tsv);
- two place adjectives coordinated before one sector noun name two actors ("Kenyan and South
  African police": Police_(Kenya) and Police_(South_Africa));
- a capitalised sector name after "the" in a question naming a country is that country's actor
  first, its own reading after it ("the Human Rights Commission" after "South African police");
- "IRA" before a sector or member noun ("IRA members") reads the KG's other IRA, known only as its
  actors' place (Terrorist_(Irish_Republican_Army)), the Provisional IRA after it; alone it stays
  Provisional_Irish_Republican_Army;
- a lesser sector form shared by several sectors ("cleric") reads first the one the KG has
  DOMINANCE times more facts of at that place (Islamic_Preacher_(Iran)).
"""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.nlu import EntityMatcher, analyze

NAMES = [
    "International_Federation_of_Human_Rights", "Doctors_Without_Borders", "Maluku_Sovereignty_Front",
    "Spanish_Socialist_Workers'_Party", "National_Transitional_Council", "Police_(Libya)", "Spain", "France",
    "Men_(France)", "Islamic_Extremist_Group_(Egypt)", "Islamic_Militant_(Egypt)", "Egypt",
    "Business_(Poland)", "Businessperson_(Poland)", "Poland", "Business_(Iran)", "Business_(Iraq)",
    "Businessperson_(Iran)", "Iran", "Iraq", "Police_(Kenya)", "Police_(South_Africa)", "Kenya", "South_Africa",
    "Human_Rights_Commission_(South_Africa)", "Human_Rights_Commission_(Kenya)", "Assemblies_(Human_Rights_Commission)",
    "Men_(South_Africa)", "Democratic_Party", "Democratic_Party_(Nigeria)", "Democratic_Party_(Japan)",
    "Presidential_Candidate_(Nigeria)", "Nigeria", "Barack_Obama",
    "Islamic_Preacher_(Iran)", "Islamic_Cleric_(Iran)", "Muslim_Cleric_(Iran)",
    "Cleric_(Kuwait)", "Muslim_Cleric_(Kuwait)", "Kuwait", "Muslim_Cleric_(Sudan)", "Islamic_Cleric_(Sudan)", "Sudan",
    "Provisional_Irish_Republican_Army", "Terrorist_(Irish_Republican_Army)", "Colombia", "Ireland",
]
FACTS = {"Islamic_Preacher_(Iran)": 560, "Islamic_Cleric_(Iran)": 1, "Muslim_Cleric_(Iran)": 9,
         "Cleric_(Kuwait)": 1, "Muslim_Cleric_(Kuwait)": 40, "Muslim_Cleric_(Sudan)": 4, "Islamic_Cleric_(Sudan)": 6,
         "Democratic_Party": 600, "Democratic_Party_(Nigeria)": 280, "Iran": 9000, "Iraq": 9000}
M = EntityMatcher(NAMES, np.array([FACTS.get(n, 3) for n in NAMES]))


def found(q: str, m: EntityMatcher = M) -> dict[str, tuple[str, ...]]:
    return {x.text: x.names for x in m.match(q)}


def analysed(q: str, m: EntityMatcher = M) -> dict[str, tuple[str, ...]]:
    return {x.text: x.names for x in analyze(q, m).mentions}


# ------------------------------------------------------------------ initials of the own-language name


@pytest.mark.parametrize("q, text, name", [
    ("When did the FIDH accuse France of abuses?", "FIDH", "International_Federation_of_Human_Rights"),
    ("Who praised MSF in 2006?", "MSF", "Doctors_Without_Borders"),  # not Maluku_Sovereignty_Front's initials
    ("Who did Médecins Sans Frontières appeal to?", "Médecins Sans Frontières", "Doctors_Without_Borders"),
    ("Did the PSOE criticise Spain?", "PSOE", "Spanish_Socialist_Workers'_Party"),
])
def test_initials_of_the_own_language_name(q, text, name):
    assert found(q)[text] == (name,)


@pytest.mark.parametrize("q, text", [
    ("Which country hosted the transitional Libyan government in 2011?", "transitional Libyan government"),
    ("Whom did Libya's interim government thank?", "Libya's interim government"),
])
def test_libyas_transitional_government_is_the_council(q, text):
    assert found(q)[text] == ("National_Transitional_Council",)


def test_libyan_police_stay_the_police():
    assert found("Who did the Libyan police arrest?")["the Libyan police"] == ("Police_(Libya)",)


# ------------------------------------------------------------------ sector spellings


def test_islamist_spells_islamic():
    got = found("Who accused an Egyptian Islamist extremist group of bombings?")
    assert got["an Egyptian Islamist extremist group"] == ("Islamic_Extremist_Group_(Egypt)",)
    assert found("Who did Egyptian Islamists attack?")["Egyptian Islamists"] == ("Islamic_Militant_(Egypt)",)


def test_business_people_read_business_below_the_person_sector():
    m = [x for x in M.match("When did Polish businesspeople travel to Iran?") if x.text == "Polish businesspeople"][0]
    assert m.names == ("Businessperson_(Poland)", "Business_(Poland)")
    assert m.scores[0] == 1.0 and m.scores[1] < 1.0
    assert found("Which Polish companies did Iran sign with?").get("Polish companies", ("Business_(Poland)",))[0] == "Business_(Poland)"


# ------------------------------------------------------------------ coordinated place adjectives


def test_two_adjectives_before_one_sector_noun():
    got = found("When did Iranian and Iraqi businesses sign a deal?")
    assert got["Iranian"] == ("Business_(Iran)",) and got["Iraqi businesses"] == ("Business_(Iraq)",)
    got = found("Who did the Kenyan and South African police arrest?")
    assert got["Kenyan"] == ("Police_(Kenya)",) and got["South African police"] == ("Police_(South_Africa)",)
    got = found("Who did South African or Kenyan police question?")
    assert got["South African"] == ("Police_(South_Africa)",) and got["Kenyan police"] == ("Police_(Kenya)",)


def test_a_name_before_and_is_no_adjective():
    got = found("When did Iran and Iraqi businesses meet?")
    assert got["Iran"] == ("Iran",) and "Iranian" not in got


# ------------------------------------------------------------------ the question's country's institution


def test_capitalised_sector_name_is_the_countrys_actor_first():
    got = analysed("After the South African police criticised the Human Rights Commission, whom did they arrest?")
    assert got["the Human Rights Commission"][:2] == ("Human_Rights_Commission_(South_Africa)", "Assemblies_(Human_Rights_Commission)")
    got = analysed("Before a Nigerian presidential candidate praised the Democratic Party, who had praised it?")
    assert got["Democratic Party"] == ("Democratic_Party_(Nigeria)", "Democratic_Party")


def test_capitalised_sector_name_without_a_country_is_unchanged():
    assert analysed("Who criticised the Democratic Party in 2008?")["Democratic Party"] == ("Democratic_Party",)
    # a person names no country; Barack_Obama's party stays the KG's own Democratic_Party
    assert analysed("After Barack Obama praised the Democratic Party, who praised Iran?")["Democratic Party"] == ("Democratic_Party",)
    # a country's own actor written with the country is left as it is
    got = analysed("Did Kenya meet South Africa's Human Rights Commission?")
    assert got["South Africa's Human Rights Commission"] == ("Human_Rights_Commission_(South_Africa)",)


# ------------------------------------------------------------------ the KG's usual reading of a lesser form


def test_cleric_reads_the_dominant_sector_of_the_place():
    m = [x for x in M.match("Did an Iranian cleric criticise Iraq?") if x.text == "an Iranian cleric"][0]
    assert m.names[0] == "Islamic_Preacher_(Iran)"
    assert set(m.names) == {"Islamic_Preacher_(Iran)", "Islamic_Cleric_(Iran)", "Muslim_Cleric_(Iran)"}
    assert m.scores[0] > max(m.scores[1:])


def test_a_main_form_or_no_dominance_keeps_the_order():
    # "cleric" is Cleric's main form: Cleric_(Kuwait) first whatever the facts
    assert found("Who met Kuwaiti clerics?")["Kuwaiti clerics"][0] == "Cleric_(Kuwait)"
    # 6 facts against 4: no reading dominates, the forms' order stays (ties by name)
    got = [x for x in M.match("Who met Sudanese clerics?") if x.text == "Sudanese clerics"][0]
    assert got.scores[0] == got.scores[1]


# ------------------------------------------------------------------ the other IRA before a noun


@pytest.mark.parametrize("q, text", [
    ("Did Colombia host IRA members in 2001?", "IRA members"),
    ("Who arrested IRA militants in 2005?", "IRA militants"),
])
def test_ira_before_a_noun_is_the_groups_actor_first(q, text):
    m = [x for x in M.match(q) if x.text == text][0]
    assert m.names == ("Terrorist_(Irish_Republican_Army)", "Provisional_Irish_Republican_Army")
    assert m.scores[0] > m.scores[1]


def test_the_ira_alone_stays_the_provisional_ira():
    assert found("When did the IRA reject Ireland?")["IRA"] == ("Provisional_Irish_Republican_Army",)
    assert found("Who did the IRA meet?")["IRA"] == ("Provisional_Irish_Republican_Army",)


# ------------------------------------------------------------------ de-escalation verbs, the UN's Kosovo mission


def _ranked(lex, phrase: str) -> list[str]:
    out: list[str] = []
    for h in lex.match(phrase):
        if h.relation not in out:
            out.append(h.relation)
    return out


@pytest.mark.parametrize("phrase, rel", [
    ("signalled a willingness to scale back military engagement toward", "Express_intent_to_de-escalate_military_engagement"),
    ("promised to wind down military engagement in", "Express_intent_to_de-escalate_military_engagement"),
    ("refused to scale down military engagement with", "Refuse_to_de-escalate_military_engagement"),
])
def test_scale_back_military_engagement(phrase, rel):
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    lex = RelationLexicon(["Express_intent_to_de-escalate_military_engagement", "Refuse_to_de-escalate_military_engagement",
                           "Express_intent_to_yield", "Yield", "Use_conventional_military_force"])
    assert _ranked(lex, phrase)[0] == rel


def test_un_mission_in_kosovo():
    m = EntityMatcher(["United_Nations_Interim_Administration_in_Kosovo", "Kosovo", "Serbia"])
    assert found("Who criticised the UN mission in Kosovo in 2008?", m)["UN mission in Kosovo"] == (
        "United_Nations_Interim_Administration_in_Kosovo",)


# ------------------------------------------------------------------ central banks named by their country


BANKS = ["The_Afghanistan_Bank", "Bank_of_Lithuania", "National_Bank_of_Rwanda", "Swiss_National_Bank",
         "Central_Bank_(Greece)", "Bank_(Greece)", "Bank_(Iraq)", "Afghanistan", "Lithuania", "Rwanda", "Switzerland",
         "Greece", "Iraq",
         # the grammar knows a place through its actors
         "Citizen_(Afghanistan)", "Citizen_(Lithuania)", "Citizen_(Rwanda)", "Citizen_(Switzerland)"]


@pytest.mark.parametrize("q, text, name", [
    ("Who praised Afghanistan's central bank?", "Afghanistan's central bank", "The_Afghanistan_Bank"),
    ("Who met the Lithuanian central bank in 2009?", "the Lithuanian central bank", "Bank_of_Lithuania"),
    ("Did Rwanda's central bank meet Switzerland?", "Rwanda's central bank", "National_Bank_of_Rwanda"),
    ("Who did the Swiss central bank criticise?", "the Swiss central bank", "Swiss_National_Bank"),
])
def test_a_countrys_named_bank_is_its_central_bank(q, text, name):
    m = [x for x in EntityMatcher(BANKS).match(q) if x.text == text][0]
    assert m.names == (name,) and m.score == 1.0


def test_a_central_bank_actor_and_a_banks_sector_are_unchanged():
    m = EntityMatcher(BANKS)
    assert found("Who met the Greek central bank?", m)["the Greek central bank"][0] == "Central_Bank_(Greece)"
    got = [x for x in m.match("Who met the Iraqi central bank?") if x.text == "the Iraqi central bank"][0]
    assert got.names == ("Bank_(Iraq)",) and got.score < 1.0  # banks of Iraq: a lesser reading
