"""The vLLM CPU server's start-up is visible: phases read from its log, a bar with elapsed
time, "ready in N s", or an error naming the phase and the log (no vLLM: a fake server
replays a real start-up log, ``tests/data/vllm_cpu_server_start.log``)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from tkgqa_ray.backbones.transports.cpu_server import CPUServer
from tkgqa_ray.backbones.transports.startup import PHASES, STARTING, LogFollower, PhaseTracker, StartupProgress

HERE = Path(__file__).parent
REAL_LOG = HERE / "data" / "vllm_cpu_server_start.log"
FAKE = HERE / "fake_vllm_server.py"


def test_phases_of_a_real_vllm_cpu_start_log_in_order():
    tr = PhaseTracker()
    seen = [STARTING]
    for line in REAL_LOG.read_text(encoding="utf-8").splitlines():
        if tr.feed(line):
            seen.append(tr.doing)
    # --enforce-eager: no compilation step; every other phase appears, in order
    assert seen == [STARTING] + [p.doing for p in PHASES if "compil" not in p.doing]
    assert tr.step == len(PHASES) and tr.errors == []


def test_tracker_never_moves_back_and_keeps_error_lines():
    tr = PhaseTracker()
    assert tr.feed("(Worker pid=1) INFO [cpu_model_runner.py:68] Starting to load model /m...")
    assert tr.doing == "loading the model weights" and tr.step == 3
    assert not tr.feed("(APIServer pid=1) INFO [model.py:733] Resolved architecture: LlamaForCausalLM")
    assert tr.step == 3
    assert not tr.feed("(EngineCore pid=2) ERROR 11-30 [core.py:9] EngineCore failed to start.")
    assert not tr.feed("WARNING: failed to automatically increase with error current limit")
    assert tr.errors == ["(EngineCore pid=2) ERROR 11-30 [core.py:9] EngineCore failed to start."]


def test_log_follower_reads_only_complete_lines_from_its_offset(tmp_path):
    log = tmp_path / "x.log"
    log.write_bytes(b"old run line\n")
    f = LogFollower(log, offset=log.stat().st_size)
    assert f.read() == []
    with open(log, "ab") as fh:
        fh.write(b"first\nLoading shards:   0%\rLoading shards: 100%\rhalf a li")
    assert f.read() == ["first", "Loading shards:   0%", "Loading shards: 100%"]
    with open(log, "ab") as fh:
        fh.write(b"ne\n")
    assert f.read() == ["half a line"]


def test_progress_bar_shows_phase_and_elapsed_then_ready(tmp_path):
    log = tmp_path / "s.log"
    log.write_text("")
    out = io.StringIO()
    p = StartupProgress("vLLM CPU server", log, file=out)
    p.poll()
    assert f"vLLM CPU server: {STARTING}" in out.getvalue() and "0/8 [00:00]" in out.getvalue()
    log.write_text("(Worker pid=1) INFO [x] Starting to load model /m\n")
    p.poll()
    assert "vLLM CPU server: loading the model weights" in out.getvalue() and "3/8" in out.getvalue()
    line = p.ready("http://127.0.0.1:1/v1")
    assert line.startswith("vLLM CPU server ready in 0 s at http://127.0.0.1:1/v1 (log: ")
    assert out.getvalue().rstrip().endswith(line) and "8/8" in out.getvalue()


class FakeServer(CPUServer):
    """CPUServer's start/wait/stop with the fake script instead of vLLM."""

    fake_args: tuple = ()

    def command(self, model_dir: Path, env=None) -> list[str]:
        return [sys.executable, str(FAKE), "--port", str(self.port), "--replay", str(REAL_LOG), *self.fake_args]


def _server(tmp_path: Path, *fake_args: str, **kw) -> FakeServer:
    model = tmp_path / "model"
    model.mkdir()
    (model / ".complete").write_text("test: no conversion")
    srv = FakeServer(model_dir=model, log_path=tmp_path / "server.log", **kw)
    srv.fake_args = fake_args
    return srv


