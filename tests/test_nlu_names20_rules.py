"""Rules of the names20 round (dev14 / dev15 residue), hand-checked.

Names (nlu/actors.py, data/capitals.tsv): a capital city is written for its country's government
("Beijing said", "Seoul hosted"); the KG has no entity for these cities, so a capital is one more
name of its place, never rendered (generated phrasings keep the country's own names).

Relation lexicon (relation_lexicon.yaml): "**got** economic / military / humanitarian aid **from**"
is the swapped Provide_* row as "received ... from" is; "**entered** Iran" is Make_a_visit (CAMEO
042, travel to another location).

Question form (nlu/temporal.py): "In which month **of the year** X did Y ... did they ...?" is a
same-year reference cue; "In which month of the year did X ...?" (no clause) is none.

Agreement (data/agreement.tsv): a sector whose head noun is one person's role ("Terrorist_Leader",
"Rebel_Commander", "Cleric") is a person for "he" / "him".
"""

from __future__ import annotations

import pytest

from tkgqa_ray.nlu import parse_temporal_cues
from tkgqa_ray.nlu.actors import place_lexicon
from tkgqa_ray.nlu.anaphora import agreement, features
from tkgqa_ray.nlu.entities import EntityMatcher
from tkgqa_ray.nlu.lexicon import RelationLexicon

RELS = [
    "Provide_aid", "Provide_economic_aid", "Provide_military_aid", "Provide_humanitarian_aid",
    "Make_a_visit", "Express_intent_to_meet_or_negotiate", "Engage_in_negotiation", "Consult",
]


@pytest.fixture(scope="module")
def lex():
    return RelationLexicon(RELS)


def top(lex, phrase):
    h = lex.match(phrase)[0]
    return ("<> " if h.swap else "") + h.relation


# ------------------------------------------------------------------ capitals
@pytest.mark.parametrize("city, key", [("Beijing", "CHN"), ("Seoul", "KOR"), ("Tehran", "IRN"), ("Kyiv", "UKR")])
def test_capital_resolves_to_its_country(city, key):
    lex = place_lexicon()
    assert lex.resolve(city) == key
    assert city not in lex.own_names.get(key, [])  # never rendered


def test_capital_names_the_country_entity():
    m = EntityMatcher(["China", "South_Korea", "Government_(China)", "Government_(South_Korea)", "Seoul_High_Court", "Japan"])
    got = {x.text: x.names[0] for x in m.match("Who last declared a ceasefire with Japan before Seoul hosted Beijing?")}
    assert got["Seoul"] == "South_Korea" and got["Beijing"] == "China"
    # a KG name with the city in it is still read as that name
    got = {x.text: x.names[0] for x in m.match("Who criticised the Seoul High Court?")}
    assert got.get("Seoul High Court") == "Seoul_High_Court"


# ------------------------------------------------------------------ relation lexicon
@pytest.mark.parametrize("phrase, relation", [
    ("got economic aid from", "<> Provide_economic_aid"),
    ("got military aid from", "<> Provide_military_aid"),
    ("got humanitarian aid from", "<> Provide_humanitarian_aid"),
    ("got help from", "<> Provide_aid"),
    ("entered", "Make_a_visit"),
])
def test_relation_rows(lex, phrase, relation):
    assert top(lex, phrase) == relation


# ------------------------------------------------------------------ question form
def test_month_of_the_year_clause_is_a_same_year_cue():
    q = ("In which month of the year the Macedonian police used conventional military force in the "
         "Middle East did they exchange small-arms fire with an armed band in Macedonia?")
    cues = parse_temporal_cues(q)
    assert [(c.kind, c.op, c.granularity) for c in cues] == [("event", "equal", "year")]
    assert cues[0].text.startswith("of the year")
    q = "In which month of the year when Iran threatened Iraq did China visit Japan?"
    assert [(c.kind, c.granularity) for c in parse_temporal_cues(q)] == [("event", "year")]


@pytest.mark.parametrize("q", [
    "In which month of the year did China visit Japan?",
    "In which month of the year does China usually visit Japan?",
])
def test_month_of_the_year_without_a_clause_is_no_cue(q):
    assert parse_temporal_cues(q) == []


# ------------------------------------------------------------------ agreement
@pytest.mark.parametrize("name", ["Terrorist_Leader_(Syria)", "Rebel_Commander_(Libya)", "Cleric_(Iraq)"])
def test_role_noun_sector_is_a_person(name):
    f = features("a " + name.split("_(")[0].replace("_", " ").lower(), name)
    assert f.kind == "person"
    assert agreement("him", f) > 0
