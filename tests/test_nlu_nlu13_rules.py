"""Rules of the nlu13 round: one antecedent resolver for pronouns across clauses
(:mod:`tkgqa_ray.nlu.anaphora`), used by SCoP and TCC-RAG. Checked by hand on the author's own
questions (none is copied from a question set) over tiny hand-made name lists and KGs.

* **agreement**: "he" / "she" a person (a known given name's gender; a sector role such as a
  head of government either), "it" a country or an organisation, "they" / "them" a group
  (a plural head noun, a group sector such as Police or Citizen) or a sector role (singular
  "they") and, less well, an organisation; a name of no known kind agrees with every pronoun;
* **no antecedent**: a pronoun no name agrees with stands for none ("demanded **them**" after
  "demanded talks with Iran": the talks);
* SCoP: an object pronoun of a time question's reference, a subject pronoun opening it
  ("before **he** negotiated with X"), a main-clause pronoun of a full reference ("who had
  **she** last praised?") take the agreeing name;
* TCC-RAG: the reference's object pronoun and the main-clause pronoun, the same resolver.
"""

from __future__ import annotations

import pytest

from test_nlu_nlu11_rules import _occ  # a grounded occurrence of a surface in q, as TCC-RAG passes it
from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.anaphora import agreement, antecedent, features, opening_pronoun, plural_surface


# ------------------------------------------------------------------ features and agreement
@pytest.mark.parametrize("surface, plural", [
    ("Kenyan citizens", True), ("the courts of Ghana", True), ("the Peruvian police", True), ("Chileans", True),
    ("Kenya's head of government", False), ("the Labour Party", False), ("Congress", False), ("Ghana's parliament", False),
])
def test_plural_surface(surface, plural):
    assert plural_surface(surface) is plural


@pytest.mark.parametrize("surface, name, kind, gender", [
    ("Kenyan citizens", "Citizen_(Kenya)", "group", None),
    ("the Peruvian police", "Police_(Peru)", "group", None),
    ("Ghana's head of government", "Head_of_Government_(Ghana)", "person", None),
    ("the Kenyan government", "Government_(Kenya)", "org", None),
    ("Ghana", "Ghana", "country", None),
    ("the Labour Party", "Labour_Party", "org", None),
    ("Angela Merkel", "Angela_Merkel", "person", "f"),
    ("Vladimir Putin", "Vladimir_Putin", "person", "m"),
    ("Zorblat Quux", "Zorblat_Quux", "unknown", None),
])
def test_features(surface, name, kind, gender):
    f = features(surface, name)
    assert (f.kind, f.gender) == (kind, gender)


def test_agreement_follows_english():
    citizens = features("Kenyan citizens", "Citizen_(Kenya)")
    party = features("the Labour Party", "Labour_Party")
    merkel = features("Angela Merkel", "Angela_Merkel")
    head = features("Ghana's head of government", "Head_of_Government_(Ghana)")
    ghana = features("Ghana", "Ghana")
    assert agreement("them", citizens) > agreement("them", party) > 0  # an organisation may be "they"
    assert agreement("them", ghana) == 0 and agreement("it", ghana) > 0
    assert agreement("him", merkel) == 0 and agreement("her", merkel) == 3
    assert agreement("him", head) == 2 and agreement("they", head) == 2  # a role: singular "they"
    assert agreement("he", citizens) == 0 and agreement("it", citizens) == 0


def test_antecedent_is_the_best_agreeing_name_in_the_callers_order():
    cands = [("the Labour Party", "Labour_Party"), ("Kenyan citizens", "Citizen_(Kenya)")]
    assert antecedent("them", cands) == 1  # not the nearest or the first: the one that agrees best
    assert antecedent("it", cands) == 0
    two = [("Angela Merkel", "Angela_Merkel"), ("Ghana's head of government", "Head_of_Government_(Ghana)")]
    assert antecedent("him", two) == 1 and antecedent("her", two) == 0
    assert antecedent("it", [("Ghana", "Ghana"), ("Kenya", "Kenya")]) == 0  # equals: the caller's first
    assert antecedent("them", [("Iran", "Iran")]) is None  # a country is no "them"


def test_opening_pronoun():
    assert opening_pronoun(" he negotiated with ") == "he"
    assert opening_pronoun(" the day when they met ") is None
    assert opening_pronoun(" when she met ") == "she"


# ------------------------------------------------------------------ nlu: the main clause's pronoun
NAMES = ["Vladimir_Putin", "Angela_Merkel", "Ghana", "Kenya", "Citizen_(Kenya)", "Labour_Party"]


