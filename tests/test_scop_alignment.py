"""Conservative alignment: candidate retrieval and the rules (never fill '?', keep anchor
count and order, only the search triple reverses, uncertain slots keep surface form)."""

import pytest

from tkgqa_ray.methods.scop import symbolic
from tkgqa_ray.methods.scop.alignment import SlotRetriever, TripleIndex, enforce_rules, retrieve
from tkgqa_ray.methods.scop.types import Triple

ROWS = [
    ("China", "Make_a_visit", "Iraq", "2010-01-10"),
    ("Japan", "Make_a_visit", "Iraq", "2010-01-12"),
    ("Iraq", "Host_a_visit", "China", "2010-01-10"),
    ("China", "Sign_formal_agreement", "Japan", "2009-05-01"),
    ("France", "Criticize_or_denounce", "China", "2009-05-02"),
]



def align(ctx, anchors, search):
    anchors = [Triple.of(a) for a in anchors]
    search = Triple.of(search) if search else None
    cands = retrieve(ctx, SlotRetriever(ctx), TripleIndex.for_table(ctx.table), anchors, search)
    out = symbolic.aligner({"question": "", "anchors": [a.as_list() for a in anchors],
                            "search": search.as_list() if search else None, "candidates": cands["triples"]}, ctx)
    return cands, enforce_rules(anchors, search, out)


def test_candidates_are_kg_triples_scored_by_slot_sums(ctx):
    cands, _ = align(ctx, [], ["?", "make a visit", "Iraq"])
    facts = cands["triples"][0]["facts"]
    assert facts, "expected candidate facts"
    top = facts[0]
    assert (top["s"], top["r"], top["o"]) == ("?", "Make_a_visit", "Iraq")
    assert top["score"] == pytest.approx(sum(top["sims"]), abs=1e-3)
    assert top["sims"][0] == 1.0 and top["sims"][2] == 1.0  # '?' counts 1; exact name = 1


def test_search_alignment_never_fills_unknown_and_grounds_known_slots(ctx):
    _, (anchors, search, viol) = align(ctx, [["Japan", "make a visit", "Iraq"]], ["?", "make a visit", "Iraq"])
    assert search == Triple("?", "Make_a_visit", "Iraq")
    assert anchors == [Triple("Japan", "Make_a_visit", "Iraq")]  # fact-level grounding
    assert viol == []


def test_search_reversed_only_when_extracted_direction_has_no_support(ctx):
    # nothing criticises France; France criticises China -> orientation repaired
    _, (_, search, _) = align(ctx, [], ["?", "criticize or denounce", "France"])
    assert search == Triple("France", "Criticize_or_denounce", "?")


def test_uncertain_slots_keep_surface_form(ctx):
    _, (anchors, _, _) = align(ctx, [["Narnia Kingdom", "zzqq", "Iraq"]], ["?", "make a visit", "Iraq"])
    a = anchors[0]
    assert a.s == "Narnia Kingdom" and a.r == "zzqq" and a.o == "Iraq"


def test_enforce_rules_rejects_violations():
    raw_a = [Triple("Japan", "visit", "Iraq"), Triple("China", "sign", "Japan")]
    raw_s = Triple("?", "visit", "Iraq")
    # dropped anchor -> raw anchors kept
    a, s, v = enforce_rules(raw_a, raw_s, {"anchors": [["Japan", "Make_a_visit", "Iraq"]], "search": ["?", "Make_a_visit", "Iraq"]})
    assert a == raw_a and s == Triple("?", "Make_a_visit", "Iraq") and any("count" in x for x in v)
    # filled '?' -> raw search kept
    a, s, v = enforce_rules([], raw_s, {"anchors": [], "search": ["China", "Make_a_visit", "Iraq"]})
    assert s == raw_s and v
    # reversed anchor -> that anchor falls back to raw; order kept
    out = {"anchors": [["Iraq", "Make_a_visit", "Japan"], ["China", "Sign_formal_agreement", "Japan"]], "search": ["Iraq", "Make_a_visit", "?"]}
    a, s, v = enforce_rules(raw_a, raw_s, out)
    assert a == [raw_a[0], Triple("China", "Sign_formal_agreement", "Japan")]
    assert s == Triple("Iraq", "Make_a_visit", "?")  # the search triple may reverse
    assert any("reversed" in x for x in v)
    # invented search triple is dropped; missing output keeps raw
    a, s, v = enforce_rules(raw_a, None, {"anchors": [x.as_list() for x in raw_a], "search": ["?", "r", "x"]})
    assert s is None and v
    assert enforce_rules(raw_a, raw_s, None)[:2] == (raw_a, raw_s)
