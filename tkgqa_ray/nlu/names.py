"""Persons written by part of their KG name: the one facility every method's grounding uses.

News name a person by one word of the name ("Medvedev", "Mogherini", "Abhisit"), by the name
without its middle parts, with another spelling ("Sergei" for Sergey, "Afwerki" for Afewerki),
without a hyphenated prefix ("Sisi" for Al-Sisi) or with a title before it ("Pope Benedict"
for Benedict_XVI). :class:`PersonNames` indexes the *person-like* KG names by their words and
returns every reading of a written name, scored (:class:`NameReading`): TCC-RAG keeps several
readings of a slot (the KG decides between them), SCoP keeps the conservative choice
(:meth:`PersonNames.sole`: the only reading, or the dominant one by fact count).

Person-like (derived from the table's names, no list of persons): two to five words, no
``(Country)`` actor group, no digit, no function word ("of", "the", "and": organisations) and
no place word ("Iraqi National List": the place lexicon's names, adjectives and people nouns);
every word capitalised, a lowercase particle joined by a hyphen allowed ("al-Sisi"). Each word
is indexed whole and by the part after its hyphen ("Al-Sisi" -> "al-sisi", "sisi").

Before the names13 round the same idea lived twice: nlu12's surname table in
:mod:`.entities` (a last word, only or dominant bearer) and tccrag7's name-word tier in
TCC-RAG's parsing (any word, several readings). Both now read this index.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, Sequence

from rapidfuzz import fuzz, process

from .anaphora import organisation_words
from .text import DOMINANCE, data_lines, fold, norm_tokens

# function words of organisation names (and particles of long names): such a name is no person's
# (TCC-RAG's middle-name tier skips the same names)
FUNCTION_WORDS = {"of", "the", "and", "for", "de", "del", "la", "le", "du", "in", "on", "to", "a", "an", "&", "/"}
MAX_WORDS = 5  # longer "names" are titles or organisations
# A name word shared by more KG names than this is a common word ("National", "Party"), not
# a person's name
MAX_NAMES = 6
# an earlier written word vs a name word (fuzz.ratio): a spelling variant of a given name
# ("Sergei" ~ "Sergey", 83)
EARLIER_FUZZY = 80
# the anchor word itself (the one the index is searched by) spelt otherwise ("Afwerki" ~
# "afewerki", 93): a stricter cutoff and a longer word, since a surname is the whole evidence
ANCHOR_FUZZY = 88
ANCHOR_FUZZY_MIN_LEN = 7
_WORD_RE = re.compile(r"[^\W\d_]{3,}")
# after a title a two-letter word is a name too ("President Xi", "Premier Li": Chinese family
# names; names25); alone it is too often something else
_TITLED_WORD_RE = re.compile(r"[^\W\d_]{2,}")
# a regnal number ending a monarch's or pope's name ("Mohammed VI", "Mswati III"): an anchor
# after a written given name (names25), as the name's last word
_REGNAL_RE = re.compile(r"(?:X{0,3})(?:IX|IV|V?I{0,3})")
_INITIAL_RE = re.compile(r"[^\W\d_]\.?")  # a written initial, folded ("p.", "j")


@dataclass(frozen=True, slots=True)
class NameReading:
    """One person a written name may mean: ``where`` the anchor (last written) word sits in
    the KG name ("last": a surname, "first": a given name, "inner"), ``variant`` when a
    written word is spelt otherwise than the name's, ``facts`` the person's fact count."""

    eid: int
    facts: int
    where: str
    variant: bool = False


@functools.lru_cache(maxsize=1)
def _place_words() -> frozenset[str]:
    """Folded words of the place lexicon's names, adjectives and people nouns: "Indian",
    "Australian", "Kurds" name a place's actors, never a person by a part of the name."""
    from .actors import capitals, place_lexicon

    out: set[str] = set()
    caps = capitals()
    for key, row in place_lexicon().rows.items():
        # a capital's words are persons' words too ("Abu" of Abu Dhabi and Abu_Bakr_al-Qirbi,
        # "Juba", "Lima"; names25): the capital names the country alone, never inside a name
        own = [n for n in row.names if n not in caps.get(key, ())]
        for form in own + list(row.adjectives) + list(row.people):
            out.update(fold(w) for w in re.findall(r"[\w'-]+", form))
    return frozenset(out)