def test_fake_server_start_prints_each_phase_and_ready_in(tmp_path, capfd):
    srv = _server(tmp_path, "--delay", "0.03")
    srv.log_path.write_text("a previous start's line: Application startup complete\n")  # appended to, not read
    with srv:
        err = capfd.readouterr().err
        import httpx

        assert httpx.get(f"{srv.base_url}/models").json()["data"][0]["id"] == "fake"
    assert srv.proc is None  # stopped on exit
    # The bar went through the phases (redrawn at most twice a second, so check the ends),
    # and the start ended in one closing line naming the URL and the log.
    assert f"vLLM CPU server: {STARTING}" in err or "vLLM CPU server: reading the model config" in err
    assert "vLLM CPU server: HTTP server up, waiting for /v1/models" in err and "8/8" in err
    assert f"vLLM CPU server ready in " in err and f"at {srv.base_url} (log: {srv.log_path})" in err


def test_fake_server_crash_names_phase_exit_code_error_lines_and_log(tmp_path, capfd):
    srv = _server(tmp_path, "--stop-after", "Loading weights took", "--then", "crash")
    with pytest.raises(RuntimeError) as ei:
        srv.start()
    msg = str(ei.value)
    assert msg.startswith("vLLM CPU server exited (code 3) during start-up after ")
    assert "while profiling the model, allocating the KV cache (step 4/8)" in msg
    assert f"log: {srv.log_path}" in msg
    assert "EngineCore failed to start." in msg and "RuntimeError: not enough memory for the KV cache" in msg
    assert srv.proc is None
    assert "ready in" not in capfd.readouterr().err


def test_fake_server_timeout_names_phase_and_log_and_stops_it(tmp_path):
    # the limit must outlast the fake server's own Python start on a loaded box: at 3 s it once
    # timed out still importing (step 0/8) in CI, beside the vLLM starts of the llm chain
    srv = _server(tmp_path, "--stop-after", "Starting to load model", "--then", "hang", startup_timeout_s=10.0,
                  progress=False)
    with pytest.raises(TimeoutError) as ei:
        srv.start()
    msg = str(ei.value)
    assert "not ready after 10 s (startup_timeout_s)" in msg
    assert "while loading the model weights (step 3/8)" in msg and f"log: {srv.log_path}" in msg
    assert srv.proc is None


def test_unpinned_threads_run_the_model_worker_in_the_engine_core(tmp_path):
    """nobind: ``--distributed-executor-backend uni`` (one process fewer); pinned threads
    keep vLLM's default worker process; ``server_args`` choosing the executor win."""
    from tkgqa_ray.backbones.transports.cpu_server import worker_in_engine_process

    srv = CPUServer(port=1)
    cmd = srv.command(tmp_path, {"VLLM_CPU_OMP_THREADS_BIND": "nobind"})
    assert cmd[cmd.index("--distributed-executor-backend") + 1] == "uni"
    assert "--distributed-executor-backend" not in srv.command(tmp_path, {"VLLM_CPU_OMP_THREADS_BIND": "auto"})
    assert "--distributed-executor-backend" not in srv.command(tmp_path, {})
    own = CPUServer(port=1, extra_args=["--distributed-executor-backend", "mp"])
    cmd = own.command(tmp_path, {"VLLM_CPU_OMP_THREADS_BIND": "nobind"})
    assert cmd.count("--distributed-executor-backend") == 1 and cmd[-1] == "mp"
    assert worker_in_engine_process({"VLLM_CPU_OMP_THREADS_BIND": "nobind"})
    assert not worker_in_engine_process({"VLLM_CPU_OMP_THREADS_BIND": "0-1"})


def test_server_env_disables_vllm_multiprocessing_only_with_the_uni_executor(tmp_path, monkeypatch):
    """The env the server process gets: ``VLLM_ENABLE_V1_MULTIPROCESSING=0`` exactly when the
    command asks for ``uni`` (else vLLM-CPU turns it back into ``mp``)."""
    seen: dict = {}

    class Capture(FakeServer):
        def command(self, model_dir, env=None):
            seen["env"], seen["in_engine"] = dict(env), self._worker_in_engine(env)
            return super().command(model_dir, env)

    for bind, expect in (("nobind", "0"), ("auto", None)):
        monkeypatch.setenv("VLLM_CPU_OMP_THREADS_BIND", bind)
        monkeypatch.delenv("VLLM_ENABLE_V1_MULTIPROCESSING", raising=False)
        model = tmp_path / bind / "model"
        model.mkdir(parents=True)
        (model / ".complete").write_text("test")
        with Capture(model_dir=model, log_path=tmp_path / bind / "s.log", progress=False):
            pass
        assert seen["env"].get("VLLM_ENABLE_V1_MULTIPROCESSING") == expect and seen["in_engine"] == (expect == "0")
