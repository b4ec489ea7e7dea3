"""Entity mentions: longest match of KG entity names in a question, with an embedding fallback.

The matcher is a token trie over every entity's folded name (KG form and display form tokenise
the same way, see :mod:`.text`), so a question is scanned once, left to right, taking the
longest name that starts at each token (leftmost-longest, non-overlapping). This is the
Aho-Corasick idea restricted to token boundaries, which is what names need: ``Iran`` must not
match inside ``Iranian``. A match whose question surface is all lower case is dropped unless
the KG name itself is lower case, so common words that happen to be entity names
(``government``, ``police``) do not become mentions.

Actor references written the way people write them ("the Kenyan police", "Kenya's
police", "Peruvians" for ``Police_(Kenya)`` / ``Citizen_(Peru)``) come from the actor grammar
of :mod:`.actors`, derived from the same entity list. Such a mention carries every entity it
plausibly means, scored, best first (``source="actor"``). An actor reference wins over an
exact match it overlaps only when its core (without a determiner) is strictly longer, so
exact KG names (``Police (Kenya)``, ``African Union``) keep matching as before.

Paraphrased or slightly misspelt names are found by the optional embedding fallback: maximal
runs of capitalised tokens not covered by an exact match are searched in the entity index.
"""

from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tkgqa_ray.kg.table import table_cache_key

from .actors import ActorGrammar, _walk, decompose, place_lexicon, plural
from .anaphora import organisation_words
from .names import PersonNames, courtesy_titles, titles
from .text import DOMINANCE, INITIAL_SKIP as _INITIAL_SKIP, data_lines, drop_article, fold, initials, norm_tokens, tokenize

if TYPE_CHECKING:
    from tkgqa_ray.kg.table import FactTable

_END = "\x00"  # trie terminal key -> tuple of entity ids

# Capitalised words that start runs but are never names by themselves (question words,
# temporal words). Used only by the embedding fallback's span proposal.
_NOT_NAME = {
    "who", "whom", "whose", "which", "what", "when", "where", "why", "how", "in", "on", "at",
    "after", "before", "during", "since", "until", "by", "between", "from", "the", "a", "an",
    "did", "does", "do", "was", "were", "is", "are", "has", "have", "had", "will", "would",
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday",
    "saturday", "sunday", "first", "last", "prior", "following", "following", "same", "year",
    "month", "day", "date", "i", "according", "whoever", "please", "tell", "name", "list",
    # conjunctions and adverbs that open a fronted time clause ("Once Medvedev had made demands
    # of China, ..."; names21): the capital is the sentence's, the next word may be a surname
    "once", "while", "as", "upon", "till", "whenever", "shortly", "soon", "right", "just", "immediately",
}
NAME_JOINERS = {"of", "and", "for", "the", "de", "la", "du", "(", ")", "-", "'", "&", "."}

# Acronyms (nlu10): an all-capitals token no name covers ("the IMF", "the IDF") names the entity
# whose words' initials it spells, or one of data/aliases.tsv's acronyms ("ASEAN", "UNHCR").
_ACRONYM_RE = re.compile(r"[A-Z]{3,7}")
# a two-letter acronym ("AU") only from data/aliases.tsv, never derived (nlu12): the table says
# which two capitals name an organisation; two initials alone are too ambiguous
_SHORT_ACRONYM_RE = re.compile(r"[A-Z]{2}")
# Back-references (nlu10): a determiner + the head of a name the question already used ("the
# Kenyan police ... the police", "the National Democratic Party ... that party") or a bare
# capitalised last part of a person's name ("Jens Stoltenberg ... Stoltenberg") is that name again.
_BACK_DETS = {"the", "that", "this", "these", "those"}
# Persons' names written over several tokens (names14): initials ("P.J.", "J."), a word joined by
# a hyphen whose first part may be a lowercase particle ("al-Qirbi"), a particle between words
_INITIALS_RE = re.compile(r"(?:[A-Z]\.)+")
_PARTICLE_HYPHEN_RE = re.compile(r"(?:al|el|ad|ash|as|at|ar|an|az|bin|ibn|ben|abu|bou|ould)-[A-Z][\w'-]*")
NAME_PARTICLES = {"bin", "ibn", "da", "das", "do", "dos", "van", "von", "al", "el"}
_DETS = {"the", "a", "an"}
# Surnames (nlu12): news name a person by the surname alone at first mention too ("Medvedev",
# "Mogherini", "Saleh"). A capitalised token no mention covers names the person that
# :meth:`PersonNames.sole` reads it as (the only or the dominant bearer of that surname, or of
# a given name no other name starts with: "Abhisit"); the index is nlu.names', shared with
# TCC-RAG's grounding (names13).


