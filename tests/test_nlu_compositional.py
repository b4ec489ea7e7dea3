"""Order cues of compositional questions (issue #10, the ``dev2`` round) and the ``dev2`` set.

Expectations are hand-checked from English: "in the wake of / in the aftermath of / on the
heels of / as soon as / once X did Y" put the asked event after X's; "by the time / in the
run-up to X" before it; "once" as an adverb of count ("visited Iran once", "more than once",
"once again") is no cue; "the moment / the point (that|when)" introduce an event clause like
"the time that"."""

from __future__ import annotations

from collections import Counter

import pytest

from tkgqa_ray.nlu import CUE_TIME_CLAUSE_RE, EVENT_CLAUSE_GAP_RE
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.nlu.temporal import parse_temporal_cues


def _events(q: str) -> list[tuple[str, str]]:
    return [(c.op, c.text) for c in parse_temporal_cues(q) if c.kind == "event"]


@pytest.mark.parametrize(
    "q, op, words",
    [
        ("In the wake of Kuwait, who was the first to consult Japan?", "after", "In the wake of"),
        ("Who visited Iran in the aftermath of China's visit to Iran?", "after", "in the aftermath of"),
        ("Who praised Iran on the heels of Japan?", "after", "on the heels of"),
        ("Who visited Iran as soon as Japan did?", "after", "as soon as"),
        ("Once Japan had visited Iran, who was the first to visit Iran?", "after", "Once"),
        ("Who first visited Iran, once Japan visited Iran?", "after", "once"),
        ("By the time Japan met Iran, who had last met Iran?", "before", "By the time"),
        ("Who visited Iran in the run-up to Japan's visit to Iran?", "before", "in the run-up to"),
        ("Who visited Iran in the lead up to Japan's visit?", "before", "in the lead up to"),
    ],
)
def test_multiword_and_subordinator_order_cues(q, op, words):
    assert _events(q) == [(op, words)]


@pytest.mark.parametrize(
    "q",
    [
        "Who visited Iran once?",
        "Who visited Iran more than once?",
        "Who visited Iran only once in person?",
        "Who visited Iran once again?",
        "Who visited Iran once a year?",
        "Who met Japan at once?",
    ],
)
def test_once_as_a_count_is_not_a_cue(q):
    assert _events(q) == []


def test_multiword_cues_before_a_date_keep_their_direction():
    (c,) = parse_temporal_cues("Who visited Iran in the wake of 2008?")
    assert (c.kind, c.op, c.time) == ("time", "after", "2008")
    (c,) = parse_temporal_cues("Who visited Iran in the run-up to May 2010?")
    assert (c.kind, c.op, c.time) == ("time", "before", "2010-05")
    (c,) = parse_temporal_cues("Who visited Iran before 2008?")  # unchanged
    assert (c.kind, c.op, c.time) == ("time", "before", "2008")


@pytest.mark.parametrize(
    "text, end",
    [
        (" the moment Iran", len(" the moment")),
        (" the moment when Iran", len(" the moment when")),
        (" the point at which Iran", len(" the point at which")),
        (" the time that Iran", len(" the time that")),
        (" Iran", 0),
    ],
)
def test_point_in_time_nouns_introduce_an_event_clause(text, end):
    assert CUE_TIME_CLAUSE_RE.match(text, 0).end() == end
    assert EVENT_CLAUSE_GAP_RE.match(text).end() >= end


def test_signals_read_order_and_rank_through_the_new_cues():
    s = question_signals("Once Japan had visited Iran, who was the first to visit Iran?")
    assert (s.order, s.select) == ("after", "first")
    q = "Before the moment Japan met Iran, who was the last to meet Iran?"
    s = question_signals(q)
    assert (s.order, s.select) == ("before", "last")
    assert q[s.order_span[0] : s.order_span[1]] == "Before the moment"
    s = question_signals("By the time Japan met Iran, who had most recently met Iran?")
    assert (s.order, s.select) == ("before", "last")


# ------------------------------------------------------------------ the dev2 phrasing set


def test_gerund_rules():
    from tkgqa_ray.data.phrasings_dev2 import gerund

    cases = {"make": "making", "visit": "visiting", "plan": "planning", "be": "being", "see": "seeing",
             "open": "opening", "criticize": "criticizing", "meet": "meeting", "lie": "lying", "host": "hosting"}
    assert {v: gerund(v) for v in cases} == cases


