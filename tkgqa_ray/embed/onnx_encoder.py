"""CPU runtimes for a sentence-transformers model: ONNX Runtime (fp32 / int8) and OpenVINO.

Why not ``SentenceTransformer(..., backend="onnx")``: that path needs ``optimum``, whose
pins move transformers to 4.57 while the ``llm-cpu`` extra (vLLM's CPU build) needs
transformers >= 5.16.1, < 5.20 — the two cannot share one environment. The model is small
and fixed (a BERT encoder + mean or CLS pooling), so we export it ourselves with
``torch.onnx.export`` (the pooling inside the graph, so one ``[batch, dim]`` array comes
back), fuse it with ONNX Runtime's own transformer optimiser (attention / LayerNorm / GELU
fusion) and, for ``onnx-int8``, quantise the weights with ONNX Runtime's dynamic int8
quantiser (``onnx-int8-smooth``: first a SmoothQuant-style rescaling that is exact in fp32 and
makes the int8 rounding hurt less, :mod:`tkgqa_ray.embed.smoothquant`). The exported files are cached per (model, source files, backend) under
``$TKGQA_CACHE_DIR/onnx`` (or ``~/.cache/tkgqa-ray/onnx``): a one-time cost of seconds.

Batches are formed from texts sorted by token length and padded only to the longest text
of their batch, so almost no compute goes to padding.

``workers=N`` (ONNX Runtime only) runs N sessions of ``threads // N`` threads side by side, each
taking alternate batches of a call, instead of one session: a batch's vectors do not depend on
which session ran it, and independent sessions skip the per-operator thread synchronisation
that costs a multi-thread session part of its CPU time. Default (threads not given):
:data:`DEFAULT_WORKERS` sessions, as measured in docs/embeddings.md.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Sequence

import numpy as np

from tkgqa_ray.embed.vectors import EncoderUnavailableError, l2_normalise

log = logging.getLogger(__name__)

EXPORT_FORMAT = 1  # bump when the export recipe changes: old exports are then ignored
ONNX_BACKENDS = ("onnx", "onnx-int8", "onnx-int8-smooth", "openvino", "openvino-int8")
# Sessions when the thread count is not given: 2 one-thread sessions beat one 2-thread session
# on this 2-core box (1.13x wall, +14 % texts per CPU-second, identical vectors; docs/embeddings.md).
# Capped at 2 (what was measured; each session holds its own copy of the weights).
DEFAULT_WORKERS = 2
OPSET = 17


def is_int8(backend: str) -> bool:
    """Backends whose activations are quantised per batch (vectors move with batch mates)."""
    return "int8" in backend


def model_cache_root() -> Path:
    root = os.environ.get("TKGQA_CACHE_DIR")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "tkgqa-ray"
    return base / "onnx"


def _source_fingerprint(source: Path) -> str:
    """Hash of the model folder's weights/config/tokenizer names, sizes and first bytes."""
    h = hashlib.sha256()
    for p in sorted(source.rglob("*")):
        if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".txt"):
            st = p.stat()
            h.update(f"{p.relative_to(source)}:{st.st_size}\n".encode())
            with open(p, "rb") as f:
                h.update(f.read(1 << 16))
    return h.hexdigest()[:16]


def _pooling_mode(source: Path) -> str:
    """``"mean"`` or ``"cls"`` from the model's Pooling module config."""
    try:
        modules = json.loads((source / "modules.json").read_text())
    except FileNotFoundError:
        return "mean"  # a plain transformers folder: sentence-transformers defaults to mean
    for m in modules:
        if m.get("type", "").endswith("Pooling"):
            cfg = json.loads((source / m.get("path", "") / "config.json").read_text())
            if cfg.get("pooling_mode_mean_tokens"):
                return "mean"
            if cfg.get("pooling_mode_cls_token"):
                return "cls"
            raise EncoderUnavailableError(
                f"model {source} uses a pooling mode the ONNX backend does not implement "
                f"({cfg}); use embeddings.backend=torch")
    return "mean"


def _max_seq_length(source: Path, default: int = 256) -> int:
    try:
        return int(json.loads((source / "sentence_bert_config.json").read_text())["max_seq_length"])
    except (FileNotFoundError, KeyError, ValueError):
        return default


