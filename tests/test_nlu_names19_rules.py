"""Rules of the names19 round (dev15 first misses), hand-checked.

Question form (nlu/temporal.py):

* a definite time noun restricted by an explicit-time adjunct before its relative ("the **day in
  2005 when** X ...", "the **months before October 2009 in which** X ...") still asks a time,
  at the noun's unit;
* a "when" right after such an adjunct is the noun's relative, no event cue of its own ("the day
  in 2005 when X ...": one time cue, "in 2005"); after a clause it stays a "when" cue;
* a rank adjective in a contact time noun phrase ("the **first date** X visited Y", "the **last
  date** X spoke by phone with Y") asks a time at the noun's unit, as "the first date when" did.

Relation lexicon (relation_lexicon.yaml): "**reject a plan to settle** a dispute" is
Reject_plan,_agreement_to_settle_dispute (not the "plan to" frame of
Express_intent_to_settle_dispute).
"""

from __future__ import annotations

import pytest

from tkgqa_ray.nlu import infer_answer_type, infer_time_level, parse_temporal_cues
from tkgqa_ray.nlu.lexicon import RelationLexicon

RELS = [
    "Reject_plan,_agreement_to_settle_dispute", "Express_intent_to_settle_dispute", "Reject",
    "Make_empathetic_comment", "Make_statement", "Praise_or_endorse", "Express_intent_to_cooperate",
]


@pytest.fixture(scope="module")
def lex():
    return RelationLexicon(RELS)


def top(lex, phrase):
    h = lex.match(phrase)[0]
    return ("<> " if h.swap else "") + h.relation


# ------------------------------------------------------------------ question form
@pytest.mark.parametrize("q, unit", [
    ("Could you find the day in 2005 when South Korea expressed an intent to cooperate with the UAE?", "day"),
    ("Can you tell me the day in 2011 on which Ethiopia signed a formal agreement with Swaziland?", "day"),
    ("I'd like to know the months before October 2009 in which Cambodia commented on the UN.", "month"),
    ("Tell me the year after March 2008 when Japan visited China.", "year"),
    ("Could you tell me the first date F. James Sensenbrenner visited France after France left?", "day"),
    ("Do you know the last date Mahmoud Abbas spoke by phone with the Jordanian government?", "day"),
    ("Tell me the earliest month Japan visited China.", "month"),
])
def test_time_noun_phrase_after_a_wrapper_asks_a_time(q, unit):
    assert infer_answer_type(q) == "time"
    assert infer_time_level(q) == unit


@pytest.mark.parametrize("q", [
    # a fronted time adjunct before an entity question stays an entity question
    "The first day Japan visited China, who did it criticise?",
    "In the year 2005 when Japan visited China, who met Russia?",
    "On the day in 2005 when Japan visited China, who did Russia praise?",
])
def test_fronted_time_noun_phrase_stays_an_entity_question(q):
    assert infer_answer_type(q) == "entity"


def test_when_after_a_restricted_time_noun_is_its_relative():
    cues = parse_temporal_cues("the day in 2005 when South Korea visited the UAE?")
    assert [(c.kind, c.text) for c in cues] == [("time", "in 2005")]
    cues = parse_temporal_cues("Who visited Japan in 2005 when China visited Russia?")
    assert [(c.kind, c.text) for c in cues] == [("time", "in 2005"), ("event", "when")]


# ------------------------------------------------------------------ relation phrases
# ------------------------------------------------------------------ relation lexicon
@pytest.mark.parametrize("phrase, relation", [
    ("reject a plan to settle a dispute with", "Reject_plan,_agreement_to_settle_dispute"),
    ("rejected a plan to settle its dispute with", "Reject_plan,_agreement_to_settle_dispute"),
    ("planned to settle a dispute with", "Express_intent_to_settle_dispute"),
])
def test_relation_rows(lex, phrase, relation):
    assert top(lex, phrase) == relation, lex.match(phrase)[:3]
