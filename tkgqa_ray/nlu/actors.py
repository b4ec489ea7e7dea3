"""Actor references: how people write ICEWS-style ``Sector_(Country)`` entities.

A KG such as MultiTQ names most of its entities ``Police_(Kenya)``, ``Citizen_(Peru)``,
``Head_of_Government_(Chile)``; questions say "the Kenyan police", "the police of Kenya",
"Kenya's police", "Peruvians", "the head of the Chilean government". The grammar here is
derived from the *table's* entity list (any KG, at matcher build time), not from questions:

* every name ending in a balanced ``(...)`` group is decomposed into a sector and a place
  (:func:`decompose`); it is an actor when the place is a known country/region (or the sector
  is a known sector, or the sector part recurs with several places in the table) and the
  sector part is not itself a place (``Holy_See_(Vatican_City_State)`` is not an actor);
* a place lexicon (:class:`PlaceLexicon`): ISO country names, common and official names and
  code lookup from ``pycountry``, plus our data file ``data/places.tsv`` for what it lacks
  (demonym adjectives, people nouns, the names and short forms people write: "Russia",
  "UK", "DRC"). Places that are organisations (``Militant_(Taliban)``) are written as
  themselves. (``country_converter`` was the other candidate; 1.3.2 fails to construct under
  pandas 3 (NaN ISO-2 codes), and it pulls pandas into a path that needs none.)
* sector forms (``data/sectors.tsv``): synonyms with scores, plurals, the sector's own words
  (``Lawyer/Attorney`` -> lawyer, attorney; ``Finance_/_Economy_Ministry`` -> finance
  ministry, economy ministry), ``ministry of X`` variants, and ``*`` templates where the
  country goes inside the phrase ("head of the * government");
* attachments: [det] ADJ|NAME SECTOR ("the Kenyan police", "UK Department of Education"),
  [det] SECTOR of|from|in [the] NAME ("citizens from Peru"), NAME 's SECTOR
  ("Kenya's police"), [the] PEOPLE ("Peruvians", "the French" -> ``Citizen_(...)``).

Everything is precomputed into three small token tries (places, sector forms, templates)
and a ``(sector, place) -> entity ids`` dict, so matching a question is a few dict lookups
per token; no loop over entities. Misspelt place words in an actor context ("Columbian
police") are corrected with rapidfuzz against the one-word place forms. A bare sector word ("the police") never becomes a
mention: without a country it could be any of 62 police entities, and the lower-case common
noun is far more often part of the relation phrase than a reference.

Ambiguity stays a candidate set: a phrase that fits several entities ("the Chilean
government": ``Government_(Chile)`` 1.0, ``Head_of_Government_(Chile)`` 0.5; "Congolese
police": both Congos) yields all of them with scores, best first.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from .text import DOMINANCE, data_lines, fold, initials, norm_tokens

_END = "\x00"
_DETS = {"the", "a", "an", "some", "several", "many", "two", "three", "various", "certain", "other"}
_WH = {"which", "what", "whose", "whichever", "whatever", "how"}
_PREP = {"in", "on", "at", "during", "of", "for", "by", "from", "to", "with", "after", "before", "since", "until"}
# not "for"/"to": "ambassador to Kenya" is not Kenya's; "across" / "throughout" spread the
# sector over the place ("people across Africa", "police throughout Kenya"; names26)
_ATTACH = {"of", "from", "in", "across", "throughout"}
_POSS = {"'s", "’s", "'", "’"}
# adjectives that double as a collective people noun after "the" (the French, the Dutch)
_COLLECTIVE_RE = re.compile(r"(?:ese|ch|sh|ss)$")
# prepositions an event noun takes before its object ("threat against", "visit to")
_EVENT_PREPS = {"of", "to", "against", "with", "on", "toward", "towards", "in", "into", "for", "about", "over", "from", "at", "upon"}
# words after a demonym that are no event nouns ("the Chinese side of", "the French people in")
# what a state owns ("French property", "Iranian assets"): the owner is the country itself
_OWNED_NOUNS = {"property", "properties", "assets", "interests", "vessels", "ships", "ship", "vessel", "aircraft", "goods"}
_EVENT_NOUN_STOP = {"side", "people", "one", "ones", "and", "or", "who", "which", "that", "government", "state", "nation", "country"}
_COUNTRY = -1  # pseudo sector id: the place's own entity (see country_sectors)
_FUZZY_MIN_LEN = 5  # shorter words are too easily one edit from another country
_FUZZY_CUTOFF = 85.0  # rapidfuzz ratio: "Columbian" -> "colombian" (88.9); "Iranian" !-> "iraqi"
_FUZZY_WEIGHT = 0.9
_GROUP_WEIGHT = 0.9  # a group written alone: the best of its actors (ActorGrammar._add_groups)
_GROUP_AFTER_NOUN = 0.8  # ... before a sector noun it has a weaker actor of: its other actors
# names30: nouns for the head of a group ("an ISIL leader", "the Pheu Thai leader") and the last
# words of the group's actors' sectors that name its head (Terrorist_Leader, Party_President,
# Insurgent_Leader, Rebel_Commander)
_LEADER_NOUNS = {"leader", "leaders", "chief", "chiefs", "head", "heads", "chairman", "president", "boss"}
_LEADER_SECTOR_HEADS = {"leader", "president", "chief", "chairman", "commander", "head"}
_NAMED_BESIDE_ACTOR = 0.9  # a plain name of a (sector, place) pair the KG also has as Sector_(Place)


@dataclass(frozen=True, slots=True)
class ActorName:
    """A decomposed actor name: display-form sector and place (``Police``, ``Kenya``)."""

    sector: str
    place: str


def decompose(name: str) -> ActorName | None:
    """Split ``Sector_(Place)`` at its last balanced parenthesised group; None if the name
    does not end in one or either part is empty. Nested groups stay in the place
    (``Citizen_(Holy_See_(Vatican_City_State))`` -> Citizen / Holy See (Vatican City State))."""
    s = name.replace("_", " ").strip()
    if not s.endswith(")"):
        return None
    depth = 0
    for i in range(len(s) - 1, -1, -1):
        c = s[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                sector, place = s[:i].strip(), s[i + 1 : -1].strip()
                if not sector or not place or sector.endswith(("(", "/")):
                    return None
                return ActorName(" ".join(sector.split()), " ".join(place.split()))
    return None


# a group's own "<Sector>_(Group)" actor as a reading of the group's name: a little less sure
# than the name itself, at or above both methods' alternative-entity floor (0.6)
GROUP_MEMBER_WEIGHT = 0.9


@functools.lru_cache(maxsize=4)
def group_members(table) -> dict[int, tuple[int, ...]]:
    """Entity id of a plain KG name X that is no place -> the ids of the KG's ``<Sector>_(X)``
    actors (``Armed_Force_(Hellenic_Armed_Forces)`` for ``Hellenic_Armed_Forces``,
    ``Militant_(Boko_Haram)`` for ``Boko_Haram``): ICEWS files some events of an organisation
    under a sector of it, so a question naming the organisation may mean either (68 such names
    in ICEWS05-15). Places are left out: their sectors are the actor grammar's ("the Greek
    military"), and a country's name never means its citizens. The counterpart of
    :meth:`ActorGrammar._add_groups` for a group that *has* an entity of its own (there the
    group is known only through its sectors). ``table``: anything with ``entities`` (KG names).
    Shared by SCoP's alignment and TCC-RAG's grounding (refs24; moved here by tccrag19)."""
    ents = list(table.entities)
    eid = {n: i for i, n in enumerate(ents)}
    lex = place_lexicon()
    out: dict[int, list[int]] = {}
    for i, name in enumerate(ents):
        actor = decompose(name)
        if actor is None:
            continue
        x = eid.get(actor.place.replace(" ", "_"))
        if x is not None and not lex.is_place(actor.place):
            out.setdefault(x, []).append(i)
    return {k: tuple(v) for k, v in out.items()}


# --------------------------------------------------------------------------- data files


def _field(s: str, sep: str = ",") -> list[str]:
    s = s.strip()
    return [] if s in ("", "-") else [x.strip() for x in s.split(sep) if x.strip()]


@dataclass(slots=True)
class _Place:
    key: str
    names: list[str]
    adjectives: list[str]
    people: list[str]
    after: list[str]  # phrases written after a sector noun for the place ("worldwide"; names26)


@functools.lru_cache(maxsize=1)
def _place_rows() -> dict[str, _Place]:
    rows: dict[str, _Place] = {}
    for cols in data_lines("places.tsv"):
        cols += ["-"] * (5 - len(cols))
        key = cols[0].strip()
        adjs, people, names = _field(cols[1], "|"), _field(cols[2], "|"), _field(cols[3], "|")
        after = _field(cols[4], "|")
        if not people:
            people = [a + "s" for a in adjs if a.endswith(("an", "i")) and a[:1].isupper()]
        if not re.fullmatch(r"[A-Z]{3}", key):
            names = [key] + names
        rows[key] = _Place(key, names, adjs, people, after)
    return rows


@functools.lru_cache(maxsize=1)
def _capitals() -> dict[str, list[str]]:
    """data/capitals.tsv: a country's capital is written for its government ("Beijing said",
    "Seoul protested"); the KG has no entity for these cities and codes such statements as the
    country's, so a capital is one more name of its place. Added after the data file's own
    names (never rendered: generated phrasings keep the country's names)."""
    return {cols[0].strip(): _field(cols[1], "|") for cols in data_lines("capitals.tsv") if len(cols) >= 2}


def capitals() -> dict[str, list[str]]:
    """data/capitals.tsv by the place lexicon's key: each country's capital spellings (names25:
    the person index keeps their words out of its place words)."""
    return _capitals()


def _iso_names(iso3: str) -> list[str]:
    """pycountry's names of a country (ISO name, common name, official name), [] if none."""
    try:
        import pycountry  # noqa: PLC0415
    except ImportError:  # pragma: no cover - dependency missing: places.tsv names only
        return []
    c = pycountry.countries.get(alpha_3=iso3)
    if c is None:
        return []
    return [n for n in (getattr(c, "common_name", None), c.name, getattr(c, "official_name", None)) if n]


def _iso_lookup(place: str) -> str | None:
    """ISO-3 of a country name or code written some other way ("Korea, Republic of")."""
    try:
        import pycountry  # noqa: PLC0415

        return pycountry.countries.lookup(place).alpha_3
    except (ImportError, LookupError):
        return None


@functools.lru_cache(maxsize=1)
def _sector_rows() -> dict[str, list[tuple[str, float]]]:
    rows: dict[str, list[tuple[str, float]]] = {}
    for cols in data_lines("sectors.tsv"):
        forms = []
        for f in _field(cols[1] if len(cols) > 1 else ""):
            text, _, sc = f.partition(":")
            forms.append((text.strip(), float(sc) if sc else 1.0))
        rows[fold(cols[0].replace("_", " ").strip())] = forms
    return rows


# --------------------------------------------------------------------------- forms

_IRREGULAR = {
    "man": "men", "woman": "women", "child": "children", "men": "men", "women": "women", "children": "children", "person": "people", "people": "people",
    "police": "police", "staff": "staff", "media": "media", "clergy": "clergy", "military": "military",
    "personnel": "personnel", "fisherman": "fishermen", "seaman": "seamen", "policeman": "policemen",
    "policewoman": "policewomen", "businessman": "businessmen", "businesswoman": "businesswomen",
    "serviceman": "servicemen", "clergyman": "clergymen", "militiaman": "militiamen", "troops": "troops",
    "forces": "forces", "authorities": "authorities", "public": "public", "press": "press",
    "poor": "poor", "faithful": "faithful", "judiciary": "judiciary", "leadership": "leadership",
    "sheep": "sheep", "thief": "thieves", "wolf": "wolves", "wife": "wives", "knife": "knives",
    "life": "lives", "half": "halves", "self": "selves", "leaf": "leaves", "enforcement": "enforcement", "intelligence": "intelligence", "chinese": "chinese", "swiss": "swiss", "workforce": "workforce", "army": "armies", "brass": "brass",
}


_SLOT = "qqslotqq"  # stands for a template's "*" while its plural is formed


def plural(phrase: str) -> str:
    """English plural of a noun phrase's head (its last word; "head of government" ->
    "heads of government")."""
    words = phrase.split()
    if not words:
        return phrase
    # head noun: the word before "of"/"to"/"for"/"without" if any ("member of parliament")
    h = next((k - 1 for k, w in enumerate(words) if k and w.lower() in ("of", "to", "for", "without", "in")), len(words) - 1)
    w = words[h]
    lw = w.lower()
    if lw in _IRREGULAR:
        p = _IRREGULAR[lw]
    elif lw.endswith("man") and len(lw) > 4:
        p = w[:-3] + "men"
    elif lw.endswith("person") and len(lw) > 6:  # businessperson -> businesspeople (nlu11)
        p = w[:-6] + "people"
    elif re.search(r"[^aeiou]y$", lw):
        p = w[:-1] + "ies"
    elif re.search(r"(ss|us|is|x|z|ch|sh)$", lw):
        p = w + "es"
    elif lw.endswith("s"):  # already plural: forces, troops, advisors, assemblies
        p = w
    else:
        p = w + "s"
    if w.isupper() and len(w) > 1:  # MP -> MPs
        p = w + "s"
    return " ".join(words[:h] + [p] + words[h + 1 :])


def sector_own_forms(sector: str) -> list[str]:
    """Forms read off the sector name itself: ``Lawyer/Attorney`` -> lawyer, attorney;
    ``Justice Department/Ministery`` -> justice department, justice ministery;
    ``Cabinet / Council of Ministers / Advisors`` -> cabinet, council of ministers, advisors;
    ``Finance / Economy / Trade Ministry`` -> finance ministry, economy ministry, trade ministry.
    Also "ministry of X" / "X department" / "X minister" for every "X ministry"."""
    s = re.sub(r"\s*-\s*", " - ", sector.replace("_", " "))
    s = re.sub(r"\(([^)]*)\)", r"\1", s)  # Member of Legislative (Govt)
    alts = [a.strip() for a in re.split(r"\s+/\s+", s) if a.strip()]
    if len(alts) > 1 and all(len(a.split()) == 1 for a in alts[:-1]) and len(alts[-1].split()) > 1:
        tail = " ".join(alts[-1].split()[1:])
        alts = [f"{a} {tail}" for a in alts[:-1]] + [alts[-1]]
    forms: list[str] = []
    for a in alts:
        words = a.split()
        variants = [[]]
        for w in words:
            parts = [p for p in w.split("/") if p]
            variants = [v + [p] for v in variants for p in parts]
        for v in variants:
            f = " ".join(v).lower().replace(" - ", " ").strip()
            if f:
                forms.append(f)
    more = []
    for f in forms:
        m = re.fullmatch(r"(.+?) (ministry|ministery|department)", f)
        if m:
            x = m.group(1)
            more += [f"ministry of {x}", f"department of {x}", f"{x} ministry", f"{x} department", f"{x} minister", f"minister of {x}"]
        m = re.fullmatch(r"(ministry|department) of (.+)", f)
        if m:
            x = m.group(2)
            more += [f"{x} ministry", f"{x} department", f"{x} minister", f"minister of {x}"]
    out: list[str] = []
    for f in forms + more:
        if f not in out:
            out.append(f)
    return out


@functools.lru_cache(maxsize=1)
def _premodifiers() -> list[tuple[str, tuple[str, ...]]]:
    """(modifier, its spellings) of data/premodifiers.tsv, longest modifier first."""
    rows = [(c[0].strip(), (c[0].strip(), *_field(c[1] if len(c) > 1 else ""))) for c in data_lines("premodifiers.tsv")]
    return sorted(rows, key=lambda r: -len(r[0].split()))


def premodified_templates(form: str) -> list[str]:
    """Templates "MODIFIER * REST" of a form that opens with a modifier English writes before a
    nationality adjective (names23: "high ranking military personnel" -> "high-ranking *
    military personnel", read in "high-ranking Indian military personnel"); [] otherwise."""
    if "*" in form:
        return []
    for _, spellings in _premodifiers():
        for sp in spellings:
            if form.startswith(sp + " "):
                rest = form[len(sp) + 1:]
                return [f"{s} * {rest}" for s in spellings]
    return []


def sector_forms(sector: str) -> list[tuple[str, float]]:
    """All singular forms of a sector with their scores (data file first, then own words, then
    the premodified templates of both)."""
    data = _sector_rows().get(fold(sector.replace("_", " ")), [])
    out: dict[str, float] = {}
    for f, sc in data:
        if "@" in f:
            continue
        out[f] = max(out.get(f, 0.0), sc)
        # "X ministry" synonyms get "ministry of X" etc. too
        for g in sector_own_forms(f) if re.search(r"\b(ministry|department)\b", f) and "*" not in f else ():
            out.setdefault(g, sc)
    # a name listing many alternatives ("Finance / Economy / Commerce / Trade Ministry") is
    # less specifically about each one than a name with one or two ("Treasury/Finance
    # Ministry"): its own words score a shade lower, so the specific sector ranks first
    n_alts = len(re.split(r"\s*/\s*", sector.replace("_", " ")))
    own = 1.0 if n_alts <= 2 else 0.9
    for f in sector_own_forms(sector):
        out.setdefault(f, own)
    for f, sc in list(out.items()):
        for t in premodified_templates(f):
            out.setdefault(t, sc)
    return list(out.items())


def _flagged(flag: str) -> dict[str, float]:
    out = {}
    for key, forms in _sector_rows().items():
        for f, sc in forms:
            if f == flag:
                out[key] = sc
    return out


def people_modifiers() -> dict[str, list[tuple[tuple[str, ...], float]]]:
    """Sector key -> (words, score) of forms "WORDS @people" (names21): a word written before a
    country's people noun that makes those people this sector ("indigenous South Koreans",
    "native Americans": the country's Indigenous_People, not its citizens)."""
    out: dict[str, list[tuple[tuple[str, ...], float]]] = {}
    for key, forms in _sector_rows().items():
        for f, sc in forms:
            words, at, flag = f.rpartition("@")
            if at and flag == "people" and words.strip():
                out.setdefault(key, []).append((norm_tokens(words), sc))
    return out


def people_sectors() -> dict[str, float]:
    """Sector key -> score for sectors meant by a country's people nouns (``@people``)."""
    return _flagged("@people")


def country_sectors() -> dict[str, float]:
    """Sector key -> weight with which its forms also mean the place's own entity
    (``@country``: ICEWS codes a state's government as the country itself, so "the Iraqi
    government" is ``Iraq`` where the KG has no ``Government_(Iraq)``)."""
    return _flagged("@country")


def country_forms() -> dict[str, list[tuple[str, float]]]:
    """Sector key -> (form, weight) of entries "FORM @country:w" (refs28): a form of the sector
    that means the place's own entity with its own weight, above the sector's ``@country``
    weight ("the French authorities": ICEWS codes a country's authorities as the country; the
    KG has Arrest_* facts of France 433 times, of Government_(France) once)."""
    out: dict[str, list[tuple[str, float]]] = {}
    for key, forms in _sector_rows().items():
        for f, sc in forms:
            words, at, flag = f.rpartition("@")
            if at and flag == "country" and words.strip():
                out.setdefault(key, []).append((words.strip(), sc))
    return out


# --------------------------------------------------------------------------- places


class PlaceLexicon:
    """Resolves a KG place string (``United_Kingdom``, ``Palestinian_Territory,_Occupied``,
    ``Taliban``) to its surface forms: names, adjectives and people nouns."""

    def __init__(self) -> None:
        self.rows = _place_rows()
        self._by_name: dict[tuple[str, ...], str] = {}
        self.own_names: dict[str, list[str]] = {}  # the data file's names (for rendering)
        for key, row in self.rows.items():
            self.own_names[key] = list(row.names)
            if re.fullmatch(r"[A-Z]{3}", key):
                row.names = _dedup(row.names + _iso_names(key))
            row.names = _dedup(row.names + _capitals().get(key, []))
            for n in row.names:
                self._by_name.setdefault(norm_tokens(n), key)

    @functools.lru_cache(maxsize=None)  # noqa: B019 - one lexicon per process
    def resolve(self, place: str) -> str | None:
        """The lexicon key of a place string, or None (an organisation, a party, ...)."""
        toks = norm_tokens(place)
        if toks and toks[0] == "the":
            toks = toks[1:]
        key = self._by_name.get(toks)
        if key is not None:
            return key
        iso3 = _iso_lookup(place.replace("_", " "))
        return iso3 if iso3 in self.rows else None

    def forms(self, place: str) -> tuple[list[str], list[str], list[str]]:
        """(names, adjectives, people nouns) of a KG place string. An unresolved place is
        written as itself, as a name and as a noun adjunct ("Taliban militants")."""
        disp = " ".join(place.replace("_", " ").split())
        key = self.resolve(place)
        if key is None:  # an organisation: also by its acronym ("ELN guerrillas"; names14), the
            # data file's or the initials of its words ("ULFA militants" for
            # Militant_(United_Liberation_Force_of_Assam); names16), as the matcher reads names

            ini = initials(place)
            own = [disp] + _org_aliases().get(fold(place.replace("_", " ")), []) + ([ini] if ini else [])
            return _dedup(own), _dedup(own), []
        row = self.rows[key]
        return _dedup([disp] + row.names), list(row.adjectives), list(row.people)

    def after_forms(self, place: str) -> list[str]:
        """Phrases written after a sector noun that place it ("citizens from around the world",
        "journalists worldwide" for ``X_(International)``; names26): the data file's fifth column."""
        key = self.resolve(place)
        return list(self.rows[key].after) if key is not None else []

    def named(self, toks: tuple[str, ...]) -> str | None:
        """The lexicon key of a place written by one of its names (folded tokens), or None;
        unlike :meth:`resolve` no code lookup ("Co", "TV" are no places in a name's words)."""
        return self._by_name.get(tuple(toks))

    def is_place(self, text: str) -> bool:
        return self.resolve(text) is not None


@functools.lru_cache(maxsize=1)
def _org_aliases() -> dict[str, list[str]]:
    """data/aliases.tsv's other names by folded KG name: an organisation that is an actor's
    place is written by its acronym there too ("ELN guerrillas" for
    Guerrilla_(National_Liberation_Army)), and by its other spellings ("the Shabaab militants"
    for Al-Shabaab's actors; names26). Acronyms of three capitals or more: a two-letter one
    ("AU") is too ambiguous before a noun ("AU peacekeepers" is also the relation "receive
    deployment of peacekeepers" from the AU), as the matcher derives no two-letter acronym."""
    out: dict[str, list[str]] = {}
    for row in data_lines("aliases.tsv"):
        if len(row) >= 2:
            forms = [f.strip() for f in row[1].split("|")
                     if re.fullmatch(r"[A-Z]{3,7}", f.strip()) or not re.fullmatch(r"[A-Z]{1,2}", f.strip())]
            if forms:
                out[fold(row[0].strip().replace("_", " "))] = forms
    return out


def _dedup(xs: list[str]) -> list[str]:
    seen, out = set(), []
    for x in xs:
        k = fold(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


@functools.lru_cache(maxsize=1)
def place_lexicon() -> PlaceLexicon:
    return PlaceLexicon()


# --------------------------------------------------------------------------- grammar


@dataclass(frozen=True, slots=True)
class ActorMatch:
    """One actor reference found in a token list: token span [start, end), the core span
    without a leading determiner, and scored candidate entity ids (best first)."""

    start: int
    core_start: int
    end: int
    candidates: tuple[tuple[int, float], ...]


def _insert(root: dict, toks: tuple[str, ...], value) -> None:
    node = root
    for t in toks:
        node = node.setdefault(t, {})
    node.setdefault(_END, []).append(value)


# punctuation inside a written form that the trie's forms leave out: a sector name such as
# "Military_Personnel_-_Special" or "Member_of_Legislative_(Govt)" is read as "military personnel
# special" / "member of legislative govt", and a question may keep the name's own punctuation
# ("the military personnel - special of Sudan", "the member of legislative (govt) of Iran")
_INNER_PUNCT = {"-", "–", "(", ")"}


def _walk(root: dict, norms: list[str], i: int) -> list[tuple[int, list]]:
    """All (end, values) of trie entries matching norms[i:...], shortest first. Inner
    punctuation the trie has no entry for is skipped; a match that opened a bracket takes its
    closing bracket along."""
    out: dict[int, list] = {}
    # (node, j, opened) states; a hyphen the trie has an entry for may still be one that this
    # form writes as a space: "harkat - ul - ansar" for Harkat_ul_Ansar beside a trie branch
    # "harkat - ul - jihad" of Harkat-ul-Jihad_al-Islami (names28), so both paths are walked
    stack = [(root, i, False)]
    while stack:
        node, j, opened = stack.pop()
        while j < len(norms):
            w = norms[j]
            if j > i and w in _INNER_PUNCT:
                if w not in node:
                    opened = opened or w == "("
                    j += 1
                    continue
                if w == "-":
                    stack.append((node, j + 1, opened))
            node = node.get(w)
            if node is None:
                break
            j += 1
            if _END in node:
                end = j + 1 if opened and j < len(norms) and norms[j] == ")" else j
                out.setdefault(end, node[_END])
    return sorted(out.items())


# words that can follow a demonym used as a noun ("a Tanzanian who", "an Iraqi first"): no noun
_AFTER_NOUN = _PREP | {"first", "last", "next", "also", "then", "who", "whom", "that", "and", "or", "had",
                       "has", "was", "is", "did", "'s", "’s"}


@functools.lru_cache(maxsize=1)
def _sector_stems() -> frozenset[str]:
    """Stems of every word of every sector form: the words :func:`_theme_pairs` and
    :func:`_verb_pairs` look for in the relation lexicon's phrases."""
    from .lexicon import stem

    return frozenset(stem(w) for s in _sector_rows() for f, _ in sector_forms(s) for w in f.lower().split())


@functools.lru_cache(maxsize=1)
def _theme_pairs() -> frozenset[tuple[str, str]]:
    """(verb stem, noun stem) of the relation lexicon's phrases whose noun is a word of their
    own CAMEO name ("receive peacekeepers from" of Receive_deployment_of_peacekeepers,
    "admit inspectors from" of Receive_inspectors): after that verb the noun is the action's
    theme, no actor ("Sudan received Chinese peacekeepers": from China)."""
    from .lexicon import load_data, stem

    sectors = _sector_stems()
    out = set()
    for rel, entry in load_data()["relations"].items():
        own = {stem(w) for w in re.findall(r"[a-z]+", rel.lower())} & sectors
        if isinstance(entry, dict):  # a family member's action phrases (names32, below)
            pats, own = [str(p) for k in ("x", "also") for p in entry.get(k) or []], set()
        elif isinstance(entry, list):
            pats = [str(p) for p in entry]
        else:
            continue
        for pat in pats:
            ws = [stem(w) for w in re.findall(r"[a-z]+", pat.lower())]
            out.update((v, n) for v, n in zip(ws, ws[1:]) if n in own and not {v, n} & _FUNCTION_WORDS)
            # names32: "VERB NOUN from" with a sector noun ("accept troops from" of
            # Express_intent_to_allow_international_involvement): the phrase itself says the
            # noun comes from the object, so the noun is the theme, no actor of that place
            out.update((v, n) for v, n, f in zip(ws, ws[1:], ws[2:])
                       if f == "from" and n in sectors and not {v, n} & _FUNCTION_WORDS)
    return frozenset(out)


_FUNCTION_WORDS = {"a", "an", "the", "to", "in", "on", "with", "by", "of", "off", "out", "up", "down", "into", "as", "no", "for"}


@functools.lru_cache(maxsize=1)
def _verb_pairs() -> frozenset[tuple[str, str]]:
    """(first, second) word stems of the relation lexicon's phrases whose first word is also a
    word of a sector form ("press charges against", "press for"): after a place's plain name,
    such a word followed by the phrase's next word is that verb, no actor ("Iran press charges
    against X" is Iran's action, not the Iranian press; names17 made "press" a form of
    Media_Personnel)."""
    from .lexicon import load_data, stem

    sectors = _sector_stems()
    out = set()
    for entry in load_data()["relations"].values():
        for pat in entry if isinstance(entry, list) else ():
            ws = [stem(w) for w in re.findall(r"[a-z]+|\{", pat.lower())]
            if len(ws) > 1 and ws[0] in sectors and ws[1] != "{":
                out.add((ws[0], ws[1]))
    return frozenset(out)


def _verb_at(norms: list[str], k: int) -> bool:
    """True when token k - 1 (a sector form's last word) and token k start a lexicon phrase:
    :func:`_verb_pairs`."""
    from .lexicon import stem

    return 0 < k < len(norms) and (stem(norms[k - 1]), stem(norms[k])) in _verb_pairs()


# names31: nouns of an act that a sector word may qualify as an adjective ("military action",
# "military operation"); read as such only where the relation lexicon has the two words as the
# start of a phrase (:func:`_verb_pairs`: "military action against" of Use_conventional_military_force)
# (nouns only: "attack" / "assault" are verbs too, "Nigeria's military attacked X")
_ACT_NOUNS = frozenset({"action", "actions", "operation", "operations", "offensive", "offensives",
                        "intervention", "campaign"})
_ACT_NOUN_SECTOR = 0.9  # the sector's own actor, a lower reading of "X's military action"


def _act_noun_at(norms: list[str], k: int) -> bool:
    """True when token k is an act noun (_ACT_NOUNS) that the sector word before it opens a
    relation-lexicon phrase with, and "against" its target follows: the sector word is the
    act's adjective, no actor ("Niger's military action against X"; not "criticized the Iranian
    military action in Iraq", where the noun is another verb's object)."""
    return (0 < k < len(norms) - 1 and norms[k] in _ACT_NOUNS and norms[k + 1] == "against"
            and _verb_at(norms, k))


def _theme_after_verb(norms: list[str], j: int, k: int) -> bool:
    """True when the sector noun at token k is the theme of the verb before token j (an
    optional article between): :func:`_theme_pairs`."""
    from .lexicon import stem

    v = j - 2 if j > 1 and norms[j - 1] in ("the", "a", "an") else j - 1
    if v >= 1 and norms[v] in ("of", "in") and k < len(norms) and (stem(norms[v - 1]), stem(norms[k])) in _theme_of_pairs():
        return True  # "called for a change of regime in X" (refs28): the change's theme
    return v >= 0 and k < len(norms) and (stem(norms[v]), stem(norms[k])) in _theme_pairs()


@functools.lru_cache(maxsize=1)
def _theme_of_pairs() -> frozenset[tuple[str, str]]:
    """(noun stem, sector stem) of "NOUN of|in [the] SECTOR" in a KG relation name or the
    relation lexicon's phrases, the sector a word of the relation's own name (refs28):
    ``Appeal_for_change_in_institutions,_regime`` / "change of regime", ``Demand_change_in_
    leadership``. After "a change of", the sector noun is the change's theme, no actor ("called
    for a change of regime in Japan": Japan, not its government)."""
    from .lexicon import load_data, stem

    sectors = _sector_stems()
    out = set()
    for rel, entry in load_data()["relations"].items():
        own = {stem(w) for w in re.findall(r"[a-z]+", rel.lower())} & sectors
        if not own:
            continue
        pats = [rel.replace("_", " ")]
        if isinstance(entry, dict):
            pats += [str(p) for k in ("x", "also") for p in entry.get(k) or []]
        elif isinstance(entry, list):
            pats += [str(p) for p in entry]
        for pat in pats:
            ws = [w for w in re.findall(r"[a-z]+", pat.lower()) if w not in ("the", "a", "an")]
            out.update((stem(a), stem(n)) for a, p, n in zip(ws, ws[1:], ws[2:])
                       if p in ("of", "in") and stem(n) in own and a not in _FUNCTION_WORDS and n not in _FUNCTION_WORDS
                       and n not in ("or", "and") and len(n) > 2)
    return frozenset(out)


_POSS_PRONOUNS = {"its", "their", "his", "her", "our", "my", "your"}


def _owned_or_classified(norms: list[str], j: int) -> bool:
    """True when the sector noun at token j is no actor of the place after it (names26): a
    possessive pronoun owns it ("withdrew its troops from Japan": the subject's troops, Japan
    the place), or a classifier before it is the theme of the verb before that ("hosted
    peacekeeping troops from Japan": the relation's peacekeepers, sent by Japan), the
    classifier's stem a prefix of the theme's (peacekeep / peacekeeper)."""
    from .lexicon import stem

    if j < 1:
        return False
    if norms[j - 1] in _POSS_PRONOUNS:
        return True
    if j < 2 or not norms[j - 1].isalpha():
        return False
    v = j - 3 if j > 2 and norms[j - 2] in ("the", "a", "an") else j - 2
    if v < 0:
        return False
    vs, ms = stem(norms[v]), stem(norms[j - 1])
    return len(ms) >= 5 and any(pv == vs and pn.startswith(ms) for pv, pn in _theme_pairs())


def _no_noun_at(norms: list[str], k: int) -> bool:
    """True when token k starts no noun: the end, punctuation, a closed-class word or a past
    tense ("a Tanzanian killed")."""
    return k >= len(norms) or not norms[k][:1].isalpha() or norms[k] in _AFTER_NOUN or norms[k].endswith("ed")


# Arabic article / kinship particles that open a group's name, joined to the next word by a
# hyphen or a space ("al-Qaeda" / "Al Qaeda", "Al-Shabaab" / "al Shabaab"; names22)
_HYPHEN_PARTICLES = frozenset({"al", "el", "ad", "ash", "as", "ar", "an", "bin", "ibn", "abu", "ansar"})


def _named_qualifier(place: str, known_sectors: set[str]) -> bool:
    """Whether an actor's qualifier of no known place is an organisation's proper name
    (names32): every word capitalised and none a word of a sector (data/sectors.tsv), as
    ``Spokesman_for_the_Opposition_(Bloc_Québécois)`` (the party Bloc Québécois: its
    spokesman, the party written alone one of its actors). A kind word is no owner:
    ``Noorzai_(Social_Group)`` is the Noorzai, a social group (Group heads Ethnic_Group,
    Rebel_Group), ``Hawiye_(ethnic)`` and ``..._(united)`` are lower case; each word has three
    letters or more."""
    words = place.split()
    if not words or not all(w[:1].isupper() and len(w) >= 3 for w in words):
        return False  # (a faction's letter, Pakistan_Muslim_League_(Q), is no owner)
    sector_words = _sector_words(frozenset(known_sectors))
    return not any(fold(w) in sector_words for w in words)


@functools.lru_cache(maxsize=2)
def _sector_words(known: frozenset[str]) -> frozenset[str]:
    return frozenset(w for s in known for w in re.findall(r"[a-z]+", s))


def _hyphen_variants(toks: tuple[str, ...]) -> list[tuple[str, ...]]:
    """A place form and its other writing of a particle's join: "al qaeda" <-> "al - qaeda"
    (ICEWS writes Al_Qaeda, news "al-Qaeda"; Al-Shabaab the other way; names22)."""
    out = [toks]
    if "-" in toks[1:-1]:
        out.append(tuple(t for t in toks if t != "-"))
    elif len(toks) >= 2 and toks[0] in _HYPHEN_PARTICLES:
        out.append((toks[0], "-") + toks[1:])
    return out


class ActorGrammar:
    """Precomputed actor grammar of one entity list. Build: :meth:`from_names`."""

    def __init__(self) -> None:
        self.place_trie: dict = {}  # -> (place_id, kind, needs_capital) kind: name|adj|people
        self.sector_trie: dict = {}  # -> (sector_id, score)
        self.template_trie: dict = {}  # prefix -> (suffix toks, sector_id, score)
        # the same templates with "the" + ADJ written as NAME 's: "head of the * government"
        # -> "head of * 's government" (nlu11)
        self.template_poss_trie: dict = {}
        self.pairs: dict[tuple[int, int], tuple[int, ...]] = {}
        self.people: dict[int, float] = {}  # sector_id -> score of people nouns
        self.people_mod_trie: dict = {}  # modifier words -> (sector_id, score): "indigenous" + people noun
        self.after_trie: dict = {}  # postposed place phrases -> place_id ("worldwide"; names26)
        self.group_trie: dict = {}  # full names of groups the KG has only as actors' place -> place_id
        self.group_noun_trie: dict = {}  # such a group's alias another entity has too -> (place_id, owners) (names34)
        self.groups: dict[int, dict[int, float]] = {}  # such a place_id -> its actors, scored by facts
        self.group_leaders: dict[int, tuple[int, ...]] = {}  # such a place_id -> its head actors (names30)
        self.pair_weight: dict[int, float] = {}  # entity id -> weight in its pair (names30)
        # names30: the rest of a "COUNTRY-ADJ REST" adjective ("kurdish" of "Iraqi Kurdish")
        # -> {country place_id: that place_id}, for "Kurdish fighters in Iraq"
        self.split_adj_trie: dict = {}
        self.actors: dict[int, ActorName] = {}  # entity id -> decomposition
        self.sector_names: list[str] = []
        self.place_names: list[str] = []
        self._starts: set[str] = set()  # first tokens of any pattern (a cheap pre-filter)
        self._fuzzy_vocab: list[str] = []  # one-word place forms, for misspellings
        self.weights = None  # fact counts by entity id (from_names' weights), if known

    @classmethod
    def from_names(cls, names: list[str], weights=None) -> "ActorGrammar":
        """The grammar of an entity list; ``weights`` (fact counts by entity id, optional) rank
        the actors a group written alone may mean (:meth:`_add_groups`)."""
        g = cls()
        g.weights = weights
        lex = place_lexicon()
        known_sectors = set(_sector_rows())
        parsed: list[tuple[int, ActorName]] = []
        sector_places: dict[str, set[str]] = {}
        for eid, name in enumerate(names):
            a = decompose(name)
            if a is not None:
                parsed.append((eid, a))
                sector_places.setdefault(fold(a.sector), set()).add(a.place)
        sector_ids: dict[str, int] = {}
        place_ids: dict[str, int] = {}
        for eid, a in parsed:
            sk = fold(a.sector)
            sector_known = sk in known_sectors or len(sector_places[sk]) >= 2
            if (lex.is_place(a.place) or sector_known or _named_qualifier(a.place, known_sectors)) and not lex.is_place(a.sector):
                g.actors[eid] = a
        # entities that are not actors, by name: a place's own entity ("Iraq")
        plain = {norm_tokens(n): eid for eid, n in enumerate(names) if eid not in g.actors}
        for eid, a in g.actors.items():
            sk = fold(a.sector)
            if sk not in sector_ids:
                sector_ids[sk] = len(g.sector_names)
                g.sector_names.append(a.sector)
            pk = lex.resolve(a.place) or "=" + fold(a.place)
            if pk not in place_ids:
                place_ids[pk] = len(g.place_names)
                g.place_names.append(a.place)
                own = plain.get(norm_tokens(a.place))
                if own is None:  # ... by another of its names (names23: Holy_See for the actors'
                    own = g._own_by_other_name(a.place, plain)  # Holy_See_(Vatican_City_State))
                if own is not None:  # the place is an entity itself ("Iraq")
                    g.pairs[(_COUNTRY, place_ids[pk])] = (own,)
            key = (sector_ids[sk], place_ids[pk])
            g.pairs[key] = g.pairs.get(key, ()) + (eid,)
        # place forms
        for pk, pid in place_ids.items():
            names_, adjs, people = lex.forms(g.place_names[pid])
            for kind, forms in (("name", names_), ("adj", adjs), ("people", people)):
                for f in forms:
                    for toks in _hyphen_variants(norm_tokens(f)):
                        if toks[:1] == ("the",) and len(toks) > 1:  # "the Gambia": the article is optional
                            _insert(g.place_trie, toks[1:], (pid, kind, any(c.isupper() for c in f)))
                        if toks:
                            _insert(g.place_trie, toks, (pid, kind, any(c.isupper() for c in f)))
        # sector forms
        peo = people_sectors()
        ctry = country_sectors()
        mods = people_modifiers()
        cforms = country_forms()
        for sk, sid in sector_ids.items():
            for form, w in cforms.get(sk, ()):
                for f in {form, plural(form)}:
                    if norm_tokens(f):
                        _insert(g.sector_trie, norm_tokens(f), (_COUNTRY, w))
            if sk in peo:
                g.people[sid] = peo[sk]
            for toks, sc in mods.get(sk, ()):
                _insert(g.people_mod_trie, toks, (sid, sc))
            targets = [(sid, 1.0)] + ([(_COUNTRY, ctry[sk])] if sk in ctry else [])
            for form, sc in sector_forms(g.sector_names[sid]):
                for tid, w in targets:
                    if "*" in form:  # singular and plural ("senior * officer(s)")
                        for f in {form, plural(form.replace("*", _SLOT)).replace(_SLOT, "*")}:
                            pre, _, suf = f.partition("*")
                            pre_t = norm_tokens(pre)
                            _insert(g.template_trie, pre_t, (norm_tokens(suf), tid, sc * w))
                            if pre_t and pre_t[-1] == "the":  # "head of Taiwan's government" (nlu11)
                                _insert(g.template_poss_trie, pre_t[:-1], (norm_tokens(suf), tid, sc * w))
                        continue
                    for f in {form, plural(form)}:
                        toks = norm_tokens(f)
                        if toks:
                            _insert(g.sector_trie, toks, (tid, sc * w))
        for pid, place in enumerate(g.place_names):
            for f in lex.after_forms(place):
                _insert(g.after_trie, norm_tokens(f), pid)
        g._add_named_institutions(names, plain)
        g._add_groups(weights)
        g._add_group_names_and_leaders(names)
        g._add_split_adjectives()
        g._starts = (set(g.place_trie) | set(g.sector_trie) | set(g.template_trie) | set(g.template_poss_trie) | set(g.split_adj_trie)
                     | set(g.people_mod_trie) | set(g.group_trie) | set(g.group_noun_trie) | _DETS)
        g._fuzzy_vocab = sorted(t for t, node in g.place_trie.items() if _END in node and len(t) >= _FUZZY_MIN_LEN)
        return g

    def _add_groups(self, weights) -> None:
        """A group the KG knows only through its sectors (names26: ``Combatant_(Al_Qaeda)``,
        ``Armed_Gang_(Al_Qaeda)``, ``Insurgent_(Al_Qaeda)``, ... and no ``Al_Qaeda``) is written
        by its name alone ("al-Qaeda", "the Taliban", "Hamas"): the name means all of those
        actors, each a candidate scored by its share of facts (the most-cited
        ``_GROUP_WEIGHT``, the rest down to half that), for the KG to decide. Only places that
        are no country or region of the lexicon, have no entity of their own and are written
        with a capital (a name, not "ethnic"), after a lower-case Arabic article if any: ICEWS
        writes ``Militant_(al-Qaeda_in_Iraq)``, ``Combatant_(al-Qaeda_in_the_Islamic_Maghreb)``
        (the article is no capital of its own; tccrag20). A capital is a capital accented or
        not ("Émirats", ``str.isupper``)."""
        lex = place_lexicon()
        article = re.compile(r"(?:al|el)[-_ ](?=\w)")
        by_pid: dict[int, list[int]] = {}
        for (sid, pid), eids in self.pairs.items():
            if sid != _COUNTRY:
                by_pid.setdefault(pid, []).extend(eids)
        for pid, eids in by_pid.items():
            place = self.place_names[pid]
            name = place[article.match(place).end():] if article.match(place) else place
            if (_COUNTRY, pid) in self.pairs or lex.resolve(place) is not None or not name[:1].isupper():
                continue
            facts = {e: float(weights[e]) if weights is not None else 1.0 for e in eids}
            top = max(facts.values()) or 1.0
            self.groups[pid] = {e: _GROUP_WEIGHT * (0.5 + 0.5 * f / top) for e, f in facts.items()}
            for toks in _hyphen_variants(norm_tokens(place)):
                _insert(self.group_trie, toks, pid)

    def group_of(self, name: str) -> tuple[int, ...]:
        """The actors of a group the KG knows only through its sectors (:meth:`_add_groups`)
        for the group's name written alone: the whole of ``name`` (article dropped by the
        caller) is one of the group's forms of :attr:`group_trie` (the KG's place name, its
        hyphen variants, its other names of :meth:`_add_group_names_and_leaders`); best first
        (by the share of facts :meth:`_add_groups` scored), () for any other text. The one
        reading of such a name TCC-RAG's grounding takes for a mention no tier grounds, as
        this grammar reads it inside a question for SCoP (tccrag24: before, TCC-RAG kept its
        own index of the KG's "(qualifier)"s, ``parsing._group_names``; the two differed only
        where this grammar is right: ``Noorzai_(Social_Group)`` is no actor of a group "Social
        Group" (names32's kind qualifiers), and "First Nations" also means the named
        Assembly_of_First_Nations)."""
        norms = list(norm_tokens(name))
        if not norms:
            return ()
        group: dict[int, float] = {}
        for end, pids in _walk(self.group_trie, norms, 0):
            if end == len(norms):
                for pid in pids:
                    group.update(self.groups.get(pid, {}))
        return tuple(sorted(group, key=lambda e: -group[e]))

    def _add_group_names_and_leaders(self, names: list[str]) -> None:
        """names30: a group of :meth:`_add_groups` is also written by its other names of
        data/aliases.tsv ("ISIL" for Islamic_State_of_Iraq_and_the_Levant; not a name another
        entity has: "IRA" stays Provisional_Irish_Republican_Army's)
        and, for "X Party", without "Party" ("Pheu Thai" for Pheu_Thai_Party); and its actors
        whose sector names a head (last word Leader / President / Chief / Chairman / Commander:
        Terrorist_Leader_(ISIL), Party_President_(Pheu_Thai_Party)) are what "GROUP leader"
        means, as for an organisation with an entity of its own (Insurgent_Leader_(Taliban) for "the
        Taliban leader"). Only such places: a country's leader is its Head_of_Government
        (pattern A)."""
        lex = place_lexicon()
        by_pid: dict[int, list[int]] = {}
        for (sid, pid), eids in self.pairs.items():
            if sid != _COUNTRY and lex.resolve(self.place_names[pid]) is None:
                by_pid.setdefault(pid, []).extend(e for e in eids if e in self.actors)
        for pid, eids in by_pid.items():  # groups and organisations (the Taliban): not countries
            heads = tuple(sorted({e for e in eids
                                  if self.actors[e].sector.replace("_", " ").split()[-1].lower() in _LEADER_SECTOR_HEADS}))
            if heads:
                self.group_leaders[pid] = heads
        taken = None  # other entities' acronyms and aliases: "IRA" stays Provisional_IRA's
        for pid in self.groups:
            place = self.place_names[pid]
            key = fold(place.replace("_", " "))
            if taken is None:
                taken = {}  # folded form -> the alias rows / names that have it
                for k, al in _org_aliases().items():
                    for a in al:
                        taken.setdefault(fold(a), set()).add(k)
                for x in names:
                    if initials(x):
                        taken.setdefault(fold(initials(x)), set()).add("")
            # only the data file's names, not derived initials: a group written alone has no
            # noun after it to tell "JAN" (Jabhat al-Nusra) from "Jan." (January)
            names_ = [f for f in _org_aliases().get(key, []) if taken.get(fold(f), set()) <= {key}]
            # names34: an alias another row has too ("IRA": Provisional_Irish_Republican_Army's) names
            # this group only before a sector noun ("IRA members", "IRA militants":
            # Terrorist_(Irish_Republican_Army)); the other row's entity stays a candidate after it
            for f in _org_aliases().get(key, []):
                others = taken.get(fold(f), set()) - {key}
                if others and "" not in others:
                    owners = tuple(e for e, x in enumerate(names) if fold(x.replace("_", " ")) in others)
                    for toks in _hyphen_variants(norm_tokens(f)):
                        if toks:
                            _insert(self.group_noun_trie, toks, (pid, owners))
            words = place.replace("_", " ").split()
            if len(words) >= 3 and words[-1].lower() == "party":
                names_ = names_ + [" ".join(words[:-1])]
            for f in names_:
                for toks in _hyphen_variants(norm_tokens(f)):
                    if toks and not any(e == len(toks) and pid in v for e, v in _walk(self.group_trie, list(toks), 0)):
                        _insert(self.group_trie, toks, pid)

    def _add_split_adjectives(self) -> None:
        """names30: a place whose adjective is a country's adjective and more ("Iraqi Kurdish"
        of Iraqi_Kurds, "Syrian Kurdish" of Syrian_Kurds) is also written with the country
        after the sector: "Kurdish fighters in Iraq" = the Iraqi Kurdish fighters."""
        lex = place_lexicon()
        for pid, place in enumerate(self.place_names):
            _, adjs, _ = lex.forms(place)
            for a in adjs:
                toks = norm_tokens(a)
                for pend, pvals in _walk(self.place_trie, list(toks), 0):
                    if 0 < pend < len(toks):
                        for cpid, kind, _ in pvals:
                            if kind == "adj" and cpid != pid and lex.resolve(self.place_names[cpid]) is not None:
                                _insert(self.split_adj_trie, toks[pend:], (cpid, pid))

    @staticmethod
    def _own_by_other_name(place: str, plain: dict) -> int | None:
        """The plain entity named by one of the place lexicon's names of ``place`` (the KG names
        the Vatican's actors ``X_(Holy_See_(Vatican_City_State))`` but the state itself
        ``Holy_See``); None if no name, or more than one entity, matches."""
        names_, _, _ = place_lexicon().forms(place)
        found = set()
        for f in names_:
            toks = norm_tokens(f)
            for t in (toks, toks[1:] if toks[:1] == ("the",) else ()):
                if t in plain:
                    found.add(plain[t])
        return found.pop() if len(found) == 1 else None

    def _add_named_institutions(self, names: list[str], plain: dict) -> None:
        """A country's institution the KG names by its own name instead of Sector_(Country)
        (names14): ``Israeli_Defense_Forces`` is the Israeli military (there is no
        ``Military_(Israel)``), ``Central_Bank_of_Russia`` Russia's central bank. A plain name
        that is exactly [the] ADJ|NAME SECTOR-FORM or SECTOR-FORM of [the] NAME of a known place
        and sector stands for that (sector, place) pair, only when the KG has no Sector_(Place)
        entity: "the Israeli army" is then that name, not words of the relation."""
        found: dict[tuple[int, int], list[int]] = {}
        for toks, eid in plain.items():
            toks = list(toks)
            s = 1 if toks[:1] == ["the"] else 0
            pairs = set()
            for pend, pvals in _walk(self.place_trie, toks, s):
                for send, svals in _walk(self.sector_trie, toks, pend):
                    if send == len(toks):
                        pairs |= {(sid, pid) for pid, kind, _ in pvals if kind != "people" for sid, _ in svals}
            for send, svals in _walk(self.sector_trie, toks, s):
                if send < len(toks) and toks[send] == "of":
                    k = send + 1 + (toks[send + 1 : send + 2] == ["the"])
                    for pend, pvals in _walk(self.place_trie, toks, k):
                        if pend == len(toks):
                            pairs |= {(sid, pid) for pid, kind, _ in pvals if kind == "name" for sid, _ in svals}
            for key in pairs:
                if key[0] != _COUNTRY:
                    found.setdefault(key, []).append(eid)
        # names34: a country's bank named by the country alone ("Bank_of_Lithuania",
        # "The_Afghanistan_Bank") is its central bank, as "the Bank of England" is: the pair
        # (Central_Bank, place) too, where the KG has no Central_Bank_(Place) actor
        bank = next((i for i, x in enumerate(self.sector_names) if fold(x) == "bank"), None)
        central = next((i for i, x in enumerate(self.sector_names) if fold(x.replace("_", " ")) == "central bank"), None)
        if bank is not None and central is not None:
            for (sid, pid), eids in list(found.items()):
                if sid == bank and (central, pid) not in self.pairs and place_lexicon().resolve(self.place_names[pid]) is not None:
                    found.setdefault((central, pid), []).extend(e for e in eids if e not in found.get((central, pid), []))
        for key, eids in found.items():
            if key in self.pairs:
                # names30: the KG has both (Consultative_Assembly_(Oman) and
                # Consultative_Assembly_of_Oman): both are candidates, the actor first
                for e in eids:
                    self.pair_weight[e] = _NAMED_BESIDE_ACTOR
                self.pairs[key] = self.pairs[key] + tuple(e for e in sorted(eids) if e not in self.pairs[key])
            else:
                self.pairs[key] = tuple(sorted(eids))

    def _fuzzy_fix(self, norms: list[str], cap_ok) -> dict[int, str]:
        """Misspelt place words next to a sector ("Columbian police", "police of Columbia"),
        corrected to the one lexicon form within edit ratio ``_FUZZY_CUTOFF`` (rapidfuzz; a
        tie between two forms - "Austrain" - corrects nothing). Only unknown, capitalised
        words in an actor context are tried, so ordinary text costs a set lookup per token."""
        out: dict[int, str] = {}
        n = len(norms)
        sectors = self.sector_trie
        inside: set[int] | None = None  # later words of correctly spelt multi-word places
        for i, w in enumerate(norms):
            if len(w) < _FUZZY_MIN_LEN or w in self.place_trie:
                continue
            nxt = norms[i + 1] if i + 1 < n else ""
            after_attach = (i and norms[i - 1] in _ATTACH) or (i > 1 and norms[i - 1] == "the" and norms[i - 2] in _ATTACH)
            if not (nxt in sectors or nxt in _POSS or after_attach) or not w.isalpha() or not cap_ok(i, i + 1):
                continue
            if inside is None:  # "El Salvador's": "salvador" is spelt right, not "Salvadoran"
                inside = {k for j in range(n) if norms[j] in self.place_trie for e, _ in _walk(self.place_trie, norms, j) for k in range(j + 1, e)}
            if i in inside:
                continue
            best = process.extract(w, self._fuzzy_vocab, scorer=fuzz.ratio, score_cutoff=_FUZZY_CUTOFF, limit=2)
            if best and (len(best) == 1 or best[0][1] - best[1][1] >= 3):
                out[i] = best[0][0]
        return out

    # ------------------------------------------------------------------ matching

    def _places(self, norms, i, kinds, cap_ok):
        return [
            (e, v) for e, vals in _walk(self.place_trie, norms, i)
            for v in [[x for x in vals if x[1] in kinds and (not x[2] or cap_ok(i, e))]] if v
        ]

    def _place_of_act(self, pend: int, svals, pvals):
        """names31: "Niger's military action against X": the place alone is the mention, its
        own entity first and the sector's actor a step lower (_ACT_NOUN_SECTOR; a plain name's
        exact match of the same length wins over it in ``EntityMatcher.match``); the sector
        word stays in the relation phrase as the act's adjective (:func:`_act_noun_at`)."""
        own = self._combine([(_COUNTRY, 1.0)], pvals)
        if own:
            lower = self._combine(svals, pvals, _ACT_NOUN_SECTOR)
            yield pend, {**{e: sc for e, sc in lower.items() if e not in own}, **own}

    def _combine(self, sectors: list[tuple[int, float]], places: list[tuple[int, str, bool]], weight: float = 1.0):
        out: dict[int, float] = {}
        for sid, ssc in sectors:
            for pid, _, _ in places:
                for eid in self.pairs.get((sid, pid), ()):
                    out[eid] = max(out.get(eid, 0.0), ssc * weight * self.pair_weight.get(eid, 1.0))
        return out

    def scan(self, norms: list[str], cap_ok) -> list[ActorMatch]:
        """Leftmost-longest actor references over folded tokens. ``cap_ok(i, j)`` says whether
        tokens [i, j) are written with a capital (place names must be, unless the whole
        question is lower case: the caller decides)."""
        out: list[ActorMatch] = []
        n = len(norms)
        fixed = self._fuzzy_fix(norms, cap_ok)
        if fixed:
            norms = [fixed.get(k, w) for k, w in enumerate(norms)]
        i = 0
        first = self._starts
        while i < n:
            if norms[i] not in first or (i and norms[i - 1] in _WH and not (i > 1 and norms[i - 2] in _PREP)):
                # no pattern can start here (most tokens); or "which Chinese official" asks
                # for an entity of that kind, it does not name one (but "the year in which
                # Nigerian militants ..." is a relative clause: its subject is a mention)
                i += 1
                continue
            best: tuple[int, int, dict[int, float]] | None = None  # (end, core_start, cands)
            starts = [i]
            if norms[i] in _DETS and i + 1 < n:
                starts.append(i + 1)
            for j in starts:
                for end, cands in self._at(norms, j, cap_ok):
                    if cands and (best is None or end > best[0]):
                        best = (end, j, cands)
            if best is not None:
                end, core, cands = best
                if any(i <= k < end for k in fixed):  # a corrected spelling: a little less sure
                    cands = {e: sc * _FUZZY_WEIGHT for e, sc in cands.items()}
                cands = self._dominant_reading(cands)
                ranked = tuple(sorted(cands.items(), key=lambda kv: (-kv[1], kv[0])))
                out.append(ActorMatch(i, core, end, ranked))
                i = end
            else:
                i += 1
        return out

    def _dominant_reading(self, cands: dict[int, float]) -> dict[int, float]:
        """A noun that is no sector's main form but a lesser form of several ("clerics":
        Islamic_Cleric 0.9, Muslim_Cleric 0.9, Islamic_Preacher 0.8) reads first the one of
        them the KG codes that place's people with (names34): one of the place's actors with
        DOMINANCE times the facts of every candidate scored above it (Islamic_Preacher_(Iran)
        568 facts against Muslim_Cleric_(Iran) 9 and Islamic_Cleric_(Iran) 1) takes the top
        score, those a little below it. Only candidates of one place, all below 1.0, with fact
        counts known, of a country (a group's other actors are candidates of another rule)."""
        if self.weights is None or len(cands) < 2:
            return cands
        top = max(cands.values())
        acts = [self.actors.get(e) for e in cands]
        if top >= 1.0 or any(x is None for x in acts) or len({fold(x.place) for x in acts}) != 1:
            return cands
        if place_lexicon().resolve(acts[0].place) is None:
            return cands  # a group's actors ("Hamas militants"): its own sector's reading goes first (names26)
        w = self.weights
        best = max(cands, key=lambda e: (float(w[e]), -e))
        above = [e for e in cands if e != best and cands[e] >= cands[best]]
        if not above or not all(float(w[best]) >= DOMINANCE * max(float(w[e]), 1.0) for e in above):
            return cands
        out = {e: (top if e == best else (min(sc, top * 0.95) if e in above else sc)) for e, sc in cands.items()}
        return out

    def _sectors(self, norms, j):
        """Sector forms at token j, each also with the head noun "sector" after it ("the
        education sector in Nigeria", "the US business sector")."""
        for send, svals in _walk(self.sector_trie, norms, j):
            yield send, svals
            if send < len(norms) and norms[send] in ("sector", "sectors"):
                yield send + 1, svals

    def _at(self, norms, j, cap_ok):
        """(end, candidates) of every pattern that starts at token j."""
        n = len(norms)
        # I: a group the KG has only as actors' place, written alone ("al-Qaeda") or before a
        # sector noun (names26; _add_groups): all its actors, scored. Before a sector noun the
        # group's own actor of that sector goes first: one read by a main form (score 1.0:
        # "Taliban militants") is A's alone, below; one read by a secondary form ("Hamas
        # militants": Islamic_Militant_(Hamas), 0.8) keeps the group's other actors as
        # candidates, a step lower (_GROUP_AFTER_NOUN); none ("al-Qaeda fighters" with no such
        # sector) gives the group's actors.
        for gend, pids in _walk(self.group_trie, norms, j):
            if not cap_ok(j, gend):
                continue
            group: dict[int, float] = {}
            for pid in pids:
                group.update(self.groups.get(pid, {}))
            yield gend, group
            # "an ISIL leader", "the Pheu Thai leader": the group's head actors (names30)
            if gend < n and norms[gend] in _LEADER_NOUNS:
                heads = {e: 1.0 for pid in pids for e in self.group_leaders.get(pid, ())}
                if heads:  # the group's other actors stay candidates, lower (the KG decides)
                    yield gend + 1, {**{e: sc * _GROUP_AFTER_NOUN for e, sc in group.items()}, **heads}
            for send, svals in self._sectors(norms, gend):
                own = self._combine(svals, [(pid, "name", True) for pid in pids])
                if own and max(own.values()) >= 1.0:
                    continue
                merged = {e: sc * _GROUP_AFTER_NOUN for e, sc in group.items()}
                merged.update(own)
                yield send, merged
        # I': a group's alias another entity has too, before a sector noun only (names34: "IRA
        # members"): the group's actors as in I, the alias's own entity after them, lower
        for gend, vals in _walk(self.group_noun_trie, norms, j):
            if not cap_ok(j, gend):
                continue
            for pid, owners in vals:
                group = self.groups.get(pid, {})
                if gend < n and norms[gend] in ("member", "members") and group:  # no sector: the group's actors
                    low = min(group.values()) * 0.95
                    yield gend + 1, {**group, **{o: low for o in owners if o not in group}}
                for send, svals in self._sectors(norms, gend):
                    merged = {e: sc * _GROUP_AFTER_NOUN for e, sc in group.items()}
                    merged.update(self._combine(svals, [(pid, "name", True)]))
                    if merged:
                        low = min(merged.values()) * 0.95
                        for o in owners:
                            merged.setdefault(o, low)
                        yield send, merged
        # A: ADJ|NAME SECTOR, NAME 's SECTOR
        for pend, pvals in self._places(norms, j, ("adj", "name"), cap_ok):
            k = pend
            if _theme_after_verb(norms, j, k):
                # "received Chinese peacekeepers": the adjective names the source, the
                # place's own entity; the noun stays in the relation phrase
                own = self._combine([(_COUNTRY, 1.0)], pvals)
                if own:
                    yield pend, own
                continue
            if k < n and norms[k] in _POSS:
                names = [v for v in pvals if v[1] == "name"]
                if names:
                    for send, svals in self._sectors(norms, k + 1):
                        if _act_noun_at(norms, send):
                            yield from self._place_of_act(pend, svals, pvals)
                            continue
                        yield send, self._combine(svals, names)
            # "the Taliban leader": an organisation's head actors (names30; a country's leader
            # is its Head_of_Government, below)
            if k < n and norms[k] in _LEADER_NOUNS:
                heads = {e: 1.0 for pid, _, _ in pvals for e in self.group_leaders.get(pid, ())}
                if heads:
                    yield k + 1, heads
            own_ends = None
            for send, svals in self._sectors(norms, k):
                # names30: an adjective that opens a sector's own form there ("foreign" of
                # International in "the foreign minister", "foreign affairs") is no place
                if own_ends is None:
                    own_ends = {e for e, _ in _walk(self.sector_trie, norms, j)}
                if any(e >= send for e in own_ends):
                    continue
                # a place's plain name before a word that starts a lexicon phrase with the
                # next word is that phrase's subject ("Iran press charges against"; the
                # adjective form keeps its noun: "the Turkish military attacked")
                vals = [v for v in pvals if v[1] != "name"] if _verb_at(norms, send) else pvals
                if _act_noun_at(norms, send):
                    yield from self._place_of_act(pend, svals, pvals)
                    continue
                yield send, self._combine(svals, vals)
        # B: SECTOR of|from|in|for [the] NAME
        for send, svals in self._sectors(norms, j):
            if send < n and norms[send] in _ATTACH and not _theme_after_verb(norms, j, j) and not _owned_or_classified(norms, j):
                # (not "received peacekeepers from X": X itself, the noun the action's theme)
                k = send + 1
                if k < n and norms[k] == "the":
                    k += 1
                for pend, pvals in self._places(norms, k, ("name",), cap_ok):
                    yield pend, self._combine(svals, pvals)
            # SECTOR + a phrase that places it ("citizens from around the world"; names26)
            for aend, pids in _walk(self.after_trie, norms, send):
                yield aend, self._combine(svals, [(pid, "after", False) for pid in pids])
        # K: REST-OF-ADJ SECTOR in|from [the] COUNTRY ("Kurdish fighters in Iraq": Iraqi Kurds;
        # names30, _add_split_adjectives)
        for rend, rvals in _walk(self.split_adj_trie, norms, j):
            if not cap_ok(j, rend):
                continue
            for send, svals in self._sectors(norms, rend):
                if send < n and norms[send] in _ATTACH:
                    k = send + 1 + (send + 1 < n and norms[send + 1] == "the")
                    for pend, pvals in self._places(norms, k, ("name",), cap_ok):
                        targets = [(pid, "name", True) for cpid, pid in rvals for v in pvals if v[0] == cpid]
                        if targets:
                            yield pend, self._combine(svals, targets)
        # templates: PREFIX ADJ|NAME SUFFIX ("head of the Chilean government")
        for tend, tvals in _walk(self.template_trie, norms, j):
            for pend, pvals in self._places(norms, tend, ("adj", "name"), cap_ok):
                for suf, sid, sc in tvals:
                    if tuple(norms[pend : pend + len(suf)]) == suf:
                        yield pend + len(suf), self._combine([(sid, sc)], pvals)
                    # "member of the Maldives' parliament": a name that takes "the" before its
                    # possessive (names26)
                    elif (suf and pend < n and norms[pend] in _POSS and norms[tend - 1] == "the"
                          and tuple(norms[pend + 1 : pend + 1 + len(suf)]) == suf):
                        yield pend + 1 + len(suf), self._combine([(sid, sc)], [v for v in pvals if v[1] == "name"])
        # ... and PREFIX-without-"the" NAME 's SUFFIX ("head of Taiwan's government", nlu11)
        for tend, tvals in _walk(self.template_poss_trie, norms, j):
            for pend, pvals in self._places(norms, tend, ("name",), cap_ok):
                if pend < n and norms[pend] in _POSS:
                    for suf, sid, sc in tvals:
                        if suf and tuple(norms[pend + 1 : pend + 1 + len(suf)]) == suf:
                            yield pend + 1 + len(suf), self._combine([(sid, sc)], pvals)
        # D: "the Iranian threat against X", "the Kuwaiti reception of X": a demonym adjective
        # before an event noun (no sector; the noun takes its object's preposition) is the
        # place's own entity, the doer of that event (before C: "the French rejection of X"
        # is France, not the French people)
        if j > 0 and norms[j - 1] == "the":
            for pend, pvals in self._places(norms, j, ("adj",), cap_ok):
                if _walk(self.sector_trie, norms, pend):
                    continue
                for k in (1, 2):  # "the Romanian phone conversation with X": a noun of one or two words
                    words = norms[pend : pend + k]
                    if (pend + k < n and norms[pend + k] in _EVENT_PREPS and len(words) == k
                            and not any(w.endswith("ed") or w in _EVENT_NOUN_STOP or w in _EVENT_PREPS for w in words)):
                        own = self._combine([(_COUNTRY, 1.0)], pvals)
                        if own:
                            yield pend, own
                        break
        # E: "French property", "Iranian assets", "a Greek vessel": a demonym adjective before a
        # noun of what a state owns is the place's own entity, the owner (nlu10)
        for pend, pvals in self._places(norms, j, ("adj",), cap_ok):
            if pend < n and norms[pend] in _OWNED_NOUNS:
                own = self._combine([(_COUNTRY, 1.0)], pvals)
                if own:
                    yield pend + 1, own
        # F: a place's other name written alone ("East Timor" for Timor-Leste, "the Vatican"
        # for Holy_See; names16) is the place's own entity, as its KG name would be; only where
        # no sector follows (A's reading), no capitalised word goes on with the name ("Korea
        # Exchange Bank" is a bank) and no exact name is as long (the matcher keeps those);
        # before "'s" only where no sector or name follows it (names23: "Beijing's position" is
        # China's; "Beijing's government" is A's reading)
        for pend, pvals in self._places(norms, j, ("name",), cap_ok):
            if pend < n and (_walk(self.sector_trie, norms, pend)
                             or (norms[pend] in _POSS and not self._possessor_alone(norms, pend + 1, cap_ok))
                             or (norms[pend][:1].isalpha() and cap_ok(pend, pend + 1))):
                continue
            lex = place_lexicon()  # a place of the lexicon (an organisation's names are the matcher's)
            own = self._combine([(_COUNTRY, 1.0)], [v for v in pvals if v[1] == "name" and lex.resolve(self.place_names[v[0]])])
            if own:
                yield pend, own
        # H: a sector's modifier before a people noun ("indigenous South Koreans", "native
        # Americans"; names21): those people as that sector of their country
        for mend, mvals in _walk(self.people_mod_trie, norms, j):
            for pend, pvals in self._places(norms, mend, ("people",), cap_ok):
                yield pend, self._combine(mvals, pvals)
        # C: people nouns ("Peruvians"); "the French" (collective adjective after "the")
        if self.people:
            psec = list(self.people.items())
            for pend, pvals in self._places(norms, j, ("people",), cap_ok):
                yield pend, self._combine(psec, pvals)
            if j > 0 and norms[j - 1] == "the":
                for pend, pvals in self._places(norms, j, ("adj",), cap_ok):
                    coll = [v for v in pvals if _COLLECTIVE_RE.search(norms[pend - 1])]
                    if coll and (pend >= n or not _walk(self.sector_trie, norms, pend)):
                        yield pend, self._combine(psec, coll)
            # G: "a Tanzanian", "an Australian first ...": an -an / -i demonym after "a" / "an"
            # and before no noun is the singular of its people noun (names17)
            if j > 0 and norms[j - 1] in ("a", "an"):
                for pend, pvals in self._places(norms, j, ("adj",), cap_ok):
                    if norms[pend - 1].endswith(("an", "i")) and _no_noun_at(norms, pend):
                        yield pend, self._combine(psec, pvals)

    def _possessor_alone(self, norms: list[str], k: int, cap_ok) -> bool:
        """Whether a place name's "'s" before token ``k`` owns a plain noun ("Beijing's
        position", "Tehran's stance"): neither a sector form (an actor reference of A) nor a
        capitalised word (a name the possessive only locates) comes next."""
        if k >= len(norms) or not norms[k][:1].isalpha():
            return False
        return not _walk(self.sector_trie, norms, k) and not cap_ok(k, k + 1)

    # ------------------------------------------------------------------ coverage

    def surfaces(self, eid: int) -> list[str]:
        """A few non-KG surface forms of an actor entity (for coverage checks and docs)."""
        a = self.actors.get(eid)
        if a is None:
            return []
        lex = place_lexicon()
        names_, adjs, people = lex.forms(a.place)
        forms = [f for f, _ in sector_forms(a.sector) if "*" not in f]
        out = []
        for f in forms[:3]:
            if adjs:
                out.append(f"the {adjs[0]} {f}")
            out.append(f"the {f} of {names_[0]}")
        if fold(a.sector) in people_sectors():
            out += list(people)
        return out