# lowercase particles of Portuguese, Dutch, German and Arabic personal names
# ("José_Alencar_Gomes_da_Silva", "Ursula_von_der_Leyen" has "der" too: not listed, such a name
# stays out): a person's, unlike the "de" / "la" / "du" of organisation names; never indexed
_PARTICLES = {"da", "das", "do", "dos", "van", "von", "bin", "ibn"}


_IBERIAN_PARTICLES = {"de", "del"}
_IBERIAN_CONJUNCTIONS = {"e", "y"}  # lower case only: "E" / "Y" are initials
_NICKNAME_RE = re.compile(r'^["“”]([^\W\d_][\w\'-]*)["“”]$')
_PATRONYMIC_RE = re.compile(r"(?:ovich|evich|ovna|evna)$")


_ARABIC_ARTICLES = {"al", "el"}


def _join_articles(raw: list[str]) -> list[str]:
    """The Arabic article written as a word of its own before a capitalised family name
    (names32: Sheikh_Hamad_bin_Isa_al_Khalifah, Majid_bin_Muhammad_al_Majid) joined to it, as
    the KG's other names write it ("al-Thani" of Sheikh_Hamad_bin_Khalifa_al-Thani): one name
    word "al-Khalifah". Not in a name that opens with the article (Al_Sharq_al_Awsat, a paper)."""
    if len(raw) < 3 or raw[0].lower() in _ARABIC_ARTICLES or not any(w in _ARABIC_ARTICLES for w in raw[1:-1]):
        return raw
    out: list[str] = []
    k = 0
    while k < len(raw):
        w = raw[k]
        if 0 < k < len(raw) - 1 and w in _ARABIC_ARTICLES and raw[k + 1][:1].isupper():
            out.append(w + "-" + raw[k + 1])
            k += 2
            continue
        out.append(w)
        k += 1
    return out


def person_words(name: str) -> list[str] | None:
    """The folded words of a person-like KG name (module doc), without its lowercase
    particles (``_PARTICLES``), or None for any other name."""
    # one quoted word is the person's nickname (Antony_Harold_Curties_"Tony"_Windsor,
    # Nicholas_"Nick"_Xenophon; names28): a name word like the others ("Tony Windsor"); a quote
    # over several words (National_Convergence_"Kwa_Na_Kwa", a party) stays and keeps it no person's
    raw = [_NICKNAME_RE.sub(r"\1", w) for w in re.split(r"[\s_]+", name) if w]
    raw = _join_articles(raw)
    # "de" / "del" between capitalised words of a long Iberian name (names26:
    # Sérgio_de_Oliveira_Cabral_Santos_Filho, Raúl_Salinas_de_Gortari) is a person's particle;
    # not in a name with a one-letter word (O_Estado_de_S._Paulo, a newspaper)
    # The conjunction "e" / "y" between two such surnames (names35: José_Dirceu_de_Oliveira_e_Silva,
    # Reynato_Puno_y_Serrano) is a particle too, and no one-letter word of that test.
    def between(k: int) -> bool:
        return 0 < k < len(raw) - 1 and raw[k - 1][:1].isupper() and raw[k + 1][:1].isupper()

    iberian = not any(len(w.rstrip(".")) == 1 and not (w in _IBERIAN_CONJUNCTIONS and between(k)) for k, w in enumerate(raw))
    words = [w for k, w in enumerate(raw) if w not in _PARTICLES
             and not (iberian and (w in _IBERIAN_PARTICLES or w in _IBERIAN_CONJUNCTIONS) and between(k))]
    if not 2 <= len(words) <= MAX_WORDS or "(" in name or any(c.isdigit() for c in name):
        return None
    if not all(w[:1].isupper() or ("-" in w and w.split("-", 1)[1][:1].isupper()) for w in words):
        return None
    folded = [fold(w) for w in words]
    # a Russian patronymic marks a person, whose given name may be a place word
    # (German_Oskarovich_Gref); without one, a place word makes an organisation's name
    places = frozenset() if any(_PATRONYMIC_RE.search(w) for w in folded[1:-1]) else _place_words()
    orgs = organisation_words()
    if any(w in FUNCTION_WORDS or w in orgs for w in folded):
        return None  # "Uqba_ibn_Nafi_Brigade" is an organisation, though its words look like a person's
    # a one-word country name between a person's first and last words is a middle name
    # (names26: Rahm_Israel_Emanuel); at either end, or as an adjective, it makes a place's name
    # (not after an organisation's last word made of a place word: Radio_France_Internationale)
    # "starts with a place word of 4+ letters", asked as "is a 4+ letter prefix a place word"
    # (a set lookup per prefix, not a scan of every place word per name: profiled at start-up)
    last = folded[-1]
    inner_ok = _one_word_place_names() if len(folded) >= 3 and not any(last[:k] in places for k in range(4, len(last) + 1)) else frozenset()
    if any(w in places and not (0 < k < len(folded) - 1 and w in inner_ok) for k, w in enumerate(folded)):
        return None
    return folded


