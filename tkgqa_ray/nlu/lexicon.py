"""Relation lexicon: how people write a KG's event types, matched on word stems.

The data (``relation_lexicon.yaml``, package data) lists, per CAMEO relation, the phrases
people use ("condemned" -> ``Criticize_or_denounce``; "received a visit from" ->
``Host_a_visit``, or ``Make_a_visit`` with subject and object swapped) and *families* of
event types built from a frame and an action ("Express intent to <act>" = want / wish / hope /
intend / plan / be willing / offer / promise to <act>). Every relation of the table also gets
patterns derived from its own name, so a relation the file does not list (or a KG with other
relation names) is still covered; unknown names fall back to embeddings in
:func:`tkgqa_ray.nlu.relations.ground_relation`.

Matching is on stems (a small suffix stripper + irregular verbs, applied identically to the
phrase and the patterns, so only consistency matters), in order with gaps allowed. A
pattern's prepositions must be present ("talk about" is not "talk with"); articles, forms of
"be" and question scaffolding are ignored on both sides. The score of a hit is how much of the
phrase the pattern explains (content words count 1, prepositions 1/4; "light" adverbs such as
"officially" do not count), times the pattern's weight. No hand-rolled NLP library would be
lighter here: the patterns are short, closed-class phrases and the stemmer only needs to be
self-consistent.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

import yaml

from .text import norms

_PREPS = {
    "to", "with", "for", "of", "on", "in", "at", "from", "about", "against", "by", "into", "upon",
    "over", "toward", "towards", "between", "among", "out", "off", "up", "down", "onto", "behind",
}
# never part of a match: articles, "be", and scaffolding relation_phrase drops inside a phrase
_DROP = {
    "a", "an", "the", "be", "is", "am", "are", "was", "were", "been", "being", "'s", "who", "whom",
    "whose", "which", "what", "when", "where", "did", "does", "do", "done", "has", "have", "had",
    "will", "would", "could", "can", "might", "shall", "should", "it", "that", "this", "and", "or",
    ",", ".", "?", "!", ";", ":", "'", '"', "-", "’s",
}
_IRREGULAR = {
    "made": "make", "met": "meet", "held": "hold", "gave": "give", "given": "give", "took": "take",
    "taken": "take", "sought": "seek", "brought": "bring", "fought": "fight", "said": "say",
    "told": "tell", "led": "lead", "sent": "send", "broke": "break", "broken": "break",
    "spoke": "speak", "spoken": "speak", "went": "go", "gone": "go", "goes": "go", "going": "go", "came": "come",
    "began": "begin", "begun": "begin", "won": "win", "got": "get", "gotten": "get", "kept": "keep",
    "left": "leave", "threw": "throw", "thrown": "throw", "stole": "steal", "stolen": "steal",
    "sold": "sell", "bought": "buy", "paid": "pay", "shot": "shoot", "struck": "strike",
    "withdrew": "withdraw", "withdrawn": "withdraw", "forgave": "forgive", "forgiven": "forgive",
    "stood": "stand", "ran": "run", "drew": "draw", "drawn": "draw", "saw": "see", "seen": "see",
    "knew": "know", "known": "know", "wrote": "write", "written": "write", "chose": "choose",
    "chosen": "choose", "rose": "rise", "arose": "arise", "fled": "flee", "fell": "fall",
    "felt": "feel", "meant": "mean", "built": "build", "spent": "spend", "lent": "lend",
    "bore": "bear", "tore": "tear", "swore": "swear", "shook": "shake", "became": "become",
    "undertook": "undertake", "drove": "drive", "driven": "drive", "slew": "slay", "slain": "slay",
    "sank": "sink", "sunk": "sink", "flew": "fly", "flown": "fly", "froze": "freeze",
    "frozen": "freeze", "overtook": "overtake", "forbade": "forbid", "forbidden": "forbid",
    "hid": "hide", "hidden": "hide", "bit": "bite", "laid": "lay", "lain": "lie",
    "stuck": "stick", "sought-after": "seek", "upheld": "uphold", "withheld": "withhold",
    "oversaw": "oversee", "overseen": "oversee", "foresaw": "foresee", "rang": "ring", "rung": "ring",
    "sang": "sing", "dealt": "deal", "sat": "sit", "heard": "hear", "understood": "understand",
    "fed": "feed", "fought-off": "fight", "bled": "bleed", "beaten": "beat", "hit": "hit",
    "put": "put", "set": "set", "cut": "cut", "let": "let", "quit": "quit", "bid": "bid",
    "spread": "spread", "cast": "cast", "shut": "shut", "hurt": "hurt", "cost": "cost",
    "defence": "defense", "honour": "honor", "honoured": "honor", "favour": "favor",
    "labour": "labor", "programme": "program", "centre": "center", "mobilise": "mobilize",
}

# Nouns of the CAMEO verbs (English derivational morphology the suffix stripper cannot undo:
# "condemnation of X" = "condemn X", "accusations against" = "accuse"): a noun stems as its
# verb, so every pattern of a verb also reads its nominalisation ("the condemnation of China
# by X", "X's accusations against Y"). Plurals are looked up by their singular.
_NOMINALS = {
    "condemnation": "condemn", "criticism": "criticize", "critique": "criticize",
    "denunciation": "denounce", "endorsement": "endorse", "detention": "detain",
    "accusation": "accuse", "allegation": "allege", "consultation": "consult", "threat": "threaten",
    "apology": "apologize", "deportation": "deport", "expulsion": "expel", "recognition": "recognize",
    "occupation": "occupy", "reduction": "reduce", "denial": "deny", "defense": "defend",
    "complaint": "complain", "concession": "concede", "lawsuit": "sue", "investigation": "investigate",
    "abduction": "abduct", "kidnapping": "kidnap", "confiscation": "confiscate", "seizure": "seize",
    "mediation": "mediate", "rejection": "reject", "refusal": "refuse", "signing": "sign",
    "discussion": "discuss", "mobilization": "mobilize", "mobilisation": "mobilize",
    "demonstration": "demonstrate", "violation": "violate", "killing": "kill", "evacuation": "evacuate",
    "withdrawal": "withdraw", "declaration": "declare", "announcement": "announce",
    "warning": "warn", "negotiation": "negotiate", "cooperation": "cooperate", "imposition": "impose",
    "hosting": "host", "praise": "praise", "persecution": "persecute", "assassination": "assassinate",
    "bombing": "bomb", "shelling": "shell", "blockade": "blockade", "arrest": "arrest",
    "sharing": "share", "release": "release", "return": "return", "appeal": "appeal",
    "request": "request", "demand": "demand", "visit": "visit", "attack": "attack",
    "protest": "protest", "rally": "rally", "meeting": "meet", "pardon": "pardon",
    "extradition": "extradite", "provision": "provide", "torture": "torture", "mediator": "mediate",
}
_NOUN_VERBS = set(_NOMINALS.values())
_NOUN_VERB = {**_NOMINALS, **{n + "s": v for n, v in _NOMINALS.items()}}


@lru_cache(maxsize=1 << 16)  # pure, and called ~440k times to build the real KG's lexicon (profiled)
def stem(word: str) -> str:
    """A self-consistent stem: visited/visits/visiting/visit -> "visit"; criticised ->
    criticiz; planned -> plan; tries/tried/try -> tri; made -> mak (via "make")."""
    w = word.lower().replace("’", "'").strip("'")
    w = _IRREGULAR.get(w, w)
    w = _NOUN_VERB.get(w, w)
    w = _synonyms().get(w, w)
    if len(w) <= 3:
        return w[:-1] + "i" if len(w) > 2 and w[-1] == "y" and w[-2] not in "aeiou" else w
    w = re.sub(r"is(e|ed|es|ing|ation)$", r"iz\1", w)  # British -ise
    for suf, rep in (("ings", ""), ("ing", ""), ("ied", "i"), ("ies", "i"), ("ed", ""), ("es", ""), ("s", ""), ("e", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not (suf == "s" and w.endswith("ss")):
            w = w[: len(w) - len(suf)] + rep
            if suf in ("ing", "ings") and len(w) > 3 and w.endswith("ee"):
                w = w[:-1]  # agreeing / guaranteeing -> agre(e), as agree / agreed -> agre
            break
    else:  # a short verb in -e: sued / sues / suing -> "sue", as the base form stays
        m = re.fullmatch(r"([a-z]{2})(?:ed|es|ing)", w)
        if m and not w.endswith("eed"):  # need / feed / heed are bases
            w = m.group(1) + "e"
    if w.endswith("ion") and len(w) > 6:  # negotiation ~ negotiate, cooperation ~ cooperate
        w = w[:-3]
    if len(w) > 2 and w[-1] == "y" and w[-2] not in "aeiou":
        w = w[:-1] + "i"
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
        w = w[:-1]  # planned -> plann -> plan; call -> cal (both sides alike)
    return w


@lru_cache(maxsize=1)
def load_data() -> dict:
    """The packaged ``relation_lexicon.yaml``."""
    text = resources.files("tkgqa_ray.nlu").joinpath("relation_lexicon.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@lru_cache(maxsize=1)
def _synonyms() -> dict[str, str]:
    """Nouns the KG's relation names use interchangeably, one stem for both (``synonyms`` of
    the lexicon data: "assistance" is "aid", as in ``Provide_military_aid`` /
    ``Reduce_or_stop_military_assistance``), so a family frame written with the other noun
    ("offered military assistance to") still finds its member. Plural forms included."""
    pairs = {str(k).lower(): str(v).lower() for k, v in (load_data().get("synonyms") or {}).items()}
    return {**pairs, **{k + "s": v for k, v in pairs.items()}}


def _words(text: str) -> list[str]:
    return [w for w in norms(text) if w not in _DROP]


@dataclass(frozen=True, slots=True)
class Pattern:
    relation: str  # KG name
    stems: tuple[str, ...]  # in order, inner prepositions included (required)
    tail: tuple[str, ...] = ()  # trailing prepositions: optional, count when present
    weight: float = 1.0
    swap: bool = False  # the phrase's subject is the relation's object
    text: str = ""


@dataclass(frozen=True, slots=True)
class LexiconHit:
    relation: str
    score: float  # weight * coverage-based score in (0.55, 1]
    swap: bool
    pattern: str


def _parse_pattern(raw: str) -> tuple[str, float, bool]:
    s = raw.strip()
    swap = s.startswith("<>")
    if swap:
        s = s[2:].strip()
    weight = 1.0
    m = re.search(r"\s@(\d*\.?\d+)\s*$", s)
    if m:
        weight = float(m.group(1))
        s = s[: m.start()].strip()
    return s, weight, swap


def name_actions(name: str) -> list[str]:
    """Phrases a relation's own name gives: alternatives split, a shared head distributed.

    ``Arrest,_detain,_or_charge_with_legal_action`` -> arrest / detain / charge with legal
    action; ``Impose_embargo,_boycott,_or_sanctions`` -> impose embargo / impose boycott /
    impose sanctions; ``Reduce_or_stop_economic_assistance`` -> reduce economic assistance /
    stop economic assistance."""
    text = re.sub(r"\(.*?\)", " ", name.replace("_", " ")).replace("'", "")
    text = re.sub(r"\s+", " ", text).strip(" ,").lower()
    alts = [a.strip() for a in re.split(r",\s*(?:or\s+)?", text) if a.strip()]
    if len(alts) > 1 and len(alts[0].split()) >= 2 and all(len(a.split()) == 1 for a in alts[1:]):
        head = alts[0].split()[:-1]
        alts = [alts[0]] + [" ".join(head + [a]) for a in alts[1:]]
    out: list[str] = []
    for a in alts:
        ws = a.split()
        if "or" in ws:
            i = ws.index("or")
            if 0 < i < len(ws) - 1:
                rest = ws[i + 2:]
                out += [" ".join(ws[: i] + rest), " ".join(ws[: i - 1] + [ws[i + 1]] + rest)]
                continue
        out.append(a)
    return [o for o in dict.fromkeys(out) if o]


_SUPPORT_VERBS = re.compile(r"^(?:provide|give|grant|send|engage\s+in|make|conduct|carry\s+out|offer|institute)\s+(?=\S)")


def nominal_action(action: str) -> str | None:
    """The thing an action hands over, for frames that take a noun ("{n}"): ``provide
    economic aid`` -> "economic aid" ("pledged economic aid to"), ``engage in material
    cooperation`` -> "material cooperation". None when the action has no support verb
    (a verb such as "meet" already matches its noun by stem: "a meeting"), and for a phrasal
    verb, whose particle is no noun ("give in to" -> not "in to")."""
    text, _, _ = _parse_pattern(action)
    m = _SUPPORT_VERBS.match(text)
    if m and text[m.end():].split()[0] not in _PREPS:
        return text[m.end():]
    words = text.split()  # "cooperate economically" -> "economic cooperate" (~ "economic cooperation")
    adj = _adjective(words[1]) if len(words) >= 2 else None
    return " ".join([adj, words[0], *words[2:]]) if adj else None


class RelationLexicon:
    """Patterns for the relations of one table; :meth:`match` scores a relation phrase."""

    _cache: dict[tuple, "RelationLexicon"] = {}
    _lock = threading.Lock()

    def __init__(self, relations: Sequence[str], data: dict | None = None) -> None:
        data = data if data is not None else load_data()
        self.relations = list(relations)
        self.rel_id = {r: i for i, r in enumerate(self.relations)}
        self.light = {stem(w) for w in data.get("light", [])}
        entries: dict[str, Any] = data.get("relations") or {}
        families: dict[str, Any] = data.get("families") or {}
        self._listed = {r: _listed_phrases(e) for r, e in entries.items()}
        self._siblings = _family_actions(self.relations, entries, families)
        # each relation's name-derived action keys, once: _base_phrases asks them of every
        # relation for every family member (140 x 251 on the real KG; 35k recomputations before)
        self._name_keys = {r: {_action_key(a) for a in name_actions(r)} for r in self.relations}
        self.patterns: list[Pattern] = []
        for rel in self.relations:
            self._add_relation(rel, entries.get(rel), families)
        self.by_key: dict[str, list[Pattern]] = {}
        for p in self.patterns:
            key = next((s for s in p.stems if s not in _PREP_STEMS), p.stems[0])
            self.by_key.setdefault(key, []).append(p)

    @classmethod
    def for_relations(cls, relations: Sequence[str]) -> "RelationLexicon":
        key = tuple(relations)
        with cls._lock:
            lex = cls._cache.get(key)
            if lex is None:
                lex = cls._cache[key] = cls(key)
            return lex

    def _add(self, rel: str, raw: str, weight: float = 1.0) -> None:
        text, w, swap = _parse_pattern(raw)
        for noun in _noun_phrases(text):  # "make a statement about" -> "statement about"
            self._add_one(rel, noun, w * weight * NOUN_WEIGHT, swap, raw)
        self._add_one(rel, text, w * weight, swap, raw)

    def _add_one(self, rel: str, text: str, w: float, swap: bool, raw: str) -> None:
        weight = 1.0
        stems = [stem(x) for x in _words(text)]
        tail: list[str] = []
        while len(stems) > 1 and stems[-1] in _PREP_STEMS:  # "pay a visit (to)": a question
            tail.insert(0, stems.pop())  # may end before its preposition ("Whom did X pay a visit?")
        if stems:
            self.patterns.append(Pattern(rel, tuple(stems), tuple(tail), w * weight, swap, raw))

    def _add_relation(self, rel: str, entry: Any, families: dict) -> None:
        listed: list[str] = []
        actions: list[str] | None = None
        if isinstance(entry, dict):
            listed = list(entry.get("also") or [])
            actions = list(entry.get("x") or []) or None
        elif isinstance(entry, list):
            listed = list(entry)
        fam = max((f for f in families if rel.startswith(f)), key=len, default=None)
        if fam is not None:
            own = name_actions(rel[len(fam):])
            acts = list(actions or []) + self._sibling_actions(rel, own) + own + self._base_phrases(rel, own)
            for frame in families[fam].get("frames") or []:
                ftext, fw, fswap = _parse_pattern(frame)
                slot, fill = ("{n}", acts + [n for n in map(nominal_action, acts) if n]) if "{n}" in ftext else ("{x}", acts)
                for act in fill:
                    atext, aw, _ = _parse_pattern(act)
                    self._add(rel, ("<> " if fswap else "") + ftext.replace(slot, atext), fw * aw)
        elif actions:
            listed += actions
        for raw in listed:
            self._add(rel, raw)
        for act in name_actions(rel):
            self._add(rel, act, 0.95)

    def _sibling_actions(self, rel: str, acts: list[str]) -> list[str]:
        """The hand-listed actions ("x") of the other family members with the same action:
        CAMEO writes one act under several frames (``Appeal_for_de-escalation_of_military_engagement``,
        ``Demand_de-escalation_…``, ``Refuse_to_de-escalate_…``, ``Express_intent_to_de-escalate_…``),
        and a paraphrase of the act ("a ceasefire", "scale down fighting") is one under every frame."""
        out: list[str] = []
        for key in {_action_key(a) for a in acts}:
            out += [a for other, xs in self._siblings.get(key, ()) if other != rel for a in xs]
        return list(dict.fromkeys(out))

    def _base_phrases(self, rel: str, acts: list[str]) -> list[str]:
        """The listed phrases of the relation a family member's action names, as more actions
        (CAMEO builds "Refuse to <act>", "Threaten to <act>", "Express intent to <act>" from
        another event type): ``Threaten_to_reduce_or_break_relations`` acts "reduce relations",
        which is ``Reduce_relations``, so "threatened to cut ties with" reads as the threat.
        A base is a relation of the table whose own name gives one of the actions (one
        :func:`_action_key`: "easing of administrative sanctions" is ``Ease_administrative_sanctions``);
        its reversed readings ("<>") are no action of the frame's subject and are left out."""
        keys = {_action_key(a) for a in acts}
        out: list[str] = []
        for base in self.relations:
            if base == rel or not keys & self._name_keys[base]:
                continue
            out += [p for p in self._listed.get(base, ()) if not str(p).lstrip().startswith("<>")]
        return [f"{p} @{BASE_WEIGHT}" if "@" not in str(p) else str(p) for p in dict.fromkeys(out)]

    def _received(self, phrase: str, inner: list[str]) -> tuple[LexiconHit, ...]:
        """"receive / get <event noun> from Y": the inner event's readings with subject and
        object swapped (Y is its doer), beside the phrase's own readings of other relations
        (a pattern written with the receiving verb: "receive peacekeepers from" is
        ``Receive_deployment_of_peacekeepers``, "receive a visit from" ``Host_a_visit``). A
        relation the inner event names keeps only the swapped reading: the direct one would
        have the receiver as its doer. A pattern written with the receiving verb and a noun of
        its own is the more specific reading and decides alone ("received troops from" is
        ``Receive_deployment_of_peacekeepers``, "received a visit from" ``Host_a_visit``); the
        inner event's own reversed readings ("<>") are left out, being already receptions."""
        own_all = self._match_words(phrase)
        if any(self._receive_pattern(h) for h in own_all):
            return own_all
        flipped = [LexiconHit(h.relation, round(h.score * ROLE_NOUN_WEIGHT, 4), True, h.pattern)
                   for h in self._match(" ".join(inner)) if not h.swap]
        named = {h.relation for h in flipped}
        own = [h for h in own_all if h.relation not in named or self._receive_pattern(h)]
        best: dict[tuple[str, bool], LexiconHit] = {}
        for h in own + flipped:
            k = (h.relation, h.swap)
            if k not in best or h.score > best[k].score:
                best[k] = h
        return tuple(sorted(best.values(), key=lambda h: (-h.score, h.swap, self.rel_id.get(h.relation, 0))))

    @staticmethod
    def _receive_pattern(hit: LexiconHit) -> bool:
        """True for a hit whose pattern is written with a receiving verb and a noun of its own
        ("receive peacekeepers from"; not a bare "receive")."""
        stems = [stem(w) for w in _words(_parse_pattern(hit.pattern)[0])]
        return bool(_RECEIVE_STEMS & set(stems)) and any(x not in _RECEIVE_STEMS and x not in _PREP_STEMS for x in stems)

    def match(self, phrase: str) -> list[LexiconHit]:
        """Relations whose patterns occur in ``phrase`` (best per relation and direction),
        best first. Cached per phrase."""
        return list(self._match(phrase))

    @lru_cache(maxsize=65536)
    def _match(self, phrase: str) -> tuple[LexiconHit, ...]:
        inner = _role_noun_inner(_words(phrase))
        if inner is not None:  # "(was) the target of an offer to meet from Y": Y is the doer
            words, flip = inner
            return tuple(
                LexiconHit(h.relation, round(h.score * ROLE_NOUN_WEIGHT, 4), h.swap != flip, h.pattern)
                for h in self._match(" ".join(words))
            )
        got = _received_inner(_words(phrase))
        if got is not None:  # "received an apology from Y": Y apologised to the subject
            return self._received(phrase, got)
        return self._match_words(phrase)

    @lru_cache(maxsize=65536)
    def _match_words(self, phrase: str) -> tuple[LexiconHit, ...]:
        """The stem matcher proper: every pattern that occurs in ``phrase``, scored."""
        toks = [stem(w) for w in _words(phrase)]
        if not toks:
            return ()
        is_prep = [t in _PREP_STEMS for t in toks]
        content = [i for i, t in enumerate(toks) if not is_prep[i] and t not in self.light]
        n_prep = sum(is_prep)
        denom = len(content) + 0.25 * n_prep
        if not content:
            return ()
        best: dict[tuple[str, bool], LexiconHit] = {}
        seen: set[int] = set()
        for t in set(toks):
            for p in self.by_key.get(t, ()):
                if id(p) in seen:
                    continue
                seen.add(id(p))
                pos = _subsequence(toks, p.stems)
                if pos is None:
                    continue
                weight = p.weight
                if p.tail:
                    more = _subsequence(toks[pos[-1] + 1:], p.tail)
                    if more is not None:
                        pos = pos + [pos[-1] + 1 + i for i in more]
                    else:  # "call (on)" read from "called": a shade below a pattern without tail
                        weight *= TAIL_MISSING
                c = sum(1 for i in pos if i in content) + 0.25 * sum(1 for i in pos if is_prep[i])
                score = weight * (0.55 + 0.45 * min(1.0, c / denom))
                k = (p.relation, p.swap)
                if k not in best or score > best[k].score:
                    best[k] = LexiconHit(p.relation, round(score, 4), p.swap, p.text)
        return tuple(sorted(best.values(), key=lambda h: (-h.score, h.swap, self.rel_id.get(h.relation, 0))))


