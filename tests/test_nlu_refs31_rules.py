"""Rules of the refs31 round (question structure, dev22), checked by hand on the author's own
phrasings over a tiny hand-made KG.

* **rule 1, wrapper frames** (nlu.wrappers): "Would it be possible to tell me ...", "Is it
  possible for you to find out ...", the pseudo-cleft "What I'd like to know is ...", "I was
  hoping to find out ...", "Could I ask for the <time noun> ...", "I'd appreciate knowing ...",
  "pin down" as a finding verb, "offhand" after a knowing frame, and a trailing "if you (happen
  to) have it": no word of theirs reaches a clause, the answer type is read through them;
* **rule 2, "What's the <time noun>"** (temporal._WH_TIME_RE): the contracted copula asks a
  time as "What was the date ..." does;
* **rule 3, a purpose preface before a frame** (wrappers._PURPOSE): "For a piece on Korean
  diplomacy I'd like to know who ..." -- the preface's words (and its names) are no slot;
* **rule 4, a number word counting an offset is no name** (analysis._without_offset_numbers):
  "One day after X ..." (the KG's Radio_One would take the capitalised "One");
* **rule 5, "after that" / "before this" after a stated event** (analysis._statement_ref):
  "X appealed to Y; in what year after that did Z ...": the demonstrative is the statement's
  anaphor, the names after it the asked clause's;
* **rule 6, "the group" / "the movement" / "the organisation"** (anaphora._generic_org): agrees,
  weakly, with a plain name of an organisation or of unknown kind, never a sector actor, a place
  or a person ("... before the Tupac Amaru Front condemned the group");
* **rule 7, a bare definite description is no sector actor when it refers back**
  (analysis._without_anaphoric_descriptions): "... made an appeal to the paper" after "the
  Lima Times" is the Lima Times, not a Newspaper_(X) actor.
"""

from __future__ import annotations

import pytest

from test_nlu_ordinal_scope import answer  # SCoP's top prediction on a tiny KG
from tkgqa_ray.nlu import EntityMatcher, Mention, analyze
from tkgqa_ray.nlu.analysis import _without_anaphoric_descriptions
from tkgqa_ray.nlu.anaphora import agreement, features
from tkgqa_ray.nlu.temporal import infer_answer_type, infer_time_level
from tkgqa_ray.nlu.wrappers import strip_wrapper

ROWS = [
    ("Peru", "Make_a_visit", "Chile", "2010-01-05"),
    ("Peru", "Make_a_visit", "Chile", "2010-04-09"),
    ("Peru", "Make_a_visit", "Chile", "2011-08-02"),
    ("Ecuador", "Make_a_visit", "Chile", "2009-03-03"),
    ("Bolivia", "Criticize_or_denounce", "Chile", "2010-03-01"),
    ("Bolivia", "Make_statement", "Ecuador", "2010-03-02"),
    ("Bolivia", "Make_statement", "Uruguay", "2010-03-20"),
    ("Bolivia", "Make_statement", "Paraguay", "2009-01-01"),
    ("Uruguay", "Make_an_appeal_or_request", "Chile", "2010-02-02"),
    ("Paraguay", "Make_an_appeal_or_request", "Chile", "2009-05-05"),
    ("Paraguay", "Make_an_appeal_or_request", "Chile", "2010-06-06"),
    ("Paraguay", "Make_an_appeal_or_request", "Chile", "2011-07-07"),
    ("Radio_One", "Make_statement", "Chile", "2010-01-01"),
    # rule 6
    ("Shining_Path", "Use_unconventional_violence", "Men_(Peru)", "2008-02-02"),
    ("Shining_Path", "Use_unconventional_violence", "Men_(Peru)", "2008-09-09"),
    ("Shining_Path", "Use_unconventional_violence", "Men_(Peru)", "2009-04-04"),
    ("Tupac_Amaru_Front", "Criticize_or_denounce", "Shining_Path", "2008-10-10"),
    ("Tupac_Amaru_Front", "Use_unconventional_violence", "Men_(Peru)", "2008-10-01"),
    # rule 7
    ("Lima_Times", "Consult", "Ecuador", "2009-06-06"),
    ("Lima_Times", "Consult", "Uruguay", "2010-06-06"),
    ("Ministry_(Peru)", "Make_an_appeal_or_request", "Lima_Times", "2010-02-02"),
    ("Ministry_(Peru)", "Make_an_appeal_or_request", "Newspaper_(Peru)", "2009-02-02"),
]


