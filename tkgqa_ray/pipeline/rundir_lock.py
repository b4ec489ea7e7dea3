"""One writer per run dir: ``<run dir>/.lock`` names the run that holds it.

The lock file is created with ``O_CREAT | O_EXCL`` (atomic on POSIX, also on NFSv3+), and
holds the holder's host, pid, the pid's start time and the run's start time. A second run into
the same dir refuses, naming the first. A lock whose holder is dead is *stale* and is taken
over; that can only be known on the holder's own host (pid gone, or the pid now belongs to a
process that started later: pid reuse). A lock from another host is never broken
automatically: the message says which host and how to remove it if that run is gone.

Written by hand rather than with ``fcntl.flock``/``filelock`` because the holder must be
*named* to the second run and a dead holder must be recognisable from the file alone (a
flock vanishes with its process, but says nothing about who held it; on NFS it may not work).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tkgqa_ray.pipeline.errors import RunDirError

LOCK_NAME = ".lock"


def _stat(pid: int) -> list[str] | None:
    """Fields 3.. of ``/proc/<pid>/stat`` (Linux), else ``None``; comm may hold spaces/parens."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _pid_start(pid: int) -> str | None:
    """Start time of ``pid`` in clock ticks since boot (field 22 of stat), else ``None``."""
    st = _stat(pid)
    return st[19] if st else None


def _alive(pid: int, start: str | None) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        pass
    st = _stat(pid)
    if st is not None and st[0] in ("Z", "X"):
        return False  # killed, not yet reaped by its parent
    if start is not None and st is not None and st[19] != start:
        return False  # the pid was reused by a later process
    return True


def holder_text(info: dict[str, Any]) -> str:
    argv = " ".join(info.get("argv") or [])[:200]
    return (
        f"pid {info.get('pid')} on host {info.get('host')}, started {info.get('started')}"
        + (f" ({argv})" if argv else "")
    )


class RunDirLock:
    """Context manager holding ``run_dir/.lock``; creates ``run_dir`` if needed."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self.created_dir = False
        self.took_over: dict[str, Any] | None = None  # a stale lock's content, when one was broken
        self._held = False

    def _info(self) -> dict[str, Any]:
        return {
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "pid_start": _pid_start(os.getpid()),
            "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "argv": list(sys.argv),
        }

    def _read(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.path.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return {}  # being written right now, or garbage: treated as held, see acquire

    def acquire(self) -> "RunDirLock":
        if not self.run_dir.exists():
            try:
                self.run_dir.mkdir(parents=True)
                self.created_dir = True
            except FileExistsError:
                pass
            except OSError as exc:
                raise RunDirError(f"cannot create run dir {self.run_dir}: {exc.strerror or exc}") from None
        for attempt in range(50):
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                info = self._read()
                if info is None:
                    continue  # released between our open and read: try again
                if not info:  # empty: another run is between create and write
                    if attempt < 10 or time.time() - self.path.stat().st_mtime < 5:
                        time.sleep(0.1)
                        continue
                    raise RunDirError(
                        f"run dir {self.run_dir} has an unreadable lock file {self.path}; "
                        "if no other run writes there, delete it and rerun"
                    )
                if self._stale(info):
                    self.took_over = info
                    try:
                        self.path.unlink()
                    except FileNotFoundError:
                        pass
                    continue
                raise RunDirError(
                    f"run dir {self.run_dir} is in use by another run ({holder_text(info)}); "
                    "wait for it, or use another run.output_dir"
                    + ("" if info.get("host") == socket.gethostname() else
                       f"; if that run is gone, delete {self.path}")
                )
            except OSError as exc:
                raise RunDirError(f"cannot write to run dir {self.run_dir}: {exc.strerror or exc}") from None
            with os.fdopen(fd, "w") as fh:
                json.dump(self._info(), fh)
                fh.flush()
                os.fsync(fh.fileno())
            self._held = True
            return self
        raise RunDirError(f"could not take the lock {self.path} (it keeps changing hands)")

    @staticmethod
    def _stale(info: dict[str, Any]) -> bool:
        if info.get("host") != socket.gethostname():
            return False
        try:
            pid = int(info["pid"])
        except (KeyError, TypeError, ValueError):
            return False
        if pid == os.getpid():
            return False  # our own process (e.g. a second driver call in one process): still held
        return not _alive(pid, info.get("pid_start"))

    def release(self) -> None:
        if not self._held:
            return
        self._held = False
        try:
            info = self._read()
            if info and info.get("pid") == os.getpid() and info.get("host") == socket.gethostname():
                self.path.unlink()
        except OSError:
            pass
        if self.created_dir:  # a run that never wrote anything leaves no dir behind
            try:
                self.run_dir.rmdir()
            except OSError:
                pass

    def __enter__(self) -> "RunDirLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def stale_lock_warning(lock: RunDirLock) -> str:
    info = lock.took_over or {}
    return (
        f"took over the lock of {lock.run_dir} from a run that died without releasing it "
        f"({holder_text(info)}); its finished batches are kept and resumed. If it was killed "
        "(kill -9, OOM), Ray processes it started may be left over (ray::DashboardAgent, "
        "ray::RuntimeEnvAgent, raylet): `ray stop --force` ends every Ray process of yours on "
        "this machine (only when no other Ray session of yours runs)"
    )
