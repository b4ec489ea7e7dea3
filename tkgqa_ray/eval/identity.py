"""Which run a config describes: (dataset, method, backbone, ablation). A leaf shared by the
per-run report, report.html, the comparison and the pipeline's resume check, so they all name
runs the same way."""

from __future__ import annotations

from typing import Any, Mapping

IDENTITY_KEYS = ("dataset", "method", "backbone", "ablation")

# What a run *computes*, as dotted config keys refining IDENTITY_KEYS (plus the seed): resuming
# into a run dir written with other values would mix incompatible rows, so the pipeline refuses
# it, naming the key (``run_identity.json``). Backbone transport settings (timeouts, retries,
# URL) may change between a run and its resume (e.g. a longer timeout for --retry-failed); the
# model may not. The whole ``method`` group counts: its options change the answers.
RESUME_KEYS = (
    "dataset.name", "dataset.root", "dataset.split", "dataset.kg", "method", "backbone.name", "backbone.kind",
    "backbone.model", "ablation.name", "run.seed",
)


def _name_of(v: Any) -> str | None:
    if v is None:
        return None
    if isinstance(v, Mapping):
        for k in ("name", "_name_", "id"):
            if v.get(k) is not None:
                return str(v[k])
        return None
    return str(v)


def run_identity(config: Mapping[str, Any]) -> dict[str, str | None]:
    """(dataset, method, backbone, ablation) from a config: plain values, Hydra groups with a
    ``name`` key, or the same under ``run`` / ``config`` (the pipeline's run.json)."""
    out: dict[str, str | None] = {}
    nested = [config.get(n) for n in ("run", "config") if isinstance(config.get(n), Mapping)]
    for k in IDENTITY_KEYS:
        out[k] = _name_of(config.get(k))
        for sub in nested:
            out[k] = out[k] or _name_of(sub.get(k))
    return out
