"""Rules of the refs15 round: references across clauses (nlu.analysis / nlu.anaphora, SCoP).
Checked by hand on the author's own questions (none is copied from a question set) over
hand-made entity lists and a tiny hand-made KG.

* **rule 1, a sector noun without its country** ("... before a Kenyan lawyer lodged a
  complaint against **the police**", "their legislature", "released **officials**,"): English
  reads it as the sector of the country in context. It becomes a mention whose candidates
  are that sector in every country the question names (nearest first); the KG evidence picks
  one. Before, the noun was no name: the reference lost its object (a one-name "parallel"
  reading) or the asked event its subject. Not a name: a noun that modifies the next noun
  ("an official complaint", "police power"), a bare noun of a CAMEO action ("mobilised
  troops", "deployment of peacekeepers"), a bare plural with more of its clause after it
  (the theme of "handed over freed detainees to X"), a generic actor noun ("the party that")
  and the asked phrase ("which officials").
* **rule 2, a main-clause pronoun that agrees with both names of the reference** ("In the
  same month Kenyan citizens appealed to the Kenyan police, who cut back relations with
  **them**?": two groups): it stands for the one the KG holds the asked action for in the
  pronoun's slot (SCoP). Before, the reference's name in the pronoun's own slot was taken
  (the police), which has no such fact.
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.symbolic import event_parser
from tkgqa_ray.nlu import EntityMatcher, analyze

ROWS = [
    # rule 1: Kenyan citizens accused Odinga (2010) and the police (2012); a Kenyan lawyer
    # complained about the Kenyan police in 2011 (Peru's police exist, with no complaint)
    ("Citizen_(Kenya)", "Accuse", "Raila_Odinga", "2010-01-05"),
    ("Citizen_(Kenya)", "Accuse", "Police_(Kenya)", "2012-01-05"),
    ("Lawyer/Attorney_(Kenya)", "Complain_officially", "Police_(Kenya)", "2011-01-05"),
    ("Police_(Peru)", "Make_statement", "Peru", "2011-03-05"),
    # two countries: Peru's head of government visited Kenya in 2012; only Peru's police arrest
    ("Head_of_Government_(Peru)", "Make_a_visit", "Kenya", "2012-02-01"),
    ("Police_(Peru)", "Arrest,_detain,_or_charge_with_legal_action", "Citizen_(Peru)", "2013-02-01"),
    ("Police_(Peru)", "Arrest,_detain,_or_charge_with_legal_action", "Criminal_(Peru)", "2011-02-01"),
    ("Police_(Kenya)", "Make_statement", "Kenya", "2013-02-01"),
    # rule 2: the citizens appealed to the police in 2014-06; the government cut back relations
    # with the citizens that month (no one did with the police)
    ("Citizen_(Kenya)", "Make_an_appeal_or_request", "Police_(Kenya)", "2014-06-03"),
    ("Government_(Kenya)", "Reduce_relations", "Citizen_(Kenya)", "2014-06-20"),
    ("Peru", "Reduce_relations", "Kenya", "2014-06-21"),
]

NAMES = ["Citizen_(Kenya)", "Raila_Odinga", "Police_(Kenya)", "Lawyer/Attorney_(Kenya)", "Police_(Peru)", "Peru", "Kenya",
         "Head_of_Government_(Peru)", "Citizen_(Peru)", "Criminal_(Peru)", "Legislature_(Kenya)", "Military_(Kenya)",
         "Detainee_(Kenya)", "Other_Authorities_/_Officials_(Kenya)", "Political_Parties_(Kenya)"]



def _mentions(q: str) -> dict[str, tuple[str, ...]]:
    return {m.text: m.names for m in analyze(q, EntityMatcher(NAMES)).mentions}


# ------------------------------------------------------------------ rule 1: mentions
@pytest.mark.parametrize("q, text, names", [
    ("Who did Kenyan citizens last accuse before a Kenyan lawyer lodged an official complaint against the police?",
     "the police", ("Police_(Kenya)",)),
    # a possessive: the legislature of the country in context
    ("Who sued Kenyan citizens in the year they said they would cooperate with their legislature?",
     "their legislature", ("Legislature_(Kenya)",)),
    # a bare plural closing its clause
    ("Before Kenyan political parties released officials, when did Raila Odinga last visit Peru?",
     "officials", ("Other_Authorities_/_Officials_(Kenya)",)),
    # two countries: both are candidates, the nearest first
    ("After Peru's head of government visited Kenya, whom did the police first arrest?",
     "the police", ("Police_(Kenya)", "Police_(Peru)")),
])
def test_rule1_context_sector_mentions(q, text, names):
    assert _mentions(q)[text] == names


@pytest.mark.parametrize("q, word", [
    ("Who did Kenyan citizens accuse before a Kenyan lawyer lodged an official complaint against Peru?", "official"),
    ("When did Kenyan citizens first demonstrate police power against Peru?", "police"),
    ("When did Kenya first mobilize troops against Peru?", "troops"),
    ("Before Kenya mobilized troops, when did Raila Odinga last visit Peru?", "troops"),  # a CAMEO action's noun
    ("When did Kenya demonstrate military or police power against Peru?", "military"),
    ("Ten days after Kenya handed over freed detainees to Peru, which party did Raila Odinga visit?", "detainees"),
    ("Which officials did Raila Odinga visit after Kenya criticised Peru?", "officials"),
    ("Who was the last party to visit Kenya before Raila Odinga visited Peru?", "party"),
])
def test_rule1_no_context_sector(q, word):
    assert not any(word in t for t in _mentions(q) if not any(c.isupper() for c in t))


def test_rule1_needs_a_country_in_the_question():
    assert "the police" not in _mentions("Who did Raila Odinga accuse before a lawyer complained about the police?")


# ------------------------------------------------------------------ rule 1: parse and answers
def test_rule1_parse(ctx):
    q = "Who did Kenyan citizens last accuse before a Kenyan lawyer lodged an official complaint against the police?"
    out = event_parser({"question": q}, ctx)
    assert out["anchors"] == [["a Kenyan lawyer", "lodged an complaint against", "the police"]]
    assert out["search"] == ["Kenyan citizens", "accuse", "?"]


@pytest.mark.parametrize("q, gold", [
    # before 2011-01 the citizens last accused Odinga (without the rule: the lawyer's reading)
    ("Who did Kenyan citizens last accuse before a Kenyan lawyer lodged an official complaint against the police?",
     ["Raila Odinga"]),
    # "the police" is Kenya's or Peru's; only Peru's police arrest anyone: after 2012-02, Citizen (Peru)
    ("After Peru's head of government visited Kenya, whom did the police first arrest?", ["Citizen (Peru)"]),
])
def test_rule1_end_to_end(ctx, q, gold):
    assert answer(ctx, q) == gold


# ------------------------------------------------------------------ rule 2
def test_rule2_tied_pronoun_takes_the_name_with_evidence(ctx):
    q = "In the same month Kenyan citizens made an appeal to the Kenyan police, who reduced relations with them?"
    assert event_parser({"question": q}, ctx)["search"] == ["?", "reduced relations with", "Kenyan citizens"]
    assert answer(ctx, q) == ["Government (Kenya)"]


def test_rule2_agreement_still_decides_first(ctx):
    # "it" agrees with Kenya only (the citizens are a group): no KG check overrides it
    q = "In the same month Kenyan citizens made an appeal to Kenya, who reduced relations with it?"
    assert event_parser({"question": q}, ctx)["search"] == ["?", "reduced relations with", "Kenya"]
