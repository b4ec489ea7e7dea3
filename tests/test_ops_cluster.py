"""cluster.yaml passes Ray's own launcher validation (schema + defaults), offline."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

CLUSTER = Path(__file__).resolve().parents[1] / "cluster.yaml"


def _load() -> dict:
    return yaml.safe_load(CLUSTER.read_text())


def test_cluster_yaml_validates_with_ray_schema():
    from ray.autoscaler._private.util import prepare_config, validate_config

    cfg = _load()
    validate_config(cfg)  # jsonschema of ray/autoscaler/ray-schema.json
    full = prepare_config(copy.deepcopy(cfg))  # fills provider defaults, as `ray up` does
    validate_config(full)
    types = full["available_node_types"]
    # method workers (1 CPU each) cannot land on the head: it offers no CPU slots
    assert types[full["head_node_type"]]["resources"].get("CPU") == 0
    assert any(t["max_workers"] >= 1 for name, t in types.items() if name != full["head_node_type"])
    setup = full["setup_commands"]
    torch_i = next(i for i, c in enumerate(setup) if "torch==2.13.0" in c)
    pkg_i = next(i for i, c in enumerate(setup) if "pip install" in c and "tkgqa-ray" in c)
    assert torch_i < pkg_i  # torch pinned and installed first, so the package cannot pull another build


def test_jobs_use_the_caches_the_nodes_set_up(tmp_path):
    """The job scripts' runtime env points at the same model/embedding caches that the
    cluster's setup commands create and export (else every job re-downloads)."""
    import json
    import os
    import re
    import subprocess

    commands = _load()["setup_commands"]
    exported = dict(re.findall(r"(HF_HOME|TKGQA_CACHE_DIR)=(\S+?)['\s]", " ".join(commands)))
    assert set(exported) == {"HF_HOME", "TKGQA_CACHE_DIR"}
    created = {tok for c in commands if c.startswith("mkdir -p ") for tok in c.split()[2:]}
    assert set(exported.values()) <= created  # the folders exist before anything uses them
    env = {**os.environ, "DRY_RUN": "1", "MULTITQ_ROOT": str(tmp_path), "RUNS_DIR": str(tmp_path / "runs")}
    env.pop("HF_HOME_REMOTE", None), env.pop("TKGQA_CACHE_REMOTE", None)
    out = subprocess.run(["bash", str(CLUSTER.parent / "jobs" / "multitq_full.sh"), "rag", "symbolic"],
                         capture_output=True, text=True, env=env, timeout=30, check=True).stdout.split("\n")
    runtime = json.loads(out[out.index("--runtime-env-json") + 1])
    assert {k: runtime["env_vars"][k] for k in exported} == exported


def test_ray_validation_rejects_a_broken_copy():
    """The check above can fail: a misspelt top-level key is rejected by the same validator."""
    from ray.autoscaler._private.util import validate_config

    bad = _load()
    bad["availabel_node_types"] = bad.pop("available_node_types")
    with pytest.raises(Exception):
        validate_config(bad)
