"""The method contract: a method is a named chain of stages over per-question state dicts.

A *stage* is a plain class with a batch-in/batch-out ``__call__(states) -> states``; it is
constructed once per worker with a :class:`~tkgqa_ray.context.RunContext` and can be tested
without Ray. A *state* is a dict that starts as ``{"quid", "question"}`` (nothing else: no gold)
and that stages extend with JSON-serialisable values. The last stage must set the keys of
:data:`RESULT_KEYS` it knows (``predictions`` at least).

``run_chain`` isolates failures: if a stage raises on a batch it is retried question by
question, and a question that still fails gets ``error`` set and skips the remaining stages.
"""

from __future__ import annotations

import time
import traceback
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tkgqa_ray.registry import Registry, load, target_ref
from tkgqa_ray.schema import StrictModel, check

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

State = dict[str, Any]

# Keys a finished state may carry; the pipeline turns them into predictions.parquet columns.
RESULT_KEYS = (
    "predictions",  # list[str], ranked answers (display names / times at question granularity)
    "evidence",  # list[str], final evidence facts rendered "s|r|o|start|end" (ISO dates)
    "initial_evidence_count",  # int, size of the candidate evidence space before filtering
    "final_evidence_count",  # int, facts given to the answerer
    "answered_by",  # str, which path produced the answer (e.g. "structured", "semantic_fallback")
    "trace",  # dict, everything needed to explain the answer (triples, constraints, ...)
    "roles",  # list[dict], one record per role call: role, ok, attempts, tokens, latency, error
    "error",  # str | None
)


class Stage(ABC):
    """One step of a method. Subclasses set ``name`` and implement ``__call__``; a stage of a
    method with a typed per-question state declares the fields it ``reads`` / ``writes``
    (checked at construction by :func:`tkgqa_ray.methods.contract.check_stages`)."""

    name: ClassVar[str] = "stage"
    reads: ClassVar[tuple[str, ...]] = ()  # state fields an earlier stage must have written
    reads_optional: ClassVar[tuple[str, ...]] = ()  # read if written, else the field's default
    writes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ctx: "RunContext") -> None:
        self.ctx = ctx

    @abstractmethod
    def __call__(self, states: list[State]) -> list[State]:
        """Extend each state in place or return new ones; the order of states is kept."""


class NoOptions(StrictModel):
    """The options of a method that has none: any key is refused."""


class Method(ABC):
    """A named chain of stages. ``ablation`` is the ablation name ("none" for the full method).

    ``Options`` is the schema of the method's ``method.options`` config (a
    :class:`~tkgqa_ray.schema.StrictModel`: an unknown key is refused naming it, with a
    did-you-mean); the config validator checks it before any work starts, and ``__init__``
    holds ``self.options`` as the validated dict (defaults filled in from the schema).
    """

    name: ClassVar[str] = "method"
    ablations: ClassVar[tuple[str, ...]] = ("none",)
    Options: ClassVar[type[StrictModel]] = NoOptions

    def __init__(self, ctx: "RunContext", ablation: str = "none", **options: Any) -> None:
        if ablation not in self.ablations:
            raise ValueError(
                f"method {self.name!r} has no ablation {ablation!r} (choose from {self.ablations})"
            )
        self.ctx = ctx
        self.ablation = ablation
        self.options: dict[str, Any] = check(self.Options, options, prefix="method.options").model_dump()
        self.stages: list[Stage] = self.build_stages()

    @abstractmethod
    def build_stages(self) -> list[Stage]: ...

    # where the method keeps its typed per-question state in a state dict while the chain runs
    # (None: no typed state); dropped after the chain, failed rows included, so it never
    # reaches the output row
    state_key: ClassVar[str | None] = None

    def __call__(self, states: list[State]) -> list[State]:
        out = run_chain(self.stages, states)
        if self.state_key is not None:
            for s in out:
                s.pop(self.state_key, None)
        return out


def _fail(state: State, stage: Stage, exc: BaseException) -> State:
    state["error"] = f"{stage.name}: {type(exc).__name__}: {exc}"
    state.setdefault("trace", {})["traceback"] = traceback.format_exc(limit=8)
    return state


def run_chain(stages: list[Stage], states: list[State]) -> list[State]:
    """Run ``stages`` over ``states``; failures become per-question errors, never a dead batch."""
    t0 = time.perf_counter()
    for state in states:
        state.setdefault("error", None)
        state.setdefault("roles", [])
        state.setdefault("trace", {})
    for stage in stages:
        live_pos = [i for i, s in enumerate(states) if s.get("error") is None]
        if not live_pos:
            break
        live = [states[i] for i in live_pos]
        try:
            out = stage(live)
            if len(out) != len(live):
                raise RuntimeError(f"stage {stage.name} returned {len(out)} states for {len(live)}")
        except Exception:
            out = []
            for state in live:  # isolate the failing question(s)
                try:
                    out.extend(stage([state]))
                except Exception as exc:  # noqa: BLE001 - recorded on the row
                    out.append(_fail(state, stage, exc))
        for i, new_state in zip(live_pos, out):
            states[i] = new_state
    elapsed = time.perf_counter() - t0
    for state in states:
        state["seconds"] = elapsed / max(len(states), 1)
        state.setdefault("predictions", [])
    return states


# Methods are discovered on the first lookup: every public module under ``tkgqa_ray.methods``
# is imported (their ``@register_method`` decorators run), and installed packages add theirs
# as entry points ``[project.entry-points."tkgqa_ray.methods"] name = "module:Class"`` (imported
# only when that name is used). See docs/architecture.md, "Adding a method".
METHODS: Registry[type[Method]] = Registry("method", package="tkgqa_ray.methods", entry_points="tkgqa_ray.methods")

M = TypeVar("M", bound=type[Method])


def register_method(cls: M) -> M:
    """Class decorator: make ``cls`` a method config files can name (``method.name: <cls.name>``)."""
    if not (isinstance(cls, type) and issubclass(cls, Method)) or "name" not in vars(cls):
        raise TypeError(f"@register_method needs a Method subclass with its own name, got {cls!r}")
    METHODS.register(cls.name, cls)
    return cls


def method_class(name: str) -> type[Method]:
    """A registered method's class, or ``"module:Class"`` for one outside the registry (a plugin
    file next to the driver, a test method). Raises ``KeyError`` (did-you-mean) / ``ImportError``
    / ``TypeError``."""
    if ":" in name and name not in METHODS:
        cls = load(name)
    else:
        cls = METHODS.get(name)
        if isinstance(cls, type) and issubclass(cls, Method) and cls.name != name:
            raise TypeError(f"method {name!r} is registered to {target_ref(cls)}, whose name is {cls.name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Method)):
        raise TypeError(f"method {name!r} is {cls!r}, not a Method subclass")
    return cls