_PREP_STEMS = {stem(p) for p in _PREPS}
BASE_WEIGHT = 0.95  # a family action taken from the base relation's listed phrases


@lru_cache(maxsize=1 << 14)  # pure: the same actions are keyed for every family member
def _action_key(action: str) -> tuple[str, ...]:
    """An action up to support verb, prepositions, inflection and word order: "de-escalation of
    military engagement" / "de-escalate military engagement", "engage in material cooperation" /
    "material cooperation" and "change in leadership" / "leadership change" have one key each."""
    text = nominal_action(action) or _parse_pattern(action)[0]
    return tuple(sorted(x for x in (stem(w) for w in _words(text)) if x not in _PREP_STEMS))


def _family_actions(relations: Sequence[str], entries: dict, families: dict) -> dict[tuple, list[tuple[str, list[str]]]]:
    """Per action key, the family members of the table with that name-derived action and their
    hand-listed "x" actions (:meth:`RelationLexicon._sibling_actions`)."""
    out: dict[tuple, list[tuple[str, list[str]]]] = {}
    for rel in relations:
        fam = max((f for f in families if rel.startswith(f)), key=len, default=None)
        entry = entries.get(rel)
        xs = [str(a) for a in entry.get("x") or []] if fam is not None and isinstance(entry, dict) else []
        if not xs:
            continue
        for key in {_action_key(a) for a in name_actions(rel[len(fam):])}:
            out.setdefault(key, []).append((rel, xs))
    return out


