"""The embedding service: encoder + named FAISS indices over a KG's entities, relations, triples.

Index ids are the table's ids: entity index row i is ``table.entities[i]``, relation row i is
``table.relations[i]``, fact row i is distinct triple ``table.triples[i]`` (map to facts with
``table.facts_of_triples``). Time is not embedded: it belongs to the time model.

Indices named in ``indices`` are built at construction; any other known index (notably
``"fact"``, which is minutes of MiniLM time on the real KG) is built on first use and cached on
disk, so only methods that need dense fact retrieval ever pay for it, once per KG and model.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from tkgqa_ray.embed.cache import CacheKey, EmbeddingCache, texts_hash
from tkgqa_ray.embed.encoder import (
    DEFAULT_BACKEND,
    DEFAULT_ENCODER,
    TextEncoder,
    encoder_backend,
    l2_normalise,
    load_encoder,
)
from tkgqa_ray.embed.faiss_index import IndexConfig, VectorIndex
from tkgqa_ray.embed.progress import Reporter

if TYPE_CHECKING:
    from tkgqa_ray.kg.table import FactTable

log = logging.getLogger(__name__)

KG_INDICES = ("entity", "relation", "fact")
ENCODE_CHUNK = 8192  # corpus rows per checkpoint chunk (resume granularity)
PROGRESS_STEP = 1024  # rows per encoder call inside a chunk: paces the progress bar


# --------------------------------------------------------------------------- corpus texts
def entity_texts(table: "FactTable") -> list[str]:
    return [table.display(e) for e in table.entities]


def relation_texts(table: "FactTable") -> list[str]:
    return [table.display(r) for r in table.relations]


def fact_texts(table: "FactTable") -> list[str]:
    """``"{subject} {relation} {object}"`` in display form, one per distinct triple."""
    ents = entity_texts(table)
    rels = relation_texts(table)
    tri = np.asarray(table.triples)
    if tri.size == 0:
        return []
    s, r, o = tri[:, 0].tolist(), tri[:, 1].tolist(), tri[:, 2].tolist()
    return [f"{ents[a]} {rels[b]} {ents[c]}" for a, b, c in zip(s, r, o)]


_TABLE_CORPORA: dict[str, Callable[["FactTable"], list[str]]] = {
    "entity": entity_texts,
    "relation": relation_texts,
    "fact": fact_texts,
}


def encode_corpus(
    encoder: TextEncoder, texts: Sequence[str], label: str = "", checkpoint: Path | None = None,
    reporter: "Reporter | None" = None,
) -> np.ndarray:
    """Encode a corpus in chunks, reporting progress (the fact index takes minutes on CPU).

    With ``checkpoint`` (a folder), each finished chunk is saved there and reused by the next
    attempt, so an interrupted build resumes instead of starting over. Identical texts are
    encoded once (rows are copied). ``reporter`` gets ``start``/``advance``/``finish`` every
    :data:`PROGRESS_STEP` rows, so a progress bar moves every few seconds, not per chunk.
    """
    n = len(texts)
    if n == 0:
        return np.zeros((0, encoder.dim), np.float32)
    uniq, inverse = _dedupe(texts)
    if len(uniq) < n:
        log.info("embedding %s: %d texts, %d distinct", label, n, len(uniq))
        # own checkpoint folder: chunk row ranges differ from a build over the raw rows
        sub = checkpoint / "distinct" if checkpoint is not None else None
        return encode_corpus(encoder, uniq, label, sub, reporter)[inverse]
    out = np.empty((n, encoder.dim), np.float32)
    t0 = time.perf_counter()
    fresh = 0
    chunks = []
    if checkpoint is not None:
        checkpoint.mkdir(parents=True, exist_ok=True)
    for i in range(0, n, ENCODE_CHUNK):
        rows = min(ENCODE_CHUNK, n - i)
        part = checkpoint / f"rows-{i:09d}-{rows}.npy" if checkpoint is not None else None
        done_part = _load_chunk(part, rows, encoder.dim) if part is not None else None
        if done_part is not None:
            out[i : i + rows] = done_part
        else:
            chunks.append((i, rows, part))
    resumed = n - sum(rows for _, rows, _ in chunks)
    if reporter is not None:
        reporter.start(label, n, resumed)
    if resumed:
        log.info("embedding %s: resuming, %d/%d rows read from checkpoints", label, resumed, n)
    for i, rows, part in chunks:
        step = max(1, min(PROGRESS_STEP, rows))
        for j in range(i, i + rows, step):
            m = min(step, i + rows - j)
            out[j : j + m] = encoder.encode(list(texts[j : j + m]))
            fresh += m
            if reporter is not None:
                reporter.advance(m)
        if part is not None:
            tmp = part.with_name(f".{part.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                np.save(f, out[i : i + rows])
            os.replace(tmp, part)
        if n > ENCODE_CHUNK:
            done = i + rows
            rate = fresh / max(time.perf_counter() - t0, 1e-9)
            log.info("embedding %s: %d/%d (%.0f texts/s, ~%.0f s left)", label, done, n, rate,
                     (n - done) / max(rate, 1e-9))
    if reporter is not None:
        reporter.finish()
    return out


def _dedupe(texts: Sequence[str]) -> tuple[list[str], np.ndarray]:
    """Distinct texts in first-seen order and, per input row, its distinct text's position."""
    pos: dict[str, int] = {}
    inverse = np.fromiter((pos.setdefault(t, len(pos)) for t in texts), np.int64, len(texts))
    return list(pos), inverse


