"""Role output schemas of the evidence layer (validated by the backbone and by ``run_roles``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class AnswerOutput(BaseModel):
    """Answerer / reasoner output: every plausible answer, best first."""

    answers: list[str] = Field(default_factory=list, description="answers, best first")


class FilterOutput(BaseModel):
    """Evidence filter role (``rag_filter``): 1-based numbers of the facts to keep, most useful first."""

    keep: list[int] = Field(default_factory=list, description="1-based fact numbers to keep")
