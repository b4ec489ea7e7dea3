"""Ray custom metrics from the workers reach Ray's Prometheus export, with the dashboard up.

The shared test Ray has no dashboard, so this starts its own Ray in a subprocess (dashboard on
127.0.0.1, token auth disabled for the REST call, a fixed metrics export port), runs a tiny
evaluation and scrapes the export until the pipeline's metrics show up with real values.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tkgqa_ray.pipeline.metrics import METRIC_NAMES

pytestmark = [pytest.mark.ray, pytest.mark.cli_processes]

SCRIPT = textwrap.dedent(
    """
    import json, sys, time, urllib.request
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    import ray
    from test_pipeline_methods import compose_cfg, make_dataset
    from tkgqa_ray.pipeline.driver import run_pipeline

    root = Path({tmp!r}) / "ds"
    make_dataset(root, n_questions=10, poison=1)
    ray.init(num_cpus=4, include_dashboard=True, dashboard_host="127.0.0.1", dashboard_port={dash},
             _metrics_export_port={port}, object_store_memory=256 * 1024**2, log_to_driver=False)
    out = {{}}
    with urllib.request.urlopen("http://127.0.0.1:{dash}/api/version", timeout=30) as r:
        out["dashboard_version"] = json.loads(r.read()).get("ray_version")
    run_pipeline(compose_cfg(root, Path({tmp!r}) / "run", "run.num_workers=1", "store.num_shards=1", "run.batch_size=5"))
    wanted = ["ray_tkgqa_questions_done", "ray_tkgqa_questions_failed", "ray_tkgqa_question_latency_s_bucket",
              "ray_tkgqa_final_evidence_size_bucket", "ray_tkgqa_batch_latency_s_count"]
    deadline, text = time.time() + 90, ""
    while time.time() < deadline:
        with urllib.request.urlopen("http://127.0.0.1:{port}/metrics", timeout=10) as r:
            text = r.read().decode()
        if all(w in text for w in wanted):
            break
        time.sleep(1)
    out["lines"] = [l for l in text.splitlines() if "tkgqa_" in l and not l.startswith("#")]
    out["help"] = [l for l in text.splitlines() if l.startswith("# HELP ray_tkgqa_")]
    print("RESULT " + json.dumps(out))
    """
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _value(lines: list[str], name: str) -> float:
    """Sum of a metric's samples (any tags); Ray may suffix counters with _total."""
    vals = [float(l.rsplit(" ", 1)[1]) for l in lines if l.split("{")[0] in (name, name + "_total")]
    assert vals, f"{name} not exported"
    return sum(vals)


def test_pipeline_metrics_are_exported(tmp_path):
    port, dash = _free_port(), _free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_metrics_report_interval_ms": "1000"}
    env.pop("RAY_ADDRESS", None)
    code = SCRIPT.format(tests=str(Path(__file__).parent), tmp=str(tmp_path), port=port, dash=dash)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=480, env=env, cwd=tmp_path)
    line = next((l for l in p.stdout.splitlines() if l.startswith("RESULT ")), None)
    assert p.returncode == 0 and line, (p.stdout[-2000:], p.stderr[-4000:])
    out = json.loads(line[len("RESULT "):])
    assert out["dashboard_version"]
    lines = out["lines"]
    assert _value(lines, "ray_tkgqa_questions_done") == 10
    assert _value(lines, "ray_tkgqa_questions_failed") == 1
    assert _value(lines, "ray_tkgqa_question_latency_s_count") == 10
    assert _value(lines, "ray_tkgqa_batch_latency_s_count") == 2
    assert _value(lines, "ray_tkgqa_final_evidence_size_count") == 9  # the error row has no evidence
    assert any('method="test_pipeline_methods:StoreLookup"' in l for l in lines)
    helps = " ".join(out["help"])
    for name in ("tkgqa_questions_done", "tkgqa_question_latency_s", "tkgqa_final_evidence_size"):
        assert f"ray_{name}" in helps
    assert set(METRIC_NAMES) >= {"tkgqa_questions_done", "tkgqa_parse_failures", "tkgqa_prompt_tokens"}
