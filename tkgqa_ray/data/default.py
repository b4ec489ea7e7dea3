"""The embedded default dataset, built deterministically at first use.

Nothing is downloaded: a synthetic KG (:mod:`tkgqa_ray.data.synth`, ~30k point facts over six
years) and ~400 generated test questions (:mod:`tkgqa_ray.data.generator`, train phrasings,
all six MultiTQ types) are written in MultiTQ layout::

    ROOT/kg/full.txt.gz
    ROOT/questions/test.json
    ROOT/BUILD.json          # recipe + sha256 of both files

``ROOT`` is ``$TKGQA_RAY_DEFAULT_DIR`` or ``~/.cache/tkgqa-ray/default-v<VERSION>``. A build is
reused when BUILD.json's recipe matches and the file hashes check out, rebuilt otherwise.
Concurrent builders (Ray workers, parallel test runs) each build into a private temp dir and
publish with one atomic ``rename``; losers discard their copy and use the winner's.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict
from pathlib import Path

from tkgqa_ray.data.synth import SynthConfig, synth_rows, write_kg

VERSION = 1
DEFAULT_SYNTH = SynthConfig(seed=20240, n_facts=30_000, start="2008-01-01", end="2013-12-31")
DEFAULT_QUESTIONS = 400
DEFAULT_QUESTION_SEED = 7
ENV_DIR = "TKGQA_RAY_DEFAULT_DIR"


def code_fingerprint() -> str:
    """Hash of the modules that decide the bytes of a build, so a code change rebuilds."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in ("synth.py", "generator.py", "oracle_answers.py", "phrasings.py", "lexicon.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:16]


def recipe() -> dict:
    return {
        "version": VERSION,
        "code": code_fingerprint(),
        "synth": asdict(DEFAULT_SYNTH),
        "questions": DEFAULT_QUESTIONS,
        "question_seed": DEFAULT_QUESTION_SEED,
        "phrasing_set": "train",
    }


def default_root() -> Path:
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "tkgqa-ray" / f"default-v{VERSION}"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def is_valid(root: Path) -> bool:
    """True when ``root`` holds a complete build of the current recipe with intact files."""
    try:
        build = json.loads((root / "BUILD.json").read_text())
    except (OSError, ValueError):
        return False
    if build.get("recipe") != recipe():
        return False
    for rel, digest in build.get("sha256", {}).items():
        p = root / rel
        if not p.is_file() or _sha256(p) != digest:
            return False
    return bool(build.get("sha256"))


def build_into(root: Path) -> None:
    """Write KG + questions + BUILD.json into an existing empty directory."""
    from tkgqa_ray.data.generator import generate, write_questions
    from tkgqa_ray.kg import load_kg

    kg = write_kg(synth_rows(DEFAULT_SYNTH), root / "kg" / "full.txt.gz")
    table = load_kg(kg)
    records = generate(table, DEFAULT_QUESTIONS, seed=DEFAULT_QUESTION_SEED, phrasing_set="train")
    write_questions(records, root / "questions" / "test.json")
    build = {
        "recipe": recipe(),
        "facts": table.num_facts,
        "questions": len(records),
        "sha256": {rel: _sha256(root / rel) for rel in ("kg/full.txt.gz", "questions/test.json")},
    }
    (root / "BUILD.json").write_text(json.dumps(build, indent=1))


def ensure_default(root: str | Path | None = None) -> Path:
    """Return the default dataset root, building it first if missing or stale."""
    root = Path(root).expanduser() if root is not None else default_root()
    if is_valid(root):
        return root
    root.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{root.name}.build-", dir=root.parent))
    try:
        build_into(tmp)
        if root.exists() and not is_valid(root):
            # stale or broken: move it aside atomically, then delete
            aside = Path(tempfile.mkdtemp(prefix=f".{root.name}.stale-", dir=root.parent))
            try:
                os.replace(root, aside / "old")
            except OSError:
                pass
            shutil.rmtree(aside, ignore_errors=True)
        try:
            os.rename(tmp, root)  # atomic publish; fails if another builder won the race
        except OSError:
            if not is_valid(root):
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return root
