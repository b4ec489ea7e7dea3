"""Facts as evidence: fact ids → evidence keys, and keys → the numbered lines a prompt shows.

Evidence keys are the KG's ``s|r|o|YYYY-MM-DD|YYYY-MM-DD`` (:mod:`tkgqa_ray.kg.factkey`, the one
codec); they are what rows store and what evidence metrics match against gold events.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tkgqa_ray.kg.factkey import decode_fact_key


def fact_keys(table, fids: Sequence[int] | np.ndarray) -> list[str]:
    """Evidence strings ``s|r|o|YYYY-MM-DD|YYYY-MM-DD`` (KG-form names) for fact ids."""
    return [f.key for f in table.facts([int(i) for i in fids])]


def fact_line(key: str) -> str:
    """Prompt form of one fact: ``Barack Obama | Make a visit | Ireland | 2012-08-07``."""
    s, r, o, t0, t1 = decode_fact_key(key)
    when = t0 if t0 == t1 else f"{t0} to {t1}"
    return " | ".join(x.replace("_", " ") for x in (s, r, o)) + f" | {when}"


def render_facts(keys: Sequence[str]) -> str:
    """Numbered prompt lines (``1. …``), or ``(no facts)``."""
    return "\n".join(f"{i}. {fact_line(k)}" for i, k in enumerate(keys, 1)) or "(no facts)"
