"""The request cache cannot lie (issue 12): its key holds the model identity the server
reports, a server that does not answer is never papered over with stored replies, replies
that failed validation are never stored, and a run's summary counts cached replies."""

from __future__ import annotations

import json
import socket

import pyarrow as pa

from test_backbone_http import GOOD, Answer, prompts, req  # noqa: F401 - prompts is a fixture
from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.backbones.cache import RequestCache
from tkgqa_ray.backbones.llm import LLMBackbone
from tkgqa_ray.backbones.testing import ScriptedServer, chat_response
from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

OTHER = '{"answers": ["Someone Else"], "confidence": 0.1}'


def bb(url: str, prompts, cache: RequestCache, model: str = "m", **kw) -> LLMBackbone:
    t = OpenAIHTTPTransport(url, model, backoff_s=0.01, max_backoff_s=0.02, **kw)
    return LLMBackbone("test-llm", t, prompts=prompts, cache=cache, max_tokens=40)


def _free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_an_endpoint_that_never_replies_gets_no_cached_answers(prompts, tmp_path):
    cache = RequestCache(tmp_path / "c.sqlite")
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD))) as srv:
        [first] = bb(srv.base_url, prompts, cache).run([req()])
    assert first.ok and not first.cached and len(cache) == 1
    # same backbone name and model, pointed at a dead endpoint: today's cache replied "ok"
    dead = f"http://127.0.0.1:{_free_port()}/v1"
    [res] = bb(dead, prompts, RequestCache(tmp_path / "c.sqlite"), max_retries=0, connect_timeout_s=0.5).run([req()])
    assert not res.ok and res.error.startswith("transport:") and not res.cached and res.cached_calls == 0
    # and one that accepts connections but never answers (no /models, chat times out)
    with ScriptedServer(lambda b, n: ("sleep", 3), models=None) as hung:
        [res] = bb(hung.base_url, prompts, RequestCache(tmp_path / "c.sqlite"), max_retries=0, timeout_s=0.3).run([req()])
    assert not res.ok and res.error.startswith("transport:") and not res.cached


def test_another_server_with_the_same_model_name_is_not_served_from_the_cache(prompts, tmp_path):
    path = tmp_path / "c.sqlite"
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD)), models=[{"id": "m", "root": "/weights/qwen-7b"}]) as s1:
        [a] = bb(s1.base_url, prompts, RequestCache(path)).run([req()])
        [again] = bb(s1.base_url, prompts, RequestCache(path)).run([req()])
        assert len(s1.requests) == 1 and again.cached and again.output == a.output  # same server: replayed
    with ScriptedServer(lambda b, n: (200, chat_response(OTHER)), models=[{"id": "m", "root": "/weights/qwen-14b"}]) as s2:
        [b] = bb(s2.base_url, prompts, RequestCache(path)).run([req()])
        assert len(s2.requests) == 1  # other weights behind the same name: asked, not replayed
    assert not b.cached and b.output["answers"] == ["Someone Else"]


def test_sampling_and_transport_settings_are_part_of_the_key(prompts, tmp_path):
    path = tmp_path / "c.sqlite"
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD))) as srv:
        bb(srv.base_url, prompts, RequestCache(path)).run([req()])
        bb(srv.base_url, prompts, RequestCache(path), extra_body={"top_p": 0.5}).run([req()])
        bb(srv.base_url, prompts, RequestCache(path), supports_json_schema=True).run([req()])
        hot = bb(srv.base_url, prompts, RequestCache(path))
        hot.temperature = 0.7
        hot.run([req()])
        assert len(srv.requests) == 4


def test_replies_that_fail_validation_are_never_stored_or_served(prompts, tmp_path):
    path = tmp_path / "c.sqlite"
    with ScriptedServer(lambda b, n: (200, chat_response('{"answers": "not a list"}'))) as srv:
        [r1] = bb(srv.base_url, prompts, RequestCache(path)).run([req()])
        [r2] = bb(srv.base_url, prompts, RequestCache(path)).run([req()])
        assert len(srv.requests) == 6  # 3 attempts each time: nothing replayed
    assert r1.parse_failure and r2.parse_failure and not r2.cached and r2.cached_calls == 0
    assert len(RequestCache(path)) == 0


def test_identity_from_a_live_reply_when_the_server_has_no_model_list(prompts, tmp_path):
    path = tmp_path / "c.sqlite"
    with ScriptedServer(lambda b, n: (200, chat_response(GOOD, model="m")), models=None) as srv:
        b = bb(srv.base_url, prompts, RequestCache(path))
        b.run([req("first")])  # identity unknown before this reply: not cached
        b.run([req("second")])  # now known (reply said "m"): stored
        b.run([req("second")])
        assert len(srv.requests) == 2


def test_summary_counts_replies_from_the_cache():
    from tkgqa_ray.pipeline.metrics import format_summary, summarize
    from tkgqa_ray.pipeline.rows import rows_to_table, state_to_row

    def state(q, roles):
        return {"quid": q, "question": "x?", "predictions": ["a"], "roles": roles}

    rows = rows_to_table([
        state_to_row(state("1", [{"role": "answerer", "attempts": 2, "cached": False, "cached_calls": 1}]), "m", "b", "none"),
        state_to_row(state("2", [{"role": "answerer", "attempts": 1, "cached": True, "cached_calls": 1},
                                 {"role": "parser", "attempts": 1, "cached": False, "cached_calls": 0}]), "m", "b", "none"),
        state_to_row(state("3", [{"role": "answerer", "attempts": 1, "cached": True}]), "m", "b", "none"),  # older row
    ])
    s = summarize(rows)
    assert s["cache"] == {"replies": 5, "from_cache": 3}
    assert "replies from the request cache: 3 of 5" in format_summary(s)
    s0 = summarize(rows_to_table([state_to_row(state("4", [{"role": "answerer", "attempts": 1}]), "m", "symbolic", "none")]))
    assert s0["cache"] == {"replies": 1, "from_cache": 0} and "request cache" not in format_summary(s0)
    assert json.loads(json.dumps(s))["cache"]["from_cache"] == 3
    assert isinstance(rows, pa.Table)
