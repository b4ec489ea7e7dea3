"""TCC-RAG round tccrag21: refs27's relation co-readings, shared with SCoP.

* **near-tied relation co-readings under first / last** (``nlu.coreadings``, the predicate
  SCoP's alignment reads since refs27): "the last one Peru eased sanctions against" names no
  kind of sanction, and the KG names two relations that differ only by a qualifier the phrase
  does not state (``Ease_administrative_sanctions``, ``Ease_economic_sanctions,_boycott,_embargo``):
  TCC-RAG's ranked chain is over their union, not over the better-scored one alone. A relation
  with another act word (``Demand_easing_of_...``, ``Refuse_to_ease_...``) is no co-reading, and
  an unranked question keeps its one reading.

Tiny hand-built KG, questions written for these tests, answers checked by hand."""

from __future__ import annotations

import numpy as np
import pytest

from test_tccrag_tccrag4 import top  # TCC-RAG's top prediction and trace
from tkgqa_ray.methods.scop.alignment import SlotCands, relation_coreadings
from tkgqa_ray.nlu.coreadings import REL_TIE, content_stems, coreadings

RELS = ["Ease_administrative_sanctions", "Ease_economic_sanctions,_boycott,_embargo",
        "Demand_easing_of_administrative_sanctions", "Refuse_to_ease_administrative_sanctions", "Make_statement"]

ROWS = [
    # Peru eased administrative sanctions against Chile (2010, 2012) and economic sanctions
    # against Bolivia (2009) and Kenya (2014): the last easing of any kind is Kenya's, the first
    # Bolivia's; Peru demanded an easing for Japan (2016) and refused one (2017): no easing
    ("Peru", "Ease_administrative_sanctions", "Chile", "2010-01-01"),
    ("Peru", "Ease_administrative_sanctions", "Chile", "2012-01-01"),
    ("Peru", "Ease_economic_sanctions,_boycott,_embargo", "Bolivia", "2009-01-01"),
    ("Peru", "Ease_economic_sanctions,_boycott,_embargo", "Kenya", "2014-01-01"),
    ("Peru", "Demand_easing_of_administrative_sanctions", "Japan", "2016-01-01"),
    ("Peru", "Refuse_to_ease_administrative_sanctions", "Japan", "2017-01-01"),
    ("Kenya", "Make_statement", "Peru", "2015-01-01"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, fact_index=False)


# ------------------------------------------------------------------ the shared predicate
def test_coreadings_differ_only_by_an_unstated_qualifier():
    got = coreadings("eased sanctions against", [(0, 0.95, False), (1, 0.91, False), (2, 0.93, False), (3, 0.9, False)], RELS)
    assert got == {RELS[0]: (RELS[1],), RELS[1]: (RELS[0],)}
    assert content_stems("Ease_economic_sanctions,_boycott,_embargo")[0] == content_stems("eased")[0]


def test_no_coreading_when_stated_apart_far_reversed_or_weak():
    # the phrase states the qualifier: only one name has every stem
    assert coreadings("eased economic sanctions against", [(0, 0.95, False), (1, 0.94, False)], RELS) == {}
    # not near-tied (farther apart than REL_TIE)
    assert coreadings("eased sanctions against", [(0, 0.95, False), (1, 0.95 - REL_TIE - 0.01, False)], RELS) == {}
    # one reads the phrase reversed, or is unreliable
    assert coreadings("eased sanctions against", [(0, 0.95, False), (1, 0.94, True)], RELS) == {}
    assert coreadings("eased sanctions against", [(0, 0.45, False), (1, 0.44, False)], RELS) == {}


def test_scop_alignment_reads_the_shared_predicate():
    c = SlotCands(np.asarray([0, 1, 2]), np.asarray([0.95, 0.91, 0.93]), swap=np.asarray([False, False, False]))
    assert relation_coreadings("eased sanctions against", c, RELS) == coreadings(
        "eased sanctions against", [(0, 0.95, False), (1, 0.91, False), (2, 0.93, False)], RELS)
    assert relation_coreadings("eased sanctions against", None, RELS) == {}


# ------------------------------------------------------------------ TCC-RAG's ranked chain
@pytest.mark.parametrize("q, gold", [
    ("Who was the last one Peru eased sanctions against?", "Kenya"),
    ("Who was the first one Peru eased sanctions against?", "Bolivia"),
])
def test_ranked_chain_is_over_the_coreadings(ctx, q, gold):
    pred, tr = top(ctx, q)
    assert pred == [gold], tr
    assert tr["chain"]["reading"].get("relation_union"), tr["chain"]


def test_unranked_question_keeps_its_reading(ctx):
    _, tr = top(ctx, "Against whom did Peru ease sanctions in 2014?")
    assert not (tr.get("chain", {}).get("reading") or {}).get("relation_union"), tr.get("chain")