@functools.lru_cache(maxsize=1)
def _one_word_place_names() -> frozenset[str]:
    """Folded one-word names of the place lexicon's countries ("israel", "jordan"; ISO-coded rows,
    not regions such as "International"): given names as well, inside a person's name
    (:func:`person_words`)."""
    from .actors import place_lexicon

    return frozenset(fold(n) for key, row in place_lexicon().rows.items() if re.fullmatch(r"[A-Z]{3}", key)
                     for n in row.names if re.fullmatch(r"[\w'-]+", n))


def _parts(word: str) -> list[str]:
    """A name word and the part after its last hyphen or apostrophe ("al-sisi" -> al-sisi,
    sisi; "yar'adua" -> adua): news write "Sisi" for Al-Sisi, never the prefix alone."""
    tail = re.split(r"[-'’]", word)[-1]
    return [word, tail] if tail and tail != word else [word]


class PersonNames:
    """Word index of a table's person-like names with fact counts (module doc)."""

    def __init__(self, names: Sequence[str], weights: Any = None) -> None:
        self.names = list(names)
        self.words: dict[int, list[str]] = {}
        self.index: dict[str, list[int]] = {}
        self.firsts: set[str] = set()  # first tokens of every name (persons or not)
        self.other_firsts: set[str] = set()  # first tokens of the names that are no person's
        self.wholes: set[str] = set()  # one-token names ("Iran", "Kerry")
        # names (persons or not) each word is in: "National" is a common word of names even
        # where few of those names are persons' (National_Lawyers_Guild is no "National")
        self.in_names: dict[str, int] = {}
        for eid, name in enumerate(self.names):
            toks = norm_tokens(name)
            for t in set(toks):
                self.in_names[t] = self.in_names.get(t, 0) + 1
            if toks:
                self.firsts.add(toks[0])
                if len(toks) == 1:
                    self.wholes.add(toks[0])
            folded = person_words(name)
            if folded is None:
                if toks:
                    self.other_firsts.add(toks[0])
                continue
            self.words[eid] = folded
            for w in folded:
                for p in _parts(w):
                    ids = self.index.setdefault(p, [])
                    if not ids or ids[-1] != eid:
                        ids.append(eid)
        self.facts = [int(weights[e]) if weights is not None else 0 for e in range(len(self.names))]
        self._keys = list(self.index)
        # index words by their i/y-folded spelling (names22): Russian "й" / "ы" are written "i"
        # or "y" ("Shoigu" / Shoygu, "Sergei" / Sergey, "Yuri" / Yury)
        self._iy: dict[str, list[str]] = {}
        for k in self._keys:
            self._iy.setdefault(_iy_key(k), []).append(k)

    # ------------------------------------------------------------------ readings
    def readings(self, written: Sequence[str], titled: bool = False) -> list[NameReading]:
        """Every person a written name (its words, as written) may mean, most facts first:
        the last written word (capitalised, three letters or more; no written word a place
        word) is a word
        (or a hyphen part) of the name, in at most MAX_NAMES KG names; each earlier
        written word is a name word before it (a spelling variant counts), or one word the
        name lacks before a name that starts with the anchor (a title: "Pope Benedict").
        An anchor no name holds is tried as a spelling variant (ANCHOR_FUZZY). ``titled``: a
        title was written before, so a two-letter anchor is a name word as well ("Xi")."""
        if not written or len(written) > 3 or not all(_capitalised(w) for w in written):
            return []
        folded = [fold(w) for w in written]
        last = folded[-1]
        word_re = _TITLED_WORD_RE if titled else _WORD_RE
        regnal = len(folded) > 1 and len(written[-1]) >= 2 and _REGNAL_RE.fullmatch(written[-1]) is not None
        if not (word_re.fullmatch(last.split("-")[-1]) or regnal) or any(w in _place_words() for w in folded):
            return []  # a place word is no name's and no title ("US Senate", "Iraqi Parliament")
        anchors = [(last, False)]
        if last not in self.index and (tail := _family_tail(last)) in self.index and len(folded) > 1:
            # names31: "Saud al-Faisal" is Saud_bin_Faisal_bin_Abdul-Aziz: Arabic news write the
            # father's name with the article ("al-Faisal") where the KG name writes "bin Faisal";
            # the given name written before it is the other evidence
            anchors = [(tail, False)]
        elif last not in self.index:
            # with a given name written too, the surname may be spelt further off (names16:
            # "Klaus Iohannis" for Klaus_Johannis): the given name is the other evidence, so such
            # a reading needs it to match a name word (no title allowance, below)
            cutoff = EARLIER_FUZZY if len(folded) > 1 else ANCHOR_FUZZY
            anchors = [(k, True) for k in self._variants(last, cutoff)]
        out: dict[int, NameReading] = {}
        skipped: set[int] = set()  # readings that took an earlier written word for a title
        for anchor, variant in anchors:
            ids = self.index.get(anchor) or []
            # a common surname ("Mohammed", in many names) is still a name after a given name
            # written as the KG writes it ("Bala Mohammed": Bala_Abdulkadir_Mohammed; names25)
            common = max(len(ids), self.in_names.get(anchor, 0)) > MAX_NAMES
            if common and (variant or len(folded) < 2):
                continue
            for e in ids:
                name = self.words[e]
                if len(name) <= len(folded) and name == folded:
                    continue  # the exact tier's
                at = next(k for k, w in enumerate(name) if anchor in _parts(w))
                where = "last" if at == len(name) - 1 else "first" if at == 0 else "inner"
                if where == "inner" and at == 1 and (name[0],) in titles():
                    where = "first"  # names32: the given name after a KG name's own title (Sheikh_Hamad_...)
                if variant and folded[:-1] and not name[:at]:
                    continue  # a surname spelt otherwise after a word that is no name word of it
                if common and not _earlier_words_exact(folded[:-1], name[:at]):
                    continue
                if e not in out and _earlier_words_match(folded[:-1], name[:at]):
                    out[e] = NameReading(e, self.facts[e], where, variant)
                    if folded[:-1] and not name[:at]:
                        skipped.add(e)
        # a written word that is a given name of one reading is no title of another (names26:
        # "Rahm Emanuel" is Rahm_Israel_Emanuel, not Emanuel_Cleaver after a title "Rahm")
        if skipped and len(skipped) < len(out):
            out = {e: r for e, r in out.items() if e not in skipped}
        return sorted(out.values(), key=lambda r: (r.variant, -r.facts, r.eid))

    def _variants(self, word: str, cutoff: float = ANCHOR_FUZZY) -> list[str]:
        """Index words spelt like ``word`` (fuzz.ratio >= ``cutoff``, ANCHOR_FUZZY_MIN_LEN
        letters or more; not the word with or without a plural "s"): "afwerki" -> "afewerki"."""
        iy = [k for k in self._iy.get(_iy_key(word), ()) if k != word]
        if len(word) < ANCHOR_FUZZY_MIN_LEN:
            return iy
        hits = process.extract(word, self._keys, scorer=fuzz.ratio, processor=None,
                               score_cutoff=cutoff, limit=3)
        # an English inflection is no spelling variant ("People" is no "Peoples" of a name)
        return iy + [k for k, _, _ in hits if len(k) >= ANCHOR_FUZZY_MIN_LEN and k.rstrip("s") != word.rstrip("s") and k not in iy]

    # ------------------------------------------------------------------ the conservative choice
    def sole(self, written: Sequence[str]) -> int | None:
        """The one person a written name means alone, or None: the only reading
        (``readings``), or the one with DOMINANCE times the next one's facts; a spelling
        variant only when no reading is spelt as written. A lone word is read as a surname
        (the name's last word) unless it is the first word of some name ("Kim", "Kerry" of
        Kerry_Packer) or a whole name; a word that only starts person names and no other
        name ("Abhisit") is a given name, read the same way; a word inside names only is
        nobody's alone."""
        rs = self.readings(written)
        if len(written) == 1 and rs:
            w = fold(written[0])
            if w in self.wholes:
                return None
            if w in self.firsts:
                if w in self.other_firsts or any(r.where != "first" for r in rs):
                    return None
            else:
                rs = [r for r in rs if r.where == "last"]
        return _dominant(rs)

    def after_title(self, word: str, courtesy: bool = False) -> int | None:
        """The person one word written after a title names, or None (names25). After a
        courtesy title ("Mr Abbas", "Mrs Clinton") the word is a surname: the name's last
        word. After any other title ("President Abbas", "Premier Wen", "President Xi") it is
        the surname or the first word of the name (a Chinese or Korean family name, "Pope
        Benedict"), never an inner word. Either way the one such reading, or the dominant one
        (DOMINANCE times the next one's facts), as :meth:`sole` decides; spelt as written first."""
        rs = [r for r in self.readings([word], titled=True)
              if r.where == "last" or (r.where == "first" and not courtesy)]
        return _dominant(rs)


