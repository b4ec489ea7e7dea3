"""Test-only method for the pipeline tests (no tests here; imported by workers by name).

``StoreLookup`` really answers from the run's fact store: questions are written as
"Which entity did <s> <r> on <YYYY-MM-DD>?" and it queries (subject, relation, day) through
``ctx.store`` (the sharded actors in a Ray run). Gold for these questions comes from a plain
scan of the fact rows in ``make_dataset`` below — an independent oracle. Markers in the text
make a question fail on purpose: ``POISON`` always, ``FLAKY`` while ``flaky_flag`` exists.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import re
import time
from pathlib import Path

from tkgqa_ray.methods.base import Method, Stage
from tkgqa_ray.schema import StrictModel

Q_RE = re.compile(r"^Which entity did (?P<s>.+) (?P<r>[A-Z][a-z_ ]+?) on (?P<d>\d{4}-\d{2}-\d{2})\?")


class LookupStage(Stage):
    name = "lookup"

    def __call__(self, states):
        opts = self.ctx.options
        if opts.get("sleep_s"):
            time.sleep(float(opts["sleep_s"]))
        if opts.get("pid_file"):
            Path(opts["pid_file"]).write_text(str(os.getpid()))
        table = self.ctx.table
        for st in states:
            input_keys = sorted(k for k in st if k not in ("error", "roles", "trace"))  # run_chain's own keys
            text = st["question"]
            if "POISON" in text:
                raise ValueError("poisoned question")
            flag = opts.get("flaky_flag")
            if "FLAKY" in text and flag and Path(flag).exists():
                raise RuntimeError("flaky dependency down")
            m = Q_RE.match(text)
            if m is None:
                raise ValueError(f"cannot parse {text!r}")
            s = table.entity_id[m["s"].replace(" ", "_")]
            r = table.relation_id[m["r"].replace(" ", "_")]
            day = dt.date.fromisoformat(m["d"]).toordinal()
            ids = self.ctx.store.query(subject=s, relation=r, start_min=day, start_max=day)
            facts = table.facts([int(i) for i in ids])
            answers = sorted({table.display(f.object) for f in facts})
            st["predictions"] = answers
            st["evidence"] = [f.key for f in facts]
            st["initial_evidence_count"] = len(self.ctx.store.query(subject=s))
            st["final_evidence_count"] = len(facts)
            st["answered_by"] = "store"
            st["trace"] = {"subject": s, "relation": r, "day": day, "input_keys": input_keys}
        return states


class StoreLookupOptions(StrictModel):
    """``method.options`` of the test method (validated like a real method's)."""

    sleep_s: float | None = None  # sleep per batch (fault-injection tests)
    pid_file: str | None = None  # write the worker's pid here
    flaky_flag: str | None = None  # FLAKY questions fail while this file exists


class StoreLookup(Method):
    name = "store_lookup"
    ablations = ("none",)
    Options = StoreLookupOptions

    def build_stages(self):
        return [LookupStage(self.ctx)]


METHOD = "test_pipeline_methods:StoreLookup"

RELATIONS = ["Make_statement", "Host_a_visit", "Sign_formal_agreement", "Criticize_or_denounce"]


def make_dataset(root: Path, n_entities: int = 25, n_facts: int = 400, n_questions: int = 40, seed: int = 7,
                 poison: int = 0, flaky: int = 0) -> dict[str, list[str]]:
    """Write a MultiTQ-layout root (kg/full.txt, questions/test.json); return gold by quid.

    Gold = objects of every fact row with that (subject, relation, day), found by scanning
    the rows we wrote (no store, no index)."""
    rng = random.Random(seed)
    ents = [f"Actor_{i}_{rng.choice(['North', 'South', 'East'])}" for i in range(n_entities)]
    base = dt.date(2014, 1, 1).toordinal()
    rows = []
    for _ in range(n_facts):
        s, o = rng.sample(ents, 2)
        rows.append((s, rng.choice(RELATIONS), o, dt.date.fromordinal(base + rng.randrange(60)).isoformat()))
    (root / "kg").mkdir(parents=True, exist_ok=True)
    (root / "kg" / "full.txt").write_text("".join("\t".join(r) + "\n" for r in rows))
    records, gold = [], {}
    picks = rng.sample(rows, n_questions)
    for i, (s, r, _o, d) in enumerate(picks):
        answers = sorted({ro.replace("_", " ") for rs, rr, ro, rd in rows if (rs, rr, rd) == (s, r, d)})
        text = f"Which entity did {s.replace('_', ' ')} {r.replace('_', ' ')} on {d}?"
        if i < poison:
            text += " POISON"
        elif i < poison + flaky:
            text += " FLAKY"
        quid = str(1000 + i)
        records.append({"quid": int(quid), "question": text, "answers": answers, "answer_type": "entity",
                        "time_level": "day", "qtype": "equal", "qlabel": "Single"})
        gold[quid] = answers
    (root / "questions").mkdir(exist_ok=True)
    (root / "questions" / "test.json").write_text(json.dumps(records))
    return gold


CONF_DIR = Path(__file__).resolve().parents[1] / "conf"


def compose_cfg(root: Path, out: Path, *overrides: str):
    """The run config the CLI would build, for the test method over a dataset root."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=cli_overrides(root, out, *overrides))


def cli_overrides(root: Path, out: Path | None, *overrides: str) -> list[str]:
    """Overrides for the test method, unless ``overrides`` pick a real ``method=``."""
    real = any(o.startswith("method=") for o in overrides)
    # llm_only's group file has no options (Hydra merges `method.options={}` into rag's, so the
    # test method would be handed rag's k / triple_pool, which its Options refuse)
    method = [] if real else ["method=llm_only", f"method.name={METHOD}"]
    return [
        *method, "backbone=symbolic",
        "dataset=multitq", f"dataset.root={root}", *([f"run.output_dir={out}"] if out else []),
        "run.progress=false", "embeddings.warm=false", "run.batch_size=8", "run.num_workers=2", *overrides,
    ]


def read_rows(run_dir: Path, timings: bool = False) -> list[dict]:
    """predictions.parquet rows; without ``seconds`` unless asked (wall time differs per run)."""
    import pyarrow.parquet as pq

    rows = pq.read_table(Path(run_dir) / "predictions.parquet").to_pylist()
    if not timings:
        for r in rows:
            r.pop("seconds")
    return rows
