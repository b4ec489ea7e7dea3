"""Question generator and its gold oracle: hand-checked answers on a hand-made KG, an
independent re-derivation on the synthetic KG, determinism, coverage of types/phrasings."""

from __future__ import annotations

import calendar
from collections import Counter
from datetime import date

import numpy as np
import pytest

from tkgqa_ray.data.generator import (
    QTYPES,
    VARIANTS,
    generate,
    generate_main,
    templates_for,
)
from tkgqa_ray.data.loaders import load_dataset
from tkgqa_ray.data.oracle_answers import Oracle, QSpec
from tkgqa_ray.data.synth import SynthConfig, synth_rows, write_kg
from tkgqa_ray.kg import FactTable, load_kg

HAND = [
    ("China", "Make_a_visit", "Iraq", "2010-01-05"),
    ("China", "Make_a_visit", "Iran", "2010-02-10"),
    ("China", "Make_a_visit", "Japan", "2010-02-20"),
    ("China", "Make_a_visit", "Iran", "2010-03-01"),
    ("China", "Make_a_visit", "Egypt", "2011-06-15"),
    ("Russia", "Make_a_visit", "Iraq", "2009-12-01"),
    ("France", "Make_a_visit", "Iraq", "2010-01-05"),
    ("Germany", "Make_a_visit", "Iraq", "2010-04-10"),
    ("Citizen_(Nigeria)", "Make_a_visit", "Iraq", "2010-07-01"),
    ("Turkey", "Make_a_visit", "Iraq", "2010-02-12"),
    ("Iran", "Sign_formal_agreement", "Japan", "2010-02-15"),
    ("Japan", "Criticize_or_denounce", "China", "2010-02-20"),
    ("Japan", "Criticize_or_denounce", "China", "2010-02-25"),
    ("Egypt", "Host_a_visit", "China", "2011-06-15"),
    ("Iran", "Consult", "Iraq", "2010-02-12"),
]


@pytest.fixture(scope="module")
def hand():
    t = FactTable.from_rows(HAND)
    return t, Oracle(t)


def _d(s: str) -> int:
    return date.fromisoformat(s).toordinal()


def _span(year: int, month: int | None = None) -> tuple[int, int]:
    if month is None:
        return _d(f"{year}-01-01"), _d(f"{year}-12-31")
    return _d(f"{year}-{month:02d}-01"), _d(f"{year}-{month:02d}-{calendar.monthrange(year, month)[1]:02d}")


def _ans(hand, **kw):
    t, oracle = hand
    e, r = t.entity_id, t.relation_id

    def ent(x):
        return None if x is None else e[x]

    tgt = kw.pop("target")
    kw["target"] = (ent(tgt[0]), r[tgt[1]], ent(tgt[2]))
    if "anchor_event" in kw:
        a = kw["anchor_event"]
        kw["anchor_event"] = (e[a[0]], r[a[1]], e[a[2]])
    kw.setdefault("answer_type", "entity")
    kw.setdefault("qtype", "x")
    res = oracle.answer(QSpec(**kw))
    return res.status, res.answers


VISIT = "Make_a_visit"


def test_hand_before_after(hand):
    a = ("Germany", VISIT, "Iraq")  # 2010-04-10, unique
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=a, op="before") == (
        "ok", ["China", "France", "Russia", "Turkey"])
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=a, op="after") == ("ok", ["Citizen (Nigeria)"])
    # strict: France visited Iraq on the anchor's own day and is not "before China"
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=("China", VISIT, "Iraq"), op="before") == (
        "ok", ["Russia"])
    # explicit times: "before 2010" = ends before 2010-01-01; "after January 2010" = from February
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_time=_span(2010), op="before") == ("ok", ["Russia"])
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_time=_span(2010, 1), op="after") == (
        "ok", ["Citizen (Nigeria)", "Germany", "Turkey"])


