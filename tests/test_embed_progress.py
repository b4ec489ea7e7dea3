"""One-time builds report progress (board → poller → driver) and say where the result is cached."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tkgqa_ray.embed.cache import EmbeddingCache
from tkgqa_ray.embed.hashing import HashingEncoder
from tkgqa_ray.embed.progress import ProgressBoard, ProgressPoller, Reporter
from tkgqa_ray.embed.service import EmbeddingIndex


def test_build_reports_every_row_and_where_it_is_cached(tmp_path, monkeypatch):
    import tkgqa_ray.embed.service as service

    monkeypatch.setattr(service, "PROGRESS_STEP", 10)
    texts = [f"text number {i}" for i in range(45)]
    events = []
    board = ProgressBoard()
    rep = Reporter(board=board, callback=lambda ev, **kw: events.append((ev, kw)))
    cache = EmbeddingCache(tmp_path)
    EmbeddingIndex.build(texts, HashingEncoder(32), cache, "fact", reporter=rep)
    kinds = [e for e, _ in events]
    assert kinds[0] == "message" and "embedding 45 texts" in events[0][1]["text"]
    assert events[1] == ("start", {"label": "fact index", "total": 45, "resumed": 0})
    steps = [kw["rows"] for e, kw in events if e == "advance"]
    assert steps == [10, 10, 10, 10, 5]  # one report per encoder call, rows add up to the corpus
    assert kinds[-2:] == ["finish", "message"]
    npy = next(tmp_path.rglob("*.npy"))
    assert f"cached at {npy}" in events[-1][1]["text"]
    snap = board.snapshot()
    (b,) = snap["builds"]
    assert (b["label"], b["total"], b["done"], b["finished"]) == ("fact index", 45, 45, True)
    assert len(snap["messages"]) == 2 and board.snapshot(snap["cursor"])["messages"] == []
    # a second build reuses the entry and says so, without a progress bar
    events.clear()
    idx = EmbeddingIndex.build(texts, HashingEncoder(32), cache, "fact", reporter=rep)
    assert idx.cache_hit
    assert [e for e, _ in events] == ["message"]
    assert events[0][1]["text"].startswith("fact index: reused cached embeddings") and str(npy) in events[0][1]["text"]


def test_duplicate_texts_are_encoded_once(tmp_path):
    enc = HashingEncoder(32)
    texts = ["a b", "c d", "a b", "e f", "c d"]
    idx = EmbeddingIndex.build(texts, enc, EmbeddingCache(tmp_path), "fact")
    assert enc.texts_encoded == 3
    np.testing.assert_allclose(idx.vectors, HashingEncoder(32).encode(texts), atol=1e-6)


def test_poller_draws_bars_and_prints_messages_once(tmp_path):
    import io

    board = ProgressBoard()
    out = io.StringIO()
    seen = []
    poller = ProgressPoller(board.snapshot, interval_s=0.01, file=out, on_snapshot=seen.append)
    bid = board.start("fact index", 100)
    board.advance(bid, 40)
    poller.poll_once()
    assert poller._tqdm[bid].n == 40 and poller._tqdm[bid].total == 100
    board.advance(bid, 60)
    board.finish(bid)
    board.message("fact index: cached at /x/y.npy")
    poller.poll_once()
    poller.poll_once()
    assert poller.messages == ["fact index: cached at /x/y.npy"]  # printed once
    assert not poller._tqdm  # finished bars are closed
    text = out.getvalue()
    assert "embedding fact index" in text and "100/100" in text and "cached at /x/y.npy" in text


def test_poller_survives_fetch_errors():
    calls = []

    def fetch(cursor):
        calls.append(cursor)
        raise RuntimeError("actor restarting")

    p = ProgressPoller(fetch, interval_s=0.01, bars=False).start()
    time.sleep(0.1)
    p.stop()
    assert calls and p.messages == []


@pytest.mark.ray
def test_progress_reaches_the_driver_from_an_actor(ray_session, tmp_path):
    """A build inside the embedding actor shows up, while it runs, in a poller in this process."""
    from tkgqa_ray.embed.actor import EmbeddingClient

    class SlowHashing(HashingEncoder):  # defined here so it travels to the actor by value
        def encode(self, texts):
            time.sleep(0.25)
            return super().encode(texts)

    texts = [f"fact text {i}" for i in range(6 * 1024)]  # 6 encoder calls of PROGRESS_STEP rows
    client = EmbeddingClient.create({"fact": texts}, name="test-embed-progress", encoder=SlowHashing(32),
                                    cache_dir=tmp_path, num_cpus=0.5, indices=(), wait=True,
                                    progress=False)
    snaps = []
    poller = client.watch_progress(bars=False, interval_s=0.05, on_snapshot=snaps.append)
    try:
        assert client.build("fact")["size"] == len(texts)
    finally:
        poller.stop()
        client.kill()
    builds = [b for s in snaps for b in s["builds"] if b["label"] == "fact index"]
    assert builds and builds[-1]["done"] == builds[-1]["total"] == len(texts) and builds[-1]["finished"]
    assert any(0 < b["done"] < b["total"] for b in builds), "no snapshot caught the build mid-way"
    assert any("embedding 6,144 texts" in m for m in poller.messages)
    assert any(f"cached at {tmp_path}" in m for m in poller.messages)


@pytest.mark.ray
def test_run_embedding_actor_serves_progress(ray_session, tmp_path):
    """The actor `tkgqa-ray run` starts (pipeline.resources._build_embeddings) is embed.actor's:
    built from the KG file, warmed without waiting, and it answers progress() for the driver."""
    from omegaconf import OmegaConf

    from tkgqa_ray.embed.actor import EmbeddingClient
    from tkgqa_ray.pipeline.resources import _build_embeddings

    kg = tmp_path / "kg.txt"
    kg.write_text("A_x\tMeet\tB_y\t2010-01-01\nB_y\tMeet\tC_z\t2010-01-02\nA_x\tPraise\tC_z\t2010-01-03\n")
    cfg = OmegaConf.create({
        "run": {"progress": False}, "store": {"max_restarts": 0},
        "embeddings": {"encoder": "hashing-16", "backend": "torch", "cache_dir": str(tmp_path / "cache"),
                       "device": None, "indices": ["entity"], "num_cpus": 0, "threads": 1, "warm": True},
    })
    client = _build_embeddings(str(kg), cfg, "t1", None)  # the driver adds its progress watcher (run.progress)
    try:
        assert isinstance(client, EmbeddingClient)
        assert client.index_names() == ["entity", "relation", "fact"]
        assert client.similar_entities("B y", 1)[0][1] == "B_y"
        assert client.build("fact")["size"] == 3
        snap = client.progress(0)
    finally:
        client.kill()
    labels = {b["label"] for b in snap["builds"] if b["finished"]}
    assert {"entity index", "fact index"} <= labels, labels
    assert any(m.startswith("fact index: 3 texts embedded") and str(tmp_path / "cache") in m for m in snap["messages"])