@functools.lru_cache(maxsize=1)
def _person_rows() -> list[tuple[str, str, str]]:
    """(kind, value, forms) rows of ``data/person_names.tsv`` (titles, nicknames)."""
    rows = []
    for cols in data_lines("person_names.tsv"):
        cols = cols + ["", ""]
        rows.append((cols[0].strip(), cols[1].strip(), cols[2].strip()))
    return rows


@functools.lru_cache(maxsize=1)
def titles() -> frozenset[tuple[str, ...]]:
    """Folded token sequences of the titles written before persons' names ("president",
    ("prime", "minister"), ("mr", "."); ``title`` rows of data/person_names.tsv)."""
    return frozenset(norm_tokens(v) for k, v, _ in _person_rows() if k in ("title", "courtesy") and norm_tokens(v))


@functools.lru_cache(maxsize=1)
def courtesy_titles() -> frozenset[tuple[str, ...]]:
    """Folded token sequences of the courtesy titles ("Mr", "Mrs", "Ms"; ``courtesy`` rows of
    data/person_names.tsv), written before a surname only (names25)."""
    return frozenset(norm_tokens(v) for k, v, _ in _person_rows() if k == "courtesy" and norm_tokens(v))


@functools.lru_cache(maxsize=1)
def nicknames() -> dict[str, frozenset[str]]:
    """Folded given name -> the folded given names it may be written for, both ways
    ("jack" -> john, jacob; "jacob" -> jack; ``nickname`` rows of data/person_names.tsv)."""
    out: dict[str, set[str]] = {}
    for kind, short, forms in _person_rows():
        if kind != "nickname":
            continue
        for full in (f.strip() for f in forms.split("|") if f.strip()):
            out.setdefault(fold(short), set()).add(fold(full))
            out.setdefault(fold(full), set()).add(fold(short))
    return {k: frozenset(v) for k, v in out.items()}