def _listed_phrases(entry: Any) -> list[str]:
    """A relation entry's own phrases (a list, or a mapping's "also"), not its family "x"."""
    if isinstance(entry, dict):
        return [str(p) for p in entry.get("also") or []]
    return [str(p) for p in entry or []]
TAIL_MISSING = 0.97
NOUN_WEIGHT = 0.9  # a pattern's noun phrase alone ("statement about" of "make a statement about")
ROLE_NOUN_WEIGHT = 0.98

# Verbs that only carry a noun ("make a statement", "pay a visit", "lodge a complaint"): the noun
# phrase alone names the same event ("after the statement about X by Y", "the trip to Japan").
_SUPPORT_RE = re.compile(
    r"^(?:make|pay|hold|issue|give|provide|send|conduct|carry out|engage in|launch|open|stage|"
    r"lodge|file|bring|level|take|deliver|extend|impose|use|employ)\s+(?:an?\s+|the\s+)?(?=\S)"
)


def _adjective(adverb: str) -> str | None:
    """The adjective of a manner adverb: economically -> economic, militarily -> military,
    verbally -> verbal; None for a word that is not one."""
    for suf, rep in (("ically", "ic"), ("arily", "ary"), ("ally", "al")):
        if adverb.endswith(suf) and len(adverb) > len(suf) + 2:
            return adverb[: -len(suf)] + rep
    return None


