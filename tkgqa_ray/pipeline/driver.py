"""The run driver: validate → load → shared actors → stream batches → parts → report.

Ray Data carries only ``{quid, question}`` to the method workers (an actor pool); gold stays
here and goes to ``gold.parquet`` for the scorer. Finished batches are streamed back with
``iter_batches`` and appended as atomic part files, so a killed driver loses only batches in
flight and a rerun with the same ``run.output_dir`` resumes.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa
from omegaconf import DictConfig, OmegaConf

from tkgqa_ray.pipeline.parts import PartStore, consolidate
from tkgqa_ray.pipeline.validate import ConfigError, validate_config
from tkgqa_ray.pipeline.worker import MethodWorker, check_input_columns

log = logging.getLogger("tkgqa_ray.pipeline")


def resolve_output_dir(cfg: DictConfig) -> Path:
    out = OmegaConf.select(cfg, "run.output_dir")
    if out:
        return Path(out).expanduser()
    try:
        from hydra.core.hydra_config import HydraConfig

        return Path(HydraConfig.get().runtime.output_dir)
    except Exception:  # noqa: BLE001 - not inside a Hydra app
        raise ConfigError("run.output_dir", "must be set when not running under Hydra") from None


def _identity(cfg: DictConfig) -> dict[str, Any]:
    from tkgqa_ray.eval.identity import RESUME_KEYS  # (the eval package imports pandas: not before validation)

    out = {}
    for key in RESUME_KEYS:
        v = OmegaConf.select(cfg, key)
        out[key] = OmegaConf.to_container(v, resolve=True) if isinstance(v, DictConfig) else v
    return out


def _check_resume_identity(run_dir: Path, cfg: DictConfig, fingerprints: dict[str, Any] | None = None) -> None:
    """Refuse to resume a run dir written with other identity keys or other data (KG, prompts;
    questions are checked per row). Writes nothing: :func:`_write_identity` does."""
    from tkgqa_ray.eval.identity import RESUME_KEYS
    from tkgqa_ray.pipeline.fingerprint import check_fingerprints

    path = run_dir / "run_identity.json"
    mine = _identity(cfg)
    if path.exists():
        theirs = json.loads(path.read_text())
        for key in RESUME_KEYS:
            if theirs.get(key) != mine.get(key):
                raise ConfigError(
                    key,
                    f"differs from the run already in {run_dir} ({theirs.get(key)!r} there, {mine.get(key)!r} now); "
                    "use another run.output_dir or run.resume=false to start over",
                )
        if fingerprints is not None:
            check_fingerprints(run_dir, theirs.get("fingerprints") or {}, fingerprints)


def _write_identity(run_dir: Path, cfg: DictConfig, fingerprints: dict[str, Any] | None = None) -> None:
    body = {**_identity(cfg), **({"fingerprints": fingerprints} if fingerprints is not None else {})}
    run_dir.mkdir(parents=True, exist_ok=True)
    tmp = run_dir / f".run_identity.json.tmp-{os.getpid()}"
    tmp.write_text(json.dumps(body, indent=2, sort_keys=True))
    os.replace(tmp, run_dir / "run_identity.json")


def init_ray(cfg: DictConfig, run_dir: Path | None = None) -> None:
    """Start or join Ray. With ``run_dir``, Ray's known-harmless console lines go to
    ``run_dir/ray_console.log`` (pipeline/ray_logging.py)."""
    import ray

    if ray.is_initialized():
        if run_dir is not None:  # a later job of a sweep (same process): its own ray_console.log
            from tkgqa_ray.pipeline.ray_logging import attach_run

            attach_run(run_dir)
        return
    if run_dir is not None:
        from tkgqa_ray.pipeline.ray_logging import quiet_ray_console

        quiet_ray_console(run_dir)
    address = OmegaConf.select(cfg, "ray.address")
    kwargs: dict[str, Any] = {"namespace": OmegaConf.select(cfg, "ray.namespace"), "log_to_driver": True}
    if address:
        kwargs["address"] = address
    else:
        from tkgqa_ray.pipeline.shutdown import install_sigterm_exit

        install_sigterm_exit()  # a SIGTERM'd driver stops the local Ray it starts (no orphans)
        for key in ("num_cpus", "object_store_memory", "include_dashboard"):
            v = OmegaConf.select(cfg, f"ray.{key}")
            if v is not None:
                kwargs[key] = v
    ctx = ray.init(**kwargs)
    if run_dir is not None:
        from tkgqa_ray.pipeline.ray_logging import absorb_restart_notice, announce

        absorb_restart_notice(run_dir)
        announce(ctx, address)


def _todo(questions: list, done: pa.Table, retry_failed: bool) -> list:
    d = done.select(["quid", "error"]).to_pydict()
    finished = {q for q, e in zip(d["quid"], d["error"]) if e is None or not retry_failed}
    return [q for q in questions if q.quid not in finished]


def _input_dataset(todo: list, batch_size: int):
    """Ray Dataset of only {quid, question}, one block per batch (so the pool spreads work)."""
    import ray

    table = pa.table({"quid": [q.quid for q in todo], "question": [q.question for q in todo]})
    blocks = [table.slice(i, batch_size) for i in range(0, table.num_rows, batch_size)]
    ds = ray.data.from_arrow(blocks)
    check_input_columns(ds.schema().names)
    return ds


def stream_batches(todo: list, cfg: DictConfig, shared: Any, meta: dict[str, str], parts: PartStore, progress: bool) -> int:
    """Run ``todo`` through the actor pool, appending every finished batch as a part."""
    from ray.data import ActorPoolStrategy, DataContext

    from tkgqa_ray.pipeline.resources import worker_setup

    ctx = DataContext.get_current()
    ctx.enable_progress_bars = False  # ours counts rows done, not Ray's per-operator blocks
    ctx.execution_options.preserve_order = False
    # Ray Data aborts a dataset after 30 min without output. A first batch can legitimately
    # wait that long: a one-time dense index build over a large KG (the real MultiTQ KG's
    # 166,760 triples took > 30 min on a loaded 2-core box) or an LLM engine start. Rows are
    # written per batch and the run resumes, so waiting is safe; -1 disables the watchdog.
    ctx.execution_no_progress_timeout_s = -1
    run = cfg.run
    ds = _input_dataset(todo, int(run.batch_size))
    out = ds.map_batches(
        MethodWorker,
        fn_constructor_kwargs={"setup": worker_setup(shared, cfg, meta)},
        # never more workers than batches: an idle worker costs a method build, and Ray Data warns
        compute=ActorPoolStrategy(size=max(1, min(int(run.num_workers), -(-len(todo) // int(run.batch_size))))),
        batch_size=int(run.batch_size),
        batch_format="pyarrow",
        num_cpus=float(run.worker_num_cpus),
        num_gpus=float(run.worker_num_gpus) or None,
    )
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="q", desc="questions", dynamic_ncols=True, file=sys.stderr)
    seq = parts.next_seq()
    written = 0
    try:
        for batch in out.iter_batches(batch_size=None, batch_format="pyarrow"):
            if batch.num_rows == 0:
                continue
            parts.append(batch, seq)
            seq += 1
            written += batch.num_rows
            if bar is not None:
                bar.update(batch.num_rows)
    finally:
        if bar is not None:
            bar.close()
    return written


def run_pipeline(cfg: DictConfig) -> dict[str, Any]:
    """Run (or resume) one evaluation; returns the run summary (also in run.json).

    Config and input files are checked before Ray starts and before anything is written;
    then the run dir is locked (one writer per dir) for the rest of the run."""
    from tkgqa_ray.pipeline.inputs import load_inputs
    from tkgqa_ray.pipeline.rundir_lock import RunDirLock, stale_lock_warning

    t_start = time.time()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    validate_config(cfg)
    run_dir = resolve_output_dir(cfg)
    inputs = load_inputs(cfg)
    with RunDirLock(run_dir) as lock:
        if lock.took_over is not None:
            log.warning(stale_lock_warning(lock))
        return _run_locked(cfg, run_dir, inputs, started, t_start)


def _run_locked(cfg: DictConfig, run_dir: Path, inputs: Any, started: str, t_start: float) -> dict[str, Any]:
    from tkgqa_ray.eval import save_gold
    from tkgqa_ray.pipeline.completion import mark_started
    from tkgqa_ray.pipeline.fingerprint import check_rows_match, data_fingerprints

    dataset = inputs.dataset
    questions = dataset.questions
    fingerprints = data_fingerprints(cfg, questions, inputs.table)
    parts = PartStore(run_dir)
    if not cfg.run.resume:
        mark_started(run_dir)
        parts.clear()
        (run_dir / "run_identity.json").unlink(missing_ok=True)
    _check_resume_identity(run_dir, cfg, fingerprints)
    done = parts.read_latest()
    check_rows_match(run_dir, done, questions)
    mark_started(run_dir)  # from here on the dir is unfinished until COMPLETE is written
    _write_identity(run_dir, cfg, fingerprints)
    save_gold(run_dir / "gold.parquet", dataset.golds)
    meta = {"method": str(cfg.method.name), "backbone": str(cfg.backbone.name), "ablation": str(cfg.ablation.name)}

    todo = _todo(questions, done, bool(cfg.run.retry_failed))
    log.info("run dir %s: %d questions, %d already written, %d to run", run_dir, len(questions), len(questions) - len(todo), len(todo))
    written = 0
    resources: dict[str, Any] = {}
    if todo:
        # the dir must never show a finished-looking result while parts are still being added
        (run_dir / "predictions.parquet").unlink(missing_ok=True)

        init_ray(cfg, run_dir)
        from tkgqa_ray.pipeline.resources import start_shared

        shared = start_shared(inputs.table, str(dataset.kg_path), cfg)
        resources = {"run_id": shared.run_id, "store_reused_from": shared.reused_from}
        try:
            written = stream_batches(todo, cfg, shared, meta, parts, bool(cfg.run.progress))
        finally:
            shared.shutdown()

    final = consolidate(parts.read_latest(), [q.quid for q in questions], run_dir / "predictions.parquet")
    return finish_run(run_dir, final, dataset.golds, cfg, meta, started, t_start, len(todo), written, resources)


def finish_run(run_dir: Path, final: pa.Table, golds: dict, cfg: DictConfig, meta: dict, started: str, t_start: float, n_todo: int, written: int,
               resources: dict[str, Any] | None = None) -> dict[str, Any]:
    from tkgqa_ray.eval import PRIMARY_PROTOCOL, write_run_report
    from tkgqa_ray.eval.report import versions
    from tkgqa_ray.pipeline.metrics import format_summary, summarize
    from tkgqa_ray.pipeline.summary import format_run_headline

    summary = summarize(final)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    report = write_run_report(run_dir, final, golds, OmegaConf.to_container(cfg, resolve=True))
    info = {
        "dataset": str(cfg.dataset.name),
        **meta,
        "run_dir": str(run_dir),
        "started": started,
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "wall_seconds": round(time.time() - t_start, 3),
        "counts": {
            "questions": final.num_rows,
            "run_this_invocation": n_todo,
            "written_this_invocation": written,
            "errors": summary["failed"],
        },
        "summary": summary,
        # this invocation's shared actors: run id (in their names) and, with store.reuse, the
        # run whose store + embedding service it reused ({} when nothing was left to run)
        "resources": resources or {},
        "versions": versions(),  # with git_commit
        "argv": sys.argv,
        "config": OmegaConf.to_container(cfg, resolve=True),
    }
    (run_dir / "run.json").write_text(json.dumps(info, indent=2, default=str))
    from tkgqa_ray.pipeline.completion import mark_complete

    mark_complete(run_dir, {"questions": final.num_rows, "errors": summary["failed"]})  # last write of a run
    print(f"[tkgqa-ray] {meta['method']} / {meta['backbone']} / {meta['ablation']} -> {run_dir}")
    print(format_summary(summary))
    print(format_run_headline(report.aggregates, PRIMARY_PROTOCOL, run_dir, report.counts))
    return info
