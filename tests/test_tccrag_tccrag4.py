"""TCC-RAG round tccrag4: a main clause that names no participant after a full reference event
("After X visited Y, who was the first visitor / the next to visit / the first to make the same
visit?") repeats the reference event with its subject asked, so the reference's object carries
over — or its subject when the reference tells the event the other way round ("After Y hosted
X, who was the next to visit?": Y is the one visited). Before, such a main clause had no anchor
and TCC-RAG answered nothing. Tiny hand-built KG, answers checked by hand."""

from __future__ import annotations

import pytest

from tkgqa_ray.methods.tccrag.method import TCCRAG

ROWS = []
for who, where, day in [("China", "Kenya", "2012-01-05"), ("Japan", "Kenya", "2012-01-10"),
                        ("Chile", "Japan", "2012-01-15"), ("Peru", "Kenya", "2012-02-01"),
                        ("Chile", "Kenya", "2012-03-01")]:
    ROWS += [(who, "Make_a_visit", where, day), (where, "Host_a_visit", who, day)]
# Chile's later consultation with Kenya is not "the same"; its visit to Peru falls between
ROWS += [("Chile", "Consult", "Kenya", "2012-04-01"), ("Chile", "Make_a_visit", "Peru", "2012-03-20"),
         ("Peru", "Host_a_visit", "Chile", "2012-03-20")]



def top(ctx, q):
    (row,) = TCCRAG(ctx)([{"quid": "0", "question": q, "trace": {}}])
    return row["predictions"][:1], row["trace"]


# Japan visited Kenya on 2012-01-10: the next visitor of Kenya is Peru (2012-02-01); Chile's
# visit to Japan (2012-01-15) is the visitor of the wrong participant
@pytest.mark.parametrize("q", [
    "Following Japan's visit to Kenya, who was the first visitor?",
    "After Japan visited Kenya, who was the next visitor?",
    "After Japan visited Kenya, who was the first to make the same visit?",
    "After Japan's trip to Kenya, who was the first to make the same trip?",
    "After Japan visited Kenya, who was the next to visit?",
    "Once Japan had visited Kenya, who was the first to pay a visit?",
])
def test_nameless_main_clause_keeps_the_reference_object(ctx, q):
    pred, tr = top(ctx, q)
    assert pred == ["Peru"], tr


# Peru visited Kenya on 2012-02-01: the last visitor before it is Japan (2012-01-10)
@pytest.mark.parametrize("q", [
    "Before Peru visited Kenya, who was the last visitor?",
    "Before Peru visited Kenya, who was the last to make the same visit?",
])
def test_nameless_main_clause_before(ctx, q):
    pred, tr = top(ctx, q)
    assert pred == ["Japan"], tr


# Kenya hosted Japan on 2012-01-10: the next to visit (Kenya) is Peru, not Chile (who visited Japan)
@pytest.mark.parametrize("q", [
    "After Kenya hosted Japan, who was the next to visit?",
    "After Kenya hosted Japan, who was the first to visit?",
])
def test_converse_reference_keeps_its_subject(ctx, q):
    pred, tr = top(ctx, q)
    assert pred == ["Peru"], tr


# a pro-verb in the reference clause ("Before Chile did the same to Kenya") stands for the main
# clause's action: Chile visited Kenya on 2012-03-01, and the last place it visited before that
# is Japan (2012-01-15). Read as any Chile-Kenya event, the consultation of 2012-04-01 bounded
# the chain and Peru (visited 2012-03-20) was answered
@pytest.mark.parametrize("q", [
    "Before Chile did the same to Kenya, who did it last visit?",
    "Before Chile did so to Kenya, whom had it visited last?",
])
def test_pro_verb_reference_takes_the_main_action(ctx, q):
    pred, tr = top(ctx, q)
    assert pred == ["Japan"], tr


def test_pro_verb_clause_reader():
    from tkgqa_ray.methods.tccrag.method import _pro_verb_clause

    q = "Before Chile did the same to Kenya, who did it last visit?"
    assert _pro_verb_clause("", q, (0, 34)) and _pro_verb_clause("did the same to")
    assert not _pro_verb_clause("visited", q, (0, 34)) and not _pro_verb_clause("", "Before Chile, who", (0, 12))