def _family_tail(word: str) -> str:
    """The name after an Arabic article prefix ("al-faisal" -> "faisal", "el-" too), or ""."""
    m = re.fullmatch(r"(?:al|el)-([^\W\d_]{3,})", word)
    return m.group(1) if m else ""


def _iy_key(word: str) -> str:
    """``word`` with every "y" written "i" (names22): one key for the two transliterations of
    a Russian name's "й" / "ы" ("shoygu" and "shoigu"), which fuzz.ratio puts below the
    cutoffs in short words."""
    return word.replace("y", "i")


def _capitalised(word: str) -> bool:
    """A written name word: capitalised, or a lowercase particle joined by a hyphen to a
    capitalised word ("al-Qirbi"), as :func:`person_words` takes them."""
    return word[:1].isupper() or ("-" in word and word.split("-", 1)[1][:1].isupper())


def _word_matches(w: str, b: str) -> bool:
    """An earlier written word ``w`` is the name word ``b``: the same, a spelling variant
    (fuzz.ratio: "Sergei" ~ "Sergey"), its initial ("p." for Philip, "j." for "J."; names14), or
    an English short form of the given name ("jack" for Jacob, "bill" for William; names15:
    data/person_names.tsv, only here, where the surname has matched already)."""
    if _INITIAL_RE.fullmatch(w):
        return b[:1] == w[0]
    return w == b or _iy_key(w) == _iy_key(b) or (len(w) >= 4 and fuzz.ratio(w, b) >= EARLIER_FUZZY) or b in nicknames().get(w, ())