def _noun_phrases(text: str) -> list[str]:
    """Noun readings of an action pattern: the object of a support verb ("make a trip to" ->
    "trip to") and a verb + manner adverb as adjective + verb ("cooperate economically with"
    -> "economic cooperate with", which stems as "economic cooperation with")."""
    out = []
    m = _SUPPORT_RE.match(text)
    rest = text[m.end():] if m else ""
    if rest and rest.split()[0] not in _PREPS and rest.split()[0] not in ("to", "and", "or"):
        out.append(rest)
    words = text.split()
    if len(words) >= 2:
        adj = _adjective(words[1])
        if adj:
            out.append(" ".join([adj, words[0], *words[2:]]))
    if len(words) == 2 and words[0] in _NOUN_VERBS and words[1] not in _PREPS:
        out.append(f"{words[1]} {words[0]}")  # "investigate corruption" -> "corruption investigation"
    return out


# Nouns of a role in an event: "X was the target of Y's threats", "the recipient of an appeal
# from Y", "the counterpart in negotiations conducted by Y". The event's doer is the agent after
# "from"/"by". The question analysis reads "by" (final, or "by whom" first) as a passive agent
# and orders the roles itself; "from" it does not, so a phrase ending in "from" is the inner
# phrase's reading with subject and object swapped, any other keeps the analysis' order.
_ROLE_NOUNS = {"target", "recipient", "subject", "counterpart", "beneficiary", "victim", "object", "focus", "addressee", "topic"}


