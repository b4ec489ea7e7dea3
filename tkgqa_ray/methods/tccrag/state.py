"""TCC-RAG's typed per-question state and the stage contract check.

A question's working state between the stages is one :class:`TccragState` kept under the
state dict's ``"_tccrag"`` key (the dict itself stays the pipeline's row: ``quid``,
``question``, ``trace`` and the result keys). Each stage declares the fields it ``reads`` and
``writes``; :func:`~tkgqa_ray.methods.contract.check_stages` walks a chain at construction and refuses one where a stage
reads a field no earlier stage writes (a missing or reordered stage), naming the field — so
moving or replacing a stage is an error at ``TCCRAG(...)``, not a ``KeyError`` mid-run.

The contract (tuples of field names and one check) is shared by every method:
:mod:`tkgqa_ray.methods.contract`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from tkgqa_ray.methods.contract import StageContractError, check_stages  # noqa: F401 - re-exported

Slot = Literal["subject", "object", "time"]
KEY = "_tccrag"  # where a state dict keeps its TccragState


# ----------------------------------------------------------------------------- TCC-RAG


@dataclass(frozen=True)
class EntityReading:
    """One grounding of the parse's entity slots (ids; ``reference``: the order cue's
    reference entities). ``changed``: the slot that differs from the primary reading (None
    for the primary), ``score``: that slot's candidate score."""

    subject: int | None
    object: int | None
    reference: tuple[int, ...] = ()
    changed: str | None = None
    score: float = 1.0


@dataclass(frozen=True)
class TccParse:
    """Progressive parsing's result: grounded slots, the asked slot, the order cue's
    reference, and the candidate readings (relation readings in score order with their
    direction; entity readings, primary first)."""

    subject: int | None
    object: int | None
    asked: Slot
    reference: tuple[int, ...] = ()
    reference_relations: tuple[int, ...] = ()
    relations: tuple[int, ...] = ()
    swaps: tuple[bool, ...] = ()
    entity_readings: tuple[EntityReading, ...] = ()
    changed: str | None = None  # set on the parse seen through an alternative entity reading
    reference_swaps: tuple[bool, ...] = ()  # per reference relation: the clause's subject is its KG object
    reference_scores: tuple[float, ...] = ()  # per reference relation: its grounding score (method._one_occasion)
    # the full reference event's other participant is an anaphor of a main-clause name in the
    # same slot ("... France earliest after X had applauded it"): a parallel event
    parallel: bool = False
    # the one-name reference clause opens with a subject pronoun and has its own relation
    # ("after **he** rallied against X"): a full event of a main-clause name (method._pronoun_antecedent);
    # "active", or "passive" when the clause's name is its agent ("when it was criticized by X");
    # "gerund" / "gerund_passive": the clause opens with a gerund ("after appealing to X"), its
    # understood subject the main subject's (method._gerund_voice)
    reference_pronoun: str | None = None
    # that pronoun (active or passive clause of a time question) agrees with the main object
    # only ("... first consult Abbas after **he** negotiated with X"): method._pronoun_object
    pronoun_object: bool = False
    # the main phrase's best relation reading is a relation-lexicon hit (not an embedding
    # neighbour only): a parallel event does not re-read it (method._relation_readings)
    lexical: bool = False
    # the phrases' further scored readings after the k tried ones ((relation id, swap), score
    # order, score >= method.PAIR_REL_MIN): the closest one a grounded pair has in the KG is
    # the pair's reading when the k readings find no event (method._pair_reading, tccrag20)
    pair_relations: tuple[tuple[int, bool], ...] = ()
    reference_pair_relations: tuple[tuple[int, bool], ...] = ()
    # the main phrase's near-tied relation co-readings (relation id, its co-readings' ids):
    # a ranked (first / last) chain is over their union (nlu.coreadings, refs27's predicate;
    # method._chain, tccrag21)
    relation_groups: tuple[tuple[int, tuple[int, ...]], ...] = ()
    # an entity question ranks the asked events with "next" / "previous" against the reference
    # (nlu.analysis.ranked_series, SCoP's series test): the rank runs over one series of events,
    # so a reference phrase with the asked relation among its near readings shares the asked
    # action (method._relation_readings, tccrag23)
    series: bool = False

    def reference_readings(self) -> list[tuple[int, bool]]:
        """(relation id, swap) of the reference clause's phrase, in score order."""
        return list(zip(self.reference_relations, self.reference_swaps or (False,) * len(self.reference_relations)))

    def relation_readings(self) -> list[tuple[int, bool]]:
        """(relation id, swap) in score order."""
        return list(zip(self.relations, self.swaps or (False,) * len(self.relations)))

    def under(self, r: EntityReading) -> "TccParse":
        """This parse with its entity slots taken from reading ``r``."""
        return dataclasses.replace(self, subject=r.subject, object=r.object, reference=tuple(r.reference),
                                   changed=r.changed)

    def entity_parses(self) -> list["TccParse"]:
        """The parse under each entity reading (itself when it has none)."""
        return [self.under(r) for r in self.entity_readings] or [self]

    def oriented(self, swap: bool) -> "TccParse":
        """The parse read through a relation whose direction is swapped ("X received a visit
        from Y" = Make_a_visit(Y, X)): subject and object exchange, and so does the asked slot
        (a pronoun agreeing with the main object then stands for the new subject)."""
        if not swap:
            return self
        flip = {"subject": "object", "object": "subject"}
        return dataclasses.replace(self, subject=self.object, object=self.subject, asked=flip.get(self.asked, self.asked),
                                   pronoun_object=False)


@dataclass
class TccragState:
    """Per-question working state of TCC-RAG (see docs/architecture.md, "Per-method state types").

    ``parse`` — tccrag_parse. ``cands``, ``structured``, ``asked``, ``relations``,
    ``boundary`` — tccrag_retrieve: the candidate fact ids (the causal chain, or the semantic
    fallback's facts), whether the chain answered, and what the causal filter conditions on
    (the answering reading's asked slot and relation, its resolved boundary; for fallback
    facts the parse's asked slot and relation readings)."""

    parse: TccParse | None = None
    cands: list[int] = field(default_factory=list)
    structured: bool = False
    asked: Slot | None = None
    relations: list[int] | None = None
    boundary: list[tuple[int, int]] | None = None

    @staticmethod
    def of(state: dict) -> "TccragState":
        """The typed state of a state dict (created empty on first use)."""
        st = state.get(KEY)
        if st is None:
            st = state[KEY] = TccragState()
        return st