def test_hand_first_last_and_ranked(hand):
    assert _ans(hand, target=("China", VISIT, None), rank="asc") == ("ok", ["Iraq"])
    assert _ans(hand, target=("China", VISIT, None), rank="desc") == ("ok", ["Egypt"])
    assert _ans(hand, target=("China", VISIT, "Iran"), answer_type="time", rank="asc", time_level="month") == (
        "ok", ["2010-02"])
    assert _ans(hand, target=("China", VISIT, "Iran"), answer_type="time", rank="desc", time_level="day") == (
        "ok", ["2010-03-01"])
    # after_first: after Russia (2009-12-01) the first visitors of Iraq tie on 2010-01-05
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=("Russia", VISIT, "Iraq"), op="after",
                rank="asc") == ("ok", ["China", "France"])
    # before_last: before Citizen (Nigeria) (2010-07-01) the last visitor is Germany
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=("Citizen_(Nigeria)", VISIT, "Iraq"),
                op="before", rank="desc") == ("ok", ["Germany"])


def test_hand_equal_and_equal_multi(hand):
    assert _ans(hand, target=("China", VISIT, None), anchor_time=_span(2010, 2), op="equal",
                granularity="month", time_level="month") == ("ok", ["Iran", "Japan"])
    assert _ans(hand, target=("Japan", "Criticize_or_denounce", "China"), answer_type="time",
                time_level="day") == ("ok", ["2010-02-20", "2010-02-25"])
    assert _ans(hand, target=("Japan", "Criticize_or_denounce", "China"), answer_type="time",
                time_level="month") == ("ok", ["2010-02"])
    agree = ("Iran", "Sign_formal_agreement", "Japan")  # 2010-02-15
    assert _ans(hand, target=("China", VISIT, None), anchor_event=agree, op="equal", granularity="month",
                time_level="month") == ("ok", ["Iran", "Japan"])
    assert _ans(hand, target=("China", VISIT, None), anchor_event=agree, op="equal", granularity="year",
                time_level="year") == ("ok", ["Iran", "Iraq", "Japan"])
    assert _ans(hand, target=("China", VISIT, None), anchor_event=agree, op="equal", granularity="day")[0] == "empty"
    # offsets: Iran consulted Iraq on 2010-02-12; 8 days after -> 02-20 (Japan), 2 days before -> 02-10 (Iran)
    consult = ("Iran", "Consult", "Iraq")
    assert _ans(hand, target=("China", VISIT, None), anchor_event=consult, op="after", offset=8) == ("ok", ["Japan"])
    assert _ans(hand, target=("China", VISIT, None), anchor_event=consult, op="before", offset=2) == ("ok", ["Iran"])


def test_hand_anchor_uniqueness(hand):
    twice = ("China", VISIT, "Iran")  # 2010-02-10 and 2010-03-01
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=twice, op="before")[0] == "ambiguous_anchor"
    assert _ans(hand, target=("China", VISIT, None), anchor_event=twice, op="equal", granularity="month")[0] == (
        "ambiguous_anchor")
    # at year granularity both anchor facts fall in 2010: unambiguous
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=twice, op="equal", granularity="year",
                time_level="year") == ("ok", ["China", "Citizen (Nigeria)", "France", "Germany", "Turkey"])
    assert _ans(hand, target=(None, VISIT, "Iraq"), anchor_event=("Iraq", VISIT, "China"), op="before")[0] == (
        "no_anchor")


def test_hand_generated_questions_read_right(hand):
    t, _ = hand
    recs = generate(t, 60, seed=0)
    assert recs, "the hand KG must yield questions"
    by_text = {r["question"]: r for r in recs}
    for r in recs:
        assert "_" not in r["question"]  # display names only
        assert 1 <= len(r["answers"]) <= 20
    # every generated question on the hand KG agrees with the oracle re-run from its spec
    oracle = Oracle(t)
    for r in recs:
        assert oracle.answer(QSpec.from_json(r["spec"])).answers == r["answers"], r["question"]
    assert any("Citizen (Nigeria)" in q for q in by_text) or any("Citizen (Nigeria)" in r["answers"] for r in recs)


