"""TCC-RAG round tccrag22.

* **per-entity triple index** (``FactTable.triples_with_subject`` / ``triples_with_object``, a
  CSR built once like ``_triple_postings``): TCC-RAG's pair lookups (``method._pair_rows``,
  ``_pair_reading``, ``_kg_first``) slice it instead of masking every triple per call. The
  indexed lookups equal a brute-force scan on a generated table.

Answers checked by hand (or by the scan)."""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.kg.table import FactTable
from tkgqa_ray.methods.tccrag.method import ALT_PER_SLOT, _kg_first, _pair_reading, _pair_rows


def _generated(seed: int, ne: int = 40, nr: int = 6, n: int = 900) -> FactTable:
    rng = np.random.default_rng(seed)
    s, o = rng.integers(0, ne, n), rng.integers(0, ne, n)
    o[:25] = s[:25]  # some self-loops
    start = rng.integers(730000, 730400, n)
    return FactTable([f"E{i:02d}" for i in range(ne)], [f"R{i}" for i in range(nr)], s, rng.integers(0, nr, n), o,
                     start, start + rng.integers(0, 3, n))


def _kg_first_scan(table, own, other, rels):
    """The pre-index _kg_first (a mask over every triple), for comparison."""
    if not own or len(own) <= ALT_PER_SLOT or not rels:
        return own
    top = float(own[0][1])
    tied = [c for c in own if float(c[1]) == top]
    if len(tied) <= ALT_PER_SLOT:
        return own
    tr = table.triples
    ids = np.array([int(c[0]) for c in tied])
    keep = np.isin(tr[:, 1], list(rels))
    hit = set(tr[keep & (tr[:, 0] == other) & np.isin(tr[:, 2], ids), 2].tolist())
    hit |= set(tr[keep & (tr[:, 2] == other) & np.isin(tr[:, 0], ids), 0].tolist())
    if not hit:
        return own
    first = [c for c in tied if int(c[0]) in hit]
    return first + [c for c in own if c not in first]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_entity_index_equals_a_scan(seed):
    t = _generated(seed)
    tr = t.triples
    for e in range(len(t.entities) + 2):  # two ids past the names: empty, no error
        assert t.triples_with_subject(e).tolist() == np.flatnonzero(tr[:, 0] == e).tolist()
        assert t.triples_with_object(e).tolist() == np.flatnonzero(tr[:, 2] == e).tolist()
    assert t.triples_with_subject(-1).size == 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pair_rows_and_pair_reading_equal_a_scan(seed):
    t = _generated(seed)
    rng = np.random.default_rng(seed + 10)
    rels = [(int(r), bool(sw)) for r, sw in zip(rng.integers(0, 6, 4), rng.integers(0, 2, 4))]
    for a in range(len(t.entities)):
        for b in range(len(t.entities)):
            idx, scan = _pair_rows(t, a, b), _pair_rows(t.triples, a, b)
            assert len(idx) == len(scan) and {tuple(r) for r in idx.tolist()} == {tuple(r) for r in scan.tolist()}
            orient = lambda sw, a=a, b=b: (b, 0, a) if sw else (a, 0, b)  # noqa: E731
            for own in ((), (int(rels[0][0]),)):
                assert _pair_reading(t, a, b, rels, orient, own) == _pair_reading(t.triples, a, b, rels, orient, own)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kg_first_equals_a_scan(seed):
    t = _generated(seed)
    rng = np.random.default_rng(seed + 20)
    for _ in range(200):
        ids = rng.choice(len(t.entities), 6, replace=False).tolist()
        own = [[e, 0.7] for e in ids[:5]] + [[ids[5], 0.5]]
        other, rels = int(rng.integers(0, len(t.entities))), set(rng.integers(0, 6, 2).tolist())
        assert _kg_first(t, own, other, rels) == _kg_first_scan(t, own, other, rels)


# ----------------------------------------------------------------------------- parsing rules (tiny KG)
from types import SimpleNamespace  # noqa: E402

from test_tccrag_tccrag4 import top  # noqa: E402 - TCC-RAG's top prediction and trace
from tkgqa_ray.methods.tccrag.cues import _asked_time  # noqa: E402
from tkgqa_ray.methods.tccrag.parsing import DEMONYM_SCORE, demonym_country, titled_name  # noqa: E402
from tkgqa_ray.nlu.signals import question_signals  # noqa: E402