def test_dev2_set_covers_every_variant_and_keeps_oracle_gold():
    from tkgqa_ray.data.generator import QTYPES, VARIANTS, generate
    from tkgqa_ray.data.phrasings_dev2 import TEMPLATES
    from tkgqa_ray.data.synth import SynthConfig, synth_rows
    from tkgqa_ray.kg import FactTable

    assert {t.variant for t in TEMPLATES} >= {v for q in QTYPES for v in VARIANTS[q]}
    table = FactTable.from_rows(synth_rows(SynthConfig(n_facts=4000, seed=5)))
    recs = generate(table, 240, seed=3, phrasing_set="dev2")
    assert Counter(r["qtype"] for r in recs) == Counter({q: 40 for q in QTYPES})
    assert all(r["phrasing_set"] == "dev2" and r["answers"] and "{" not in r["question"] for r in recs)
    train = generate(table, 240, seed=3, phrasing_set="train")
    by_spec = {str(r["spec"]): r["answers"] for r in train}
    same = [r for r in recs if str(r["spec"]) in by_spec]
    assert same and all(by_spec[str(r["spec"])] == r["answers"] for r in same)


# ------------------------------------------------------------------ clause structure

NAMES = ["Barack_Obama", "Japan", "Benjamin_Netanyahu", "Media_Personnel_(Niger)", "Madické_Niang"]


@pytest.fixture(scope="module")
def matcher():
    from tkgqa_ray.nlu import EntityMatcher

    return EntityMatcher(NAMES)


def _read(q, matcher):
    from tkgqa_ray.nlu import analyze

    a = analyze(q, matcher)
    refs = [([m.text for m in r.mentions], r.phrase) for r in a.refs]
    return [m.text for m in a.main.mentions], a.main.phrase, a.main.open_slot, refs


@pytest.mark.parametrize(
    "q",
    ["Who was the first after Barack Obama to visit Japan?", "Who was the last before Barack Obama to visit Japan?"],
)
def test_infinitive_after_a_bare_reference_belongs_to_the_main_clause(q, matcher):
    # "the first after X to visit Y" = the first to visit Y after X (X visited Y)
    assert _read(q, matcher) == (["Japan"], "visit", "subject", [(["Barack Obama"], "")])


def test_a_reference_clause_keeps_its_own_to_phrase(matcher):
    main, phrase, slot, refs = _read("Who visited Japan after Barack Obama's trip to Japan?", matcher)
    assert (main, phrase, refs) == (["Japan"], "visited", [(["Barack Obama", "Japan"], "trip to")])


@pytest.mark.parametrize(
    "q, cue, select",
    [
        ("Right after Barack Obama visited Japan, who visited Japan first?", "after", "first"),
        ("Who visited Japan shortly before Barack Obama did?", "before", None),
        ("Who visited Japan next after Barack Obama?", "after", "first"),
        ("Who was next to visit Japan after Barack Obama did?", "after", "first"),
        ("After Barack Obama, who else visited Japan first?", "after", "first"),
        ("Who visited Japan after Barack Obama did so?", "after", None),
    ],
)
def test_degree_adverbs_pro_forms_and_next_stay_out_of_the_relation(q, cue, select, matcher):
    main, phrase, slot, refs = _read(q, matcher)
    s = question_signals(q)
    assert (s.order, s.select) == (cue, select)
    assert main == ["Japan"] and phrase in ("visited", "visit") and slot == "subject"
    assert refs[0][0][0] == "Barack Obama" and refs[0][1] in ("", "visited")


def test_next_day_is_a_relative_time_not_a_rank():
    assert [c for c in parse_temporal_cues("Who visited Japan the next day after 2010-05-03?") if c.kind == "ordinal"] == []


def test_headless_rank_with_that_asks_for_the_object(matcher):
    # "who was the final (one) that X commented on" = the object of X's last comment
    q = "Before Media Personnel (Niger) issued a statement on Madické Niang, who was the final that Media Personnel (Niger) commented on?"
    main, phrase, slot, refs = _read(q, matcher)
    assert (main, slot) == (["Media Personnel (Niger)"], "object")
    main, phrase, slot, refs = _read("Who was the earliest that Barack Obama visited?", matcher)
    assert slot == "object"
    main, phrase, slot, refs = _read("Who was the earliest to visit Barack Obama?", matcher)
    assert slot == "subject"


def test_a_third_location_is_no_rank_and_stays_in_the_relation_phrase():
    from tkgqa_ray.nlu.lexicon import RelationLexicon
    from tkgqa_ray.nlu.relations import relation_phrase

    q = "Who did Barack Obama meet at a third location with last?"
    assert [(c.kind, c.text, c.k) for c in parse_temporal_cues(q)] == [("ordinal", "last", 1)]
    assert [c.k for c in parse_temporal_cues("When did Japan visit China for a second time?")] == [2]
    assert [c.k for c in parse_temporal_cues("Who was the third to visit China?")] == [3]
    phrase = relation_phrase("meet at a third location with", keep_particle=True)
    assert phrase == "meet at a third location with"
    assert relation_phrase("visited   third", keep_particle=True) == "visited"
    lex = RelationLexicon(["Consult", "Meet_at_a_'third'_location"])
    assert lex.match(phrase)[0].relation == "Meet_at_a_'third'_location"