def _load_aliases() -> list[tuple[str, list[str]]]:
    from pathlib import Path

    rows = []
    path = Path(__file__).with_name("data") / "aliases.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, _, forms = line.partition("\t")
        rows.append((name.strip(), [f.strip() for f in forms.split("|") if f.strip()]))
    return rows


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the question that names KG entities: several ids if names collide or an
    actor reference is ambiguous ("the Chilean government"), best first."""

    text: str  # question surface
    start: int  # char offsets into the question
    end: int
    entity_ids: tuple[int, ...]
    names: tuple[str, ...]  # KG names (underscored) of entity_ids
    score: float = 1.0  # 1.0 for exact matches, cosine for the embedding fallback, best candidate's for actors
    source: str = "exact"  # "exact" | "embedding" | "actor"
    scores: tuple[float, ...] = ()  # per-candidate scores aligned with entity_ids; () = all equal to score

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def candidates(self) -> list[tuple[int, str, float]]:
        """(entity id, KG name, score) per candidate, best first."""
        scs = self.scores or (self.score,) * len(self.entity_ids)
        return list(zip(self.entity_ids, self.names, scs))


class EntityMatcher:
    """Token trie over a FactTable's entity names. Build once per table: :meth:`for_table`."""

    _cache: dict[Any, "EntityMatcher"] = {}
    _lock = threading.Lock()

    def __init__(self, names: list[str], weights: Any = None) -> None:
        self.names = names
        self.root: dict = {}
        self.by_norm: dict[tuple[str, ...], tuple[int, ...]] = {}
        self.max_len = 0
        for eid, name in enumerate(names):
            toks = norm_tokens(name)
            if not toks:
                continue
            node = self.root
            for t in toks:
                node = node.setdefault(t, {})
            node[_END] = node.get(_END, ()) + (eid,)
            self.by_norm[toks] = node[_END]
            self.max_len = max(self.max_len, len(toks))
        # written variants of a name (nlu11): "UN" for "United Nations" and back ("the UN Interim
        # Administration in Kosovo"), British "-isation" for "-ization" ("organisations")
        for toks, eids in list(self.by_norm.items()):
            for var in _name_variants(toks) + _plural_variants(toks, _people_heads()):
                if var not in self.by_norm:
                    self._insert(var, eids)
        # the owner written before the name (names15): "Korea's People First Party"
        # (People_First_Party_Korea), "the UN special rapporteurs" (Special_Rapporteurs_of_the_United_Nations)
        for toks, eids in list(self.by_norm.items()):
            for var in _owner_variants(toks):
                if var not in self.by_norm:
                    self._insert(var, eids)
        self._add_bare_heads(names)
        self._add_dash_heads()
        # a person's KG name that opens with a title ("Sheikh_Hamad_bin_Isa_al_Khalifah",
        # "Sir_Geoffrey_Howe") is written with another title or none ("King Hamad bin Isa al
        # Khalifah"; names21): the name without it is one more path, where no name has it
        self._titled: set[int] = set()  # ... and such a name takes a title before it as a person's does
        for eid, name in enumerate(names):
            rest = _untitled(name)
            if rest is not None and rest not in self.by_norm:
                self._insert(rest, (eid,))
                self._titled.add(eid)
        self._lower_names = {i for i, n in enumerate(names) if n == n.lower()}
        self._actors: ActorGrammar | None = None
        # acronyms: data/aliases.tsv's, then initials shared by no other name
        eid_of = {n: i for i, n in enumerate(names)}
        self.acronyms: dict[str, tuple[int, ...]] = {}
        for name, forms in _load_aliases():
            eid = eid_of.get(name)
            if eid is None:
                continue
            for f in forms:
                if _ACRONYM_RE.fullmatch(f) or _SHORT_ACRONYM_RE.fullmatch(f):
                    self.acronyms[f] = (eid,)
                else:  # a longer other name: one more path of the trie
                    toks = norm_tokens(f)
                    for var in (toks, *_name_variants(toks)):
                        self._insert(var, (eid,))
        self.persons = PersonNames(names, weights)
        by_init: dict[str, list[int]] = {}
        for eid, name in enumerate(names):
            ini = initials(name)
            if ini and _ACRONYM_RE.fullmatch(ini):
                by_init.setdefault(ini, []).append(eid)
        facts = self.persons.facts
        for ini, eids in by_init.items():
            if ini in self.acronyms or norm_tokens(ini) in self.by_norm:
                continue
            # shared initials go to the dominant bearer only (names14: "AFP" is Agence_France-Presse,
            # 1611 facts, not Ange-Félix_Patassé's 26), as PersonNames.sole reads a shared surname
            eids.sort(key=lambda e: -facts[e])
            # news write organisations by their initials, persons by their name (names16: "the
            # RAB" is Rapid_Action_Battalion, not Rafael_Antonio_Bielsa): shared initials go to
            # the one bearer that is an organisation by its words (an organisation word of
            # data/agreement.tsv, and no person-like name), if there is one
            orgs = [e for e in eids if e not in self.persons.words
                    and any(t in organisation_words() for t in norm_tokens(names[e]))]
            if len(orgs) == 1 and len(eids) > 1:
                eids = orgs
            if len(eids) == 1 or facts[eids[0]] >= DOMINANCE * max(facts[eids[1]], 1):
                self.acronyms[ini] = (eids[0],)
        self._add_place_acronyms(names, set(by_init))

    def _add_place_acronyms(self, names: list[str], taken: set[str]) -> None:
        """An organisation that the KG has only as actors' place, written by its initials alone
        ("the LRA" for Armed_Rebel_(Lord's_Resistance_Army)), names its dominant actor (most
        facts, DOMINANCE times the next; names17); initials no other name or alias has."""
        lex = place_lexicon()
        by_place: dict[str, list[int]] = {}
        for eid, name in enumerate(names):
            a = decompose(name) if name.endswith(")") else None
            if a is not None and not lex.is_place(a.place):
                ini = initials(a.place)
                if ini and _ACRONYM_RE.fullmatch(ini) and ini not in taken and ini not in self.acronyms:
                    by_place.setdefault(ini, []).append(eid)
        facts = self.persons.facts
        for ini, eids in by_place.items():
            eids.sort(key=lambda e: -facts[e])
            if len(eids) == 1 or facts[eids[0]] >= DOMINANCE * max(facts[eids[1]], 1):
                self.acronyms[ini] = (eids[0],)

    def _add_bare_heads(self, names: list[str]) -> None:
        """An organisation's name with its country tacked on after it, ICEWS's way of keeping
        namesakes apart ("People_First_Party_Korea", "Maoist_People's_Liberation_Army_Nepal"),
        is written without the country ("the People First Party"), as news name a party
        (names21). The head before the place is one more name when it ends in an organisation
        word (party, army, club, ...), does not itself begin with a place ("U.S. forces" is the
        actor grammar's), and names no other entity: neither another name's head nor the
        sector of an actor ("National Front" stays ambiguous with National_Front_(Laos))."""
        heads: dict[tuple[str, ...], list[int]] = {}
        for eid, name in enumerate(names):
            head = _bare_head(norm_tokens(name))
            if head is not None:
                heads.setdefault(head, []).append(eid)
        if not heads:
            return
        sectors = {norm_tokens(a.sector) for n in names if n.endswith(")") and (a := decompose(n)) is not None}
        for head, eids in heads.items():
            if len(eids) == 1 and head not in self.by_norm and head not in sectors:
                for var in (head, *_name_variants(head)):
                    self._insert(var, (eids[0],))

    def _add_dash_heads(self) -> None:
        """ICEWS writes some parties as "short name – long name"
        ("Homeland_Union_–_Lithuanian_Christian_Democrats"); news write the part before the
        dash ("Lithuania's Homeland Union"; names33). That part, two words or more, is one
        more name when it names no other entity and is read for no other name."""
        heads: dict[tuple[str, ...], list[int]] = {}
        for toks, eids in list(self.by_norm.items()):
            head = _dash_head(toks)
            if head is not None and len(eids) == 1:
                heads.setdefault(head, []).append(eids[0])
        for head, eids in heads.items():
            if len(set(eids)) == 1 and head not in self.by_norm:
                self._insert(head, (eids[0],))

    def _insert(self, toks: tuple[str, ...], eids: tuple[int, ...]) -> None:
        node = self.root
        for t in toks:
            node = node.setdefault(t, {})
        node[_END] = node.get(_END, ()) + tuple(e for e in eids if e not in node.get(_END, ()))
        self.by_norm.setdefault(toks, node[_END])
        self.max_len = max(self.max_len, len(toks))

    @property
    def actors(self) -> ActorGrammar:
        """The actor grammar of these names (built on first use, then kept with the matcher)."""
        if self._actors is None:
            with self._lock:
                if self._actors is None:
                    self._actors = ActorGrammar.from_names(self.names, self.persons.facts)
        return self._actors

    @classmethod
    def for_table(cls, table: "FactTable") -> "EntityMatcher":
        """The matcher of ``table``, built on first use and cached (per content hash)."""
        key = table_cache_key(table)
        with cls._lock:
            m = cls._cache.get(key)
            if m is None:
                m = cls(list(table.entities), _fact_counts(table))
                m._table = table  # names32: the KG's facts decide "King Hamad of Bahrain"
                cls._cache[key] = m
            return m

    def lookup(self, surface: str) -> tuple[int, ...]:
        """Entity ids whose folded name equals ``surface`` folded (``_`` == space); () if none.
        A leading article is tried without it as well (``the Police`` -> ``Police``). Failing
        that, a surface that is exactly one actor reference ("the Kenyan police") gives its
        candidates, best first (scores: :meth:`lookup_scored`)."""
        return tuple(e for e, _ in self.lookup_scored(surface))

    def lookup_scored(self, surface: str) -> list[tuple[int, float]]:
        """:meth:`lookup` with a score per id (1.0 for exact names)."""
        toks = norm_tokens(surface)
        hit = self.by_norm.get(toks, ())
        if not hit and toks and toks[0] in ("the", "a", "an"):
            hit = self.by_norm.get(toks[1:], ())
        if hit:
            return [(e, 1.0) for e in hit]
        if toks:
            found = self.actors.scan(list(toks), lambda i, j: True)
            if len(found) == 1 and found[0].start == 0 and found[0].end == len(toks):
                return list(found[0].candidates)
        bare = drop_article(surface)
        if _ACRONYM_RE.fullmatch(bare):  # "the IMF": the acronym table of match()
            return [(e, 1.0) for e in self.acronyms.get(bare, ())]
        return []

    def match(self, question: str) -> list[Mention]:
        """Leftmost-longest matches of exact names and of actor references (see module doc).
        The lower-case guard applies to single-token names in a question that uses capitals at
        all (an all-lower-case question gets no guard); an actor's country must be written
        with its capital there too ("US", not "us")."""
        toks = tokenize(question)
        all_lower = not any(c.isupper() for c in question)
        spans = self._match_exact(question, toks, all_lower)  # (tok i, tok j, Mention)
        exact = [m for _, _, m in spans]
        if not toks:
            return exact

        def cap_ok(i: int, j: int) -> bool:  # a folded token differs from its text when capitalised
            return all_lower or any(toks[k].text != toks[k].norm for k in range(i, j))

        found = self.actors.scan([t.norm for t in toks], cap_ok)
        if not found:
            return self._role_descriptions(question, toks, self._appositions(
                question, self._back_refs(question, toks, _drop_possessors(question, exact), all_lower)))
        out: list[Mention] = []
        dropped: set[int] = set()
        for a in found:
            over = [k for k, (i, j, _) in enumerate(spans) if i < a.end and a.start < j]
            if all(spans[k][1] - spans[k][0] < a.end - a.core_start for k in over):
                dropped.update(over)
                s, e = toks[a.start].start, toks[a.end - 1].end
                cands = a.candidates + _sector_name_candidates([spans[k] for k in over], a)
                ids = tuple(c[0] for c in cands)
                out.append(
                    Mention(question[s:e], s, e, ids, tuple(self.names[x] for x in ids),
                            cands[0][1], "actor", tuple(c[1] for c in cands))
                )
            elif len(over) == 1 and spans[over[0]][:2] == (a.core_start, a.end) and spans[over[0]][1] - a.core_start >= 2:
                i, j, m = spans[over[0]]
                spans[over[0]] = (i, j, _exact_actor_candidates(m, a, self.names))
        out += [m for k, (_, _, m) in enumerate(spans) if k not in dropped]
        out.sort(key=lambda m: m.start)
        out = self._coordinated_places(question, toks, out, cap_ok)
        if not all_lower:  # "the British Home Secretary": "the British" is an adjective of the name after it
            out = [m for k, m in enumerate(out)
                   if not (m.source == "actor" and k + 1 < len(out) and _adjective_of_next(question, m, out[k + 1]))]
        return self._role_descriptions(question, toks, self._appositions(
                question, self._back_refs(question, toks, _drop_possessors(question, out), all_lower)))

    def _coordinated_places(self, question: str, toks: list, mentions: list[Mention], cap_ok) -> list[Mention]:
        """"Iranian and Iraqi businesses", "Indian or Pakistani officials": two place adjectives
        coordinated before one sector noun name two actors, each the sector of its place
        (names34). The first adjective, written alone before "and" / "or" and covered by no
        mention, is read with the sector words of the actor after it: one more mention over the
        adjective, the actor of its place (Business_(Iran)) when the KG has it."""
        if not mentions:
            return mentions
        starts = {t.start: k for k, t in enumerate(toks)}
        extra: list[Mention] = []
        for m in mentions:
            k = starts.get(m.start)
            if m.source != "actor" or k is None or k < 2 or toks[k - 1].norm not in ("and", "or"):
                continue
            own = [t.norm for t in toks if m.start <= t.start and t.end <= m.end]
            done = False
            for width in (2, 1):  # the first place's adjective: one or two words ("South African")
                a = k - 1 - width
                adj = toks[a:k - 1] if a >= 0 else []
                if not adj or not all(t.text[:1].isupper() and t.text.isalpha() for t in adj):
                    continue
                if any(x.start < adj[-1].end and adj[0].start < x.end for x in mentions + extra):
                    continue
                for cut in (1, 2):  # the second place's adjective, cut off its actor's words
                    if cut >= len(own):
                        break
                    rest = own[cut:]
                    if self.actors.scan(rest, lambda i, j: False):
                        continue  # the words after the cut are an actor themselves: no place was cut off
                    norms = [t.norm for t in adj] + rest
                    found = self.actors.scan(norms, lambda i, j: i < len(adj))
                    if len(found) == 1 and found[0].start == 0 and found[0].end == len(norms):
                        cands = tuple(c for c in found[0].candidates if c[0] not in m.entity_ids)
                        if cands:
                            ids = tuple(c[0] for c in cands)
                            s0, e0 = adj[0].start, adj[-1].end
                            extra.append(Mention(question[s0:e0], s0, e0, ids, tuple(self.names[x] for x in ids),
                                                 cands[0][1], "actor", tuple(c[1] for c in cands)))
                            done = True
                        break
                if done:
                    break
        return sorted(mentions + extra, key=lambda m: m.start) if extra else mentions

    def _appositions(self, question: str, mentions: list[Mention]) -> list[Mention]:
        """A title with its country before a person's name is an apposition: "German Chancellor
        Merkel", "South Korean President Lee Myung-bak", "Japan's prime minister Noda" name the
        person, and the country-and-title is only who the person is (names25). The place or
        actor mention right before the title (or ending in it) and the person's mention become
        one mention of the person, so the title's actor (Head_of_Government_(Germany)) or
        place is no second participant. Only a title of data/person_names.tsv directly before
        a person-like name (one id, found by name or surname), nothing else between them."""
        if len(mentions) < 2:
            return self._place_titles(question, mentions)
        out: list[Mention] = []
        k = 0
        while k < len(mentions):
            m = mentions[k]
            p = mentions[k + 1] if k + 1 < len(mentions) else None
            if p is not None and self._is_person(p) and m.source in ("actor", "exact") and not self._is_person(m):
                if ((_ends_in_title(question[m.start:p.start]) or _possessive_gap(question, m, p))
                        and _title_gap(question, m, p)):
                    out.append(Mention(question[m.start:p.end], m.start, p.end, p.entity_ids, p.names,
                                       p.score, p.source, p.scores))
                    k += 2
                    continue
            out.append(m)
            k += 1
        return self._place_titles(question, out)

    def _role_descriptions(self, question: str, toks: list, mentions: list[Mention]) -> list[Mention]:
        """"Who wanted to meet Wen Jiabao in the month the Chinese premier spoke about X": a
        definite description "the <place adjective> <title>" (data/person_names.tsv's titles)
        that the actor grammar reads as no actor (the KG has no Head_of_Government_(China):
        ICEWS writes that office by its holders' names) stands for a person the question named
        before it, of that place by the KG's facts (names35). The one person named earlier with
        facts with the place (its own entity or its actors) takes the description as a mention of
        their own; with none or several such persons, nothing changes. A capitalised word after
        the title (an apposition: "the Chinese premier Wen Jiabao") or any word of the
        description under a mention leaves it alone. Only for a matcher over the KG's facts."""
        table = getattr(self, "_table", None)
        persons = [m for m in mentions if self._is_person(m)]
        if table is None or not persons:
            return mentions

        covered = [any(m.start <= t.start < m.end for m in mentions) for t in toks]
        norms = [t.norm for t in toks]
        g = self.actors
        extra: list[Mention] = []
        for k in range(len(toks) - 2):
            if norms[k] != "the" or covered[k]:
                continue
            p = k + 1
            if not toks[p].text[:1].isupper():
                continue
            walks = [(pend, pvals) for pend, pvals in _walk(g.place_trie, norms, p)
                     if not any(covered[p:pend]) and any(kind == "adj" for _, kind, _ in pvals)]
            if not walks:
                continue
            pend, pvals = walks[-1]
            ts = [t for t in titles() if tuple(norms[pend:pend + len(t)]) == t and not any(covered[pend:pend + len(t)])]
            if not ts:
                continue
            end = pend + max(len(t) for t in ts)
            if end < len(toks) and toks[end].text[:1].isupper():
                continue  # an apposition before a name: the name's own (_appositions)
            pids = {pid for pid, kind, _ in pvals if kind == "adj"}
            ids = {e for (sid, pid), es in g.pairs.items() if pid in pids for e in es}
            before = sorted({m.entity_ids[0] for m in persons if m.end <= toks[k].start})
            if not before or not ids:
                continue
            counts = self._place_fact_counts(tuple(before), frozenset(ids))
            agree = [e for e, n in zip(before, counts) if n > 0]
            if len(agree) != 1:
                continue
            a, b = toks[k].start, toks[end - 1].end
            extra.append(Mention(question[a:b], a, b, (agree[0],), (self.names[agree[0]],), 1.0, "exact", ()))
        return sorted(mentions + extra, key=lambda m: m.start) if extra else mentions

    def _place_titles(self, question: str, mentions: list[Mention]) -> list[Mention]:
        """"Moscow mayor Yury Luzhkov", "Texas governor Rick Perry": a title of
        data/person_names.tsv in any case right before a person's name, and the capitalised
        words of a place the KG does not name (no mention) right before the title, say who the
        person is (names33), as the country and title of :meth:`_appositions` do: the person's
        mention covers them, so they are no word of the relation. Words no mention covers only;
        the question's first word is never such a place ("Did", "When"). The place may be the
        possessor ("Senegal's President Macky Sall", names35): its "'s" joins the mention too."""
        if not mentions:
            return mentions
        toks = tokenize(question)
        out = list(mentions)
        for x, p in enumerate(mentions):
            if not self._is_person(p):
                continue
            prev_end = mentions[x - 1].end if x else 0
            ks = [k for k, t in enumerate(toks) if prev_end <= t.start and t.end <= p.start]
            if not ks:
                continue
            best = None
            for t in titles():
                if len(t) <= len(ks) and tuple(toks[k].norm for k in ks[-len(t):]) == t:
                    best = len(t) if best is None or len(t) > best else best
            if best is None:
                own = norm_tokens(p.text)  # the title joined the name already ("Mayor Yury Luzhkov")
                if not any(len(own) > len(t) and own[:len(t)] == t for t in titles()):
                    continue
                best = 0
            start = len(ks) - best
            poss = 0  # the place written as the possessor: "Senegal's President Macky Sall" (names35)
            if (start > 1 and toks[ks[start - 1]].norm in ("'s", "’s") and ks[start - 2] > 0
                    and toks[ks[start - 2]].text[:1].isupper() and toks[ks[start - 2]].text.isalpha()):
                start -= 1
                poss = 1
            while (start > 0 and ks[start - 1] > 0 and toks[ks[start - 1]].text[:1].isupper()
                   and toks[ks[start - 1]].text.isalpha() and len(ks) - start - best - poss < 2):
                start -= 1
            if start == len(ks) - best - poss and (best == 0 or toks[ks[start]].text[:1].isupper()):
                continue  # a capitalised title alone: _titled_person_at's (the title joins the name there)
            a = toks[ks[start]].start
            out[x] = Mention(question[a:p.end], a, p.end, p.entity_ids, p.names, p.score, p.source, p.scores)
        return out

    def _is_person(self, m: Mention) -> bool:
        """A mention of one person-like KG name, read from its words (exact) or its surname."""
        return (len(m.entity_ids) == 1 and m.source in ("exact", "surname")
                and (m.entity_ids[0] in self.persons.words or m.entity_ids[0] in self._titled))

    def _back_refs(self, question: str, toks: list, mentions: list[Mention], all_lower: bool) -> list[Mention]:
        """Add acronyms and back-references over tokens no mention covers (see the module notes
        at ``_ACRONYM_RE`` / ``_BACK_DETS``)."""
        if not mentions and all_lower:
            return mentions
        covered = [False] * len(toks)
        tok_span: list[tuple[int, int, Mention]] = []
        for m in mentions:
            ks = [k for k, t in enumerate(toks) if m.start <= t.start and t.end <= m.end]
            for k in ks:
                covered[k] = True
            if ks:
                tok_span.append((ks[0], ks[-1] + 1, m))
        added: list[Mention] = []
        k = 0
        n = len(toks)
        while k < n:
            if covered[k]:
                k += 1
                continue
            t = toks[k]
            # acronym
            if not all_lower and (_ACRONYM_RE.fullmatch(t.text) or t.text in self.acronyms):
                ids = self._acronym_ids(t.text, mentions)
                if ids:
                    added.append(Mention(t.text, t.start, t.end, ids, tuple(self.names[e] for e in ids), 1.0, "exact"))
                    k += 1
                    continue
            titled = None if all_lower else self._titled_person_at(toks, k, covered, tok_span)
            if titled is not None:
                end, m = titled
                if m in mentions:  # the title joins a name already found ("Pope Benedict XVI")
                    mentions = [x for x in mentions if x is not m]
                a, b = toks[k].start, max(toks[end - 1].end, m.end)
                # names32: "of PLACE" taken along ("King Hamad of Bahrain"): the place is no mention
                mentions = [x for x in mentions if not (a <= x.start and x.end <= b)]
                added.append(Mention(question[a:b], a, b, m.entity_ids, m.names, m.score, m.source, m.scores))
                k = end
                continue
            hit = self._back_ref_at(toks, k, covered, tok_span, all_lower)
            if hit is not None:
                end, m = hit
                a, b = toks[k].start, toks[end - 1].end
                added.append(Mention(question[a:b], a, b, m.entity_ids, m.names, m.score, m.source, m.scores))
                k = end
                continue
            run = None if all_lower else self._person_run_at(toks, k, covered)
            if run is not None:
                end, eid = run
                a, b = toks[k].start, toks[end - 1].end
                added.append(Mention(question[a:b], a, b, (eid,), (self.names[eid],), 1.0, "surname"))
                tok_span.append((k, end, added[-1]))  # a later bare surname refers back to it (names22)
                k = end
                continue
            eid = None if all_lower else self._surname_at(toks, k, covered)
            if eid is not None:
                added.append(Mention(t.text, t.start, t.end, (eid,), (self.names[eid],), 1.0, "surname"))
            k += 1
        if not added:
            return mentions
        return sorted(mentions + added, key=lambda m: m.start)

    def _titled_person_at(self, toks, k, covered, tok_span) -> tuple[int, Mention] | None:
        """(end token, person mention) when a title (data/person_names.tsv: "President",
        "Prime Minister", "Pope") at ``k`` comes right before a person's name (names15): the
        name found already (an exact person-like name: "Pope Benedict XVI"), or the name read
        from the words after the title as if the title were not written ("President Obama":
        the surname alone; "Prime Minister Nouri al-Maliki": the run). The title is part of the
        mention, so it is no word of the relation, and never part of the name looked up."""
        te = _title_end(toks, k, covered)
        if te is None:
            return None
        for i, j, m in tok_span:
            if i == te:
                person = len(m.entity_ids) == 1 and (m.entity_ids[0] in self.persons.words or m.entity_ids[0] in self._titled)
                return (j, m) if person and m.source in ("exact", "surname") else None
        if covered[te]:
            return None
        cov = list(covered)
        for x in range(k, te):
            cov[x] = True
        run = self._person_run_at(toks, te, cov)
        if run is not None:
            end, eid = run
        else:
            courtesy = tuple(t.norm for t in toks[k:te]) in courtesy_titles()
            eid, end = self._surname_at(toks, te, cov, titled=True, courtesy=courtesy), te + 1
            if eid is None and not courtesy:
                eid, end = self._titled_of_place(toks, te, cov, tok_span)
            if eid is None and not courtesy:
                same = self._titled_names(toks, k, te)
                if same:  # names32: "Sheikh Hamad", as two KG names begin: both, the KG decides
                    a, b = toks[te].start, toks[te].end
                    return te + 1, Mention("", a, b, tuple(same), tuple(self.names[e] for e in same), 1.0, "surname",
                                           tuple(1.0 if x == 0 else _TITLED_OTHER for x in range(len(same))))
            if eid is None:
                return None
        a, b = toks[te].start, toks[end - 1].end
        return end, Mention("", a, b, (eid,), (self.names[eid],), 1.0, "surname")

    def _titled_names(self, toks, k, te) -> list[int]:
        """The persons whose KG names begin with the written title and the one name word after
        it, most facts first, when there are two or three (names32: "Sheikh Hamad" is how both
        Sheikh_Hamad_bin_Khalifa_al-Thani and Sheikh_Hamad_bin_Isa_al_Khalifah begin): the
        written name is each of theirs, so all are readings and the KG's facts decide; [] for
        one (the single reading is :meth:`_surname_at`'s) or more."""
        title = [t.norm for t in toks[k:te]]
        word = toks[te]
        if not word.text[:1].isupper():
            return []
        nxt = toks[te + 1] if te + 1 < len(toks) else None
        if nxt is not None and (nxt.text[:1].isupper() or nxt.norm in _NAME_LINKS):
            return []  # the name goes on ("Sheikh Hamad bin Isa Al Khalifa"): a longer name's
        rs = [r for r in self.persons.readings([word.text], titled=True) if not r.variant
              and self.persons.words[r.eid][: len(title) + 1] == title + [fold(word.text)]]
        return [r.eid for r in rs] if 2 <= len(rs) <= 3 else []

    def _titled_of_place(self, toks, k, covered, tok_span=()) -> tuple[int | None, int]:
        """(person, end token) for "TITLE NAME of PLACE" where the one word NAME after the
        title is a name word of several persons (names32: "King Hamad of Bahrain" is
        Sheikh_Hamad_bin_Isa_al_Khalifah, not Sheikh_Hamad_bin_Khalifa_al-Thani of Qatar): the
        place decides, by the KG's facts: the one reading with facts with the place's own
        entity or its actors (X_(Place)), DOMINANCE times the next one's. The mention takes
        "of PLACE" along (the place is no name of the clause). (None, k + 1) otherwise."""
        none = (None, k + 1)
        table = getattr(self, "_table", None)
        t = toks[k]
        if (table is None or covered[k] or not t.text[:1].isupper() or k + 2 >= len(toks)
                or toks[k + 1].norm != "of" or covered[k + 1]):
            return none
        rs = [r for r in self.persons.readings([t.text], titled=True) if r.where in ("first", "last") and not r.variant]
        if len(rs) < 2:
            return none
        from .actors import _walk

        g = self.actors
        norms = [x.norm for x in toks]
        p = k + 2 + (norms[k + 2] == "the")
        best = None
        for pend, pvals in _walk(g.place_trie, norms, p):
            if not toks[p].text[:1].isupper():
                continue
            # the place may be a mention already ("Bahrain", exact), but none reaching outside it
            if any(covered[x] for x in range(p, pend)) and any(i < pend and p < j and not (p <= i and j <= pend) for i, j, _ in tok_span):
                continue
            pids = {pid for pid, kind, _ in pvals if kind == "name"}
            if pids:
                best = (pend, pids)
        if best is None:
            return none
        pend, pids = best
        ids = {e for (sid, pid), es in g.pairs.items() if pid in pids for e in es}
        counts = self._place_fact_counts(tuple(r.eid for r in rs), frozenset(ids))
        ranked = sorted(zip(counts, (r.eid for r in rs)), key=lambda x: -x[0])
        if ranked[0][0] > 0 and ranked[0][0] >= DOMINANCE * max(ranked[1][0], 1 if ranked[1][0] else 0):
            return ranked[0][1], pend
        return none

    def _place_fact_counts(self, persons: tuple[int, ...], place_ids: frozenset[int]) -> list[int]:
        """Facts of each person with any of ``place_ids`` (either direction)."""
        import numpy as np

        table = self._table
        s, o = np.asarray(table.s), np.asarray(table.o)
        pl = np.fromiter(place_ids, dtype=np.int64) if place_ids else np.zeros(0, dtype=np.int64)
        out = []
        for e in persons:
            n = int(np.isin(o[s == e], pl).sum() + np.isin(s[o == e], pl).sum())
            out.append(n)
        return out

    def _surname_at(self, toks, k, covered, titled: bool = False, courtesy: bool = False) -> int | None:
        """The person a lone capitalised token at ``k`` names by surname (``PersonNames.sole``;
        after a title ``PersonNames.after_title``, names25: "Mr Abbas", "Premier Wen"),
        or None. Not inside a run of capitalised words no mention covers ("Isaias
        Afwerki" is a name the KG spells otherwise, not "Afwerki" alone), nor right before a
        capitalised name (a title: "King Juan Carlos I")."""
        t = toks[k]
        if not t.text[:1].isupper() or t.norm in _NOT_NAME:
            return None
        for j in (k - 1, k + 1):
            if 0 <= j < len(toks) and not covered[j] and toks[j].text[:1].isupper() and toks[j].norm not in _NOT_NAME:
                return None
        if k + 1 < len(toks) and covered[k + 1] and toks[k + 1].text[:1].isupper():
            return None  # a title before a name ("King Juan Carlos I"), not a surname of its own
        if _title_of_at(toks, k):
            return None  # "the King of Bahrain": an office, not Angus_King
        if (t.norm,) in self.by_norm:
            return None  # a whole name (or an alias) of its own
        if titled:
            return self.persons.after_title(t.text, courtesy)
        return self.persons.sole([t.text])

    def _person_run_at(self, toks, k, covered) -> tuple[int, int] | None:
        """(end token, person) when a run of two or three capitalised words from ``k`` that
        no mention covers is a person's name spelt otherwise or shortened ("Isaias Afwerki"
        for Isaias_Afewerki, "José Alencar" for José_Alencar_Gomes_da_Silva):
        ``PersonNames.sole`` of the run's words. A longer run, or one a capitalised token
        continues, is some other name (names13). A written word may span tokens (names14):
        a hyphenated one ("al-Qirbi", "Abdul-Mahdi": then it may stand alone, a surname) or
        initials ("P.J." = two words, "P." and "J."); a lowercase name particle ("bin",
        "da") inside the run is skipped, as the index skips it."""
        def word(j: int) -> tuple[int, list[str]] | None:  # (end token, written words) of a name word at j
            n = len(toks)
            if not (0 <= j < n) or covered[j] or toks[j].norm in _NOT_NAME or not toks[j].text.isalpha():
                return None
            end = j + 1
            while end < n and toks[end].start == toks[end - 1].end and not covered[end]:
                nxt = toks[end].text
                if nxt == "." and len(toks[end - 1].text) == 1:  # an initial's dot ("P.")
                    end += 1
                elif nxt == "-" and end + 1 < n and toks[end + 1].start == toks[end].end and not covered[end + 1]:
                    end += 2  # "al-Qirbi", "Abdul-Mahdi"
                elif toks[end - 1].text == "." and len(nxt) == 1 and nxt.isupper():
                    end += 1  # the next initial ("P.J")
                else:
                    break
            text = "".join(t.text for t in toks[j:end])
            if _INITIALS_RE.fullmatch(text):
                return end, [c + "." for c in text.split(".") if c]
            if "." in text or not text.replace("-", "").isalpha():
                return None
            if not (text[:1].isupper() or _PARTICLE_HYPHEN_RE.fullmatch(text)):
                return None
            return end, [text]

        if word(k) is None or (k and word(k - 1) is not None and toks[k - 1].end < toks[k].start):
            return None
        if any(tuple(x.norm for x in toks[k:k + len(c)]) == c for c in courtesy_titles()):
            return None  # "Mr Abbas" is a surname after a courtesy title (_titled_person_at), no run
        end, written = k, []
        while True:
            w = word(end)
            if w is None and end + 1 < len(toks) and toks[end].norm in NAME_PARTICLES and written:
                w = word(end + 1)
                if w is not None:
                    end += 1
            if w is None:
                break
            end, more = w
            written += more
        spans_tokens = end - k > len(written)  # some word was written over several tokens
        if not (2 <= len(written) <= 3 or (len(written) == 1 and spans_tokens and "-" in written[0])):
            return None
        eid = self.persons.sole(written)
        return None if eid is None else (end, eid)

    def _acronym_ids(self, text: str, mentions: list[Mention]) -> tuple[int, ...]:
        for m in mentions:  # the initials of a name the question uses ("the Israeli Defense Forces ... the IDF")
            if any(initials(nm) == text for nm in m.names[:1]):
                return m.entity_ids[:1]
        return self.acronyms.get(text, ())

    def _back_ref_at(self, toks, k, covered, tok_span, all_lower):
        """(end token, earlier mention) when tokens from k refer back to an earlier mention."""
        n = len(toks)
        det = toks[k].norm in _BACK_DETS
        first = k + 1 if det else k
        if first >= n or covered[first]:
            return None
        if not det and (all_lower or not toks[k].text[:1].isupper() or toks[k].norm in _NOT_NAME):
            return None
        best = None  # (rank, end, mention): a whole head first, then the nearest name
        for near, (i, j, m) in enumerate(reversed(tok_span)):
            if toks[i].start >= toks[k].start:
                continue
            ctoks = list(toks[i:j])
            while ctoks and ctoks[0].norm in _DETS:
                ctoks = ctoks[1:]
            core = [t.norm for t in ctoks]
            # a bare surname: only of a person-like exact name of two words or more, or of an
            # embedding match whose KG name ends in that surname too ("Uhuru Kenyatta" for
            # Uhuru_Muigai_Kenyatta ... "Kenyatta"; nlu11)
            # ... or of a person read from its written words ("Ashraf Ghani" for
            # Ashraf_Ghani_Ahmadzai ... "Ghani": the question wrote the surname; names22)
            spelt = m.source in ("exact", "surname") or (m.source == "embedding" and core
                                                         and norm_tokens(m.names[0])[-1:] == (core[-1],))
            if not det and (not spelt or "(" in m.names[0] or len(core) < 2):
                continue
            if det:  # "the head of Pakistan's government ... the head of government" (nlu11):
                # the name without its inner NAME 's (a capitalised place and its possessive)
                inner = [x for x in range(1, len(ctoks) - 1) if ctoks[x].norm in ("'s", "’s")]
                if inner:
                    x = inner[0]
                    y = x
                    while y > 1 and ctoks[y - 1].text[:1].isupper():
                        y -= 1
                    short = core[:y] + core[x + 1:]
                    end = first + len(short)
                    if (y < x and len(short) >= 2 and end <= n
                            and [t.norm for t in toks[first:end]] == short and not any(covered[first:end])):
                        rank = (0, near)
                        if best is None or rank < best[0]:
                            best = (rank, end, m)
                        continue
            if (det and m.source == "exact" and len(core) >= 3 and core[1] in ("of", "for")
                    and "(" not in m.names[0] and toks[first].norm == core[0]
                    and not (first + 1 < n and toks[first + 1].norm in ("of", "for", "'s", "’s"))):
                # "the Council for National Security ... the council": the head noun before the
                # name's "of" / "for" (nlu11)
                rank = (0, near)
                if best is None or rank < best[0]:
                    best = (rank, first + 1, m)
                continue
            if not det and self._first_word_ref(toks, first, core, m):
                rank = (1, near)
                if best is None or rank < best[0]:
                    best = (rank, first + 1, m)
                continue
            for L in range(len(core) - 1, 0, -1):  # a strict suffix, longest first
                suf = core[-L:]
                prev = ctoks[-L - 1]
                if suf[0] in _INITIAL_SKIP or prev.norm in ("of", "for", "to", "in", "on"):
                    continue  # no suffix that starts inside "head of government" at "government"
                end = first + L
                if end <= n and [t.norm for t in toks[first:end]] == suf and not any(covered[first:end]):
                    if end < n and toks[end].norm in ("of", "'s", "’s") and det:
                        break  # "the ministry of Iran" is another name, not a back-reference
                    # the suffix is the name's whole head when a name or "'s" precedes it ("the
                    # South Korean ministry" for "that ministry", not "South Korea's foreign ministry")
                    whole = prev.text[:1].isupper() or prev.norm in ("'s", "’s")
                    rank = (0 if whole else 1, near)
                    if best is None or rank < best[0]:
                        best = (rank, end, m)
                    break
        return None if best is None else (best[1], best[2])

    def _first_word_ref(self, toks, k: int, core: list[str], m: Mention) -> bool:
        """Token k alone is the first word of the earlier person ``m`` ("Wen Jiabao ... Wen",
        "Yu Zhengsheng ... Yu": a Chinese or Korean family name comes first; names17): a
        person-like KG name, and no capitalised word after k (that would be another name)."""
        if m.entity_ids[0] not in self.persons.words or toks[k].norm != core[0]:
            return False
        return not (k + 1 < len(toks) and toks[k + 1].text[:1].isupper())

    def _match_exact(self, question: str, toks: list, all_lower: bool) -> list[tuple[int, int, Mention]]:
        out: list[tuple[int, int, Mention]] = []
        i = 0
        n = len(toks)
        while i < n:
            node = self.root
            best: tuple[int, tuple[int, ...]] | None = None
            j = i
            while j < n:
                nxt = node.get(toks[j].norm)
                if (nxt is None and toks[j].norm == "-" and j > i and j + 1 < n
                        and toks[j - 1].end == toks[j].start == toks[j + 1].start - 1):
                    # a hyphen the KG name writes as a space ("Ma Ying-jeou" for Ma_Ying_Jeou,
                    # "Pakistan-administered Kashmir"; nlu11)
                    j += 1
                    nxt = node.get(toks[j].norm)
                node = nxt
                if node is None:
                    break
                j += 1
                if _END in node:
                    best = (j, node[_END])
            if best is not None:
                j, ids = best
                a, b = toks[i].start, toks[j - 1].end
                surface = question[a:b]
                if all_lower or j - i > 1 or _plausible(surface, ids, self._lower_names):
                    out.append((i, j, Mention(surface, a, b, ids, tuple(self.names[e] for e in ids))))
                    i = j
                    continue
            i += 1
        return out


