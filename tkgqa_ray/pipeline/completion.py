"""A run dir is complete exactly when it holds ``COMPLETE``, written last and atomically.

The driver removes ``COMPLETE`` before it changes anything in a run dir, and writes it (tmp
file + fsync + rename) after ``predictions.parquet``, ``summary.json``, the report files and
``run.json``. So a run killed at any point (even between ``summary.json`` and
``metrics.json``) leaves a dir without ``COMPLETE``: clearly unfinished, and a rerun of the
same command resumes it. ``report`` and ``diff`` refuse unfinished run dirs.

Dirs that were not written by the driver (no ``run_identity.json`` and no ``parts/``: a hand
made or imported ``predictions.parquet``) carry no marker and are taken as they are; so are
dirs finished by a driver from before the marker (their last write was ``run.json``).
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tkgqa_ray.pipeline.errors import RunDirError

MARKER = "COMPLETE"


def mark_started(run_dir: Path) -> None:
    """Before the first change to a run dir: it is unfinished from now on."""
    (Path(run_dir) / MARKER).unlink(missing_ok=True)


def mark_complete(run_dir: Path, info: dict[str, Any]) -> Path:
    """The last write of a run: ``COMPLETE`` with the headline counts (JSON)."""
    path = Path(run_dir) / MARKER
    tmp = path.with_name(f".{MARKER}.tmp-{os.getpid()}")
    body = {"status": "complete", "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"), **info}
    with open(tmp, "w") as fh:
        json.dump(body, fh, indent=2, default=str)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    return path


def written_by_driver(run_dir: Path) -> bool:
    d = Path(run_dir)
    return (d / "run_identity.json").exists() or (d / "parts").is_dir()


def _legacy_complete(d: Path) -> bool:
    """A dir finished by a driver from before the marker: its identity has no fingerprints
    and ``run.json`` (that driver's last write) exists."""
    try:
        ident = json.loads((d / "run_identity.json").read_text())
    except (OSError, ValueError):
        return False
    return "fingerprints" not in ident and (d / "run.json").is_file()


def is_complete(run_dir: Path) -> bool:
    d = Path(run_dir)
    return (d / MARKER).is_file() or _legacy_complete(d)


def require_complete(run_dir: Path) -> None:
    """Raise :class:`RunDirError` for a missing dir or a driver-written dir without ``COMPLETE``."""
    d = Path(run_dir)
    if not d.is_dir():
        raise RunDirError(f"{d}: not a directory (no run there)")
    if written_by_driver(d) and not is_complete(d):
        lock = d / ".lock"
        who = ""
        if lock.exists():
            try:
                from tkgqa_ray.pipeline.rundir_lock import holder_text

                who = f"; a run may still be writing it ({holder_text(json.loads(lock.read_text()))})"
            except (OSError, ValueError):
                pass
        raise RunDirError(
            f"{d} is an unfinished run (no {MARKER} marker: it was killed or is still running{who}); "
            "rerun the same `tkgqa-ray run` command to finish it"
        )
