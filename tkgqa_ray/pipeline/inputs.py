"""Load and check a run's input files before anything else happens.

The question file and the KG are read and parsed here, in the driver, before Ray starts and
before anything is written to the run dir: a malformed KG line or question record fails in
the time it takes to parse the files (no Ray start-up first) and leaves no trace in the
output dir. Every way an input file can be bad becomes an :class:`InputError` whose message
names the file (and line / record where the loaders know it).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

from omegaconf import DictConfig

from tkgqa_ray.pipeline.errors import InputError
from tkgqa_ray.pipeline.validate import ConfigError


@dataclass
class RunInputs:
    dataset: Any  # tkgqa_ray.data.loaders.Dataset
    table: Any  # tkgqa_ray.kg.table.FactTable of dataset.kg_path


def load_inputs(cfg: DictConfig) -> RunInputs:
    """The dataset split (questions + gold) and its KG, parsed and checked."""
    from tkgqa_ray.data.loaders import DatasetError, load_dataset
    from tkgqa_ray.kg import load_kg
    from tkgqa_ray.kg.table import KGFormatError

    d = cfg.dataset
    try:
        dataset = load_dataset(d.name, d.root, d.split, limit=cfg.run.limit, kg_path=d.get("kg"))
    except DatasetError as exc:
        raise InputError(f"question file: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"question file unreadable: {exc}") from None
    if dataset.kg_path is None:
        raise ConfigError("dataset.kg", f"dataset {d.name!r} ships no temporal KG; set dataset.kg=PATH")
    if not dataset.questions:
        raise InputError(f"dataset {d.name!r} split {d.split!r} has no questions")
    try:
        table = load_kg(dataset.kg_path)
    except KGFormatError as exc:
        raise InputError(f"KG file: {exc}") from None
    except FileNotFoundError:
        raise InputError(f"KG file not found: {dataset.kg_path}") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:  # truncated / not-gzip .gz, permissions
        raise InputError(f"KG file {dataset.kg_path} unreadable: {type(exc).__name__}: {exc}") from None
    if table.num_facts == 0:
        raise InputError(f"KG file {dataset.kg_path} holds no facts")
    return RunInputs(dataset, table)
