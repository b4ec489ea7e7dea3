"""Blind surface-form and phrasing set ("surface_blind", issue #10).

Placeholder wiring only: until the blind set lands this module re-exports the train set, so
nothing should be measured with it yet. **Authors of ``tkgqa_ray/nlu`` and of the methods'
parsers must not read the real content of this file.**
"""

from __future__ import annotations

from tkgqa_ray.data.phrasings import TEMPLATES, TIME_STYLES, WORDS

entity_surface = None
relation_surface = None

__all__ = ["TEMPLATES", "TIME_STYLES", "WORDS", "entity_surface", "relation_surface"]
