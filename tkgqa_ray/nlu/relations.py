"""Relation phrases: what is left of a clause once names, times and question words are gone,
grounded to KG relations by the relation lexicon (:mod:`.lexicon`: how people write each
CAMEO event type, with direction) combined with embedding similarity to their display names.

The phrase keeps the verb and its particles/prepositions (``sign an agreement with``,
``express intent to meet``); question scaffolding (wh-words, auxiliaries, articles, cue words)
is removed so the MiniLM encoder compares the action only. Relation names the lexicon does not
know (other KGs) are grounded by the embedding alone, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from .text import tokenize

# Words that carry no relation meaning in a question clause.
_SCAFFOLD = {
    "who", "whom", "whose", "which", "what", "when", "where", "did", "does", "do", "done",
    "was", "were", "is", "are", "be", "been", "being", "has", "have", "had", "will", "would",
    "could", "can", "might", "shall", "should", "the", "a", "an", "that", "this", "these",
    "those", "it", "its", "they", "them", "their", "there", "one", "ones", "someone", "anyone",
    "entity", "entities", "country", "countries", "person", "people", "organisation",
    "organization", "group", "actor", "party", "side", "nation", "state", "year", "month",
    "day", "date", "time", "first", "last", "earliest", "latest", "initially", "finally",
    "most", "recently", "recent", "same", "as", "before", "after", "prior", "following",
    "since", "until", "during", "in", "on", "at", "between", "and", "then", "also", "ever",
    "to", "by", "of", "for", "with", "from", "please", "tell", "me", "name", "give", "list",
    "identify", "according", "kg", "graph", "knowledge", "exactly", "precisely", "just", "exact",
    "specific", "saw", "see", "happen", "happened", "occur", "occurred", "take", "place", "took",
    "very", "second", "third", "time", "times", "moment", "instant",
    # "every year in which X ...", "each of the months when ..." (nlu10)
    "every", "each", "years", "months", "days", "dates",
    # honorifics written before a name the KG spells without them ("King Juan Carlos I")
    "king", "queen", "prince", "princess", "sheikh", "emir", "sultan", "mr", "mrs", "ms", "dr",
    # pro-forms and order/degree adverbs of a temporal question ("did so", "who else",
    # "right after", "next to visit"): never the action itself
    "so", "else", "next", "right", "shortly", "soon", "immediately", "directly", "once", "previously", "?", ",", ".", "!", ";", ":", "'", '"', "-", "'s",
    # personal pronouns standing for a name ("did he visit", "make her first appeal to"), the
    # pronoun heads of "Give me everyone who ..." and generic actor heads ("the next leader to
    # negotiate with"): the relation lexicon already reads them as light words
    "he", "him", "his", "she", "her", "hers", "we", "us", "our", "everyone", "everybody", "somebody", "anybody",
    "whoever", "those", "leader", "leaders", "official", "officials", "actors", "parties", "nations", "states",
    # the generic head of an asked phrase ("the latest thing that X visited") and rank words the
    # ordinal cue may leave outside its span ("consulted soonest after", "the final one to")
    "thing", "things", "soonest", "final",
}
# Prepositions and particles are scaffolding at the edges but meaningful inside a phrase
# ("sign an agreement with", "make a visit to"): they are kept when followed by content.
# "second" / "third" inside a phrase are not ranks ("meet at a third location with"; a rank cue
# is masked before this runs): kept inside, dropped at the edges like the rest.
_INNER_OK = {"to", "with", "for", "of", "on", "in", "at", "from", "about", "against", "by", "a", "an", "the", "and", "or",
             "into", "upon", "over", "second", "third"}


@dataclass(frozen=True, slots=True)
class RelationCandidate:
    id: int
    name: str  # KG form
    score: float
    swap: bool = False  # the phrase's subject is the relation's object ("received a visit from")
    source: str = "embedding"  # "embedding" | "lexicon" (lexicon evidence, embedding tie-break)


LEX_WEIGHT = 0.9  # combined score of a lexicon hit: 0.9 * lexicon + 0.1 * embedding cosine
EMBED_K = 64  # embedding neighbours fetched per phrase (then merged with lexicon hits)


_PARTICLES = {"to", "with", "for", "of", "on", "at", "from", "about", "against", "by", "into", "upon", "over", "in"}


_PHRASAL = {**dict.fromkeys(("give", "gives", "gave", "given", "giving"), {"in", "up", "way"}),
            # "take up arms against" (names28): "take" is otherwise an event word ("take place")
            **dict.fromkeys(("take", "takes", "took", "taken", "taking"), {"over", "up"})}


_PHRASAL_TO = {"take", "takes", "took", "taken", "taking"}


def _take_in(toks: list) -> set[int]:
    """names31: "take in" before a content word is a receiving verb ("took in French
    peacekeepers", "took in refugees"), the phrasal verb of CAMEO 0874 rows; "take"
    is otherwise an event word ("take place in") and "in" a time preposition ("took in 2010")."""
    out: set[int] = set()
    for i, t in enumerate(toks[:-2]):
        nxt = toks[i + 2].norm
        if t.norm in _TAKE_IN and toks[i + 1].norm == "in" and nxt not in _SCAFFOLD and not nxt.isdigit():
            out.update((i, i + 1))
    return out


_TAKE_IN = {"take", "takes", "took", "taken", "taking"}


@lru_cache(maxsize=1)
def _name_of_trigrams() -> frozenset[tuple[str, str]]:
    """(word, next word) around "of" in the relation lexicon's KG relation names ("state",
    "emergency" of ``Impose_state_of_emergency_or_martial_law``)."""
    from .lexicon import load_data

    out = set()
    for rel in load_data().get("relations") or {}:
        ws = re.findall(r"[a-z]+", str(rel).lower())
        out.update((a, c) for a, b, c in zip(ws, ws[1:], ws[2:]) if b == "of")
    return frozenset(out)


def relation_phrase(text: str, keep_particle: bool = False) -> str:
    """Strip scaffolding from a clause (names and times must already be masked): the
    longest run between the first and last content word, keeping inner particles.

    ``keep_particle`` also keeps one preposition right after the last content word ("called
    *on*", "received a visit *from*"): the relation lexicon reads direction and sense from it;
    embedding lookups use :func:`embedding_text`, which drops it again."""
    toks = [t for t in tokenize(text)]
    content = [i for i, t in enumerate(toks) if t.norm not in _SCAFFOLD and not t.norm.isdigit()]
    # a scaffold verb with its own particle is a phrasal verb, content: "give in (to)", "give
    # up", "take over"; not "give me" / "take place" (wrapper and event words)
    phrasal = {j for i, t in enumerate(toks[:-1]) if t.norm in _PHRASAL and toks[i + 1].norm in _PHRASAL[t.norm]
               for j in (i, i + 1)}
    # "take X to court" (refs28): a take-form whose object (masked or a scaffold word) is
    # followed by "to" + a content word is the verb of that phrase, no event word
    for i, t in enumerate(toks):
        if t.norm in _PHRASAL_TO:
            k = i + 1
            while k < len(toks) and toks[k].norm in _SCAFFOLD and toks[k].norm != "to" and toks[k].norm not in _PHRASAL_TO:
                k += 1
            if k + 1 < len(toks) and toks[k].norm == "to" and toks[k + 1].norm not in _SCAFFOLD and not toks[k + 1].norm.isdigit():
                phrasal.add(i)
    phrasal |= _take_in(toks)
    # "threatened a state of emergency" (refs28): a scaffold noun before "of" + a word that a KG
    # relation name writes after it (Impose_state_of_emergency_or_martial_law) is content
    trig = _name_of_trigrams()
    phrasal |= {i for i, t in enumerate(toks[:-2]) if t.norm in _SCAFFOLD and toks[i + 1].norm == "of"
                and (t.norm, toks[i + 2].norm) in trig}
    content = sorted(set(content) | phrasal)
    if not content:
        return ""
    a, b = content[0], content[-1]
    if keep_particle and b + 1 < len(toks) and toks[b + 1].norm in _PARTICLES and toks[b + 1].start - toks[b].end <= 1:
        b += 1
    words = [t.norm for i, t in enumerate(toks[a : b + 1], a) if i in phrasal or t.norm in _INNER_OK or t.norm not in _SCAFFOLD]
    return re.sub(r"\s+", " ", " ".join(words)).strip()


def embedding_text(phrase: str) -> str:
    """The phrase as the embedding index sees it: without a trailing preposition (what
    :func:`relation_phrase` returns by default), so a kept particle changes no cosine."""
    words = phrase.split()
    while len(words) > 1 and words[-1] in _PARTICLES:
        words.pop()
    return " ".join(words)


def ground_relation(
    phrase: str, embeddings: Any, k: int = 5, relations: Sequence[str] | None = None
) -> list[RelationCandidate]:
    """Top-``k`` KG relations for ``phrase``: relation-lexicon evidence combined with the
    embedding cosine to the relation display names (:func:`combine`).

    ``embeddings`` is an EmbeddingService or its Ray actor client. ``relations`` (the table's
    relation names) enables the lexicon when the service cannot tell them (the actor client);
    without names, or for a KG whose relations the lexicon does not know, the embedding
    ranking is returned as before. Cached per (service, phrase, k, relations).
    """
    return ground_relations([phrase], embeddings, k, relations)[0]


_GROUND_CACHE: dict[tuple, tuple[RelationCandidate, ...]] = {}
_GROUND_CACHE_MAX = 65536


def ground_relations(
    phrases: Sequence[str], embeddings: Any, k: int = 5, relations: Sequence[str] | None = None
) -> list[list[RelationCandidate]]:
    """:func:`ground_relation` for many phrases with **one** index search for all uncached
    ones (one encoder batch; one actor round trip with the Ray client)."""
    names = list(relations) if relations is not None else _relation_names(embeddings)
    nkey = tuple(names) if names else None
    todo = [p for p in dict.fromkeys(phrases) if p and (embeddings, p, k, nkey) not in _GROUND_CACHE]
    if todo:
        scores, ids = embeddings.search("relation", [embedding_text(p) for p in todo], max(k, EMBED_K))
        if len(_GROUND_CACHE) + len(todo) > _GROUND_CACHE_MAX:
            _GROUND_CACHE.clear()
        for p, sc, ix in zip(todo, scores, ids):
            _GROUND_CACHE[(embeddings, p, k, nkey)] = tuple(combine(p, ix, sc, names)[:k])
    return [list(_GROUND_CACHE[(embeddings, p, k, nkey)]) if p else [] for p in phrases]


def combine(phrase: str, ids: Sequence[int], scores: Sequence[float], names: Sequence[str] | None) -> list[RelationCandidate]:
    """Merge one phrase's embedding neighbours (``ids``/``scores``, best first) with its
    relation-lexicon hits: a hit scores ``0.9 * lexicon + 0.1 * cosine`` (cosine 0 when the
    relation is not among the neighbours), a relation without a hit keeps its cosine. A swap
    reading is a separate candidate. Sorted best first; ties keep the direct reading first."""
    cid, csc, csw, src = combine_arrays(phrase, ids, scores, names)
    return [
        RelationCandidate(int(i), names[int(i)] if names else str(int(i)), float(s), bool(w), "lexicon" if x else "embedding")
        for i, s, w, x in zip(cid, csc, csw, src)
    ]


def combine_arrays(
    phrase: str, ids: Sequence[int], scores: Sequence[float], names: Sequence[str] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`combine` as arrays ``(ids, scores, swap, from_lexicon)`` (the batched alignment
    path: no per-candidate objects)."""
    ids = np.asarray(ids, np.int64).ravel()
    sc = np.asarray(scores, np.float64).ravel()
    ok = ids >= 0
    ids, sc = ids[ok], sc[ok]
    hits = []
    if names:
        from .lexicon import RelationLexicon

        lex = RelationLexicon.for_relations(names)
        hits = [(lex.rel_id[h.relation], h.score, h.swap) for h in lex.match(phrase) if h.relation in lex.rel_id]
    if not hits:
        return ids, sc, np.zeros(len(ids), bool), np.zeros(len(ids), bool)
    emb = dict(zip(ids.tolist(), sc.tolist()))
    h_id = np.array([h[0] for h in hits], np.int64)
    h_sc = np.array([round(LEX_WEIGHT * h[1] + (1 - LEX_WEIGHT) * max(emb.get(h[0], 0.0), 0.0), 4) for h in hits])
    h_sw = np.array([h[2] for h in hits], bool)
    # the lexicon reads direction, the embedding cannot: a relation the lexicon hit (either
    # way: "the target of an offer to meet from Y" is Express_intent_to_meet(Y, X) only) keeps
    # just the lexicon's readings, not the embedding's undirected neighbour as well
    keep = ~np.isin(ids, h_id)
    all_id = np.concatenate([h_id, ids[keep]])
    all_sc = np.concatenate([h_sc, sc[keep]])
    all_sw = np.concatenate([h_sw, np.zeros(int(keep.sum()), bool)])
    src = np.concatenate([np.ones(len(h_id), bool), np.zeros(int(keep.sum()), bool)])
    order = np.lexsort((all_id, all_sw, -all_sc))
    return all_id[order], all_sc[order], all_sw[order], src[order]


@lru_cache(maxsize=65536)  # phrases repeat across a run's questions
def action_key(phrase: str) -> tuple[str, ...]:
    """The action of a relation phrase up to inflection and function words: "delivered relief
    supplies to" and "deliver relief supplies to" (or "holding talks with" / "held talks
    with") have one key. Two clauses with one key repeat one action (:func:`same_action`)."""
    from .lexicon import _words, stem

    return tuple(stem(w) for w in _words(phrase))


def same_action(a: str, b: str) -> bool:
    """True when two relation phrases of one question name the same action in words (equal
    :func:`action_key`; an empty phrase never does). A paraphrase in other words ("criticised"
    / "condemned") is told by the grounding (both phrases' best relation agree), which the
    aligner checks on its candidates."""
    ka = action_key(a)
    return bool(ka) and ka == action_key(b)


def _relation_names(embeddings: Any) -> list[str] | None:
    # The in-process service exposes its FactTable; the Ray actor client proxies every
    # attribute as a remote method, so only trust a real table with a relations list.
    table = getattr(embeddings, "table", None)
    relations = getattr(table, "relations", None)
    return list(relations) if isinstance(relations, (list, tuple)) else None


__all__ = ["RelationCandidate", "action_key", "combine", "combine_arrays", "embedding_text", "ground_relation", "ground_relations", "relation_phrase", "same_action"]
