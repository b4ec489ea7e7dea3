"""How people write KG relations and wrap questions (``Express_intent_to_meet_or_negotiate``
-> "wanted to negotiate with"; "Could you tell me the exact month when ...").

Used by the ``people`` phrasing set. Placeholder: the lexicon phrase and no wrapper templates
until the relation paraphrase grammar lands (issue #10).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from tkgqa_ray.data.phrasings import Template

WRAPPER_TEMPLATES: list[Template] = []


def relation_surface(relation: str, pick: Callable[[Sequence[Any]], Any]) -> Any:
    return None
