"""Rules of the names15 round: titles and nicknames written with persons' names, names written
with their owner first, and sector / place / agreement rows the KG's naming needs. Tiny
hand-made name lists with hand-set fact counts, hand-checked; one check on the real KG (skipped
without it).

* a **title** before a person's name is part of the mention and never part of the name looked
  up ("President Obama", "Prime Minister Nouri al-Maliki", "Pope Benedict XVI"); a capitalised
  office between an article and "of" is no surname ("the King of Bahrain" is no Angus_King);
* an English **nickname** of the given name, with the surname ("Jack Lew" for Jacob_J._Lew);
* a name that says its **owner** last, written with the owner first ("Korea's People First
  Party", "the UN special rapporteurs");
* data rows: "religious figures" (Religion), "public works ministry" (Public_Works), "a central
  bank" where the KG names the country's bank by its name (The_Afghanistan_Bank), "an
  unidentified state" (Unidentified_State_Actor), one-official sectors (Director_General) as
  persons for "he".
"""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.nlu import EntityMatcher
from tkgqa_ray.nlu.anaphora import features

NAMES = [
    "Barack_Obama", "Nuri_al-Maliki", "Benedict_XVI", "Angus_King", "Sheikh_Hamad_bin_Isa_al_Khalifah",
    "Jacob_J._Lew", "Jacob_Zuma", "John_Lewis", "Angela_Merkel", "Prime_Minister_Qarase",
    "People_First_Party_Korea", "Special_Rapporteurs_of_the_United_Nations", "South_Korea",
    "Religion_(Israel)", "Jew_(Israel)", "Public_Works_(Kuwait)", "Ministry_(Kuwait)", "The_Afghanistan_Bank",
    "Bank_(Iraq)", "Police_(Afghanistan)", "Central_Bank_(Greece)", "Bank_(Greece)", "Citizen_(Unidentified_State_Actor)", "Citizen_(Sudan)",
    "Director_General_(India)", "Men_(India)", "China", "Iran", "Israel", "Kuwait", "Afghanistan", "Sudan", "Bahrain",
]
FACTS = {"Barack_Obama": 18265, "Angus_King": 10}


@pytest.fixture(scope="module")
def matcher():
    return EntityMatcher(NAMES, np.array([FACTS.get(n, 50) for n in NAMES]))


def mentions(matcher, q):
    return [(m.text, m.names[0]) for m in matcher.match(q)]


def test_title_joins_the_person_mention(matcher):
    assert mentions(matcher, "Who did President Obama visit in 2010?") == [("President Obama", "Barack_Obama")]
    assert mentions(matcher, "Who did Prime Minister Nouri al-Maliki criticize?") == [
        ("Prime Minister Nouri al-Maliki", "Nuri_al-Maliki")]
    assert mentions(matcher, "Who did Mr. Obama praise?") == [("Mr. Obama", "Barack_Obama")]
    # a name found whole takes its title in, so "Pope" is no word of the relation
    assert mentions(matcher, "Who hosted Pope Benedict XVI?") == [("Pope Benedict XVI", "Benedict_XVI")]
    # a KG name that starts with its title still matches whole
    assert mentions(matcher, "Who did Prime Minister Qarase criticize?") == [("Prime Minister Qarase", "Prime_Minister_Qarase")]
    # a title before no person's name is left alone
    assert mentions(matcher, "Who did President Iran criticize?") == [("Iran", "Iran")]


def test_office_between_article_and_of_is_no_surname(matcher):
    got = mentions(matcher, "Before the King of Bahrain, Sheikh Hamad bin Isa al Khalifah, visited China, who had he visited?")
    assert ("King", "Angus_King") not in got
    assert ("Sheikh Hamad bin Isa al Khalifah", "Sheikh_Hamad_bin_Isa_al_Khalifah") in got
    # the surname reading itself stays ("King" alone, no article and no "of")
    assert mentions(matcher, "Who did King criticize?") == [("King", "Angus_King")]


def test_nickname_with_the_surname(matcher):
    assert mentions(matcher, "Tell me who Jack Lew made statements about in 2015.") == [("Jack Lew", "Jacob_J._Lew")]
    # the nickname is no reading without its surname, nor with another surname
    assert mentions(matcher, "Who did Jack Zuma visit?") == [("Jack Zuma", "Jacob_Zuma")]
    assert ("Bill Lew", "Jacob_J._Lew") not in mentions(matcher, "Who did Bill Lew visit?")


def test_owner_written_first(matcher):
    assert mentions(matcher, "Who met Korea's People First Party?") == [("Korea's People First Party", "People_First_Party_Korea")]
    assert mentions(matcher, "Who met the South Korean People First Party?") == [
        ("South Korean People First Party", "People_First_Party_Korea")]
    assert mentions(matcher, "Who yielded to the UN special rapporteurs?") == [
        ("UN special rapporteurs", "Special_Rapporteurs_of_the_United_Nations")]


def test_sector_and_place_rows(matcher):
    assert mentions(matcher, "What year did Israeli religious figures accuse Israeli Jews?") == [
        ("Israeli religious figures", "Religion_(Israel)"), ("Israeli Jews", "Jew_(Israel)")]
    assert mentions(matcher, "Who did Kuwait's Public Works ministry accuse?") == [
        ("Kuwait's Public Works ministry", "Public_Works_(Kuwait)")]
    assert mentions(matcher, "Who consulted Afghanistan's central bank?") == [
        ("Afghanistan's central bank", "The_Afghanistan_Bank")]
    # a Central_Bank_(Greece) of its own comes first
    m = matcher.match("Who consulted Greece's central bank?")[0]
    assert m.names[0] == "Central_Bank_(Greece)"
    assert mentions(matcher, "In which year did Sudan expel citizens of an unidentified state?") == [
        ("Sudan", "Sudan"), ("citizens of an unidentified state", "Citizen_(Unidentified_State_Actor)")]


def test_one_official_sectors_are_persons():
    f = features("an Indian director general", "Director_General_(India)")
    assert f.kind == "person" and f.role


def test_real_kg(real_kg_table):
    m = EntityMatcher.for_table(real_kg_table)
    got = [(x.text, x.names[0]) for x in m.match(
        "Before the King of Bahrain, Sheikh Hamad bin Isa al Khalifah, met President Obama, who met Jack Lew and Korea's People First Party?")]
    assert got == [("Sheikh Hamad bin Isa al Khalifah", "Sheikh_Hamad_bin_Isa_al_Khalifah"), ("President Obama", "Barack_Obama"),
                   ("Jack Lew", "Jacob_J._Lew"), ("Korea's People First Party", "People_First_Party_Korea")]
