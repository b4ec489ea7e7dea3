"""Rules of the refs16 round: references across clauses (nlu.anaphora / nlu.analysis, SCoP).
Checked by hand on the author's own questions (none is copied from a question set) over
hand-made names and a tiny hand-made KG.

* **rule 1, a name we know nothing of agrees as well as a known match of no gender**: "What
  year did Vantor Watch first make a statement about the African Union after **it** appealed
  to Nigeria's president?" -- "it" may be Vantor Watch (a plain name with no organisation
  word: *unknown*) or the African Union (an organisation). Before, the known organisation won
  by agreement alone (unknown scored 1, a known match 2), against the subject preference of
  English (the caller's order). Now both agree equally and the order (and the KG link) decides;
  a person of the pronoun's known gender still beats an unknown name, and a name that cannot
  agree (a country as "he") is still excluded.
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.symbolic import event_parser
from tkgqa_ray.nlu.anaphora import agreement, antecedent, features

ROWS = [
    # rule 1: Vantor Watch appealed to Nigeria's head of government in 2008-03, then spoke about
    # the African Union (2008-06); the Union appealed to him in 2005 and was spoken about in 2006
    ("Vantor_Watch", "Make_an_appeal_or_request", "Head_of_Government_(Nigeria)", "2008-03-01"),
    ("Vantor_Watch", "Make_statement", "African_Union", "2006-02-01"),
    ("Vantor_Watch", "Make_statement", "African_Union", "2008-06-01"),
    ("African_Union", "Make_an_appeal_or_request", "Head_of_Government_(Nigeria)", "2005-01-01"),
    # a person: Orvan Mellet consulted an Australian mayor in 2013; before, he spoke about Fiji
    # (2012); the mayor spoke about Australian police (2012-05)
    ("Orvan_Mellet", "Consult", "City_Mayor_(Australia)", "2013-01-10"),
    ("Orvan_Mellet", "Make_statement", "Fiji", "2012-04-01"),
    ("City_Mayor_(Australia)", "Make_statement", "Police_(Australia)", "2012-05-01"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, encoder="hashing")


# ------------------------------------------------------------------ rule 1
def test_rule1_unknown_name_agrees_as_well_as_a_known_match():
    watch = features("Vantor Watch", "Vantor_Watch")
    union = features("the African Union", "African_Union")
    mayor = features("an Australian mayor", "City_Mayor_(Australia)")
    assert watch.kind == "unknown" and union.kind == "org"
    assert agreement("it", watch) == agreement("it", union) == 2
    assert agreement("he", features("Orvan Mellet", "Orvan_Mellet")) == agreement("he", mayor) == 2
    # the caller's order decides among equals
    assert antecedent("it", [("Vantor Watch", "Vantor_Watch"), ("the African Union", "African_Union")]) == 0
    assert antecedent("he", [("Orvan Mellet", "Orvan_Mellet"), ("an Australian mayor", "City_Mayor_(Australia)")]) == 0


def test_rule1_known_gender_and_exclusion_stay():
    merkel = features("Angela Merkel", "Angela_Merkel")
    assert agreement("her", merkel) == 3 > agreement("her", features("Vantor Watch", "Vantor_Watch"))
    assert antecedent("she", [("Vantor Watch", "Vantor_Watch"), ("Angela Merkel", "Angela_Merkel")]) == 1
    assert agreement("he", features("Kenya", "Kenya")) == 0  # a country is no "he"
    assert agreement("they", features("the party", "Democratic_Party")) == 1  # an organisation as "they": weaker


def test_rule1_subject_pronoun_of_reference_is_the_asked_subject(ctx):
    q = "What year did Vantor Watch first make a statement about the African Union after it appealed to Nigeria's president?"
    out = event_parser({"question": q}, ctx)
    assert out["anchors"][1][0] == "Vantor Watch"
    assert answer(ctx, q) == ["2008"]  # not 2006 (after the Union's 2005 appeal)


def test_rule1_main_pronoun_is_the_reference_subject(ctx):
    q = "Before Orvan Mellet consulted an Australian mayor, who was the last he made a statement about?"
    assert answer(ctx, q) == ["Fiji"]  # not the mayor's Australian police