# ---------------------------------------------------------------- synthetic KG, independent check

@pytest.fixture(scope="module")
def synth_table(tmp_path_factory):
    cfg = SynthConfig(seed=5, n_facts=6000, n_countries=20, n_persons=40, start="2010-01-01", end="2012-12-31")
    path = write_kg(synth_rows(cfg), tmp_path_factory.mktemp("kg") / "kg" / "full.txt.gz")
    return load_kg(path), path


def _naive(rows, spec: dict, entities, relations):
    """Re-derive the answers with python dates over string rows (docs/data.md semantics)."""
    def days(row):
        return date.fromisoformat(row[3]).toordinal(), date.fromisoformat(row[4]).toordinal()

    def coarse(lo, hi, g):
        a, b = date.fromordinal(lo), date.fromordinal(hi)
        if g == "month":
            return date(a.year, a.month, 1).toordinal(), date(b.year, b.month, calendar.monthrange(b.year, b.month)[1]).toordinal()
        if g == "year":
            return date(a.year, 1, 1).toordinal(), date(b.year, 12, 31).toordinal()
        return lo, hi

    ts, tr, to = spec["target"]
    if spec["anchor_event"] is not None:
        a_s, a_r, a_o = (entities[spec["anchor_event"][0]], relations[spec["anchor_event"][1]],
                         entities[spec["anchor_event"][2]])
        g = spec["granularity"] if spec["op"] == "equal" else "day"
        spans = {coarse(*days(x), g) for x in rows if x[0] == a_s and x[1] == a_r and x[2] == a_o}
        assert len(spans) == 1
        la, ua = spans.pop()
    elif spec["anchor_time"] is not None:
        la, ua = spec["anchor_time"]
    keep = []
    for x in rows:
        if x[1] != relations[tr] or (ts is not None and x[0] != entities[ts]) or (to is not None and x[2] != entities[to]):
            continue
        lx, ux = days(x)
        op, off = spec["op"], spec["offset"]
        if op == "before" and off:
            ok = lx <= la - off <= ux or lx <= ua - off <= ux
        elif op == "after" and off:
            ok = lx <= la + off <= ux or lx <= ua + off <= ux
        elif op == "before":
            ok = ux < la
        elif op == "after":
            ok = lx > ua
        elif op == "equal":
            cl, cu = coarse(lx, ux, spec["granularity"])
            al, au = coarse(la, ua, spec["granularity"])
            ok = cl <= au and cu >= al
        else:
            ok = True
        if ok:
            keep.append((x, lx))
    if spec["rank"]:
        starts = sorted({lx for _, lx in keep}, reverse=spec["rank"] == "desc")
        keep = [(x, lx) for x, lx in keep if lx == starts[spec["k"] - 1]]
    if spec["answer_type"] == "entity":
        return sorted({(x[0] if ts is None else x[2]).replace("_", " ") for x, _ in keep})
    width = {"day": 10, "month": 7, "year": 4}[spec["time_level"]]
    return sorted({x[3][:width] for x, _ in keep})


def test_gold_rederived_independently_on_synthetic_kg(synth_table):
    table, path = synth_table
    rows = [(f.subject, f.relation, f.object, date.fromordinal(f.start).isoformat(), date.fromordinal(f.end).isoformat())
            for f in table.facts(range(table.num_facts))]
    recs = generate(table, 240, seed=42, phrasing_set="all")
    assert len(recs) == 240
    for r in recs:
        naive = _naive(rows, r["spec"], table.entities, table.relations)
        assert naive == r["answers"], r["question"]


