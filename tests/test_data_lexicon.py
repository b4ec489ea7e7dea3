"""The generator's relation lexicon: tense forms of the fallback phrases (hand-checked)."""

from __future__ import annotations

import pytest

from tkgqa_ray.data.lexicon import _rule_phrase, past_tense, relation_phrase


@pytest.mark.parametrize(
    "verb, past",
    [
        ("visit", "visited"), ("praise", "praised"), ("occupy", "occupied"), ("play", "played"),
        ("ban", "banned"), ("stop", "stopped"), ("make", "made"),
        # stressed final syllables double; irregular verbs the KG's relations start with
        ("expel", "expelled"), ("control", "controlled"), ("forgive", "forgave"), ("withhold", "withheld"),
    ],
)
def test_past_tense(verb, past):
    assert past_tense(verb) == past


def test_an_adverb_before_the_verb_keeps_its_form():
    # was "sexuallied assault with": the adverb took the tense
    assert _rule_phrase("Publicly_criticize_policy") == ("publicly criticize policy with", "publicly criticized policy with")
    rp = relation_phrase("Sexually_assault")
    assert (rp.base, rp.past) == ("sexually assault", "sexually assaulted")


def test_fallback_phrases_of_real_relations():
    assert _rule_phrase("Expel_or_deport_individuals")[1] == "expelled individuals with"
    assert _rule_phrase("Express_intent_to_settle_dispute") == (
        "express intent to settle dispute with", "expressed intent to settle dispute with")
    assert _rule_phrase("Criticize_or_denounce") == ("criticize", "criticized")
