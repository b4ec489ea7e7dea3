"""How people write KG actors in questions (``Police (Kenya)`` -> "the Kenyan police").

Used by the ``people`` phrasing set. Placeholder: returns the display name unchanged until the
actor surface grammar lands (issue #10).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence


def actor_surface(name: str, pick: Callable[[Sequence[Any]], Any]) -> str:
    return name
