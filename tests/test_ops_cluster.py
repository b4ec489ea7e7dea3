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
    assert full["head_node_type"] == "head_cpu"
    assert types["gpu_8x80gb"]["max_workers"] >= 1
    setup = full["setup_commands"]
    torch_i = next(i for i, c in enumerate(setup) if "torch==2.13.0" in c)
    pkg_i = next(i for i, c in enumerate(setup) if "pip install" in c and "tkgqa-ray" in c)
    assert torch_i < pkg_i  # torch pinned and installed first
    assert any("HF_HOME" in c for c in setup)  # model cache path


def test_ray_validation_rejects_a_broken_copy():
    """The check above can fail: a misspelt top-level key is rejected by the same validator."""
    from ray.autoscaler._private.util import validate_config

    bad = _load()
    bad["availabel_node_types"] = bad.pop("available_node_types")
    with pytest.raises(Exception):
        validate_config(bad)
