"""The ``people`` phrasing set: people-like relation wording and polite / indirect wrappers
around every MultiTQ variant, gold still from the oracle (the rendering never changes it)."""

from __future__ import annotations

from collections import Counter

import pytest

from tkgqa_ray.data.generator import QTYPES, VARIANTS, generate
from tkgqa_ray.data.lexicon import RelPhrase
from tkgqa_ray.data.surface_relations import WRAPPER_TEMPLATES, relation_surface
from tkgqa_ray.data.synth import SynthConfig, synth_rows
from tkgqa_ray.kg import FactTable
from tkgqa_ray.nlu import infer_answer_type


def test_wrappers_cover_every_multitq_variant():
    have = {t.variant for t in WRAPPER_TEMPLATES}
    assert have == {v for q in QTYPES for v in VARIANTS[q]}
    assert len({t.id for t in WRAPPER_TEMPLATES}) == len(WRAPPER_TEMPLATES)


def test_relation_surface_draws_active_phrases_with_pick():
    picks = []

    def pick(seq):
        picks.append(len(seq))
        return seq[-1]

    p = relation_surface("Express_intent_to_meet_or_negotiate", pick)
    assert isinstance(p, RelPhrase) and picks and " to " in f" {p.base} "  # "want/hope/... to ..."
    assert relation_surface("Host_a_visit", lambda s: s[1]) == RelPhrase("receive a visit from", "received a visit from")
    assert relation_surface("Not_a_relation", pick) is None  # the default lexicon phrase


@pytest.fixture(scope="module")
def people_records():
    table = FactTable.from_rows(synth_rows(SynthConfig(n_facts=4000, seed=5)))
    return table, generate(table, 240, seed=3, phrasing_set="people")


def test_people_set_renders_wrappers_and_keeps_oracle_gold(people_records):
    table, recs = people_records
    assert len(recs) == 240
    assert Counter(r["qtype"] for r in recs) == Counter({q: 40 for q in QTYPES})
    wrapped = [r for r in recs if r["template"].startswith("people/")]
    assert len(wrapped) >= 60
    for r in recs:
        assert "{" not in r["question"] and r["answers"]
    # the wrapper never changes what is asked: time variants stay time questions
    for r in wrapped:
        assert infer_answer_type(r["question"]) == r["answer_type"], r["question"]
    # the same spec rendered by the train set has the same gold (oracle, not text)
    train = generate(table, 240, seed=3, phrasing_set="train")
    by_spec = {str(r["spec"]): r["answers"] for r in train}
    same = [r for r in recs if str(r["spec"]) in by_spec]
    assert same and all(by_spec[str(r["spec"])] == r["answers"] for r in same)