def _load_chunk(path: Path, rows: int, dim: int) -> np.ndarray | None:
    if not path.exists():
        return None
    try:
        arr = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return arr if arr.shape == (rows, dim) and arr.dtype == np.float32 else None


# --------------------------------------------------------------------------- one index
class EmbeddingIndex:
    """Texts and a FAISS index over their unit vectors (row i ↔ id i).

    The vectors live once, inside the FAISS index (the real fact index is ~245 MB); rows are
    read back with ``reconstruct`` when re-ranking needs them. GPU indices also keep a host
    copy, since GPU reconstruction is not available for every index type.
    """

    def __init__(self, texts: list[str], vectors: np.ndarray, index: VectorIndex,
                 cache_hit: bool = False, build_seconds: float = 0.0) -> None:
        self.texts = texts
        self.index = index
        self.cache_hit = cache_hit
        self.build_seconds = build_seconds
        self._host = np.array(vectors, dtype=np.float32) if index.on_gpu else None

    @property
    def vectors(self) -> np.ndarray:
        """All rows, ``float32 [n, d]`` (a copy)."""
        if self._host is not None:
            return self._host.copy()
        return self.index.reconstruct(np.arange(len(self.texts), dtype=np.int64))

    def rows(self, ids: np.ndarray) -> np.ndarray:
        ids = np.asarray(ids, dtype=np.int64)
        if self._host is not None:
            return self._host[ids]
        return self.index.reconstruct(ids)

    @classmethod
    def build(
        cls,
        texts: Sequence[str],
        encoder: TextEncoder,
        cache: EmbeddingCache | None = None,
        kind: str = "texts",
        config: IndexConfig | None = None,
        extra: dict | None = None,
        reporter: Reporter | None = None,
    ) -> "EmbeddingIndex":
        """Embed ``texts`` (or read them from ``cache``) and index them.

        ``reporter`` (default: one posting to this process's progress board) gets the
        encoding progress and a message saying where the result is cached or that a cached
        entry was reused.
        """
        t0 = time.perf_counter()
        texts = list(texts)
        config = config or IndexConfig()
        reporter = reporter if reporter is not None else Reporter()
        label = f"{kind} index"
        backend = encoder_backend(encoder)
        hit = False
        if cache is not None:
            key = CacheKey(texts_hash(texts), encoder.name, kind, backend)
            npy, _ = cache.paths(key)

            def compute() -> np.ndarray:
                reporter.message(
                    f"{label}: embedding {len(texts):,} texts with {encoder.name} [{backend}] "
                    f"(one-time: the result will be cached in {npy.parent})")
                return encode_corpus(encoder, texts, label, reporter=reporter, checkpoint=(
                    cache.partial_dir(key) if len(texts) > ENCODE_CHUNK else None))

            vectors, hit = cache.get_or_compute(key, compute, n=len(texts), dim=encoder.dim,
                                                extra=extra)
            if hit:
                reporter.message(f"{label}: reused cached embeddings {npy} "
                                 f"({len(texts):,} x {encoder.dim}, {encoder.name} [{backend}])")
            else:
                reporter.message(
                    f"{label}: {len(texts):,} texts embedded in {time.perf_counter() - t0:.1f} s; "
                    f"cached at {npy} (later runs reuse it)")
        else:
            key = None
            vectors = encode_corpus(encoder, texts, label, reporter=reporter)
        index = cls._index(vectors, config, cache, key)
        dt = time.perf_counter() - t0
        log.info("%s index: %d texts, %s, %.1f s", kind, len(texts),
                 "cache hit" if hit else "encoded", dt)
        return cls(texts, vectors, index, cache_hit=hit, build_seconds=dt)

    @staticmethod
    def _index(vectors, config: IndexConfig, cache, key) -> VectorIndex:
        trained = config.kind != "flat" and len(vectors) >= config.min_rows_for_ann
        if not (trained and cache is not None and key is not None):
            return VectorIndex.build(vectors, config)
        # Trained ANN indices (IVF k-means, HNSW graph) take a while: cache them next to the vectors.
        npy, _ = cache.paths(key)
        path = npy.with_name(f"{npy.stem}.{config.kind}-{texts_hash([config.key()])[:12]}.faiss")
        if path.exists():
            try:
                idx = VectorIndex.load(path, config)
                if idx.ntotal == len(vectors) and idx.dim == vectors.shape[1]:
                    return idx
            except RuntimeError as exc:
                log.warning("ignoring unreadable index cache %s: %s", path, exc)
        idx = VectorIndex.build(vectors, config)
        idx.save(path)
        return idx

    def __len__(self) -> int:
        return len(self.texts)