def _a(ctx, q):
    return analyze(q, EntityMatcher.for_table(ctx.table))


# ------------------------------------------------------------------ rule 1
@pytest.mark.parametrize("q, kept, atype, level", [
    ("Would it be possible to tell me the last month in which Peru visited Chile?",
     "the last month in which Peru visited Chile?", "time", "month"),
    ("Is it possible for you to find out who visited Chile first?", "who visited Chile first?", "entity", "day"),
    ("What I'd like to know is the year in which Peru first visited Chile.",
     "the year in which Peru first visited Chile.", "time", "year"),
    ("What we want to find out is who criticised Chile.", "who criticised Chile.", "entity", "day"),
    ("I was hoping to find out when Peru last visited Chile.", "when Peru last visited Chile.", "time", "day"),
    ("Could I ask for the first date on which Peru visited Chile?",
     "the first date on which Peru visited Chile?", "time", "day"),
    ("I'd appreciate knowing in which year Ecuador visited Chile.", "in which year Ecuador visited Chile.", "time", "year"),
    ("I would appreciate it if you could tell me who visited Chile.", "who visited Chile.", "entity", "day"),
    ("Can you pin down the month Peru last visited Chile?", "the month Peru last visited Chile?", "time", "month"),
    ("Do you know offhand which country visited Chile first?", "which country visited Chile first?", "entity", "day"),
])
def test_rule1_frames_are_wrapper(q, kept, atype, level):
    assert strip_wrapper(q).strip() == kept
    assert infer_answer_type(q) == atype
    assert infer_time_level(q) == level


@pytest.mark.parametrize("q", [
    "On which day did Peru last visit Chile, if you happen to have it?",
    "On which day did Peru last visit Chile, if you know that?",
])
def test_rule1_trailing_if_you_have_it(q):
    assert strip_wrapper(q).rstrip() == "On which day did Peru last visit Chile"


def test_rule1_answers_through_the_frame(ctx):
    assert answer(ctx, "Would it be possible to tell me the last date on which Peru visited Chile?") == ["2011-08-02"]
    assert answer(ctx, "What I'd like to know is the year in which Ecuador visited Chile.") == ["2009"]


def test_rule1_no_frame_in_a_plain_question():
    # "what is possible" / "what I liked" are no frames: nothing is blanked
    for q in ("What country was it possible for Peru to visit?", "Who visited Chile that I liked?"):
        assert strip_wrapper(q) == q


# ------------------------------------------------------------------ rule 2
@pytest.mark.parametrize("q, atype", [
    ("What's the last date on which Peru visited Chile?", "time"),
    ("What's the year Ecuador visited Chile?", "time"),
    ("What's the name of the last country that visited Chile?", "entity"),
    ("What's the last country Peru visited?", "entity"),
])
def test_rule2_contracted_copula(q, atype):
    assert infer_answer_type(q) == atype


def test_rule2_answer(ctx):
    assert answer(ctx, "What's the last date on which Peru visited Chile, if you happen to have it?") == ["2011-08-02"]


# ------------------------------------------------------------------ rule 3
@pytest.mark.parametrize("q, kept", [
    ("For a piece on Andean politics I'd like to know who visited Chile in 2010.", "who visited Chile in 2010."),
    ("For my thesis, could you tell me when Ecuador visited Chile?", "when Ecuador visited Chile?"),
    ("In a report about Peru: do you know who visited Chile?", "who visited Chile?"),
])
def test_rule3_purpose_preface(q, kept):
    assert strip_wrapper(q).strip() == kept


@pytest.mark.parametrize("q", [
    "For which country did Bolivia make a statement?",       # the preposition of the asked phrase
    "For a piece on Chile, who visited it?",                  # no frame after the preface: kept
])
def test_rule3_no_preface_without_a_frame(q):
    assert strip_wrapper(q) == q


def test_rule3_preface_names_are_no_slot(ctx):
    a = _a(ctx, "For a piece on Bolivian politics I'd like to know who Peru visited in 2011.")
    assert [m.names[0] for m in a.main.mentions] == ["Peru"]
    assert answer(ctx, "For a piece on Bolivian politics I'd like to know who Peru visited in 2011.") == ["Chile"]


