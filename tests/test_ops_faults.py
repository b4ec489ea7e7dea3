"""Fault tolerance on local Ray: a SIGKILLed driver, then a killed fact-store shard in its resume.

The run is compared with an undisturbed run of the same config (module fixture). The test method
sleeps per batch so the faults land mid-run, and answers from the sharded store so a lost
shard would show up as error rows or wrong answers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from test_pipeline_methods import cli_overrides, compose_cfg, make_dataset, read_rows
from tkgqa_ray.pipeline.driver import run_pipeline
from tkgqa_ray.pipeline.parts import PartStore

pytestmark = [pytest.mark.ray, pytest.mark.cli_processes]

N = 24
SLOW = ("run.batch_size=4", "run.num_workers=1", "store.num_shards=2", "+method.options.sleep_s=0.8")


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    root = tmp_path_factory.mktemp("faults") / "ds"
    gold = make_dataset(root, n_questions=N, seed=11)
    return root, gold


@pytest.fixture(scope="module")
def undisturbed(ray_session, dataset, tmp_path_factory):
    root, gold = dataset
    out = tmp_path_factory.mktemp("faults") / "undisturbed"
    run_pipeline(compose_cfg(root, out, "run.batch_size=4", "run.num_workers=1", "store.num_shards=2"))
    rows = read_rows(out)
    assert [r["predictions"] for r in rows] == [gold[r["quid"]] for r in rows]  # sanity: = scan oracle
    return rows


def _wait_for_parts(run_dir: Path, n: int, timeout: float, proc: subprocess.Popen | None = None) -> int:
    deadline = time.time() + timeout
    while time.time() < deadline:
        k = len(PartStore(run_dir).part_files())
        if k >= n:
            return k
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"driver exited early (rc {proc.returncode})")
        time.sleep(0.1)
    raise AssertionError(f"no {n} part(s) in {run_dir} after {timeout}s")


def _shard0_names() -> list[dict]:
    import ray

    return [a for a in ray.util.list_named_actors(all_namespaces=True) if a["name"].endswith("kg-shard-0")]


def test_sigkilled_driver_resumes_and_a_killed_shard_is_rebuilt(ray_session, dataset, undisturbed, tmp_path):
    """Both faults in one run dir: a ``tkgqa-ray run`` process SIGKILLed mid-run, then the run
    resumed (in this process, as the CLI's ``run_pipeline``) while a store shard is killed
    mid-resume. One killed CLI process instead of two pipeline runs plus two CLI processes
    (each ~20 s of CPU); each fault keeps its own assertions, so a failure still names it."""
    import ray

    root, _ = dataset
    out = tmp_path / "run"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]),
        "RAY_ADDRESS": ray.get_runtime_context().gcs_address,  # a second driver on the test cluster
    }
    cmd = [sys.executable, "-m", "tkgqa_ray.cli", "run", *cli_overrides(root, out, *SLOW)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        done_at_kill = _wait_for_parts(out, 1, 300, proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    assert not (out / "predictions.parquet").exists()
    assert done_at_kill < N // 4

    # The killed driver's own store actors die with it (not detached); wait until at most the
    # store this process kept from the undisturbed run (which the resume reuses) is named.
    deadline = time.time() + 60
    while len(_shard0_names()) > 1 and time.time() < deadline:
        time.sleep(0.2)
    assert len(_shard0_names()) <= 1, _shard0_names()
    parts_at_resume = len(PartStore(out).part_files())
    killed: dict = {}

    def killer() -> None:
        try:
            _wait_for_parts(out, parts_at_resume + 1, 300)
            (name,) = _shard0_names()
            killed["parts_before"] = len(PartStore(out).part_files())
            h = ray.get_actor(name["name"], namespace=name["namespace"])
            ray.kill(h, no_restart=False)  # a crash: Ray restarts it (max_restarts), it rebuilds from the KG file
            killed["ok"] = True
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            killed["exc"] = exc

    t = threading.Thread(target=killer, daemon=True)
    t.start()
    run_pipeline(compose_cfg(root, out, *SLOW))
    t.join(5)

    info = json.loads((out / "run.json").read_text())
    ran = info["counts"]["run_this_invocation"]
    assert 0 < ran <= N - 4 * done_at_kill  # resumed: only what was not written yet
    assert killed.get("ok"), killed.get("exc")
    assert killed["parts_before"] < N // 4  # the shard kill landed while batches were still to run
    rows = read_rows(out)
    quids = [r["quid"] for r in rows]
    assert len(quids) == len(set(quids)) == N  # nothing lost, nothing duplicated
    assert rows == undisturbed  # the rebuilt shard answers as the undisturbed store did
