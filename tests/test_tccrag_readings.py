"""TCC-RAG candidate readings: the grounded relation candidates (lexicon + embedding, with
direction) are tried in score order and the first whose causal chain is non-empty answers;
the trace records that reading. Tiny hand-built KG, hand-checked answers."""

from __future__ import annotations

import pytest

from tkgqa_ray.kg import FactStore
from tkgqa_ray.methods.tccrag.method import TCCRAG

from test_scop_readings import ROWS


class CountingStore(FactStore):
    def __init__(self, table):
        super().__init__(table)
        self.batches = 0
        self.single = 0

    def query_many(self, specs):
        self.batches += 1
        return super().query_many(specs)

    def query(self, *a, **kw):
        self.single += 1
        return super().query(*a, **kw)


@pytest.fixture(scope="module")
def ctx(make_symbolic_ctx):
    return make_symbolic_ctx(ROWS, encoder="hashing", store=CountingStore)


def run(ctx, qs):
    return TCCRAG(ctx)([{"quid": str(i), "question": q, "trace": {}} for i, q in enumerate(qs)])


def test_the_kg_decides_between_relation_readings(ctx):
    (row,) = run(ctx, ["Who did China meet with in 2010?"])
    assert row["predictions"][:1] == ["India"], row["trace"]
    chain = row["trace"]["chain"]
    assert chain["reading"]["relation"] == "Meet_at_a_'third'_location" and chain["reading"]["index"] >= 1
    assert chain["tried"][0]["chain"] == 0  # the better-scored Consult reading had no chain in 2010


def test_swapped_direction_reading(ctx):
    (row,) = run(ctx, ["Who received a visit from Japan in 2010?"])
    assert row["predictions"][:1] == ["Kenya"], row["trace"]
    rd = row["trace"]["chain"]["reading"]
    assert (rd["relation"], rd["swap"]) == ("Make_a_visit", True)
    assert row["trace"]["parse"]["relations"][rd["index"]] == "<> Make_a_visit"


def test_paraphrases_through_wrappers(ctx):
    out = run(ctx, [
        "Could you tell me the exact month when Peru wanted to negotiate with Kenya?",
        "Do you know in which year Peru negotiated with Kenya?",
        "Can you tell me who condemned Peru?",
    ])
    assert [r["predictions"][:1] for r in out] == [["2013-02"], ["2014"], ["Kenya"]], [r["trace"] for r in out]


def test_candidate_readings_are_fetched_in_one_batched_call(ctx):
    store = ctx.store
    b0, s0 = store.batches, store.single
    run(ctx, ["Who did China meet with in 2010?", "Who received a visit from Japan in 2010?",
              "Who did China praise?"])
    assert store.batches - b0 == 1  # one query_many for the batch's readings
    assert store.single - s0 == 0  # no per-question store calls on the structured path


def test_relation_phrases_of_a_batch_are_grounded_in_one_search(ctx, monkeypatch):
    calls = []
    real = ctx.embeddings.search

    def counting(index, queries, k=10):
        if index == "relation":
            calls.append(list(queries))
        return real(index, queries, k)

    monkeypatch.setattr(ctx.embeddings, "search", counting)
    run(ctx, ["Who did Kenya denounce in 2012?", "Who lauded Peru?", "When did Peru hold negotiations with Kenya?"])
    assert len(calls) == 1 and len(calls[0]) == 3, calls
