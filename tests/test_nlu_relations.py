"""Relation lexicon: paraphrases people write ground to the intended CAMEO relation, with
direction; the lexicon combines with the embedding ranking and leaves unknown KGs to it.
Expectations are hand-checked against CAMEO's definitions of the event types."""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.nlu.lexicon import RelationLexicon, name_actions, stem
from tkgqa_ray.nlu.relations import combine, ground_relation

RELS = [
    "Make_statement", "Consult", "Express_intent_to_meet_or_negotiate", "Make_an_appeal_or_request",
    "Make_a_visit", "Host_a_visit", "Arrest,_detain,_or_charge_with_legal_action", "Praise_or_endorse",
    "Criticize_or_denounce", "Accuse", "Engage_in_negotiation", "Sign_formal_agreement",
    "Express_intent_to_cooperate", "Engage_in_diplomatic_cooperation", "Reject",
    "Make_optimistic_comment", "Discuss_by_telephone", "Threaten", "Provide_economic_aid",
    "Express_intent_to_provide_economic_aid", "Accuse_of_crime,_corruption", "Appeal_for_humanitarian_aid",
    "Impose_embargo,_boycott,_or_sanctions", "Meet_at_a_'third'_location", "Demand",
]


@pytest.fixture(scope="module")
def lex():
    return RelationLexicon(RELS)


@pytest.mark.parametrize(
    "phrase,relation,swap",
    [
        ("wanted to negotiate with", "Express_intent_to_meet_or_negotiate", False),
        ("wished to negotiate with", "Express_intent_to_meet_or_negotiate", False),
        ("hoped to meet", "Express_intent_to_meet_or_negotiate", False),
        ("intended to hold talks with", "Express_intent_to_meet_or_negotiate", False),
        ("was willing to meet with", "Express_intent_to_meet_or_negotiate", False),
        ("expressed intent to negotiate with", "Express_intent_to_meet_or_negotiate", False),
        ("negotiated with", "Engage_in_negotiation", False),
        ("condemned", "Criticize_or_denounce", False),
        ("denounced", "Criticize_or_denounce", False),
        ("criticised", "Criticize_or_denounce", False),
        ("blamed", "Criticize_or_denounce", False),
        ("accused", "Accuse", False),
        ("accused of corruption", "Accuse_of_crime,_corruption", False),
        ("asked", "Make_an_appeal_or_request", False),
        ("requested", "Make_an_appeal_or_request", False),
        ("called on", "Make_an_appeal_or_request", False),
        ("urged", "Make_an_appeal_or_request", False),
        ("praised", "Praise_or_endorse", False),
        ("hailed", "Praise_or_endorse", False),
        ("lauded", "Praise_or_endorse", False),
        ("optimistic about", "Make_optimistic_comment", False),
        ("promised to cooperate with", "Express_intent_to_cooperate", False),
        ("offered to provide economic aid to", "Express_intent_to_provide_economic_aid", False),
        ("gave economic aid to", "Provide_economic_aid", False),
        ("received a visit from", "Host_a_visit", False),
        ("paid a visit to", "Make_a_visit", False),
        ("officially visited", "Make_a_visit", False),
        ("met with", "Consult", False),
        ("talked about", "Make_statement", False),
        ("phoned", "Discuss_by_telephone", False),
        ("imposed sanctions on", "Impose_embargo,_boycott,_or_sanctions", False),
        ("signed a deal with", "Sign_formal_agreement", False),
        ("appealed for humanitarian aid to", "Appeal_for_humanitarian_aid", False),
    ],
)
def test_paraphrase_grounds_to_the_relation(lex, phrase, relation, swap):
    best = lex.match(phrase)[0]
    assert (best.relation, best.swap) == (relation, swap), lex.match(phrase)[:3]


def test_visit_and_host_with_direction(lex):
    # "X received a visit from Y" = Host_a_visit(X, Y) = Make_a_visit(Y, X)
    hits = {(h.relation, h.swap) for h in lex.match("received a visit from")}
    assert ("Host_a_visit", False) in hits and ("Make_a_visit", True) in hits
    # "X visited Y" = Make_a_visit(X, Y) = Host_a_visit(Y, X); the direct reading ranks first
    hits = lex.match("visited")
    assert (hits[0].relation, hits[0].swap) == ("Make_a_visit", False)
    assert ("Host_a_visit", True) in {(h.relation, h.swap) for h in hits}