# --------------------------------------------------------------------------- query LRU
class QueryLRU:
    """LRU of query-string → unit vector; questions mention the same entities over and over."""

    def __init__(self, max_size: int = 8192) -> None:
        self.max_size = max(0, int(max_size))
        self._d: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def encode(self, texts: Sequence[str], encoder: TextEncoder) -> np.ndarray:
        """Vectors for ``texts``; only distinct, uncached strings reach the encoder (one call).

        Thread-safe: actors may serve several calls at once (``max_concurrency``).
        """
        out = np.empty((len(texts), encoder.dim), np.float32)
        todo: dict[str, list[int]] = {}
        with self._lock:
            for i, t in enumerate(texts):
                v = self._d.get(t)
                if v is not None:
                    self._d.move_to_end(t)
                    out[i] = v
                    self.hits += 1
                else:
                    todo.setdefault(t, []).append(i)
            self.misses += len(todo)
        if todo:
            new = list(todo)
            # encoders whose vectors depend on batch mates (dynamic int8) offer a per-text form
            vecs = getattr(encoder, "encode_queries", encoder.encode)(new)
            with self._lock:
                for t, v in zip(new, vecs):
                    out[todo[t]] = v
                    if self.max_size:
                        self._d[t] = v
                while len(self._d) > self.max_size:
                    self._d.popitem(last=False)
        return out

    def __len__(self) -> int:
        return len(self._d)


# --------------------------------------------------------------------------- the service
@dataclass
class _Slot:
    texts_fn: Callable[[], list[str]]
    config: IndexConfig
    extra: dict = field(default_factory=dict)
    built: EmbeddingIndex | None = None


