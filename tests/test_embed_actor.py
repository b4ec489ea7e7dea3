"""The Ray actor + client give the same answers as the in-process service."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from tkgqa_ray.embed.service import EmbeddingService
from tkgqa_ray.kg import FactTable

ROWS = [
    ("Barack_Obama", "Make_statement", "Iran", "2010-05-01"),
    ("Barack_Obama", "Host_a_visit", "Angela_Merkel", "2011-01-02"),
    ("Iran", "Criticize_or_denounce", "United_States", "2012-03-04"),
    ("Angela_Merkel", "Make_statement", "Japan", "2014-02-02"),
]

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def table():
    return FactTable.from_rows(ROWS)


# The model-free encoder keeps this test to seconds; the same actor code path with MiniLM is
# what every pipeline test with the default config runs (tests/test_pipeline_*.py), and the
# model itself is tested in-process in test_embed_service.py.
@pytest.mark.parametrize("encoder_name", ["hashing-64"])
def test_client_equals_in_process(ray_session, table, tmp_path, encoder_name):
    from tkgqa_ray.embed.actor import EmbeddingClient

    name = f"test-embed-{encoder_name}"
    client = EmbeddingClient.create(ray_session.put(table), name=name, encoder_name=encoder_name,
                                    cache_dir=tmp_path, num_cpus=0.5)
    try:
        local = EmbeddingService(table, encoder_name=encoder_name, cache_dir=tmp_path)
        assert client.model_name == local.model_name and client.dim == local.dim
        assert client.index_names() == ["entity", "relation", "fact"]
        queries = ["Obama", "Merkel", "Iran", "Obama"]
        np.testing.assert_allclose(client.encode(queries), local.encode(queries), atol=1e-5)
        for index in ("entity", "relation", "fact"):
            cs, ci = client.search(index, queries, 3)
            ls, li = local.search(index, queries, 3)
            np.testing.assert_array_equal(ci, li)
            np.testing.assert_allclose(cs, ls, atol=1e-5)
        got, want = client.similar_entities("Barack Obama", 2), local.similar_entities("Barack Obama", 2)
        assert [(i, n) for i, n, _ in got] == [(i, n) for i, n, _ in want]
        assert got[0][1] == "Barack_Obama"
        assert [s for *_, s in got] == pytest.approx([s for *_, s in want], abs=1e-5)
        assert client.is_built("fact") and client.size("fact") == table.num_triples
        # workers find it by name; a pickled client (Ray Data UDF state) works too
        by_name = EmbeddingClient.connect(name)
        again = pickle.loads(pickle.dumps(by_name))
        np.testing.assert_array_equal(again.search("entity", ["Japan"], 1)[1],
                                      local.search("entity", ["Japan"], 1)[1])
        # one query-cache miss per distinct string however many calls
        # Obama, Merkel, Iran, then "Barack Obama", then "Japan"
        assert client.stats()["query_cache"]["misses"] == 3 + 1 + 1
    finally:
        client.kill()


def test_connect_unknown_name_is_a_clear_error(ray_session):
    from tkgqa_ray.embed.actor import EmbeddingClient

    with pytest.raises(LookupError, match="no embedding service actor named 'nope'"):
        EmbeddingClient.connect("nope")
