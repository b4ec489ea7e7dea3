"""OmegaConf resolvers the Hydra config (``conf/config.yaml``) needs; registered by the CLI
before Hydra composes.

``${tkgqa.or:A,B}`` is A unless A is null or empty, else B. Hydra's run dir needs it:
``run.output_dir: null`` means "Hydra's default", but ``oc.select`` returns a present null
rather than its default, which made ``hydra.run.dir`` null and the bare ``tkgqa-ray run``
die before doing anything.
"""

from __future__ import annotations

from typing import Any


def _or(value: Any, default: Any) -> Any:
    return default if value is None or value == "" else value


def register_resolvers() -> None:
    from omegaconf import OmegaConf

    if not OmegaConf.has_resolver("tkgqa.or"):
        OmegaConf.register_new_resolver("tkgqa.or", _or)
