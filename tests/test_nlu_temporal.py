"""Temporal cues, answer type and granularity from the question text only."""

import pytest

from tkgqa_ray.nlu import EntityMatcher, analyze, find_dates, infer_answer_type, infer_time_level, parse_temporal_cues


def cues(q):
    return [(c.kind, c.op, c.time, c.granularity, c.offset, c.order, c.k) for c in parse_temporal_cues(q)]


@pytest.mark.parametrize(
    "text,iso,gran",
    [
        ("in April 2005", "2005-04", "month"),
        ("on 2010-05-17", "2010-05-17", "day"),
        ("in 2010", "2010", "year"),
        ("on May 17, 2010", "2010-05-17", "day"),
        ("on the 3rd of March 2009", "2009-03-03", "day"),
        ("during 2011-02", "2011-02", "month"),
        ("in Sept. 2012", "2012-09", "month"),
    ],
)
def test_dates(text, iso, gran):
    (d,) = find_dates(text)
    assert d[2:] == (iso, gran)


def test_impossible_date_is_not_a_date():
    assert [d[2] for d in find_dates("on 2009-02-30")] == []


def test_explicit_time_operators():
    assert cues("Who visited X before 2008?") == [("time", "before", "2008", "year", 0, None, None)]
    assert cues("after July 2014, who ...") == [("time", "after", "2014-07", "month", 0, None, None)]
    assert cues("Who visited X in the year 2010?") == [("time", "equal", "2010", "year", 0, None, None)]
    assert cues("Prior to 17 May 2010, who ...") == [("time", "before", "2010-05-17", "day", 0, None, None)]


def test_interval():
    assert cues("Who did X criticise between 2006 and 2008?") == [("interval", "inside", "2006..2008", "year", 0, None, None)]
    assert cues("from March 2006 to 2007") == [("interval", "inside", "2006-03..2007", "month", 0, None, None)]


def test_event_cues_same_unit_offsets_and_ordinals():
    assert cues("Who visited X in the same month as Y?") == [("event", "equal", None, "month", 0, None, None)]
    assert cues("on the same day that Y did") == [("event", "equal", None, "day", 0, None, None)]
    assert cues("Who visited X 3 days after Y did?") == [("event", "after", None, None, 3, None, None)]
    assert cues("two weeks before Y") == [("event", "before", None, None, 14, None, None)]
    assert cues("the day after Y") == [("event", "after", None, None, 1, None, None)]
    assert cues("Following Y, who was the first to visit X?") == [
        ("event", "after", None, None, 0, None, None),
        ("ordinal", None, None, None, 0, "asc", 1),
    ]
    assert cues("Who most recently visited X prior to Y?")[0][5:] == ("desc", 1)
    assert cues("Who was the third to visit X?") == [("ordinal", None, None, None, 0, "asc", 3)]
    assert cues("Who was the second to last to visit X?") == [("ordinal", None, None, None, 0, "desc", 2)]


@pytest.mark.parametrize(
    "q,atype,level",
    [
        ("When did X visit Y?", "time", "day"),
        ("In which year did X first visit Y?", "time", "year"),
        ("X visited Y in what month?", "time", "month"),
        ("Name the year in which X visited Y.", "time", "year"),
        ("On what date did X visit Y?", "time", "day"),
        ("Who visited Y in the same month as X?", "entity", "month"),
        ("Which country did X visit in 2010?", "entity", "year"),
        ("Who visited Y before X?", "entity", "day"),
    ],
)
def test_answer_type_and_level(q, atype, level):
    assert infer_answer_type(q) == atype
    assert infer_time_level(q) == level


M = EntityMatcher(["China", "Japan", "Iraq", "Danish_Ministry_of_Defence_and_Security", "France"])


def test_analysis_parallel_reference_and_open_slot():
    a = analyze("After the Danish Ministry of Defence and Security, who was the first to visit Iraq?", M)
    assert [m.text for m in a.main.mentions] == ["Iraq"] and a.main.open_slot == "subject"
    assert a.main.phrase == "visit"
    assert [(r.cue.op, [m.text for m in r.mentions]) for r in a.refs] == [("after", ["Danish Ministry of Defence and Security"])]
    b = analyze("Which country did China visit last before Japan did?", M)
    assert b.main.open_slot == "object" and [m.text for m in b.main.mentions] == ["China"]
    assert b.ordinal.order == "desc"


def test_analysis_full_reference_event_and_passive():
    a = analyze("Who did China criticise in the same month as Japan praised France?", M)
    (ref,) = a.refs
    assert [m.text for m in ref.mentions] == ["Japan", "France"] and ref.phrase == "praised"
    assert ref.cue.granularity == "month"
    p = analyze("Who was visited by China in 2010?", M)
    assert p.main.open_slot == "object"


@pytest.mark.parametrize(
    "q,slot,refs",
    [
        ("Who was it that China visited?", "object", []),
        ("By whom was China visited in 2010?", "subject", []),
        ("Who visited China when Japan visited Iraq?", "subject", [("equal", "day", ["Japan", "Iraq"])]),
        ("Who visited China while Japan was visiting Iraq?", "subject", [("equal", "day", ["Japan", "Iraq"])]),
        ("Who did China visit until Japan did?", "object", [("before", None, ["Japan"])]),
        ("Who did China visit 3 days prior to the time Japan praised France?", "object", [("before", None, ["Japan", "France"])]),
    ],
)
def test_analysis_wording_variants(q, slot, refs):
    a = analyze(q, M)
    assert a.main.open_slot == slot
    assert [(r.cue.op, r.cue.granularity, [m.text for m in r.mentions]) for r in a.refs] == refs


def test_time_question_with_wh_word_at_the_end_has_no_event_cue():
    a = analyze("China visited Japan when?", M)
    assert a.answer_type == "time" and a.refs == [] and [m.text for m in a.main.mentions] == ["China", "Japan"]


@pytest.mark.parametrize(
    "q,level,refs",
    [
        ("In what year and month did China visit Japan?", "month", []),
        ("Which month saw China visit Japan?", "month", []),
        ("Who did China visit in the month when France praised Japan?", "month", [("equal", "month", 0, ["France", "Japan"])]),
        ("Who visited China on the day that Japan visited Iraq?", "day", [("equal", "day", 0, ["Japan", "Iraq"])]),
        ("Who did China visit 3 days subsequent to France praising Japan?", "day", [("after", None, 3, ["France", "Japan"])]),
        ("Who did China visit one week ahead of France's praise of Japan?", "day", [("before", None, 7, ["France", "Japan"])]),
        ("Who did China visit 5 days earlier than when France praised Japan?", "day", [("before", None, 5, ["France", "Japan"])]),
    ],
)
def test_unit_and_offset_wording_variants(q, level, refs):
    a = analyze(q, M)
    assert a.time_level == level
    assert [(r.cue.op, r.cue.granularity, r.cue.offset, [m.text for m in r.mentions]) for r in a.refs] == refs


def test_number_words_in_offsets():
    assert cues("twenty-seven days before Y")[0][4] == 27
    assert cues("thirty days after Y")[0][4] == 30
    assert cues("a week after Y")[0][4] == 7
