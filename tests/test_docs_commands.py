"""Every ``tkgqa-ray run`` / ``tkgqa-ray plan`` line in the README's and docs' ```bash blocks
composes and validates as written (Hydra overrides, method options, ablations, backbones), and
every ``generate`` / ``report`` / ``diff`` line parses with that command's own argparse parser.

README's two main commands run verbatim in ``test_readme_commands.py``; running every other
documented line would start a Ray run each, so this checks what a user would hit first: a
stale override, a renamed group, an ablation that no longer exists. A line whose
``dataset.root`` does not exist here (``/data/MultiTQ``, ``DIR``) gets an empty directory in
its place, because that part cannot be checked without the user's data.
"""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

import pytest

from tkgqa_ray.cli import PARSERS
from tkgqa_ray.pipeline.hydra_resolvers import register_resolvers
from tkgqa_ray.pipeline.validate import validate_config

REPO = Path(__file__).resolve().parents[1]
CONF_DIR = REPO / "conf"
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_FLAGS = {"--dry-run", "--retry-failed", "--fresh", "--show-prompts"}
_WITH_VALUE = {"--cfg", "--sample", "--json"}


def documented_commands(paths: list[Path] = DOCS, root: Path = REPO, commands: str = "run|plan") -> list[tuple[str, str]]:
    """``(file:line, command)`` for each ``tkgqa-ray <commands>`` line of a ```bash block, with
    backslash continuations joined."""
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for block in re.finditer(r"```bash\n(.*?)```", text, re.S):
            first = text.count("\n", 0, block.start(1)) + 1
            lines = block.group(1).splitlines()
            i = 0
            while i < len(lines):
                start, cmd = i, lines[i]
                while cmd.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd = cmd.rstrip()[:-1] + " " + lines[i].strip()
                if re.match(rf"\s*tkgqa-ray ({commands})\b", cmd):
                    out.append((f"{path.relative_to(root)}:{first + start}", cmd.strip()))
                i += 1
    return out


def override_sets(command: str) -> list[list[str]]:
    """The Hydra overrides one documented command composes: one list, or, with ``-m``, one per
    job of the sweep (comma lists expanded)."""
    args = shlex.split(command, comments=True)[2:]
    overrides, multirun, skip = [], False, False
    for a in args:
        if skip:
            skip = False
        elif a == "-m" or a == "--multirun":
            multirun = True
        elif a in _WITH_VALUE:
            skip = True
        elif a not in _FLAGS:
            overrides.append(a)
    if not multirun:
        return [overrides]
    choices = [[f"{o.split('=', 1)[0]}={v}" for v in o.split("=", 1)[1].split(",")] if "=" in o else [o]
               for o in overrides]
    return [list(c) for c in itertools.product(*choices)]


def _with_roots(overrides: list[str], cwd: Path) -> list[str]:
    out = []
    for o in overrides:
        key, _, value = o.partition("=")
        if key == "dataset.root" and not Path(value).is_dir():
            local = cwd / value.lstrip("/")
            local.mkdir(parents=True, exist_ok=True)
            o = f"dataset.root={local}"
        out.append(o)
    return out


def validate_command(command: str, cwd: Path) -> int:
    """Compose and validate every job of ``command``; returns how many. Raises on the first
    bad one (Hydra's error for an unknown key or group, ConfigError for a bad value)."""
    from hydra import compose, initialize_config_dir

    register_resolvers()
    jobs = override_sets(command)
    for overrides in jobs:
        with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
            cfg = compose("config", overrides=_with_roots(overrides, cwd))
        validate_config(cfg)
    return len(jobs)


COMMANDS = documented_commands()
OTHERS = documented_commands(commands="|".join(PARSERS))


def test_the_docs_have_commands_to_check():
    where = {w.split(":")[0] for w, _ in COMMANDS}
    assert "README.md" in where and "docs/running.md" in where and len(COMMANDS) >= 15


def test_override_sets_by_hand():
    assert override_sets("tkgqa-ray run method=scop run.limit=5   # a comment") == [["method=scop", "run.limit=5"]]
    assert override_sets("tkgqa-ray plan method=tccrag --sample 4 --show-prompts") == [["method=tccrag"]]
    assert override_sets("tkgqa-ray run --cfg job method=pok") == [["method=pok"]]
    assert override_sets("tkgqa-ray run -m method=rag,scop backbone=symbolic,smollm2-cpu") == [
        ["method=rag", "backbone=symbolic"], ["method=rag", "backbone=smollm2-cpu"],
        ["method=scop", "backbone=symbolic"], ["method=scop", "backbone=smollm2-cpu"]]


def test_continuations_are_joined(tmp_path):
    doc = tmp_path / "x.md"
    doc.write_text("text\n```bash\ntkgqa-ray run method=scop \\\n    run.limit=3\nls\n```\n")
    assert documented_commands([doc], root=tmp_path) == [("x.md:3", "tkgqa-ray run method=scop  run.limit=3")]
    (_, cmd), = documented_commands([doc], root=tmp_path)
    assert override_sets(cmd) == [["method=scop", "run.limit=3"]]


@pytest.mark.parametrize("command,message", [
    ("tkgqa-ray run method=scop run.batch_sise=4", "run.batch_sise"),                # a typo of a key
    ("tkgqa-ray run method=scop ablation=wo_cef", "not an ablation of method 'scop'"),  # another method's
    ("tkgqa-ray run -m method=scop,nosuch backbone=symbolic", "method/nosuch"),      # one bad job of a sweep
])
def test_a_stale_command_fails(command, message, tmp_path):
    with pytest.raises(Exception, match=re.escape(message)):
        validate_command(command, tmp_path)


@pytest.mark.parametrize("where,command", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_documented_command_validates(where, command, tmp_path):
    assert validate_command(command, tmp_path) >= 1


def test_other_commands_are_documented_and_a_stale_flag_fails():
    assert {c.split()[1] for _, c in OTHERS} == set(PARSERS)
    with pytest.raises(SystemExit):
        PARSERS["generate"]().parse_args(["--kg", "k", "--out", "o", "--phrasing-set", "nosuch"])


@pytest.mark.parametrize("where,command", OTHERS, ids=[w for w, _ in OTHERS])
def test_documented_generate_report_diff_parse(where, command):
    name, *args = shlex.split(command, comments=True)[1:]
    PARSERS[name]().parse_args(args)  # argparse exits (status 2) on an unknown or bad flag