def test_intent_beats_plain_action_and_prepositions_decide_the_sense(lex):
    hits = {h.relation: h.score for h in lex.match("wanted to negotiate with")}
    assert hits["Express_intent_to_meet_or_negotiate"] > hits["Engage_in_negotiation"]
    assert lex.match("talked with")[0].relation == "Consult"
    assert lex.match("talked about")[0].relation == "Make_statement"
    assert lex.match("called on")[0].relation == "Make_an_appeal_or_request"
    assert lex.match("called")[0].relation == "Discuss_by_telephone"
    # a trailing preposition is optional (a question may end before it)
    assert lex.match("paid a visit")[0].relation == "Make_a_visit"


def test_name_actions_split_alternatives_and_distribute_heads():
    assert name_actions("Arrest,_detain,_or_charge_with_legal_action") == ["arrest", "detain", "charge with legal action"]
    assert name_actions("Impose_embargo,_boycott,_or_sanctions") == ["impose embargo", "impose boycott", "impose sanctions"]
    assert name_actions("Reduce_or_stop_economic_assistance") == ["reduce economic assistance", "stop economic assistance"]
    assert name_actions("Criticize_or_denounce") == ["criticize", "denounce"]


def test_stem_is_consistent_across_inflections():
    for forms in (("visit", "visited", "visits", "visiting"), ("plan", "planned", "planning", "plans"),
                  ("criticize", "criticised", "criticizes"), ("try", "tried", "tries"), ("make", "made", "makes"),
                  ("negotiate", "negotiated", "negotiation")):
        assert len({stem(f) for f in forms}) == 1, forms


def test_every_relation_of_the_real_kg_has_patterns(real_kg_table):
    rels = sorted(real_kg_table.relations)  # the file's relation column (test_kg_loader checks the table against csv)
    assert len(rels) == 251
    lex = RelationLexicon(rels)
    have = {p.relation for p in lex.patterns}
    assert have == set(rels)
    for r in rels:  # its own name reads back as itself (display form)
        assert r in {h.relation for h in lex.match(r.replace("_", " "))}, r


def test_combine_ranks_lexicon_hits_above_embedding_neighbours():
    # the embedding prefers Engage_in_negotiation; the lexicon knows "wanted to" is intent
    ids = [RELS.index("Engage_in_negotiation"), RELS.index("Express_intent_to_meet_or_negotiate"), RELS.index("Reject")]
    out = combine("wanted to negotiate with", ids, [0.8, 0.55, 0.3], RELS)
    assert out[0].name == "Express_intent_to_meet_or_negotiate" and out[0].source == "lexicon"
    assert out[0].score == pytest.approx(0.9 * 1.0 + 0.1 * 0.55)
    assert {c.name for c in out} >= {"Engage_in_negotiation", "Reject"}  # neighbours stay candidates
    # a swap reading is its own candidate
    out = combine("received a visit from", [], [], RELS)
    assert [(c.name, c.swap) for c in out[:2]] == [("Host_a_visit", False), ("Make_a_visit", True)]


class _ActorLikeClient:
    """Stands in for the Ray embedding client: search only, no ``table`` attribute."""

    def __init__(self, n):
        self.n = n
        self.calls = 0

    def search(self, index, queries, k):
        self.calls += 1
        ids = np.arange(min(k, self.n))[None, :]
        return np.linspace(0.9, 0.1, ids.shape[1])[None, :], ids


def test_ground_relation_through_an_actor_like_client_and_unknown_kgs():
    client = _ActorLikeClient(len(RELS))
    out = ground_relation("condemned", client, 3, relations=RELS)
    assert out[0].name == "Criticize_or_denounce"
    ground_relation("condemned", client, 3, relations=RELS)
    assert client.calls == 1  # cached per phrase
    # other KGs: relation names the lexicon does not know -> the embedding ranking as is
    other = ["Plays_for", "Coaches", "Born_in"]
    out = ground_relation("condemned", _ActorLikeClient(3), 3, relations=other)
    assert [c.name for c in out] == other and all(c.source == "embedding" for c in out)
    # no names at all (client without a table, none passed): ids only, embedding order
    out = ground_relation("condemned", _ActorLikeClient(3), 2)
    assert [c.id for c in out] == [0, 1]


# ------------------------------------------------------------------ dev3 round (#10)

