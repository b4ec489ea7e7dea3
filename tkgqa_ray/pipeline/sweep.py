"""Reports across runs: the multirun callback, ``tkgqa-ray report`` and ``tkgqa-ray diff``.

Scoring and table layout live in :mod:`tkgqa_ray.eval`; this module only finds run dirs
(a run dir is any folder holding ``predictions.parquet``) and wires the calls.
"""

from __future__ import annotations

import json
import logging
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback

from tkgqa_ray.pipeline.completion import require_complete, written_by_driver
from tkgqa_ray.pipeline.errors import RunDirError

log = logging.getLogger(__name__)

PREDICTIONS = "predictions.parquet"


def find_run_dirs(paths: list[Path], max_depth: int = 3) -> list[Path]:
    """Run dirs among ``paths``: each path itself if it is one, else its descendants that are
    (a sweep dir holds one run dir per job). Sorted, no duplicates. A run dir the driver has
    not finished (no ``COMPLETE``) is refused, naming it, never reported as a result."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if not p.is_dir():
            raise RunDirError(f"{p}: not a directory")
        if written_by_driver(p) or (p / PREDICTIONS).is_file():
            require_complete(p)
            found.append(p)
            continue
        marks = (PREDICTIONS, "run_identity.json")
        hits = sorted({
            q.parent for m in marks for q in p.rglob(m)
            if len(q.relative_to(p).parts) <= max_depth + 1 and q.parent.name != "comparison"
        })
        if not hits:
            raise RunDirError(f"{p}: no {PREDICTIONS} in it or below it (not a run or sweep dir)")
        for d in hits:
            require_complete(d)
        found.extend(hits)
    return list(dict.fromkeys(found))


def rebuild_run_report(run_dir: Path) -> Path:
    """Re-score one run dir from its predictions.parquet + gold.parquet (config from run.json);
    returns the page to open, ``report.html`` (metrics.* are rewritten beside it)."""
    import pyarrow.parquet as pq

    from tkgqa_ray.eval import load_gold, write_run_report

    config: dict[str, Any] = {}
    if (run_dir / "run.json").is_file():
        config = json.loads((run_dir / "run.json").read_text()).get("config") or {}
    res = write_run_report(run_dir, pq.read_table(run_dir / PREDICTIONS), load_gold(run_dir), config)
    from tkgqa_ray.eval import PRIMARY_PROTOCOL
    from tkgqa_ray.pipeline.summary import format_run_headline

    print(format_run_headline(res.aggregates, PRIMARY_PROTOCOL, run_dir, res.counts))
    return run_dir / "report.html"


def build_report(paths: list[Path], out: Path | None = None) -> Path:
    """One run dir (and no ``out``): rebuild its report in place. Otherwise merge every run
    dir found into a comparison (Markdown, CSV/parquet, charts, report.html) in ``out``
    (default: ``<sweep dir>/comparison`` for a single sweep dir, else ``./comparison``).
    Returns the page to open (``report.html``)."""
    from tkgqa_ray.eval import compare_runs

    runs = find_run_dirs(paths)
    with _run_dir_errors():
        if len(runs) == 1 and out is None and runs[0] == Path(paths[0]):
            return rebuild_run_report(runs[0])
        if out is None:
            out = Path(paths[0]) / "comparison" if len(paths) == 1 else Path("comparison")
        comp = compare_runs(runs, out_dir=out)
        print(comparison_headline(comp, out))
    return out / "report.html"


@contextmanager
def _run_dir_errors():
    """A run dir missing a file the scorer needs (gold.parquet, ...) is a user error (exit 4)."""
    try:
        yield
    except FileNotFoundError as exc:
        raise RunDirError(str(exc)) from None


def run_diff(run_a: Path, run_b: Path, out: Path | None = None, protocol: str | None = None) -> str:
    from tkgqa_ray.eval import PRIMARY_PROTOCOL, diff_runs, write_diff

    proto = protocol or PRIMARY_PROTOCOL
    from tkgqa_ray.eval.protocols import PROTOCOLS

    if proto not in PROTOCOLS:
        from tkgqa_ray.pipeline.validate import ConfigError

        raise ConfigError("--protocol", f"is unknown: {proto!r} (choose from {', '.join(sorted(PROTOCOLS))})")
    for d in (run_a, run_b):
        require_complete(Path(d))  # also: missing dir
        if not (Path(d) / PREDICTIONS).is_file():
            raise RunDirError(f"{d}: no {PREDICTIONS} (not a run dir)")
    with _run_dir_errors():
        d = write_diff(run_a, run_b, out, protocol=proto) if out is not None else diff_runs(run_a, run_b, protocol=proto)
    return d.markdown


class ComparisonReportCallback(Callback):
    """At the end of a multirun sweep, merge the jobs' run dirs into ``<sweep>/comparison``."""

    def on_multirun_end(self, config: Any, **kwargs: Any) -> None:
        sweep_dir = Path(str(config.hydra.sweep.dir))
        try:
            runs = find_run_dirs([sweep_dir])
        except RunDirError as exc:
            log.warning("no comparison report: %s", exc)
            return
        from tkgqa_ray.eval import compare_runs

        out = sweep_dir / "comparison"
        comp = compare_runs(runs, out_dir=out)
        print(f"[tkgqa-ray] comparison of {len(runs)} runs -> {out / 'report.html'} (and comparison.md)")
        print(comparison_headline(comp, out))


def comparison_headline(comp: Any, out: Path) -> str:
    """The closing lines of a sweep / comparison: Hits@1 per run and the report paths."""
    from tkgqa_ray.eval import PRIMARY_PROTOCOL
    from tkgqa_ray.pipeline.summary import format_comparison_headline

    return format_comparison_headline(comp.aggregates, PRIMARY_PROTOCOL, out, [r.name for r in comp.runs])