def export_onnx(source: Path, out: Path, pooling: str) -> None:
    """``torch.onnx.export`` of transformer + pooling: inputs ``input_ids``, ``attention_mask``
    (int64 ``[batch, seq]``), output ``embedding`` (float32 ``[batch, dim]``, not normalised)."""
    import torch
    from transformers import AutoModel

    model = AutoModel.from_pretrained(str(source), attn_implementation="eager").eval()

    class Pooled(torch.nn.Module):
        def __init__(self, m):
            super().__init__()
            self.m = m

        def forward(self, input_ids, attention_mask):
            h = self.m(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            if pooling == "cls":
                return h[:, 0]
            mask = attention_mask.unsqueeze(-1).to(h.dtype)
            return (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)

    ids = torch.ones((2, 8), dtype=torch.int64)
    mask = torch.ones((2, 8), dtype=torch.int64)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    with torch.no_grad():
        torch.onnx.export(
            Pooled(model), (ids, mask), str(tmp), input_names=["input_ids", "attention_mask"],
            output_names=["embedding"], opset_version=OPSET, do_constant_folding=True,
            dynamic_axes={"input_ids": {0: "batch", 1: "seq"},
                          "attention_mask": {0: "batch", 1: "seq"}, "embedding": {0: "batch"}},
            dynamo=False,  # the TorchScript exporter: no onnxscript dependency, dynamic axes as given
        )
    os.replace(tmp, out)


def optimise_onnx(src: Path, out: Path, source: Path) -> None:
    """ONNX Runtime's BERT fusions (attention, skip-LayerNorm, bias-GELU) — fewer, bigger ops."""
    from onnxruntime.transformers.optimizer import optimize_model

    cfg = json.loads((source / "config.json").read_text())
    opt = optimize_model(str(src), model_type="bert", num_heads=int(cfg.get("num_attention_heads", 0)),
                         hidden_size=int(cfg.get("hidden_size", 0)), opt_level=1)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    opt.save_model_to_file(str(tmp))
    os.replace(tmp, out)


def quantise_int8(src: Path, out: Path, exclude: Sequence[str] = (), weights: str = "s8-reduce-range") -> None:
    """Dynamic int8: weights quantised once, activations per batch (no calibration data).

    ``exclude``: node names left fp32. ``weights``: ``"s8-reduce-range"`` (7-bit signed, the
    AVX2-safe default) or ``"u8"`` (full 8-bit unsigned, u8u8 kernels)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp.onnx")
    # per-channel weights keep the cosine to fp32 >= 0.99 on KG texts; reduce_range avoids the
    # u8*s8 saturation of AVX2 (non-VNNI) kernels. The fused graph's contrib ops (Attention →
    # QAttention) have no ONNX shape inference, hence DefaultTensorType.
    if weights not in ("s8-reduce-range", "u8"):
        raise ValueError(f"unknown int8 weight format {weights!r}")
    u8 = weights == "u8"
    quantize_dynamic(str(src), str(tmp), weight_type=QuantType.QUInt8 if u8 else QuantType.QInt8,
                     per_channel=True, reduce_range=not u8, nodes_to_exclude=list(exclude),
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    os.replace(tmp, out)


def prepare_model_files(source: Path, backend: str, root: Path | None = None) -> Path:
    """The ONNX file ``backend`` runs, exported/fused/quantised on first use (under a lock)."""
    import fcntl

    pooling = _pooling_mode(source)
    root = Path(root) if root is not None else model_cache_root()
    folder = root / f"{source.name}-{_source_fingerprint(source)}-v{EXPORT_FORMAT}-{pooling}"
    folder.mkdir(parents=True, exist_ok=True)
    # ONNX Runtime runs its own fused graph (contrib Attention / SkipLayerNorm ops, which the
    # int8 quantiser turns into QAttention); OpenVINO fuses by itself and reads only standard
    # ONNX ops, so it gets the plain export (and its int8 form).
    raw = folder / "model.onnx"
    base = raw if backend.startswith("openvino") else folder / "model.fused.onnx"
    smoothed = None
    if backend == "onnx-int8-smooth":  # the recipe's hash names the files: a new recipe, new files
        from tkgqa_ray.embed.smoothquant import recipe_tag

        smoothed = folder / f"model.fused.smooth-{recipe_tag()}.onnx"
        want = smoothed.with_suffix(".int8.onnx")
    else:
        want = base.with_suffix(".int8.onnx") if is_int8(backend) else base
    if want.exists():
        return want
    with open(folder / ".lock", "a+") as lockf:
        fcntl.flock(lockf.fileno(), fcntl.LOCK_EX)
        try:
            t0 = time.perf_counter()
            if not raw.exists():
                log.info("exporting %s to ONNX (one-time, cached in %s)", source, folder)
                export_onnx(source, raw, pooling)
            if not base.exists():
                optimise_onnx(raw, base, source)
            if smoothed is not None and not want.exists():
                from tkgqa_ray.embed.smoothquant import SMOOTH_RECIPE, smooth_file

                if not smoothed.exists():
                    log.info("rescaling %s for int8 (SmoothQuant, one-time)", base.name)
                    tmp = smoothed.with_name(f".{smoothed.name}.{os.getpid()}.tmp")
                    smooth_file(base, tmp, calibration_batches(source))
                    os.replace(tmp, smoothed)
                quantise_int8(smoothed, want, exclude=embedding_nodes(smoothed),
                              weights=SMOOTH_RECIPE["weights"])
            elif want != base and not want.exists():
                quantise_int8(base, want)
            log.info("ONNX model ready in %.1f s: %s", time.perf_counter() - t0, want)
        finally:
            fcntl.flock(lockf.fileno(), fcntl.LOCK_UN)
    return want


def embedding_nodes(path: Path) -> list[str]:
    """Names of the graph's (fused) embedding lookups, which the smooth recipe keeps fp32."""
    import onnx

    g = onnx.load(str(path), load_external_data=False).graph
    return [n.name for n in g.node if n.op_type == "EmbedLayerNormalization"]


def calibration_batches(source: Path, batch_size: int = 128):
    """A callable yielding ``(input_ids, attention_mask)`` batches of the smooth recipe's
    calibration texts, tokenized by the model's own tokenizer (length-sorted, padded)."""
    from tokenizers import Tokenizer

    from tkgqa_ray.embed.smoothquant import calibration_texts

    tok = Tokenizer.from_file(str(source / "tokenizer.json"))
    tok.no_padding()
    tok.enable_truncation(_max_seq_length(source))
    pad = int(json.loads((source / "config.json").read_text()).get("pad_token_id") or 0)

    def batches():
        ids = [e.ids for e in tok.encode_batch(calibration_texts(), add_special_tokens=True)]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for k in range(0, len(order), batch_size):
            rows = order[k : k + batch_size]
            width = max(len(ids[r]) for r in rows)
            b = np.full((len(rows), width), pad, np.int64)
            m = np.zeros((len(rows), width), np.int64)
            for j, r in enumerate(rows):
                b[j, : len(ids[r])] = ids[r]
                m[j, : len(ids[r])] = 1
            yield b, m

    return batches


class _OrtRunner:
    def __init__(self, path: Path, threads: int) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # No busy-waiting between ops: on a shared CPU a spinning thread burns the time its
        # descheduled partner needs (2 spinning threads were slower than 1 thread under load).
        so.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.session.run(["embedding"], {"input_ids": ids, "attention_mask": mask})[0]


class _OpenVinoRunner:
    def __init__(self, path: Path, threads: int) -> None:
        try:
            import openvino as ov
        except ImportError as exc:
            raise EncoderUnavailableError(
                "backend 'openvino' needs the openvino package (pip install openvino)") from exc
        core = ov.Core()
        self.compiled = core.compile_model(
            str(path), "CPU", {"INFERENCE_NUM_THREADS": threads, "PERFORMANCE_HINT": "LATENCY"})
        self.request = self.compiled.create_infer_request()

    def __call__(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        res = self.request.infer({"input_ids": ids, "attention_mask": mask})
        return np.asarray(res[self.compiled.output(0)])


class OnnxEncoder:
    """A sentence-transformers model run by ONNX Runtime or OpenVINO on CPU.

    Same contract as :class:`~tkgqa_ray.embed.encoder.SentenceTransformerEncoder`: ``name``
    (the model's canonical name), ``dim``, ``encode(texts) -> float32 [n, dim]`` unit rows,
    plus ``backend`` (part of every cache key).
    """

    device = "cpu"

    def __init__(self, name: str, source: str | Path, backend: str = "onnx-int8",
                 batch_size: int = 64, threads: int | None = None,
                 model_root: str | Path | None = None, workers: int | None = None) -> None:
        if backend not in ONNX_BACKENDS:
            raise ValueError(f"unknown ONNX backend {backend!r}; known: {ONNX_BACKENDS}")
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - a dependency of transformers
            raise EncoderUnavailableError("the ONNX backend needs the tokenizers package") from exc
        source = Path(source)
        if not (source / "tokenizer.json").exists():
            raise EncoderUnavailableError(
                f"backend {backend!r} needs a fast tokenizer (tokenizer.json) in {source}")
        self.name = name
        self.backend = backend
        self.batch_size = int(batch_size)
        self.threads = int(threads or os.cpu_count() or 1)
        if workers is None:  # default: ORT with threads left to us -> up to 2 one-thread sessions
            workers = min(self.threads, DEFAULT_WORKERS) if threads is None and backend.startswith("onnx") else 1
        self.workers = max(1, int(workers))
        if self.workers > 1 and backend.startswith("openvino"):
            raise ValueError("workers > 1 is for the ONNX Runtime backends (OpenVINO has its own streams)")
        self.max_seq_length = _max_seq_length(source)
        self.tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(self.max_seq_length)
        self.pad_id = int(json.loads((source / "config.json").read_text()).get("pad_token_id") or 0)
        try:
            self.model_path = prepare_model_files(source, backend, model_root)
            runner = _OpenVinoRunner if backend.startswith("openvino") else _OrtRunner
            if self.workers > 1:  # N sessions of threads // N threads (at least 1) each
                per = max(1, self.threads // self.workers)
                self._runs = [runner(self.model_path, per) for _ in range(self.workers)]
                self._run = self._runs[0]
            else:
                self._run = runner(self.model_path, self.threads)
                self._runs = [self._run]
        except EncoderUnavailableError:
            raise
        except ImportError as exc:
            raise EncoderUnavailableError(
                f"backend {backend!r} needs onnx + onnxruntime (pip install onnx onnxruntime): {exc}"
            ) from exc
        self.dim = int(self._run(np.ones((1, 2), np.int64), np.ones((1, 2), np.int64)).shape[1])
        self._lock = threading.Lock()
        # ORT releases the GIL inside run(): threads that each own a session run in parallel
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="ort") if self.workers > 1 else None

    def tokenize(self, texts: Sequence[str]) -> list[list[int]]:
        return [e.ids for e in self.tokenizer.encode_batch(list(texts), add_special_tokens=True)]

    def encode(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of strings, not a single str")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        ids = self.tokenize(texts)
        lengths = np.fromiter((len(t) for t in ids), np.int64, len(ids))
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self.dim), np.float32)
        bs = int(batch_size or self.batch_size)
        batches = [order[i : i + bs] for i in range(0, len(order), bs)]

        def run(rows: np.ndarray, session) -> None:  # noqa: ANN001
            width = int(lengths[rows].max())
            batch = np.full((len(rows), width), self.pad_id, np.int64)
            mask = np.zeros((len(rows), width), np.int64)
            for r, row in enumerate(rows):
                seq = ids[row]
                batch[r, : len(seq)] = seq
                mask[r, : len(seq)] = 1
            out[rows] = session(batch, mask)

        with self._lock:
            if self._pool is None or len(batches) < 2:
                for rows in batches:
                    run(rows, self._run)
            else:  # worker k runs batches k, k+N, ... (length-sorted: neighbours cost alike)
                def lane(k: int) -> None:
                    for rows in batches[k :: self.workers]:
                        run(rows, self._runs[k])

                for f in [self._pool.submit(lane, k) for k in range(self.workers)]:
                    f.result()
        return l2_normalise(out)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors that do not depend on which other texts share the call.

        Dynamic int8 quantises each batch's activations with one scale for the whole batch, so
        under the int8 backends a text's vector moves slightly (cosine ~0.99) with its batch mates.
        Corpus builds are reproducible anyway (the corpus fixes the batches); queries arrive
        in run-dependent batches, so int8 backends encode them one at a time (a few ms each)
        and a question retrieves the same facts in every run. fp32 backends batch them.
        """
        if not is_int8(self.backend):
            return self.encode(texts)
        return self.encode(texts, batch_size=1)

    def __repr__(self) -> str:
        return (f"OnnxEncoder({self.name!r}, backend={self.backend!r}, dim={self.dim}, threads={self.threads}"
                f"{f', workers={self.workers}' if self.workers > 1 else ''})")