ROWS = [
    # Works Minister Vellu appealed to Thailand (Jan 2008), the Malaysian police (Mar 2008), then
    # the National Front (Apr 2008): the last appeal before the Front's is the police's
    ("Minister_of_Public_Works_Vellu", "Make_an_appeal_or_request", "Thailand", "2008-01-10"),
    ("Minister_of_Public_Works_Vellu", "Make_an_appeal_or_request", "Police_(Malaysia)", "2008-03-28"),
    ("Minister_of_Public_Works_Vellu", "Make_an_appeal_or_request", "National_Front_Malaysia", "2008-04-21"),
    ("Mohammed_Khalifa", "Make_statement", "Thailand", "2008-02-01"),
    # sympathy for Vietnam: South Korea (2009), then Japan (2012), then Chile (2014); the
    # Vietnamese American community has no such event
    ("South_Korea", "Make_empathetic_comment", "Vietnam", "2009-11-09"),
    ("Japan", "Make_empathetic_comment", "Vietnam", "2012-03-01"),
    ("Chile", "Make_empathetic_comment", "Vietnam", "2014-07-10"),
    ("Vietnamese_American", "Make_statement", "Chile", "2010-01-01"),
    # Indian medical staff spoke about protesters in 2010; the special forces fought protesters
    # with small arms in June and September 2010 and in 2011
    ("Medical_Personnel_(India)", "Make_statement", "Protester_(India)", "2010-08-03"),
    ("Military_Personnel_-_Special_(India)", "fight_with_small_arms_and_light_weapons", "Protester_(India)", "2010-06-10"),
    ("Military_Personnel_-_Special_(India)", "fight_with_small_arms_and_light_weapons", "Protester_(India)", "2010-09-02"),
    ("Military_Personnel_-_Special_(India)", "fight_with_small_arms_and_light_weapons", "Protester_(India)", "2011-02-01"),
    ("Military_Personnel_-_Special_(India)", "Make_statement", "Medical_Personnel_(India)", "2010-05-01"),
]


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, fact_index=False)


def test_titled_name_needs_the_surname_and_an_office_word(ctx):
    t = ctx.table
    vellu, khalifa = t.entity_id["Minister_of_Public_Works_Vellu"], t.entity_id["Mohammed_Khalifa"]
    assert titled_name("Works Minister Samy Vellu", vellu, t)
    assert titled_name("the Minister Vellu", vellu, t)
    assert not titled_name("Samy Vellu", vellu, t)  # the surname alone: no office written
    assert not titled_name("Works Minister Samy Velu", vellu, t)  # another last word
    assert not titled_name("Isa Al Khalifa", khalifa, t)  # a shared surname, no other word of the name


def test_titled_official_is_the_subject(ctx):
    pred, tr = top(ctx, "Before making an appeal to Malaysia's National Front, whom had Works Minister Samy Vellu last appealed to?")
    assert tr["parse"]["subject"] == "Minister of Public Works Vellu"
    assert pred == ["Police (Malaysia)"]


def test_demonym_country_is_a_further_reading(ctx):
    t = ctx.table
    va, vn, jp = t.entity_id["Vietnamese_American"], t.entity_id["Vietnam"], t.entity_id["Japan"]
    assert demonym_country("the Vietnamese", [(va, 0.89)], ["South Korea", "Vietnam"], t) == [(va, 0.89), (vn, DEMONYM_SCORE)]
    assert demonym_country("Vietnamese", [(va, 0.89)], ["Vietnam"], t) == [(va, 0.89), (vn, DEMONYM_SCORE)]
    # the question names no Vietnam; a word that is no demonym; a best candidate of that place already
    assert demonym_country("the Vietnamese", [(va, 0.89)], ["Japan"], t) == [(va, 0.89)]
    assert demonym_country("the Americans", [(va, 0.89)], ["Vietnam"], t) == [(va, 0.89)]
    assert demonym_country("the Japanese", [(jp, 0.9)], ["Japan"], t) == [(jp, 0.9)]


def test_the_vietnamese_reads_vietnam(ctx):
    pred, tr = top(ctx, "After South Korea expressed sympathy for Vietnam, who was the next to express sympathy for the Vietnamese?")
    assert pred == ["Japan"]


def test_bare_plural_repeat_is_the_object(ctx):
    pred, tr = top(ctx, "In the year Indian medical staff made a statement about protesters in India, in which months did "
                        "India's special forces fight protesters with small arms?")
    assert tr["parse"]["object"] == "Protester (India)"
    assert "protesters" not in tr["parse"]["relation_phrase"]
    assert pred[0] in ("2010-06", "2010-09")


def test_asked_time_of_the_blanked_analysis_only_one_way():
    sig = question_signals("Who did Japan visit?")
    assert sig.answer_type == "entity"
    got = _asked_time(sig, SimpleNamespace(answer_type="time", time_level="year"))
    assert (got.answer_type, got.granularity) == ("time", "year")
    assert _asked_time(sig, SimpleNamespace(answer_type="entity", time_level="day")) == sig
    tsig = question_signals("When did Japan visit Chile?")
    assert _asked_time(tsig, SimpleNamespace(answer_type="entity", time_level="day")) == tsig  # never back to entity
