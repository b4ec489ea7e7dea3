"""Malformed config values fail before any work starts, with a message naming the key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline_methods import compose_cfg, make_dataset
from tkgqa_ray.pipeline.validate import ConfigError, validate_config

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)


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


def _cli_env() -> dict[str, str]:
    """The test method's module and this checkout's package (not whichever one is installed)."""
    here = Path(__file__).resolve()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(here.parent), str(here.parents[1])])}
    env.pop("RAY_ADDRESS", None)
    return env


def test_cli_fails_fast_before_any_work(tmp_path, ds_root):
    out = tmp_path / "run"
    env = _cli_env()
    p = subprocess.run(
        [sys.executable, "-m", "tkgqa_ray.cli", "run", "method=rag", "backbone=symbolic", "dataset=multitq",
         f"dataset.root={ds_root}", f"run.output_dir={out}", "run.batch_size=0"],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert p.returncode == 2, p.stderr[-2000:]
    assert "config error: run.batch_size must be an integer >= 1 (got 0)" in p.stderr
    assert "Started a local Ray" not in p.stdout + p.stderr  # no Ray, no dataset load
    assert not (out / "parts").exists() and not (out / "gold.parquet").exists()


@pytest.mark.parametrize(
    ("override", "key", "hint"),
    [
        ("+run.limitt=5", "run.limitt", "did you mean 'limit'?"),  # Hydra's own suggestion for an unknown key
        ("+store.num_shard=3", "store.num_shard", "did you mean 'num_shards'?"),
        ("+embeddings.devcie=cpu", "embeddings.devcie", "did you mean 'device'?"),
        ("+dataset.spilt=dev", "dataset.spilt", "did you mean 'split'?"),
        ("+ablation.nmae=x", "ablation.nmae", "did you mean 'name'?"),
        ("+backbone.temprature=0.5", "backbone.temprature", "is not a known key"),  # symbolic has no LLM keys
        ("+ray.num_gpus=1", "ray.num_gpus", "is not a known key"),
        ("+runn.limit=5", "runn", "did you mean 'run'?"),
    ],
)
def test_unknown_key_is_refused_whichever_way_it_arrives(ds_root, tmp_path, override, key, hint):
    cfg = compose_cfg(ds_root, tmp_path / "out", override)
    with pytest.raises(ConfigError) as e:
        validate_config(cfg)
    assert e.value.key == key
    assert str(e.value).startswith(f"config error: {key} is not a known key")
    assert hint in str(e.value)


@pytest.mark.parametrize(
    ("overrides", "key", "message"),
    [
        (("method=tccrag", "+method.options.fallbak_k=5"), "method.options.fallbak_k",
         "is not a known key; did you mean 'fallback_k'? (known: fallback_k, max_evidence, relation_k)"),
        (("method=rag", "method.options.k=0"), "method.options.k", "must be an integer >= 1 (got 0)"),
        (("method=pok", "method.options.mu=1.5"), "method.options.mu", "must be a number in [0, 1] (got 1.5)"),
        (("method=scop", "+method.options.k=5"), "method.options.k", "is not a known key (no keys are allowed here)"),
        (("+method.options.sleep=1",), "method.options.sleep",  # a plugin method's own Options
         "is not a known key; did you mean 'sleep_s'? (known: flaky_flag, pid_file, sleep_s)"),
    ],
)
def test_method_options_are_validated_by_the_method(ds_root, tmp_path, overrides, key, message):
    cfg = compose_cfg(ds_root, tmp_path / "out", *overrides)
    with pytest.raises(ConfigError) as e:
        validate_config(cfg)
    assert e.value.key == key
    assert str(e.value) == f"config error: {key} {message}"


@pytest.mark.parametrize("method", ["scop", "rag", "rag_filter", "llm_only", "tccrag", "pok"])
def test_every_shipped_method_config_validates(ds_root, tmp_path, method):
    conf = validate_config(compose_cfg(ds_root, tmp_path / "out", f"method={method}"))
    assert conf.method.name == method


def test_dataset_names_come_from_the_loaders_registry(ds_root, tmp_path):
    """The validator accepts exactly what load_dataset loads (aliases included), nothing else."""
    from tkgqa_ray.data.loaders import DatasetError, dataset_names, load_dataset

    assert "timelinecronq-r" in dataset_names()  # load_dataset's alias; the old copied list refused it
    for name in dataset_names():
        conf = validate_config(compose_cfg(ds_root, tmp_path / "out", f"dataset.name={name}"))
        assert conf.dataset.name == name
    with pytest.raises(ConfigError, match=r"^config error: dataset.name is unknown: 'multitqq'; did you mean 'multitq'\?"):
        validate_config(compose_cfg(ds_root, tmp_path / "out", "dataset.name=multitqq"))
    with pytest.raises(DatasetError, match="unknown dataset 'multitqq'"):
        load_dataset("multitqq", ds_root)


def test_every_shipped_backbone_config_validates(ds_root, tmp_path):
    names = sorted(p.stem for p in (Path(__file__).resolve().parents[1] / "conf" / "backbone").glob("*.yaml"))
    assert len(names) >= 9
    for name in names:
        validate_config(compose_cfg(ds_root, tmp_path / "out", f"backbone={name}"))


def test_cli_refuses_an_appended_unknown_key_before_any_work(tmp_path, ds_root):
    out = tmp_path / "run"
    env = _cli_env()
    p = subprocess.run(
        [sys.executable, "-m", "tkgqa_ray.cli", "run", "method=rag", "backbone=symbolic", "dataset=multitq",
         f"dataset.root={ds_root}", f"run.output_dir={out}", "+run.limitt=5"],
        capture_output=True, text=True, timeout=120, env=env,
    )
    assert p.returncode == 2, p.stderr[-2000:]
    assert "tkgqa-ray: config error: run.limitt is not a known key; did you mean 'limit'?" in p.stderr
    assert not (out / "parts").exists() and not (out / "gold.parquet").exists()
