"""Quiet, honest console: Ray's known-harmless lines go to a log file, not the terminal.

What reaches the console during a run is progress, a result, or a real problem. Ray prints a
few lines on every run that are none of those and read as failures; each goes to
``<run dir>/ray_console.log`` instead (everything else Ray logs is untouched):

* Python log records of Ray's driver loggers (``ray``, ``ray.data``), matched by logger and
  message in :data:`KNOWN_HARMLESS`: the token-auth notice (auth is on, as Ray chose; setting
  ``RAY_AUTH_MODE`` ourselves would change how ``ray.init()`` joins a ``ray start`` cluster,
  and ``disabled`` drops security), the "local instance started" banner (replaced by one line
  of ours with the dashboard URL and Ray's log folder), Ray Data's per-dataset INFO chatter,
  and its "progress bars disabled" warning (we show our own bar). A console filter on Ray's
  own handlers diverts them; levels and Ray's file logs are unchanged.
* The core worker's ``E``-level line "Actor ... has constructor arguments in the object store
  and max_restarts > 0". C++ writes it straight to fd 2, once per process
  (``RAY_LOG_ONCE_PER_PROCESS``), when the driver creates an actor whose constructor takes an
  ObjectRef with restarts on. Ray Data's actor pool always does (its map transform travels by
  ObjectRef, which the dataset keeps alive, ray-project/ray#53727); turning restarts off would
  lose fault tolerance, and no Ray setting moves C++ ``E`` lines off stderr without also
  dropping them from Ray's files (``RAY_BACKEND_LOG_LEVEL``). So right after ``ray.init`` the
  driver raises the notice itself, with fd 2 pointed at ``ray_console.log`` for that one call,
  on a throwaway actor that holds an ObjectRef; the once-per-process flag is then spent and
  Ray Data's pool no longer prints it. The file says so next to the captured line. The actor
  is ended from a thread once it has a worker (ended earlier, the GCS printed an E-level
  "Failed to kill actor NIL_ID" on the console in about half the runs).

A Hydra multirun sweep runs its jobs one after another in one process, and Ray stays up
between them: only the first job starts Ray. Each later job calls :func:`attach_run`, which
points the diversion at that job's own ``ray_console.log`` and starts the file with a line
naming the first job's file, which holds the lines only Ray's start prints (token notice,
banner, the once-per-process ``E`` notice).
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CONSOLE_LOG = "ray_console.log"

# (logger name prefix, message regex, max level): records at or below that level whose logger
# starts with the prefix and whose message matches leave the console (they go to the file).
KNOWN_HARMLESS: tuple[tuple[str, str, int], ...] = (
    ("ray._private.authentication", r"Token authentication is enabled|Generated new authentication token", logging.WARNING),
    ("ray._private.worker", r"Started a local Ray instance|Connecting to existing Ray cluster|Connected to Ray cluster", logging.INFO),
    ("ray.data", r"", logging.INFO),  # per-dataset execution plan / start / finish lines
    ("ray.data", r"Progress bars disabled", logging.WARNING),
)
RESTART_NOTICE = re.compile(r"has constructor arguments in the object store and max_restarts > 0")

_lock = threading.Lock()
_file_handler: logging.FileHandler | None = None
_ray_start_log: Path | None = None  # the ray_console.log of the run that started Ray here


class RayConsoleFilter(logging.Filter):
    """On Ray's console handlers: False (not printed) for known-harmless records, which are
    written to the run's ``ray_console.log`` instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not is_known_harmless(record):
            return True
        fh = _file_handler
        if fh is not None:
            try:
                fh.handle(record)
            except Exception:  # noqa: BLE001 - never lose the run over a log file
                pass
        return False


def is_known_harmless(record: logging.LogRecord) -> bool:
    msg = record.getMessage()
    return any(record.name.startswith(prefix) and record.levelno <= level and re.search(pattern, msg)
               for prefix, pattern, level in KNOWN_HARMLESS)


def _console_handlers() -> list[logging.Handler]:
    out = []
    for name in ("ray", "ray.data"):
        for h in logging.getLogger(name).handlers:
            if isinstance(h, logging.StreamHandler) and not isinstance(h, logging.FileHandler) and h not in out:
                out.append(h)
    return out


