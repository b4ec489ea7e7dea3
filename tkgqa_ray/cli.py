"""``tkgqa-ray``: run | generate | report | diff.

``run`` is the Hydra app (all overrides, ``-m`` multirun, ``--cfg job`` etc. pass through);
the other subcommands are plain argparse front ends to the data and eval packages.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

USAGE = """usage: tkgqa-ray <command> [args]

commands:
  run [OVERRIDES...] [-m]   evaluate a method (Hydra app; e.g. method=rag backbone=symbolic run.limit=50)
                            --retry-failed = run.retry_failed=true, --fresh = run.resume=false
  plan [OVERRIDES...]       validate, count questions, estimate prompt tokens per role/question/total (no Ray, no LLM);
                            same as run --dry-run
  generate [ARGS...]        generate MultiTQ-style questions from a TKG (tkgqa-ray generate --help)
  report DIR [DIR...]       rebuild a run's report (one dir) or a merged comparison (several dirs / a sweep dir)
  diff RUN_A RUN_B          per-question diff of two runs (right in one, wrong in the other, by type)
"""


def conf_dir() -> Path:
    """The Hydra config folder: $TKGQA_CONF, else ``conf/`` next to the package (repo checkout),
    else the copy shipped in wheels as package data (``tkgqa_ray/_conf``, see setup.py)."""
    env = os.environ.get("TKGQA_CONF")
    if env:
        return Path(env).resolve()
    pkg = Path(__file__).resolve().parent
    for here in (pkg.parent / "conf", pkg / "_conf"):
        if (here / "config.yaml").is_file():
            return here
    raise SystemExit(f"tkgqa-ray: config folder not found at {pkg.parent / 'conf'}; set TKGQA_CONF=/path/to/conf")


def _run(argv: list[str]) -> int:
    import hydra
    from omegaconf import DictConfig

    from tkgqa_ray.pipeline.hydra_resolvers import register_resolvers

    register_resolvers()  # hydra.run.dir uses ${tkgqa.or:...}

    @hydra.main(version_base="1.3", config_path=str(conf_dir()), config_name="config")
    def app(cfg: DictConfig) -> None:
        from tkgqa_ray.pipeline.driver import run_pipeline
        from tkgqa_ray.pipeline.errors import user_error_exit

        try:
            run_pipeline(cfg)
        except Exception as exc:  # a user error: one clear line and its exit code (pipeline/errors.py)
            code = user_error_exit(exc)
            if code is None:
                raise
            print(f"tkgqa-ray: {exc}", file=sys.stderr)
            raise SystemExit(code) from None

    # convenience flags for the common reruns (plain Hydra overrides underneath)
    flags = {"--retry-failed": "run.retry_failed=true", "--fresh": "run.resume=false"}
    argv = [flags.get(a, a) for a in argv]
    if "--dry-run" in argv:  # = tkgqa-ray plan with the same overrides
        return _plan([a for a in argv if a != "--dry-run"])
    sys.argv = ["tkgqa-ray run", *argv]
    app()
    return 0


def generate_parser():
    import argparse

    from tkgqa_ray.data.generator import PHRASING_SETS

    p = argparse.ArgumentParser(
        prog="tkgqa-ray generate",
        description="Generate MultiTQ-style questions (gold from a brute-force oracle) from a TKG file; "
        "writes OUT/kg/ and OUT/questions/<split>.json, runnable with dataset=multitq dataset.root=OUT.",
    )
    p.add_argument("--kg", required=True, type=Path, help="TKG file (4-column point or 5-column interval; .gz ok)")
    p.add_argument("--out", required=True, type=Path, help="dataset root to write")
    p.add_argument("-n", "--num", type=int, default=1000, help="questions to generate (default 1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--types", default=None, help="comma-separated question types (default: all)")
    p.add_argument("--phrasing-set", default="train", choices=PHRASING_SETS, help="phrasing set")
    p.add_argument("--split", default="test")
    p.add_argument("--no-copy-kg", action="store_true", help="do not copy the KG under OUT/kg")
    p.add_argument("--specs", default=None, metavar="FILE|SET",
                   help="hand-written questions with their logical forms (a JSON Lines file, or a packaged "
                   "set's name; docs/data.md): answered by the oracle instead of generating -n questions")
    return p


def _generate(argv: list[str]) -> int:
    import json

    from tkgqa_ray.data.generator import generate_main

    p = generate_parser()
    a = p.parse_args(argv)

    meta = generate_main(
        a.kg, a.out, n=a.num, seed=a.seed, types=a.types.split(",") if a.types else None,
        phrasing_set=a.phrasing_set, split=a.split, copy_kg=not a.no_copy_kg, specs=a.specs,
    )
    print(json.dumps(meta, indent=2, default=str))
    return 0


def report_parser():
    import argparse

    p = argparse.ArgumentParser(prog="tkgqa-ray report", description="Rebuild reports from run dirs.")
    p.add_argument("dirs", nargs="+", type=Path, help="run dirs, or sweep dirs holding run dirs")
    p.add_argument("-o", "--out", type=Path, default=None, help="where the comparison goes (default: ./comparison, or DIR/comparison for one sweep dir)")
    return p


def _report(argv: list[str]) -> int:
    args = report_parser().parse_args(argv)
    from tkgqa_ray.pipeline.sweep import build_report

    out = build_report(args.dirs, args.out)
    print(f"report written to {out}")
    return 0


def diff_parser():
    import argparse

    p = argparse.ArgumentParser(prog="tkgqa-ray diff", description="Per-question diff of two runs.")
    p.add_argument("run_a", type=Path)
    p.add_argument("run_b", type=Path)
    p.add_argument("-o", "--out", type=Path, default=None, help="write the diff here (Markdown + parquet)")
    p.add_argument("--protocol", default=None, help="scoring protocol (default: the scorer's default)")
    return p


def _diff(argv: list[str]) -> int:
    args = diff_parser().parse_args(argv)
    from tkgqa_ray.pipeline.sweep import run_diff

    print(run_diff(args.run_a, args.run_b, args.out, args.protocol))
    return 0


def _plan(argv: list[str]) -> int:
    import argparse
    import json

    p = argparse.ArgumentParser(
        prog="tkgqa-ray plan",
        description="Validate a run's config, count its questions and estimate prompt tokens per role, per question "
        "and in total (the method runs in-process on a sample with the symbolic stand-in; no Ray, no LLM). "
        "Takes the same overrides as `tkgqa-ray run`.",
    )
    p.add_argument("overrides", nargs="*", help="Hydra overrides, as for `tkgqa-ray run`")
    p.add_argument("--sample", type=int, default=16, help="questions the method runs on to measure prompts (default 16)")
    p.add_argument("--show-prompts", action="store_true", help="print the first rendered prompt of every role")
    p.add_argument("--json", type=Path, default=None, help="also write the estimate as JSON here")
    a = p.parse_intermixed_args(argv)

    from hydra import compose, initialize_config_dir

    from tkgqa_ray.pipeline.hydra_resolvers import register_resolvers
    from tkgqa_ray.pipeline.plan import format_plan, make_plan
    from tkgqa_ray.pipeline.validate import ConfigError

    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    register_resolvers()
    try:
        with initialize_config_dir(config_dir=str(conf_dir()), version_base="1.3"):
            cfg = compose("config", overrides=a.overrides)
    except (HydraException, OmegaConfBaseException) as exc:  # a bad override: one line, as run does
        print(f"tkgqa-ray: {exc}", file=sys.stderr)
        return 2
    try:
        plan = make_plan(cfg, sample=a.sample)
    except ConfigError as exc:
        print(f"tkgqa-ray: {exc}", file=sys.stderr)
        return 2
    print(format_plan(plan, show_prompts=a.show_prompts))
    if a.json is not None:
        a.json.write_text(json.dumps(plan.as_dict(), indent=2))
    return 0


# the argparse front ends, by command (tests/test_docs_commands.py parses the documented lines with them)
PARSERS = {"generate": generate_parser, "report": report_parser, "diff": diff_parser}
COMMANDS = {"run": _run, "plan": _plan, "generate": _generate, "report": _report, "diff": _diff}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    cmd, rest = argv[0], argv[1:]
    if cmd not in COMMANDS:
        print(f"tkgqa-ray: unknown command {cmd!r}\n\n{USAGE}", file=sys.stderr)
        return 2
    from tkgqa_ray.pipeline.errors import run_cli

    return run_cli(lambda: COMMANDS[cmd](rest))  # user errors: one line, exit 2-5 (pipeline/errors.py)


if __name__ == "__main__":
    sys.exit(main())
