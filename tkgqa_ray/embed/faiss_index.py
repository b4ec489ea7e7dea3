"""Inner-product FAISS indices over unit vectors (so scores are cosines), GPU when available.

``IndexFlatIP`` is exact and is the right choice up to a few hundred thousand rows (the real
MultiTQ fact-text index has 166,760 rows: a batched exact search over it is a matrix product).
IVF and HNSW are available through :class:`IndexConfig` for larger corpora; they are
approximate, so callers must tolerate ``-1`` ids in the tail of a result row.
"""

from __future__ import annotations

import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import faiss
import numpy as np

log = logging.getLogger(__name__)

IndexKind = Literal["flat", "ivf", "hnsw"]
GPU_MAX_K = 2048  # faiss GPU k-selection limit


@dataclass(frozen=True)
class IndexConfig:
    """How to index one corpus. ``kind="flat"`` is exact; the others trade recall for speed.

    ``min_rows_for_ann``: below this size ``ivf``/``hnsw`` silently fall back to exact flat
    (training IVF on a few thousand vectors is pointless and can fail).
    ``gpu``: ``"auto"`` uses a GPU when faiss was built with GPU support and sees one.
    """

    kind: IndexKind = "flat"
    nlist: int = 0  # IVF cells; 0 → ~4·sqrt(n)
    nprobe: int = 16
    hnsw_m: int = 32
    ef_search: int = 128
    ef_construction: int = 200
    min_rows_for_ann: int = 50_000
    gpu: Literal["auto", "on", "off"] | bool = "auto"
    search_batch: int = 4096  # queries per faiss call: bounds the [batch, k] / distance buffers

    def __post_init__(self) -> None:
        if self.kind not in ("flat", "ivf", "hnsw"):
            raise ValueError(f"IndexConfig.kind must be flat|ivf|hnsw, got {self.kind!r}")
        if self.gpu not in ("auto", "on", "off", True, False):
            raise ValueError(f"IndexConfig.gpu must be auto|on|off, got {self.gpu!r}")

    @classmethod
    def from_dict(cls, d: dict | None) -> "IndexConfig":
        d = dict(d or {})
        unknown = set(d) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(
                f"unknown index config keys {sorted(unknown)}; known: {sorted(cls.__dataclass_fields__)}"
            )
        return cls(**d)

    def key(self) -> str:
        """Stable description for cache keys of trained (non-flat) indices."""
        d = asdict(self)
        d.pop("gpu")
        d.pop("search_batch")
        return ",".join(f"{k}={v}" for k, v in sorted(d.items()))


def faiss_gpu_count() -> int:
    """GPUs faiss can use: 0 for faiss-cpu builds or when no device is visible."""
    if not hasattr(faiss, "StandardGpuResources"):
        return 0
    try:
        return int(faiss.get_num_gpus())
    except Exception:  # pragma: no cover - depends on the CUDA runtime
        return 0


_GPU_RES = None


def _gpu_resources():
    global _GPU_RES
    if _GPU_RES is None:
        _GPU_RES = faiss.StandardGpuResources()
    return _GPU_RES


