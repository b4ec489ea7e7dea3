"""Let ``SIGTERM`` unwind the driver like Ctrl-C, so the local Ray it started is stopped.

Python's default ``SIGTERM`` ends the process without running ``finally`` blocks or
``atexit`` hooks: the run-dir lock stays, the run's actors are not killed and the local Ray
cluster ``ray.init()`` started (raylet, GCS, ``ray::DashboardAgent``, ``ray::RuntimeEnvAgent``)
is left running with parent PID 1. Turning ``SIGTERM`` into ``SystemExit`` runs all of them
(``ray.init`` registers ``ray.shutdown`` at exit). ``kill -9`` cannot be caught: see
docs/running.md for ``ray stop --force``.
"""

from __future__ import annotations

import signal
import threading


def _exit_on_sigterm(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def install_sigterm_exit() -> bool:
    """Install the handler if SIGTERM still has its default action (and we are the main
    thread, where Python delivers signals); returns whether it was installed."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False  # someone (a test runner, a job system) handles it already
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    return True
