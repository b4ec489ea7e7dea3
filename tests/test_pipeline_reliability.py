"""Run-dir reliability (issue 12): resume keyed on the data, one writer per run dir, input
files checked before Ray starts, clean exit codes, and the completion marker."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline_methods import compose_cfg, make_dataset, read_rows
from tkgqa_ray.pipeline.completion import MARKER, require_complete
from tkgqa_ray.pipeline.driver import run_pipeline
from tkgqa_ray.pipeline.errors import InputError, ResumeRefused, RunDirError
from tkgqa_ray.pipeline.fingerprint import prompts_fingerprint, questions_fingerprint
from tkgqa_ray.pipeline.rundir_lock import LOCK_NAME, RunDirLock
from tkgqa_ray.records import Question

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

FAST = ("run.progress=false", "run.num_workers=1", "store.num_shards=1", "embeddings.warm=false")


def _questions(root: Path) -> list[dict]:
    return json.loads((root / "questions" / "test.json").read_text())


# --------------------------------------------------------------------------- fingerprints (no Ray)


def test_questions_fingerprint_sees_text_not_just_ids():
    a = [Question("1", "Who met A?"), Question("2", "Who met B?")]
    swapped = [Question("1", "Who met B?"), Question("2", "Who met A?")]
    assert questions_fingerprint(a) == questions_fingerprint(list(a))
    assert questions_fingerprint(a) != questions_fingerprint(swapped)
    # length-prefixed: moving a character between id and text is a change
    assert questions_fingerprint([Question("1", "2x")]) != questions_fingerprint([Question("12", "x")])


def test_prompts_fingerprint_covers_the_methods_templates(tmp_path):
    from omegaconf import OmegaConf

    root = tmp_path / "prompts"
    (root / "rag").mkdir(parents=True)
    (root / "scop").mkdir()
    (root / "_shared").mkdir()
    (root / "rag" / "answerer.txt").write_text("### user\n{{ question }}\n")
    (root / "scop" / "answerer.txt").write_text("### user\n{{ question }}\n")
    (root / "_shared" / "repair.txt").write_text("### user\nfix it\n")
    cfg = OmegaConf.create({"method": {"name": "rag"}, "backbone": {"kind": "openai", "prompts_dir": str(root)}})
    fp = prompts_fingerprint(cfg)
    (root / "scop" / "answerer.txt").write_text("### user\nchanged {{ question }}\n")  # another method's
    assert prompts_fingerprint(cfg) == fp
    (root / "rag" / "answerer.txt").write_text("### user\nAnswer: {{ question }}\n")
    assert prompts_fingerprint(cfg) != fp
    fp2 = prompts_fingerprint(cfg)
    (root / "_shared" / "repair.txt").write_text("### user\nfix it now\n")
    assert prompts_fingerprint(cfg) != fp2
    sym = OmegaConf.create({"method": {"name": "rag"}, "backbone": {"kind": "symbolic"}})
    assert prompts_fingerprint(sym) is None  # the symbolic backbone renders no prompt


# --------------------------------------------------------------------------- run-dir lock (no Ray)


def test_lock_refuses_a_second_writer_naming_the_first(tmp_path):
    run = tmp_path / "run"
    # a live process on this host holds the dir (a child, so its pid is alive and not ours)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        run.mkdir()
        from tkgqa_ray.pipeline.rundir_lock import _pid_start

        (run / LOCK_NAME).write_text(json.dumps({
            "host": socket.gethostname(), "pid": child.pid, "pid_start": _pid_start(child.pid),
            "started": "2026-11-30T10:00:00+00:00", "argv": ["tkgqa-ray", "run", "method=rag"]}))
        with pytest.raises(RunDirError, match=rf"in use by another run \(pid {child.pid} on host "):
            RunDirLock(run).acquire()
    finally:
        child.kill()
        child.wait()
    # the holder died (kill -9): its lock is stale and taken over, with a note of whom it was
    with RunDirLock(run) as lock:
        assert lock.took_over["pid"] == child.pid
        assert json.loads((run / LOCK_NAME).read_text())["pid"] == os.getpid()
    assert not (run / LOCK_NAME).exists()


def test_lock_of_a_killed_unreaped_holder_is_stale(tmp_path):
    from tkgqa_ray.pipeline.rundir_lock import _pid_start

    run = tmp_path / "run"
    run.mkdir()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    (run / LOCK_NAME).write_text(json.dumps({"host": socket.gethostname(), "pid": child.pid,
                                             "pid_start": _pid_start(child.pid), "started": "x"}))
    child.kill()  # a zombie until waited for: os.kill(pid, 0) still succeeds
    import time

    time.sleep(0.3)
    try:
        with RunDirLock(run) as lock:
            assert lock.took_over["pid"] == child.pid
    finally:
        child.wait()


def test_lock_of_another_host_is_never_broken(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / LOCK_NAME).write_text(json.dumps({"host": "node-17.elsewhere", "pid": 1, "started": "x"}))
    with pytest.raises(RunDirError, match="node-17.elsewhere.*delete"):
        RunDirLock(run).acquire()


def test_lock_detects_pid_reuse(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    # pid 1 is alive, but it is not the process that wrote the lock (another start time)
    (run / LOCK_NAME).write_text(json.dumps({"host": socket.gethostname(), "pid": 1, "pid_start": "-1", "started": "x"}))
    with RunDirLock(run) as lock:
        assert lock.took_over["pid"] == 1


def test_lock_on_a_new_dir_leaves_nothing_when_released(tmp_path):
    run = tmp_path / "a" / "run"
    with RunDirLock(run):
        assert (run / LOCK_NAME).exists()
    assert not run.exists()


# --------------------------------------------------------------------------- through the driver


@pytest.mark.ray
def test_resume_refuses_changed_questions_and_kg(ray_session, tmp_path):
    root = tmp_path / "ds"
    make_dataset(root, n_questions=10)
    out = tmp_path / "run"
    run_pipeline(compose_cfg(root, out, *FAST))
    ident = json.loads((out / "run_identity.json").read_text())
    assert set(ident["fingerprints"]) == {"questions", "n_questions", "kg", "prompts"}
    before = read_rows(out)

    # swap two records' texts (same quids): the written rows answer other questions now
    recs = _questions(root)
    recs[0]["question"], recs[1]["question"] = recs[1]["question"], recs[0]["question"]
    (root / "questions" / "test.json").write_text(json.dumps(recs))
    with pytest.raises(ResumeRefused, match=r"question file changed.*2 question\(s\).*--fresh"):
        run_pipeline(compose_cfg(root, out, *FAST))
    assert read_rows(out) == before and (out / MARKER).exists()  # refused before touching anything
    recs[0]["question"], recs[1]["question"] = recs[1]["question"], recs[0]["question"]
    (root / "questions" / "test.json").write_text(json.dumps(recs))

    # a smaller question set with unchanged texts is a legitimate resume (run.limit)
    info = run_pipeline(compose_cfg(root, out, *FAST, "run.limit=5"))
    assert info["counts"]["run_this_invocation"] == 0 and len(read_rows(out)) == 5

    # cut the KG at the same root: refused, naming the KG
    kg = root / "kg" / "full.txt"
    kg.write_text("".join(kg.read_text().splitlines(keepends=True)[:-50]))
    with pytest.raises(ResumeRefused, match=r"KG content .* changed.*run.output_dir"):
        run_pipeline(compose_cfg(root, out, *FAST))
    # the way out the message names: --fresh (run.resume=false) starts over on the new data
    info = run_pipeline(compose_cfg(root, out, *FAST, "run.resume=false"))
    assert info["counts"]["run_this_invocation"] == 10


@pytest.mark.ray
def test_second_run_into_a_locked_dir_refuses(ray_session, tmp_path):
    root = tmp_path / "ds"
    make_dataset(root, n_questions=4)
    out = tmp_path / "run"
    with RunDirLock(out):  # as if another run were writing there (this process holds it)
        held = json.loads((out / LOCK_NAME).read_text())
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        try:  # make the holder another live process, as a concurrent `tkgqa-ray run` would be
            from tkgqa_ray.pipeline.rundir_lock import _pid_start

            (out / LOCK_NAME).write_text(json.dumps({**held, "pid": child.pid, "pid_start": _pid_start(child.pid)}))
            with pytest.raises(RunDirError, match=rf"in use by another run \(pid {child.pid}"):
                run_pipeline(compose_cfg(root, out, *FAST))
            assert sorted(p.name for p in out.iterdir()) == [LOCK_NAME]  # nothing else written
        finally:
            child.kill()
            child.wait()


@pytest.mark.ray
def test_completion_marker_is_written_last(ray_session, tmp_path, monkeypatch):
    root = tmp_path / "ds"
    make_dataset(root, n_questions=6)
    out = tmp_path / "run"
    import tkgqa_ray.eval as ev

    real = ev.write_run_report

    def killed(*a, **k):  # the driver dies between summary.json and metrics.json
        raise KeyboardInterrupt

    monkeypatch.setattr(ev, "write_run_report", killed)
    with pytest.raises(KeyboardInterrupt):
        run_pipeline(compose_cfg(root, out, *FAST))
    assert (out / "predictions.parquet").exists() and (out / "summary.json").exists()
    assert not (out / MARKER).exists() and not (out / LOCK_NAME).exists()
    with pytest.raises(RunDirError, match="unfinished run"):
        require_complete(out)
    from tkgqa_ray.pipeline.sweep import build_report, run_diff

    with pytest.raises(RunDirError, match="unfinished run"):
        build_report([out])
    with pytest.raises(RunDirError, match="unfinished run"):
        run_diff(out, out)

    monkeypatch.setattr(ev, "write_run_report", real)
    run_pipeline(compose_cfg(root, out, *FAST))  # rerun: nothing to do but finishing
    marker = json.loads((out / MARKER).read_text())
    assert marker["status"] == "complete" and marker["questions"] == 6
    assert (out / "metrics.json").exists()
    require_complete(out)
    # the marker is the newest file of the run (written after run.json and the report)
    newest = max((p for p in out.iterdir() if p.is_file() and p.name != LOCK_NAME), key=lambda p: p.stat().st_mtime_ns)
    assert newest.name == MARKER


def test_bad_input_files_fail_before_ray_with_exit_3_and_write_nothing(tmp_path):
    root = tmp_path / "ds"
    make_dataset(root, n_questions=5)
    with open(root / "kg" / "full.txt", "a") as fh:
        fh.write("Actor_1_North\tMake_statement\tonly three columns\n")
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    env.pop("RAY_ADDRESS", None)
    p = subprocess.run(
        [sys.executable, "-m", "tkgqa_ray.cli", "run", "method=rag", "backbone=symbolic", "dataset=multitq",
         f"dataset.root={root}", f"run.output_dir={out}"],
        capture_output=True, text=True, timeout=180, env=env,
    )
    assert p.returncode == 3, p.stderr[-3000:]
    err = [line for line in p.stderr.splitlines() if line.startswith("tkgqa-ray: ")]
    assert len(err) == 1 and "KG file" in err[0] and "full.txt:401" in err[0], p.stderr[-3000:]
    assert "Traceback" not in p.stderr and "Started a local Ray" not in p.stdout + p.stderr
    written = sorted(q.name for q in out.iterdir()) if out.exists() else []
    assert all(n == ".hydra" or n.endswith(".log") for n in written), written  # only Hydra's own files

    # a broken question file: same class, same exit code
    (root / "kg" / "full.txt").write_text("".join((root / "kg" / "full.txt").read_text().splitlines(True)[:-1]))
    (root / "questions" / "test.json").write_text('[{"quid": 1, "question": "x"')
    p = subprocess.run(p.args, capture_output=True, text=True, timeout=180, env=env)
    assert p.returncode == 3 and "question file" in p.stderr and "Traceback" not in p.stderr, p.stderr[-3000:]


def test_load_inputs_names_the_file(tmp_path):
    from test_pipeline_methods import compose_cfg as cc

    from tkgqa_ray.pipeline.inputs import load_inputs

    root = tmp_path / "ds"
    make_dataset(root, n_questions=3)
    (root / "kg" / "full.txt").write_text("")
    with pytest.raises(InputError, match=r"KG file.*full\.txt"):
        load_inputs(cc(root, tmp_path / "out"))


def test_report_and_diff_user_errors_exit_4_without_traceback(tmp_path):
    env = {**os.environ}
    for args in (["report", str(tmp_path / "nope")], ["diff", str(tmp_path / "a"), str(tmp_path / "b")]):
        p = subprocess.run([sys.executable, "-m", "tkgqa_ray.cli", *args], capture_output=True, text=True,
                           timeout=120, env=env)
        assert p.returncode == 4, p.stderr[-2000:]
        assert p.stderr.startswith("tkgqa-ray: ") and "Traceback" not in p.stderr
    # a hand-made run dir without gold: named, one line, exit 4
    import pandas as pd

    bare = tmp_path / "bare"
    bare.mkdir()
    pd.DataFrame({"quid": ["1"], "question": ["q?"], "predictions": [["x"]]}).to_parquet(bare / "predictions.parquet")
    p = subprocess.run([sys.executable, "-m", "tkgqa_ray.cli", "report", str(bare)], capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 4 and "gold" in p.stderr and "Traceback" not in p.stderr, p.stderr[-2000:]
    p = subprocess.run([sys.executable, "-m", "tkgqa_ray.cli", "diff", str(bare), str(bare), "--protocol", "nope"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 2 and "config error: --protocol is unknown" in p.stderr, p.stderr[-2000:]
