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


# ----------------------------------------------------------------------------- entity readings
# "the Chilean government" is, by the actor grammar over these names, Government_(Chile)
# (1.0), Chile (0.6: ICEWS often codes the state) or Head_of_Government_(Chile) (0.5, below
# the alternatives' floor of 0.6).
ACTOR_ROWS = [
    ("Government_(Chile)", "Praise_or_endorse", "Peru", "2009-01-01"),
    ("Government_(Chile)", "Criticize_or_denounce", "Peru", "2010-05-05"),
    ("Chile", "Criticize_or_denounce", "Bolivia", "2012-07-04"),
    ("Head_of_Government_(Chile)", "Criticize_or_denounce", "Argentina", "2013-03-01"),
    ("Bolivia", "Criticize_or_denounce", "Chile", "2014-01-01"),
    ("Citizen_(Chile)", "Criticize_or_denounce", "Argentina", "2011-01-01"),
]


@pytest.fixture(scope="module")
def actx(make_symbolic_ctx):
    return make_symbolic_ctx(ACTOR_ROWS, encoder="hashing", store=CountingStore)


def test_the_kg_decides_between_entity_candidates(actx):
    out = run(actx, ["Who did the Chilean government criticise in 2012?",
                     "Who did the Chilean government criticise in 2010?",
                     "Who criticised the Chilean government in 2014?"])
    assert [r["predictions"][:1] for r in out] == [["Bolivia"], ["Peru"], ["Bolivia"]], [r["trace"] for r in out]
    assert all(r["answered_by"] == "structured:scci" or r["answered_by"] == "structured:occi" for r in out)
    er = [r["trace"]["chain"]["reading"]["entity_reading"] for r in out]
    # 2012: only the state criticised anyone that year; the subject slot's alternative answered
    assert (er[0]["index"], er[0]["changed"], er[0]["subject"]) == (1, "subject", "Chile")
    assert er[0]["of"] == 2  # Head_of_Government_(Chile) scores under the floor: no reading
    assert out[0]["trace"]["chain"]["tried"][0]["chain"] == 0  # the primary reading was tried first
    # 2010: the primary reading has a chain and answers
    assert (er[1]["index"], er[1]["changed"], er[1]["subject"]) == (0, None, "Government_(Chile)")
    # the object slot's alternatives are readings too
    assert (er[2]["index"], er[2]["changed"], er[2]["object"]) == (1, "object", "Chile")
    assert out[0]["trace"]["parse"]["entity_candidates"]["subject"][:2] == ["Government_(Chile)", "Chile"]


def test_below_the_floor_no_reading_answers(actx):
    # only Head_of_Government_(Chile) criticised anyone in 2013: that candidate is not tried
    (row,) = run(actx, ["Who did the Chilean government criticise in 2013?"])
    assert not row["answered_by"].startswith("structured"), row["trace"]
    assert {t.get("entity_reading", 0) for t in row["trace"]["chain"]["tried"]} == {0, 1}


def test_entity_readings_are_fetched_in_the_batch_call(actx):
    store = actx.store
    b0, s0 = store.batches, store.single
    run(actx, ["Who did the Chilean government criticise in 2012?", "Who criticised the Chilean government in 2014?",
               "Who did the Chilean government praise?"])
    assert store.batches - b0 == 1  # one query_many for every entity x relation reading of the batch
    assert store.single - s0 == 0


def test_entity_readings_primary_first_one_slot_at_a_time():
    from tkgqa_ray.methods.tccrag.method import MAX_ENTITY_READINGS, entity_readings
    from tkgqa_ray.methods.tccrag.state import EntityReading

    rs = entity_readings({"subject": [[1, 1.0], [2, 0.7], [3, 0.65], [4, 0.9]], "object": [[5, 1.0], [6, 0.8]],
                          "reference:0": [[7, 1.0]]})
    assert rs[0] == EntityReading(subject=1, object=5, reference=(7,), changed=None, score=1.0)
    # alternatives: ALT_PER_SLOT (3) candidates per slot counting the best (4 is the fourth: out),
    # one slot changed at a time, best score first
    assert [(r.changed, r.subject, r.object, r.score) for r in rs[1:]] == [
        ("object", 1, 6, 0.8), ("subject", 2, 5, 0.7), ("subject", 3, 5, 0.65)]
    assert all(r.reference == (7,) for r in rs)
    assert entity_readings({"subject": [[1, 1.0], [2, 0.59]], "object": None}) == [
        EntityReading(subject=1, object=None, reference=(), changed=None, score=1.0)]
    many = entity_readings({f"reference:{j}": [[10 * j, 1.0], [10 * j + 1, 0.9], [10 * j + 2, 0.8]] for j in range(4)})
    assert len(many) == MAX_ENTITY_READINGS and many[0].reference == (0, 10, 20, 30)


def test_arbiter_keeps_actor_references_written_through_their_surface():
    from tkgqa_ray.methods.tccrag.parsing import symbolic_arbiter

    q = "Before the Thai citizens sent aid to Thailand, when did citizens from Thailand last meet Reaksmei Kampuchea?"
    inp = {"question": q, "path_a": ["Citizen (Thailand)", "Reaksmei Kampuchea"],
           "path_b": ["Thailand", "Reaksmei Kampuchea"],
           "surfaces": {"Citizen (Thailand)": ["the Thai citizens", "citizens from Thailand"],
                        "Thailand": ["Thailand"], "Reaksmei Kampuchea": ["Reaksmei Kampuchea"]}}
    # Thailand is also written on its own ("aid to Thailand"): kept with the actor
    assert symbolic_arbiter(inp)["entities"] == ["Citizen (Thailand)", "Reaksmei Kampuchea", "Thailand"]
    q2 = "When did citizens from Thailand meet Reaksmei Kampuchea?"
    inp2 = {**inp, "question": q2, "surfaces": {**inp["surfaces"], "Citizen (Thailand)": ["citizens from Thailand"]}}
    # every "Thailand" lies inside the actor reference: the country alone is not meant
    assert symbolic_arbiter(inp2)["entities"] == ["Citizen (Thailand)", "Reaksmei Kampuchea"]
    # without surfaces (an old caller), only verbatim names count, as before
    assert symbolic_arbiter({k: v for k, v in inp2.items() if k != "surfaces"})["entities"] == ["Reaksmei Kampuchea", "Thailand"]


def test_actor_reference_survives_arbitration_end_to_end(actx):
    (row,) = run(actx, ["Who did citizens from Chile criticise?"])
    g = row["trace"]["grounding"]
    assert g["agree"] is False and g["path_a"] == ["Citizen (Chile)"] and g["path_b"] == ["Chile"]
    assert row["trace"]["parse"]["entities"] == ["Citizen (Chile)"]
    assert row["predictions"][:1] == ["Argentina"], row["trace"]
