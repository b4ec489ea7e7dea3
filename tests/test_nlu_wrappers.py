"""Question wrappers: answer type and granularity are read through polite / indirect frames,
and wrapper words never become slot text (names, relation phrase). Hand-checked."""

from __future__ import annotations

import pytest

from tkgqa_ray.nlu import EntityMatcher, analyze, infer_answer_type, infer_time_level
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.nlu.wrappers import strip_wrapper, wrapper_spans

NAMES = ["China", "Japan", "Iran", "Kenya", "Peru", "Police_(Kenya)"]


@pytest.fixture(scope="module")
def matcher():
    return EntityMatcher(NAMES)


@pytest.mark.parametrize(
    "q,atype,level",
    [
        ("Could you tell me the exact month when China visited Japan?", "time", "month"),
        ("Do you know in which year Iran hosted a visit by Japan?", "time", "year"),
        ("I'd like to know the date on which Kenya signed an agreement with Peru.", "time", "day"),
        ("Can you tell me the year and month when China met Japan?", "time", "month"),
        ("Could you please tell me when China first visited Japan?", "time", "day"),
        ("Do you happen to know what year China criticized Japan?", "time", "year"),
        ("Can you name the year in which China praised Japan?", "time", "year"),
        ("I wonder on which day China phoned Japan.", "time", "day"),
        ("When did China visit Japan, do you know?", "time", "day"),
        ("Can you tell me who visited China in 2010?", "entity", "year"),
        ("Please tell me who China visited first.", "entity", "day"),
        ("I wonder which country Japan visited after Iran?", "entity", "day"),
        ("Tell me who China visited in May 2010, please?", "entity", "month"),
        ("I'd like to know which party praised Japan in 2009.", "entity", "year"),
    ],
)
def test_answer_type_and_granularity_through_wrappers(q, atype, level):
    assert infer_answer_type(q) == atype
    assert infer_time_level(q) == level
    sig = question_signals(q)
    assert (sig.answer_type, sig.granularity) == (atype, level)


@pytest.mark.parametrize(
    "q,phrase,names,open_slot",
    [
        ("Could you tell me the exact month when China visited Japan?", "visited", ["China", "Japan"], None),
        ("Do you know in which year Iran hosted a visit by Japan?", "hosted a visit by", ["Iran", "Japan"], None),
        ("I'd like to know the date on which Kenya signed an agreement with Peru.", "signed an agreement with", ["Kenya", "Peru"], None),
        ("Can you tell me who visited China in 2010?", "visited", ["China"], "subject"),
        ("Please tell me who China visited first.", "visited", ["China"], "object"),
        ("I wonder which country Japan visited?", "visited", ["Japan"], "object"),
        ("Do you know who wanted to negotiate with Japan, please?", "wanted to negotiate with", ["Japan"], "subject"),
        ("Tell me, when did Kenya call on Peru?", "call on", ["Kenya", "Peru"], None),
    ],
)
def test_wrapper_words_never_become_slot_text(matcher, q, phrase, names, open_slot):
    a = analyze(q, matcher)
    assert a.main.phrase == phrase
    assert [m.text for m in a.mentions] == names
    assert a.main.open_slot == open_slot
    assert a.wrapper  # the wrapper was recognised


def test_direct_questions_have_no_wrapper_and_offsets_are_kept():
    for q in ("Who visited China in 2010?", "In which year did China visit Japan?", "Name the year in which X met Y.",
              "Which country did Japan visit first?"):
        assert wrapper_spans(q) == ()
        assert strip_wrapper(q) == q
    q = "Could you tell me who visited China?"
    s = strip_wrapper(q)
    assert len(s) == len(q) and s.strip() == "who visited China?"