_SECTOR_NAME_WEIGHT = 0.9


def _sector_name_candidates(over: list, a: Any) -> tuple[tuple[int, float], ...]:
    """"Romania's National Liberal Party": the actor reading (National_Liberal_Party_(Romania))
    wins, but ICEWS codes the same party by its bare name too (National_Liberal_Party), so an
    exact name of two words or more that the actor's words end with stays a later candidate,
    a shade lower (names21); alignment takes it where the actor has no fact for the event."""
    have = {c[0] for c in a.candidates}
    out = []
    for i, j, m in over:
        if j == a.end and j - i >= 2 and i >= a.core_start:
            out += [(e, a.candidates[0][1] * _SECTOR_NAME_WEIGHT) for e in m.entity_ids if e not in have]
    return tuple(out)


_DASHES = ("–", "—")
_EXACT_ACTOR_MIN = 0.8  # an actor reading this strong or more (a sector's main forms) joins an exact name


def _dash_head(toks: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of a name before its first spaced dash ("homeland union" of "homeland union
    – lithuanian christian democrats"), two words or more, with words after it; else None."""
    for k, t in enumerate(toks):
        if t in _DASHES:
            return toks[:k] if k >= 2 and k + 1 < len(toks) else None
    return None


def _exact_actor_candidates(m: "Mention", a: Any, names: list[str]) -> "Mention":
    """"the Norwegian armed forces": the words are an exact KG name (Norwegian_Armed_Forces)
    and an actor reading (Military_(Norway)) alike; ICEWS codes the same body both ways, so
    the exact name stays first and the actor's candidates follow it, a shade lower
    (_SECTOR_NAME_WEIGHT; names33), the reverse of :func:`_sector_name_candidates`. The KG
    decides between them (alignment takes the actor where the name has no fact)."""
    have = set(m.entity_ids)
    extra = [(e, sc * _SECTOR_NAME_WEIGHT) for e, sc in a.candidates if e not in have and sc >= _EXACT_ACTOR_MIN]
    if not extra:
        return m
    first = m.scores or tuple(m.score for _ in m.entity_ids)
    ids = m.entity_ids + tuple(e for e, _ in extra)
    return Mention(m.text, m.start, m.end, ids, m.names + tuple(names[e] for e, _ in extra),
                   m.score, m.source, first + tuple(sc for _, sc in extra))


def _title_end(toks: list, k: int, covered: list[bool]) -> int | None:
    """The token after the longest title (data/person_names.tsv) written from ``k`` with a
    capital, its tokens covered by no mention and a capitalised word after it; else None."""
    if not toks[k].text[:1].isupper():
        return None
    best = None
    for t in titles():
        e = k + len(t)
        if (e < len(toks) and tuple(x.norm for x in toks[k:e]) == t and not any(covered[k:e])
                and toks[e].text[:1].isupper() and (best is None or e > best)):
            best = e
    return best


def _ends_in_title(text: str) -> bool:
    """``text`` (a country or its actor, then the words before a person's name) ends in a
    title of data/person_names.tsv, in any case ("... Chancellor ", "...'s prime minister ")."""
    toks = norm_tokens(text)
    return any(len(toks) > len(t) and toks[-len(t):] == t for t in titles())


def _possessive_gap(question: str, m: Mention, p: Mention) -> bool:
    """Only "'s" between ``m`` and ``p`` (the person's mention then opens with its title)."""
    return norm_tokens(question[m.end:p.start]) in (("'s",), ("’s",))


def _title_gap(question: str, m: Mention, p: Mention) -> bool:
    """Between mention ``m`` and the person ``p``: only a title, after "'s" when ``m`` is a
    place written as the possessor ("Yemen's president Saleh"), or nothing beyond spaces when
    ``m`` itself ends in the title ("German Chancellor Merkel")."""
    gap = question[m.end:p.start]
    if not gap.strip():
        return True
    g = norm_tokens(gap)
    if g[:1] in (("'s",), ("’s",)):
        g = g[1:]
        if not g:  # the title joined the person's name already ("Japan's President Macky Sall", names35)
            own = norm_tokens(p.text)
            return any(len(own) > len(t) and own[:len(t)] == t for t in titles())
    return g in titles()


def _title_of_at(toks: list, k: int) -> bool:
    """True when the capitalised word at ``k`` is an office named with an article and "of"
    ("the King of Bahrain", "the President of Kenya", names15): English writes a person's
    name without an article, so a word between "the" and "of" is a common noun (a title
    capitalised), never a surname ("King" is no Angus_King there)."""
    return (0 < k < len(toks) - 1 and toks[k - 1].norm in _DETS and toks[k + 1].norm == "of")


def _fact_counts(table: Any) -> Any:
    """Facts per entity id (subject or object), or None for a table without fact columns."""
    try:
        import numpy as np

        n = len(table.entities)
        return np.bincount(np.asarray(table.s), minlength=n) + np.bincount(np.asarray(table.o), minlength=n)
    except (AttributeError, TypeError, ValueError):
        return None


_NAME_LINKS = frozenset({"bin", "ibn", "bint", "al", "el", "abu", "ben", "-"})  # words inside an Arabic name
_TITLED_OTHER = 0.9  # a further person whose KG name begins with the written "TITLE NAME" (names32)

_IZE_RE = re.compile(r"(?<=\w{3})iz(?=(?:ation|ations|e|es|ed|ing)$)")


def _name_variants(toks: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Other spellings of a name's folded tokens: "un ..." <-> "united nations ..." (a name of
    three words or more), the British "-is-" of "-iz-" words ("organization"), the other
    spelling of data/spellings.tsv's words ("asean defense ministers" <-> "... defence ...")
    and a hyphen written as a space ("al - thani" as "al thani"; names22)."""
    out: list[tuple[str, ...]] = []
    if len(toks) > 2 and toks[:2] == ("united", "nations"):
        out.append(("un",) + toks[2:])
    elif len(toks) > 1 and toks[0] == "un":
        out.append(("united", "nations") + toks[1:])
    for base in [toks] + out:
        brit = tuple(_IZE_RE.sub("is", t) for t in base)
        if brit != base:
            out.append(brit)
    other = _spellings()
    for base in [toks] + out:
        var = tuple(other.get(t, t) for t in base)
        if var != base and var not in out:
            out.append(var)
    for base in [toks] + out:
        if "-" in base[1:-1]:
            var = tuple(t for t in base if t != "-")
            if var not in out:
                out.append(var)
    for base in [toks] + out:
        var = _possessive_variant(base)
        if var is not None and var not in out:
            out.append(var)
    return out


def _possessive_variant(toks: tuple[str, ...]) -> tuple[str, ...] | None:
    """A plural name word before another word written with or without the plural possessive's
    apostrophe (names32): the KG spells ``Korean_Workers_Party`` where news write "the Korean
    Workers' Party", and ``Workers'_Party`` where one may write "Workers Party". A name with
    such an apostrophe gets the plain spelling; a name without one gets the apostrophe after
    each plural word (of four letters or more) that another word follows."""
    if "'" in toks[1:-1]:
        var = tuple(t for k, t in enumerate(toks) if not (t == "'" and 0 < k < len(toks) - 1 and toks[k - 1].endswith("s")))
        return var if var != toks else None
    if len(toks) < 2:
        return None
    out: list[str] = []
    for k, t in enumerate(toks):
        out.append(t)
        if k + 1 < len(toks) and len(t) >= 4 and t.endswith("s") and not t.endswith("ss") and toks[k + 1].isalpha():
            out.append("'")
    var = tuple(out)
    return var if var != toks else None


@functools.lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """Folded word -> its other spelling, both ways (data/spellings.tsv: American / British,
    names22): ICEWS spells a name one way, a question the other."""
    out: dict[str, str] = {}
    for cols in data_lines("spellings.tsv"):
        a, b = cols[:2]
        out[fold(a.strip())], out[fold(b.strip())] = fold(b.strip()), fold(a.strip())
    return out


@functools.lru_cache(maxsize=1)
def _people_heads() -> frozenset[str]:
    """Head nouns of the sectors that are groups of people ("plural" rows of
    data/agreement.tsv: Armed_Rebel -> "rebel", Militant, Activist): a plain KG name ending in
    one names such a group ("Tamil_Rebel", "Sikh_Militant"; names25)."""
    out = set()
    for cols in data_lines("agreement.tsv"):
        if len(cols) >= 2 and cols[0].strip() == "plural":
            toks = norm_tokens(cols[1].strip())
            if toks and toks[-1].isalpha():
                out.add(toks[-1])
    return frozenset(out)


def _plural_variants(toks: tuple[str, ...], people: frozenset[str] | set[str] = frozenset()) -> list[tuple[str, ...]]:
    """An organisation's name whose head is a count noun, written in the plural for its
    members ("the Tibetan independence forces" for Tibetan_Independence_Force, "the Qassam
    brigades"; names21): a plain name of two words or more ending in a singular organisation
    word of data/agreement.tsv gets that word's plural; so does one ending in the head noun
    of a sector of people (``people``, :func:`_people_heads`: "Tamil rebels" for Tamil_Rebel,
    "Sikh militants"; names25). (Lower-case inner words already match: a surface is dropped only when it is all
    lower case.)"""
    if len(toks) < 2 or "(" in toks or (toks[-1] not in organisation_words() and toks[-1] not in people):
        return []
    p = plural(toks[-1])
    return [toks[:-1] + (p,)] if p != toks[-1] else []


def _owner_variants(toks: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A name that says whose it is after the rest, written with the owner first, as English
    does (names15): a place at the end of a plain name ("people first party korea") as the
    possessive or the adjective ("korea 's people first party", "south korean people first
    party"); an organisation after "of [the]" ("special rapporteurs of the united nations",
    its last word an organisation word of data/agreement.tsv) as a noun adjunct or the
    possessive ("united nations special rapporteurs", "un special rapporteurs"). A place
    after "of" is the actor grammar's (a named institution), not repeated here."""
    if "(" in toks or len(toks) < 3:
        return []
    lex = place_lexicon()
    out: list[tuple[str, ...]] = []
    if toks.count("of") == 1:
        k = toks.index("of")
        head, owner = toks[:k], toks[k + 1 :]
        if owner[:1] == ("the",):
            owner = owner[1:]
        if head and len(owner) >= 2 and owner[-1] in organisation_words() and lex.resolve(" ".join(owner)) is None:
            out += [owner + head, owner + ("'s",) + head]
    else:
        for n in (3, 2, 1):
            key = lex.named(toks[-n:]) if len(toks) - n >= 2 else None
            if key is not None:
                head, row = toks[:-n], lex.rows[key]
                if head[-1] not in _INITIAL_SKIP:
                    out += [norm_tokens(f) + ("'s",) + head for f in row.names]
                    out += [norm_tokens(a) + head for a in row.adjectives]
                break
    return [v for var in out for v in (var, *_name_variants(var))]


_NOT_PERSON_WORDS = {"of", "for", "and", "the", "inc", "inc.", "ltd", "co"}


def _untitled(name: str) -> tuple[str, ...] | None:
    """The folded tokens of a KG name after a leading title of data/person_names.tsv, when
    the rest reads as a person's name: two words or more, the first capitalised, none an
    organisation or function word ("General_People's_Congress", "Cardinal_Health_Inc." are
    no titled persons); else None (names21)."""
    words = [w for w in name.split("_") if w]
    if "(" in name:
        return None
    for k in (3, 2, 1):
        if len(words) - k >= 2 and norm_tokens(" ".join(words[:k])) in titles():
            rest = words[k:]
            if not (rest[0][:1].isupper() and rest[0].isalpha()):
                return None
            if any(fold(w) in organisation_words() or fold(w) in _NOT_PERSON_WORDS for w in rest):
                return None
            return norm_tokens(" ".join(rest))
    return None


def _bare_head(toks: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words of a plain name before a place that ends it ("people first party" of
    "people first party korea"), when they read as an organisation's own name: two words or
    more, the last an organisation word, the first no place; else None (names21)."""
    if "(" in toks or "of" in toks or len(toks) < 3:
        return None
    lex = place_lexicon()
    for n in (3, 2, 1):
        if len(toks) - n >= 2 and lex.named(toks[-n:]) is not None:
            head = toks[:-n]
            if head[-1] in organisation_words() and not any(lex.named(head[:k]) for k in range(1, len(head))):
                return head
            return None
    return None


_POSS_GAP_RE = re.compile(r"['’]s\s+")


def _drop_possessors(question: str, ms: list[Mention]) -> list[Mention]:
    """"Thailand's Council for National Security", "Iraq's Nuri al-Maliki": an exact name
    written right before "'s" and another capitalised exact name (no actor) only says whose
    that name is; the name after it is the mention (nlu11)."""
    drop = set()
    for k in range(len(ms) - 1):
        a, b = ms[k], ms[k + 1]
        if (a.source in ("exact", "embedding") and b.source == "exact" and b.text[:1].isupper()
                and "(" not in b.names[0] and _POSS_GAP_RE.fullmatch(question[a.end:b.start])):
            drop.add(k)
    return [m for k, m in enumerate(ms) if k not in drop] if drop else ms


def _adjective_of_next(question: str, m: Mention, nxt: Mention) -> bool:
    """An actor mention "the ADJ" (one word after "the") written right before another name."""
    words = m.text.split()
    return (len(words) == 2 and words[0].lower() == "the" and nxt.start > m.end
            and not question[m.end:nxt.start].strip() and nxt.text[:1].isupper())


def _plausible(surface: str, ids: tuple[int, ...], lower_names: set[int]) -> bool:
    if any(c.isupper() or c.isdigit() for c in surface):
        return True
    return any(e in lower_names for e in ids)


def _not_sector_openings(question: str, spans: list[tuple[int, int]], matcher: EntityMatcher) -> list[tuple[int, int]]:
    """The capitalised runs that are no opening of a sector form going on past them (names32):
    "an Islamic preacher there" writes the sector Islamic_Preacher ("islamic preacher", its
    place the one named before), so "Islamic" alone is no name for the embedding index
    (Islamic_(India)); the words stay free for the context sectors (analysis.context_sectors)."""
    if not spans:
        return spans
    from tkgqa_ray.nlu.actors import _walk

    toks = tokenize(question)
    norms = [t.norm for t in toks]
    trie = matcher.actors.sector_trie
    out = []
    for a, b in spans:
        ks = [k for k, t in enumerate(toks) if a <= t.start < b]
        if ks and any(end > ks[-1] + 1 for end, _ in _walk(trie, norms, ks[0])):
            continue
        out.append((a, b))
    return out


def _name_runs(question: str, covered: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Maximal runs of capitalised tokens (allowing joiners like ``of``/``(``) outside
    ``covered``: the spans the embedding fallback tries."""
    toks = tokenize(question)
    runs: list[tuple[int, int]] = []
    cur: list[int] = []

    def flush() -> None:
        while cur and toks[cur[-1]].norm in NAME_JOINERS and toks[cur[-1]].text != ")":
            cur.pop()
        if cur:
            runs.append((toks[cur[0]].start, toks[cur[-1]].end))
        cur.clear()

    for k, t in enumerate(toks):
        inside = any(a <= t.start < b for a, b in covered)
        is_cap = t.text[:1].isupper() and t.norm not in _NOT_NAME
        if inside:
            flush()
        elif is_cap or (cur and (t.norm in NAME_JOINERS)):
            cur.append(k)
        else:
            flush()
    flush()
    return runs


def find_entity_mentions(
    question: str,
    matcher: EntityMatcher,
    embeddings: Any = None,
    min_score: float = 0.8,
) -> list[Mention]:
    """Entity mentions of ``question`` in order of appearance.

    Exact (case-insensitive, longest) matches first; then, if ``embeddings`` (an
    EmbeddingService) is given, capitalised runs not covered by a match are searched in the
    entity index and kept when the cosine is at least ``min_score``.
    """
    mentions = matcher.match(question)
    if embeddings is not None:
        spans = _name_runs(question, [(m.start, m.end) for m in mentions])
        spans = [s for s in spans if re.search(r"[A-Za-z]{3,}", question[s[0]:s[1]])]
        spans = _not_sector_openings(question, spans, matcher)
        added = False
        if spans:
            scores, ids = embeddings.search("entity", [question[a:b] for a, b in spans], 1)
            for (a, b), sc, ix in zip(spans, scores, ids):
                if len(ix) and ix[0] >= 0 and float(sc[0]) >= min_score:
                    eid = int(ix[0])
                    mentions.append(
                        Mention(question[a:b], a, b, (eid,), (matcher.names[eid],), float(sc[0]), "embedding")
                    )
                    added = True
            mentions.sort(key=lambda m: m.start)
            if added:  # a surname of a name the embedding found ("Kenyatta" after "Uhuru Kenyatta"; nlu11)
                mentions = matcher._back_refs(question, tokenize(question), _drop_possessors(question, mentions),
                                              not any(c.isupper() for c in question))
    return mentions


__all__ = ["EntityMatcher", "Mention", "find_entity_mentions", "fold"]
