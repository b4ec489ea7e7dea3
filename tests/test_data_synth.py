"""KG synthesiser: determinism, round trip through the KG loader, event dynamics, intervals."""

from __future__ import annotations

import gzip
from collections import Counter
from datetime import date

import numpy as np

from tkgqa_ray.data.synth import SynthConfig, synth_rows, write_kg
from tkgqa_ray.kg import load_kg

SMALL = SynthConfig(seed=11, n_facts=4000, n_countries=20, n_persons=40, start="2010-01-01", end="2011-12-31")


def test_deterministic_bytes_and_seed_sensitivity(tmp_path):
    a = write_kg(synth_rows(SMALL), tmp_path / "a" / "full.txt.gz").read_bytes()
    b = write_kg(synth_rows(SMALL), tmp_path / "b" / "full.txt.gz").read_bytes()
    assert a == b
    c = synth_rows(SynthConfig(**{**SMALL.__dict__, "seed": 12}))
    assert c != synth_rows(SMALL)


def test_round_trip_through_loader(tmp_path):
    rows = synth_rows(SMALL)
    assert len(rows) == SMALL.n_facts
    assert any('"' in r[0] or '"' in r[2] for r in rows)  # the CSV-quoted name is used
    assert any("_(" in r[0] for r in rows)  # Citizen_(X)-style names
    path = write_kg(rows, tmp_path / "kg" / "full.txt.gz", crlf=True)
    assert b"\r\n" in gzip.decompress(path.read_bytes())
    t = load_kg(path)
    back = [(f.subject, f.relation, f.object, date.fromordinal(f.start).isoformat()) for f in t.facts(range(t.num_facts))]
    assert back == rows
    assert not t.is_interval
    lo, hi = date.fromisoformat(SMALL.start).toordinal(), date.fromisoformat(SMALL.end).toordinal()
    assert lo <= int(np.min(t.start)) and int(np.max(t.start)) <= hi


def test_event_dynamics_look_like_icews():
    rows = synth_rows(SMALL)
    actors = Counter([r[0] for r in rows] + [r[2] for r in rows])
    assert 120 <= len(actors) <= 400  # SMALL has 152 actors; nearly all take part
    # heavy tail: the top 10% of actors take part in far more than 10% of events
    counts = sorted(actors.values(), reverse=True)
    assert sum(counts[: len(counts) // 10]) > 0.3 * sum(counts)
    # recurring pairs: many (s, o) pairs interact on several distinct days
    pair_days: dict[tuple[str, str], set[str]] = {}
    for s, _, o, d in rows:
        pair_days.setdefault((s, o), set()).add(d)
    assert sum(1 for v in pair_days.values() if len(v) >= 5) >= 50
    # every visit has its host-a-visit mirror on the same day
    facts = set(rows)
    visits = [r for r in rows if r[1] == "Make_a_visit"]
    assert visits and all((o, "Host_a_visit", s, d) in facts for s, _, o, d in visits)
    # bursts: daily counts are over-dispersed (variance well above a Poisson's mean)
    daily = np.array(list(Counter(r[3] for r in rows).values()), dtype=float)
    assert daily.var() > 1.5 * daily.mean()


def test_interval_mode(tmp_path):
    cfg = SynthConfig(seed=3, interval=True, n_countries=10, n_persons=40, start="2000-01-01", end="2010-12-31")
    rows = synth_rows(cfg)
    assert rows == synth_rows(cfg) and all(len(r) == 5 for r in rows)
    t = load_kg(write_kg(rows, tmp_path / "kg" / "full.txt.gz"))
    assert t.is_interval and t.num_facts == len(rows)
    assert np.all(t.end >= t.start)
    assert np.any(t.start == t.end)  # point facts (awards) mixed in
    # successive office holders: each term ends the day the next one starts
    office = "President_of_China"
    terms = sorted((r[3], r[4]) for r in rows if r[1] == "Hold_office" and r[2] == office)
    assert len(terms) >= 2 and all(terms[i][1] == terms[i + 1][0] for i in range(len(terms) - 1))
