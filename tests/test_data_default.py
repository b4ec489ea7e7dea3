"""Embedded default dataset: built once, reused, rebuilt when damaged, safe under races."""

from __future__ import annotations

import json
import threading

import pytest

from tkgqa_ray.data import default as dflt
from tkgqa_ray.data import load_dataset
from tkgqa_ray.data.synth import SynthConfig


@pytest.fixture()
def small_recipe(monkeypatch):
    """The real recipe takes seconds; the mechanics are the same on a tiny one."""
    monkeypatch.setattr(dflt, "DEFAULT_SYNTH", SynthConfig(seed=1, n_facts=1500, n_countries=12, n_persons=20,
                                                            start="2010-01-01", end="2010-12-31"))
    monkeypatch.setattr(dflt, "DEFAULT_QUESTIONS", 36)


def test_build_load_and_reuse(tmp_path, small_recipe, monkeypatch):
    monkeypatch.setenv(dflt.ENV_DIR, str(tmp_path / "d"))
    ds = load_dataset("default")
    root = tmp_path / "d"
    assert ds.kg_path == root / "kg" / "full.txt.gz" and len(ds) == 36
    build = json.loads((root / "BUILD.json").read_text())
    assert build["facts"] == 1500 and build["questions"] == 36
    mtime = (root / "questions" / "test.json").stat().st_mtime_ns
    assert dflt.ensure_default() == root
    assert (root / "questions" / "test.json").stat().st_mtime_ns == mtime  # reused, not rebuilt
    first = (root / "questions" / "test.json").read_bytes()
    # a damaged file fails the hash check and is rebuilt to the same bytes
    (root / "questions" / "test.json").write_text("[]")
    assert not dflt.is_valid(root)
    dflt.ensure_default()
    assert (root / "questions" / "test.json").read_bytes() == first
    # a changed recipe invalidates the cache
    monkeypatch.setattr(dflt, "DEFAULT_QUESTIONS", 30)
    assert not dflt.is_valid(root)


def test_concurrent_builders(tmp_path, small_recipe):
    root = tmp_path / "race"
    results, errors = [], []

    def build():
        try:
            results.append(dflt.ensure_default(root))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [root] * 3
    assert dflt.is_valid(root)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race"]  # no temp dirs left behind
