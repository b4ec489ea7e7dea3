"""Rules of the refs19 round (SCoP's reading of references), found on the dev sets' misses.
Checked by hand on the author's own questions (none is copied from a question set) over a
tiny hand-made KG.

* **rule 1, a name of unknown gender agrees with "he" / "she" for the asked action's
  evidence**: a time question's main-clause pronoun that stands for a name of the reference
  ("In the month X consulted Y, on what days did **he** comment on Z?") agrees "well" with a
  name we know nothing of and "best" with one of a known male first name; that ranking is our
  ignorance, not the text's, so among those names the one the KG holds the asked action for
  with the main clause's own name decides. Before, the known-male name won outright;
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.methods.scop.symbolic import event_parser
from tkgqa_ray.nlu.anaphora import agreement, features

ROWS = [
    # rule 1: Tarquin Oduya (a first name nlu does not know) consulted John Smith (a known male
    # first name) in March 2009; Oduya commented on the Green Alliance twice that month, Smith
    # only praised it (a KG link, no statement)
    ("Tarquin_Oduya", "Consult", "John_Smith", "2009-03-05"),
    ("Tarquin_Oduya", "Make_statement", "Green_Alliance", "2009-03-10"),
    ("Tarquin_Oduya", "Make_statement", "Green_Alliance", "2009-03-20"),
    ("Tarquin_Oduya", "Make_statement", "Green_Alliance", "2010-06-20"),
    ("John_Smith", "Praise_or_endorse", "Green_Alliance", "2009-03-12"),
    ("John_Smith", "Make_statement", "Peru", "2009-03-15"),
    ("John_Smith", "Consult", "Chile", "2009-03-16"),  # Chile: no statement about it by either
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, encoder="hashing")


# ------------------------------------------------------------------ rule 1
def test_rule1_the_agreement_gap_is_only_our_ignorance():
    he = [agreement("he", features(n.replace("_", " "), n)) for n in ("Tarquin_Oduya", "John_Smith")]
    assert he == [2, 3]  # unknown vs a known male first name: both may be "he"


def test_rule1_parse_and_answer(ctx):
    q = "In the month Tarquin Oduya consulted John Smith, on what days did he comment on the Green Alliance?"
    out = event_parser({"question": q}, ctx)
    assert out["anchors"][0][0] == "Tarquin Oduya"
    assert out["anchors"][0][2] == "Green Alliance"
    # Smith made no statement about the Green Alliance: "he" as Smith found no evidence
    assert answer(ctx, q) == ["2009-03-10"]


def test_rule1_known_gender_still_wins_without_evidence(ctx):
    # neither name has statements about Chile: the old pick (the known-male name) stays
    q = "In the month Tarquin Oduya consulted John Smith, on what days did he comment on Chile?"
    out = event_parser({"question": q}, ctx)
    assert out["anchors"][0][0] == "John Smith"
