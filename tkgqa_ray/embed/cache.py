"""On-disk cache of corpus embeddings: one ``.npy`` + a JSON manifest per (content, model, kind).

Embedding the real KG's 166,760 distinct triples with MiniLM takes minutes on a laptop CPU;
the cache makes that a one-time cost. The key is the sha256 of the exact texts that were
embedded (a function of the KG content and the text rendering, so a changed KG *or* a changed
rendering misses), the model name, the backend that ran it (torch / ONNX / int8: never mixed)
and the index kind. Writes are atomic (temp file +
``os.replace``) and the manifest is written last, so a crash mid-write leaves a miss, never a
corrupt hit. A per-entry file lock makes a second process that wants the same entry wait for
the first instead of encoding it again, and long encodes checkpoint finished chunks in a
``.partial`` folder so an interrupted build resumes where it stopped.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

log = logging.getLogger(__name__)

CACHE_FORMAT = 1
ENV_CACHE_DIR = "TKGQA_CACHE_DIR"  # shared with the backbones' model cache


def default_cache_dir() -> Path:
    """``$TKGQA_CACHE_DIR/embeddings`` or ``~/.cache/tkgqa-ray/embeddings``."""
    root = os.environ.get(ENV_CACHE_DIR)
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "tkgqa-ray"
    return base / "embeddings"


def texts_hash(texts: Sequence[str]) -> str:
    """sha256 over the texts in order (length-prefixed, so ``["ab"]`` != ``["a", "b"]``)."""
    h = hashlib.sha256()
    h.update(f"n={len(texts)}\n".encode())
    for t in texts:
        b = t.encode("utf-8")
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _slug(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", s).strip("_") or "x"


@dataclass(frozen=True)
class CacheKey:
    content: str  # sha256 of the embedded texts (see texts_hash)
    model: str
    kind: str  # "entity" | "relation" | "fact" | any corpus name
    # How the model was run ("torch", "onnx", "onnx-int8", ...): the same weights under another
    # runtime or quantisation give slightly different vectors, and queries must be encoded the
    # way the index was, so every backend has its own entries.
    backend: str = "torch"

    @property
    def digest(self) -> str:
        parts = [CACHE_FORMAT, self.content, self.model, self.kind]
        if self.backend != "torch":  # torch keeps the digests it had before backends existed
            parts.append(self.backend)
        return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:24]

    def stem(self) -> str:
        tag = "" if self.backend == "torch" else f"{_slug(self.backend)}-"
        return f"{_slug(self.model)}/{tag}{_slug(self.kind)}-{self.digest}"


class EmbeddingCache:
    """Directory of cached embedding matrices. ``root=None`` → :func:`default_cache_dir`."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root).expanduser() if root is not None else default_cache_dir()

    def paths(self, key: CacheKey) -> tuple[Path, Path]:
        stem = self.root / key.stem()
        return stem.with_suffix(".npy"), stem.with_suffix(".json")

    def partial_dir(self, key: CacheKey) -> Path:
        """Folder for chunk checkpoints of an entry being computed (removed once it is stored)."""
        return (self.root / key.stem()).with_suffix(".partial")

    @contextlib.contextmanager
    def lock(self, key: CacheKey):
        """Exclusive advisory lock on one entry (POSIX ``flock``; held across processes)."""
        path = (self.root / key.stem()).with_suffix(".lock")
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    def get(self, key: CacheKey, n: int | None = None, dim: int | None = None) -> np.ndarray | None:
        """The cached matrix, or ``None`` on a miss or an entry that fails its manifest checks."""
        npy, manifest = self.paths(key)
        if not manifest.exists() or not npy.exists():
            return None
        try:
            meta = json.loads(manifest.read_text())
            # Large entries are memory-mapped: FAISS copies them into its index, so the
            # service ends up holding one copy, not two.
            mmap = "r" if npy.stat().st_size > (1 << 20) else None
            arr = np.load(npy, allow_pickle=False, mmap_mode=mmap)
        except (OSError, ValueError, json.JSONDecodeError) as exc:
            log.warning("ignoring unreadable embedding cache entry %s: %s", npy, exc)
            return None
        expect = (meta.get("n"), meta.get("dim"))
        if (
            meta.get("format") != CACHE_FORMAT
            or meta.get("content") != key.content
            or meta.get("model") != key.model
            or meta.get("kind") != key.kind
            or meta.get("backend", "torch") != key.backend
            or arr.dtype != np.float32
            or arr.shape != expect
            or (n is not None and arr.shape[0] != n)
            or (dim is not None and arr.shape[1] != dim)
        ):
            log.warning("ignoring stale embedding cache entry %s (manifest mismatch)", npy)
            return None
        return arr

    def put(self, key: CacheKey, vectors: np.ndarray, extra: dict | None = None) -> Path:
        """Store ``vectors`` atomically; returns the ``.npy`` path."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        npy, manifest = self.paths(key)
        npy.parent.mkdir(parents=True, exist_ok=True)
        tag = f"{os.getpid()}.{time.monotonic_ns()}"
        tmp_npy = npy.with_name(f".{npy.name}.{tag}.tmp")
        tmp_man = manifest.with_name(f".{manifest.name}.{tag}.tmp")
        try:
            with open(tmp_npy, "wb") as f:
                np.save(f, vectors, allow_pickle=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp_npy, npy)
            meta = {
                "format": CACHE_FORMAT,
                "content": key.content,
                "model": key.model,
                "kind": key.kind,
                "backend": key.backend,
                "n": int(vectors.shape[0]),
                "dim": int(vectors.shape[1]),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                **(extra or {}),
            }
            tmp_man.write_text(json.dumps(meta, indent=1, sort_keys=True))
            os.replace(tmp_man, manifest)  # the manifest commits the entry
        finally:
            for t in (tmp_npy, tmp_man):
                t.unlink(missing_ok=True)
        return npy

    def get_or_compute(
        self,
        key: CacheKey,
        compute: Callable[[], np.ndarray],
        n: int | None = None,
        dim: int | None = None,
        extra: dict | None = None,
    ) -> tuple[np.ndarray, bool]:
        """``(vectors, hit)``: the cached matrix, or ``compute()`` stored then returned.

        Under the entry's lock: if another process is computing the same entry we wait and
        then read its result instead of computing it twice.
        """
        hit = self.get(key, n=n, dim=dim)
        if hit is not None:
            return hit, True
        with self.lock(key):
            hit = self.get(key, n=n, dim=dim)
            if hit is not None:
                return hit, True
            vectors = compute()
            self.put(key, vectors, extra=extra)
            shutil.rmtree(self.partial_dir(key), ignore_errors=True)
        return vectors, False
