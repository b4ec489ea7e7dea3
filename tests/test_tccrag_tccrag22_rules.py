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
