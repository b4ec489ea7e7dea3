"""before_after / equal_multi / time-answer forms found missing by the nlu6 audit (issue #10):
hand-written paraphrases along the dimensions people vary (reference form, cue word, clause
position, voice, frame), expectations checked from English.

* a relative wh-word that opens a reference clause ("during the month *in which* X ...",
  "before the day *on which* X ...") is not the question's wh-phrase;
* a one-name reference with its own verb before the name ("after threatening Israel",
  "after it had threatened Israel", "after being criticised by Japan") is an action of the
  asked event's known subject, in the clause's own voice;
* a part of a period between an operator and its date ("after mid-2010", "before late 2010",
  "after the first half of 2010") keeps the operator.
"""

from __future__ import annotations

import pytest

from test_nlu_multi_event import parse  # (anchors, search) as [subject, object] names
from tkgqa_ray.methods.scop.symbolic import constraint_parser, event_parser
from tkgqa_ray.methods.scop.types import UNKNOWN
from tkgqa_ray.nlu.temporal import parse_temporal_cues

ROWS = [
    ("Barack_Obama", "Make_a_visit", "China", "2009-11-15"),
    ("Iran", "Criticize_or_denounce", "Japan", "2011-01-01"),
    ("Iran", "Criticize_or_denounce", "China", "2012-01-01"),
    ("Japan", "Criticize_or_denounce", "Iran", "2010-03-01"),
    ("Iran", "Threaten", "Israel", "2011-05-02"),
]



def _cons(ctx, q):
    out = event_parser({"question": q}, ctx)
    c = constraint_parser({"question": q, "anchors": out["anchors"], "search": out["search"]}, ctx)
    return [(x["ref_type"], x["operator"], x["granularity"]) for x in c["constraints"]]


@pytest.mark.parametrize("q, anchors, search, cue", [
    # the fronted same-unit clause opens with "in which" / "when"; the main wh-phrase follows
    ("During the month in which Iran threatened Israel, which country did Japan criticise?",
     [["Iran", "Israel"]], ["Japan", UNKNOWN], ("equal", "month")),
    ("During the year in which Iran threatened Israel, who did Japan criticise?",
     [["Iran", "Israel"]], ["Japan", UNKNOWN], ("equal", "year")),
    ("In the month when Iran threatened Israel, who did Japan criticise?",
     [["Iran", "Israel"]], ["Japan", UNKNOWN], ("equal", "month")),
    # ... a subject question keeps asking the subject
    ("During the month in which Iran threatened Israel, who criticised China?",
     [["Iran", "Israel"]], [UNKNOWN, "China"], ("equal", "month")),
    # before / after a "day / time" with a relative pronoun
    ("Before the day on which Iran threatened Israel, who did Japan criticise?",
     [["Iran", "Israel"]], ["Japan", UNKNOWN], ("before", None)),
    ("After the time at which Iran threatened Israel, which country did Japan criticise?",
     [["Iran", "Israel"]], ["Japan", UNKNOWN], ("after", None)),
])
def test_relative_wh_word_of_a_reference_is_not_the_question_word(ctx, q, anchors, search, cue):
    assert parse(ctx, q) == (anchors, search)
    assert [c[1:] for c in _cons(ctx, q)] == [cue]


