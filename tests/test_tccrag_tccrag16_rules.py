"""TCC-RAG round tccrag16: rules of TCC-RAG's own stages.

* a place adverb ending a time question's main clause ("when had Zhang Dejiang last gone
  **there**?") is the clause's object: the country of the full reference event ("Before Loretta
  Lynch visited Colombia, ..."), chosen by nlu's agreement (``there`` agrees with countries
  only). Before, the object slot stayed empty and the chain read all of the subject's visits.

Tiny hand-built KGs, questions written for these tests, answers checked by hand."""

from __future__ import annotations

import pytest

from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.tccrag.parsing import _pronoun_slots

ROWS = [
    # Loretta Lynch visited Colombia on 2015-07-20. Zhang Dejiang visited Colombia in 2014-11
    # and Peru in 2015-05 (both before Lynch's visit), Colombia again in 2015-09 (after it)
    ("Loretta_Lynch", "Make_a_visit", "Colombia", "2015-07-20"),
    ("Zhang_Dejiang", "Make_a_visit", "Colombia", "2014-11-10"),
    ("Zhang_Dejiang", "Make_a_visit", "Peru", "2015-05-02"),
    ("Zhang_Dejiang", "Make_a_visit", "Colombia", "2015-09-01"),
    # a person's visit and a country hosting: the reference has no country object
    ("Barack_Obama", "Make_a_visit", "Angela_Merkel", "2013-06-01"),
    ("Zhang_Dejiang", "Make_a_visit", "Angela_Merkel", "2013-03-01"),
]



@pytest.mark.parametrize("q", [
    "Before Loretta Lynch visited Colombia, when had Zhang Dejiang last gone there? Give the month.",
    "Before Loretta Lynch visited Colombia, in which month had Zhang Dejiang last travelled there?",
])
def test_there_is_the_reference_country(ctx, q):
    pred, trace = top(ctx, q)
    assert (trace["parse"]["subject"], trace["parse"]["object"]) == ("Zhang Dejiang", "Colombia")
    assert pred == ["2014-11"]  # not Peru's 2015-05, the last of all his visits before


def test_there_takes_a_country_only():
    ents = [{"name": n, "mention": n} for n in ("Loretta Lynch", "Colombia", "Zhang Dejiang")]
    qm = " " * 40 + "when had Zhang Dejiang last gone there?"
    assert _pronoun_slots(qm, ents, ["Loretta Lynch", "Colombia"], "Zhang Dejiang", None) == ("Zhang Dejiang", "Colombia")
    # the reference's names are two persons: "there" stands for neither, the slot stays empty
    persons = [{"name": n, "mention": n} for n in ("Barack Obama", "Angela Merkel", "Zhang Dejiang")]
    assert _pronoun_slots(qm, persons, ["Barack Obama", "Angela Merkel"], "Zhang Dejiang", None) == ("Zhang Dejiang", None)
    # "there" inside the clause is no place adverb ending it
    qm2 = " " * 40 + "when was there a visit by Zhang Dejiang?"
    assert _pronoun_slots(qm2, ents, ["Loretta Lynch", "Colombia"], "Zhang Dejiang", None) == ("Zhang Dejiang", None)
