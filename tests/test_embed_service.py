"""EmbeddingService over a FactTable with the real packaged MiniLM (loaded once per module)."""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.embed.encoder import (
    EncoderUnavailableError,
    load_encoder,
    resolve_model_source,
)
from tkgqa_ray.embed.service import EmbeddingService, fact_texts
from tkgqa_ray.kg import FactTable

ROWS = [
    ("Barack_Obama", "Make_statement", "Iran", "2010-05-01"),
    ("Barack_Obama", "Host_a_visit", "Angela_Merkel", "2011-01-02"),
    ("Iran", "Criticize_or_denounce", "United_States", "2012-03-04"),
    ("Barack_Obama", "Make_statement", "Iran", "2013-07-08"),  # same triple, another day
    ("Angela_Merkel", "Express_intent_to_meet_or_negotiate", "Japan", "2014-02-02"),
]


@pytest.fixture(scope="module")
def encoder():
    return load_encoder()  # the packaged all-MiniLM-L6-v2, offline


@pytest.fixture(scope="module")
def table():
    return FactTable.from_rows(ROWS)


@pytest.fixture()
def svc(table, encoder, tmp_path):
    return EmbeddingService(table, cache_dir=tmp_path, encoder=encoder)


def test_encoder_output_is_normalised_float32(encoder):
    v = encoder.encode(["Barack Obama", "a much longer sentence about a visit to Japan", ""])
    assert v.dtype == np.float32 and v.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert encoder.encode([]).shape == (0, 384)
    assert load_encoder() is encoder  # memoised: one model per process


def test_entity_ids_are_table_ids_and_exact_queries_hit_themselves(svc, table):
    assert svc.size("entity") == len(table.entities)
    names = [table.display(e) for e in table.entities]
    scores, ids = svc.search("entity", names, k=3)
    np.testing.assert_array_equal(ids[:, 0], np.arange(len(names)))
    np.testing.assert_allclose(scores[:, 0], 1.0, atol=1e-4)
    scores, ids = svc.search("relation", [table.display(r) for r in table.relations], k=1)
    np.testing.assert_array_equal(ids[:, 0], np.arange(len(table.relations)))


def test_similar_entities_returns_kg_names(svc, table):
    hits = svc.similar_entities("Barack Obama", k=len(table.entities))
    assert hits[0][1] == "Barack_Obama" and hits[0][0] == table.entity_id["Barack_Obama"]
    rank = {name: r for r, (_, name, _) in enumerate(hits)}
    assert rank["Barack_Obama"] < rank["Iran"]
    score = {name: s for _, name, s in hits}
    assert score["Barack_Obama"] > score["Iran"]
    assert [h[1] for h in svc.similar_entities("Barack Obama", k=5, threshold=0.99)] == ["Barack_Obama"]
    assert all(s >= 0.2 for *_, s in svc.similar_entities("Obama", k=5, threshold=0.2))


def test_vector_queries_equal_string_queries_and_similarity(svc):
    q = ["Obama", "Germany chancellor"]
    s1, i1 = svc.search("entity", q, 4)
    s2, i2 = svc.search("entity", svc.encode(q) * 3.0, 4)  # un-normalised vectors are normalised
    np.testing.assert_array_equal(i1, i2)
    np.testing.assert_allclose(s1, s2, atol=1e-5)
    sim = svc.similarity("entity", q, i1[0])
    np.testing.assert_allclose(sim[0], s1[0], atol=1e-5)
    with pytest.raises(IndexError):
        svc.similarity("entity", q, [99])


def test_fact_index_is_lazy_and_over_distinct_triples(svc, table):
    assert svc.is_built("entity") and svc.is_built("relation")
    assert not svc.is_built("fact")
    texts = fact_texts(table)
    assert len(texts) == table.num_triples == 4  # 5 facts, one repeated triple
    assert texts == [table.triple_text(t) for t in range(table.num_triples)]
    query = "Barack Obama Make statement Iran"
    scores, ids = svc.search("fact", [query], 2)
    assert svc.is_built("fact")
    assert texts[ids[0, 0]] == query and scores[0, 0] == pytest.approx(1.0, abs=1e-4)
    facts = table.facts(table.facts_of_triples(ids[0, :1]))
    assert [f.start for f in facts] == sorted(f.start for f in facts) and len(facts) == 2


def test_cache_reused_across_services(table, encoder, tmp_path):
    EmbeddingService(table, cache_dir=tmp_path, encoder=encoder, fact_index=True)
    again = EmbeddingService(table, cache_dir=tmp_path, encoder=encoder, fact_index=True)
    assert all(v["cache_hit"] for v in again.stats()["indices"].values())
    assert set(again.stats()["indices"]) == {"entity", "relation", "fact"}


def test_query_lru_in_service(svc):
    svc.encode(["Iran", "Japan"])
    svc.search("entity", ["Iran", "Japan", "Iran"], 2)
    st = svc.stats()["query_cache"]
    assert st["misses"] == 2 and st["hits"] == 3


def test_offline_hub_name_not_cached_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # an empty cache
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(EncoderUnavailableError, match="not in the local Hugging Face cache"):
        resolve_model_source("tkgqa-ray-tests/no-such-model")
    with pytest.raises(EncoderUnavailableError, match="does not exist"):
        load_encoder("./no/such/model")
    (tmp_path / "empty").mkdir()
    with pytest.raises(EncoderUnavailableError, match="no sentence-transformers model"):
        load_encoder(str(tmp_path / "empty"))
