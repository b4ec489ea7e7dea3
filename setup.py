"""Only here to ship ``prompts/`` (kept at the repo root, per the project layout) as package
data ``tkgqa_ray/_prompts`` in wheels; everything else is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["tkgqa_ray*"]) + ["tkgqa_ray._prompts"],
    package_dir={"tkgqa_ray._prompts": "prompts"},
    package_data={"tkgqa_ray._prompts": ["**/*.txt"]},
)