class EmbeddingService:
    """Encoder + named indices with the API stages use (``encode``, ``search``, ``similar``).

    ``table``: a ``FactTable`` or a KG file path (indices ``entity``, ``relation``, ``fact``),
    or a mapping ``{index name: list of texts}`` for plain corpora (tests, notebooks).
    ``indices``: built now; default ``("entity", "relation")`` for a table, every corpus of a
    mapping. Other indices are built on first use (``fact_index=True``: build ``fact`` now).
    ``cache_dir``: ``None`` → the default cache directory, ``False`` → no disk cache.
    ``index_config``: one :class:`IndexConfig` (or dict) for all indices, or a mapping
    ``{index name: IndexConfig | dict}``; unnamed indices get exact flat search.
    ``encoder``: an already-built :class:`TextEncoder` (overrides ``encoder_name``).
    ``backend``: how the model runs (``torch``, ``onnx``, ``onnx-int8``, ``openvino``; see
    :func:`load_encoder`); queries and corpora always go through the same encoder, and the
    cache keeps each backend's vectors apart. ``threads``: CPU-runtime threads.
    ``progress``: draw a tqdm bar for builds here (default: when stderr is a terminal and
    this is not a Ray worker; builds always post to the process's progress board).
    """

    def __init__(
        self,
        table: "FactTable | Mapping[str, Sequence[str]] | None" = None,
        encoder_name: str = DEFAULT_ENCODER,
        cache_dir: str | Path | None | bool = None,
        indices: Sequence[str] | None = None,
        fact_index: bool = False,
        *,
        encoder: TextEncoder | None = None,
        device: str | None = None,
        batch_size: int = 128,
        index_config: IndexConfig | Mapping[str, Any] | None = None,
        query_cache_size: int = 8192,
        backend: str = DEFAULT_BACKEND,
        threads: int | None = None,
        progress: bool | None = None,
    ) -> None:
        if isinstance(table, (str, Path)):  # a KG file
            from tkgqa_ray.kg import load_kg

            table = load_kg(table)
        if isinstance(indices, str):
            indices = (indices,)
        self.table = table if table is not None and not isinstance(table, Mapping) else None
        self.encoder = encoder if encoder is not None else load_encoder(
            encoder_name, device, batch_size, backend=backend, threads=threads)
        # A local bar only where a person watches this process; inside a Ray actor the
        # driver's ProgressPoller draws the bar from the progress board instead.
        self._bar = _console() if progress is None else bool(progress)
        self.cache = None if cache_dir is False else EmbeddingCache(
            None if cache_dir in (None, True) else cache_dir)
        self.query_cache = QueryLRU(query_cache_size)
        self._lock = threading.RLock()
        self._slots: dict[str, _Slot] = {}

        configs = _split_index_config(index_config)
        if self.table is not None:
            extra = {"kg_content_hash": str(getattr(self.table, "content_hash", ""))}
            for name, fn in _TABLE_CORPORA.items():
                self._slots[name] = _Slot(lambda fn=fn: fn(self.table), configs(name), extra)
            if indices is None:
                indices = ("entity", "relation")
        elif table is not None:
            for name, texts in table.items():
                self._slots[name] = _Slot(lambda texts=texts: list(texts), configs(name))
        if indices is None:  # plain corpora: all of them (they were given explicitly)
            indices = tuple(self._slots)
        eager = list(indices) + (["fact"] if fact_index else [])
        for name in dict.fromkeys(eager):
            self._get(name)

    # -- metadata ------------------------------------------------------------------------
    @property
    def model_name(self) -> str:
        return self.encoder.name

    @property
    def dim(self) -> int:
        return int(self.encoder.dim)

    def index_names(self) -> list[str]:
        return list(self._slots)

    def is_built(self, index: str) -> bool:
        return self._slot(index).built is not None

    def build(self, index: str) -> dict:
        """Build ``index`` now (it is otherwise built on first use); returns its stats."""
        idx = self._get(index)
        return {"index": index, "size": len(idx), "cache_hit": idx.cache_hit,
                "build_seconds": round(idx.build_seconds, 3), "on_gpu": idx.index.on_gpu}

    def size(self, index: str) -> int:
        return len(self._get(index))

    def texts(self, index: str) -> list[str]:
        return self._get(index).texts

    def vectors(self, index: str) -> np.ndarray:
        return self._get(index).vectors

    def stats(self) -> dict:
        built = {n: s.built for n, s in self._slots.items() if s.built is not None}
        return {
            "model": self.model_name,
            "dim": self.dim,
            "indices": {n: {"size": len(b), "cache_hit": b.cache_hit,
                            "build_seconds": round(b.build_seconds, 3)} for n, b in built.items()},
            "query_cache": {"size": len(self.query_cache), "hits": self.query_cache.hits,
                            "misses": self.query_cache.misses},
        }

    # -- the API stages use -----------------------------------------------------------------
    def encode(self, texts: Sequence[str] | str) -> np.ndarray:
        """``float32 [n, d]`` unit vectors (query strings go through the LRU)."""
        if isinstance(texts, str):
            texts = [texts]
        return self.query_cache.encode(list(texts), self.encoder)

    def search(
        self, index: str, queries: Sequence[str] | str | np.ndarray, k: int = 10
    ) -> tuple[np.ndarray, np.ndarray]:
        """Top-``k`` rows of ``index`` per query: ``(scores [q, k'], ids [q, k'])``, k' = min(k, size).

        ``queries`` are strings (encoded here, via the LRU) or vectors (re-normalised).
        Scores are cosines (inner products of unit vectors), best first.
        """
        idx = self._get(index)
        return idx.index.search(self._query_vectors(queries), k)

    def similarity(
        self, index: str, queries: Sequence[str] | str | np.ndarray, ids: Sequence[int] | np.ndarray
    ) -> np.ndarray:
        """Cosines ``[q, len(ids)]`` between queries and given rows (re-ranking known candidates)."""
        idx = self._get(index)
        ids = np.asarray(ids, dtype=np.int64)
        if ids.size and (ids.min() < 0 or ids.max() >= len(idx)):
            raise IndexError(f"ids out of range for index {index!r} of size {len(idx)}")
        return self._query_vectors(queries) @ idx.rows(ids).T

    def similar(
        self, index: str, text: str, k: int = 10, threshold: float | None = None
    ) -> list[tuple[int, str, float]]:
        """``[(id, name, score)]`` best first, ``score >= threshold`` if given.

        ``name`` is the KG form (``Barack_Obama``) for the entity/relation indices of a table,
        else the indexed text.
        """
        return self.similar_many(index, [text], k, threshold)[0]

    def similar_many(
        self, index: str, texts: Sequence[str], k: int = 10, threshold: float | None = None
    ) -> list[list[tuple[int, str, float]]]:
        scores, ids = self.search(index, list(texts), k)
        names = self._names(index)
        out = []
        for srow, irow in zip(scores, ids):
            keep = irow >= 0
            if threshold is not None:
                keep &= srow >= threshold
            out.append([(int(i), names[i], float(s)) for s, i in zip(srow[keep], irow[keep])])
        return out

    def similar_entities(self, text: str, k: int = 10, threshold: float | None = None):
        return self.similar("entity", text, k, threshold)

    def similar_relations(self, text: str, k: int = 10, threshold: float | None = None):
        return self.similar("relation", text, k, threshold)

    # -- internals ----------------------------------------------------------------------------
    def _names(self, index: str) -> Sequence[str]:
        if self.table is not None and index == "entity":
            return self.table.entities
        if self.table is not None and index == "relation":
            return self.table.relations
        return self._get(index).texts

    def _query_vectors(self, queries) -> np.ndarray:
        if isinstance(queries, str):
            return self.encode([queries])
        if isinstance(queries, np.ndarray) and queries.dtype.kind == "f":
            q = l2_normalise(queries)
            if q.shape[1] != self.dim:
                raise ValueError(f"query vectors have dim {q.shape[1]}, encoder {self.dim}")
            return q
        return self.encode(list(queries))

    def _slot(self, index: str) -> _Slot:
        try:
            return self._slots[index]
        except KeyError:
            raise KeyError(f"unknown embedding index {index!r}; known: {self.index_names()}") from None

    def _get(self, index: str) -> EmbeddingIndex:
        slot = self._slot(index)
        if slot.built is None:
            with self._lock:
                if slot.built is None:
                    slot.built = EmbeddingIndex.build(
                        slot.texts_fn(), self.encoder, self.cache, index, slot.config, slot.extra,
                        reporter=Reporter(bar=self._bar))
        return slot.built


def _console() -> bool:
    """True when this process's stderr is a terminal (a Ray worker's is a log file)."""
    import sys

    return bool(getattr(sys.stderr, "isatty", lambda: False)())


def _split_index_config(cfg) -> Callable[[str], IndexConfig]:
    if cfg is None:
        return lambda name: IndexConfig()
    if isinstance(cfg, IndexConfig):
        return lambda name: cfg
    cfg = dict(cfg)
    if set(cfg) <= set(IndexConfig.__dataclass_fields__):  # one flat dict for every index
        one = IndexConfig.from_dict(cfg)
        return lambda name: one
    per = {k: v if isinstance(v, IndexConfig) else IndexConfig.from_dict(v) for k, v in cfg.items()}
    return lambda name: per.get(name, IndexConfig())
