"""Every conf/backbone/*.yaml builds (lazily: no server, no GPU) and bad configs fail clearly."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from omegaconf import OmegaConf

from tkgqa_ray.backbones.factory import build_backbone
from tkgqa_ray.backbones.llm import LLMBackbone
from tkgqa_ray.backbones.symbolic import SymbolicBackbone
from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport
from tkgqa_ray.backbones.transports.vllm_actor import VLLMActorTransport

CONF = Path(__file__).resolve().parents[1] / "conf" / "backbone"
EXPECTED = {
    "symbolic", "smollm2-cpu", "openai", "qwen2.5-14b", "qwen2.5-7b", "llama3.1-8b",
    "deepseek-v3", "gpt-4o-mini", "gpt-3.5-turbo",
}  # fmt: skip


def test_all_configs_present_and_named_after_their_file():
    names = {p.stem for p in CONF.glob("*.yaml")}
    assert EXPECTED <= names
    for p in CONF.glob("*.yaml"):
        assert OmegaConf.load(p).name == p.stem


@pytest.mark.parametrize("name", sorted(EXPECTED - {"smollm2-cpu"}))
def test_config_builds(name, monkeypatch, tmp_path):
    for var in ("OPENAI_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.setenv(var, "sk-dummy")
    bb = build_backbone(OmegaConf.load(CONF / f"{name}.yaml"), cache_dir=tmp_path)
    assert bb.name == name
    if name == "symbolic":
        assert isinstance(bb, SymbolicBackbone) and not bb.is_llm
        return
    assert isinstance(bb, LLMBackbone) and bb.is_llm and bb.cache.path == tmp_path / "requests.sqlite"
    if OmegaConf.load(CONF / f"{name}.yaml").kind == "vllm":
        t = bb.transport
        assert isinstance(t, VLLMActorTransport) and t.pool_cfg.name == name and t.pool_cfg.enable_prefix_caching
        assert pickle.loads(pickle.dumps(t)).pool_cfg == t.pool_cfg  # ships to Ray workers by config
        # the engine actor gets the pool as a plain dict and validates it again (strict schema)
        assert type(t.pool_cfg).model_validate(t.pool_cfg.model_dump()) == t.pool_cfg
    else:
        assert isinstance(bb.transport, OpenAIHTTPTransport)
    bb.close()


def test_roles_of_two_backbones_share_one_engine_pool(tmp_path):
    a = OmegaConf.load(CONF / "qwen2.5-7b.yaml")
    b = OmegaConf.merge(a, {"name": "qwen-json-strict", "max_tokens": 64})
    ta, tb = build_backbone(a, cache_dir=tmp_path).transport, build_backbone(b, cache_dir=tmp_path).transport
    assert ta.pool_cfg.name == tb.pool_cfg.name  # same named actors, no second GPU pool


def test_unknown_key_and_kind_are_rejected():
    with pytest.raises(ValueError, match=r"^config error: backbone\.base_ulr is not a known key; did you mean 'base_url'\?"):
        build_backbone({"name": "x", "kind": "openai", "base_ulr": "http://h/v1", "model": "m"})
    with pytest.raises(ValueError, match=r"^config error: backbone\.kind is unknown: 'vlm'; did you mean 'vllm'\?"):
        build_backbone({"name": "x", "kind": "vlm"})
    with pytest.raises(ValueError, match=r"^config error: backbone\.engine_pool\.tp is not a known key"):
        build_backbone({"name": "x", "kind": "vllm", "model": "m", "engine_pool": {"name": "p", "tp": 2}})
    # the symbolic kind has no LLM keys: a copied-over one is refused, not ignored
    with pytest.raises(ValueError, match=r"^config error: backbone\.max_tokens is not a known key"):
        build_backbone({"name": "x", "kind": "symbolic", "max_tokens": 5})


def test_api_backbone_without_key_fails_naming_the_variable(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(RuntimeError, match="OPENAI_API_KEY"):
        build_backbone(OmegaConf.load(CONF / "gpt-4o-mini.yaml"))


def test_validate_backbone_config_without_building(monkeypatch):
    from tkgqa_ray.backbones.factory import prepare_backbone, validate_backbone_config

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    for p in CONF.glob("*.yaml"):
        validate_backbone_config(OmegaConf.load(p))  # no key, no server, no GPU needed
    with pytest.raises(ValueError, match=r"^config error: backbone\.base_url is required but not set$"):
        validate_backbone_config({"name": "x", "kind": "openai", "model": "m"})
    with pytest.raises(ValueError, match=r"^config error: backbone\.engine_pool is required but not set$"):
        validate_backbone_config({"name": "x", "kind": "vllm", "model": "m"})
    with pytest.raises(ValueError, match=r"^config error: backbone\.engine_pool\.overlong must be one of 'reject', 'shrink_output' \(got 'cut'\)$"):
        validate_backbone_config({"name": "x", "kind": "vllm", "model": "m", "engine_pool": {"name": "p", "overlong": "cut"}})
    prepared = prepare_backbone(OmegaConf.load(CONF / "openai.yaml"))  # nothing to start
    assert prepared.worker_cfg["kind"] == "openai"
    prepared.close()


def test_cpu_server_is_shared_and_reference_counted(monkeypatch, tmp_path):
    """Two smollm2-cpu backbones in one process share one server; the last close() stops it."""
    from tkgqa_ray.backbones.transports import cpu_server

    events = []
    monkeypatch.delenv("TKGQA_CPU_SERVER_URL", raising=False)
    # a registry of its own: on the llm worker the session's real server is registered already
    monkeypatch.setattr(cpu_server, "_SHARED", {})
    monkeypatch.setattr(cpu_server.CPUServer, "start", lambda self: events.append("start") or setattr(self, "port", 1234) or self)
    monkeypatch.setattr(cpu_server.CPUServer, "stop", lambda self: events.append("stop"))
    cfg = OmegaConf.merge(OmegaConf.load(CONF / "smollm2-cpu.yaml"), {"cache": False})
    a, b = build_backbone(cfg), build_backbone(cfg)
    assert events == ["start"] and a.transport.base_url == b.transport.base_url == "http://127.0.0.1:1234/v1"
    a.close()
    assert events == ["start"]
    b.close()
    assert events == ["start", "stop"]
    a.close()  # idempotent
    assert events == ["start", "stop"]


def test_engine_pool_model_defaults_to_the_backbone_model_and_an_explicit_one_wins(tmp_path):
    t = build_backbone({"name": "x", "kind": "vllm", "model": "m", "engine_pool": {"name": "p"}}, cache_dir=tmp_path).transport
    assert t.pool_cfg.model_source == "m" and t.model == "m"
    t = build_backbone({"name": "x", "kind": "vllm", "model": "m", "engine_pool": {"name": "p", "model_source": "/w"}},
                       cache_dir=tmp_path).transport
    assert t.pool_cfg.model_source == "/w"


def test_http_keys_left_unset_keep_the_transport_defaults(tmp_path):
    """Only keys a config sets reach the transport (null = its default), as before the registry."""
    bb = build_backbone({"name": "x", "kind": "openai", "base_url": "http://h/v1/", "model": "m", "qps": None,
                         "max_retries": 7, "cache": False}, cache_dir=tmp_path)
    t = bb.transport
    assert t.base_url == "http://h/v1" and t.max_retries == 7 and bb.cache is None
    default = OpenAIHTTPTransport("http://h/v1", "m")
    assert (t.concurrency, t.limiter.interval) == (default.concurrency, default.limiter.interval) == (8, 0.0)


def test_a_new_kind_is_one_registered_class(tmp_path):
    """A kind module only subclasses BackboneKind and registers: config validation, build and
    prepare all find it (the factory has no per-kind branch)."""
    from pydantic import Field

    from tkgqa_ray.backbones import kind as kind_mod
    from tkgqa_ray.backbones.factory import prepare_backbone, validate_backbone_config
    from tkgqa_ray.backbones.kind import BackboneConfig, BackboneKind, register

    class EchoConfig(BackboneConfig):
        greeting: str = Field("hi")

    class Echo(BackboneKind):
        kind = "echo_test"
        Config = EchoConfig

        @classmethod
        def build(cls, cfg, cache_dir=None):
            return SymbolicBackbone(f"{cfg.name}:{cfg.greeting}")

    register(Echo)
    try:
        assert "echo_test" in kind_mod.kinds()
        assert build_backbone({"name": "e", "kind": "echo_test", "greeting": "yo"}).name == "e:yo"
        with pytest.raises(ValueError, match=r"^config error: backbone\.greting is not a known key; did you mean 'greeting'\?"):
            validate_backbone_config({"name": "e", "kind": "echo_test", "greting": "yo"})
        assert prepare_backbone({"name": "e", "kind": "echo_test"}).worker_cfg == {"name": "e", "kind": "echo_test"}
    finally:
        kind_mod.KINDS.unregister("echo_test")


def test_every_kind_module_registers_its_kind():
    from tkgqa_ray.backbones.kind import kinds

    mods = {p.stem for p in (Path(__file__).resolve().parents[1] / "tkgqa_ray" / "backbones" / "kinds").glob("[!_]*.py")}
    assert set(kinds()) == mods == {"symbolic", "openai", "vllm", "cpu_vllm_server"}
