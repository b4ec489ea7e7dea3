"""Job scripts build a valid `ray job submit` whose entry point is a valid `tkgqa-ray run`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from tkgqa_ray.pipeline.validate import validate_config

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

REPO = Path(__file__).resolve().parents[1]


def _dry_run(script: str, *args: str, root: Path) -> list[str]:
    env = {**os.environ, "DRY_RUN": "1", "MULTITQ_ROOT": str(root), "RUNS_DIR": str(root.parent / "runs")}
    p = subprocess.run(["bash", str(REPO / "jobs" / script), *args], capture_output=True, text=True, env=env, timeout=30)
    assert p.returncode == 0, p.stderr
    return p.stdout.rstrip("\n").split("\n")


def _check(argv: list[str]) -> list[str]:
    """Parse the printed command as ``ray job submit`` itself does (Ray's click command, its
    RuntimeEnv validation) and return the entry point's ``tkgqa-ray run`` arguments."""
    from ray.dashboard.modules.job.cli import submit
    from ray.runtime_env import RuntimeEnv

    assert argv[:3] == ["ray", "job", "submit"]
    params = submit.make_context("submit", argv[3:]).params  # unknown options / bad values raise
    # the scripts cd to the checkout before submitting: the working dir uploaded is this repo
    assert (REPO / params["working_dir"]).resolve() == REPO
    RuntimeEnv(**json.loads(params["runtime_env_json"]))  # Ray's own runtime-env validation
    entry = list(params["entrypoint"])
    assert entry[:2] == ["tkgqa-ray", "run"]
    return entry[2:]


@pytest.mark.parametrize(
    ("script", "args"),
    [("multitq_full.sh", ("rag", "symbolic", "run.limit=10")), ("backbone_sweep.sh", ("rag", "symbolic,qwen2.5-14b"))],
)
def test_job_entry_point_composes_and_validates(tmp_path, script, args):
    """Every job the entry point stands for (a sweep: each value, by Hydra's own override
    parser) composes and validates, and carries the script's METHOD / BACKBONE / overrides."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    root = tmp_path / "MultiTQ"
    (root / "kg").mkdir(parents=True)
    overrides = _check(_dry_run(script, *args, root=root))
    method, backbones, extra = args[0], args[1].split(","), list(args[2:])
    if overrides[0] == "-m":  # a sweep: check every job of the sweep
        overrides = overrides[1:]
        assert any(o.startswith("hydra.sweep.dir=") for o in overrides)
    assert all(o in overrides for o in extra)  # the caller's overrides reach the entry point
    parsed = OverridesParser.create().parse_overrides([o for o in overrides if not o.startswith("hydra.")])
    (bb,) = [o for o in parsed if o.key_or_group == "backbone"]
    sweep = list(bb.sweep_string_iterator()) if bb.is_sweep_override() else [bb.get_value_element_as_str()]
    assert sweep == backbones
    plain = [o for o in overrides if not o.startswith(("backbone=", "hydra."))]
    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        for name in sweep:
            cfg = compose("config", overrides=[*plain, f"backbone={name}"])
            if cfg.run.output_dir is not None:
                cfg.run.output_dir = str(tmp_path / "out")
            conf = validate_config(cfg)
            assert (cfg.dataset.root, conf.method.name, conf.backbone["name"]) == (str(root), method, name)
            for o in extra:
                key, value = o.split("=", 1)
                assert str(OmegaConf.select(cfg, key)) == value, o


def test_experiment_grid_expands_into_valid_jobs(tmp_path):
    """Every job the experiment's sweep expands to (Hydra's own override parser) composes and
    validates, and the end-of-sweep callback it names can be imported."""
    import itertools

    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.utils import get_class

    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base="1.3"):
        cfg = compose("config", overrides=["+experiment=method_backbone_grid"], return_hydra_config=True)
        params = OverridesParser.create().parse_overrides([f"{k}={v}" for k, v in cfg.hydra.sweeper.params.items()])
        axes = [[f"{o.key_or_group}={v}" for v in
                 (o.sweep_string_iterator() if o.is_sweep_override() else [o.get_value_element_as_str()])]
                for o in params]
        jobs = list(itertools.product(*axes))
        assert len(jobs) >= 2  # a grid, not a single run
        for job in jobs:
            job_cfg = compose("config", overrides=["+experiment=method_backbone_grid", *job])
            job_cfg.run.output_dir = str(tmp_path / "out")
            conf = validate_config(job_cfg)
            assert [f"method={conf.method.name}", f"backbone={conf.backbone['name']}"] == list(job)
    assert callable(get_class(cfg.hydra.callbacks.comparison_report._target_))
