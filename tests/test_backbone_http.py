"""LLMBackbone over the OpenAI HTTP transport against a scripted local server.

Covers: schema validation and the repair/retry path, parse failures recorded with raw text,
backoff on 5xx/timeouts/429, permanent failures as per-request errors, token counts from
``usage``, secrets kept out of logs/reprs/errors, and the request cache.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.backbones.cache import RequestCache
from tkgqa_ray.backbones.factory import build_backbone
from tkgqa_ray.backbones.llm import LLMBackbone
from tkgqa_ray.backbones.prompts import PromptLibrary
from tkgqa_ray.backbones.testing import ScriptedServer, chat_response
from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

REPO = Path(__file__).resolve().parents[1]

QA = """\
{# test template: a system prompt, one few-shot pair, then the question turn #}
### system
You answer questions about events. Reply with JSON matching: {{ json_schema }}
### user
Question: Who visited Paris in 2010?
### assistant
{"answers": ["Angela Merkel"], "confidence": 0.9}
### user
Question: {{ question }}
{% for f in facts %}
- {{ f }}
{% endfor %}
"""


class Answer(BaseModel):
    answers: list[str]
    confidence: float = Field(ge=0.0, le=1.0)


GOOD = '{"answers": ["Barack Obama"], "confidence": 0.5}'


@pytest.fixture()
def prompts(tmp_path: Path) -> PromptLibrary:
    root = tmp_path / "prompts"
    (root / "test").mkdir(parents=True)
    (root / "test" / "qa.txt").write_text(QA)
    (root / "test" / "free.txt").write_text("### user\nSay one word about {{ topic }}.\n")
    (root / "_shared").mkdir()
    (root / "_shared" / "repair.txt").write_text((REPO / "prompts" / "_shared" / "repair.txt").read_text())
    return PromptLibrary(root)


def req(q: str = "Who met Obama?", quid: str = "q1") -> RoleRequest:
    return RoleRequest("test", "qa", {"question": q, "facts": ["A|meet|B|2010-01-01|2010-01-01"]}, Answer, quid)


def backbone(srv: ScriptedServer, prompts: PromptLibrary, cache: RequestCache | None = None, **kw) -> LLMBackbone:
    transport = OpenAIHTTPTransport(srv.base_url, "m", backoff_s=0.01, max_backoff_s=0.05, **kw)
    return LLMBackbone("test-llm", transport, prompts=prompts, cache=cache, max_tokens=40)


def test_valid_json_first_try_tokens_from_usage(prompts):
    with ScriptedServer(lambda b, n: (200, chat_response("Sure! " + GOOD + " done", 123, 7))) as srv:
        bb = backbone(srv, prompts)
        [res] = bb.run([req()])
        bb.close()
    assert res.ok and res.error is None
    assert res.output == {"answers": ["Barack Obama"], "confidence": 0.5}
    assert (res.attempts, res.prompt_tokens, res.completion_tokens) == (1, 123, 7)
    sent = srv.requests[0]
    assert sent["model"] == "m" and sent["temperature"] == 0.0 and sent["max_tokens"] == 40
    roles = [m["role"] for m in sent["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert sent["messages"][-1]["content"] == "Question: Who met Obama?\n- A|meet|B|2010-01-01|2010-01-01"
    assert '"confidence"' in sent["messages"][0]["content"]  # the schema is rendered into the prefix
    assert "response_format" not in sent  # supports_json_schema defaults to False


def test_broken_json_then_valid_is_retried_with_a_repair_turn(prompts):
    replies = ['{"answers": ["x"], "confidence": ', '{"answers": "x", "confidence": 3}', GOOD]
    with ScriptedServer(lambda b, n: (200, chat_response(replies[n], 100, 10))) as srv:
        bb = backbone(srv, prompts)
        [res] = bb.run([req()])
    assert res.ok and res.attempts == 3
    assert res.output["answers"] == ["Barack Obama"]
    assert (res.prompt_tokens, res.completion_tokens) == (300, 30)  # summed over attempts
    assert len(srv.requests) == 3
    second, third = srv.requests[1]["messages"], srv.requests[2]["messages"]
    assert second[:4] == srv.requests[0]["messages"]  # same prefix + question, then the repair
    assert second[4] == {"role": "assistant", "content": replies[0]}
    assert second[5]["role"] == "user" and "no JSON object" in second[5]["content"]
    assert third[6] == {"role": "assistant", "content": replies[1]}
    assert "answers: Input should be a valid list" in third[7]["content"]
    assert "confidence: Input should be less than or equal to 1" in third[7]["content"]
    assert all(r["temperature"] == 0.0 for r in srv.requests)


def test_always_broken_is_a_parse_failure_with_raw_text(prompts):
    with ScriptedServer(lambda b, n: (200, chat_response(f"I think Obama ({n})"))) as srv:
        bb = backbone(srv, prompts)
        [res] = bb.run([req()])
    assert not res.ok and res.output is None and res.parse_failure
    assert res.error == "parse_failure: no JSON object in the output"
    assert res.raw == "I think Obama (2)" and res.attempts == 3 and len(srv.requests) == 3
    rec = res.record()
    assert rec["error"].startswith("parse_failure") and "output" not in rec


def test_batch_mixes_success_parse_failure_and_free_text(prompts):
    def script(body, n):
        q = body["messages"][-1]["content"]
        if "bad" in q or body["messages"][-1]["content"].startswith("Your previous answer"):
            return 200, chat_response("nope")
        if q.startswith("Say one word"):
            return 200, chat_response("  history \n")
        return 200, chat_response(GOOD)

    with ScriptedServer(script) as srv:
        bb = backbone(srv, prompts, concurrency=3)
        out = bb.run([req("good?", "a"), req("bad?", "b"), RoleRequest("test", "free", {"topic": "war"}), req("ok?", "c")])
    assert [r.ok for r in out] == [True, False, True, True]
    assert out[2].output == "history" and out[2].role == "free"
    assert out[1].attempts == 3 and out[0].attempts == 1 and out[3].attempts == 1


def test_5xx_timeout_429_then_success_backs_off(prompts):
    plan = [(503, {"error": "busy"}), ("sleep", 1.0), (429, {"error": "slow down"}), (200, chat_response(GOOD, 9, 4))]
    with ScriptedServer(lambda b, n: plan[n]) as srv:
        bb = backbone(srv, prompts, timeout_s=0.3, max_retries=4)
        [res] = bb.run([req()])
    assert res.ok and res.attempts == 1  # transport retries are not validation attempts
    assert (res.prompt_tokens, res.completion_tokens) == (9, 4)
    assert len(srv.requests) == 4


def test_permanent_5xx_becomes_a_transport_error_not_an_exception(prompts):
    with ScriptedServer(lambda b, n: (500, {"error": "engine dead"})) as srv:
        bb = backbone(srv, prompts, max_retries=2)
        [a, b] = bb.run([req("one", "a"), req("two", "b")])
    for r in (a, b):
        assert not r.ok and r.error.startswith("transport: HTTP 500") and "after 3 attempts" in r.error
        assert not r.parse_failure
    assert len(srv.requests) == 6


def test_4xx_is_not_retried(prompts):
    with ScriptedServer(lambda b, n: (400, {"error": "maximum context length is 512 tokens"})) as srv:
        bb = backbone(srv, prompts, max_retries=4)
        [res] = bb.run([req()])
    assert res.error.startswith("transport: HTTP 400") and "maximum context length" in res.error
    assert len(srv.requests) == 1


def test_connection_refused_is_a_transport_error(prompts):
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD))) as srv:
        url = srv.base_url
    bb = LLMBackbone("t", OpenAIHTTPTransport(url, "m", max_retries=1, backoff_s=0.01), prompts=prompts)
    [res] = bb.run([req()])
    assert not res.ok and res.error.startswith("transport: ConnectError")


def test_response_format_json_schema_when_supported(prompts):
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD))) as srv:
        bb = backbone(srv, prompts, supports_json_schema=True)
        bb.run([req(), RoleRequest("test", "free", {"topic": "x"})])
    by_last = {r["messages"][-1]["content"][:8]: r for r in srv.requests}
    rf = by_last["Question"]["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["name"] == "Answer"
    assert rf["json_schema"]["schema"] == Answer.model_json_schema()
    assert "response_format" not in by_last["Say one "]  # free-text roles are not constrained


def test_secret_never_in_logs_repr_or_errors(prompts, monkeypatch, caplog):
    key = "sk-test-SECRET-0123456789"
    monkeypatch.setenv("TKGQA_TEST_KEY", key)

    def script(body, n):  # a hostile server that echoes the credential in its error bodies
        return (401 if n % 2 else 503), {"error": f"bad key {key}"}

    caplog.set_level(logging.DEBUG)
    with ScriptedServer(script) as srv:
        cfg = {"name": "api", "kind": "openai", "base_url": srv.base_url, "model": "m",
               "api_key_env": "TKGQA_TEST_KEY", "api_key_required": True, "backoff_s": 0.01,
               "max_retries": 3, "cache": {"enabled": False}, "prompts_dir": str(prompts.root)}  # fmt: skip
        bb = build_backbone(cfg)
        [res] = bb.run([req()])
    assert srv.headers[0]["Authorization"] == f"Bearer {key}"  # it is sent...
    assert not res.ok and "***" in res.error and key not in res.error  # ...and scrubbed
    assert key not in repr(bb) and key not in repr(bb.transport) and key not in str(vars(bb.transport))
    assert key not in json.dumps(res.record())
    assert key not in caplog.text and "TKGQA_TEST_KEY" not in (res.error or "")
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(bb.transport._key)


def test_missing_required_key_names_the_variable(monkeypatch):
    monkeypatch.delenv("TKGQA_NO_SUCH_KEY", raising=False)
    with pytest.raises(RuntimeError, match="TKGQA_NO_SUCH_KEY"):
        OpenAIHTTPTransport("http://127.0.0.1:9/v1", "m", api_key_env="TKGQA_NO_SUCH_KEY", api_key_required=True)


def test_cache_prevents_repeat_calls_across_backbone_instances(prompts, tmp_path):
    def script(body, n):  # question "one" needs a repair turn
        return 200, chat_response("broken" if body["messages"][-1]["content"].startswith("Question: one") else GOOD, 50, 5)

    cache_path = tmp_path / "cache" / "requests.sqlite"
    reqs = [req("one", "a"), req("two", "b")]
    with ScriptedServer(script) as srv:
        first = backbone(srv, prompts, cache=RequestCache(cache_path)).run(reqs)
        n_first = len(srv.requests)
        again = backbone(srv, prompts, cache=RequestCache(cache_path)).run(reqs)
        # the rerun sent only the one call whose reply had failed validation ("broken" is never
        # stored); the valid replies, incl. the repaired one, came from the cache
        assert n_first == 3 and len(srv.requests) == 4
        assert srv.requests[-1]["messages"][-1]["content"].startswith("Question: one")
        other_model = LLMBackbone("test-llm", OpenAIHTTPTransport(srv.base_url, "m2"), prompts=prompts,
                                  cache=RequestCache(cache_path), max_tokens=40).run(reqs[1:])  # fmt: skip
        assert len(srv.requests) == 5  # the model is part of the key
    assert [r.output for r in again] == [r.output for r in first]
    assert [r.attempts for r in again] == [r.attempts for r in first] == [2, 1]
    assert [r.cached for r in again] == [False, True] and not any(r.cached for r in first)
    assert [r.cached_calls for r in again] == [1, 1] and [r.cached_calls for r in first] == [0, 0]
    assert [r.prompt_tokens for r in again] == [100, 50]  # recorded cost of the original calls
    assert other_model[0].ok


def test_usage_missing_counts_zero_without_tokenizer(prompts):
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD, usage=False))) as srv:
        [res] = backbone(srv, prompts).run([req()])
    assert res.ok and (res.prompt_tokens, res.completion_tokens) == (0, 0)


def test_qps_limit_spaces_requests(prompts):
    import time

    from tkgqa_ray.backbones.transports.openai_http import RateLimiter

    lim = RateLimiter(20.0)
    t0 = time.monotonic()
    for _ in range(5):
        lim.wait()
    assert time.monotonic() - t0 >= 4 * 0.05 - 1e-3  # 5 starts need >= 4 intervals


def test_backbone_pickles_for_ray_workers_without_the_key(prompts, monkeypatch, tmp_path):
    import pickle

    key = "sk-pickle-SECRET-42"
    monkeypatch.setenv("TKGQA_TEST_KEY", key)
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD))) as srv:
        t = OpenAIHTTPTransport(srv.base_url, "m", api_key_env="TKGQA_TEST_KEY", qps=100)
        bb = LLMBackbone("w", t, prompts=prompts, cache=RequestCache(tmp_path / "c.sqlite"))
        bb.run([req("warm up the client")])
        blob = pickle.dumps(bb)
        assert key.encode() not in blob
        copy = pickle.loads(blob)  # as in a Ray worker: re-reads the key from its environment
        [res] = copy.run([req("in the worker")])
    assert res.ok and srv.headers[-1]["Authorization"] == f"Bearer {key}"
    assert copy.transport.limiter.interval == pytest.approx(0.01) and copy._owned == []
