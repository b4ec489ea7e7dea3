"""Question records split into what a method may see and the gold used only for scoring.

The split happens once, at load time: the pipeline hands methods ``Question`` objects (id and
text) and keeps ``Gold`` in the scorer. Nothing else of a record reaches a method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VISIBLE_FIELDS = ("quid", "question")


@dataclass(frozen=True, slots=True)
class Question:
    """All a method is allowed to know about a question."""

    quid: str
    question: str


@dataclass(frozen=True, slots=True)
class Gold:
    """Scoring-only labels. ``answers`` are display strings (spaces, not underscores);
    time answers are at the question's granularity ("2010", "2010-05", "2010-05-17")."""

    quid: str
    answers: tuple[str, ...]
    answer_type: str | None = None  # "entity" | "time"
    qtype: str | None = None  # MultiTQ: equal, before_after, first_last, equal_multi, ...
    qlabel: str | None = None  # MultiTQ: Single | Multiple
    time_level: str | None = None  # day | month | year
    question_level: str | None = None  # TimelineCronQ-R: simple | medium | complex
    events: tuple[str, ...] = ()  # gold events "s|r|o|start|end" where the dataset has them
    extra: dict[str, Any] = field(default_factory=dict)  # other dataset-specific labels
