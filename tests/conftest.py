"""Shared fixtures. Ray costs ~7.5 s to start, so one local session serves every test."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
REAL_KG_DIR = REPO.parent / "shared" / "data" / "multitq" / "kg"
REAL_KG = REAL_KG_DIR / "full.txt.gz"


@pytest.fixture(scope="session")
def real_kg_path() -> Path:
    if not REAL_KG.exists():
        pytest.skip(f"real MultiTQ KG not found at {REAL_KG} (shared data absent)")
    return REAL_KG


@pytest.fixture(scope="session")
def make_symbolic_ctx(tmp_path_factory):
    """Factory: an in-process ``RunContext`` over hand-made rows — real ``FactStore``, MiniLM
    ``EmbeddingService`` with the fact index, symbolic backbone (what method tests run on)."""

    def make(rows, fact_index: bool = True):
        from tkgqa_ray.backbones.symbolic import SymbolicBackbone
        from tkgqa_ray.context import RunContext
        from tkgqa_ray.embed.service import EmbeddingService
        from tkgqa_ray.kg.store import FactStore
        from tkgqa_ray.kg.table import FactTable

        table = FactTable.from_rows(rows)
        emb = EmbeddingService(table, cache_dir=tmp_path_factory.mktemp("emb"), fact_index=fact_index)
        bb = SymbolicBackbone()
        ctx = RunContext(table=table, store=FactStore(table), embeddings=emb, backbone=bb)
        bb.bind(ctx)
        return ctx

    return make


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray for the whole test session (no dashboard unless a test starts its own)."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(
            num_cpus=8,  # logical oversubscription: LLM/actor tests need slots on a 2-core box
            object_store_memory=512 * 1024**2,
            include_dashboard=False,
            ignore_reinit_error=True,
            log_to_driver=False,
        )
    yield ray
