"""Structural readings found missing on the dev3 set (issue #10, the dev3 round), written from
English, hand-checked:

* a nominal reference event without a form of "be": in "the condemnation of X by Y" / "the
  offer to talk with X by Y" Y is the agent (KG subject), X the object;
* "the <unit> of the <rank> time X V Y" asks a time (answer type time, the unit's
  granularity), first/last from the rank word, both names kept as the event.
"""

from __future__ import annotations

import pytest

from test_nlu_multi_event import parse  # (anchors, search) as [subject, object] names
from tkgqa_ray.methods.scop.types import UNKNOWN
from tkgqa_ray.nlu.temporal import infer_answer_type, infer_time_level, parse_temporal_cues

ROWS = [
    ("Barack_Obama", "Make_a_visit", "China", "2009-11-15"),
    ("Angela_Merkel", "Make_a_visit", "China", "2010-07-16"),
    ("Iran", "Criticize_or_denounce", "Japan", "2011-01-01"),
    ("Iran", "Criticize_or_denounce", "China", "2012-01-01"),
    ("Japan", "Criticize_or_denounce", "Iran", "2010-03-01"),
    ("Japan", "Host_a_visit", "Angela_Merkel", "2011-05-02"),
    ("Japan", "Host_a_visit", "Angela_Merkel", "2013-09-20"),
]



@pytest.mark.parametrize("q, anchors, search", [
    # "the criticism of Japan by Iran": Iran criticised Japan
    ("Who did China criticise after the criticism of Japan by Iran?", [["Iran", "Japan"]], ["China", UNKNOWN]),
    ("Whom did Iran criticise first following the criticism of Japan by Iran?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    # a verbal noun with its own preposition: "the hosting of Angela Merkel by Japan"
    ("Who visited China in the same year as the hosting of Angela Merkel by Japan?",
     [["Japan", "Angela Merkel"]], [UNKNOWN, "China"]),
    # "an offer to talk with X by Y": a longer noun phrase before X
    ("Who visited China before an offer to hold talks with Iran by Barack Obama?",
     [["Barack Obama", "Iran"]], [UNKNOWN, "China"]),
    # the main clause of a time question as a nominal
    ("When was the last visit to China by Barack Obama?", [["Barack Obama", "China"]], None),
    # active voice, "by" not right before the second name: no swap
    ("Who did China criticise after Iran criticised Japan?", [["Iran", "Japan"]], ["China", UNKNOWN]),
    # a passive with "was" keeps working
    ("Who did China criticise after Japan was criticised by Iran?", [["Iran", "Japan"]], ["China", UNKNOWN]),
])
def test_nominal_reference_event_agent_after_by(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


@pytest.mark.parametrize("q, level, order", [
    ("Do you know the year of the earliest time Iran criticised Japan?", "year", "asc"),
    ("Do you know the month of the first time Barack Obama visited China?", "month", "asc"),
    ("Could you tell me the date of the latest time Japan hosted Angela Merkel?", "day", "desc"),
    ("The day of the most recent occasion when Japan hosted Angela Merkel?", "day", "desc"),
    ("I'd like to know the month of the last time Iran criticised China.", "month", "desc"),
])
def test_unit_of_the_ranked_time_is_a_time_question(ctx, q, level, order):
    cues = parse_temporal_cues(q)
    assert infer_answer_type(q) == "time"
    assert infer_time_level(q, cues) == level
    assert [c.order for c in cues if c.kind == "ordinal"] == [order]
    assert not [c for c in cues if c.kind == "event"], cues  # "when" after "occasion" joins no clause
    anchors, search = parse(ctx, q)
    assert search is None and len(anchors) == 1 and len(anchors[0]) == 2, (anchors, search)


def test_unit_of_the_ranked_time_keeps_both_names(ctx):
    assert parse(ctx, "Do you know the year of the earliest time Iran criticised Japan?") == ([["Iran", "Japan"]], None)
    assert parse(ctx, "Do you know the date of the latest time Japan hosted Angela Merkel?") == (
        [["Japan", "Angela Merkel"]], None)


def test_entity_questions_with_a_ranked_time_noun_stay_entity_questions():
    # "the first time" without a unit before it, or a unit not of a ranked time: entity
    assert infer_answer_type("Who visited China the first time Japan criticised Iran?") == "entity"
    assert infer_answer_type("Who was the head of the first time zone commission?") == "entity"


def test_unit_of_the_ranked_time_answers_end_to_end(ctx):
    from tkgqa_ray.methods.scop.method import SCoP

    rows = SCoP(ctx)([
        {"quid": "1", "question": "Do you know the year of the latest time Japan hosted Angela Merkel?"},
        {"quid": "2", "question": "Do you know the month of the earliest time Japan hosted Angela Merkel?"},
    ])
    assert rows[0]["predictions"][:1] == ["2013"], rows[0]["trace"]
    assert rows[1]["predictions"][:1] == ["2011-05"], rows[1]["trace"]


@pytest.mark.parametrize("q, anchors, search", [
    # an embedded question headed by a ranked noun phrase, no wh-word: the name after the head
    # is the subject, the head asks the object; the one-name reference is another object
    ("I'd like to know the last party Iran criticised before China.", [["Iran", "China"]], ["Iran", UNKNOWN]),
    ("Tell me the first country Barack Obama visited after China.", [["Barack Obama", "China"]], ["Barack Obama", UNKNOWN]),
    ("The earliest one that Iran criticised after Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    # the head followed by a verb or an infinitive asks the subject
    ("I'd like to know the first party to visit China after Barack Obama.", [["Barack Obama", "China"]], [UNKNOWN, "China"]),
    ("Could you tell me the last country that criticised Japan before China?", [["China", "Japan"]], [UNKNOWN, "Japan"]),
])
def test_ranked_noun_phrase_head_without_wh_word(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


@pytest.mark.parametrize("q, search", [
    # "from whom" before a role-noun or a passive asks the doer, like "by whom"
    ("From whom was China the recipient of a visit first?", [UNKNOWN, "China"]),
    ("From whom was Japan the target of criticism last?", [UNKNOWN, "Japan"]),
    ("From whom was Japan sent a request?", [UNKNOWN, "Japan"]),
    # an active "receive ... from": Japan is the subject of the phrase; the lexicon reads it
    ("From whom did Japan receive a visit?", ["Japan", UNKNOWN]),
])
def test_from_whom_asks_the_doer(ctx, q, search):
    assert parse(ctx, q) == ([], search)


def test_from_whom_role_noun_answers_end_to_end(ctx):
    # the role noun is read once (no second swap): Obama visited China first, Merkel last
    from tkgqa_ray.methods.scop.method import SCoP

    rows = SCoP(ctx)([
        {"quid": "1", "question": "From whom was China the recipient of a visit first?"},
        {"quid": "2", "question": "From whom was China the target of a visit last?"},
    ])
    assert rows[0]["predictions"][:1] == ["Barack Obama"], rows[0]["trace"]
    assert rows[1]["predictions"][:1] == ["Angela Merkel"], rows[1]["trace"]