def _role_noun_inner(words: list[str]) -> tuple[list[str], bool] | None:
    if len(words) < 3 or words[0] not in _ROLE_NOUNS or words[1] not in ("of", "in"):
        return None
    inner = list(words[2:])
    flip = False
    if inner and inner[-1] in ("by", "from"):
        flip = inner.pop() == "from"
    if len(inner) > 1 and (inner[-1].endswith("ed") or inner[-1] in _IRREGULAR):
        inner = [inner[-1], *inner[:-1]]  # "negotiations halted" -> "halted negotiations"
    return (inner, flip) if inner else None


# Verbs of receiving an event from its doer ("received an apology / an ultimatum / a phone call
# from Y", "got a warning from Y"): the subject is the inner event's target.
_RECEIVE_STEMS = {"receiv", "get", "obtain"}


def _received_inner(words: list[str]) -> list[str] | None:
    """The event noun phrase of "receive / get <event> from" (final "from"), or None. The noun
    phrase must hold a content word ("received from" alone is no event)."""
    if len(words) < 3 or words[-1] != "from" or stem(words[0]) not in _RECEIVE_STEMS:
        return None
    inner = [w for w in words[1:-1]]
    return inner if any(w not in _PREPS for w in inner) else None


def _subsequence(toks: list[str], pat: tuple[str, ...]) -> list[int] | None:
    """Positions of ``pat`` in ``toks`` in order (gaps allowed), or None."""
    out = []
    j = 0
    for i, t in enumerate(toks):
        if j < len(pat) and t == pat[j]:
            out.append(i)
            j += 1
    return out if j == len(pat) else None


__all__ = ["LexiconHit", "Pattern", "RelationLexicon", "load_data", "name_actions", "stem"]