RELS3 = RELS + [
    "fight_with_small_arms_and_light_weapons", "Provide_military_aid", "Provide_aid", "Provide_humanitarian_aid",
    "Express_intent_to_provide_humanitarian_aid", "Cooperate_economically", "Halt_negotiations",
    "Complain_officially", "Reject_proposal_to_meet,_discuss,_or_negotiate", "Make_empathetic_comment",
    "Express_intent_to_yield", "Use_unconventional_violence", "Express_intent_to_cooperate_economically",
    "Investigate", "Investigate_crime,_corruption", "Mediate", "Defend_verbally",
]


@pytest.fixture(scope="module")
def lex3():
    return RelationLexicon(RELS3)


@pytest.mark.parametrize(
    "phrase,relation,swap",
    [
        # nominalisations read as their verbs ("the condemnation of X by Y", "X's accusations against Y")
        ("condemnation of", "Criticize_or_denounce", False),
        ("criticism of", "Criticize_or_denounce", False),
        ("accusations against", "Accuse", False),
        ("endorsement of", "Praise_or_endorse", False),
        ("detention of", "Arrest,_detain,_or_charge_with_legal_action", False),
        ("consultations with", "Consult", False),
        ("threats against", "Threaten", False),
        # the noun of a support-verb pattern ("make a statement about" -> "statement about")
        ("statement about", "Make_statement", False),
        ("trip to", "Make_a_visit", False),
        ("humanitarian aid to", "Provide_humanitarian_aid", False),
        ("official complaint to", "Complain_officially", False),
        # the object before the noun ("investigate corruption" -> "a corruption investigation")
        ("corruption investigation into", "Investigate_crime,_corruption", False),
        ("investigation into", "Investigate", False),
        ("acted as a mediator for", "Mediate", False),
        ("spoke in defence of", "Defend_verbally", False),
        # verb + manner adverb as adjective + noun
        ("economic cooperation with", "Cooperate_economically", False),
        ("offered economic cooperation to", "Express_intent_to_cooperate_economically", False),
        # the Provide_ family: provide / give / send / deliver + what is provided
        ("sent economic aid to", "Provide_economic_aid", False),
        ("sent military aid to", "Provide_military_aid", False),
        # CAMEO "offer" = express intent; "signal willingness to" is an intent frame
        ("offered humanitarian aid", "Express_intent_to_provide_humanitarian_aid", False),
        ("signalled willingness to negotiate with", "Express_intent_to_meet_or_negotiate", False),
        ("spoke highly of", "Praise_or_endorse", False),
        ("exchanged small arms fire with", "fight_with_small_arms_and_light_weapons", False),
        ("turned down an offer of talks with", "Reject_proposal_to_meet,_discuss,_or_negotiate", False),
        ("offered sympathy to", "Make_empathetic_comment", False),
        # role nouns: "from" names the doer (swap); "by" is left to the passive analysis
        ("target of an offer to meet or negotiate from", "Express_intent_to_meet_or_negotiate", True),
        ("target of small arms fire from", "fight_with_small_arms_and_light_weapons", True),
        ("recipient of an official complaint from", "Complain_officially", True),
        ("target of a demand by", "Demand", False),
        ("counterpart in negotiations halted by", "Halt_negotiations", False),
    ],
)
def test_dev3_round_paraphrases(lex3, phrase, relation, swap):
    best = lex3.match(phrase)[0]
    assert (best.relation, best.swap) == (relation, swap), lex3.match(phrase)[:3]


def test_nominal_stems_equal_their_verbs():
    for noun, verb in [("condemnation", "condemned"), ("accusations", "accuse"), ("detention", "detained"),
                       ("threats", "threaten"), ("lawsuit", "sued"), ("defence", "defended")]:
        assert stem(noun) == stem(verb), (noun, verb)


def test_a_relation_read_swapped_by_the_lexicon_has_no_direct_embedding_twin():
    # the embedding ranks Express_intent_to_meet_or_negotiate first, but cannot tell direction;
    # "the target of an offer ... from Y" reads it swapped only
    ids = [RELS.index("Express_intent_to_meet_or_negotiate"), RELS.index("Consult")]
    out = combine("target of an offer to meet or negotiate from", ids, [0.8, 0.5], RELS)
    got = [(c.name, c.swap) for c in out]
    assert got[0] == ("Express_intent_to_meet_or_negotiate", True)
    assert ("Express_intent_to_meet_or_negotiate", False) not in got
    assert all(swap for _, swap in got)  # every reading the lexicon gives here is swapped
