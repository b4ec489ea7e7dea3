"""Understanding fixes from the ``dev`` phrasing set's misses (issue #10), the relaxed-reading
marker, the shared patterns of #13, and the ``dev`` set itself (oracle gold, every variant).

Expectations are hand-checked from CAMEO semantics (an intent to meet is not a meeting; an
accusation of crime is more specific than an accusation) and English word order."""

from __future__ import annotations

from collections import Counter

import pytest

from tkgqa_ray.nlu import (
    CUE_TIME_CLAUSE_RE,
    EVENT_CLAUSE_GAP_RE,
    EntityMatcher,
    analyze,
    name_pattern,
    name_spans,
)
from tkgqa_ray.nlu.lexicon import RelationLexicon, nominal_action
from tkgqa_ray.nlu.signals import question_signals

RELS = [
    "Make_statement", "Consult", "Express_intent_to_meet_or_negotiate", "Engage_in_negotiation",
    "Criticize_or_denounce", "Accuse", "Accuse_of_crime,_corruption", "Accuse_of_human_rights_abuses",
    "Use_conventional_military_force", "Physically_assault", "Kill_by_physical_assault",
    "Provide_economic_aid", "Express_intent_to_provide_economic_aid", "Express_intent_to_cooperate",
    "Engage_in_diplomatic_cooperation", "Appeal_for_economic_aid", "Make_an_appeal_or_request",
    "Meet_at_a_'third'_location", "Torture", "Make_pessimistic_comment", "Sign_formal_agreement",
    "Express_accord", "Reduce_relations", "Yield", "fight_with_small_arms_and_light_weapons",
    "Employ_aerial_weapons",
]


@pytest.fixture(scope="module")
def lex():
    return RelationLexicon(RELS)


@pytest.mark.parametrize(
    "phrase,relation",
    [
        # seeking / proposing a meeting is an intent to meet, not the meeting (CAMEO 036 vs 040)
        ("sought talks with", "Express_intent_to_meet_or_negotiate"),
        ("proposed a meeting with", "Express_intent_to_meet_or_negotiate"),
        ("seek negotiations with", "Express_intent_to_meet_or_negotiate"),
        ("sought cooperation with", "Express_intent_to_cooperate"),
        # a pledge of a thing is an intent to provide it ("{n}" frames take the noun)
        ("pledged economic aid to", "Express_intent_to_provide_economic_aid"),
        ("promised economic aid to", "Express_intent_to_provide_economic_aid"),
        ("gave economic aid to", "Provide_economic_aid"),
        ("blasted", "Criticize_or_denounce"),
        ("launched a military assault on", "Use_conventional_military_force"),
        ("made criminal accusations against", "Accuse_of_crime,_corruption"),
        ("levelled corruption allegations against", "Accuse_of_crime,_corruption"),
        ("made accusations against", "Accuse"),
        ("accused of rights abuses", "Accuse_of_human_rights_abuses"),
        ("voiced doubts about", "Make_pessimistic_comment"),
        ("concluded an accord with", "Sign_formal_agreement"),
        ("agreed with", "Express_accord"),
        ("scaled back ties with", "Reduce_relations"),
        ("exchanged gunfire with", "fight_with_small_arms_and_light_weapons"),
        ("launched air raids on", "Employ_aerial_weapons"),
    ],
)
def test_paraphrases_from_the_dev_round(lex, phrase, relation):
    assert lex.match(phrase)[0].relation == relation, lex.match(phrase)[:3]


def test_short_e_verbs_stem_like_their_base():
    from tkgqa_ray.nlu.lexicon import stem

    assert {stem(w) for w in ("sue", "sued", "sues", "suing")} == {"sue"}
    assert {stem(w) for w in ("need", "needs", "needed")} == {"need"}  # -eed is a base
    assert {stem(w) for w in ("die", "died", "dies")} == {"die"}


def test_news_verbs_of_the_sweep():
    lex = RelationLexicon(RELS + ["Bring_lawsuit_against", "Impose_blockade,_restrict_movement", "Investigate"])
    assert lex.match("sued")[0].relation == "Bring_lawsuit_against"
    assert lex.match("wounded")[0].relation == "Physically_assault"
    assert lex.match("besieged")[0].relation == "Impose_blockade,_restrict_movement"
    assert lex.match("interrogated")[0].relation == "Investigate"
    assert lex.match("begged")[0].relation == "Make_an_appeal_or_request"


