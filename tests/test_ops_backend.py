"""A backbone endpoint that returns 5xx / times out for a while: the HTTP transport retries
with backoff, questions still failing become error rows, the run finishes, and a rerun with
``run.retry_failed=true`` fills them in. The endpoint is the backbone package's scripted
OpenAI-compatible server; its "model" answers from the test gold (this is about faults)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from test_pipeline_methods import compose_cfg, make_dataset, read_rows
from tkgqa_ray.backbones.testing import ScriptedServer, chat_response
from tkgqa_ray.pipeline.driver import run_pipeline

pytestmark = pytest.mark.ray


def test_flaky_endpoint_error_rows_then_retry_failed(ray_session, tmp_path):
    import json

    root = tmp_path / "ds"
    gold = make_dataset(root, n_questions=12, seed=3)
    text_to_quid = {}
    for rec in json.loads((root / "questions" / "test.json").read_text()):
        text_to_quid[rec["question"]] = str(rec["quid"])
    down = {"1000", "1001", "1002", "1003"}  # 5xx for these while the outage lasts
    slow = {"1004"}  # times out while the outage lasts
    blip = {"1005"}  # two 503s, then fine: the transport's retries absorb it
    outage = threading.Event()
    outage.set()
    seen: Counter = Counter()
    lock = threading.Lock()

    def script(body, n):
        prompt = body["messages"][-1]["content"]
        quid = next((q for t, q in text_to_quid.items() if t in prompt), None)
        assert quid is not None, prompt[:300]
        with lock:
            seen[quid] += 1
            k = seen[quid]
        if outage.is_set() and quid in down:
            return 503, {"error": {"message": "overloaded"}}
        if outage.is_set() and quid in slow:
            return "sleep", 1.5
        if quid in blip and k <= 2:
            return 503, {"error": {"message": "blip"}}
        return 200, chat_response(json.dumps({"answers": gold[quid]}))

    with ScriptedServer(script) as srv:
        overrides = (
            "method=llm_only", "backbone=openai", f"backbone.base_url={srv.base_url}", "backbone.model=scripted",
            "backbone.max_retries=2", "backbone.backoff_s=0.05", "backbone.max_backoff_s=0.2", "backbone.timeout_s=0.5",
            "backbone.connect_timeout_s=0.5", "backbone.cache.enabled=false", "backbone.supports_json_schema=false",
            "run.batch_size=4", "run.num_workers=1", "store.num_shards=1",
        )
        out = tmp_path / "run"
        cfg = compose_cfg(root, out, *overrides)
        info = run_pipeline(cfg)
        by = {r["quid"]: r for r in read_rows(out)}
        assert len(by) == 12
        failed = {q for q, r in by.items() if r["error"] is not None}
        assert failed == down | slow, {q: by[q]["error"] for q in failed}
        assert all(by[q]["error"].startswith("answerer: transport") for q in failed)
        assert all(seen[q] == 3 for q in down)  # 1 try + max_retries=2, with backoff
        assert by["1005"]["error"] is None and by["1005"]["predictions"] == gold["1005"]
        for q in set(by) - failed:
            assert by[q]["predictions"] == gold[q]
        assert info["counts"]["errors"] == 5

        outage.clear()  # the endpoint recovers
        info2 = run_pipeline(compose_cfg(root, out, *overrides, "run.retry_failed=true"))
        assert info2["counts"]["run_this_invocation"] == 5
        rows = read_rows(out)
        assert [r["quid"] for r in rows] == [str(1000 + i) for i in range(12)]
        assert all(r["error"] is None and r["predictions"] == gold[r["quid"]] for r in rows)
        assert all(json.loads(r["roles"])[0]["role"] == "answerer" for r in rows)
