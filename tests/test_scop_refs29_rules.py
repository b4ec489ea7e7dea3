"""Rules of the refs29 round (question form and time anchors), checked by hand on the author's
own phrasings (none copied from a question set) over a tiny hand-made KG.

* **rule 1, modal knowing frame** (wrappers): "Would / Could / Might you (happen to) know ..." is
  a wrapper like "Do you (happen to) know ...": the time noun after it is asked, its words reach
  no relation phrase;
* **rule 2, finding after "trying to"** (wrappers): "I'm trying to find the last year in which
  ..." — "find" belongs to the frame when a time noun phrase follows (as a bare "Find the year");
* **rule 3, an event clause between commas** (temporal.INTERPOSED_REF): "the last month, before
  X did Y, in which Z ..." — the relative after the second comma is still the time noun's, so the
  question asks a time;
* **rule 4, the end of a period** (temporal): "once / after / when <date> was over / had ended /
  had passed" is one time cue, op after, and its verb is no relation word;
* **rule 5, a "whose" relative of the wh head** (analysis._open_slot): "what was the first country
  whose property X seized" asks the possessor of the clause's object, the object of the action;
* **rule 6, a role noun of a noun-adjunct doer** (analysis._open_slot): "the targets of Peruvian
  police arrests" — the name before the action noun is its doer, as in "the police's arrests".
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.nlu import EntityMatcher, analyze
from tkgqa_ray.nlu.analysis import _adjunct_action, _whose_relative
from tkgqa_ray.nlu.temporal import infer_answer_type, parse_temporal_cues
from tkgqa_ray.nlu.wrappers import strip_wrapper

ROWS = [
    ("Peru", "Criticize_or_denounce", "Chile", "2011-05-05"),
    ("Peru", "Criticize_or_denounce", "Chile", "2012-02-02"),
    ("Peru", "Criticize_or_denounce", "Bolivia", "2012-06-06"),
    ("Peru", "Criticize_or_denounce", "Chile", "2012-09-09"),
    ("Kenya", "Criticize_or_denounce", "Chile", "2012-04-04"),
    ("Peru", "Make_a_visit", "Chile", "2010-03-03"),
    ("Kenya", "Praise_or_endorse", "Peru", "2009-01-01"),
    ("Kenya", "Praise_or_endorse", "Peru", "2010-05-05"),
    ("Kenya", "Praise_or_endorse", "Peru", "2011-07-07"),
    ("Peru", "Confiscate_property", "Bolivia", "2013-01-01"),
    ("Ecuador", "Confiscate_property", "Peru", "2012-01-01"),
    ("Police_(Peru)", "Arrest,_detain,_or_charge_with_legal_action", "Men_(Peru)", "2012-08-08"),
    ("Ecuador", "Arrest,_detain,_or_charge_with_legal_action", "Police_(Peru)", "2012-10-10"),
]



def _a(ctx, q):
    return analyze(q, EntityMatcher.for_table(ctx.table))


# ------------------------------------------------------------------ rule 1
@pytest.mark.parametrize("q", [
    "Would you happen to know the year in which Peru last criticised Chile?",
    "Could you happen to know the year in which Peru last criticised Chile?",
    "Might anyone remember the year in which Peru last criticised Chile?",
])
def test_rule1_modal_knowing_frame(ctx, q):
    assert strip_wrapper(q).lstrip().startswith("the year")
    a = _a(ctx, q)
    assert a.answer_type == "time" and a.time_level == "year"
    assert "know" not in a.main.phrase and "remember" not in a.main.phrase
    assert answer(ctx, q) == ["2012"]


def test_rule1_entity_question_through_the_frame(ctx):
    a = _a(ctx, "Would you happen to know which country Peru visited?")
    assert a.answer_type == "entity" and a.main.open_slot == "object"
    assert answer(ctx, "Would you happen to know which country Peru visited?") == ["Chile"]


def test_rule1_modal_question_of_its_own_is_no_wrapper():
    # "would" asking about the event itself (no knowing verb) stays the question
    assert strip_wrapper("Would Peru visit Chile?") == "Would Peru visit Chile?"


# ------------------------------------------------------------------ rule 2
def test_rule2_find_after_trying_to(ctx):
    q = "I'm trying to find the first month in which Peru criticised Chile."
    assert strip_wrapper(q).lstrip().startswith("the first month")
    a = _a(ctx, q)
    assert a.answer_type == "time" and "find" not in a.main.phrase
    assert answer(ctx, q) == ["2011-05"]


def test_rule2_find_without_a_time_noun_is_not_taken():
    # only before "the <time noun>": "trying to find who ..." keeps its own reading
    q = "I'm trying to find out who Peru criticised."
    assert strip_wrapper(q).lstrip().startswith("who")


# ------------------------------------------------------------------ rule 3
@pytest.mark.parametrize("q", [
    "Could you tell me the last year, after Peru visited Chile, in which Kenya praised Peru?",
    "the last year, after Peru visited Chile, when Kenya praised Peru",
])
def test_rule3_interposed_event_clause(q):
    assert infer_answer_type(q) == "time"


def test_rule3_answers(ctx):
    q = "I'd like to know the first year, after Peru visited Chile, in which Kenya praised Peru."
    a = _a(ctx, q)
    assert a.answer_type == "time" and len(a.refs) == 1
    assert answer(ctx, q) == ["2010"]


def test_rule3_fronted_clause_then_entity_question_stays_entity():
    # a time noun phrase fronted, then an entity question: no interposed clause
    assert infer_answer_type("The year after Peru visited Chile, which country did Kenya praise?") == "entity"


# ------------------------------------------------------------------ rule 4
@pytest.mark.parametrize("q, text", [
    ("Once March 2012 was over, whom did Peru first criticise?", "Once March 2012 was over"),
    ("After 2011 had ended, whom did Peru first criticise?", "After 2011 had ended"),
    ("Whom did Peru first criticise when February 2012 had passed?", "when February 2012 had passed"),
])
def test_rule4_period_over_is_one_after_cue(q, text):
    (c,) = [c for c in parse_temporal_cues(q) if c.kind != "ordinal"]
    assert (c.kind, c.op, c.text) == ("time", "after", text)


def test_rule4_answers(ctx):
    q = "Once March 2012 was over, whom did Peru first criticise?"
    a = _a(ctx, q)
    assert "over" not in a.main.phrase
    assert answer(ctx, q) == ["Bolivia"]


def test_rule4_plain_date_unchanged():
    (c,) = parse_temporal_cues("Whom did Peru criticise in March 2012?")
    assert (c.op, c.time) == ("equal", "2012-03")


# ------------------------------------------------------------------ rule 5
def test_rule5_whose_relative_asks_the_object(ctx):
    q = "What was the first country whose property Peru seized?"
    assert _a(ctx, q).main.open_slot == "object"
    assert answer(ctx, q) == ["Bolivia"]


@pytest.mark.parametrize("between, expect", [
    (" whose property ", True),
    (" whose norms did ", True),
    (" whose leader visited ", False),  # a verb in the clause: the head's member is the doer
    (" whose remarks about ", False),   # a nominal event whose preposition takes the name
])
def test_rule5_whose_relative_shape(between, expect):
    assert _whose_relative(between) is expect


# ------------------------------------------------------------------ rule 6
def test_rule6_role_noun_of_adjunct_doer(ctx):
    q = "Who were the targets of Peruvian police arrests in 2012?"
    a = _a(ctx, q)
    assert [m.names[0] for m in a.main.mentions] == ["Police_(Peru)"]
    assert a.main.open_slot == "object"
    assert answer(ctx, q) == ["Men (Peru)"]


@pytest.mark.parametrize("tail, expect", [
    (" arrests in 2012?", True),
    (" criticism?", True),
    (" in 2012?", False),      # no action noun after the name
    (" with Chile?", False),
])
def test_rule6_adjunct_action_shape(tail, expect):
    assert _adjunct_action("X" + tail, 1) is expect