def test_plain_meeting_words_stay_consult(lex):
    assert lex.match("held talks with")[0].relation == "Consult"
    assert lex.match("met with")[0].relation == "Consult"


def test_nominal_action_drops_only_a_support_verb():
    assert nominal_action("provide economic aid") == "economic aid"
    assert nominal_action("engage in material cooperation") == "material cooperation"
    assert nominal_action("meet") is None  # "a meeting" matches "meet" by stem already
    assert nominal_action("negotiate with") is None


NAMES = ["Police_(Kenya)", "China", "Japan", "Al-Shabaab", "Businessperson_(Italy)", "Business_(Italy)", "Iran",
         "Japan_Times"]
M = EntityMatcher(NAMES)


@pytest.mark.parametrize(
    "q,slot,phrase",
    [
        ("Name the one Kenyan police charged in 2014.", "object", "charged"),  # embedded order
        ("Name the first one to visit China.", "subject", "visit"),
        ("Name the country that China visited after Japan did.", "object", "visited"),
        ("Identify the party that visited China in 2014.", "subject", "visited"),
        ("Who did China visit in 2014?", "object", "visit"),
        # copula + noun phrase: what follows "one (that)" decides the role
        ("Who was the latest one that China visited before Japan?", "object", "visited"),
        ("Who was the final one China welcomed?", "object", "welcomed"),
        ("Who was the first one to visit China?", "subject", "visit"),
        ("Which was the final country to visit China?", "subject", "visit"),
        ("Who was it that China visited in 2014?", "object", "visited"),
        # an article starting the name outside the mention is still embedded order
        ("Who was the last one the Japan Times praised?", "object", "praised"),
        ("Who was the first one that the Japan Times praised?", "object", "praised"),
        ("Who was the first one that praised the Japan Times?", "subject", "praised"),
        # passive with a stranded "by": the wh asks the agent (subject); "by X" names it
        ("Who was Iran criticised by in 2010?", "subject", "criticised by"),
        ("Who was the last one Iran was visited by?", "subject", "visited by"),
        ("Who was criticised by Iran in 2010?", "object", "criticised by"),
        ("Whom did Iran host a visit by for the first time?", "object", "host a visit by"),  # active
        # a preposition before the wh-word stays with the verb
        ("Iran called on whom in 2010?", "object", "called on"),
    ],
)
def test_imperative_wh_phrase_decides_the_open_slot(q, slot, phrase):
    a = analyze(q, M)
    assert a.answer_type == "entity"
    assert a.main.open_slot == slot
    assert a.main.phrase == phrase


def test_when_after_a_cue_is_a_conjunction_even_with_the_name_blanked():
    q = "14 days following the time when China was upbeat about Iran, whom did Japan express willingness to meet?"
    a = analyze(q, M)
    assert a.answer_type == "entity" and a.main.open_slot == "object"
    assert a.main.phrase == "express willingness to meet"
    assert analyze("When did China visit Japan?", M).answer_type == "time"
    assert analyze("Earlier than when China visited Iran, when did Japan visit Iran?", M).answer_type == "time"


def test_when_after_a_fronted_clause_asks_the_time():
    q = "Prior to when China visited Iran, when did Japan most recently visit Iran?"
    a = analyze(q, M)
    assert a.answer_type == "time"
    assert [(c.text, c.op) for c in a.cues if c.kind == "event"] == [("Prior to", "before")]
    assert [[m.text for m in r.mentions] for r in a.refs] == [["China", "Iran"]]
    # "when" joining two clauses is still the same-day cue
    a = analyze("Who visited China when Iran visited Japan?", M)
    assert [(c.text, c.op) for c in a.cues] == [("when", "equal")]


def test_department_of_education_reads_the_education_sector():
    m = EntityMatcher(["Education_(United_States)", "Education_Ministry_(United_Kingdom)", "Education_(United_Kingdom)"])
    (got,) = m.match("Who did the American Department of Education praise?")
    assert got.names == ("Education_(United_States)",)
    (got,) = m.match("Who did the UK Department of Education praise?")
    assert got.names == ("Education_Ministry_(United_Kingdom)", "Education_(United_Kingdom)")  # best first


