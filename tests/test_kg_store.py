"""Posting-list store vs the brute-force oracle (and a hand-checked table)."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from tkgqa_ray.kg import FactTable
from tkgqa_ray.kg import oracle
from tkgqa_ray.kg.store import FactStore, QuerySpec

D = lambda s: dt.date.fromisoformat(s).toordinal()  # noqa: E731


@pytest.fixture(scope="module")
def small():
    rows = [
        ("A", "visit", "B", "2010-01-05", "2010-01-05"),  # 0
        ("A", "visit", "B", "2010-01-01", "2010-01-01"),  # 1
        ("B", "visit", "A", "2010-01-03", "2010-01-03"),  # 2
        ("A", "praise", "C", "2010-01-05", "2010-01-05"),  # 3
        ("C", "visit", "A", "2009-12-20", "2010-01-10"),  # 4 interval
        ("A", "praise", "A", "2010-01-02", "2010-01-02"),  # 5 self-loop
        ("C", "praise", "B", "2010-02-01", "2010-02-01"),  # 6
    ]
    t = FactTable.from_rows(rows)
    return t, FactStore(t)


def test_hand_checked_queries(small):
    t, st = small
    q = lambda **kw: st.query(**kw).tolist()  # noqa: E731
    assert q(subject="A") == [1, 5, 0, 3]  # by start: 01-01, 01-02, 01-05 (id 0 before 3)
    assert q(subject="A", relation="visit") == [1, 0]
    assert q(subject="A", relation="visit", order="desc") == [0, 1]
    assert q(subject="A", relation=["visit", "praise"], start_max=D("2010-01-04")) == [1, 5]
    assert q(relation="visit", object="A") == [4, 2]
    assert q(entity="A") == [4, 1, 5, 2, 0, 3]  # self-loop 5 appears once
    assert q(entity="A", relation="praise") == [5, 3]
    assert q(entity="A", object="B") == [1, 0]  # A→B only (B→A has object A)
    assert q(entity="B", subject="A") == [1, 0]
    assert q(entity="C", subject="A", object="B") == []
    assert q(subject="A", object="B") == [1, 0]
    assert q(start_min=D("2010-01-05"), start_max=D("2010-01-05")) == [0, 3]
    assert q(relation=[]) == []
    assert q(subject="A", limit=2, order="desc") == [3, 0]
    # overlaps differs from "start in range" for the interval fact 4 (2009-12-20..2010-01-10)
    assert q(overlaps=(D("2010-01-06"), D("2010-01-31"))) == [4]
    assert q(start_min=D("2010-01-06"), start_max=D("2010-01-31")) == []
    assert q(subject="C", overlaps=(D("2010-01-10"), D("2010-03-01"))) == [4, 6]
    assert q(subject="C", overlaps=(D("2010-01-11"), D("2010-03-01"))) == [6]
    assert st.facts_between("A", "B").tolist() == [1, 2, 0]
    assert st.facts_between("A", "B", both_directions=False).tolist() == [1, 0]
    assert st.query_many([QuerySpec(subject="B"), {"object": "C"}])[1].tolist() == [3]
    assert q(subject=999) == [] and q(relation=99) == []
    with pytest.raises(KeyError, match="unknown entity"):
        st.query(subject="Nobody")
    with pytest.raises(ValueError):
        st.query(subject="A", order="sideways")
    # the loop oracle agrees with the hand-checked answers too
    A = t.entity_id["A"]
    assert oracle.query_python(t, entity=A) == [4, 1, 5, 2, 0, 3]


def test_point_table_overlaps_equals_start_window():
    rows = [("A", "r", "B", d, d) for d in ("2010-01-01", "2010-01-02", "2010-01-03", "2010-01-04")]
    t = FactTable.from_rows(rows)
    st = FactStore(t)
    assert not t.is_interval
    ov = (D("2010-01-02"), D("2010-01-03"))
    assert st.query(overlaps=ov).tolist() == [1, 2]
    assert st.query(overlaps=ov, start_min=D("2010-01-01")).tolist() == [1, 2]
    assert st.query(overlaps=ov, start_min=D("2010-01-03"), subject="A").tolist() == [2]
    assert st.query(overlaps=ov, start_max=D("2010-01-02"), relation="r").tolist() == [1]


def synth_table(seed: int, n: int = 3000, n_ent: int = 40, n_rel: int = 7, interval: bool = True) -> FactTable:
    rng = np.random.default_rng(seed)
    base = D("2010-01-01")
    rows = []
    for _ in range(n):
        s, o = rng.integers(0, n_ent, 2)
        if rng.random() < 0.02:
            o = s  # self-loops
        st = base + int(rng.integers(0, 400))
        dur = int(rng.integers(0, 60)) if interval and rng.random() < 0.3 else 0
        rows.append((f"E{s}", f"rel_{rng.integers(0, n_rel)}", f"E{o}",
                     dt.date.fromordinal(st).isoformat(), dt.date.fromordinal(st + dur).isoformat()))
    rows += rows[:50]  # exact duplicates get distinct ids
    return FactTable.from_rows(rows)


def random_spec(rng, t: FactTable) -> dict:
    f = int(rng.integers(0, t.num_facts))
    s, r, o, st = int(t.s[f]), int(t.r[f]), int(t.o[f]), int(t.start[f])
    kw: dict = {}
    form = int(rng.integers(0, 9))
    if form == 0:
        kw.update(subject=s, relation=r)
    elif form == 1:
        kw.update(relation=r, object=o)
    elif form == 2:
        kw.update(subject=s, object=o)
    elif form == 3:
        kw.update(subject=s)
    elif form == 4:
        kw.update(object=o)
    elif form == 5:
        kw.update(relation=r)
    elif form == 6:
        kw.update(entity=[s, o][int(rng.integers(0, 2))])
        extra = int(rng.integers(0, 4))
        if extra == 1:
            kw["subject"] = s
        elif extra == 2:
            kw["object"] = o
        elif extra == 3:
            kw["relation"] = r
    elif form == 7:
        kw.update(subject=s, relation=r, object=o)
    # form 8: no key at all (time-only scan)
    if rng.random() < 0.3:
        rels = sorted({r, *rng.integers(0, len(t.relations), int(rng.integers(0, 3))).tolist()})
        if "relation" in kw or form in (3, 4, 8):
            kw["relation"] = rels
    if rng.random() < 0.5:
        kw["start_max"] = st + int(rng.integers(-30, 30))
    if rng.random() < 0.5:
        kw["start_min"] = st - int(rng.integers(-30, 60))
    if rng.random() < 0.35:
        lo = st + int(rng.integers(-40, 40))
        kw["overlaps"] = (lo, lo + int(rng.integers(0, 50)))
    if rng.random() < 0.5:
        kw["order"] = "desc"
    if rng.random() < 0.4:
        kw["limit"] = int(rng.integers(0, 6))
    return kw


@pytest.mark.parametrize("interval", [False, True])
def test_store_matches_oracle_on_random_queries(interval):
    t = synth_table(seed=7 + interval, interval=interval)
    assert t.is_interval == interval
    store = FactStore(t)
    rng = np.random.default_rng(123)
    specs = [random_spec(rng, t) for _ in range(3000)]
    nonempty = 0
    for kw in specs:
        got = store.query(**kw)
        want = oracle.query(t, **kw)
        assert got.dtype == np.int64
        assert np.array_equal(got, want), kw
        nonempty += len(want) > 0
    assert nonempty > 1500  # the random queries mostly hit something
    # batch form equals one-by-one
    batch = store.query_many([QuerySpec(**kw) for kw in specs[:300]])
    assert all(np.array_equal(b, oracle.query(t, **kw)) for b, kw in zip(batch, specs[:300]))
    for _ in range(300):
        a, b = rng.integers(0, len(t.entities), 2).tolist()
        both = bool(rng.random() < 0.7)
        kw = {"start_max": int(t.start[rng.integers(0, t.num_facts)])} if rng.random() < 0.5 else {}
        assert np.array_equal(store.facts_between(a, b, both, **kw), oracle.facts_between(t, a, b, both, **kw))


def test_numpy_oracle_matches_loop_oracle():
    t = synth_table(seed=3, n=400, n_ent=12, n_rel=4)
    rng = np.random.default_rng(5)
    for _ in range(300):
        kw = random_spec(rng, t)
        assert oracle.query(t, **kw).tolist() == oracle.query_python(t, **kw), kw


def test_sharded_partitions_answer_their_share():
    """A store over a subject/object partition answers exactly the partition's facts
    (what each shard actor relies on)."""
    t = synth_table(seed=11)
    full = FactStore(t)
    s_half = np.flatnonzero(t.s % 2 == 0)
    o_half = np.flatnonzero(t.o % 2 == 0)
    part = FactStore(t, s_facts=s_half, o_facts=o_half)
    for e in range(0, 40, 2):
        assert np.array_equal(part.query(subject=e), full.query(subject=e))
        assert np.array_equal(part.query(object=e, start_max=D("2010-06-01")), full.query(object=e, start_max=D("2010-06-01")))
    r_all = full.query(relation=1)
    assert np.array_equal(part.query(relation=1), r_all[t.s[r_all] % 2 == 0])


@pytest.mark.realkg
def test_real_kg_store_matches_oracle(real_kg_table):
    t = real_kg_table
    store = FactStore(t)
    st = store.stats()
    assert st["sr"]["keys"] == 54_117 and st["ro"]["keys"] == 51_332  # platform notes
    assert st["sr"]["max_list"] == 4_289 and st["s"]["max_list"] == 23_138
    rng = np.random.default_rng(0)
    for _ in range(400):
        kw = random_spec(rng, t)
        assert np.array_equal(store.query(**kw), oracle.query(t, **kw)), kw


def test_query_batch_matches_oracle():
    t = synth_table(seed=17, interval=True)
    store = FactStore(t)
    rng = np.random.default_rng(2)
    n = 400
    f = rng.integers(0, t.num_facts, n)
    s, r, o = t.s[f].astype(np.int64), t.r[f].astype(np.int64), t.o[f].astype(np.int64)
    s[:5] = [-1, 999, 0, 1, 2]  # ids the KG lacks match nothing
    lo = t.start[f] - rng.integers(-20, 40, n)
    hi = t.start[f] + rng.integers(-20, 40, n)
    for keys in ({"subject": s, "relation": r}, {"relation": r, "object": o}, {"subject": s, "object": o},
                 {"subject": s}, {"object": o}, {"relation": r}):
        res = store.query_batch(**keys, start_min=lo, start_max=hi)
        assert len(res) == n
        for i in range(n):
            kw = {k: int(v[i]) for k, v in keys.items()}
            want = oracle.query(t, **kw, start_min=int(lo[i]), start_max=int(hi[i])) if min(kw.values()) >= 0 else []
            assert res[i].tolist() == list(want), (keys.keys(), i)
        assert res.counts.sum() == sum(len(x) for x in res.to_list())
    only_max = store.query_batch(subject=s[5:], relation=r[5:], start_max=int(t.start.max()))
    assert [len(x) for x in only_max.to_list()] == [len(store.query(subject=int(a), relation=int(b))) for a, b in zip(s[5:], r[5:])]
    with pytest.raises(ValueError):
        store.query_batch(subject=s, relation=r, object=o)


def test_posting_index_packed_and_fallback_sorts_agree():
    """The packed-int64 sort and the stable-argsort fallback (keys too wide to pack) give the
    same (key, start, id) order, and the CSR view lists every fact once."""
    from tkgqa_ray.kg.index import PostingIndex

    rng = np.random.default_rng(4)
    n = 5000
    key = rng.integers(0, 50, n)
    start = rng.integers(730_000, 730_100, n).astype(np.int32)
    fids = np.sort(rng.choice(n, 3000, replace=False))
    a = PostingIndex.build("k", key, start, fids)
    b = PostingIndex.build("k", key + (1 << 40), start, fids)  # 41 + 7 + 13 bits > 63 → fallback
    want = fids[np.lexsort((fids, start[fids], key[fids]))]
    assert np.array_equal(a.ids, want) and np.array_equal(b.ids, want)
    assert np.array_equal(a.comb, (key[want].astype(np.int64) << 32) | start[want])
    assert np.array_equal(a.offsets, b.offsets) and np.array_equal(a.keys + (1 << 40), b.keys)
    assert sum(len(a.list_of(int(k))) for k in a.keys) == len(fids)
    assert a.list_of(999).tolist() == []


def test_per_table_caches_are_keyed_by_content_not_by_id():
    """Derived-data caches (``kg.table.table_cache_key``): the same facts share one entry; other
    facts get their own, even when the first table is gone and its id() is handed on."""
    import gc

    from tkgqa_ray.kg.table import table_cache_key
    from tkgqa_ray.methods.scop.evidence import place_members
    from tkgqa_ray.methods.scop.triple_index import TripleIndex

    kenya = [("Police_(Kenya)", "Arrest", "Citizen_(Kenya)", "2010-01-01", "2010-01-01")]
    peru = [("Police_(Peru)", "Arrest", "Citizen_(Peru)", "2010-01-01", "2010-01-01")]
    a, b = FactTable.from_rows(kenya), FactTable.from_rows(kenya)
    assert table_cache_key(a) == table_cache_key(b) == a.content_hash
    assert place_members(a) is place_members(b) and TripleIndex.for_table(a) is TripleIndex.for_table(b)
    ken = {k: v.tolist() for k, v in place_members(a).items()}
    assert ken == {"KEN": [0, 1]}  # Police_(Kenya), Citizen_(Kenya)
    del a, b
    gc.collect()
    seen = []
    for _ in range(20):  # new tables, some of which get a freed id: never the old entry
        t = FactTable.from_rows(peru)
        seen.append(id(t))
        assert {k: v.tolist() for k, v in place_members(t).items()} == {"PER": [0, 1]}
    assert table_cache_key(object()) is not None  # a table-like object without a hash: itself
