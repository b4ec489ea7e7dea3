"""Rules of the names16 round: mentions of places, organisations and persons that dev12's
questions wrote otherwise than the KG. Tiny hand-made name lists with hand-set fact counts,
hand-checked; one check on the real KG (skipped without it).

* a place's **other name written alone** is the place's own entity ("East Timor" for
  Timor-Leste), not where a sector follows or a capitalised word goes on with the name;
* an organisation that is an actor's place is written by the **initials** of its words before
  the sector ("ULFA militants" for Militant_(United_Liberation_Force_of_Assam));
* a person's surname **spelt otherwise** next to a given name that matches ("Klaus Iohannis"
  for Klaus_Johannis), and such a spelling never after a word that is no name word ("Klaus"
  is no title of Ioannis_Kasoulidis);
* "battalion" is an organisation word: Rapid_Action_Battalion is no person, and initials
  shared with persons go to the one bearer that is an organisation by its words ("the RAB");
* data rows: "air marshal" (the KG's Air_Marshall), "religious community" (Religion), the
  Blue House (Chongwadai) and the SAPS (Police_(South_Africa)).
"""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.nlu import EntityMatcher

NAMES = [
    "Timor-Leste", "Head_of_Government_(Timor-Leste)", "Indigenous_People_(Portugal)", "Portugal",
    "South_Korea", "Police_(South_Korea)", "Chongwadai", "Police_(South_Africa)", "South_Africa",
    "Militant_(United_Liberation_Force_of_Assam)", "Militant_(India)", "Bansi_Lal",
    "Klaus_Johannis", "Ioannis_Kasoulidis", "International_Monetary_Fund",
    "Rapid_Action_Battalion", "Rafael_Antonio_Bielsa", "Citizen_(Bangladesh)", "Bangladesh",
    "Air_Marshall_(India)", "Military_Personnel_(India)", "India",
    "Religion_(Israel)", "Police_(Israel)", "Israel",
]
FACTS = {"Rapid_Action_Battalion": 515, "Rafael_Antonio_Bielsa": 137}


@pytest.fixture(scope="module")
def matcher():
    return EntityMatcher(NAMES, np.array([FACTS.get(n, 50) for n in NAMES]))


def mentions(matcher, q):
    return [(m.text, m.names[0]) for m in matcher.match(q)]


def test_other_name_of_a_place_alone(matcher):
    assert mentions(matcher, "Who did East Timor consult before it consulted Portugal's indigenous people?") == [
        ("East Timor", "Timor-Leste"), ("Portugal's indigenous people", "Indigenous_People_(Portugal)")]
    # a sector after it is the sector's (pattern A), as before
    assert mentions(matcher, "Who did the East Timor government consult?")[0][0] == "the East Timor government"
    # a capitalised word going on with the name makes it another name ("Korea Exchange Bank")
    assert mentions(matcher, "Who did Korea Exchange Bank praise?") == []
    # the KG name itself stays the exact match
    assert mentions(matcher, "Who did South Korea praise?") == [("South Korea", "South_Korea")]


def test_initials_of_an_organisation_before_a_sector(matcher):
    q = "In the year ULFA militants attacked Bansi Lal, who used military force against ULFA militants?"
    assert mentions(matcher, q) == [("ULFA militants", "Militant_(United_Liberation_Force_of_Assam)"),
                                    ("Bansi Lal", "Bansi_Lal"),
                                    ("ULFA militants", "Militant_(United_Liberation_Force_of_Assam)")]


def test_surname_spelt_otherwise_with_its_given_name(matcher):
    assert mentions(matcher, "What year did Klaus Iohannis first praise the IMF?") == [
        ("Klaus Iohannis", "Klaus_Johannis"), ("IMF", "International_Monetary_Fund")]
    p = matcher.persons
    # "Klaus" is no title before a misspelt "Ioannis": no reading of Ioannis_Kasoulidis
    assert NAMES.index("Ioannis_Kasoulidis") not in [r.eid for r in p.readings(["Klaus", "Iohannis"])]
    # the surname alone keeps the strict cutoff: "Iohannis" (87.5 to "johannis") names nobody
    assert p.sole(["Iohannis"]) is None


def test_battalion_is_an_organisation_and_persons_give_no_acronym(matcher):
    assert matcher.persons.words.get(NAMES.index("Rapid_Action_Battalion")) is None
    assert mentions(matcher, "When did the RAB first arrest citizens of Bangladesh?") == [
        ("RAB", "Rapid_Action_Battalion"), ("citizens of Bangladesh", "Citizen_(Bangladesh)")]


def test_data_rows(matcher):
    assert mentions(matcher, "Who praised an Indian air marshal?") == [("an Indian air marshal", "Air_Marshall_(India)")]
    assert mentions(matcher, "Who did Israeli police investigate after Israel's religious community protested?") == [
        ("Israeli police", "Police_(Israel)"), ("Israel's religious community", "Religion_(Israel)")]
    assert mentions(matcher, "After the Blue House made demands of the South Korean police, who did the SAPS criticize?") == [
        ("Blue House", "Chongwadai"), ("the South Korean police", "Police_(South_Korea)"), ("SAPS", "Police_(South_Africa)")]


def test_real_kg(real_kg_table):
    m = EntityMatcher.for_table(real_kg_table)
    got = [(x.text, x.names[0]) for x in m.match(
        "After East Timor and the RAB met Klaus Iohannis, who did ULFA militants attack?")]
    assert got == [("East Timor", "Timor-Leste"), ("RAB", "Rapid_Action_Battalion"), ("Klaus Iohannis", "Klaus_Johannis"),
                   ("ULFA militants", "Militant_(United_Liberation_Force_of_Assam)")]
