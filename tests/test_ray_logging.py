"""Known-harmless Ray console lines go to the run's ``ray_console.log``; in a sweep (several
runs in one process, Ray started once) each run gets its own file, pointing at the first."""

from __future__ import annotations

import io
import logging

import pytest

from tkgqa_ray.pipeline import ray_logging
from tkgqa_ray.pipeline.ray_logging import CONSOLE_LOG, attach_run, quiet_ray_console


@pytest.fixture
def fresh_state(monkeypatch):
    monkeypatch.setattr(ray_logging, "_file_handler", None)
    monkeypatch.setattr(ray_logging, "_ray_start_log", None)
    yield
    if ray_logging._file_handler is not None:
        ray_logging._file_handler.close()


def _ray_data_info(msg: str) -> None:
    logging.getLogger("ray.data").info(msg)  # Ray Data's per-dataset chatter: known harmless


def test_each_run_of_a_sweep_gets_its_own_console_log(fresh_state, tmp_path, monkeypatch):
    import ray

    job0, job1, job2 = tmp_path / "0_a", tmp_path / "1_b", tmp_path / "2_c"
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # job 0 is the run that starts Ray
    quiet_ray_console(job0)
    # What Ray's console handlers print, read from the handlers themselves: in a whole-suite run
    # they were created while another test's capture was active, so their stream is not fd 2.
    console = io.StringIO()
    handlers = list(dict.fromkeys(ray_logging._console_handlers()))  # one handler may sit on both loggers
    assert handlers, "importing ray / ray.data installs console handlers"
    olds = [h.setStream(console) for h in handlers]
    try:
        _ray_data_info("Starting execution of Dataset job0")
        monkeypatch.setattr(ray, "is_initialized", lambda: True)  # jobs 1, 2: Ray already up
        attach_run(job1)
        _ray_data_info("Starting execution of Dataset job1")
        attach_run(job2)
        _ray_data_info("Starting execution of Dataset job2")
        logging.getLogger("ray.data").warning("a real Ray Data problem")  # not known harmless: console
    finally:
        for h, o in zip(handlers, olds):
            h.setStream(o)

    f0, f1, f2 = ((d / CONSOLE_LOG).read_text() for d in (job0, job1, job2))
    assert "Dataset job0" in f0 and "job1" not in f0 and "job2" not in f0
    assert "Dataset job1" in f1 and "job0" not in f1 and "Dataset job2" not in f1
    assert "Dataset job2" in f2 and "Dataset job1" not in f2
    for f in (f1, f2):
        first = f.splitlines()[0]
        assert first.startswith("# tkgqa-ray: an earlier run in this process started Ray")
        assert str((job0 / CONSOLE_LOG).resolve()) in first
    err = console.getvalue()  # what reached Ray's console handlers
    assert "Starting execution of Dataset" not in err
    assert "a real Ray Data problem" in err and "a real Ray Data problem" not in f2


def test_attach_run_when_ray_was_started_elsewhere(fresh_state, tmp_path, monkeypatch):
    import ray

    monkeypatch.setattr(ray, "is_initialized", lambda: True)
    attach_run(tmp_path / "run")
    _ray_data_info("Execution plan of Dataset x")
    text = (tmp_path / "run" / CONSOLE_LOG).read_text()
    assert text.startswith("# tkgqa-ray: Ray was started before this run (not by tkgqa-ray's driver)")
    assert "Execution plan of Dataset x" in text


@pytest.mark.ray
def test_the_notice_holder_is_ended_once_it_has_a_worker(ray_session, tmp_path):
    """absorb_restart_notice spends Ray's notice on a throwaway actor, then ends it from a thread
    once the actor is up (killing it while its worker was being leased made the GCS print "Failed
    to kill actor NIL_ID" on the console); the notice itself lands in the run's file."""
    import threading
    import time

    ray = ray_session
    ray_logging.absorb_restart_notice(tmp_path)
    (holder,) = [t for t in threading.enumerate() if t.name == "tkgqa-notice-holder"]
    holder.join(timeout=120)
    assert not holder.is_alive()
    assert "once-per-process notice" in (tmp_path / CONSOLE_LOG).read_text()

    # _end_when_ready on an actor of our own: alive before, dead after
    handle = ray.remote(ray_logging._NoticeHolder).options(num_cpus=0).remote(None)
    ray_logging._end_when_ready(handle)
    with pytest.raises(ray.exceptions.RayActorError):
        deadline = time.time() + 30
        while time.time() < deadline:
            ray.get(handle.__ray_ready__.remote(), timeout=30)
            time.sleep(0.2)
