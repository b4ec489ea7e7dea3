"""Progressive query parsing: hybrid entity grounding, relation/role parsing, routing inputs.

Two mention paths — the cheap gazetteer (exact longest match of KG names, the "NER" path) and
the backbone's ``mention_extractor`` role — are each grounded to KG entities by embedding cosine
≥ 0.85 with a fuzzy-string fallback; agreement is adopted, disagreement goes to one ``arbiter``
role call. The relation phrase and the subject/object/asked roles come from the backbone's
``relation_parser`` role; the phrase is grounded to the top-3 KG relations by embedding
similarity. The symbolic implementations of these roles live here too.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from pydantic import BaseModel, Field
from rapidfuzz import fuzz, process

from tkgqa_ray.kg.table import table_cache_key
from tkgqa_ray.methods.roles import register_symbolic
from tkgqa_ray.nlu.analysis import SAME_ACTION_RE, _pro_object_action  # the pro-object rule SCoP's phrase takes (next29)
from tkgqa_ray.nlu.actors import GROUP_MEMBER_WEIGHT, group_members, place_lexicon
from tkgqa_ray.nlu.anaphora import OBJECT_PRONOUN_RE, PLACE_ADVERB_RE, agreement, antecedent, features, organisation_words
from tkgqa_ray.nlu.cache import context_analysis
from tkgqa_ray.nlu.entities import NAME_JOINERS, NAME_PARTICLES, EntityMatcher
from tkgqa_ray.nlu.names import FUNCTION_WORDS
from tkgqa_ray.nlu.relations import relation_phrase
from tkgqa_ray.methods.tccrag.cues import cue_signals
from tkgqa_ray.nlu.text import drop_article, fold, mask_spans, name_spans, tokenize
from tkgqa_ray.nlu.wrappers import strip_wrapper
from tkgqa_ray.retrieval.answers import mentioned

if TYPE_CHECKING:
    from tkgqa_ray.context import RunContext

GROUNDING_THRESHOLD = 0.85  # paper: cosine threshold of entity grounding
# fuzzy tier: rapidfuzz ``fuzz.ratio`` / 100 = 2·LCS / (len a + len b), the InDel similarity.
# difflib's ``SequenceMatcher.ratio`` (the earlier scorer) is 2·M / (len a + len b) with M the
# Ratcliff/Obershelp matches, a common subsequence, so M ≤ LCS: the two agree on almost every
# pair (they differ only where Ratcliff/Obershelp's greedy longest-block split misses
# characters), and rapidfuzz's is never lower. The cutoff keeps its meaning: 0.85 = 85 here.
FUZZY_CUTOFF = 0.85


# ----------------------------------------------------------------------------- schemas
class MentionOutput(BaseModel):
    mentions: list[str] = Field(default_factory=list, description="entity mentions, as written")


class ArbiterOutput(BaseModel):
    entities: list[str] = Field(default_factory=list, description="chosen KG entity names")


class RelationParseOutput(BaseModel):
    relation_phrase: str = Field(description="the action/relation words of the question")
    subject: str | None = Field(default=None, description="entity in the subject slot, if given")
    object: str | None = Field(default=None, description="entity in the object slot, if given")
    asked: Literal["subject", "object", "time"] = Field(description="the slot the question asks for")


class SingleParseOutput(RelationParseOutput):
    """wo_pqp: everything in one call (entities, relation, roles); no grounding cross-check."""

    entities: list[str] = Field(default_factory=list)
    reference: str | None = Field(default=None, description="entity the temporal cue refers to")


# ----------------------------------------------------------------------------- mention paths
_NOT_NAME = {
    "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "before", "after",
    "in", "on", "at", "during", "the", "a", "an", "since", "until", "following", "prior",
    "first", "last", "between", "of", "and", "is", "was", "did", "does", "do", "had", "has",
} | {m.lower() for m in ("January February March April May June July August September October November December").split()}
# a clause opener written capitalised at the start of a sentence ("**Once** John Mahama had
# visited Angola, ...", "**As** Iran ...", "**Up** until ..."): a temporal subordinator or
# adverb, never the first word of a name, so it opens no name proposal. Only in first
# position: inside a name such a word is a name's ("Chee **Soon** Juan"). Before, "Once John
# Mahama" was one proposal no tier grounds, and the reference clause lost its subject.
_NOT_NAME_START = {"once", "while", "whilst", "as", "till", "upon", "up", "by", "then", "just", "shortly",
                   "right", "immediately", "directly", "subsequently", "afterwards", "later", "earlier",
                   "previously"}
# words inside a name: nlu's joiners ("of", "de", "(" ...) and personal-name particles, so that
# "Sheikh Hamad bin Isa Al Khalifa" is one proposal, not two cut at "bin"
_JOIN = NAME_JOINERS | NAME_PARTICLES
# the Arabic article is a name's first word ("**al**-Qaeda", "**Al** Qaeda", "**Al** Gore"):
# capitalised, or hyphened to a capitalised word, it opens a name proposal, while inside a run it
# stays a particle ("Bashar al-Assad"). Before, a leading "al" was trimmed as a joiner and
# "al-Qaeda" was proposed as "Qaeda", which no tier grounds
_ARTICLES = {"al", "el"}


def _opening_article(toks, k: int) -> bool:
    """Token ``k`` is an Arabic article that opens a name: "Al" written capitalised before a
    capitalised word, or "al" / "el" hyphened to one ("al-Qaeda")."""
    t = toks[k]
    if t.norm not in _ARTICLES:
        return False
    nxt = toks[k + 2] if k + 2 < len(toks) and toks[k + 1].text == "-" else toks[k + 1] if k + 1 < len(toks) else None
    if nxt is None or not nxt.text[:1].isupper():
        return False
    return t.text[:1].isupper() or toks[k + 1].text == "-"


def capitalised_runs(question: str) -> list[tuple[int, int]]:
    """Maximal runs of capitalised tokens (joined by ``of``/``(``/``)``...): name proposals."""
    toks = tokenize(question)
    runs, cur = [], []

    def flush():
        while cur and toks[cur[-1]].norm in _JOIN and toks[cur[-1]].text != ")":
            cur.pop()
        while cur and toks[cur[0]].norm in _JOIN and toks[cur[0]].text != "(" and not _opening_article(toks, cur[0]):
            cur.pop(0)
        if cur:
            runs.append((toks[cur[0]].start, toks[cur[-1]].end))
        cur.clear()

    for k, t in enumerate(toks):
        cap = (t.text[:1].isupper() and t.norm not in _NOT_NAME and (cur or t.norm not in _NOT_NAME_START)) or (
            t.text == "(" and cur) or (not cur and _opening_article(toks, k))
        if cap or (cur and t.norm in _JOIN):
            cur.append(k)
        else:
            flush()
    flush()
    # balance a dangling "(" ... keep the text as is otherwise
    return [(a, b) for a, b in runs if re.search(r"[A-Za-z]{2,}", question[a:b])]


def symbolic_mention_extractor(inputs: dict[str, Any], ctx=None) -> dict[str, Any]:
    """Stand-in for the LLM path: capitalised spans (a different path from the gazetteer)."""
    q = inputs["question"]
    return {"mentions": [q[a:b] for a, b in capitalised_runs(strip_wrapper(q))]}


Candidates = list[tuple[int, float]]  # scored entity ids of one mention, best first


def match_mentions(mentions: list[str], ctx: "RunContext") -> list[tuple[str, int | None, float, str]]:
    """Hybrid matching of surface mentions to KG entity ids: exact name → embedding cosine ≥
    0.85 → fuzzy string (rapidfuzz ratio ≥ 0.85, see :data:`FUZZY_CUTOFF`). Returns (mention, id|None, score, how): the
    best candidate of :func:`match_mention_candidates`."""
    return [(m, c[0][0] if c else None, c[0][1] if c else 0.0, how) for m, c, how in match_mention_candidates(mentions, ctx)]


def match_mention_candidates(mentions: list[str], ctx: "RunContext") -> list[tuple[str, Candidates, str]]:
    """:func:`match_mentions` keeping every candidate of a mention: an exact surface can name
    several entities (colliding names; an actor reference such as "the Chilean government"
    carries the actor grammar's scored set). The embedding and fuzzy fallbacks give their top
    hit only. Returns (mention, [(id, score), ...] best first, how); [] when nothing matched."""
    table = ctx.table
    matcher = EntityMatcher.for_table(table)
    out: list[tuple[str, Candidates, str]] = []
    pending = []
    for m in mentions:
        hit = matcher.lookup_scored(m)
        if hit:
            out.append((m, [(int(e), float(sc)) for e, sc in hit], "exact"))
        else:
            out.append((m, [], "none"))
            pending.append(len(out) - 1)
    if pending:
        scores, ids = ctx.embeddings.search("entity", [out[i][0] for i in pending], 1)
        for j, i in enumerate(pending):
            m = out[i][0]
            if len(ids[j]) and int(ids[j][0]) >= 0 and float(scores[j][0]) >= GROUNDING_THRESHOLD:
                out[i] = (m, [(int(ids[j][0]), float(scores[j][0]))], "embedding")
                continue
            fz = _fuzzy(m, table)
            if fz is not None:
                out[i] = (m, [(fz[0], fz[1])], "fuzzy")
                continue
            np_ = _name_parts(m, table)
            if np_ is not None:
                out[i] = (m, [(np_, NAME_PART_SCORE)], "name_parts")
                continue
            nw = name_word_candidates(m, table)
            if nw:
                out[i] = (m, nw, "name_word")
    return out


# last tier (a mention no other tier grounds): a person named without the middle name(s)
# ("Dmitry Medvedev" for Dmitry_Anatolyevich_Medvedev: the cosine and the fuzzy ratio of such
# a pair stay under 0.85). An organisation's initials ("the IMF") are the exact tier's: nlu's
# matcher knows acronyms (initials of a name, data/aliases.tsv). Score of such a match:
NAME_PART_SCORE = 0.85
_NAME_PART_CACHE: dict[object, dict] = {}  # kg.table.table_cache_key -> index


def _name_words(raw: str, table) -> list[str]:
    """Folded words of a KG name without a trailing "(Country)"."""
    return [fold(w) for w in re.split(r"[\s_]+", re.sub(r"\s*\([^()]*\)$", "", table.display(raw)).strip()) if w]


# Romance surname particles: an Iberian / French person's name may end in a second surname
# introduced by one of them ("Ricardo Alarcón **de** Quesada", "Raúl Salinas **de** Gortari",
# "Paulo Fernando **da** Costa Lacerda"), which news leave out ("Ricardo Alarcón"). Patronymic
# and Germanic particles ("bin", "van", "von") begin no droppable part.
_SURNAME_TAIL_PARTICLES = {"de", "del", "da", "das", "do", "dos", "y"}


def _name_forms(words: list[str]) -> list[list[str]]:
    """A KG person name's words and its shorter forms without a trailing second surname (cut
    at each Romance particle after the second word, :data:`_SURNAME_TAIL_PARTICLES`)."""
    return [words] + [words[:i] for i in range(2, len(words)) if words[i] in _SURNAME_TAIL_PARTICLES]


def _name_index(table) -> dict:
    """(first word, last word) → (id, form) of the names of three words or more (no function
    word of ``nlu.names``, as nlu's person names) and of their forms without a trailing second
    surname (:func:`_name_forms`), built once per table (a dict lookup per mention)."""
    hit = _NAME_PART_CACHE.get(table_cache_key(table))
    if hit is not None:
        return hit
    orgs = organisation_words()
    ends: dict[tuple[str, str], list[tuple[int, tuple[str, ...]]]] = {}
    for e, raw in enumerate(table.entities):
        words = _name_words(raw, table)
        # "de" / "del" are function words of organisation names too ("Banco de ..."): besides
        # the particles of a second surname, a person's name has none, nor an organisation word
        if len(words) < 3 or any((w in FUNCTION_WORDS and w not in _SURNAME_TAIL_PARTICLES) or w in orgs for w in words):
            continue
        for form in _name_forms(words):
            ends.setdefault((form[0], form[-1]), []).append((e, tuple(form)))
    _NAME_PART_CACHE[table_cache_key(table)] = ends
    return ends


def _name_parts(mention: str, table) -> int | None:
    """The one KG person a name with the middle names or a trailing second surname left out
    stands for, or None (several or none): the mention's words (two or more, capitalised) are
    the first and last words of a longer name or of its form without the second surname
    (:func:`_name_forms`), in order, and its other words appear in it in order ("Dmitry
    Medvedev" → Dmitry Anatolyevich Medvedev, "Ricardo Alarcón" → Ricardo Alarcón de
    Quesada). Before the second-surname forms, such a mention had no grounding at all (its
    cosine and fuzzy ratio stay under 0.85) and the reference event lost its object."""
    m = drop_article(mention)
    words = m.split()
    if len(words) < 2 or not all(w[:1].isupper() for w in words):
        return None
    folded = [fold(w) for w in words]
    ids = []
    for e, form in _name_index(table).get((folded[0], folded[-1]), []):
        it = iter(form)
        if len(_name_words(table.entities[e], table)) > len(words) and all(w in it for w in folded) and e not in ids:
            ids.append(e)
    return ids[0] if len(ids) == 1 else None


def titled_name(mention: str, eid: int, table) -> bool:
    """True when the KG name ``eid`` is an office-and-surname name the mention writes with
    the person's full name: ICEWS names some officials by the office and surname
    (``Minister_of_Public_Works_Vellu``), a question by the title and the full name ("Works
    Minister Samy Vellu"), so the cosine of the two stays under the embedding tier's 0.85.
    The name's last word is the mention's last word (the surname) and at least one more of
    the name's content words (the office) is written; a shared surname alone is no such name
    ("Isa Al Khalifa" is no Mohammed_Khalifa, "Republican Party" no Democratic_Party).
    tccrag22."""
    name = [w for w in _name_words(table.entities[int(eid)], table) if w not in FUNCTION_WORDS]
    written = [fold(w) for w in re.findall(r"[^\W_]+", drop_article(mention))]
    if len(name) < 2 or len(written) < 2 or name[-1] != written[-1]:
        return False
    return any(w in written[:-1] for w in name[:-1])


# the tier after that: a person written by one part of the name ("Abbas", "Mogherini",
# "Abhisit") or with another spelling or a title before it ("Sergei Kiriyenko" for
# Sergey_Vladilenovich_Kiriyenko, "Pope Benedict" for Benedict_XVI): nlu's person-name index
# (tkgqa_ray.nlu.names, the one SCoP's matcher reads too; names13), every reading kept.
NAME_WORD_SCORE = 0.8  # every candidate's score (>= ALT_ENT_MIN: each is a reading; the KG decides)
NAME_WORD_MAX_CANDIDATES = 3  # as the method's ALT_PER_SLOT: the readings a slot tries


def name_word_candidates(mention: str, table) -> Candidates:
    """The KG persons a mention names by part of a longer name, most facts first (at most
    NAME_WORD_MAX_CANDIDATES), or []: :meth:`PersonNames.readings` of the mention's words
    (a leading article dropped). Several persons share a surname ("Abbas"): each is a
    reading of the slot, the prominent one first.

    Before, such a mention was below every tier (cosine 0.55-0.85, fuzzy ratio < 0.85): its
    slot was empty and the question got no structured answer."""
    m = drop_article(mention)
    rs = EntityMatcher.for_table(table).persons.readings(m.split())
    return [(int(r.eid), NAME_WORD_SCORE) for r in rs[:NAME_WORD_MAX_CANDIDATES]]


# a tier for a mention no question-independent tier grounds: ICEWS writes an organisation
# name that several countries share with its country ("Republican_Party_(Malawi)",
# "Centre_Party_(Sweden)"), so "the Republican Party" in a question about Malawi is that
# name qualified by a place the question names (a country, or the place of an actor in it)
QUALIFIED_SCORE = 0.85  # as a name-parts match: a reading, the KG decides among the places


def question_places(names: list[str]) -> list[str]:
    """The places a question's grounded names give, in order: a name itself (a country is a
    place) and the "(Place)" of an actor's name ("Police (Rwanda)" → Rwanda)."""
    out = []
    for n in names:
        m = re.search(r"\(([^()]+)\)$", n)
        out += [n] if m is None else [m.group(1)]
    return list(dict.fromkeys(out))


def qualified_candidates(mention: str, places: list[str], table) -> Candidates:
    """The KG names "<mention> (<place>)" for the question's places (:func:`question_places`),
    in their order; a leading article dropped, the mention capitalised (a name, not a
    sector noun: those are nlu's actor grammar's). A one-word plural without such a name
    reads its singular ("Brahmins": "Brahmin (India)")."""
    m = drop_article(mention)
    if not m[:1].isupper():
        return []
    ids = table.display_entity_id
    out = [(ids[q], QUALIFIED_SCORE) for q in (f"{m} ({p})" for p in places) if q in ids]
    if out or " " in m or not re.fullmatch(r"[A-Z][a-z]{3,}s", m):
        return out
    # a capitalised group noun in the plural ("Brahmins", "Sunnis", "Kurds"): ICEWS files its
    # members under the singular sector of their place ("Brahmin (India)"); before, such a
    # mention had no tier (cosine and fuzzy ratio to the singular name stay under 0.85)
    return [(ids[q], QUALIFIED_SCORE) for q in (f"{m[:-1]} ({p})" for p in places) if q in ids]


SPELLED_MIN = GROUNDING_THRESHOLD  # a spelled name grounds the mention as the embedding tier does
SPELLED_K = 16  # embedding neighbours searched for a plain name that spells the mention


def place_attached(question: str, mention: str, places: list[str]) -> bool:
    """True when the question attaches one of ``places`` to ``mention`` where it is written:
    the place's name or adjective right before it ("Sudan's Security Council", "the Sudanese
    Security Council"), "of / in / from <place>" right after it, or a possessive pronoun
    right before it ("Iraq denounced **its** Supreme Council"): the mention is then that
    place's organisation. A place named elsewhere ("the Security Council asked Sudan") says
    nothing about which organisation the mention is."""
    lex = place_lexicon()
    forms = []
    for p in places:
        names, adjs, _ = lex.forms(p.replace(" ", "_"))
        forms += names + adjs
    alt = "|".join(re.escape(f) for f in sorted(set(forms), key=len, reverse=True) if f)
    for x in re.finditer(re.escape(mention), question, re.I):
        before, after = question[: x.start()], question[x.end():]
        if re.search(r"\b(?:its|their|his|her)\s+$", before, re.I):
            return True
        if alt and (re.search(rf"\b(?:{alt})(?:['’]s|['’])?\s+$", before, re.I)
                    or re.match(rf"\s+(?:of|in|from)\s+(?:the\s+)?(?:{alt})\b", after, re.I)):
            return True
    return False


def spelled_names(mention: str, ctx) -> Candidates:
    """Plain KG names (no "(Place)" qualifier) among the mention's entity-embedding neighbours
    (cosine >= :data:`SPELLED_MIN`, the grounding threshold: "Congress" is no grounding of
    Trade Union Congress, 0.76, d13-0115) that end with the mention's words, a
    shortened organisation name ("the Security Council" for the UN Security Council), best
    first with their cosine. English drops an organisation's leading words (its "UN", its
    body's first words) once it is known; the embedding tier's best hit need not spell it."""
    bare = drop_article(mention)
    words = fold(bare).split()
    if not words or not bare[:1].isupper():
        return []
    table = ctx.table
    scores, ids = ctx.embeddings.search("entity", [bare], SPELLED_K)
    out = []
    for e, sc in zip(ids[0], scores[0]):
        if int(e) < 0 or float(sc) < SPELLED_MIN:
            continue
        name = table.display(table.entities[int(e)])
        nw = fold(name).split()
        if "(" not in name and len(nw) > len(words) and nw[-len(words):] == words:
            out.append((int(e), float(sc)))
    return out


def other_places(mention: str, cands: Candidates, places: list[str], table) -> Candidates:
    """``cands`` with the question's other places' "<mention> (<place>)" names appended
    (:func:`qualified_candidates`) when the best candidate is such a name itself: the mention
    names an organisation without its place ("... after Brazilians were pessimistic about
    **Congress**": Congress (United States) by the embedding tier, Congress (Brazil) by the
    question's place). The KG has one such organisation per place, and the question's own
    place is the likely one, so each is a further reading (the KG decides, primary first).
    Before, only the best place was read: an unresolved boundary."""
    if not cands:
        return cands
    bare = drop_article(mention)
    best = table.display(table.entities[cands[0][0]])
    if not re.fullmatch(rf"{re.escape(bare)} \([^()]+\)", best, re.I):
        return cands
    have = {e for e, _ in cands}
    return list(cands) + [c for c in qualified_candidates(bare, places, table) if c[0] not in have]


DEMONYM_SCORE = 0.6  # a demonym's country: a further reading at the alternative floor (method.ALT_ENT_MIN)


def demonym_country(mention: str, cands: Candidates, places: list[str], table) -> Candidates:
    """``cands`` with the country a plural demonym noun names appended, when the question
    names that country too: "Following South Korea's show of sympathy for **Vietnam**, who
    was the next to express sympathy for **the Vietnamese**?". English calls a country's
    people by its demonym ("the Vietnamese", "the Iranians"); ICEWS files them under the
    country. The embedding tier grounds the word to its nearest name (Vietnamese_American,
    no fact of the event), so the country is a further reading, after the tier's (the KG
    decides). Only a mention that is one demonym (its adjective, or that adjective + "s",
    nlu's place lexicon), whose best candidate is of no such place, and whose country is one
    of the question's places (``places``: :func:`question_places`) and a KG name; tccrag22."""
    if not cands:
        return cands
    from tkgqa_ray.nlu.analysis import _place_of_adjective  # nlu's demonym lexicon (refs25's antecedents too)

    word = drop_article(mention).strip()
    if not re.fullmatch(r"[A-Z][a-z]+", word):
        return cands
    key = _place_of_adjective(word) or (_place_of_adjective(word[:-1]) if word.endswith("s") else None)
    if key is None:
        return cands
    lex = place_lexicon()
    best = table.display(table.entities[cands[0][0]])
    inner = re.search(r"\(([^()]+)\)$", best)
    if lex.resolve(inner.group(1) if inner else best) == key:
        return cands  # the tier's name is of that place already
    have = {e for e, _ in cands}
    hits = [table.display_entity_id[p] for p in places if p in table.display_entity_id and lex.resolve(p) == key]
    return list(cands) + [(int(e), DEMONYM_SCORE) for e in dict.fromkeys(hits) if e not in have]


# a group ICEWS has no entity of its own for: its actors are filed under several sector names
# qualified by the group ("Militant_(Taliban)", "Combatant_(Taliban)", "Guerrilla_(Taliban)"),
# so a question's bare "the Taliban" names any of them; which one a fact uses is the KG's
_GROUP_CACHE: dict[object, dict[str, list[int]]] = {}  # kg.table.table_cache_key -> folded qualifier -> ids


def _group_index(table) -> dict[str, list[int]]:
    """Folded "(qualifier)" of the KG's names → their entity ids, the most frequent first
    (facts as subject or object): the likelier reading of a bare group name is tried first."""
    idx = _GROUP_CACHE.get(table_cache_key(table))
    if idx is None:
        n = len(table.entities)
        freq = np.bincount(np.asarray(table.s), minlength=n) + np.bincount(np.asarray(table.o), minlength=n)
        idx = {}
        for e, raw in enumerate(table.entities):
            m = re.search(r"\(([^()]+)\)$", table.display(raw))
            if m:
                idx.setdefault(_group_key(m.group(1)), []).append(e)
        for ids in idx.values():
            ids.sort(key=lambda e: -int(freq[e]))
        idx = _GROUP_CACHE[table_cache_key(table)] = idx
    return idx


def group_sectors(mention: str, cands: Candidates, table) -> Candidates:
    """``cands`` with the other "<sector> (<mention>)" names appended when the best candidate
    is such a name and the mention is no KG name itself: "the **Taliban** expressed the intent
    for diplomatic cooperation" grounds to Militant (Taliban) by similarity, while the fact is
    Combatant (Taliban)'s. Each is a further reading, the KG decides (primary first). Only a
    capitalised mention (a name; a sector noun is the actor grammar's).

    A mention no tier grounds (``cands`` empty) that names a group the KG files only under
    sectors ("al-Qaeda" is no KG name, and its cosine to Extremist (Al Qaeda) stays under the
    threshold, but the KG holds Combatant (Al Qaeda), Armed Gang (Al Qaeda), ...; tccrag14)
    reads all those actors, the most frequent first, each at :data:`GROUP_NAME_SCORE` (the KG
    decides). The group and its actors are nlu's actor grammar's
    (:meth:`tkgqa_ray.nlu.actors.ActorGrammar.group_of`, the reading SCoP takes of the name);
    before tccrag24, an index of TCC-RAG's own (``_group_names``). Only a name (capitalised, or
    after an Arabic article) that is no KG entity's own and no place: "Somalia" qualifies
    dozens of sectors and names none of them."""
    bare = drop_article(mention)
    if not cands:
        if not _group_like(bare) or bare in table.display_entity_id or place_lexicon().is_place(bare):
            return []
        return [(e, GROUP_NAME_SCORE) for e in EntityMatcher.for_table(table).actors.group_of(bare)]
    if not _group_like(bare) or bare in table.display_entity_id:
        return cands
    best = re.fullmatch(r"[^()]+ \(([^()]+)\)", table.display(table.entities[cands[0][0]]))
    if best is None or _group_key(best.group(1)) != _group_key(bare):
        return cands
    have = {e for e, _ in cands}
    score = cands[0][1]
    return list(cands) + [(e, score) for e in _group_index(table).get(_group_key(bare), []) if e not in have]


def _group_key(name: str) -> str:
    """A group qualifier's lookup form: folded, a hyphen read as a space ("al-Qaeda in Iraq",
    "Al Qaeda")."""
    return re.sub(r"\s*-\s*", " ", fold(name))


def _group_like(bare: str) -> bool:
    """A mention written as a name: capitalised, or opening with an Arabic article ("al-Qaeda")."""
    return bare[:1].isupper() or re.match(r"(?i)(al|el)\b", bare) is not None


# an organisation the KG has an entity of its own for AND files some events under a sector of
# it ("Hellenic_Armed_Forces" and "Armed_Force_(Hellenic_Armed_Forces)"): the name written
# alone may mean either, so its own entity stays the best candidate and the sector actors
# follow as further readings (SCoP's refs24 rule; nlu.actors.group_members, shared)
MEMBER_SCORE = GROUP_MEMBER_WEIGHT  # nlu.actors' one weight for a group's sector actors (SCoP's MEMBER_WEIGHT too)


def with_group_members(cands: Candidates, table) -> Candidates:
    """``cands`` with the ``<Sector>_(X)`` actors of its best candidate X appended
    (:func:`tkgqa_ray.nlu.actors.group_members`: X a plain KG name that is no place), each a
    further reading scored :data:`MEMBER_SCORE`; the name's own facts come first, the KG
    decides when it has none for the clause. Before, "the Hellenic Armed Forces visited
    China" read only Hellenic_Armed_Forces, whose visit the KG files under
    Armed_Force_(Hellenic_Armed_Forces) (d17-0022)."""
    if not cands or table is None:
        return cands
    have = {int(e) for e, _ in cands}
    extra = [(x, MEMBER_SCORE) for x in group_members(table).get(int(cands[0][0]), ()) if x not in have]
    return list(cands) + extra if extra else cands


GROUP_NAME_SCORE = 0.85  # as a name-parts match: a reading by naming rule, at the grounding threshold


_FUZZY_CACHE: dict[object, list[str]] = {}  # kg.table.table_cache_key -> folded names


def _fuzzy(mention: str, table) -> tuple[int, float] | None:
    """The KG entity whose folded display name is closest to the folded mention by
    ``fuzz.ratio`` (≥ :data:`FUZZY_CUTOFF`) as (entity index, ratio in [0, 1]), or None.

    ``process.extractOne`` scans the 10,488 names in C with the cutoff pruning each
    comparison (difflib's ``get_close_matches`` did the same scan in Python). Ties keep the
    first name in table order (the index of an entity, so a name shared by two entities maps
    to the first, as before)."""
    names = _FUZZY_CACHE.get(table_cache_key(table))
    if names is None:
        names = _FUZZY_CACHE[table_cache_key(table)] = [fold(table.display(e)) for e in table.entities]
    hit = process.extractOne(fold(mention), names, scorer=fuzz.ratio, processor=None,
                             score_cutoff=FUZZY_CUTOFF * 100)
    if hit is None:
        return None
    _, score, i = hit
    return int(i), float(score) / 100.0


def gazetteer_candidates(question: str, table) -> list[tuple[str, Candidates, int, int]]:
    """The cheap path: exact longest matches of KG names and actor references →
    (surface, [(entity id, score), ...] best first, start, end); actor references such as
    "the Kenyan police" and colliding names carry several candidates."""
    return [(m.text, [(int(e), float(sc)) for e, _, sc in m.candidates], m.start, m.end)
            for m in EntityMatcher.for_table(table).match(strip_wrapper(question))]


def symbolic_arbiter(inputs: dict[str, Any], ctx=None) -> dict[str, Any]:
    """Resolve disagreeing paths: keep candidates written in the question — verbatim, or
    through the surface a path matched ("the Thai citizens" for ``Citizen (Thailand)``:
    actor references never spell the KG name) — and drop one whose every occurrence lies
    inside a longer kept one's (``Thailand`` inside "citizens from Thailand"); none written
    → the union."""
    q = inputs["question"]
    cands = list(dict.fromkeys(list(inputs.get("path_a", [])) + list(inputs.get("path_b", []))))
    surfaces = inputs.get("surfaces") or {}

    def spans(c: str) -> list[tuple[int, int]]:
        out = set()
        for form in [c] + list(surfaces.get(c, [])):
            if form:
                out.update(name_spans(q, form))
        return sorted(out)

    occ = {c: spans(c) for c in cands}
    written = [c for c in cands if occ[c] or mentioned(q, c)]
    if not written:
        return {"entities": cands}
    keep = []
    for c in written:
        inside = bool(occ[c]) and all(
            any(a2 <= a and b <= b2 and (b2 - a2) > (b - a) for d in written if d != c for a2, b2 in occ[d])
            for a, b in occ[c])
        if not inside:
            keep.append(c)
    return {"entities": keep}


# ----------------------------------------------------------------------------- relation / roles
_AUX = r"(?:did|does|do|has|have|had|will|would|was|were|is|are)"
# a possessive determiner between the auxiliary and the subject's name ("did **Bangladesh's**
# Rapid Action Battalion arrest"): a name of up to four capitalised words with "'s" (or a
# bare "'" after -s), part of the subject's noun phrase, so the name after it is still the
# subject; case-sensitive inside the case-insensitive patterns that use it
_POSSESSOR = r"(?:(?-i:[A-Z][\w.-]*)\s+){0,3}(?-i:[A-Z][\w.-]*)(?:['’]s|(?<=s)['’])\s+"
# question scaffolding the relation phrase must not carry ("at some point", "among all parties")
_NOISE = re.compile(
    r"\b(?:at\s+(?:some|any)\s+(?:point|time)|among\s+all\s+(?:parties|entities)|tell\s+me|"
    r"the\s+(?:very\s+)?(?:final|first|last)\s+one|exactly|parties|entities|(?:\d+\s+)?days?|weeks?)\b",
    re.I,
)


def symbolic_relation_parser(inputs: dict[str, Any], ctx=None) -> dict[str, Any]:
    """Roles from word order: an anchor right after an auxiliary is the subject ("did China
    visit"), an anchor after the verb is the object ("who visited Iraq"); the reference entity
    of a temporal cue is not an anchor. The phrase is the clause minus names, times, cue words."""
    q = inputs["question"]
    ents = inputs.get("entities", [])  # [{"name", "mention", "start", "end"}]
    refs = set(inputs.get("reference_entities") or ([inputs["reference"]] if inputs.get("reference") else []))
    rspan = inputs.get("reference_span")
    if rspan:  # occurrences inside the cue clause belong to the reference event
        anchors = [e for e in ents if not (rspan[0] <= e["start"] < rspan[1])]
    else:
        anchors = [e for e in ents if e["name"] not in refs]
    an = clause_analysis(q, ctx) if ctx is not None and getattr(ctx, "table", None) is not None else None
    anchors = _participant_occurrences(anchors, an.wh_span if an is not None else None)
    sig = cue_signals(q, ctx)
    spans = [(e["start"], e["end"]) for e in ents] + list(sig.time_spans) + list(sig.wrapper_spans)
    if an is not None:
        # nlu's wrapper spans also cover an exclusion ("Apart from X, ..."): no relation words
        spans += list(an.wrapper)
        if an.wh_span:  # "Which actors ... were the topic of": the wh-phrase's noun is no relation word
            wh = an.wh_span
            prep = re.match(r"(?:with|to|for|from|against|by|of|on|at|in|about)\s+", q[wh[0]:wh[1]], re.I)
            spans.append((wh[0] + prep.end(), wh[1]) if prep else wh)
    if sig.order_span:
        spans.append(sig.order_span)
    if rspan:
        spans.append(tuple(rspan))
    phrase = relation_phrase(_NOISE.sub(" ", mask_spans(q, spans)), keep_particle=True)
    ref_names = list(inputs.get("reference_entities") or [])
    pro_form = bool(rspan) and _pro_form(phrase) and bool(inputs.get("reference_phrase")) and not _destination(
        mask_spans(q, [tuple(rspan)]), phrase)
    if pro_form:  # "who was the first to do the same?": the action is the reference clause's
        phrase = inputs["reference_phrase"]
    elif rspan and inputs.get("reference_phrase") and SAME_ACTION_RE.search(mask_spans(q, [tuple(rspan)])):
        # "whom had they last threatened **that way**", "had X last expressed **that
        # intention**": the main verb echoes the reference clause's action, the clause says
        # which ("threatened with military force", "expressed an intention to cooperate
        # diplomatically"); before, the bare verb grounded to the generic relation
        phrase = inputs["reference_phrase"]
    elif rspan and inputs.get("reference_phrase") and an is not None and _pro_object(q, an):
        # "to whom had Y last pledged **it**?", "who was the next person he **said that**
        # about?": the closing pro-form object is the reference's action (nlu's rule, the one
        # SCoP's main phrase takes, next29); before, "said about" read Make_statement (tccrag23)
        phrase = inputs["reference_phrase"]
    atype = sig.answer_type
    subj = obj = None
    if atype == "time":
        asked = "time"
        if len(anchors) >= 2:
            first, second = anchors[0], anchors[1]
            if _passive_agent_second(q, first, second):  # "When was X visited by Y": Y is the subject
                first, second = second, first
            subj, obj = first["name"], second["name"]
        elif anchors:
            subj = anchors[0]["name"]
            if not re.search(rf"\b{_AUX}\s+(?:the\s+)?(?:{_POSSESSOR})?{re.escape(anchors[0]['mention'])}", q, re.I):
                subj, obj = None, anchors[0]["name"]
        if rspan and len(ref_names) == 2 and (subj is None or obj is None):
            # "After X consulted Y, when did Z first host **him**?", "..., what year did **they**
            # first consult W?": a main-clause pronoun stands for a name of the full reference event
            qmp = mask_spans(q, [tuple(rspan)] + list(sig.wrapper_spans))
            if len(anchors) == 1 and subj is None and _pronoun_beside_subject(qmp, anchors[0]):
                subj, obj = anchors[0]["name"], None  # "was he criticised by X", "saw X praise her" (tccrag24)
            subj, obj = _pronoun_slots(qmp, ents, ref_names, subj, obj, _asked_action(ctx, phrase))
    else:
        a = anchors[0] if anchors else None
        slot = _open_slot(q, a, ctx) if a is not None else None
        # the word-order rules read the main clause only: "in which Iran held talks" inside a
        # fronted reference clause is not "which Iran ..." of the question
        qm = mask_spans(q, [tuple(rspan)]) if rspan else q
        pro = _pronoun_anchor(ref_names, rspan, ctx, q) if a is None else None
        stated = _stated_event(q, anchors, ref_names, rspan) if a is not None else None
        if stated is not None:
            obj, asked = stated, "subject"
        elif pro is not None:
            slot, name = pro
            subj, obj = (name, None) if slot == "subject" else (None, name)
            asked = "object" if slot == "subject" else "subject"
        elif a is None and pro_form and len(ref_names) == 2:
            # "X condemned Y. After that, who was the first to do the same?": a pro-verb repeats
            # the reference event's predicate, its object included; the wh-phrase is its subject
            obj, asked = ref_names[1], "subject"
        elif a is None and rspan and len(ref_names) == 2 and not _main_passive(qm):
            # a main clause with no participant named ("who was the first visitor?", "who was
            # the next to visit?", "who made the same visit?") repeats the full reference
            # event with its subject replaced by the wh-phrase: the object carries over
            phrase = _agent_verb(phrase)
            obj, asked = ref_names[_carried(inputs.get("reference_phrase") or "", phrase, ctx)], "subject"
        elif a is None:
            asked = "object"
        elif (x := _possessed_subject(qm, anchors)) is not None:
            subj, asked = x["name"], "object"
        elif slot is not None:
            # the clause analysis of nlu (shared by every method): "X criticised whom",
            # "the last one (that) X visited", "who did X visit" ask the object; "who visited X",
            # "who was X visited by" the subject
            if slot == "object":
                subj, asked = a["name"], "object"
            else:
                obj, asked = a["name"], "subject"
        elif re.search(rf"\b{_AUX}\s+(?:the\s+)?(?:{_POSSESSOR})?{re.escape(a['mention'])}", qm, re.I) or re.search(
            # embedded order after a wrapper: "(Do you know) which country China visited"; a
            # contact clause after an indefinite: "(Was there) anyone China visited"
            rf"\b(?:whom?|anyone|anybody|someone|somebody|(?:which|what)(?:\s+\w+)?)\s+(?:the\s+)?{re.escape(a['mention'])}\b",
            qm, re.I
        ):
            subj, asked = a["name"], "object"
        else:
            obj, asked = a["name"], "subject"
    return {"relation_phrase": phrase, "subject": subj, "object": obj, "asked": asked}


def _participant_occurrences(anchors: list[dict], wh: tuple[int, int] | None) -> list[dict]:
    """One occurrence per name, in question order: the first outside the wh-phrase when the name
    occurs there too ("What was the very last party **from Colombia** that **Colombia** spoke
    about?": the wh-phrase's place qualifies the asked entity; the clause's own "Colombia" is the
    participant whose word order tells its slot). Before, the first occurrence (the qualifier)
    was the anchor, and nlu's slot of the clause's name did not apply to it (tccrag23)."""
    def inside(e: dict) -> bool:
        return wh is not None and wh[0] <= e["start"] < wh[1]

    keep: dict[str, dict] = {}
    for e in anchors:
        k = keep.get(e["name"])
        if k is None or (inside(k) and not inside(e)):
            keep[e["name"]] = e
    chosen = {id(e) for e in keep.values()}
    return [e for e in anchors if id(e) in chosen]


def _pro_object(q: str, an) -> bool:
    """True when nlu's clause analysis reads the asked clause's closing "it / that / this" as
    the reference's action (:func:`tkgqa_ray.nlu.analysis._pro_object_action`, the rule SCoP's
    main phrase follows): an entity question whose main clause has its doer and asks the other
    role (tccrag23)."""
    return an.answer_type == "entity" and bool(an.refs) and _pro_object_action(q, an.main, an.refs[0]) is not None


_SENTENCE_END_RE = re.compile(r"[.;!?:](?=\s)")


def _stated_event(q: str, anchors: list[dict], ref_names: list[str], rspan) -> str | None:
    """The object of an event a statement before the question states, which the question's
    pro-verb repeats: "Scientist (China) rejected China. Who was the first to do so after
    Scientist (China)?", "Obama wasn't alone in pledging cooperation to Malaysia; who did so
    prior to Obama?". The question's sentence names nobody outside its reference clause; the
    statement names the reference's one name and one other, which carries over as the object
    (the wh-word asks the subject, the reference name is the reference event's subject).
    Before, the first name written (the reference's own) filled the main object slot."""
    if not rspan or len(ref_names) != 1:
        return None
    cuts = [m.end() for m in _SENTENCE_END_RE.finditer(q, 0, rspan[0])]
    if not cuts:
        return None
    cut = cuts[-1]
    if any(e["start"] >= cut for e in anchors):
        return None  # the question's own sentence names a participant
    stated = {e["name"] for e in anchors}
    others = [n for n in dict.fromkeys(e["name"] for e in anchors) if n not in ref_names]
    if ref_names[0] not in stated or len(others) != 1:
        return None
    return others[0]


def _possessed_subject(qm: str, anchors: list[dict]) -> dict | None:
    """The anchor that do-support makes the subject past a possessive determiner: "who did
    **Bangladesh's** Rapid Action Battalion arrest" has the auxiliary, then the subject's noun
    phrase (the possessor is its determiner, not a participant of its own), then the bare
    verb, so the name after the possessor is the subject and the object is asked. Before,
    the possessor (grounded or not) hid the name from the auxiliary rule, and nlu's slot read
    the name as the object."""
    return next((x for x in anchors if re.search(
        rf"\b(?:did|does|do)\s+(?:the\s+)?{_POSSESSOR}{re.escape(x['mention'])}", qm, re.I)), None)


# what a pro-verb leaves of a main clause's phrase once the scaffolding is gone ("do the same",
# "do so", "do likewise", "did the same thing too"), or a verb of sequence whose action is the
# reference clause's gerund ("Who came soonest following X in threatening Y?"), with the rank
# adverbs the phrase may keep: no action word of its own
_PRO_FORM_WORDS = {"same", "so", "likewise", "similarly", "too", "also", "thing", "as", "well",
                   "came", "come", "comes", "went", "soonest", "earliest", "latest", "most", "recently"}


def _pro_form(phrase: str) -> bool:
    """True when a main clause's relation phrase carries no action of its own: a pro-verb
    ("who was the first to do the same / do so / do likewise?") or nothing at all."""
    return all(w in _PRO_FORM_WORDS for w in phrase.lower().split())


_MOTION_WORDS = {"came", "come", "comes", "went"}
_WHERE_RE = re.compile(r"\bwhere\b", re.I)


def _destination(qm: str, phrase: str) -> bool:
    """True when a main clause's "went" / "came" is a verb of motion, not of sequence: the
    question asks where ("where Yen Ming went first after speaking about China"), so the
    wh-word is the destination -- a visit (the lexicon's "went" = ``Make_a_visit``). A verb of
    sequence takes no place ("who came soonest following X in threatening Y?"). ``qm``: the
    question with the reference clause masked. Before, "went" read as a pro-form and the
    main action became the reference clause's (Yen Ming's next statement, not his visit)."""
    return bool(_MOTION_WORDS & set(phrase.lower().split())) and bool(_WHERE_RE.search(qm))


_PASSIVE_RE = re.compile(r"\b(?:was|were|been|being|got|get)\s+(?:\w+ly\s+)?(?!(?:then|when|often|even)\b)\w+(?:ed|en|wn)\b", re.I)


def _main_passive(qm: str) -> bool:
    """A passive main clause ("who was visited first?"): the wh-phrase is the object then, so
    a name-less main clause cannot take over the reference event's object."""
    return bool(_PASSIVE_RE.search(qm))


_AGENT_NOUN = re.compile(r"(\w{3,}?)(at)?(?:or|er)s?", re.I)


def _agent_verb(phrase: str) -> str:
    """The verb of a lone agent noun ("visitor" -> "visit", "mediator" -> "mediate",
    "supporters" -> "support"): "who was the first visitor?" asks the subject of that verb,
    and the relation lexicon lists verbs, not their agent nouns (the embedding fallback alone
    may rank ``Host_a_visit`` first for "visitor"). Any other phrase is returned as is."""
    m = _AGENT_NOUN.fullmatch(phrase.strip())
    if not m:
        return phrase
    return m.group(1) + ("ate" if m.group(2) else "")


def _carried(ref_phrase: str, phrase: str, ctx) -> int:
    """Which reference name a name-less main clause keeps as its object: the reference's
    object (1) when both clauses tell the event the same way round ("After X visited Y, who
    was the next to visit?"), its subject (0) when the reference is the converse ("After Y
    welcomed X, who was the next to visit?": Y hosted, so Y is the one visited). Converse =
    the reference's best relation reading comes first among the main phrase's readings of
    that relation with the other ``swap`` (the lexicon's "visit" = ``<> Host_a_visit``)."""
    if ctx is None or not ref_phrase or not phrase or getattr(ctx, "embeddings", None) is None:
        return 1
    from tkgqa_ray.nlu.relations import ground_relation

    rel = ctx.table.relations
    ref = ground_relation(ref_phrase, ctx.embeddings, 3, rel)
    if not ref:
        return 1
    top = ref[0]
    same = [c.swap for c in ground_relation(phrase, ctx.embeddings, 3, rel) if c.id == top.id]
    return 0 if same and same[0] != top.swap else 1


# a personal pronoun in the subject slot: after an auxiliary of a question's inversion ("did
# **they** first consult", "had **he** last visited"); "was it" / "is it" open a cleft, no slot
_SUBJECT_PRONOUN_AFTER_AUX = re.compile(r"\b(?:did|does|do|had|has|have|will|would)\s+(he|she|it|they)\b(?!\s+(?:that|take|happen)\b)", re.I)
# tccrag24: a personal pronoun as the subject of a passive main clause ("was **he** criticised by
# Japan", "**they** were condemned by X"): the clause's patient, its object slot; and a bare
# subject-case pronoun opening a clause without an inverted auxiliary ("the last time ... that
# **he** made a demand of X", "the last year **they** tortured X"): "he / she / they" are
# subject case whatever precedes them
_PARTICIPLE = r"(?:\w+ly\s+)?\w+(?:ed|en|wn|t|ung|ought)"
_PASSIVE_PRONOUN_RE = re.compile(
    rf"\b(?:was|were|is|are|(?:had|has|have)\s+been)\s+(he|she|it|they)\s+(?:first\s+|last\s+)?{_PARTICIPLE}\s+by\b"
    rf"|\b(he|she|it|they)\s+(?:was|were|is|are|(?:had|has|have)\s+been)\s+(?:first\s+|last\s+)?{_PARTICIPLE}\s+by\b", re.I)
_BARE_SUBJECT_PRONOUN_RE = re.compile(r"\b(he|she|they)\b(?=\s+[a-z]+)", re.I)
_BEFORE_PRONOUN_AUX_RE = re.compile(r"\b(?:was|were|is|are|been)\s+$", re.I)


def _pronoun_beside_subject(qm: str, anchor: dict) -> bool:
    """True when the one name of a time question's main clause is its subject beside a pronoun
    that stands for the other participant (tccrag24): the agent of a passive whose subject is
    the pronoun ("On which dates after X ... was **he** criticised **by Japan**?": Japan
    criticised him), or a name before its verb and an object pronoun after it ("... saw
    **Argentina's Congress** praise **her**"). The pronoun then fills the object slot
    (:func:`_pronoun_slots`). Before, a name with no auxiliary before it was read as the object
    (TCC-RAG's word-order rule), and the pronoun filled no slot."""
    a, b = anchor["start"], anchor["end"]
    if a < 0:
        return False
    m = _PASSIVE_PRONOUN_RE.search(qm)
    if m is not None:
        return m.end() <= a and qm[m.end():a].strip().lower() in ("", "the")
    if _BARE_SUBJECT_PRONOUN_RE.search(qm[:a]) or _SUBJECT_PRONOUN_AFTER_AUX.search(qm[:a]):
        return False
    o = OBJECT_PRONOUN_RE.search(qm, b)
    return o is not None and o.group(1).lower() in ("him", "her", "them") and re.fullmatch(
        r"\s+(?:\w+ly\s+)?[a-z]+\s+(?:(?:to|with|on|about|for|against|at|of)\s+)?", qm[b:o.start()], re.I) is not None


# the word at a known position, as a match object (group(1), start()) like the pronoun patterns'
_WORD_AT_RE = re.compile(r"(\w+)")


def _pronoun_slots(qm: str, ents: list[dict], ref_names: list[str], subj: str | None,
                   obj: str | None, acts=None) -> tuple[str | None, str | None]:
    """(subject, object) of a time question's main clause with its empty slot(s) filled by
    the reference name a personal pronoun of that slot stands for. ``qm``: the question with
    the reference clause (and wrapper) masked; ``ref_names``: the full reference event's two
    names, (subject, object).

    A subject pronoun follows the inverted auxiliary ("did **they** first consult W"), an
    object pronoun follows the verb ("first host **him**", "cooperate with **him**",
    ``OBJECT_PRONOUN_RE``: not a passive agent's "by them"). The pronoun stands for the
    reference name that agrees with it (nlu's :func:`antecedent`: "him" is a person, not
    the Democratic Left), among equals the one in the same slot (parallel clauses: "After
    X visited Y, when did **it** first host Z" is X). Two pronouns of one clause are two
    participants ("when had **they** last consulted **them**": a plain pronoun object is
    never its own clause's subject), so the second takes the other name.

    Before, the pronoun was no slot filler: the chain read every event of the one named
    participant (SCCI/OCCI instead of TEG), and its first or last was another event's time.

    ``acts`` (:func:`_asked_action`): (subject, object) -> whether the KG holds the asked
    action between them. Of the names that agree with the pronoun as well -- a name of
    unknown gender counts as well as one of the pronoun's, since it may be that very person
    ("in the year **Wen Jiabao** expressed his intent to meet Pervez Musharraf, on which
    dates did **he** sign agreements with Shaukat Aziz": the name lists know Musharraf as a
    man, not Wen) -- the one ``acts`` finds with the clause's own name, in the pronoun's
    slot, wins when it is the only one (SCoP's refs19 reading); else the rule above. Before,
    the known man won outright, and his events with the clause's name (an other relation)
    answered."""
    m_subj = _SUBJECT_PRONOUN_AFTER_AUX.search(qm) if subj is None else None
    m_pass = _PASSIVE_PRONOUN_RE.search(qm)
    if m_pass is not None:
        # "was **he** criticised by X": the passive's subject pronoun is the patient (tccrag24)
        m_subj = None
    elif subj is None and m_subj is None:
        # "... that **he** made a demand of X": a bare subject-case pronoun (tccrag24)
        m_subj = next((m for m in _BARE_SUBJECT_PRONOUN_RE.finditer(qm) if not _BEFORE_PRONOUN_AUX_RE.search(qm[:m.start()])), None)
    m_obj = None
    if obj is None and m_pass is not None:
        m_obj = _WORD_AT_RE.match(qm, m_pass.start(1) if m_pass.group(1) else m_pass.start(2))
    elif obj is None:
        m_obj = next((m for m in OBJECT_PRONOUN_RE.finditer(qm)
                      if not (m_subj and m.start() == m_subj.start(1))
                      and not re.search(r"\b(?:did|does|do|had|has|have|will|would|was|is)\s+$", qm[:m.start()], re.I)), None)
        # a place adverb ending the main clause is its object, a country of the reference
        # ("Before Loretta Lynch visited Colombia, when had Zhang Dejiang last gone **there**?":
        # Colombia; agreement takes countries only). Before (tccrag16) the slot stayed empty
        m_obj = m_obj or PLACE_ADVERB_RE.search(qm)
    surf = {}
    for e in ents:
        surf.setdefault(e["name"], e.get("mention") or e["name"])
    taken = {subj, obj} - {None}
    for m, slot in sorted(((m, sl) for m, sl in ((m_subj, "subject"), (m_obj, "object")) if m is not None),
                          key=lambda t: t[0].start()):
        order = list(ref_names) if slot == "subject" else list(ref_names[::-1])
        order = [n for n in order if n not in taken]
        k = antecedent(m.group(1), [(surf.get(n, n), n) for n in order]) if order else None
        if k is None:
            continue
        k = _acting_antecedent(m.group(1), order, surf, k, slot, subj if slot == "object" else obj, acts)
        taken.add(order[k])
        if slot == "subject":
            subj = order[k]
        else:
            obj = order[k]
    return subj, obj


def _acting_antecedent(pronoun: str, order: list[str], surf: dict, k: int, slot: str, own: str | None, acts) -> int:
    """The index of the name a pronoun stands for among ``order`` (``k``: agreement's pick):
    of the names that agree as well as the pick, or agree 2 and are of unknown kind, the only
    one the asked action links to the clause's own name ``own`` with the pronoun in ``slot``;
    ``k`` when there is not exactly one (or no ``acts`` / ``own``). See :func:`_pronoun_slots`."""
    if acts is None or own is None or len(order) < 2:
        return k
    feats = [features(surf.get(n, n), n) for n in order]
    scores = [agreement(pronoun, f) for f in feats]
    pool = [j for j, (f, sc) in enumerate(zip(feats, scores)) if sc == scores[k] or (sc == 2 and f.kind == "unknown")]
    if len(pool) < 2:
        return k
    acted = [j for j in pool if (acts(order[j], own) if slot == "subject" else acts(own, order[j]))]
    return acted[0] if len(acted) == 1 else k


def _asked_action(ctx, phrase: str):
    """(subject name, object name) -> True when the KG holds a fact of the phrase's best
    relation reading between the two (read in its direction), or None without a KG / a
    reading: the evidence :func:`_acting_antecedent` decides a pronoun's tie with."""
    table = getattr(ctx, "table", None)
    if table is None or getattr(ctx, "embeddings", None) is None or getattr(ctx, "store", None) is None or not phrase:
        return None
    from tkgqa_ray.nlu.relations import ground_relation

    top = ground_relation(phrase, ctx.embeddings, 3, table.relations)[:1]
    if not top:
        return None
    ids = table.display_entity_id

    def acts(subj: str, obj: str) -> bool:
        a, b = ids.get(subj), ids.get(obj)
        if a is None or b is None:
            return False
        if top[0].swap:
            a, b = b, a
        return len(ctx.store.query(subject=a, object=b, relation=top[0].id)) > 0

    return acts


def _pronoun_anchor(ref_names: list[str], rspan, ctx, q: str) -> tuple[str, str] | None:
    """A main clause with no name of its own whose participant is a pronoun standing for one
    of a full reference event's names ("After X occupied territory of China, who was the
    first to occupy it?", "Earlier than the journalists' request to Y, who did they make an
    appeal to?"): (the pronoun's slot, the name it stands for), or None.

    The pronoun and the slot the wh-phrase asks relative to it are nlu's (``Clause.pronoun``
    and ``Clause.open_slot`` of the main clause: ``it`` in "who first occupied it" is the
    object, ``they`` in "who did they appeal to" the subject, so the wh-phrase asks the other
    slot). It stands for the reference name nlu's :attr:`Clause.antecedent` gives (the one
    that agrees with it, else the participant in the same slot: parallel clauses, "After X
    visited Y, who visited it?" repeats Y), the reference names being in (subject, object)
    order. Before, such a main clause had no anchor and no route: the
    question got no structured answer. (Until the ``tccrag3`` round TCC-RAG found the
    pronoun itself, a copy of nlu's rule; on dev3-dev5 the two differ on one question, where
    nlu rightly reads "earlier than **it**" as the anaphor, and its answer is the same.)"""
    if ctx is None or len(ref_names) != 2 or not rspan or getattr(ctx, "table", None) is None:
        return None
    a = clause_analysis(q, ctx)
    if a.answer_type != "entity" or a.main.mentions or a.main.pronoun is None or a.main.open_slot is None:
        return None
    slot = "subject" if a.main.open_slot == "object" else "object"
    # the name nlu's antecedent rule picks (agreement, then the pronoun's own slot: "who had
    # **she** last made a statement about" after "X offered support to Lucia Zitnanska" is
    # Zitnanska), when it is one of this clause's names
    ante = a.main.antecedent
    if ante is not None:
        for n in ref_names:
            if n.replace(" ", "_") in {x.replace(" ", "_") for x in ante.names[:1]}:
                return slot, n
    return slot, ref_names[0] if slot == "subject" else ref_names[1]


def _passive_agent_second(q: str, first: dict, second: dict) -> bool:
    """``When was X visited by Y``: the second name is the agent (nlu's passive rule)."""
    from tkgqa_ray.nlu.analysis import passive_agent_first

    ms = [SimpleNamespace(start=e["start"], end=e["end"]) for e in (first, second)]
    return ms[0].start >= 0 and ms[1].start > ms[0].end and passive_agent_first(q, ms)


def _open_slot(q: str, anchor: dict, ctx) -> str | None:
    """The asked role of the main event relative to ``anchor`` as nlu's clause analysis reads it
    (``analyze``: wh-phrase vs name order, passives, embedded and relative-clause order), when
    nlu's first main-clause name is the same span as ``anchor``; None otherwise (no context,
    or the two groundings disagree on the name: the word-order fallback decides).

    Before this, the stand-in only knew "auxiliary + name" as subject position, so statement
    order ("X made remarks about whom") and relative clauses ("the last one that X visited")
    put the subject in the object slot: the chain was read on the wrong index (OCCI instead of
    SCCI) and an elliptic reference could not be resolved."""
    if ctx is None or anchor.get("start", -1) < 0 or getattr(ctx, "table", None) is None:
        return None
    a = clause_analysis(q, ctx)
    if a.answer_type != "entity" or not a.main.mentions or a.main.open_slot is None:
        return None
    m = a.main.mentions[0]
    if m.start < anchor["end"] and anchor["start"] < m.end:
        return a.main.open_slot
    return None


clause_analysis = context_analysis  # the same cached analysis SCoP's roles read


def symbolic_single_parser(inputs: dict[str, Any], ctx: "RunContext") -> dict[str, Any]:
    """wo_pqp stand-in: one pass — capitalised spans grounded by the embedding top-1 (no
    threshold, no cross-check), roles and phrase from the same word-order rules."""
    q = inputs["question"]
    runs = capitalised_runs(q)
    ents = []
    if runs:
        scores, ids = ctx.embeddings.search("entity", [q[a:b] for a, b in runs], 1)
        for (a, b), ix in zip(runs, ids):
            if len(ix) and int(ix[0]) >= 0:
                ents.append({"name": ctx.table.display(ctx.table.entities[int(ix[0])]), "mention": q[a:b], "start": a, "end": b})
    sig = cue_signals(q, ctx)
    ref = None
    if sig.order_span:
        after = [e for e in ents if e["start"] >= sig.order_span[1] and re.fullmatch(r"\s*(?:the\s+)?", q[sig.order_span[1]:e["start"]], re.I)]
        ref = after[0]["name"] if after else None
    out = symbolic_relation_parser({"question": q, "entities": ents, "reference": ref})
    out["entities"] = [e["name"] for e in ents]
    out["reference"] = ref
    return out


def symbolic_answerer(inputs: dict[str, Any], ctx=None) -> dict[str, Any]:
    """Reads the chain: the asked slot of the evidence facts, earliest/latest first when the
    question selects first/last (the chain is already TEMPORALSELECTed)."""
    from tkgqa_ray.retrieval.answers import candidate_answers, question_entities, slot_answers

    q = inputs["question"]
    sig = cue_signals(q, ctx)
    keys = inputs.get("fact_keys", [])
    if inputs.get("asked") in ("subject", "object", "time"):
        answers = slot_answers(keys, inputs["asked"], sig.granularity, sig.select or _adjacent(q, sig))
        answers = _written_last(_main_clause(q, ctx), [a for a in answers if a not in _excluded_names(q, ctx)])
        if inputs["asked"] != "time" and answers and sig.select is None:
            other = _else_names(q, ctx)
            answers = [a for a in answers if a not in other] + [a for a in answers if a in other]
        return {"answers": answers}
    return {"answers": candidate_answers(q, keys, select=sig.select, mentioned_names=question_entities(q, ctx))}


def _main_clause(q: str, ctx) -> str:
    """``q`` with nlu's reference clauses blanked (``mask_spans``): the main clause's words."""
    if ctx is None or getattr(ctx, "table", None) is None:
        return q
    return mask_spans(q, [(r.span[0], r.span[1]) for r in clause_analysis(q, ctx).refs])


def _written_last(qm: str, answers: list[str]) -> list[str]:
    """Entity answers with the names the main clause ``qm`` writes moved after the others, in
    their order (``retrieval.answers.mentioned``: whole words): a "who" question asks for
    someone the asker does not name in the same clause ("Could you tell me who arrested
    people in **Tanzania** in 2006?" -- the Tanzanian police, not Tanzania, the place of the
    arrested). The written name stays an answer (an actor can act on itself). A name of the
    reference clause is not moved: the asked participant may well be the reference event's
    ("1 day in the wake of Togo's visit to **France**, whom did Buhari seek talks with?").
    Before, a frequent written name was ranked first. Time answers are never names."""
    if not answers or _TIME_ANSWER_RE.match(answers[0]):
        return answers
    return sorted(answers, key=lambda a: mentioned(qm, a))


_TIME_ANSWER_RE = re.compile(r"\d{4}(?:-\d{2}){0,2}$")


def _excluded_names(q: str, ctx) -> set[str]:
    """Names the question excludes from the answer ("Apart from X, who ...", "other than X"):
    nlu's ``excluded`` mentions, best candidate, as answers are written (no underscores)."""
    if ctx is None or getattr(ctx, "table", None) is None:
        return set()
    return {m.names[0].replace("_", " ") for m in clause_analysis(q, ctx).excluded if m.names}


def _else_names(q: str, ctx) -> set[str]:
    """The names a "who else" / "whom else" question sets apart (tccrag24): those nlu reads in
    its reference clauses (best candidate, as answers are written), the participant whose
    event the question compares with ("Who **else** clashed with Sudan ... after **the
    Sudanese armed opposition** had done so?", "After X voiced pessimism about **France**, whom
    **else** was it pessimistic about?"). They go after the other answers, not out: the KG may
    have that participant acting again, and a lone answer stays. Only where the answers are a
    range's (no first / last: the answerer's caller checks), whose order is by frequency; a
    ranked answer keeps its time order. Empty without "else" in nlu's wh-phrase."""
    if ctx is None or getattr(ctx, "table", None) is None:
        return set()
    an = clause_analysis(q, ctx)
    if not an.wh_span or not re.search(r"\belse\b", q[an.wh_span[0]:an.wh_span[1]], re.I):
        return set()
    return {m.names[0].replace("_", " ") for r in an.refs for m in r.mentions if m.names}


# a degree adverb of closeness on a range cue: "just / right / immediately before X"
_ADJACENT_RE = re.compile(r"(?:right|just|immediately|directly|shortly|soon)\b", re.I)


def _adjacent(q: str, sig) -> str | None:
    """The selection a range cue with a closeness adverb implies for ranking: "just before X"
    asks the event nearest X on the earlier side (the latest before it: "last"), "right after
    X" the earliest after it ("first"); None for a plain range cue (any event in the range
    answers, ranked by frequency). The chain keeps the whole range either way; only the
    answer order changes."""
    if sig.order not in ("before", "after") or not sig.order_span or not _ADJACENT_RE.match(q, sig.order_span[0]):
        return None
    return "last" if sig.order == "before" else "first"


register_symbolic("tccrag.mention_extractor", symbolic_mention_extractor)
register_symbolic("tccrag.arbiter", symbolic_arbiter)
register_symbolic("tccrag.relation_parser", symbolic_relation_parser)
register_symbolic("tccrag.single_parser", symbolic_single_parser)
register_symbolic("tccrag.answerer", symbolic_answerer)
