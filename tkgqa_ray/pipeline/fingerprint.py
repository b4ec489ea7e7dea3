"""What a run's rows were computed from: questions, KG content and prompts, as fingerprints.

A resumed run reuses rows already in its run dir, so those rows must come from the same
inputs as the rows it is about to add. The config keys (method, backbone, ...) are checked by
the driver; this module adds the data:

- ``questions``: sha256 over every (quid, question text) the run evaluates, in order. It is
  recorded; what refuses a resume is the exact per-row check :func:`check_rows_match`: every
  row already written for a quid of this run must carry this run's text for that quid. So a
  run may resume with another ``run.limit`` (more or fewer questions), but not after a
  question's text changed. Gold is not part of it: rows are re-scored with the gold of the
  current run, so a corrected answer key needs no rerun.
- ``kg``: the KG table's ``content_hash`` (already computed for the embedding cache:
  names + columns, independent of file format), so a cut or edited KG refuses.
- ``prompts``: sha256 over the prompt templates the method's roles render (the method's
  prompt folder and ``_shared/``) for LLM backbones; ``None`` for the symbolic backbone,
  which renders no prompt.

Cost on the real MultiTQ KG (461,329 facts): the content hash is one pass over five int32
columns and the name lists (measured in docs/running.md); questions are hashed as loaded.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Iterable

import pyarrow as pa

from tkgqa_ray.pipeline.errors import ResumeRefused

FINGERPRINT_KEYS = ("questions", "kg", "prompts")


def questions_fingerprint(questions: Iterable[Any]) -> str:
    """sha256 over (quid, text) pairs; unambiguous (length-prefixed), order-sensitive."""
    h = hashlib.sha256(b"tkgqa-ray questions v1\n")
    for q in questions:
        for part in (str(q.quid), str(q.question)):
            b = part.encode("utf-8")
            h.update(len(b).to_bytes(8, "little"))
            h.update(b)
    return h.hexdigest()


def _prompts_root(cfg: Any) -> Path:
    from omegaconf import OmegaConf

    from tkgqa_ray.backbones.prompts import PromptError, prompts_dir
    from tkgqa_ray.pipeline.validate import ConfigError

    try:
        return prompts_dir(OmegaConf.select(cfg, "backbone.prompts_dir"))
    except PromptError as exc:
        raise ConfigError("backbone.prompts_dir", str(exc)) from None


def prompt_files(cfg: Any) -> list[Path]:
    """The templates an LLM backbone renders for this run's method (empty for symbolic)."""
    from omegaconf import OmegaConf

    if OmegaConf.select(cfg, "backbone.kind") == "symbolic":
        return []
    root = _prompts_root(cfg)
    method = str(OmegaConf.select(cfg, "method.name"))
    folders = [root / method, root / "_shared"]
    return sorted(p for f in folders if f.is_dir() for p in f.rglob("*") if p.is_file())


def prompts_fingerprint(cfg: Any) -> str | None:
    files = prompt_files(cfg)
    if not files:
        return None
    root = _prompts_root(cfg)
    h = hashlib.sha256(b"tkgqa-ray prompts v1\n")
    for p in files:  # names relative to the root: moving the folder is no change
        rel = p.relative_to(root).as_posix().encode()
        data = p.read_bytes()
        h.update(len(rel).to_bytes(8, "little") + rel + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def data_fingerprints(cfg: Any, questions: list, table: Any) -> dict[str, Any]:
    return {
        "questions": questions_fingerprint(questions),
        "n_questions": len(questions),
        "kg": str(table.content_hash),
        "prompts": prompts_fingerprint(cfg),
    }


_WHAT = {
    "kg": "the KG content (dataset.kg / the KG file under dataset.root) changed",
    "prompts": "the prompt templates of this method changed (prompts/<method>/ or prompts/_shared/)",
}


def fresh_hint(run_dir: Path) -> str:
    return (
        f"to start fresh, use a new run.output_dir, or discard the rows in {run_dir} with "
        "--fresh (= run.resume=false)"
    )


def check_fingerprints(run_dir: Path, theirs: dict[str, Any], mine: dict[str, Any]) -> None:
    """Refuse a resume whose KG or prompts differ from the run dir's (questions: per row)."""
    for key in ("kg", "prompts"):
        if key not in theirs:  # a run dir from before fingerprints: cannot tell, rows re-checked per question
            continue
        if theirs[key] != mine[key]:
            short = lambda v: "none" if v is None else str(v)[:12]  # noqa: E731
            raise ResumeRefused(
                f"cannot resume {run_dir}: {_WHAT[key]} since its rows were written "
                f"({key} fingerprint {short(theirs[key])} there, {short(mine[key])} now); {fresh_hint(run_dir)}"
            )


def check_rows_match(run_dir: Path, done: pa.Table, questions: list) -> None:
    """Every written row of a quid in this run must carry this run's question text."""
    if done.num_rows == 0:
        return
    text = {q.quid: q.question for q in questions}
    d = done.select(["quid", "question"]).to_pydict()
    changed = [q for q, t in zip(d["quid"], d["question"]) if q in text and text[q] != t]
    if changed:
        ex = changed[0]
        old = next(t for q, t in zip(d["quid"], d["question"]) if q == ex)
        raise ResumeRefused(
            f"cannot resume {run_dir}: the question file changed since its rows were written: "
            f"{len(changed)} question(s) have another text now (e.g. quid {ex}: {old!r} there, "
            f"{text[ex]!r} now); {fresh_hint(run_dir)}"
        )
