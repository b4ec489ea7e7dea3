"""cluster.yaml passes Ray's own launcher validation (schema + defaults), offline."""

from __future__ import annotations

import copy
import shlex
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

CLUSTER = Path(__file__).resolve().parents[1] / "cluster.yaml"


def _load() -> dict:
    return yaml.safe_load(CLUSTER.read_text())


def _pip_installs(commands: list[str]) -> list[list[str]]:
    """The requirement arguments of each unconditional ``pip install`` (options like -q dropped,
    -e kept), in order."""
    out = []
    for c in commands:
        for part in c.split("&&"):
            words = shlex.split(part)
            if "pip" in words[0].rsplit("/", 1)[-1] and words[1:2] == ["install"]:
                out.append([w for w in words[2:] if w == "-e" or not w.startswith("-")])
    return out


def test_cluster_yaml_validates_with_ray_schema():
    from hydra import compose, initialize_config_dir
    from ray.autoscaler._private.util import prepare_config, validate_config

    cfg = _load()
    validate_config(cfg)  # jsonschema of ray/autoscaler/ray-schema.json
    full = prepare_config(copy.deepcopy(cfg))  # fills provider defaults, as `ray up` does
    validate_config(full)
    types = full["available_node_types"]
    # a method worker (run.worker_num_cpus CPUs each, conf/config.yaml) fits on no head slot,
    # and some worker node type can be started to run them
    with initialize_config_dir(config_dir=str(CLUSTER.parent / "conf"), version_base="1.3"):
        need = compose("config").run.worker_num_cpus
    assert need > 0 and types[full["head_node_type"]]["resources"].get("CPU", float("inf")) < need
    assert any(t["max_workers"] >= 1 for name, t in types.items() if name != full["head_node_type"])


def test_nodes_install_what_the_readme_installs_in_its_order():
    """The nodes run README's install part (torch pinned first, then the package, editable) on
    the checkout that file_mounts puts there: same pin, same order."""
    from test_readme_commands import _split_main, readme_commands

    install, _ = _split_main(readme_commands()[0])
    readme = _pip_installs([install])
    mount = {src: dst for dst, src in _load()["file_mounts"].items()}["."]  # where the checkout lands
    want = [[mount if w == "." else w for w in args] for args in readme]
    assert want and want[0][0].startswith("torch==")
    assert _pip_installs(_load()["setup_commands"])[: len(want)] == want


@pytest.mark.parametrize("script", ["multitq_full.sh", "backbone_sweep.sh"])
def test_jobs_use_the_caches_the_nodes_set_up(tmp_path, script):
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
    out = subprocess.run(["bash", str(CLUSTER.parent / "jobs" / script), "rag", "symbolic"],
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
