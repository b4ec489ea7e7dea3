"""QuestionSignals (what TCC-RAG, PoK and the baselines read off a question), hand-checked."""

from __future__ import annotations

from datetime import date

from tkgqa_ray.nlu import infer_answer_type, parse_temporal_cues
from tkgqa_ray.nlu.signals import question_signals


def d(y, m, dd):
    return date(y, m, dd).toordinal()


def test_explicit_month_is_an_in_window():
    s = question_signals("Who signed an agreement with China in April 2005?")
    assert (s.answer_type, s.granularity, s.order, s.select) == ("entity", "month", "in", None)
    assert (s.explicit.lo, s.explicit.hi, s.explicit.text) == (d(2005, 4, 1), d(2005, 4, 30), "April 2005")


def test_interval_is_one_window_over_both_ends():
    s = question_signals("Who visited China between 2006 and 2008?")
    assert s.order == "in" and (s.explicit.lo, s.explicit.hi) == (d(2006, 1, 1), d(2008, 12, 31))
    assert s.time_spans == ((26, 30), (35, 39))


def test_before_a_date_keeps_the_date_and_the_operator_span():
    q = "Which country visited China before May 2010?"
    s = question_signals(q)
    assert (s.order, s.granularity) == ("before", "month")
    assert q[slice(*s.order_span)] == "before" and s.explicit.text == "May 2010"


def test_offset_from_an_event_and_from_a_date():
    q = "Exactly 25 days subsequent to the time France signed a formal agreement with Belize, whom did Iran consult?"
    s = question_signals(q)
    assert (s.answer_type, s.order, s.offset_days, s.same_granularity) == ("entity", "same", 25, "day")
    assert q[s.order_span[1]:].startswith(" France")  # the reference entity follows the cue words
    s = question_signals("Who did Iran criticize 3 days before 2010-05-01?")
    assert (s.order, s.offset_days) == ("same", -3) and (s.explicit.lo, s.explicit.hi) == (d(2010, 5, 1),) * 2


def test_event_clause_words_belong_to_the_cue():
    q = "Who visited China after the time that Angela Merkel visited Japan?"
    s = question_signals(q)
    assert s.order == "after" and q[s.order_span[1]:].startswith(" Angela")


def test_same_unit_and_clause_joining_when():
    s = question_signals("Who visited China in the same month as Angela Merkel?")
    assert (s.order, s.same_granularity, s.granularity) == ("same", "month", "month")
    s = question_signals("Who visited China when Angela Merkel visited Japan?")
    assert (s.order, s.same_granularity) == ("same", "day")


def test_cleft_when_is_not_a_reference():
    # "Which day was it when X ...?" asks for X's own time: no event reference
    s = question_signals("Which day was it when Liu Zhenmin made a statement about China?")
    assert (s.answer_type, s.granularity, s.order) == ("time", "day", None)
    s = question_signals("What year was it when Xi Jinping consulted Dmitry Medvedev?")
    assert (s.answer_type, s.granularity, s.order) == ("time", "year", None)


def test_when_as_a_conjunction_does_not_make_a_time_question():
    q = "Exactly 15 days earlier than when United Arab Emirates met with Iran, whom did India praise?"
    assert infer_answer_type(q) == "entity"
    assert question_signals(q).offset_days == -15
    assert infer_answer_type("Before Mexico, when did China visit Japan?") == "time"
    assert infer_answer_type("China visited Japan when?") == "time"


def test_first_last_and_kth():
    s = question_signals("Before Mexico, which country did China visit last?")
    assert (s.answer_type, s.order, s.select) == ("entity", "before", "last")
    s = question_signals("In which year did Barack Obama first visit Ireland?")
    assert (s.answer_type, s.granularity, s.select) == ("time", "year", "first")
    # "second to last" is rank 2 from the end: neither first nor last
    assert question_signals("Who was the second to last to visit China?").select is None


def test_offset_cue_before_a_date_in_the_cue_grammar():
    (c,) = parse_temporal_cues("Who did Iran criticize two weeks after May 2010?")
    assert (c.kind, c.op, c.time, c.offset, c.text) == ("time", "after", "2010-05", 14, "two weeks after May 2010")
    (c,) = parse_temporal_cues("Who did Iran criticize after May 2010?")
    assert (c.op, c.offset) == ("after", 0)
