"""A request cache so that a rerun or a resumed run makes no repeated model call.

What it may serve (docs/running.md "Guarantees"): a reply is stored only after it came back
from the server *and passed the role's validation* (free-text roles: any reply); transport
errors and replies that failed validation are never stored, so they can never be served, let
alone as successes. The key is sha256 of (key version, backbone name, configured model, the
model identity the server reports (``/v1/models`` id + root, see
``Transport.server_identity``), transport settings that change outputs (guided JSON,
``extra_body``), role, rendered messages, sampling params incl. the JSON schema). While the
server has not said which model it serves (unreachable, never replied), the cache is not read
at all: a dead or different server cannot be papered over with stored replies. Entries of
older key versions are simply never hit.

One SQLite file in WAL mode: safe for several processes on one node (Ray workers,
pytest-xdist); every worker opens its own connection.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any


KEY_VERSION = 2  # v2: server identity + transport settings in the key; only validated replies stored


def request_key(**parts: Any) -> str:
    blob = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class RequestCache:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self.hits = 0
        self.misses = 0
        with self._conn() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS requests ("
                " key TEXT PRIMARY KEY, value TEXT NOT NULL, created REAL NOT NULL)"
            )

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "pid", None) != os.getpid():
            conn = sqlite3.connect(str(self.path), timeout=60.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=60000")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def get(self, key: str) -> dict[str, Any] | None:
        row = self._conn().execute("SELECT value FROM requests WHERE key = ?", (key,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        self.hits += 1
        return json.loads(row[0])

    def put(self, key: str, value: dict[str, Any]) -> None:
        self._conn().execute(
            "INSERT OR REPLACE INTO requests (key, value, created) VALUES (?, ?, ?)",
            (key, json.dumps(value, ensure_ascii=False), time.time()),
        )

    def __len__(self) -> int:
        return self._conn().execute("SELECT COUNT(*) FROM requests").fetchone()[0]

    def __getstate__(self) -> dict[str, Any]:  # picklable for Ray: connections are per process
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"RequestCache({str(self.path)!r})"
