"""The README's two commands, run verbatim: a broken README command fails the suite.

The main command (``pip install torch==2.13.0 && pip install -e . && tkgqa-ray run``) is read
from README.md, not copied here. Its install part runs verbatim in the repository root (only
when this environment's editable install already is this checkout, so it is a re-install,
never a re-pointing of someone else's environment); its run part runs verbatim from a clean
temporary working directory and must leave a complete run under ``outputs/<date>/<time>``
there, print the headline figures and the report path, and keep Ray's known-harmless lines
off the console. The test command is checked to be what ``.ci/run`` runs, line for line
(running pytest inside pytest is not sensible).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

REPO = Path(__file__).resolve().parents[1]
RUN_DIR = re.compile(r"^\d{4}-\d{2}-\d{2}/\d{2}-\d{2}-\d{2}$")
# Console lines that must stay in Ray's log files (issue 11): the token-auth notice and the
# core worker's E-level "constructor arguments in the object store" line.
NOISE = [
    re.compile(r"constructor arguments in the object store"),
    # glog E-level lines, also as Ray streams them from its own processes ("(pid=gcs_server) [...")
    re.compile(r"^(?:\x1b\[\d+m)?(?:\(pid=[^)]*\)\s*)?(?:\x1b\[0m)?\s*\[?\d{4}-\d{2}-\d{2} [\d:,.]+ E \d+ \d+\]?", re.M),
    re.compile(r"token[- ]auth|RAY_AUTH_MODE|authentication token", re.I),
    re.compile(r"faiss\.loader|Could not load library with AVX"),  # faiss's CPU-feature probe, at INFO
]


def readme_commands() -> tuple[str, str]:
    """(main command, test command): the two ```bash blocks of README's "The two commands"."""
    text = (REPO / "README.md").read_text()
    m = re.search(r"^## The two commands.*?(?=^## )", text, re.S | re.M)
    assert m, "README.md has no '## The two commands' section"
    blocks = re.findall(r"```bash\n(.*?)```", m.group(0), re.S)
    assert len(blocks) == 2, f"expected two bash blocks in 'The two commands', found {len(blocks)}"
    main, test = (b.strip() for b in blocks)
    assert "\n" not in main and "\n" not in test, "each README command is one line"
    return main, test


def console_noise(text: str) -> list[str]:
    return [line for line in text.splitlines() if any(p.search(line) for p in NOISE)]


def test_noise_patterns_catch_the_lines_from_the_issue():
    seen = ("[2026-11-30 17:02:11,123 E 4242 4242] core_worker.cc:2146: Actor with class name: "
            "'MapWorker(MapBatches(MethodWorker))' and ID: 'ab' has constructor arguments in the object store "
            "and max_restarts > 0. If the arguments in the object store go out of scope or are lost, the actor "
            "restart will fail.")
    assert console_noise(seen) == [seen]
    assert console_noise("2026-11-30 17:02:05,001\tINFO worker.py:2000 -- Ray token authentication is enabled")
    nil = ("\x1b[36m(pid=gcs_server)\x1b[0m [2026-12-02 01:04:14,274 E 24267 24267] (gcs_server) "
           "gcs_actor_scheduler.cc:538: Failed to kill actor NIL_ID, return status: Invalid")
    assert console_noise(nil) == [nil]
    assert console_noise("[2026-12-02 01:03:29,535][faiss.loader][INFO] - Loading faiss with AVX512 support.")
    assert console_noise("questions: 100%|##########| 400/400 [00:20<00:00, 19.6q/s]\nHits@1 (multitq_official): 0.975") == []


def test_ci_runs_the_readme_test_command_verbatim():
    _, test = readme_commands()
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()]
    assert test in ci, f".ci/run does not run README's test command verbatim:\n{test}"


def _split_main(main: str) -> tuple[str, str]:
    parts = [p.strip() for p in main.split("&&")]
    assert parts[-1].startswith("tkgqa-ray run"), f"README's main command should end with `tkgqa-ray run`: {main}"
    return " && ".join(parts[:-1]), parts[-1]


def _editable_target() -> Path | None:
    """The folder this environment's ``tkgqa-ray`` editable install points at (None: not editable)."""
    import importlib.metadata as md

    # Not md.distribution(): with the checkout on sys.path (python -m pytest), the first
    # "distribution" found is the build's own tkgqa_ray.egg-info there, which has no
    # direct_url.json. The installed one (site-packages) is the one pip records it in.
    for dist in md.distributions(name="tkgqa-ray"):
        info = json.loads(dist.read_text("direct_url.json") or "{}")
        url = info.get("url", "")
        if (info.get("dir_info") or {}).get("editable") and url.startswith("file://"):
            return Path(url.removeprefix("file://")).resolve()
    return None


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}  # the user's machine: a fresh local Ray
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])  # this checkout, also in Ray workers
    return env


@pytest.mark.reinstalls_package
def test_readme_install_part_verbatim_is_a_reinstall():
    main, _ = readme_commands()
    install, _ = _split_main(main)
    target = _editable_target()
    if target != REPO:
        pytest.skip(f"this environment's editable install is {target}, not this checkout {REPO}: "
                    "re-running `pip install -e .` here would re-point it (CI installs this checkout)")
    import torch

    # The torch pin must be satisfied already (a CPU build): pip then answers "already
    # satisfied" and can never fetch a multi-GB CUDA wheel from inside the test suite.
    assert torch.__version__.split("+")[0] == "2.13.0" and not torch.version.cuda, torch.__version__
    p = subprocess.run(["bash", "-c", install], cwd=REPO, env=_env(), capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, (p.stdout[-3000:], p.stderr[-3000:])
    assert re.search(r"Requirement already satisfied: torch==2\.13\.0", p.stdout), p.stdout[-3000:]
    assert "Successfully installed" in p.stdout and "tkgqa-ray" in p.stdout.split("Successfully installed")[-1]
    assert _editable_target() == REPO


@pytest.mark.ray
def test_readme_main_command_verbatim_from_a_clean_directory(tmp_path):
    main, _ = readme_commands()
    _, run = _split_main(main)
    assert shutil.which("tkgqa-ray", path=_env()["PATH"]), "the tkgqa-ray entry point is not installed"
    work = tmp_path / "fresh"
    work.mkdir()
    p = subprocess.run(["bash", "-c", run], cwd=work, env=_env(), capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, (p.stdout[-3000:], p.stderr[-5000:])

    # default output location: outputs/<date>/<time> under the working directory, like Hydra
    runs = [d for d in (work / "outputs").glob("*/*") if d.is_dir()]
    assert len(runs) == 1 and RUN_DIR.match(runs[0].relative_to(work / "outputs").as_posix()), runs
    rd = runs[0]
    assert sorted(x.name for x in work.iterdir()) == ["outputs"]  # nothing else dropped in the cwd
    import pyarrow.parquet as pq

    rows = pq.read_table(rd / "predictions.parquet").to_pylist()
    gold = pq.read_table(rd / "gold.parquet")
    assert len(rows) == gold.num_rows > 0 and all(r["error"] is None for r in rows)
    metrics = json.loads((rd / "metrics.json").read_text())
    assert metrics["n_questions"] == len(rows) and metrics["n_missing"] == 0
    assert (rd / ".hydra" / "config.yaml").is_file()
    info = json.loads((rd / "run.json").read_text())
    assert Path(info["run_dir"]).resolve() == rd.resolve()

    # the closing summary: the headline figures (with stderr) and where the report is
    hits = metrics["overall"]["multitq_official"]["hits@1"]
    out = p.stdout
    assert f"Hits@1 (multitq_official): {hits['value']:.3f} ± {hits['stderr']:.3f}" in out, out[-2000:]
    for group in ("Single", "Multiple", "entity", "time"):
        assert re.search(rf"\b{group} \d\.\d{{3}} ± \d\.\d{{3}} \(n=\d+\)", out), (group, out[-2000:])
    assert f"report: {(rd / 'metrics.md').resolve()}" in out

    # quiet, honest logs: Ray's known-harmless lines stay in Ray's log files
    assert console_noise(p.stdout + "\n" + p.stderr) == []
