"""The retrieval baselines: ``rag`` (dense top-k → answerer), ``rag_filter`` (dense top-50 →
filter role keeps 20 → answerer) and ``llm_only`` (the answerer on the question alone).

They are assembled from the shared evidence layer (:mod:`tkgqa_ray.retrieval`); what is theirs
alone is here: the filter stage and the symbolic implementations of their roles. Everything
sees only ``quid`` + ``question``; answer type and granularity come from
:mod:`tkgqa_ray.nlu.signals`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from tkgqa_ray.backbones.base import RoleRequest
from tkgqa_ray.kg.factkey import decode_fact_key
from tkgqa_ray.methods.base import Method, Stage, State, register_method
from tkgqa_ray.methods.roles import register_symbolic, run_roles
from tkgqa_ray.nlu.signals import question_signals
from tkgqa_ray.retrieval.answers import Answer, candidate_answers, mentioned, question_entities
from tkgqa_ray.retrieval.dense import DenseRetrieve
from tkgqa_ray.retrieval.render import render_facts
from tkgqa_ray.retrieval.schemas import FilterOutput
from tkgqa_ray.schema import StrictModel
from tkgqa_ray.time.spans import parse_time_span

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext


# ----------------------------------------------------------------------------- symbolic roles
def symbolic_answerer(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Baseline answerer: the most frequent candidates in the evidence (no temporal reasoning)."""
    q = inputs["question"]
    return {"answers": candidate_answers(q, inputs.get("fact_keys", []), mentioned_names=question_entities(q, ctx))}


def symbolic_llm_only(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Without retrieval and without a language model there is nothing to answer from: the
    symbolic backbone honestly returns no answer (``llm_only`` is meaningful with an LLM)."""
    return {"answers": []}


def symbolic_filter(inputs: dict[str, Any], ctx: "RunContext" | None = None) -> dict[str, Any]:
    """Keep facts that name an entity of the question and fit its explicit time, in retrieval
    order, then pad with the rest in retrieval order up to ``keep_k``."""
    q = inputs["question"]
    keys = inputs.get("fact_keys", [])
    k = int(inputs.get("keep_k", 20))
    sig = question_signals(q)
    good, rest = [], []
    for i, key in enumerate(keys, 1):
        s, _r, o, t0, t1 = decode_fact_key(key)
        ent = mentioned(q, s.replace("_", " ")) or mentioned(q, o.replace("_", " "))
        ok_time = True
        if sig.explicit is not None and sig.order == "in":
            lo, hi = parse_time_span(t0)[0], parse_time_span(t1)[1]
            ok_time = lo <= sig.explicit.hi and hi >= sig.explicit.lo
        (good if ent and ok_time else rest).append(i)
    return {"keep": (good + rest)[:k]}


register_symbolic("rag.answerer", symbolic_answerer)
register_symbolic("rag_filter.answerer", symbolic_answerer)
register_symbolic("rag_filter.filter", symbolic_filter)
register_symbolic("llm_only.answerer", symbolic_llm_only)


# ----------------------------------------------------------------------------- stages
class FilterEvidence(Stage):
    """``rag_filter``: the backbone's filter role keeps at most ``keep_k`` of the retrieved facts."""

    name = "filter_evidence"

    def __init__(self, ctx: "RunContext", method: str = "rag_filter", keep_k: int = 20) -> None:
        super().__init__(ctx)
        self.method = method
        self.keep_k = keep_k

    def __call__(self, states: list[State]) -> list[State]:
        reqs = [
            RoleRequest(
                self.method,
                "filter",
                {
                    "question": s["question"],
                    "facts": render_facts(s["evidence"]),
                    "fact_keys": list(s["evidence"]),
                    "keep_k": self.keep_k,
                },
                FilterOutput,
                s["quid"],
            )
            for s in states
        ]
        outs = run_roles(self.ctx, states, reqs)
        for state, out in zip(states, outs):
            keys = state["evidence"]
            if out is None:  # filter failed: keep the retrieval order (recorded in roles)
                kept = keys[: self.keep_k]
            else:
                seen, kept = set(), []
                for n in out.get("keep", []):
                    if isinstance(n, int) and 1 <= n <= len(keys) and n not in seen:
                        seen.add(n)
                        kept.append(keys[n - 1])
                kept = kept[: self.keep_k]
            state["trace"]["filter_kept"] = len(kept)
            state["evidence"] = kept
        return states


# ----------------------------------------------------------------------------- methods
class DenseRAGOptions(StrictModel):
    k: int = Field(20, ge=1, description="facts given to the answerer")
    triple_pool: int | None = Field(None, ge=1, description="distinct triples fetched from FAISS before expanding to dated facts (null: the retriever's default)")


@register_method
class DenseRAG(Method):
    """Dense top-k (k=20) fact retrieval for the question, then the answerer role."""

    name = "rag"
    Options = DenseRAGOptions

    def build_stages(self) -> list[Stage]:
        o = self.options
        return [DenseRetrieve(self.ctx, k=o["k"], triple_pool=o["triple_pool"]), Answer(self.ctx, "rag")]


class RAGFilterOptions(StrictModel):
    k: int = Field(50, ge=1, description="dense candidates given to the filter role")
    keep_k: int = Field(20, ge=1, description="facts the filter role keeps for the answerer")
    triple_pool: int | None = Field(None, ge=1, description="distinct triples fetched from FAISS (null: the retriever's default)")


@register_method
class RAGFilter(Method):
    """Dense top-50, the backbone's filter role keeps 20, then the answerer role."""

    name = "rag_filter"
    Options = RAGFilterOptions

    def build_stages(self) -> list[Stage]:
        o = self.options
        return [
            DenseRetrieve(self.ctx, k=o["k"], triple_pool=o["triple_pool"]),
            FilterEvidence(self.ctx, "rag_filter", keep_k=o["keep_k"]),
            Answer(self.ctx, "rag_filter"),
        ]


@register_method
class LLMOnly(Method):
    """No retrieval: the answerer role on the question alone (evidence counts are 0)."""

    name = "llm_only"

    def build_stages(self) -> list[Stage]:
        return [Answer(self.ctx, "llm_only", answered_by="no_retrieval", with_evidence=False)]