def test_business_people_is_the_businessperson_sector():
    a = analyze("Who did the business people of Italy praise in 2010?", M)
    assert [m.names[0] for m in a.mentions] == ["Businessperson_(Italy)"]
    a = analyze("Who praised Italian business people in 2010?", M)
    assert [m.names[0] for m in a.mentions] == ["Businessperson_(Italy)"]


def test_relaxed_reason_marks_questions_without_a_strict_reading():
    assert analyze("Who visited China in 2014?", M).relaxed_reason is None
    a = analyze("Who visited Atlantis in 2014?", M)  # no KG name at all
    assert a.relaxed and a.relaxed_reason == "no entity mention for the asked event"
    t = analyze("When did China visit Atlantis?", M)  # a time question with one name
    assert t.answer_type == "time" and t.relaxed
    assert "two entity mentions" in t.relaxed_reason and "found 1" in t.relaxed_reason
    assert not analyze("When did China visit Japan?", M).relaxed


def test_name_pattern_is_a_whole_name_case_insensitively():
    assert name_spans("Iranian officials met IRAN and iran.", "Iran") == [(22, 26), (31, 35)]
    assert name_pattern("U.S.").search("the u.s. said") is not None
    assert name_pattern("Iran") is name_pattern("Iran")  # cached, one compiled pattern


@pytest.mark.parametrize(
    "gap,ok",
    [(" the time that the ", True), (", as ", True), (" when ", True), (" in which the ", True),
     (" the time ", True), ("the time when ", True), (" ", True), (" during ", False)],
)
def test_event_clause_gap(gap, ok):
    assert (EVENT_CLAUSE_GAP_RE.fullmatch(gap) is not None) is ok


def test_cue_time_clause_extends_the_order_span():
    assert CUE_TIME_CLAUSE_RE.match(" the time that Iran", 0).end() == len(" the time that")
    q = "Who visited Japan after the time that China visited Japan?"
    s = question_signals(q)
    assert q[s.order_span[0] : s.order_span[1]] == "after the time that"


# ------------------------------------------------------------------ the dev phrasing set


@pytest.fixture(scope="module")
def dev_records():
    from tkgqa_ray.data.generator import generate
    from tkgqa_ray.data.synth import SynthConfig, synth_rows
    from tkgqa_ray.kg import FactTable

    table = FactTable.from_rows(synth_rows(SynthConfig(n_facts=4000, seed=5)))
    return table, generate(table, 240, seed=3, phrasing_set="dev")


def test_dev_set_covers_every_variant_and_keeps_oracle_gold(dev_records):
    from tkgqa_ray.data.generator import QTYPES, VARIANTS, generate
    from tkgqa_ray.data.phrasings_dev import TEMPLATES

    assert {t.variant for t in TEMPLATES} >= {v for q in QTYPES for v in VARIANTS[q]}
    table, recs = dev_records
    assert Counter(r["qtype"] for r in recs) == Counter({q: 40 for q in QTYPES})
    assert all(r["phrasing_set"] == "dev" and r["answers"] and "{" not in r["question"] for r in recs)
    train = generate(table, 240, seed=3, phrasing_set="train")
    by_spec = {str(r["spec"]): r["answers"] for r in train}
    same = [r for r in recs if str(r["spec"]) in by_spec]
    assert same and all(by_spec[str(r["spec"])] == r["answers"] for r in same)


def test_dev_entity_surface_writes_actors_as_people_do():
    from tkgqa_ray.data.phrasings_dev import entity_surface, relation_surface

    seen = {entity_surface("Police (Kenya)", lambda s, i=i: s[i % len(s)]) for i in range(12)}
    assert "the Kenyan police" in seen and "Police (Kenya)" in seen
    assert entity_surface("Barack Obama", lambda s: s[0]) == "Barack Obama"
    p = relation_surface("Host_a_visit", lambda s: s[1])
    assert (p.base, p.past) == ("receive a visit from", "received a visit from")
    assert relation_surface("Not_a_relation", lambda s: s[0]) is None