class VectorIndex:
    """A FAISS inner-product index plus the facts needed to use it safely (dim, size, device)."""

    def __init__(self, index: "faiss.Index", config: IndexConfig, on_gpu: bool = False):
        self.index = index
        self.config = config
        self.on_gpu = on_gpu

    # -- construction -------------------------------------------------------------------
    @classmethod
    def build(cls, vectors: np.ndarray, config: IndexConfig | None = None) -> "VectorIndex":
        """Index ``vectors`` (``[n, d]``, expected unit-norm); row i gets id i."""
        config = config or IndexConfig()
        x = _as_matrix(vectors)
        n, d = x.shape
        kind = config.kind if n >= config.min_rows_for_ann else "flat"
        if kind == "flat":
            index = faiss.IndexFlatIP(d)
        elif kind == "ivf":
            nlist = config.nlist or max(1, int(4 * np.sqrt(n)))
            nlist = min(nlist, max(1, n // 39))  # faiss wants >= 39 training points per cell
            quantizer = faiss.IndexFlatIP(d)
            index = faiss.IndexIVFFlat(quantizer, d, nlist, faiss.METRIC_INNER_PRODUCT)
            index.train(x)
            index.nprobe = min(config.nprobe, nlist)
            index.make_direct_map()  # so rows can be reconstructed (n × 8 bytes)
        else:  # hnsw
            index = faiss.IndexHNSWFlat(d, config.hnsw_m, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = config.ef_construction
            index.hnsw.efSearch = config.ef_search
        if n:
            index.add(x)
        return cls._maybe_to_gpu(index, config, kind)

    @classmethod
    def _maybe_to_gpu(cls, index, config: IndexConfig, kind: str) -> "VectorIndex":
        want = config.gpu
        ngpu = faiss_gpu_count()
        if want in ("on", True) and ngpu == 0:
            raise RuntimeError(
                "IndexConfig.gpu='on' but faiss has no GPU support or sees no GPU "
                "(install faiss-gpu-cu12 on GPU nodes, or use gpu='auto')"
            )
        use_gpu = ngpu > 0 and want not in ("off", False) and kind != "hnsw"  # no GPU HNSW
        if use_gpu:
            index = faiss.index_cpu_to_gpu(_gpu_resources(), 0, index)
            log.info("faiss index (%s, n=%d) moved to GPU 0", kind, index.ntotal)
        return cls(index, config, on_gpu=use_gpu)

    # -- queries --------------------------------------------------------------------------
    @property
    def dim(self) -> int:
        return int(self.index.d)

    @property
    def ntotal(self) -> int:
        return int(self.index.ntotal)

    def __len__(self) -> int:
        return self.ntotal

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` by inner product for every query row, in batches of ``search_batch``.

        Returns ``(scores float32 [q, k'], ids int64 [q, k'])`` with ``k' = min(k, ntotal)``,
        each row sorted by decreasing score. Approximate indices may leave ``-1`` ids (score
        ``-inf``) at the end of a row when fewer than ``k'`` candidates were probed.
        """
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        q = _as_matrix(queries)
        if q.shape[1] != self.dim:
            raise ValueError(f"query dim {q.shape[1]} != index dim {self.dim}")
        k = min(int(k), self.ntotal)
        if k == 0 or len(q) == 0:
            return np.zeros((len(q), k), np.float32), np.zeros((len(q), k), np.int64)
        if self.on_gpu and k > GPU_MAX_K:
            raise ValueError(f"k={k} exceeds the faiss GPU limit of {GPU_MAX_K}")
        step = max(1, self.config.search_batch)
        scores = np.empty((len(q), k), np.float32)
        ids = np.empty((len(q), k), np.int64)
        for i in range(0, len(q), step):
            s, j = self.index.search(q[i : i + step], k)
            scores[i : i + step] = s
            ids[i : i + step] = j
        missing = ids < 0
        if missing.any():
            scores[missing] = -np.inf
        return scores, ids

    def reconstruct(self, ids: np.ndarray) -> np.ndarray:
        """The stored vectors of ``ids`` (``float32 [len(ids), d]``)."""
        ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(-1)
        if ids.size == 0:
            return np.zeros((0, self.dim), np.float32)
        if ids.min() < 0 or ids.max() >= self.ntotal:
            raise IndexError(f"ids out of range for an index of size {self.ntotal}")
        return self.index.reconstruct_batch(ids)

    # -- persistence ------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the index (GPU indices are copied to CPU first) atomically to ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        cpu = faiss.index_gpu_to_cpu(self.index) if self.on_gpu else self.index
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        faiss.write_index(cpu, str(tmp))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | Path, config: IndexConfig | None = None) -> "VectorIndex":
        config = config or IndexConfig()
        index = faiss.read_index(str(path))
        kind = "hnsw" if isinstance(index, faiss.IndexHNSW) else "other"
        return cls._maybe_to_gpu(index, config, kind)


def _as_matrix(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2:
        raise ValueError(f"expected a [n, d] matrix, got shape {x.shape}")
    return np.ascontiguousarray(x)