def _earlier_words_exact(earlier: list[str], before: list[str]) -> bool:
    """Each earlier written word is a name word before the anchor, spelt the same, in order,
    and the first of them the name's first word (a common surname's evidence: "Bala" of
    Bala_Abdulkadir_Mohammed, no title, no spelling variant; names25)."""
    if not earlier or not before or earlier[0] != before[0]:
        return False
    it = iter(before)
    return all(any(w == b for b in it) for w in earlier)


def _earlier_words_match(earlier: list[str], before: list[str]) -> bool:
    """Each earlier mention word matches a name word before the anchor, in order (spelling
    variants by fuzz.ratio: "Sergei" ~ "Sergey"). A name that starts with the anchor may
    follow one word the name lacks, a title ("Pope Benedict" for Benedict_XVI); a name with
    a given name of its own may not (a "John Smith" is no "Jane Smith")."""
    if not before:
        return len(earlier) <= 1
    it = iter(before)
    return all(any(_word_matches(w, b) for b in it) for w in earlier)


__all__ = ["NameReading", "PersonNames", "courtesy_titles", "nicknames", "person_words", "titles"]


def _dominant(rs: list) -> int | None:
    """The entity of the one reading among ``rs`` (best first), or of the dominant one
    (DOMINANCE times the next one's facts); readings spelt as written before spelling
    variants. The conservative choice of :meth:`PersonNames.sole` and ``after_title``."""
    if rs and not rs[0].variant:
        rs = [r for r in rs if not r.variant]
    if not rs:
        return None
    if len(rs) == 1 or rs[0].facts >= DOMINANCE * max(rs[1].facts, 1):
        return rs[0].eid
    return None
