"""What a starting vLLM server is doing, shown on the driver's console while it starts.

``vllm.entrypoints.openai.api_server`` on a shared 2-core CPU takes one to four minutes to
answer ``/v1/models`` (importing torch and vLLM, starting the engine-core process, loading
weights, allocating the KV cache, starting the HTTP server), and all it prints goes to its log
file. So the driver follows that log while it polls: each known phase line (:data:`PHASES`,
matched on vLLM 0.32's log lines) moves a one-line bar that says what the server is doing and
for how long, and the start ends in "ready in N s" or in an error that names the phase it got
to, the log file and the log's last lines.

The phase list is data: an unknown vLLM version only means fewer steps on the bar (the
elapsed time still runs), never a failed start.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any


@dataclass(frozen=True)
class Phase:
    """A start-up step, entered when a log line matches ``pattern``."""

    pattern: str
    doing: str  # what the server is doing from then on


STARTING = "starting Python, importing vLLM and torch"
# In start-up order; a later match never moves the bar back (phases may be skipped, e.g.
# compilation with --enforce-eager).
PHASES: tuple[Phase, ...] = (
    # the API server has read the config; the engine-core process now imports vLLM again
    Phase(r"non-default args|Resolved architecture", "read the model config, starting the engine-core process"),
    Phase(r"Initializing a V1 LLM engine|Initializing an LLM engine", "engine core up, starting the model worker"),
    Phase(r"Starting to load model", "loading the model weights"),
    Phase(r"Loading weights took|Model loading took", "profiling the model, allocating the KV cache"),
    Phase(r"Compiling a graph|torch\.compile takes|Dynamo bytecode transform", "compiling the model (torch.compile)"),
    Phase(r"init engine \(profile, create kv cache, warmup model\) took|Capturing CUDA graphs",
          "starting the API server"),
    Phase(r"Starting vLLM (API )?server on|Started server process", "starting the HTTP server"),
    Phase(r"Application startup complete", "HTTP server up, waiting for /v1/models"),
)
_COMPILED = [re.compile(p.pattern) for p in PHASES]
ERROR_LINE = re.compile(r"\bERROR\b|Traceback \(most recent call last\)|^\w*(Error|Exception): ")


class PhaseTracker:
    """Reads the server log's new lines and knows the phase reached (pure: no clock, no I/O)."""

    def __init__(self) -> None:
        self.index = -1  # -1: no phase line yet (STARTING)
        self.errors: list[str] = []  # error-looking lines, newest last (a few)

    @property
    def doing(self) -> str:
        return STARTING if self.index < 0 else PHASES[self.index].doing

    @property
    def step(self) -> int:
        """Phases reached so far, 0..len(PHASES)."""
        return self.index + 1

    def feed(self, line: str) -> bool:
        """One log line; True when it moved the phase forward."""
        if ERROR_LINE.search(line):
            self.errors = (self.errors + [line.strip()])[-5:]
        for i in range(len(PHASES) - 1, self.index, -1):  # latest phase first: never backwards
            if _COMPILED[i].search(line):
                self.index = i
                return True
        return False


class LogFollower:
    """New complete lines of a growing log file, from a byte offset (``\\r`` ends a line too:
    vLLM's tqdm bars redraw with it)."""

    def __init__(self, path: str | Path, offset: int = 0) -> None:
        self.path = Path(path)
        self.offset = offset
        self._partial = b""

    def read(self) -> list[str]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        self.offset += len(data)
        data = self._partial + data
        *lines, self._partial = re.split(rb"\r\n|\r|\n", data)
        return [ln.decode("utf-8", "replace") for ln in lines if ln.strip()]


class StartupProgress:
    """The console side: a one-line bar (phase k/N, what the server does, elapsed time).

    ``file`` is where it draws (the driver's stderr); ``show=False`` draws nothing but still
    tracks phases, so errors can name the phase reached.
    """

    def __init__(self, what: str, log_path: str | Path, offset: int = 0, file: IO[str] | None = None,
                 show: bool = True) -> None:
        self.what = what
        self.log_path = Path(log_path)
        self.tracker = PhaseTracker()
        self.follower = LogFollower(log_path, offset)
        self.file = file if file is not None else sys.stderr
        self.t0 = time.monotonic()
        self._bar: Any = None
        if show:
            from tqdm import tqdm

            self._bar = tqdm(total=len(PHASES), desc=self._desc(), file=self.file, dynamic_ncols=True,
                             bar_format="{desc} |{bar:12}| {n}/{total} [{elapsed}]", mininterval=0.5)

    def _desc(self) -> str:
        return f"{self.what}: {self.tracker.doing}"

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def poll(self) -> None:
        """Read the log's new lines; move the bar; redraw (the elapsed time runs even when the
        log is quiet: an import on a busy machine can take minutes)."""
        moved = False
        for line in self.follower.read():
            moved |= self.tracker.feed(line)
        if self._bar is not None:
            if moved:
                self._bar.set_description_str(self._desc(), refresh=False)
                self._bar.n = self.tracker.step
            self._bar.refresh()

    def _close(self, final_step: int | None = None) -> None:
        if self._bar is not None:
            if final_step is not None:
                self._bar.n = final_step
            self._bar.refresh()
            self._bar.close()
            self._bar = None

    def ready(self, url: str) -> str:
        """Close the bar and print (and return) the closing line."""
        self.poll()
        self._close(len(PHASES))
        line = f"{self.what} ready in {self.elapsed:.0f} s at {url} (log: {self.log_path})"
        print(line, file=self.file, flush=True)
        return line

    def failure(self, cause: str, tail: str = "") -> str:
        """Close the bar; the error text: cause, phase reached, elapsed, log path, log lines."""
        self.poll()
        self._close()
        msg = (f"{self.what} {cause} after {self.elapsed:.0f} s while {self.tracker.doing} "
               f"(step {self.tracker.step}/{len(PHASES)}); log: {self.log_path}")
        if self.tracker.errors:
            msg += "\nerror lines in the log:\n  " + "\n  ".join(self.tracker.errors)
        if tail:
            msg += f"\nlast lines of the log:\n{tail}"
        return msg
