"""How people write KG actors in questions (``Police (Kenya)`` -> "the Kenyan police").

Used by the ``people`` phrasing set. Renders an ICEWS-style ``Sector (Country)`` actor with
the actor grammar's own lexicons (:mod:`tkgqa_ray.nlu.actors`: sector synonyms, country names,
adjectives, people nouns), so this set checks the grammar's coverage; it is not a blind set.
Only forms that mean this sector and no other at full score are used, so the rendered text
keeps the entity's meaning (gold comes from the oracle over KG names anyway). Plain entities
(countries, people, organisations) pass through unchanged. All draws use ``pick`` (the
generator's seeded RNG), never ``random``.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from tkgqa_ray.nlu.actors import (
    decompose,
    people_sectors,
    place_lexicon,
    plural,
    sector_forms,
)
from tkgqa_ray.nlu.actors import _sector_rows  # the data file's sector -> forms table
from tkgqa_ray.nlu.text import fold


@functools.lru_cache(maxsize=1)
def _form_owners() -> dict[str, set[str]]:
    """Form -> data-file sectors that use it at full score (a form owned by two is unsafe)."""
    out: dict[str, set[str]] = {}
    for sk in _sector_rows():
        for f, sc in sector_forms(sk):
            if sc >= 1.0:
                out.setdefault(f, set()).add(sk)
    return out


@functools.lru_cache(maxsize=4096)
def _safe_forms(sector: str) -> tuple[str, ...]:
    sk = fold(sector)
    owners = _form_owners()
    forms = [f for f, sc in sector_forms(sector) if sc >= 1.0 and owners.get(f, {sk}) <= {sk}]
    return tuple(forms) or tuple(f for f, _ in sector_forms(sector)[:1])


def actor_surface(name: str, pick: Callable[[Sequence[Any]], Any]) -> str:
    a = decompose(name)
    lex = place_lexicon()
    if a is None or lex.is_place(a.sector) or not (lex.is_place(a.place) or fold(a.sector) in _sector_rows()):
        return name
    _, adjs, people = lex.forms(a.place)
    key = lex.resolve(a.place)
    # the KG spelling or one of the data file's names ("Russia", "the UK"), never ISO's
    # official names ("Russian Federation" is in the data as a name people use, too)
    place_name = pick([a.place] + lex.own_names.get(key, [])) if key else a.place
    forms = _safe_forms(a.sector)
    f = pick(forms)
    if "*" in f:
        pre, _, suf = f.partition("*")
        return f"the {pre.strip()} {pick(adjs or [place_name])} {suf.strip()}".replace("  ", " ").strip()
    fp = plural(f)
    variants: list[str] = [name]  # the KG display form still occurs in real questions
    if adjs:
        adj = pick(adjs)
        variants += [f"the {adj} {f}", f"{adj} {fp}", f"the {adj} {fp}"]
    else:
        variants += [f"the {place_name} {f}", f"{place_name} {fp}"]
    variants += [f"the {f} of {place_name}", f"the {fp} of {place_name}", f"{fp} from {place_name}"]
    if not place_name.lower().startswith("the "):
        variants.append(f"{place_name}'s {f}")
    if people and fold(a.sector) in people_sectors() and people_sectors()[fold(a.sector)] >= 1.0:
        variants += [pick(people)] * 2
    return pick(variants)