def test_balanced_types_and_several_phrasings(synth_table):
    table, _ = synth_table
    recs = generate(table, 300, seed=1)
    qtypes = Counter(r["qtype"] for r in recs)
    assert set(qtypes) == set(QTYPES) and all(v == 50 for v in qtypes.values())
    for qt in QTYPES:
        tpls = {r["template"] for r in recs if r["qtype"] == qt}
        assert len(tpls) >= 4, (qt, tpls)
    assert {r["answer_type"] for r in recs} == {"entity", "time"}
    assert {r["time_level"] for r in recs} == {"day", "month", "year"}
    assert all(r["qlabel"] == ("Single" if r["qtype"] in QTYPES[:3] else "Multiple") for r in recs)
    assert all(r["phrasing_set"] == "train" for r in recs)
    # interleaved: any prefix is balanced
    assert Counter(r["qtype"] for r in recs[:12]) == Counter({t: 2 for t in QTYPES})


def test_every_variant_has_train_and_heldout_templates():
    for ps in ("train", "heldout"):
        have = {t.variant for _, t in templates_for(ps)}
        assert {v for vs in VARIANTS.values() for v in vs} <= have
    per_type = {qt: sum(1 for _, t in templates_for("train") if t.variant in VARIANTS[qt]) for qt in VARIANTS}
    assert all(n >= 4 for n in per_type.values()), per_type
    train_texts = {t.text for _, t in templates_for("train")}
    assert not train_texts & {t.text for _, t in templates_for("heldout")}


def test_heldout_set_only_uses_heldout_templates(synth_table):
    table, _ = synth_table
    recs = generate(table, 60, seed=2, phrasing_set="heldout")
    assert recs and all(r["template"].startswith("heldout/") and r["phrasing_set"] == "heldout" for r in recs)
    both = {r["phrasing_set"] for r in generate(table, 120, seed=2, phrasing_set="all")}
    assert both == {"train", "heldout"}


def test_fresh_set_covers_every_type_with_its_own_templates(synth_table):
    """The blind "fresh" set (phrasings_fresh.py) renders all six types on its own templates,
    fills every slot and keeps the oracle's gold; "all" still means train + heldout only."""
    table, _ = synth_table
    have = {t.variant for _, t in templates_for("fresh")}
    assert {v for qt in QTYPES for v in VARIANTS[qt]} <= have
    recs = generate(table, 120, seed=11, phrasing_set="fresh")
    assert len(recs) == 120
    assert set(Counter(r["qtype"] for r in recs)) == set(QTYPES)
    oracle = Oracle(table)
    for r in recs:
        assert r["template"].startswith("fresh/") and r["phrasing_set"] == "fresh"
        assert "{" not in r["question"] and "}" not in r["question"], r["template"]
        assert r["answers"] and all(a for a in r["answers"])
        assert oracle.answer(QSpec.from_json(r["spec"])).answers == r["answers"]
    assert {r["answer_type"] for r in recs} == {"entity", "time"}
    both = {r["phrasing_set"] for r in generate(table, 120, seed=2, phrasing_set="all")}
    assert both == {"train", "heldout"}


def test_deterministic_by_seed(synth_table):
    table, _ = synth_table
    a = generate(table, 60, seed=9)
    assert a == generate(table, 60, seed=9)
    assert [r["question"] for r in a] != [r["question"] for r in generate(table, 60, seed=10)]


def test_interval_questions(tmp_path):
    cfg = SynthConfig(seed=3, interval=True, n_countries=12, n_persons=50, start="2000-01-01", end="2012-12-31")
    table = load_kg(write_kg(synth_rows(cfg), tmp_path / "kg" / "full.txt"))
    recs = generate(table, 50, seed=4)
    kinds = Counter(r["qtype"] for r in recs)
    assert set(kinds) == {"time_lookup", "entity_at_time", "allen", "ordinal", "anchor_ordinal"}
    assert {r["question_level"] for r in recs} == {"simple", "medium", "complex"}
    oracle = Oracle(table)
    for r in recs:
        assert oracle.answer(QSpec.from_json(r["spec"])).answers == r["answers"]
    # one hand check: an ordinal question's answer is the holder on the k-th distinct start day
    r = next(r for r in recs if r["qtype"] == "ordinal")
    s = r["spec"]
    ids = np.flatnonzero((np.asarray(table.r) == s["target"][1]) & (np.asarray(table.o) == s["target"][2]))
    kth = sorted(set(np.asarray(table.start)[ids].tolist()))[s["k"] - 1]
    assert r["answers"] == sorted({table.entities[table.s[i]].replace("_", " ") for i in ids if table.start[i] == kth})


