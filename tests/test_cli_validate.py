"""Malformed config values fail before any work starts, with a message naming the key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline_methods import compose_cfg, make_dataset
from tkgqa_ray.pipeline.validate import ConfigError, validate_config


@pytest.fixture(scope="module")
def ds_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ds")
    make_dataset(root, n_questions=5)
    return root


def test_valid_config_passes(ds_root, tmp_path):
    validate_config(compose_cfg(ds_root, tmp_path / "out"))


@pytest.mark.parametrize(
    ("override", "key"),
    [
        ("run.batch_size=0", "run.batch_size"),
        ("run.batch_size=abc", "run.batch_size"),
        ("run.num_workers=-1", "run.num_workers"),
        ("run.limit=0", "run.limit"),
        ("run.resume=maybe", "run.resume"),
        ("run.worker_num_cpus=-2", "run.worker_num_cpus"),
        ("store.num_shards=0", "store.num_shards"),
        ("dataset.split=validation", "dataset.split"),
        ("dataset.root=/nonexistent/dir", "dataset.root"),
        ("dataset.name=wikidata", "dataset.name"),
        ("method.name=scoop", "method.name"),
        ("ablation=wo_alignment", "ablation.name"),  # the test method has no ablations
        ("backbone.kind=gpt", "backbone.kind"),
        ("embeddings.encoder=''", "embeddings.encoder"),
    ],
)
def test_bad_value_names_its_key(ds_root, tmp_path, override, key):
    cfg = compose_cfg(ds_root, tmp_path / "out", override)
    with pytest.raises(ConfigError) as e:
        validate_config(cfg)
    assert e.value.key == key
    assert str(e.value).startswith(f"config error: {key} ")


def test_missing_dataset_root_names_key(tmp_path):
    from hydra import compose, initialize_config_dir

    from test_pipeline_methods import CONF_DIR

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        cfg = compose("config", overrides=["dataset=multitq", "method=rag", "backbone=symbolic", f"run.output_dir={tmp_path}"])
    with pytest.raises(ConfigError, match=r"^config error: dataset.root "):
        validate_config(cfg)


def test_cli_fails_fast_before_any_work(tmp_path, ds_root):
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent)}
    env.pop("RAY_ADDRESS", None)
    p = subprocess.run(
        [sys.executable, "-m", "tkgqa_ray.cli", "run", "method=rag", "backbone=symbolic", "dataset=multitq",
         f"dataset.root={ds_root}", f"run.output_dir={out}", "run.batch_size=0"],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert p.returncode == 2, p.stderr[-2000:]
    assert "config error: run.batch_size must be an integer >= 1 (got 0)" in p.stderr
    assert "Started a local Ray" not in p.stdout + p.stderr  # no Ray, no dataset load
    assert not (out / "parts").exists() and not (out / "gold.parquet").exists()
