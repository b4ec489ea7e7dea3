"""TCC-RAG round tccrag23: parity with SCoP's next29 rules, through the same nlu code.

* **T1, a pro-form object is the reference's action** ("After Peru expressed its intent to
  provide humanitarian aid to Chile, who was the next one it **said that** about?", "..., to whom
  had Peru last pledged **it**?"): where nlu's ``analysis._pro_object_action`` fires (next29's
  rule 2, the phrase SCoP's main clause takes), TCC-RAG's main relation phrase is its reference
  clause's phrase. Before, "said about" read Make_statement (dev20-0180).
* **T2, one series of events under a rank** ("whom did X negotiate with **next**, following his
  talks with Y?"): nlu's ``ranked_series`` (moved from SCoP's alignment) and
  ``near_series_reading``: in an entity question ranked with next / previous, a reference
  phrase whose near readings (within SERIES_MARGIN of its best) include the main phrase's best
  relation shares the asked action, so the reference event under that relation bounds the chain
  (TCC-RAG's shared phase, now also for a one-name reference). Before, every consultation of the
  pair bounded the chain of negotiations (dev20-0122). "First after" orders any action and keeps
  the reference's own reading.
* **T3, a name inside the wh-phrase and outside it** ("What was the very last party **from
  Colombia** that **Colombia** spoke publicly about?"): the clause's occurrence is the
  participant (its word order tells its slot), the wh-phrase's qualifies the asked entity.
  Before, the first occurrence was the anchor and Colombia read as the object (generated dev4).

Answers checked by hand on the tiny KG below (the author's own questions, none copied from a
question set)."""

from __future__ import annotations

import pytest

from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace on a tiny KG
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.analysis import SERIES_MARGIN, near_series_reading, ranked_series

