"""Only here to ship ``prompts/`` and ``conf/`` (kept at the repo root, per the project layout)
as package data ``tkgqa_ray/_prompts`` and ``tkgqa_ray/_conf`` in wheels, plus the data tables
inside the package (``tkgqa_ray/data/*.yaml``, the hand-written sets ``tkgqa_ray/data/handsets/*.jsonl``, the NLU lexicons ``tkgqa_ray/nlu/data/*.tsv`` and
``tkgqa_ray/nlu/*.yaml``) and the report page templates (``tkgqa_ray/eval/templates``); everything
else is in pyproject.toml. Editable installs read them from the checkout."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["tkgqa_ray*"]) + ["tkgqa_ray._prompts", "tkgqa_ray._conf"],
    package_dir={"tkgqa_ray._prompts": "prompts", "tkgqa_ray._conf": "conf"},
    package_data={
        "tkgqa_ray._prompts": ["**/*.txt"],
        "tkgqa_ray._conf": ["*.yaml", "**/*.yaml"],
        "tkgqa_ray.data": ["*.yaml", "handsets/*.jsonl"],
        "tkgqa_ray.nlu": ["data/*.tsv", "*.yaml"],
        "tkgqa_ray.eval": ["templates/*.j2", "templates/*.css"],
    },
)
