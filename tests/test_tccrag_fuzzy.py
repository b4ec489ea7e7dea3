"""TCC-RAG's fuzzy grounding tier (path B's last fallback after the exact name and the
embedding cosine): rapidfuzz ``fuzz.ratio`` ≥ 0.85 over the folded KG names. Ratios below are
computed by hand: ratio = 2·LCS / (len a + len b) of the folded strings."""

from __future__ import annotations

import difflib
from types import SimpleNamespace

import numpy as np
import pytest

from tkgqa_ray.kg.table import FactTable
from tkgqa_ray.methods.tccrag.parsing import FUZZY_CUTOFF, _fuzzy, match_mention_candidates

ROWS = [
    ("Nouri_al-Maliki", "Make_a_visit", "Kenya", "2012-01-05"),
    ("Mahmoud_Ahmadinejad", "Make_a_visit", "Iraq", "2012-01-10"),
    ("Iran", "Host_a_visit", "Nouri_al-Maliki", "2012-02-01"),
]


class _NoEmbeddingHit:
    """An embedding service whose entity search never clears the 0.85 cosine: every
    non-exact mention reaches the fuzzy tier."""

    def search(self, index, queries, k=1):
        n = len(queries)
        return np.zeros((n, k), np.float32), np.full((n, k), -1, np.int64)


@pytest.fixture(scope="module")
def table():
    return FactTable.from_rows(ROWS)


def _name(table, i):
    return table.display(table.entities[i])


def test_a_misspelt_name_grounds(table):
    # "nouri al-malki" (14) vs "nouri al-maliki" (15): LCS 14 -> 28/29 = 0.9655
    hit = _fuzzy("Nouri al-Malki", table)
    assert hit is not None and _name(table, hit[0]) == "Nouri al-Maliki"
    assert hit[1] == pytest.approx(28 / 29)
    # "mahmud ahmadinejad" (18) vs "mahmoud ahmadinejad" (19): LCS 18 -> 36/37 = 0.973;
    # case and accents fold away ("Mahmúd" = "mahmud")
    hit = _fuzzy("Mahmúd AHMADINEJAD", table)
    assert hit is not None and _name(table, hit[0]) == "Mahmoud Ahmadinejad"
    assert hit[1] == pytest.approx(36 / 37)


def test_a_far_name_does_not_ground(table):
    # "ahmadinejad" (11) vs "mahmoud ahmadinejad" (19): LCS 11 -> 22/30 = 0.733 < 0.85
    assert _fuzzy("Ahmadinejad", table) is None
    # "kenia" vs "kenya": LCS "kena" 4 -> 8/10 = 0.80, one letter off a short name is too far
    assert _fuzzy("Kenia", table) is None
    assert _fuzzy("Atlantis", table) is None


def test_the_cutoff_is_difflibs_ratio_on_these_pairs(table):
    # the scorer keeps difflib ratio's meaning: both are 2·matches / total length, and on
    # these pairs Ratcliff/Obershelp finds the whole LCS, so the two scores are equal
    for mention, name in (("nouri al-malki", "nouri al-maliki"), ("mahmud ahmadinejad", "mahmoud ahmadinejad"),
                          ("ahmadinejad", "mahmoud ahmadinejad"), ("kenia", "kenya")):
        d = difflib.SequenceMatcher(None, mention, name).ratio()
        hit = _fuzzy(mention, table)
        assert (hit is not None) == (d >= FUZZY_CUTOFF), mention
        if hit is not None:
            assert hit[1] == pytest.approx(d)


def test_the_fuzzy_tier_in_hybrid_matching(table):
    ctx = SimpleNamespace(table=table, embeddings=_NoEmbeddingHit())
    got = {m: (cands, how) for m, cands, how in match_mention_candidates(
        ["Kenya", "Nouri al-Malki", "Ahmadinejad", "Atlantis"], ctx)}
    cands, how = got["Kenya"]
    assert how == "exact" and _name(table, cands[0][0]) == "Kenya"
    cands, how = got["Nouri al-Malki"]
    assert how == "fuzzy" and [(_name(table, e), round(s, 4)) for e, s in cands] == [("Nouri al-Maliki", 0.9655)]
    # a surname alone is below the fuzzy cutoff: the name-word tier after it grounds it (tccrag7)
    cands, how = got["Ahmadinejad"]
    assert how == "name_word" and [_name(table, e) for e, _ in cands] == ["Mahmoud Ahmadinejad"]
    assert got["Atlantis"] == ([], "none")
