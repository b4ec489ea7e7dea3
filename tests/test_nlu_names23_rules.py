"""Rules of the names23 round (an actor-reference audit over 150 KG actor mentions), hand-checked.

Actor grammar (nlu/actors.py, data/premodifiers.tsv): a sector form that opens with a modifier
English writes before a nationality adjective ("high-ranking", "senior", "armed", "displaced")
also takes the country after that modifier: "high-ranking Indian military personnel", "armed
Ukrainian rebels".

Sector synonyms (data/sectors.tsv): "officers" after a demonym are the police ("Australian
officers"); "human rights activists" reach Rights_Activist where the country has no
Human_Rights_Activist; "the top brass" / "military brass" are High_Ranking_Military_Personnel;
a party's members' plural is the party ("the Nigerian Democrats", "Russian communists"), and
data/aliases.tsv: "the Democrats" is Democratic_Party.

Capitals (nlu/actors.py, rule F): a capital (or a place's other name) before "'s" and a plain
noun is its country ("Beijing's position"); before a sector the possessive stays A's actor
reading ("Beijing's government"), before a capitalised name it only locates that name.

Own entity by another name (nlu/actors.py): a place whose actors the KG names by one name
(``Cabinet_..._(Holy_See_(Vatican_City_State))``) and the state itself by another of the place
lexicon's names (``Holy_See``): the place's other names ("the Vatican") are that entity.
"""

from __future__ import annotations

import pytest

from tkgqa_ray.nlu.actors import premodified_templates, sector_forms
from tkgqa_ray.nlu.entities import EntityMatcher

NAMES = [
    "India", "Ukraine", "Syria", "Australia", "Nigeria", "Russia", "China", "Kenya",
    "High_Ranking_Military_Personnel_(India)", "Military_Personnel_(India)",
    "Armed_Rebel_(Ukraine)", "Rebel_(Ukraine)", "Displaced_Families_(Syria)",
    "Police_(Australia)", "Rights_Activist_(Australia)",
    "Human_Rights_Activist_(Nigeria)", "Rights_Activist_(Nigeria)",
    "Democratic_Party", "Democratic_Party_(Nigeria)", "Communist_Party_(Russia)",
    "Government_(China)", "Envoy_(China)", "Xi_Jinping", "Grand_National_Party",
]


@pytest.fixture(scope="module")
def matcher():
    return EntityMatcher(NAMES)


def first(m, q):
    """surface -> first candidate's KG name."""
    return {x.text: x.names[0] for x in m.match(q)}


# ------------------------------------------------------------------ premodifiers
def test_premodified_templates():
    assert premodified_templates("high ranking military personnel") == [
        "high ranking * military personnel", "high-ranking * military personnel"]
    assert premodified_templates("high-ranking military officer")[1] == "high-ranking * military officer"
    assert premodified_templates("armed rebel") == ["armed * rebel"]
    assert premodified_templates("foreign ministry") == []  # a classifier: "the Thai foreign ministry"
    assert premodified_templates("senior * officer") == []  # already a template
    assert ("armed * rebel", 1.0) in sector_forms("Armed_Rebel")


@pytest.mark.parametrize("q, surface, name", [
    ("Who met high-ranking Indian military personnel?", "high-ranking Indian military personnel",
     "High_Ranking_Military_Personnel_(India)"),
    ("Who met high ranking Indian military personnel?", "high ranking Indian military personnel",
     "High_Ranking_Military_Personnel_(India)"),
    ("Who criticised armed Ukrainian rebels?", "armed Ukrainian rebels", "Armed_Rebel_(Ukraine)"),
    ("Who criticised the Ukrainian armed rebels?", "the Ukrainian armed rebels", "Armed_Rebel_(Ukraine)"),
    ("Who hosted displaced Syrian families?", "displaced Syrian families", "Displaced_Families_(Syria)"),
])
def test_modifier_before_the_demonym(matcher, q, surface, name):
    assert first(matcher, q).get(surface) == name


# ------------------------------------------------------------------ sector synonyms
@pytest.mark.parametrize("q, surface, name", [
    ("Who did Australian officers arrest?", "Australian officers", "Police_(Australia)"),
    ("Who accused Australian human rights activists?", "Australian human rights activists",
     "Rights_Activist_(Australia)"),
    # where both sectors exist the specific one ranks first
    ("Who accused Nigerian human rights activists?", "Nigerian human rights activists",
     "Human_Rights_Activist_(Nigeria)"),
    ("Who praised India's top military brass?", "India's top military brass",
     "High_Ranking_Military_Personnel_(India)"),
    ("Who did the Nigerian Democrats criticise?", "the Nigerian Democrats", "Democratic_Party_(Nigeria)"),
    ("Who did Russian communists praise?", "Russian communists", "Communist_Party_(Russia)"),
])
def test_sector_synonyms(matcher, q, surface, name):
    assert first(matcher, q).get(surface) == name


def test_the_democrats_is_the_party(matcher):
    got = first(matcher, "In the year the Democrats called for reform, whom did the Grand National Party meet?")
    assert got.get("Democrats") == "Democratic_Party"


# ------------------------------------------------------------------ a capital's possessive
def test_capital_possessive_before_a_plain_noun(matcher):
    assert first(matcher, "Who rejected Beijing's position in 2010?") == {"Beijing": "China"}
    # before a sector form: the actor reference (A), not the bare capital
    got = first(matcher, "Who criticised Beijing's envoy?")
    assert got == {"Beijing's envoy": "Envoy_(China)"}
    # before a capitalised name the possessive only locates it
    assert "Beijing" not in first(matcher, "Who met Beijing's Xi Jinping?")


def test_real_kg_actor_references(real_kg_table):
    m = EntityMatcher.for_table(real_kg_table)
    for q, surface, name in [
        ("Who met high-ranking Indian military personnel?", "high-ranking Indian military personnel",
         "High_Ranking_Military_Personnel_(India)"),
        ("Who did Australian officers arrest?", "Australian officers", "Police_(Australia)"),
        ("After Chinese customs officials rejected Beijing's position, who met China?", "Beijing", "China"),
        ("When did the Democrats call for reform?", "Democrats", "Democratic_Party"),
    ]:
        assert first(m, q).get(surface) == name, q


# ------------------------------------------------------------------ own entity by another name
def test_place_entity_by_another_of_its_names():
    m = EntityMatcher(["Holy_See", "Cabinet_/_Council_of_Ministers_/_Advisors_(Holy_See_(Vatican_City_State))",
                       "Government_(Holy_See_(Vatican_City_State))", "Italy"])
    assert first(m, "Who praised the Vatican?") == {"the Vatican": "Holy_See"}
    assert first(m, "Who praised the Vatican's position?") == {"the Vatican": "Holy_See"}
    got = first(m, "Did the Vatican's cabinet meet Italy?")
    assert got["the Vatican's cabinet"].startswith("Cabinet_")
    # no own entity by any of its names: nothing to read
    m = EntityMatcher(["Government_(Holy_See_(Vatican_City_State))", "Italy"])
    assert "the Vatican" not in first(m, "Who praised the Vatican?")