def test_generate_main_writes_a_loadable_dataset(synth_table, tmp_path):
    _, kg = synth_table
    meta = generate_main(kg, tmp_path / "gen", n=30, seed=3, types=["first_last", "after_first"])
    assert meta["n_written"] == 30 and meta["produced"] == {"first_last": 15, "after_first": 15}
    ds = load_dataset("multitq", tmp_path / "gen", "test")
    assert len(ds) == 30 and ds.kg_path.name == "full.txt.gz"
    assert all(not hasattr(q, "answers") for q in ds.questions)
    assert {g.qtype for g in ds.golds.values()} == {"first_last", "after_first"}
    with pytest.raises(ValueError, match="unknown question type"):
        generate_main(kg, tmp_path / "g2", n=3, types=["nope"])


@pytest.mark.realkg
def test_generate_on_real_multitq_kg(real_kg_table):
    table = real_kg_table
    recs = generate(table, 36, seed=0)
    assert Counter(r["qtype"] for r in recs) == Counter({t: 6 for t in QTYPES})
    oracle = Oracle(table)
    for r in recs:
        assert 1 <= len(r["answers"]) <= 20 and "_" not in r["question"]
        assert oracle.answer(QSpec.from_json(r["spec"])).answers == r["answers"]
        for ev in r["events"]:  # supporting facts exist in the KG, in KG form
            s, rel, o, a, b = ev.split("|")
            assert s in table.entity_id and rel in table.relation_id and o in table.entity_id and a == b


def test_store_agrees_with_generated_gold(synth_table):
    """The gold checks the posting-list store: answer each generated point-KG question with
    FactStore range queries and compare (semantics of docs/data.md, point facts)."""
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.time import coarsen, format_day

    table, _ = synth_table
    store = FactStore(table)
    start = np.asarray(table.start)
    for r in generate(table, 180, seed=8):
        sp = r["spec"]
        ts, tr, to = sp["target"]
        q = {"subject": ts, "relation": tr, "object": to}
        if sp["anchor_event"] is not None:
            a = store.query(*sp["anchor_event"])
            g = sp["granularity"] if sp["op"] == "equal" else "day"
            spans = {coarsen(int(start[i]), int(start[i]), g) for i in a}
            assert len(spans) == 1
            la, ua = spans.pop()
        elif sp["anchor_time"] is not None:
            la, ua = sp["anchor_time"]
        op, off = sp["op"], sp["offset"]
        if op == "before" and off:
            q.update(start_min=la - off, start_max=la - off)
        elif op == "after" and off:
            q.update(start_min=ua + off, start_max=ua + off)
        elif op == "before":
            q.update(start_max=la - 1)
        elif op == "after":
            q.update(start_min=ua + 1)
        elif op == "equal":
            q.update(start_min=la, start_max=ua)
        ids = store.query(**q, order="desc" if sp["rank"] == "desc" else "asc")
        if sp["rank"] and len(ids):
            ids = ids[start[ids] == start[ids[0]]]
        if sp["answer_type"] == "entity":
            col = np.asarray(table.s if ts is None else table.o)
            got = sorted({table.entities[int(e)].replace("_", " ") for e in col[ids]})
        else:
            got = sorted({format_day(int(d), sp["time_level"]) for d in start[ids]})
        assert got == r["answers"], r["question"]