ROWS = [
    # T1: Peru pledged humanitarian aid to Chile (2008), Bolivia (2009), Kenya (2010); its
    # statements about Ghana (2008-06) and Japan (2009-06) lie between
    ("Peru", "Express_intent_to_provide_humanitarian_aid", "Chile", "2008-01-01"),
    ("Peru", "Make_statement", "Ghana", "2008-06-01"),
    ("Peru", "Express_intent_to_provide_humanitarian_aid", "Bolivia", "2009-01-01"),
    ("Peru", "Make_statement", "Japan", "2009-06-01"),
    ("Peru", "Express_intent_to_provide_humanitarian_aid", "Kenya", "2010-01-01"),
    # T2: Lee consulted Gillard twice (2010-11-13, 2011-04-25) and negotiated with her once
    # (2011-04-25); his negotiations: Obama 2010-11-24, Gillard 2011-04-25, Wen Jiabao 2011-05-23
    ("Lee_Myung_Bak", "Consult", "Julia_Gillard", "2010-11-13"),
    ("Lee_Myung_Bak", "Consult", "Julia_Gillard", "2011-04-25"),
    ("Lee_Myung_Bak", "Engage_in_negotiation", "Julia_Gillard", "2011-04-25"),
    ("Lee_Myung_Bak", "Engage_in_negotiation", "Barack_Obama", "2010-11-24"),
    ("Lee_Myung_Bak", "Engage_in_negotiation", "Wen_Jiabao", "2011-05-23"),
    ("Lee_Myung_Bak", "Make_statement", "Japan", "2010-12-01"),
    # T3: Colombia spoke about its attorney general (2014) and its head of government (2015);
    # Ghana spoke about Colombia last (2016)
    ("Colombia", "Make_statement", "Attorney_General_(Colombia)", "2014-07-22"),
    ("Colombia", "Make_statement", "Head_of_Government_(Colombia)", "2015-09-17"),
    ("Ghana", "Make_statement", "Colombia", "2016-01-01"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, fact_index=False)


def _a(ctx, q):
    return analyze(q, EntityMatcher.for_table(ctx.table))


# ------------------------------------------------------------------ T1
def test_t1_reporting_verb_with_that_takes_the_reference_action(ctx):
    q = "After Peru expressed its intent to provide humanitarian aid to Chile, who was the next one it said that about?"
    pred, tr = top(ctx, q)
    assert "said" not in tr["parse"]["relation_phrase"]
    assert tr["parse"]["relations"][0] == "Express_intent_to_provide_humanitarian_aid"
    assert pred == ["Bolivia"]  # Make_statement would answer Ghana


def test_t1_pro_object_of_the_same_verb(ctx):
    pred, tr = top(ctx, "Before pledging humanitarian aid to Kenya, to whom had Peru last pledged it?")
    assert pred == ["Bolivia"]


def test_t1_other_verbs_keep_their_phrase(ctx):
    # "it" is the reference's name here (another verb, no reporting "that"): the main phrase stays
    pred, tr = top(ctx, "After Peru pledged humanitarian aid to Chile, who was the first to make a statement about it?")
    assert "statement" in tr["parse"]["relation_phrase"]


# ------------------------------------------------------------------ T2
def test_t2_near_series_reading():
    # "talks with": Consult (3) first, Engage_in_negotiation (7) within the margin
    talks = [(3, 0.93, False), (5, 0.82, False), (7, 0.76, False)]
    assert near_series_reading(talks, (7, False))
    assert not near_series_reading(talks, (7, True))  # another direction
    assert not near_series_reading([(3, 0.95, False), (7, 0.60, False)], (7, False))  # a far reading
    assert not near_series_reading([(3, 0.45, False), (7, 0.40, False)], (7, False))  # a weak phrase
    assert not near_series_reading([], (7, False)) and not near_series_reading(talks, None)
    assert near_series_reading([(3, 0.9, False), (7, 0.9 - SERIES_MARGIN, False)], (7, False))


@pytest.mark.parametrize("q, ranked", [
    ("Whom did Lee Myung-bak negotiate with next, following his talks with Julia Gillard?", True),
    ("Before his talks with Julia Gillard, who was the previous one Lee Myung-bak negotiated with?", True),
    ("Whom did Lee Myung-bak first negotiate with after his talks with Julia Gillard?", False),  # any action
    ("When did Lee Myung-bak next negotiate with Barack Obama after his talks with Julia Gillard?", False),  # time
    ("Whom did Lee Myung-bak negotiate with next?", False),  # no reference event
])
def test_t2_series_questions(ctx, q, ranked):
    assert ranked_series(_a(ctx, q)) is ranked


def test_t2_next_after_talks_is_within_the_negotiations(ctx):
    pred, tr = top(ctx, "Whom did Lee Myung-bak negotiate with next, following his talks with Julia Gillard?")
    assert tr["parse"]["relations"][0] == "Engage_in_negotiation"
    assert pred == ["Wen Jiabao"]  # after the consultation of 2010-11-13 it would be Obama
    assert tr["chain"]["reading"].get("shared_action") is True


def test_t2_first_after_orders_any_action(ctx):
    # no series: the talks keep their own reading (the first consultation), Obama negotiated next
    pred, tr = top(ctx, "Whom did Lee Myung-bak first negotiate with after his talks with Julia Gillard?")
    assert pred == ["Barack Obama"]


# ------------------------------------------------------------------ T3
def test_t3_participant_occurrence_outside_the_wh_phrase():
    from tkgqa_ray.methods.tccrag.parsing import _participant_occurrences

    e = [{"name": "Colombia", "start": 29, "end": 37}, {"name": "Colombia", "start": 43, "end": 51},
         {"name": "Peru", "start": 60, "end": 64}]
    assert _participant_occurrences(e, (0, 37)) == e[1:]
    assert _participant_occurrences(e, None) == [e[0], e[2]]  # no wh-phrase: the first occurrence
    assert _participant_occurrences(e[:1] + e[2:], (0, 37)) == [e[0], e[2]]  # only inside: kept


def test_t3_clause_name_is_the_subject(ctx):
    pred, tr = top(ctx, "What was the very last party from Colombia that Colombia spoke publicly about?")
    assert (tr["parse"]["subject"], tr["parse"]["asked"]) == ("Colombia", "object")
    assert pred == ["Head of Government (Colombia)"]  # the object reading would answer Ghana