@pytest.mark.parametrize("q, anchors, search", [
    # a gerund / a pronoun subject: the asked event's subject (Iran) threatened Israel
    ("After threatening Israel, who did Iran criticise?", [["Iran", "Israel"]], ["Iran", UNKNOWN]),
    ("Who did Iran criticise after it had threatened Israel?", [["Iran", "Israel"]], ["Iran", UNKNOWN]),
    ("Which country did Iran criticise in the same month as threatening Israel?", [["Iran", "Israel"]], ["Iran", UNKNOWN]),
    # a passive participle: Japan criticised Iran
    ("After being criticised by Japan, who did Iran criticise?", [["Japan", "Iran"]], ["Iran", UNKNOWN]),
    ("Who did Iran criticise after it had been criticised by Japan?", [["Japan", "Iran"]], ["Iran", UNKNOWN]),
    # a bare actor stays a parallel reference (MultiTQ's style): Iran criticised China
    ("Before China, who did Iran criticise?", [["Iran", "China"]], ["Iran", UNKNOWN]),
    ("Who did Iran criticise after Japan did?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    # subject asked: the name is another subject of the same action
    ("Who criticised China after Japan had done so?", [["Japan", "China"]], [UNKNOWN, "China"]),
])
def test_one_name_reference_with_its_own_verb(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_own_verb_reference_relation_phrase(ctx):
    # a same-unit reference is another action: its own verb
    out = event_parser({"question": "Who did Iran criticise in the same month as threatening Israel?"}, ctx)
    assert out["anchors"][0][1] == "threatening"
    assert out["search"][1] == "criticise"
    # "before / after" orders one action (a reworded verb is a paraphrase of the asked one)
    out = event_parser({"question": "Whom did Iran condemn after denouncing Japan?"}, ctx)
    assert out["anchors"][0] == ["Iran", "condemn", "Japan"]


def test_time_question_with_a_passive_participle_reference(ctx):
    # "When did Iran criticise China after being criticised by Japan?": Japan criticised Iran
    assert parse(ctx, "When did Iran criticise China after being criticised by Japan?") == (
        [["Iran", "China"], ["Japan", "Iran"]], None)
    assert parse(ctx, "When did Iran criticise China after threatening Israel?") == (
        [["Iran", "China"], ["Iran", "Israel"]], None)


@pytest.mark.parametrize("q, op, time", [
    ("Who criticised Iran after mid-2010?", "after", "2010"),
    ("Who criticised Iran after early 2010?", "after", "2010"),
    ("Who did Japan criticise before late 2011?", "before", "2011"),
    ("Who criticised Iran after the first half of 2010?", "after", "2010"),
    ("Who criticised Iran in mid-2010?", "equal", "2010"),
    ("Who criticised Iran before the end of May 2010?", "before", "2010-05"),
])
def test_part_of_a_period_keeps_the_operator(q, op, time):
    cues = parse_temporal_cues(q)
    assert [(c.kind, c.op, c.time) for c in cues] == [("time", op, time)]


def test_a_year_range_with_a_hyphen_is_still_not_two_dates():
    assert [c for c in parse_temporal_cues("Who criticised Iran in 2009-2010?") if c.kind == "time"] == []


@pytest.mark.parametrize("q, level, event", [
    # a definite unit followed directly by its clause (no "when" / "in which"), after a wrapper
    ("I'd like to know the year Iran criticised Japan", "year", ["Iran", "Japan"]),
    ("Tell me the month Japan was criticised by Iran.", "month", ["Iran", "Japan"]),
    ("Could you tell me the exact date Iran threatened Israel?", "day", ["Iran", "Israel"]),
    ("the year and month iran criticised japan?", "month", ["iran", "japan"]),
    # ... or by "of" + an event noun phrase
    ("I'd like to know the year of Iran's first criticism of Japan.", "year", ["Iran", "Japan"]),
])
def test_definite_unit_with_a_contact_clause_asks_a_time(ctx, q, level, event):
    from tkgqa_ray.nlu.temporal import infer_answer_type, infer_time_level

    assert infer_answer_type(q) == "time"
    assert infer_time_level(q) == level
    assert parse(ctx, q) == ([event], None)


@pytest.mark.parametrize("q, search, gran", [
    # a fronted "the <unit> (that) X V Y," with no preposition is a same-unit reference
    ("The day Iran threatened Israel, who criticised China?", [UNKNOWN, "China"], "day"),
    ("The year that Iran threatened Israel, which country did Japan criticise?", ["Japan", UNKNOWN], "year"),
    # ... and it does not make an entity question a time question, nor the reverse
    ("The month of Iran's threat against Israel, who criticised China?", [UNKNOWN, "China"], "month"),
])
def test_fronted_unit_noun_phrase_is_a_same_unit_reference(ctx, q, search, gran):
    from tkgqa_ray.nlu.temporal import infer_answer_type

    assert infer_answer_type(q) == "entity"
    assert parse(ctx, q) == ([["Iran", "Israel"]], search)
    assert [c[1:] for c in _cons(ctx, q)] == [("equal", gran)]


@pytest.mark.parametrize("q, anchors, search, cue", [
    # a comparative of time with its noun: "at an earlier date / a later time than X"
    ("Who criticised Japan at an earlier date than Iran?", [["Iran", "Japan"]], [UNKNOWN, "Japan"], ("before", None)),
    ("Which country did Iran criticise at a later point than Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN], ("after", None)),
    # "in the <unit> of" + an event noun phrase (a possessive pronoun or an article)
    ("Who did Iran criticise in the month of its threat against Israel?", [["Iran", "Israel"]], ["Iran", UNKNOWN], ("equal", "month")),
    ("Who criticised China during the year of Iran's threat against Israel?", [["Iran", "Israel"]], [UNKNOWN, "China"], ("equal", "year")),
    # a verb of sequence: "followed / preceded / came after X in V-ing Y" = V Y after / before X did
    ("Who followed Japan in criticising Iran?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("after", None)),
    ("Which country preceded Japan in criticising Iran?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("before", None)),
    ("Which actor came after Japan in criticising Iran?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("after", None)),
])
def test_comparatives_event_nouns_and_sequence_verbs(ctx, q, anchors, search, cue):
    assert parse(ctx, q) == (anchors, search)
    assert [c[1:] for c in _cons(ctx, q)] == [cue]


def test_a_sequence_verb_without_a_gerund_is_the_relation():
    # "Who followed Japan?" has no "in V-ing": "followed" is the asked action, not a cue
    assert [c for c in parse_temporal_cues("Who followed Japan?") if c.kind == "event"] == []
    assert [c.op for c in parse_temporal_cues("Who was followed by Japan in 2010?") if c.kind == "event"] == []


@pytest.mark.parametrize("q, anchors, search", [
    # a longer copula noun phrase after the wh-word; what follows decides the role
    ("What is the name of the country Iran criticised after Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    ("What is the name of the country that criticised Iran before Japan?", [["Japan", "Iran"]], [UNKNOWN, "Iran"]),
    # a bare imperative of finding is a wrapper
    ("Find out who Iran criticised after Japan.", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    ("Determine which country criticised Iran before Japan", [["Japan", "Iran"]], [UNKNOWN, "Iran"]),
    # a role noun with a possessive doer: the wh-phrase is the patient
    ("Which country was the target of Iran's criticism after Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    ("Who was the recipient of Iran's criticism after Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    # ... while "by X" keeps reading X as the doer
    ("Who was the target of criticism by Iran after Japan?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
    # a reference between the wh-phrase and its inverted auxiliary
    ("Which country after Japan did Iran criticise?", [["Iran", "Japan"]], ["Iran", UNKNOWN]),
])
def test_frames_around_a_reference(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)
    assert "find" not in event_parser({"question": q}, ctx)["search"][1].lower()


@pytest.mark.parametrize("q, anchors, cue, level", [
    ("At what date after Japan criticised Iran did Iran criticise China?",
     [["Iran", "China"], ["Japan", "Iran"]], ("after", None), "day"),
    ("In which year after Japan criticised Iran did Iran criticise China?",
     [["Iran", "China"], ["Japan", "Iran"]], ("after", None), "year"),
    ("When in the same year that Barack Obama visited China did Iran criticise Japan?",
     [["Iran", "Japan"], ["Barack Obama", "China"]], ("equal", "year"), "day"),
])
def test_time_question_with_a_reference_before_the_inverted_auxiliary(ctx, q, anchors, cue, level):
    from tkgqa_ray.nlu.temporal import infer_time_level

    assert parse(ctx, q) == (anchors, None)
    assert [c[1:] for c in _cons(ctx, q)] == [cue]
    assert infer_time_level(q) == level


@pytest.mark.parametrize("q, kind, op", [
    # a season is a part of the period too
    ("Who criticised Iran before the summer of 2010?", "time", "before"),
    ("Who criticised Iran after spring 2010?", "time", "after"),
    # a negated comparative turns round ("no earlier than X" = after X)
    ("Who criticised Iran no earlier than 2010?", "time", "after"),
    ("Who did Japan criticise not later than May 2011?", "time", "before"),
    ("Who criticised Iran no earlier than Japan did?", "event", "after"),
    # ... a plain comparative keeps its direction
    ("Who criticised Iran earlier than Japan did?", "event", "before"),
])
def test_seasons_and_negated_comparatives(q, kind, op):
    cues = parse_temporal_cues(q)
    assert [(c.kind, c.op) for c in cues] == [(kind, op)]
    if q.startswith("Who criticised Iran no"):
        assert cues[0].text.lower().startswith("no ")  # the negation is part of the cue


@pytest.mark.parametrize("q, op, offset", [
    ("Who did Japan criticise a fortnight after Iran threatened Israel?", "after", 14),
    ("Who did Japan criticise two fortnights before Iran's threat against Israel?", "before", 28),
    # the N-th day counted from the reference (not an ordinal rank of the answer)
    ("Who did Japan criticise on the third day after Iran threatened Israel?", "after", 3),
    ("On the 2nd day before Iran threatened Israel, whom did Japan criticise?", "before", 2),
])
def test_fortnights_and_the_nth_day_are_offsets(ctx, q, op, offset):
    cues = parse_temporal_cues(q)
    assert [(c.kind, c.op, c.offset) for c in cues] == [("event", op, offset)]
    assert parse(ctx, q) == ([["Iran", "Israel"]], ["Japan", UNKNOWN])


# ---------------------------------------------------------------- a reference stated first
@pytest.mark.parametrize("q, anchors, search, cue", [
    # a sentence states the reference; an anaphoric adverb / "after that" points back to it
    ("Japan criticised Iran. Who did the same thereafter?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("after", None, 0)),
    ("Japan criticised Iran. Whom did it criticise earlier on?", [["Japan", "Iran"]], ["Japan", UNKNOWN], ("before", None, 0)),
    ("We know that Japan criticised Iran. Who criticised them afterwards?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("after", None, 0)),
    ("Consider Japan's criticism of Iran: who else criticised it beforehand?", [["Japan", "Iran"]], [UNKNOWN, "Iran"], ("before", None, 0)),
    # ... with its own asked event, a same-unit anaphor or an offset
    ("Japan criticised Iran. Who did Iran criticise on that same day?", [["Japan", "Iran"]], ["Iran", UNKNOWN], ("equal", "day", 0)),
    ("Japan criticised Iran. Who criticised China during that same month?", [["Japan", "Iran"]], [UNKNOWN, "China"], ("equal", "month", 0)),
    ("Japan criticised Iran; 22 days later, which actor criticised China?", [["Japan", "Iran"]], [UNKNOWN, "China"], ("after", None, 22)),
    ("Japan criticised Iran. 17 days after that, who criticised China?", [["Japan", "Iran"]], [UNKNOWN, "China"], ("after", None, 17)),
    ("Counting from the day Japan criticised Iran, whom did Iran criticise 10 days earlier?",
     [["Japan", "Iran"]], ["Iran", UNKNOWN], ("before", None, 10)),
    # a passive statement keeps its agent
    ("Japan was criticised by Iran. By whom was China criticised during that same month?",
     [["Iran", "Japan"]], [UNKNOWN, "China"], ("equal", "month", 0)),
    # "..., and in the same month Z ...": the clause after "and" is the asked one
    ("Japan criticised Iran, and in the same month Iran criticised someone. Who?", [["Japan", "Iran"]], ["Iran", UNKNOWN], ("equal", "month", 0)),
    ("Japan criticised Iran, and that same month someone criticised China. Who?", [["Japan", "Iran"]], [UNKNOWN, "China"], ("equal", "month", 0)),
    # "Someone V X <reference>. Who was it?": "someone" is the asked slot
    ("Someone criticised China on the very day that Japan criticised Iran. Who was it?",
     [["Japan", "Iran"]], [UNKNOWN, "China"], ("equal", "day", 0)),
])
def test_reference_stated_before_the_question(ctx, q, anchors, search, cue):
    assert parse(ctx, q) == (anchors, search)
    out = event_parser({"question": q}, ctx)
    c = constraint_parser({"question": q, "anchors": out["anchors"], "search": out["search"]}, ctx)["constraints"]
    assert [(x["operator"], x["granularity"], x["offset"]) for x in c] == [cue]


def test_a_stated_time_takes_the_anaphors_operator(ctx):
    for q, op, ref in [
        ("Take 7 August 2010 as the reference point: whom did Iran criticise earlier?", "before", "2010-08-07"),
        ("With December of 2010 as the cut-off, who criticised Iran later on?", "after", "2010-12"),
    ]:
        assert _cons(ctx, q) == [("explicit_time", op, None)]
        out = event_parser({"question": q}, ctx)
        assert out["search"][1].split() == ["criticise" if "whom" in q else "criticised"]  # no frame words
        c = constraint_parser({"question": q, "anchors": out["anchors"], "search": out["search"]}, ctx)["constraints"]
        assert c[0]["reference"] == ref


def test_questions_without_a_stated_reference_are_unchanged(ctx):
    # a first sentence with a wh-word is no statement
    assert parse(ctx, "Who did Iran criticise after Japan? Tell me.") == ([["Iran", "Japan"]], ["Iran", UNKNOWN])
    # a statement with no temporal anaphor in the question adds no reference
    assert _cons(ctx, "Iran criticised Japan. Who criticised China?") == []
    # an adverb with no stated event before it is no reference either
    assert _cons(ctx, "Who had Iran previously criticised?") == []


@pytest.mark.parametrize("q, anchors, search", [
    # an excluded name is no role of the asked event (it recurs in the reference)
    ("Apart from Iran, who did Japan criticise ahead of Japan's criticism of Iran?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    ("Which actors, other than China, criticised Iran later than the day China did?", [["China", "Iran"]], [UNKNOWN, "Iran"]),
    # "List everyone X V", "I'd like a list of whom X V ...": embedded order, the object
    ("List everyone Japan criticised subsequent to the 5th of December 2010", [], ["Japan", UNKNOWN]),
    ("I'd like a list of whom Japan criticised in the month of the criticism of Iran by China.", [["China", "Iran"]], ["Japan", UNKNOWN]),
    # "in a month in which" (indefinite) is a same-unit reference too
    ("Which actor did Japan criticise in a month in which Iran criticised China?", [["Iran", "China"]], ["Japan", UNKNOWN]),
    # a pronoun subject after a fronted reference: "they" = the reference's doer
    ("Who, preceding Japan's criticism of Iran, did they criticise?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
])
def test_exclusions_list_frames_and_pronoun_subjects(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)
    assert "list" not in event_parser({"question": q}, ctx)["search"][1]


def test_an_excluded_name_is_no_answer(ctx):
    from tkgqa_ray.methods.scop.symbolic import answerer

    facts = [{"s": "Japan", "r": "Criticize_or_denounce", "o": "Iran", "start": "2010-03-01"},
             {"s": "Japan", "r": "Criticize_or_denounce", "o": "Iran", "start": "2010-04-01"},
             {"s": "Iran", "r": "Criticize_or_denounce", "o": "China", "start": "2012-01-01"}]
    base = {"facts": facts, "ranking": None, "open_slot": "subject"}
    assert answerer({**base, "question": "Who criticised someone?"}, ctx)["answers"] == ["Japan", "Iran"]
    assert answerer({**base, "question": "Who criticised someone, apart from Japan?"}, ctx)["answers"] == ["Iran"]


def test_topic_of_a_statement_from_x_names_x_the_speaker():
    from tkgqa_ray.nlu.lexicon import _role_noun_inner

    assert _role_noun_inner("topic of a statement from".split()) == (["a", "statement"], True)


def test_name_the_most_recent_actor_asks_the_object(ctx):
    # two words between "the" and the head noun ("the most recent actor X V-ed")
    assert parse(ctx, "Name the most recent actor Iran criticised.") == ([], ["Iran", UNKNOWN])
    assert parse(ctx, "Name the most recent actor that criticised Iran.") == ([], [UNKNOWN, "Iran"])


def test_a_stated_date_with_a_comma_inside(ctx):
    q = "Take July 25, 2011 as the reference point: whom did Iran criticise beforehand?"
    out = event_parser({"question": q}, ctx)
    c = constraint_parser({"question": q, "anchors": out["anchors"], "search": out["search"]}, ctx)["constraints"]
    assert [(x["operator"], x["reference"]) for x in c] == [("before", "2011-07-25")]


@pytest.mark.parametrize("phrase, relation", [
    ("plea to", "Make_an_appeal_or_request"),
    ("reception of", "Host_a_visit"),
    ("welcomed a visit by", "Host_a_visit"),
    ("cooperated on diplomatic matters with", "Engage_in_diplomatic_cooperation"),
    ("voiced a desire to meet or negotiate with", "Express_intent_to_meet_or_negotiate"),
    ("declared readiness to negotiate with", "Express_intent_to_meet_or_negotiate"),
])
def test_event_nouns_of_the_lexicon(phrase, relation):
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    lex = RelationLexicon.for_relations([
        "Make_an_appeal_or_request", "Host_a_visit", "Accuse", "Make_a_visit", "Engage_in_diplomatic_cooperation",
        "Reduce_or_break_diplomatic_relations", "Express_intent_to_meet_or_negotiate", "Consult", "Engage_in_negotiation",
    ])
    assert lex.match(phrase)[0].relation == relation


@pytest.mark.parametrize("q, search", [
    # "by" after a noun of an active clause is no passive agent: the wh-phrase is the object
    ("In May 2011, Japan hosted a visit by which side?", ["Japan", UNKNOWN]),
    ("Japan welcomed a visit by whom before 2012?", ["Japan", UNKNOWN]),
    # a passive keeps asking the agent
    ("In 2010, Japan was criticised by whom?", [UNKNOWN, "Japan"]),
    ("Japan criticised by whom in 2010?", [UNKNOWN, "Japan"]),
])
def test_by_after_a_noun_is_not_a_passive_agent(ctx, q, search):
    assert parse(ctx, q)[1] == search