def test_main_pronoun_takes_the_agreeing_reference_name():
    m = EntityMatcher(NAMES)
    a = analyze("Before Vladimir Putin offered support to Angela Merkel, whom had she last praised?", m)
    assert a.main.open_slot == "object" and a.main.antecedent.name == "Angela_Merkel"
    a = analyze("Before Vladimir Putin offered support to Angela Merkel, whom had he last praised?", m)
    assert a.main.antecedent.name == "Vladimir_Putin"
    # equals keep the pronoun's own slot: the object for an object pronoun
    a = analyze("After Ghana visited Kenya, who was the first to criticise it?", m)
    assert a.main.antecedent.name == "Kenya"


# ------------------------------------------------------------------ end to end (SCoP)
ROWS = [
    # them = Kenyan citizens: the parliament's sanctions on the citizens in 2009, on the party in 2011
    ("Kenyan_Parliament", "Impose_administrative_sanctions", "Citizen_(Kenya)", "2009-03-01"),
    ("Kenyan_Parliament", "Impose_administrative_sanctions", "Labour_Party", "2011-03-01"),
    ("Labour_Party", "Criticize_or_denounce", "Citizen_(Kenya)", "2008-05-01"),
    ("Labour_Party", "Criticize_or_denounce", "Citizen_(Kenya)", "2010-05-01"),
    ("Labour_Party", "Criticize_or_denounce", "Citizen_(Kenya)", "2012-05-01"),
    # he = Raila Odinga, not the police: Odinga negotiated with Uganda in 2010, the police in 2012
    ("Raila_Odinga", "Negotiate", "Uganda", "2010-06-01"),
    ("Police_(Kenya)", "Negotiate", "Uganda", "2012-06-01"),
    ("Police_(Kenya)", "Make_statement", "Raila_Odinga", "2009-01-05"),
    ("Police_(Kenya)", "Make_statement", "Raila_Odinga", "2011-01-05"),
    ("Police_(Kenya)", "Make_statement", "Raila_Odinga", "2013-01-05"),
    # them = the talks: a Kenyan envoy demanded talks with Iran in 2014, Chile before, Peru before Iran itself
    ("Envoy_(Kenya)", "Demand_negotiation", "Iran", "2014-02-02"),
    ("Chile", "Demand_negotiation", "Iran", "2013-02-02"),
    ("Iran", "Demand_negotiation", "Peru", "2013-06-02"),
]



@pytest.mark.parametrize("q, gold", [
    # object pronoun of the reference: "them" agrees with the citizens, not the party (the
    # subject, the KG-linked default before): after 2009 the first criticism is 2010
    ("In which year did the Labour Party first criticise Kenyan citizens after the Kenyan Parliament imposed sanctions on them?",
     ["2010"]),
    # subject pronoun opening the reference: "he" is Odinga, not the Kenyan police (before 2010: 2009)
    ("In which year did the Kenyan police last make a statement about Raila Odinga before he negotiated with Uganda?",
     ["2009"]),
    # "them" agrees with no name (Iran is "it"): the talks, a parallel reference
    ("Who last demanded talks with Iran before a Kenyan envoy demanded them?", ["Chile"]),
])
def test_end_to_end(ctx, q, gold):
    assert answer(ctx, q) == gold


# ------------------------------------------------------------------ TCC-RAG: the reference's object pronoun
def test_tccrag_object_pronoun_agrees():
    from tkgqa_ray.methods.tccrag.method import _anaphor

    q = "When did the Labour Party first criticise Kenyan citizens after the Kenyan Parliament imposed sanctions on them?"
    ents = [_occ(q, "the Labour Party", "Labour Party"), _occ(q, "Kenyan citizens", "Citizen (Kenya)"),
            _occ(q, "the Kenyan Parliament", "Kenyan Parliament")]
    span = (q.index("after"), len(q))
    assert _anaphor(q, ents, span, ents[2:])["name"] == "Citizen (Kenya)"
    q2 = "Who last demanded talks with Iran before a Kenyan envoy demanded them?"
    ents2 = [_occ(q2, "Iran", "Iran"), _occ(q2, "a Kenyan envoy", "Envoy (Kenya)")]
    assert _anaphor(q2, ents2, (q2.index("before"), len(q2)), ents2[1:]) is None


def test_collective_noun_is_it_or_they():
    mil = features("the Russian military", "Military_(Russia)")
    assert mil.kind == "collective" and agreement("it", mil) == 2 and agreement("they", mil) == 2
    assert features("the Kenyan government", "Government_(Kenya)").kind == "org"
