"""after_first / before_last read from English structure (issue #10, the nlu5 round), hand-written
paraphrases with hand-checked readings and answers on a tiny KG:

* "immediately / just / right / directly before|after X" names the event next to X, an ordinal
  (the last before, the first after) when the question has no other rank word;
* "the previous (one / time)" ranks descending like "the last";
* a subject pronoun in a main clause without names stands for the reference's doer
  ("After X's visit to Y, whom did they visit first?" asks the object of X's visits);
* a cue right after a ranked head ("the first after X that Z praised", "the first time after X
  criticised Y that Z ...") modifies the head; the head's "that"-clause is the asked event;
* the reference clause is no part of the main clause's word order when the asked slot is read;
* "when" directly before an auxiliary is the question word, with or without a comma before it;
* "X hosted / welcomed a visit by whom" is active (no form of "be"): it asks the object;
* "the previous" (also "X's previous visit") ranks descending;
* an anaphoric cue object ("X visited Y. Who ... after that?") refers to the preceding sentence;
* "The last party to visit X before Y was who?": a closing wh-word after a copula is the
  predicate of a ranked head before the name, which decides the asked role;
* "Which party from Syria ...": a place after the wh-phrase's actor noun restricts the answer
  and is no slot;
* the verbs of order "followed / preceded" are cues; "Who came first after X in V-ing Y?" takes
  its action from the reference;
* "Tell me the date X V Y ...", "the month of the earliest N ...": a definite time noun opening
  the embedded question asks a time.
"""

from __future__ import annotations

import pytest

from test_nlu_multi_event import parse  # (anchors, search) as [subject, object] names
from tkgqa_ray.methods.scop.method import SCoP
from tkgqa_ray.methods.scop.symbolic import constraint_parser
from tkgqa_ray.methods.scop.types import UNKNOWN
from tkgqa_ray.nlu.temporal import parse_temporal_cues

ROWS = [
    # visits to Kenya: India, then Chile, then Peru, then Spain
    ("India", "Make_a_visit", "Kenya", "2010-01-05"),
    ("Chile", "Make_a_visit", "Kenya", "2010-03-01"),
    ("Peru", "Make_a_visit", "Kenya", "2010-06-01"),
    ("Spain", "Make_a_visit", "Kenya", "2011-02-01"),
    ("Police_(Spain)", "Make_a_visit", "Kenya", "2010-09-01"),
    ("Police_(Brazil)", "Make_a_visit", "Kenya", "2010-12-01"),  # no entity "Brazil" in this KG
    # Japan's praise: Ghana, then Iran, then Mali, then Chad
    ("Japan", "Praise_or_endorse", "Ghana", "2012-01-01"),
    ("Japan", "Praise_or_endorse", "Iran", "2012-05-01"),
    ("Japan", "Praise_or_endorse", "Mali", "2012-09-01"),
    ("Japan", "Praise_or_endorse", "Chad", "2013-03-01"),
    # Egypt criticised Libya (the reference of a time question); Turkey's consultations of Qatar
    ("Egypt", "Criticize_or_denounce", "Libya", "2014-06-10"),
    ("Turkey", "Consult", "Qatar", "2014-01-01"),
    ("Turkey", "Consult", "Qatar", "2014-08-01"),
    ("Turkey", "Consult", "Qatar", "2015-02-01"),
    ("Norway", "Host_a_visit", "Kenya", "2010-02-01"),
    ("Norway", "Host_a_visit", "Chile", "2010-07-01"),
]



def answer(ctx, q):
    (row,) = SCoP(ctx)([{"quid": "1", "question": q}])
    return row["predictions"][:1]


def ranking(ctx, q):
    return constraint_parser({"question": q, "anchors": [], "search": None}, ctx)["ranking"]


@pytest.mark.parametrize("q, order", [
    ("Who visited Kenya immediately after Chile did?", "asc"),
    ("Just before Peru, who visited Kenya?", "desc"),
    ("Whom did Japan praise right after Iran?", "asc"),
    ("When did Turkey consult Qatar directly before Egypt criticised Libya?", "desc"),
])
def test_immediately_before_after_is_a_rank(ctx, q, order):
    assert ranking(ctx, q) == {"order": order, "k": 1}


