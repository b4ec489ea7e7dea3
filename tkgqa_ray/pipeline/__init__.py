"""Ray wiring: the only package that knows Ray Data. See docs/running.md.

``run_pipeline(cfg)`` is the whole run (validate → load → shared actors → stream → report);
the submodules each do one job: ``validate`` (config checks before any work), ``rows``
(state → output row schema), ``parts`` (atomic part files, resume, consolidation),
``worker`` (the actor-pool UDF), ``resources`` (shared store / embedding actors),
``metrics`` (Ray custom metrics + end-of-run summary), ``sweep`` (multirun callback),
``summary`` (the closing headline figures), ``plan`` (``tkgqa-ray plan``: token estimate, no
Ray), ``ray_logging`` (Ray's known-harmless console lines to the run's ``ray_console.log``),
``hydra_resolvers`` (``${tkgqa.or:...}`` for Hydra's run dir).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # keep `import tkgqa_ray.pipeline` free of Ray
    from omegaconf import DictConfig


def run_pipeline(cfg: "DictConfig") -> dict[str, Any]:
    from tkgqa_ray.pipeline.driver import run_pipeline as _run

    return _run(cfg)
