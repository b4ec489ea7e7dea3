"""`tkgqa-ray generate` writes a dataset root that the multitq loader (and so `run`) reads."""

from __future__ import annotations

import json

from test_pipeline_methods import make_dataset
from tkgqa_ray.cli import main
from tkgqa_ray.data.loaders import load_dataset


def test_generate_writes_a_loadable_multitq_root(tmp_path, capsys):
    src = tmp_path / "src"
    make_dataset(src, n_facts=300, n_questions=5)
    out = tmp_path / "gen"
    assert main(["generate", "--kg", str(src / "kg" / "full.txt"), "--out", str(out), "-n", "15", "--seed", "3"]) == 0
    meta = json.loads(capsys.readouterr().out)
    ds = load_dataset("multitq", out)
    assert meta["n_written"] == len(ds.questions) == 15
    assert ds.kg_path is not None and ds.kg_path.parent == out / "kg"
    assert all(g.answers for g in ds.golds.values())


def test_help_and_unknown_command(capsys):
    assert main([]) == 0 and "generate" in capsys.readouterr().out
    assert main(["frobnicate"]) == 2