# ------------------------------------------------------------------ rule 4
def test_rule4_number_word_of_an_offset_is_no_name(ctx):
    q = "One day after Bolivia criticised Chile, to whom did it make a statement?"
    a = _a(ctx, q)
    assert all("Radio_One" not in m.names for m in a.mentions)
    assert any(c.offset == 1 and c.op == "after" for c in a.cues)
    assert answer(ctx, q) == ["Ecuador"]


def test_rule4_a_name_elsewhere_stays(ctx):
    a = _a(ctx, "When did Radio One make a statement about Chile?")
    assert any("Radio_One" in m.names for m in a.mentions)


# ------------------------------------------------------------------ rule 5
def test_rule5_after_that_points_back_to_the_statement(ctx):
    q = "Uruguay appealed to Chile; in what year after that did Paraguay first make an appeal to Chile?"
    a = _a(ctx, q)
    assert [m.names[0] for m in a.main.mentions] == ["Paraguay", "Chile"]
    assert len(a.refs) == 1 and [m.names[0] for m in a.refs[0].mentions] == ["Uruguay", "Chile"]
    assert a.refs[0].cue.op == "after"
    assert answer(ctx, q) == ["2010"]


def test_rule5_with_a_frame_and_statement_order(ctx):
    q = "Uruguay appealed to Chile; could you work out in what year after that Paraguay first appealed to Chile?"
    assert answer(ctx, q) == ["2010"]


def test_rule5_before_this(ctx):
    q = "Uruguay appealed to Chile; in which year before this did Paraguay last appeal to Chile?"
    assert answer(ctx, q) == ["2009"]


def test_rule5_a_plain_reference_stays(ctx):
    # no statement before the question: "after" keeps its own reference clause
    a = _a(ctx, "In which year did Paraguay first appeal to Chile after Uruguay appealed to Chile?")
    assert len(a.refs) == 1 and [m.names[0] for m in a.refs[0].mentions] == ["Uruguay", "Chile"]


# ------------------------------------------------------------------ rule 6
@pytest.mark.parametrize("surface, name, agrees", [
    ("Shining Path", "Shining_Path", True),          # a plain name of unknown kind
    ("Tupac Amaru Front", "Tupac_Amaru_Front", True),  # an organisation ("front")
    ("Peruvian men", "Men_(Peru)", False),            # a sector actor
    ("Chile", "Chile", False),                        # a place
    ("Barack Obama", "Barack_Obama", False),          # a person
])
def test_rule6_the_group_agreement(surface, name, agrees):
    assert bool(agreement("the group", features(surface, name))) is agrees
    assert bool(agreement("the movement", features(surface, name))) is agrees


def test_rule6_the_group_is_the_asked_events_doer(ctx):
    q = ("In which month did Shining Path last use unconventional violence against Peruvian men "
         "before the Tupac Amaru Front condemned the group?")
    assert answer(ctx, q) == ["2008-09"]


# ------------------------------------------------------------------ rule 7
def test_rule7_the_paper_refers_back(ctx):
    q = "Whom did the Lima Times consult in the year that Peru's ministry made an appeal to the paper?"
    a = _a(ctx, q)
    assert all("Newspaper_(Peru)" not in m.names for m in a.mentions)
    assert answer(ctx, q) == ["Uruguay"]


def _m(text, start, name, source):
    return Mention(text=text, start=start, end=start + len(text), entity_ids=(1,), names=(name,), score=1.0, source=source)


def test_rule7_only_a_description_with_an_antecedent_before_it_goes():
    paper = _m("the paper", 60, "Newspaper_(Peru)", "actor")
    times = _m("Lima Times", 10, "Lima_Times", "exact")
    ministry = _m("Peru's ministry", 30, "Ministry_(Peru)", "actor")
    assert _without_anaphoric_descriptions([times, ministry, paper]) == [times, ministry]
    # no newspaper named before it: the actor reading stays
    assert _without_anaphoric_descriptions([ministry, paper]) == [ministry, paper]
    # the antecedent after it: stays (the description comes first, no anaphor)
    later = _m("Lima Times", 80, "Lima_Times", "exact")
    assert _without_anaphoric_descriptions([ministry, paper, later]) == [ministry, paper, later]
    # a sector actor with the noun is no antecedent ("the ministry" after "Peru's ministry")
    again = _m("the ministry", 70, "Ministry_(Chile)", "actor")
    assert _without_anaphoric_descriptions([ministry, again]) == [ministry, again]