def test_degree_adverbs_without_rank_and_explicit_ranks_win():
    kinds = lambda q: [(c.kind, c.order) for c in parse_temporal_cues(q) if c.kind == "ordinal"]
    assert kinds("Who visited Kenya shortly after Chile did?") == []  # "shortly": no rank
    assert kinds("Who visited Kenya long before Chile did?") == []
    assert kinds("Who visited Kenya 3 days after Chile did?") == []  # an offset is no rank
    # an explicit rank word decides; no second ordinal is added
    assert kinds("Who was the last to visit Kenya right after Chile?") == [("ordinal", "desc")]


@pytest.mark.parametrize("q, gold", [
    ("Who visited Kenya immediately after Chile did?", "Peru"),  # not Spain (also after Chile)
    ("Who visited Kenya just before Peru?", "Chile"),  # not India
    ("Right before Mali, whom did Japan praise?", "Iran"),
    ("Whom did Japan praise right after Iran?", "Mali"),
    ("When did Turkey consult Qatar immediately after Egypt criticised Libya?", "2014-08-01"),
])
def test_immediately_answers_the_neighbour(ctx, q, gold):
    assert answer(ctx, q) == [gold]


@pytest.mark.parametrize("q, order", [
    ("Before Peru, who was the previous one to visit Kenya?", "desc"),
    ("When was the previous time Turkey consulted Qatar before Egypt criticised Libya?", "desc"),
    ("Who is previous to Peru?", None),  # "previous to" is a before cue, no rank
])
def test_the_previous_ranks_descending(ctx, q, order):
    rk = ranking(ctx, q)
    assert (rk and rk["order"]) == order


