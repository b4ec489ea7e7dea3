"""FAISS inner-product indices against a brute-force numpy oracle (no model needed)."""

from __future__ import annotations

import numpy as np
import pytest

from tkgqa_ray.embed.encoder import l2_normalise
from tkgqa_ray.embed.faiss_index import IndexConfig, VectorIndex, faiss_gpu_count


def unit(n: int, d: int, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, d)).astype(np.float32)
    return l2_normalise(x)


def oracle_topk(x: np.ndarray, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    sims = q.astype(np.float64) @ x.astype(np.float64).T
    ids = np.argsort(-sims, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(sims, ids, axis=1), ids


def test_l2_normalise_rows_and_zero_rows():
    x = np.array([[3.0, 4.0], [0.0, 0.0], [-2.0, 0.0]])
    y = l2_normalise(x)
    assert y.dtype == np.float32 and y.flags.c_contiguous
    np.testing.assert_allclose(y, [[0.6, 0.8], [0.0, 0.0], [-1.0, 0.0]], rtol=1e-6)
    assert l2_normalise(np.array([0.0, 2.0])).shape == (1, 2)


@pytest.mark.parametrize("search_batch", [4096, 7])  # 7: many batches with a ragged tail
def test_flat_matches_bruteforce(search_batch):
    x, q = unit(500, 24, 1), unit(53, 24, 2)
    idx = VectorIndex.build(x, IndexConfig(search_batch=search_batch))
    scores, ids = idx.search(q, 10)
    want_s, want_i = oracle_topk(x, q, 10)
    assert scores.shape == ids.shape == (53, 10) and ids.dtype == np.int64
    np.testing.assert_allclose(scores, want_s, atol=1e-5)
    # the returned ids are a valid top-k: their true similarities are the oracle's top-k
    true = (q.astype(np.float64) @ x.astype(np.float64).T)[np.arange(len(q))[:, None], ids]
    np.testing.assert_allclose(true, want_s, atol=1e-5)
    assert all(len(set(r)) == 10 for r in ids.tolist())
    assert (ids[:, 0] == want_i[:, 0]).all()
    assert np.all(np.diff(scores, axis=1) <= 1e-6)  # best first


def test_self_query_is_top_with_score_one():
    x = unit(300, 16, 3)
    scores, ids = VectorIndex.build(x).search(x, 1)
    np.testing.assert_array_equal(ids[:, 0], np.arange(300))
    np.testing.assert_allclose(scores[:, 0], 1.0, atol=1e-5)


def test_k_clamped_to_size_and_empty_cases():
    x = unit(4, 8)
    s, i = VectorIndex.build(x).search(x[:2], 10)
    assert s.shape == i.shape == (2, 4)
    assert sorted(i[0].tolist()) == [0, 1, 2, 3]
    s, i = VectorIndex.build(np.zeros((0, 8), np.float32)).search(x, 5)
    assert s.shape == (4, 0)
    s, i = VectorIndex.build(x).search(np.zeros((0, 8), np.float32), 3)
    assert s.shape == (0, 3)
    with pytest.raises(ValueError, match="k must be"):
        VectorIndex.build(x).search(x, 0)
    with pytest.raises(ValueError, match="dim"):
        VectorIndex.build(x).search(unit(1, 9), 1)


def test_ivf_finds_exact_duplicates_and_hnsw_recall():
    x = unit(2000, 16, 4)
    cfg = dict(min_rows_for_ann=1000, nlist=16, nprobe=2)
    ivf = VectorIndex.build(x, IndexConfig(kind="ivf", **cfg))
    assert type(ivf.index).__name__.startswith("IndexIVF") or ivf.on_gpu
    # A stored vector's own cell is its query's best cell, so IVF always finds it.
    s, i = ivf.search(x[:200], 3)
    np.testing.assert_array_equal(i[:, 0], np.arange(200))
    hnsw = VectorIndex.build(x, IndexConfig(kind="hnsw", **cfg))
    q = unit(200, 16, 5)
    _, got = hnsw.search(q, 10)
    _, want = oracle_topk(x, q, 10)
    recall = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(got.tolist(), want.tolist())])
    assert recall >= 0.9


def test_small_corpus_falls_back_to_flat():
    idx = VectorIndex.build(unit(100, 8), IndexConfig(kind="ivf"))  # default min_rows 50k
    assert type(idx.index).__name__ in ("IndexFlatIP", "GpuIndexFlatIP")


def test_save_load_roundtrip(tmp_path):
    x, q = unit(200, 12, 6), unit(9, 12, 7)
    idx = VectorIndex.build(x)
    idx.save(tmp_path / "a.faiss")
    again = VectorIndex.load(tmp_path / "a.faiss")
    assert again.ntotal == 200 and again.dim == 12
    for a, b in zip(idx.search(q, 5), again.search(q, 5)):
        np.testing.assert_array_equal(a, b)
    assert [p.name for p in tmp_path.iterdir()] == ["a.faiss"]  # no temp files left


def test_config_validation():
    with pytest.raises(ValueError, match="kind"):
        IndexConfig(kind="lsh")
    with pytest.raises(ValueError, match="unknown index config keys"):
        IndexConfig.from_dict({"knd": "flat"})
    assert IndexConfig.from_dict({"kind": "hnsw"}).kind == "hnsw"


@pytest.mark.skipif(faiss_gpu_count() > 0, reason="a GPU is present")
def test_gpu_on_without_gpu_is_a_clear_error():
    with pytest.raises(RuntimeError, match="no GPU support"):
        VectorIndex.build(unit(10, 4), IndexConfig(gpu="on"))


@pytest.mark.parametrize("kind", ["flat", "ivf", "hnsw"])
def test_reconstruct_returns_stored_rows(kind, tmp_path):
    x = unit(1500, 8, 8)
    idx = VectorIndex.build(x, IndexConfig(kind=kind, min_rows_for_ann=1000, nlist=8))
    ids = np.array([0, 1499, 7, 7])
    np.testing.assert_array_equal(idx.reconstruct(ids), x[ids])
    idx.save(tmp_path / "i.faiss")
    np.testing.assert_array_equal(VectorIndex.load(tmp_path / "i.faiss").reconstruct(ids), x[ids])
    with pytest.raises(IndexError):
        idx.reconstruct(np.array([1500]))
