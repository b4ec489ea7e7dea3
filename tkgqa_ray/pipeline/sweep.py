"""Reports across runs: the multirun callback, ``tkgqa-ray report`` and ``tkgqa-ray diff``.

Scoring and table layout live in :mod:`tkgqa_ray.eval`; this module only finds run dirs
(a run dir is any folder holding ``predictions.parquet``) and wires the calls.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from hydra.experimental.callback import Callback

log = logging.getLogger(__name__)

PREDICTIONS = "predictions.parquet"


def find_run_dirs(paths: list[Path], max_depth: int = 3) -> list[Path]:
    """Run dirs among ``paths``: each path itself if it is one, else its descendants that are
    (a sweep dir holds one run dir per job). Sorted, no duplicates."""
    found: list[Path] = []
    for p in paths:
        p = Path(p)
        if not p.is_dir():
            raise FileNotFoundError(f"{p}: not a directory")
        if (p / PREDICTIONS).is_file():
            found.append(p)
            continue
        hits = sorted(
            q.parent for q in p.rglob(PREDICTIONS)
            if len(q.relative_to(p).parts) <= max_depth + 1 and q.parent.name != "comparison"
        )
        if not hits:
            raise FileNotFoundError(f"{p}: no {PREDICTIONS} in it or below it (not a run or sweep dir)")
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
    write_run_report(run_dir, pq.read_table(run_dir / PREDICTIONS), load_gold(run_dir), config)
    return run_dir / "report.html"


def build_report(paths: list[Path], out: Path | None = None) -> Path:
    """One run dir (and no ``out``): rebuild its report in place. Otherwise merge every run
    dir found into a comparison (Markdown, CSV/parquet, charts, report.html) in ``out``
    (default: ``<sweep dir>/comparison`` for a single sweep dir, else ``./comparison``).
    Returns the page to open (``report.html``)."""
    from tkgqa_ray.eval import compare_runs

    runs = find_run_dirs(paths)
    if len(runs) == 1 and out is None and runs[0] == Path(paths[0]):
        return rebuild_run_report(runs[0])
    if out is None:
        out = Path(paths[0]) / "comparison" if len(paths) == 1 else Path("comparison")
    compare_runs(runs, out_dir=out)
    return out / "report.html"


def run_diff(run_a: Path, run_b: Path, out: Path | None = None, protocol: str | None = None) -> str:
    from tkgqa_ray.eval import PRIMARY_PROTOCOL, diff_runs, write_diff

    proto = protocol or PRIMARY_PROTOCOL
    d = write_diff(run_a, run_b, out, protocol=proto) if out is not None else diff_runs(run_a, run_b, protocol=proto)
    return d.markdown


class ComparisonReportCallback(Callback):
    """At the end of a multirun sweep, merge the jobs' run dirs into ``<sweep>/comparison``."""

    def on_multirun_end(self, config: Any, **kwargs: Any) -> None:
        sweep_dir = Path(str(config.hydra.sweep.dir))
        try:
            runs = find_run_dirs([sweep_dir])
        except FileNotFoundError as exc:
            log.warning("no comparison report: %s", exc)
            return
        from tkgqa_ray.eval import compare_runs

        out = sweep_dir / "comparison"
        compare_runs(runs, out_dir=out)
        print(f"[tkgqa-ray] comparison of {len(runs)} runs -> {out / 'report.html'} (and comparison.md)")