@pytest.mark.parametrize("q, anchors, search", [
    # the pronoun is the reference's doer: Japan praised Iran; whom did Japan praise next?
    ("After Japan's praise of Iran, whom did they praise first?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    ("Prior to Japan's praise for Mali, who did it praise most recently?", [["Japan", "Mali"]], ["Japan", UNKNOWN]),
    ("After Japan praised Iran, who was the first one it praised?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    # an object pronoun / no pronoun: the same action on the reference's object, asking its doer
    ("After Chile visited Kenya, who was the first to visit it?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("Before Peru visited Kenya, who was the last to do so?", [["Peru", "Kenya"]], [UNKNOWN, "Kenya"]),
    # the cleft's dummy "it" is no pronoun of the reference
    ("After Chile visited Kenya, who was it that visited Kenya first?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
])
def test_pronoun_of_a_main_clause_without_names(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


@pytest.mark.parametrize("q, gold", [
    ("After Japan's praise of Iran, whom did they praise first?", "Mali"),
    ("Prior to Japan's praise of Mali, who did it praise most recently?", "Iran"),
    ("After Chile visited Kenya, who was the first to visit it?", "Peru"),
])
def test_pronoun_answers(ctx, q, gold):
    assert answer(ctx, q) == [gold]


@pytest.mark.parametrize("q, anchors, search", [
    # "the first after X that Z praised": Z praised the asked one, X is the elided reference object
    ("Who was the first after Iran that Japan praised?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    ("Who was the last, before Chad, that Japan praised?", [["Japan", "Chad"]], ["Japan", UNKNOWN]),
    # ... and the subject asked: "the first after Chile that visited Kenya"
    ("Who was the first after Chile that visited Kenya?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    # "the first time after <clause> that <main>": a time question with both events
    ("When was the first time after Egypt criticised Libya that Turkey consulted Qatar?",
     [["Turkey", "Qatar"], ["Egypt", "Libya"]], None),
    # the reference sits between the wh-phrase and the main clause's name
    ("Who, after Iran, did Japan praise first?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
])
def test_a_cue_after_a_ranked_head_modifies_it(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_ranked_head_answers(ctx):
    assert answer(ctx, "Who was the first after Iran that Japan praised?") == ["Mali"]
    assert answer(ctx, "When was the first time after Egypt criticised Libya that Turkey consulted Qatar?") == ["2014-08-01"]


def test_when_before_an_auxiliary_is_the_question_word(ctx):
    q = "after Egypt criticised Libya when did Turkey first consult Qatar"  # no comma, lower case
    assert parse(ctx, q) == ([["Turkey", "Qatar"], ["Egypt", "Libya"]], None)
    assert answer(ctx, q) == ["2014-08-01"]
    # a conjunction "when" (a subject follows) is still the same-day cue
    ops = [(c.kind, c.op) for c in parse_temporal_cues("Who visited Kenya when     criticised Libya?")]
    assert ("event", "equal") in ops


@pytest.mark.parametrize("q, anchors, search", [
    # the anaphor of the cue ("after that", "earlier than it") is the preceding sentence's event
    ("Japan praised Iran. Whom did Japan praise first after that?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    ("Japan praised Iran. Whom did they praise next following that?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
    ("Chile visited Kenya. Who was the latest to do so earlier than it?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("Egypt criticised Libya. When did Turkey consult Qatar for the last time before that?",
     [["Turkey", "Qatar"], ["Egypt", "Libya"]], None),
])
def test_an_anaphoric_cue_refers_to_the_preceding_sentence(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_anaphoric_reference_answers(ctx):
    assert answer(ctx, "Japan praised Iran. Whom did Japan praise first after that?") == ["Mali"]
    assert answer(ctx, "Peru visited Kenya. Who was the latest to do so earlier than it?") == ["Chile"]


@pytest.mark.parametrize("q, anchors, search", [
    ("The very last party to visit Kenya prior to Peru was who?", [["Peru", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("Before Peru, the most recent to visit Kenya was which country?", [["Peru", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("The last country Japan praised before Chad: which was it?", [["Japan", "Chad"]], ["Japan", UNKNOWN]),
    # a wh-word in situ after a verb still asks the object
    ("After Iran, Japan praised who first?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
])
def test_a_closing_wh_after_a_copula_is_the_predicate_of_a_ranked_head(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_a_place_after_the_wh_actor_noun_is_no_slot(ctx):
    assert parse(ctx, "Which party from Chile visited Kenya first after India?") == ([["India", "Kenya"]], [UNKNOWN, "Kenya"])
    assert parse(ctx, "List the last parties from Chile to visit Kenya before Peru.") == ([["Peru", "Kenya"]], [UNKNOWN, "Kenya"])
    assert parse(ctx, "What was the first party from Chile Japan praised after Iran?") == ([["Japan", "Iran"]], ["Japan", UNKNOWN])
    # without an actor noun the place is a name of the event ("Who from ..." is not handled as scope)
    assert parse(ctx, "Which party visited Kenya after India?") == ([["India", "Kenya"]], [UNKNOWN, "Kenya"])


@pytest.mark.parametrize("q, anchors, search, order", [
    ("Who directly followed Chile in visiting Kenya?", [["Chile", "Kenya"]], [UNKNOWN, "visiting", "Kenya"], "asc"),
    ("Who immediately preceded Peru in visiting Kenya?", [["Peru", "Kenya"]], [UNKNOWN, "visiting", "Kenya"], "desc"),
    ("Who came soonest following Chile in visiting Kenya?", [["Chile", "Kenya"]], [UNKNOWN, "visiting", "Kenya"], "asc"),
])
def test_verbs_of_order_and_a_light_main_verb(ctx, q, anchors, search, order):
    from tkgqa_ray.methods.scop.symbolic import event_parser

    out = event_parser({"question": q}, ctx)
    assert [[t[0], t[2]] for t in out["anchors"]] == anchors and out["search"] == search
    assert ranking(ctx, q)["order"] == order


def test_followed_by_is_no_cue():
    assert [c for c in parse_temporal_cues("Chile visited Kenya, followed by     .") if c.kind == "event"] == []


@pytest.mark.parametrize("q, level", [
    ("Tell me the date Turkey consulted Qatar for the first time after Egypt criticised Libya.", "day"),
    ("I want to know the month of the earliest consultation with Qatar by Turkey after Egypt criticised Libya.", "month"),
    ("Could you tell me the year Japan praised Mali?", "year"),
])
def test_a_definite_time_noun_opening_the_question_asks_a_time(q, level):
    from tkgqa_ray.nlu.temporal import infer_answer_type, infer_time_level

    assert infer_answer_type(q) == "time" and infer_time_level(q) == level


def test_a_time_noun_before_a_cue_is_no_time_question():
    from tkgqa_ray.nlu.temporal import infer_answer_type

    assert infer_answer_type("The day after Chile visited Kenya, who visited Kenya?") == "entity"
    assert infer_answer_type("The year 2010 saw whom visit Kenya?") == "entity"


def test_time_answer_of_a_contact_clause(ctx):
    assert answer(ctx, "Tell me the date Turkey consulted Qatar for the first time after Egypt criticised Libya.") == ["2014-08-01"]


@pytest.mark.parametrize("q, anchors, search, order", [
    # a discourse adverb opening the second sentence points back to the first one's event
    ("Chile visited Kenya. Subsequently, who was the first to do the same?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"], "asc"),
    ("Peru visited Kenya. Earlier on, who was the latest to do the same?", [["Peru", "Kenya"]], [UNKNOWN, "Kenya"], "desc"),
    ("Japan praised Iran. Afterwards, whom did Japan first praise?", [["Japan", "Iran"]], ["Japan", UNKNOWN], "asc"),
    ("Japan praised Mali. Beforehand, whom did it last praise?", [["Japan", "Mali"]], ["Japan", UNKNOWN], "desc"),
])
def test_a_discourse_adverb_refers_to_the_preceding_sentence(ctx, q, anchors, search, order):
    assert parse(ctx, q) == (anchors, search)
    assert ranking(ctx, q)["order"] == order


def test_discourse_adverb_answers_and_non_cues(ctx):
    assert answer(ctx, "Chile visited Kenya. Subsequently, who was the first to do the same?") == ["Peru"]
    assert answer(ctx, "Egypt criticised Libya. Later, in which month did Turkey first consult Qatar?") == ["2014-08"]
    # only after a sentence: a question opening with "Later" has nothing to point back to
    assert [c for c in parse_temporal_cues("Later, who visited Kenya?") if c.kind == "event"] == []
    # "later than" stays the comparative cue
    assert [c.op for c in parse_temporal_cues("Who visited Kenya later than     ?") if c.kind == "event"] == ["after"]


@pytest.mark.parametrize("q, anchors, search", [
    ("What was the most recent nation Japan praised prior to Chad?", [["Japan", "Chad"]], ["Japan", UNKNOWN]),
    ("List the very last parties Japan praised ahead of Japan's praise of Chad.", [["Japan", "Chad"]], ["Japan", UNKNOWN]),
])
def test_longer_ranked_wh_heads(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_intent_frames_with_reporting_verbs_and_nominal_readings(ctx):
    from tkgqa_ray.nlu.lexicon import RelationLexicon

    rels = ["Express_intent_to_meet_or_negotiate", "Consult", "Make_statement", "Engage_in_negotiation", "Host_a_visit",
            "Make_a_visit", "Make_an_appeal_or_request", "Express_accord", "Discuss_by_telephone"]
    lex = RelationLexicon.for_relations(rels)
    best = lambda p: lex.match(p)[0].relation
    # a reporting verb + willingness / readiness / intention frames the intent, not the act
    assert best("announced a willingness to meet with") == "Express_intent_to_meet_or_negotiate"
    assert best("stated readiness to negotiate with") == "Express_intent_to_meet_or_negotiate"
    assert best("voiced willingness to hold talks with") == "Express_intent_to_meet_or_negotiate"
    assert best("reception of") == "Host_a_visit"
    assert best("welcomed a visit by") == "Host_a_visit"
    assert best("plea to") == "Make_an_appeal_or_request"
    assert best("voiced agreement with") == "Express_accord"
    assert best("held phone talks with") == "Discuss_by_telephone"
    assert best("expressed readiness for talks with") == "Express_intent_to_meet_or_negotiate"
    assert best("held talks with") == "Consult"  # the act itself is unchanged


def test_an_answer_scope_ranks_among_its_place_only(ctx):
    # after Chile (2010-03): Peru (2010-06), the Spanish police (2010-09), Spain (2011-02)
    assert answer(ctx, "Who was the first to visit Kenya after Chile?") == ["Peru"]
    assert answer(ctx, "Which party from Spain was the first to visit Kenya after Chile?") == ["Police (Spain)"]
    # a place that is no entity of the KG (MultiTQ has Police_(Syria) but no Syria)
    assert parse(ctx, "Which party from Brazil was the first to visit Kenya after Chile?") == ([["Chile", "Kenya"]], [UNKNOWN, "Kenya"])
    assert answer(ctx, "What was the first party from Brazil to visit Kenya after Chile?") == ["Police (Brazil)"]
    # a scope no admissible fact fits is ignored rather than emptying the evidence
    assert answer(ctx, "Which party from Japan was the first to visit Kenya after Chile?") == ["Peru"]


@pytest.mark.parametrize("q, search", [
    ("Norway hosted a visit by whom first after Kenya?", ["Norway", UNKNOWN]),  # active: the guest is asked
    ("In 2010, Norway welcomed a visit by which side?", ["Norway", UNKNOWN]),
    ("Kenya was visited by whom after India?", [UNKNOWN, "Kenya"]),  # passive: the agent
    ("After India, Kenya got visited first by whom?", [UNKNOWN, "Kenya"]),
])
def test_by_whom_needs_a_passive(ctx, q, search):
    assert parse(ctx, q)[1] == search


def test_welcomed_a_visit_by_whom_answers_the_guest(ctx):
    assert answer(ctx, "In July 2010, Norway welcomed a visit by which side?") == ["Chile"]


@pytest.mark.parametrize("q, anchors, search", [
    # a demonym adjective before the wh-phrase's actor noun is an answer scope, not a name
    ("Which Spanish actor was the first to visit Kenya after Chile?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("Which Spanish organisation visited Kenya first after Chile?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    # a fronted "Of all the <adj> actors ..." head: its relative clause decides the asked role
    ("Of all the Spanish actors that visited Kenya after Chile, which came first?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"]),
    ("Of all the Malian actors Japan praised after Iran, which came first?", [["Japan", "Iran"]], ["Japan", UNKNOWN]),
])
def test_a_demonym_before_the_asked_actor_noun_is_a_scope(ctx, q, anchors, search):
    assert parse(ctx, q) == (anchors, search)


def test_demonym_scope_answers(ctx):
    assert answer(ctx, "Which Spanish actor was the first to visit Kenya after Chile?") == ["Police (Spain)"]
    assert answer(ctx, "Which Brazilian actor was the first to visit Kenya after Chile?") == ["Police (Brazil)"]


@pytest.mark.parametrize("q, anchors, search, order", [
    # ... or closing the question sentence
    ("Chile visited Kenya. Who was the first to do the same afterwards?", [["Chile", "Kenya"]], [UNKNOWN, "Kenya"], "asc"),
    ("Japan praised Mali. Whom did it praise most recently beforehand?", [["Japan", "Mali"]], ["Japan", UNKNOWN], "desc"),
])
def test_a_closing_discourse_adverb_refers_to_the_preceding_sentence(ctx, q, anchors, search, order):
    assert parse(ctx, q) == (anchors, search)
    assert ranking(ctx, q)["order"] == order


def test_a_closing_adverb_of_a_single_sentence_is_no_cue():
    assert [c for c in parse_temporal_cues("Who visited Kenya first and who visited it later?") if c.kind == "event"] == []