def quiet_ray_console(run_dir: Path) -> Path:
    """Before ``ray.init``: divert known-harmless Ray records from the console to
    ``run_dir/ray_console.log`` (idempotent; a later call re-points the file)."""
    global _file_handler, _ray_start_log
    import ray  # noqa: F401 - importing ray installs its console handler
    import ray.data  # noqa: F401 - and Ray Data's

    path = Path(run_dir) / CONSOLE_LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    with _lock:
        if not ray.is_initialized():  # this run is about to start Ray: its file has Ray's start lines
            _ray_start_log = path.resolve()
        old, _file_handler = _file_handler, logging.FileHandler(path, encoding="utf-8")
        _file_handler.setFormatter(logging.Formatter("%(asctime)s\t%(levelname)s %(name)s -- %(message)s"))
        if old is not None:
            old.close()
        for h in _console_handlers():
            if not any(isinstance(f, RayConsoleFilter) for f in h.filters):
                h.addFilter(RayConsoleFilter())
    return path


def attach_run(run_dir: Path) -> Path:
    """A run in a process where Ray is already up (a sweep's later job): its known-harmless
    Ray lines go to its own ``run_dir/ray_console.log`` from now on; the file's first line
    says where the lines printed when Ray started are."""
    path = Path(run_dir) / CONSOLE_LOG
    path.parent.mkdir(parents=True, exist_ok=True)
    first = _ray_start_log
    if first is not None and first != path.resolve():
        where = (f"an earlier run in this process started Ray; the lines Ray prints once per process "
                 f"(token notice, banner, the 'constructor arguments in the object store' notice) are in {first}")
    elif first is None:
        where = "Ray was started before this run (not by tkgqa-ray's driver); its start-up lines are not here"
    else:
        where = "this run dir started Ray earlier in this process"
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"# tkgqa-ray: {where}. Known-harmless Ray lines of this run follow.\n")
    return quiet_ray_console(run_dir)


class _NoticeHolder:
    """Throwaway actor whose creation raises Ray's once-per-process restart notice."""

    def __init__(self, ref: Any) -> None:
        pass


def absorb_restart_notice(run_dir: Path) -> None:
    """After ``ray.init``: spend Ray's once-per-process "constructor arguments in the object
    store" notice with fd 2 pointed at ``run_dir/ray_console.log`` (see the module doc)."""
    import ray

    path = Path(run_dir) / CONSOLE_LOG
    with open(path, "a", encoding="utf-8") as f:
        f.write("# tkgqa-ray: the next core-worker line is Ray's once-per-process notice, raised here on a "
                "throwaway actor so that Ray Data's actor pool (whose map transform always travels by ObjectRef, "
                "kept alive by the dataset; ray-project/ray#53727) does not print it on the console.\n")
    ref = ray.put(None)
    holder = ray.remote(_NoticeHolder).options(max_restarts=1, num_cpus=0, name=None)
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(path, "ab") as f:
            os.dup2(f.fileno(), 2)
            try:
                handle = holder.remote(ref)  # the notice is logged synchronously, here
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)
    if not RESTART_NOTICE.search(path.read_text(encoding="utf-8", errors="replace")):
        log.debug("Ray did not log its restart notice here (already spent, or Ray changed)")
    # Ended once it has a worker, off the run's critical path: ray.kill() (or dropping the handle)
    # while its worker was still being leased made the GCS print an E-level "Failed to kill actor
    # NIL_ID" on the console in about half the runs.
    threading.Thread(target=_end_when_ready, args=(handle,), name="tkgqa-notice-holder", daemon=True).start()


def _end_when_ready(handle: Any, timeout: float = 120.0) -> None:
    import ray

    try:
        ray.get(handle.__ray_ready__.remote(), timeout=timeout)
    except Exception:  # noqa: BLE001 - Ray shut down first, or the actor never started
        pass
    try:
        ray.kill(handle, no_restart=True)
    except Exception:  # noqa: BLE001
        pass


def announce(ctx: Any, address: str | None) -> None:
    """One line instead of Ray's banner: where the dashboard and Ray's own logs are."""
    try:
        url = getattr(ctx, "dashboard_url", None)
        session = (getattr(ctx, "address_info", None) or {}).get("session_dir")
        where = f"cluster {address}" if address else "local instance"
        parts = [f"Ray {where}"]
        if url:
            parts.append(f"dashboard http://{url}" if not str(url).startswith("http") else f"dashboard {url}")
        if session:
            parts.append(f"Ray logs {Path(session) / 'logs'}")
        log.info(", ".join(parts))
    except Exception:  # noqa: BLE001 - cosmetic
        pass
