"""Disk cache and query LRU: a second build reads the cache and never reaches the encoder."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tkgqa_ray.embed.cache import CacheKey, EmbeddingCache, texts_hash
from tkgqa_ray.embed.hashing import HashingEncoder
from tkgqa_ray.embed.service import EmbeddingIndex, EmbeddingService, QueryLRU

CORPORA = {
    "entity": ["Barack Obama", "Iran", "Angela Merkel", "Japan", "United States"],
    "relation": ["Make statement", "Host a visit", "Criticize or denounce"],
}


def test_texts_hash_is_order_and_boundary_sensitive():
    assert texts_hash(["a", "b"]) == texts_hash(["a", "b"])
    assert texts_hash(["a", "b"]) != texts_hash(["b", "a"])
    assert texts_hash(["ab"]) != texts_hash(["a", "b"])
    assert texts_hash([]) != texts_hash([""])


def test_put_get_roundtrip_and_atomicity(tmp_path):
    cache = EmbeddingCache(tmp_path)
    key = CacheKey("c" * 64, "some/model", "entity")
    assert cache.get(key) is None
    v = np.arange(12, dtype=np.float32).reshape(3, 4)
    cache.put(key, v, extra={"kg_content_hash": "abc"})
    np.testing.assert_array_equal(cache.get(key), v)
    npy, man = cache.paths(key)
    meta = json.loads(man.read_text())
    assert (meta["n"], meta["dim"], meta["model"], meta["kind"]) == (3, 4, "some/model", "entity")
    assert meta["kg_content_hash"] == "abc"
    assert sorted(p.name for p in npy.parent.iterdir()) == sorted([npy.name, man.name])
    # shape expectations from the caller turn a mismatching entry into a miss
    assert cache.get(key, n=4) is None and cache.get(key, dim=5) is None
    # other model / kind / content → different entry
    for other in (CacheKey("c" * 64, "other", "entity"), CacheKey("c" * 64, "some/model", "fact"),
                  CacheKey("d" * 64, "some/model", "entity")):
        assert cache.get(other) is None


def test_corrupt_or_half_written_entries_are_misses(tmp_path):
    cache = EmbeddingCache(tmp_path)
    key = CacheKey("e" * 64, "m", "entity")
    cache.put(key, np.ones((2, 3), np.float32))
    npy, man = cache.paths(key)
    npy.write_bytes(b"not a numpy file")
    assert cache.get(key) is None
    cache.put(key, np.ones((2, 3), np.float32))
    man.unlink()  # crash before the manifest commit
    assert cache.get(key) is None
    cache.put(key, np.ones((2, 3), np.float32))
    meta = json.loads(man.read_text())
    meta["n"] = 7
    man.write_text(json.dumps(meta))
    assert cache.get(key) is None


def test_second_service_does_not_reencode(tmp_path):
    enc = HashingEncoder(64)
    first = EmbeddingService(CORPORA, cache_dir=tmp_path, encoder=enc)
    assert enc.texts_encoded == 5 + 3
    assert not first.stats()["indices"]["entity"]["cache_hit"]
    enc2 = HashingEncoder(64)
    second = EmbeddingService(CORPORA, cache_dir=tmp_path, encoder=enc2)
    assert enc2.calls == 0  # nothing reached the encoder
    assert second.stats()["indices"]["entity"]["cache_hit"]
    np.testing.assert_array_equal(first.vectors("entity"), second.vectors("entity"))
    # a changed corpus misses (only the changed one is re-encoded)
    enc3 = HashingEncoder(64)
    EmbeddingService({**CORPORA, "entity": CORPORA["entity"] + ["Iraq"]}, cache_dir=tmp_path,
                     encoder=enc3)
    assert enc3.texts_encoded == 6


def test_cache_disabled(tmp_path):
    enc = HashingEncoder(32)
    EmbeddingService(CORPORA, cache_dir=False, encoder=enc)
    EmbeddingService(CORPORA, cache_dir=False, encoder=enc)
    assert enc.texts_encoded == 2 * 8


def test_trained_index_is_cached_too(tmp_path):
    rng = np.random.default_rng(0)
    texts = [f"entity {i} {rng.integers(1e9)}" for i in range(1200)]
    from tkgqa_ray.embed.faiss_index import IndexConfig

    cfg = IndexConfig(kind="ivf", nlist=8, min_rows_for_ann=1000)
    cache = EmbeddingCache(tmp_path)
    a = EmbeddingIndex.build(texts, HashingEncoder(32), cache, "big", cfg)
    faiss_files = list(tmp_path.rglob("*.faiss"))
    assert len(faiss_files) == 1
    b = EmbeddingIndex.build(texts, HashingEncoder(32), cache, "big", cfg)
    assert b.cache_hit
    for x, y in zip(a.index.search(a.vectors[:20], 5), b.index.search(a.vectors[:20], 5)):
        np.testing.assert_array_equal(x, y)


def test_query_lru_encodes_each_distinct_string_once():
    enc = HashingEncoder(32)
    lru = QueryLRU(max_size=2)
    v = lru.encode(["a b", "c d", "a b"], enc)
    assert enc.calls == 1 and enc.texts_encoded == 2  # duplicate within a batch: once
    np.testing.assert_array_equal(v[0], v[2])
    lru.encode(["a b"], enc)
    assert enc.calls == 1 and (lru.hits, lru.misses) == (1, 2)
    lru.encode(["e f"], enc)  # evicts the least recently used ("c d")
    lru.encode(["c d"], enc)
    assert enc.texts_encoded == 4 and len(lru) == 2
    np.testing.assert_array_equal(lru.encode(["c d"], enc)[0], v[1])


def test_unknown_index_is_a_clear_error(tmp_path):
    svc = EmbeddingService(CORPORA, cache_dir=tmp_path, encoder=HashingEncoder(32))
    with pytest.raises(KeyError, match="unknown embedding index 'fact'"):
        svc.search("fact", ["x"], 3)


class FailingEncoder(HashingEncoder):
    """Raises on the call numbered ``fail_on`` (1-based), like a killed worker mid-build."""

    def __init__(self, fail_on: int | None) -> None:
        super().__init__(32)
        self.fail_on = fail_on

    def encode(self, texts):
        if self.fail_on is not None and self.calls + 1 == self.fail_on:
            self.calls += 1
            raise RuntimeError("worker died")
        return super().encode(texts)


def test_interrupted_build_resumes_from_chunks(tmp_path, monkeypatch):
    import tkgqa_ray.embed.service as service

    monkeypatch.setattr(service, "ENCODE_CHUNK", 10)
    texts = [f"text number {i}" for i in range(45)]  # chunks of 10,10,10,10,5
    cache = EmbeddingCache(tmp_path)
    broken = FailingEncoder(fail_on=3)
    with pytest.raises(RuntimeError, match="worker died"):
        EmbeddingIndex.build(texts, broken, cache, "fact")
    assert broken.texts_encoded == 20
    resumed = FailingEncoder(fail_on=None)
    idx = EmbeddingIndex.build(texts, resumed, cache, "fact")
    assert resumed.texts_encoded == 25  # only the chunks that were not finished
    np.testing.assert_allclose(idx.vectors, HashingEncoder(32).encode(texts), atol=1e-6)
    assert not list(tmp_path.rglob("*.partial"))  # checkpoints removed once stored
    again = FailingEncoder(fail_on=1)
    assert EmbeddingIndex.build(texts, again, cache, "fact").cache_hit


def test_concurrent_builders_encode_once(tmp_path):
    import threading
    import time

    class Slow(HashingEncoder):
        def encode(self, texts):
            time.sleep(0.3)
            return super().encode(texts)

    enc = Slow(32)
    texts = ["a", "b", "c"]
    results = []

    def build():
        results.append(EmbeddingIndex.build(texts, enc, EmbeddingCache(tmp_path), "entity"))

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert enc.texts_encoded == 3  # the others waited on the lock and read the cache
    assert sorted(r.cache_hit for r in results) == [False, True, True]
