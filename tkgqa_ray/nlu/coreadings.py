"""Near-tied relation co-readings of one asked phrase (refs27; shared by SCoP and TCC-RAG).

Two relation candidates of a phrase are co-readings when the phrase does not tell them apart
by the KG's own naming: both names open with the same act word, which the phrase has, every
content stem of the phrase is in both names (the names differ only by a qualifier the question
does not state: "eased sanctions" is ``Ease_administrative_sanctions`` and
``Ease_economic_sanctions,_boycott,_embargo``, not ``Demand_easing_of_...`` or
``Refuse_to_ease_...``), both read in the phrase's direction, both reliable (>= ``min_score``)
and within :data:`REL_TIE` of each other. A ranked (first / last) question ranks over their
union: "the last one Obama eased sanctions against" is the last easing of any sanctions, not
of the better-scored kind. SCoP's alignment (``relation_coreadings``) and TCC-RAG's chain
(tccrag21) read this one predicate.
"""

from __future__ import annotations

from typing import Any, Iterable

from tkgqa_ray.nlu.relations import action_key

REL_TIE = 0.1  # relation candidates this close in score are near-tied readings of one phrase
COREADING_MIN = 0.5  # a reliable relation reading (SCoP's ALT_REL_MIN / the aligner's REL_OK)
# A reference clause names one occasion (refs24): of two near-synonym readings of its phrase
# with the same names, the one whose event happened on one day is the event meant when the
# best one's happened on several. SCoP's aligner (``scop.symbolic._one_occasion``) and
# TCC-RAG's boundaries (``tccrag.method._one_occasion``) read these two bounds.
OCCASION_TIE = 0.05  # relation readings this close are one phrase's near-synonyms ("threatened") ...
OCCASION_MIN = 0.9  # ... when both fit the phrase well; a loose phrase's close readings are guesses


def occasion_floor(best: float) -> float:
    """The score a reading needs to stand in for the best one (``best``) as its one occasion."""
    return max(best - OCCASION_TIE, OCCASION_MIN)


_NAME_FUNCTION = {"a", "an", "the", "or", "and", "such", "as", "to", "with", "for", "of", "on", "at", "from",
                  "about", "against", "by", "into", "upon", "over", "in"}


def content_stems(text: str) -> tuple[str, ...]:
    """The content stems of a relation phrase or a KG relation name, in order."""
    return tuple(w for w in action_key(text.replace("_", " ")) if w not in _NAME_FUNCTION)


def coreadings(phrase: str, cands: Iterable[tuple[int, float, bool]], rel_names: Any,
               min_score: float = COREADING_MIN) -> dict[str, tuple[str, ...]]:
    """Relation name -> the other near-tied co-readings of ``phrase`` among ``cands``
    ((relation id, score, swap) triples, any order); empty when none (see the module doc)."""
    ps = set(content_stems(phrase))
    if not ps:
        return {}
    ok = []
    for i, sc, w in cands:
        if w or float(sc) < min_score:
            continue
        name = rel_names[int(i)]
        st = content_stems(name)
        if st and st[0] in ps and ps <= set(st):
            ok.append((name, float(sc), st[0]))
    out: dict[str, tuple[str, ...]] = {}
    for name, sc, act in ok:
        co = tuple(m for m, sm, a in ok if m != name and a == act and abs(sm - sc) <= REL_TIE)
        if co:
            out[name] = co
    return out
