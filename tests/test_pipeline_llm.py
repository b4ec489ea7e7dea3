"""The real CPU LLM through the whole pipeline: one vLLM-CPU server (SmolLM2-135M) prepared by
the driver (``acquire_server``: the session's ``cpu_llm_server`` has the same settings, so the
run shares it rather than paying a second start) and used by every method worker over HTTP;
rows carry real token counts and role records."""

from __future__ import annotations

import json

import pytest

from test_pipeline_methods import compose_cfg, make_dataset, read_rows
from tkgqa_ray.pipeline.driver import run_pipeline

pytestmark = [pytest.mark.ray, pytest.mark.llm]


def test_llm_only_with_smollm2_cpu_server(ray_session, cpu_llm_server, tmp_path):
    root = tmp_path / "ds"
    # four questions in two batches over two workers: both workers call the shared server at
    # once (what the test is for); each further question only adds decoding on the critical path
    make_dataset(root, n_questions=4, seed=2)
    out = tmp_path / "run"
    info = run_pipeline(compose_cfg(root, out, "method=llm_only", "backbone=smollm2-cpu", "backbone.cache.enabled=false",
                                    # bounded replies: SmolLM2 on 2 busy cores decodes ~7 tokens/s, and a
                                    # rambling 128-token answer (x3 attempts) cost ~100 s; {"answers": [..]}
                                    # fits in 48, a cut-off reply is a recorded parse failure either way
                                    "backbone.max_tokens=48", "backbone.max_attempts=2",
                                    "run.batch_size=2", "run.num_workers=2", "store.num_shards=1"))
    rows = read_rows(out)
    assert len(rows) == 4 and info["counts"]["questions"] == 4
    for r in rows:
        roles = json.loads(r["roles"])
        assert [x["role"] for x in roles] == ["answerer"]
        if r["error"] is None:  # a tiny model may emit unparsable JSON: then parse_failures counts it
            assert r["prompt_tokens"] > 0 and r["completion_tokens"] > 0
            assert r["parse_failures"] == sum(1 for x in roles if str(x["error"] or "").startswith("parse_failure"))
    assert sum(r["prompt_tokens"] for r in rows) > 0
    assert all(r["backbone"] == "smollm2-cpu" for r in rows)
