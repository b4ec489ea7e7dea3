"""Progress of one-time embedding builds, visible where the user is looking.

A build (the real KG's fact index is minutes of encoder time on a CPU) usually runs inside a
Ray actor, whose stderr is not the user's console. So builds do not draw bars themselves:
they post to a :class:`ProgressBoard` (one per process, thread-safe), and whoever wants to
show them polls the board — a local tqdm bar for an in-process service, or
:class:`ProgressPoller` in the driver, which asks the actor for ``board.snapshot(cursor)`` a
few times a second and draws a tqdm bar (rate, ETA) plus one line for each message ("cached
at …", "reused cached …"). Polling a small method was chosen over ``ray.experimental.tqdm_ray``
because that one rides on the worker-log stream (``log_to_driver``), which runs and tests
switch off to keep the console quiet, and because a snapshot is plain data a test can check.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Callable

log = logging.getLogger(__name__)


@dataclass
class BuildState:
    """One build as the board knows it (plain data: it crosses the Ray boundary as a dict)."""

    build_id: int
    label: str  # "fact index", "entity index", ...
    total: int  # texts to embed
    done: int = 0  # texts finished (including rows resumed from checkpoints)
    resumed: int = 0  # rows read back from an interrupted build's checkpoints
    started: float = 0.0  # time.time() at start
    finished: bool = False
    seconds: float = 0.0  # wall time once finished


class ProgressBoard:
    """Builds in this process plus an append-only message log, read with a cursor."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._builds: dict[int, BuildState] = {}
        self._messages: list[tuple[int, str]] = []  # (seq, text)
        self._seq = 0
        self._next_id = 0

    def _bump(self) -> int:
        self._seq += 1
        return self._seq

    def start(self, label: str, total: int, resumed: int = 0) -> int:
        with self._lock:
            self._next_id += 1
            self._builds[self._next_id] = BuildState(self._next_id, label, int(total), int(resumed),
                                                     int(resumed), time.time())
            self._bump()
            return self._next_id

    def advance(self, build_id: int, rows: int) -> None:
        with self._lock:
            b = self._builds.get(build_id)
            if b is not None:
                b.done = min(b.total, b.done + int(rows))
                self._bump()

    def finish(self, build_id: int) -> None:
        with self._lock:
            b = self._builds.get(build_id)
            if b is not None:
                b.done, b.finished, b.seconds = b.total, True, time.time() - b.started
                self._bump()

    def message(self, text: str) -> None:
        with self._lock:
            self._messages.append((self._bump(), text))
        log.info("%s", text)

    def snapshot(self, cursor: int = 0) -> dict[str, Any]:
        """``{"cursor", "builds", "messages"}``: every build's state and the messages after
        ``cursor``; pass the returned cursor next time to get only what is new."""
        with self._lock:
            return {
                "cursor": self._seq,
                "builds": [asdict(b) for b in self._builds.values()],
                "messages": [t for s, t in self._messages if s > cursor],
            }


BOARD = ProgressBoard()  # the process's board: builds post here, actors serve its snapshot


def board_snapshot(cursor: int = 0) -> dict[str, Any]:
    return BOARD.snapshot(cursor)


class Reporter:
    """What one build calls: ``start`` → ``advance``… → ``finish``; also ``message``.

    Posts to the process board and, with ``bar=True`` (an in-process service on a console),
    draws a local tqdm bar too. ``callback(event, **fields)`` sees every call (tests).
    """

    def __init__(self, board: ProgressBoard | None = None, bar: bool = False,
                 callback: Callable[..., None] | None = None) -> None:
        self.board = board if board is not None else BOARD
        self.bar = bar
        self.callback = callback
        self._tqdm: Any = None
        self._id: int | None = None

    def start(self, label: str, total: int, resumed: int = 0) -> None:
        self._id = self.board.start(label, total, resumed)
        if self.bar:
            from tqdm import tqdm

            self._tqdm = tqdm(total=total, initial=resumed, desc=f"embedding {label}", unit="text",
                              unit_scale=True, dynamic_ncols=True, file=sys.stderr)
        if self.callback:
            self.callback("start", label=label, total=total, resumed=resumed)

    def advance(self, rows: int) -> None:
        if self._id is not None:
            self.board.advance(self._id, rows)
        if self._tqdm is not None:
            self._tqdm.update(rows)
        if self.callback:
            self.callback("advance", rows=rows)

    def finish(self) -> None:
        if self._id is not None:
            self.board.finish(self._id)
        if self._tqdm is not None:
            self._tqdm.close()
            self._tqdm = None
        if self.callback:
            self.callback("finish")

    def message(self, text: str) -> None:
        self.board.message(text)
        if self.bar:
            from tqdm import tqdm

            tqdm.write(text, file=sys.stderr)
        if self.callback:
            self.callback("message", text=text)


class ProgressPoller:
    """Driver side: polls ``fetch(cursor) -> snapshot`` in a thread and draws what it gets.

    Each unfinished build becomes a tqdm bar (texts done / total, rate, ETA); each message is
    printed once above the bars. ``on_snapshot`` (tests) sees every snapshot. ``stop()`` polls
    one last time, so a build that finished between two polls still shows its messages.
    Fetch errors (the actor restarting, Ray shutting down) are ignored: progress is a view.
    """

    def __init__(self, fetch: Callable[[int], dict], interval_s: float = 0.5, bars: bool = True,
                 on_snapshot: Callable[[dict], None] | None = None, file: Any = None) -> None:
        self.fetch = fetch
        self.interval_s = float(interval_s)
        self.bars = bars
        self.on_snapshot = on_snapshot
        self.file = file if file is not None else sys.stderr
        self.messages: list[str] = []  # everything printed, in order
        self._cursor = 0
        self._tqdm: dict[int, Any] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "ProgressPoller":
        self._thread = threading.Thread(target=self._run, name="embed-progress", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        self.poll_once()
        for bar in self._tqdm.values():
            bar.close()
        self._tqdm.clear()

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.poll_once()

    def poll_once(self) -> None:
        try:
            snap = self.fetch(self._cursor)
        except Exception:  # noqa: BLE001 - a view must never break the run
            log.debug("progress poll failed", exc_info=True)
            return
        self._cursor = int(snap.get("cursor", self._cursor))
        if self.on_snapshot is not None:
            self.on_snapshot(snap)
        for b in snap.get("builds", []):
            self._draw(b)
        for text in snap.get("messages", []):
            self.messages.append(text)
            if self.bars:
                from tqdm import tqdm

                tqdm.write(text, file=self.file)

    def _draw(self, b: dict) -> None:
        bar = self._tqdm.get(b["build_id"])
        if bar is None:
            if b["finished"] or not self.bars:
                return  # finished before we first saw it: its messages say what happened
            from tqdm import tqdm

            bar = tqdm(total=b["total"], initial=b["done"], desc=f"embedding {b['label']}",
                       unit="text", unit_scale=True, dynamic_ncols=True, file=self.file)
            self._tqdm[b["build_id"]] = bar
        if b["done"] > bar.n:
            bar.update(b["done"] - bar.n)
        if b["finished"]:
            bar.close()
            self._tqdm.pop(b["build_id"], None)
