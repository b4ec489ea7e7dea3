"""Deterministic synthetic temporal KG with ICEWS-like event dynamics (and an interval mode).

Why synthetic: the embedded default run and the tests need a KG that ships with the package
(no download), is small enough for 2 CPU cores, and still has the structure that makes
temporal QA hard: a few hundred actors named like ICEWS/MultiTQ (``Citizen_(Nigeria)``,
``Ministry_of_Foreign_Affairs_(Chile)``, people, organisations, one name with CSV-quoted
``"`` characters), CAMEO-style relations, heavy-tailed actor activity, recurring partner
pairs, multi-day *episodes* (intent → visit/host → negotiate → agreement; criticise → accuse
→ threaten → sanction) and crisis bursts, all at day granularity over several years.

Interval mode emits 5-column facts: successive office holders (terms that meet), memberships,
team stints and yearly awards (point facts), like CronQuestions/TimelineKGQA.

Same ``SynthConfig`` → byte-identical files (seeded numpy Generator, gzip mtime 0).
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

COUNTRIES = [
    "China", "United_States", "Iran", "Iraq", "Russia", "India", "Pakistan", "Japan", "France",
    "Germany", "United_Kingdom", "Nigeria", "Kenya", "South_Africa", "Brazil", "Mexico", "Chile",
    "Argentina", "Turkey", "Egypt", "Israel", "Syria", "Afghanistan", "North_Korea", "South_Korea",
    "Indonesia", "Philippines", "Thailand", "Vietnam", "Australia", "Canada", "Italy", "Spain",
    "Poland", "Ukraine", "Ethiopia", "Sudan", "Somalia", "Colombia", "Venezuela", "Malaysia",
    "Saudi_Arabia", "Qatar", "Greece", "Sweden", "Norway", "Ghana", "Uganda", "Peru", "Cuba",
    "Bangladesh", "Sri_Lanka", "Nepal", "Morocco", "Algeria", "Libya", "Jordan", "Lebanon",
]
SECTORS = [
    "Citizen", "Government", "Police", "Military", "Ministry_of_Foreign_Affairs", "Head_of_Government",
    "Business", "Protester", "Media", "Opposition_Party", "Defense_Ministry", "Court_Judge",
]
ORGANISATIONS = [
    "United_Nations", "European_Union", "NATO", "African_Union", "International_Committee_of_the_Red_Cross",
    "World_Bank", "International_Monetary_Fund", "Amnesty_International", "Arab_League", "ASEAN",
    "World_Health_Organization", "Organization_of_American_States",
]
_GIVEN = ["Amara", "Boris", "Chen", "Dmitri", "Elena", "Farid", "Gabriela", "Hiroshi", "Ines", "Jamal",
          "Katarina", "Luis", "Mei", "Nadia", "Omar", "Priya", "Rafael", "Sofia", "Tariq", "Ursula",
          "Viktor", "Wen", "Yusuf", "Zanele", "Ahmed", "Beatriz", "Carlos", "Daniela", "Emeka", "Fatima"]
_FAMILY = ["Okafor", "Petrov", "Liang", "Haddad", "Moreno", "Tanaka", "Kowalski", "Nkosi", "Rahman",
           "Silva", "Yilmaz", "Novak", "Abadi", "Castillo", "Mensah", "Ivanova", "Park", "Suzuki",
           "Fischer", "Dubois", "Rossi", "Kaplan", "Osei", "Lindqvist", "Banda", "Qureshi", "Vargas"]

# relation -> weight within its episode kind
DIPLOMATIC = ["Express_intent_to_meet_or_negotiate", "Make_a_visit", "Consult", "Engage_in_negotiation",
              "Sign_formal_agreement", "Praise_or_endorse", "Discuss_by_telephone", "Express_intent_to_cooperate",
              "Meet_at_a_'third'_location", "Provide_aid", "Make_an_appeal_or_request"]
CONFLICT = ["Criticize_or_denounce", "Accuse", "Threaten", "Demand", "Reject",
            "Impose_embargo,_boycott,_or_sanctions", "Use_conventional_military_force", "Make_pessimistic_comment"]
DOMESTIC = ["Arrest,_detain,_or_charge_with_legal_action", "Demonstrate_or_rally", "Investigate",
            "Make_statement", "Protest_violently,_riot", "Provide_humanitarian_aid", "Make_optimistic_comment"]
INVERSE = {"Make_a_visit": "Host_a_visit"}
SYMMETRIC = {"Engage_in_negotiation", "Sign_formal_agreement", "Consult", "Discuss_by_telephone",
             "Meet_at_a_'third'_location"}
INTERVAL_RELATIONS = ["Hold_office", "Belong_to", "Play_for", "Coach_team", "Chair", "Receive_award"]


@dataclass(frozen=True)
class SynthConfig:
    seed: int = 0
    n_facts: int = 30_000
    start: str = "2008-01-01"
    end: str = "2013-12-31"
    n_countries: int = 40
    n_persons: int = 120
    sectors_per_country: int = 4
    interval: bool = False


def _person_names(rng: np.random.Generator, n: int) -> list[str]:
    names: list[str] = []
    seen = set()
    while len(names) < n:
        g = _GIVEN[int(rng.integers(len(_GIVEN)))]
        f = _FAMILY[int(rng.integers(len(_FAMILY)))]
        nm = f"{g}_{f}"
        if nm not in seen:
            seen.add(nm)
            names.append(nm)
    if names:
        # one name with quotes, like the 271 CSV-quoted lines of the real MultiTQ file
        g, f = names[0].split("_", 1)
        names[0] = f'{g}_"{g[:3]}"_{f}'
    return names


@dataclass
class _Actors:
    names: list[str]
    kind: list[str]  # country | sector | person | org
    home: list[int]  # index of home country actor (self for countries, -1 for orgs)


def _actors(cfg: SynthConfig, rng: np.random.Generator) -> _Actors:
    names, kind, home = [], [], []
    countries = COUNTRIES[: cfg.n_countries]
    for c in countries:
        names.append(c), kind.append("country"), home.append(len(names) - 1)
    for ci, c in enumerate(countries):
        for sec in rng.choice(len(SECTORS), size=min(cfg.sectors_per_country, len(SECTORS)), replace=False):
            names.append(f"{SECTORS[int(sec)]}_({c})"), kind.append("sector"), home.append(ci)
    for p in _person_names(rng, cfg.n_persons):
        names.append(p), kind.append("person"), home.append(int(rng.integers(len(countries))))
    for o in ORGANISATIONS:
        names.append(o), kind.append("org"), home.append(-1)
    return _Actors(names, kind, home)


def synth_rows(cfg: SynthConfig = SynthConfig()) -> list[tuple[str, ...]]:
    """Rows ``(s, r, o, YYYY-MM-DD)`` (or ``(..., start, end)`` in interval mode), sorted
    by time then names, duplicates removed."""
    if cfg.interval:
        return _interval_rows(cfg)
    rng = np.random.default_rng(cfg.seed)
    A = _actors(cfg, rng)
    n = len(A.names)
    d0, d1 = date.fromisoformat(cfg.start).toordinal(), date.fromisoformat(cfg.end).toordinal()
    ndays = d1 - d0 + 1
    # heavy-tailed activity: a few actors are in most events (as in ICEWS)
    activity = 1.0 / (1 + rng.permutation(n)) ** 0.9
    kinds = np.array(A.kind)
    activity[kinds == "country"] *= 3.0
    activity /= activity.sum()
    # recurring partners: each actor has a small preferred set, biased to its own country
    partners: list[np.ndarray] = []
    for i in range(n):
        k = int(rng.integers(3, 9))
        same_home = [j for j in range(n) if j != i and A.home[j] == A.home[i] and A.home[i] >= 0]
        pool = rng.choice(n, size=k, replace=False, p=activity).tolist()
        if same_home:
            pool += rng.choice(same_home, size=min(2, len(same_home)), replace=False).tolist()
        partners.append(np.array([j for j in dict.fromkeys(pool) if j != i], dtype=np.int64))
    # crisis bursts: a few windows where one country's conflict episodes are 8x likelier
    crises = [(int(rng.integers(ndays)), int(rng.integers(10, 60)), int(rng.integers(cfg.n_countries)))
              for _ in range(max(3, ndays // 200))]
    facts: set[tuple[int, int, int, int]] = set()
    rels = DIPLOMATIC + CONFLICT + DOMESTIC + list(INVERSE.values())
    rid = {r: i for i, r in enumerate(rels)}

    def add(s: int, r: str, o: int, day: int) -> None:
        if s != o and 0 <= day < ndays:
            facts.add((s, rid[r], o, day))
            if r in INVERSE:
                facts.add((o, rid[INVERSE[r]], s, day))
            elif r in SYMMETRIC and rng.random() < 0.6:
                facts.add((o, rid[r], s, day))

    guard = 0
    while len(facts) < cfg.n_facts and guard < cfg.n_facts * 20:
        guard += 1
        day = int(rng.integers(ndays))
        a = int(rng.choice(n, p=activity))
        kind = rng.choice(3, p=[0.55, 0.3, 0.15])
        for c_day, c_len, c_country in crises:
            if c_day <= day < c_day + c_len and A.home[a] == c_country and rng.random() < 0.7:
                kind = 1
        b = int(rng.choice(partners[a])) if (len(partners[a]) and rng.random() < 0.85) else int(rng.integers(n))
        if b == a:
            continue
        if kind == 0:  # diplomatic episode: intent -> visit/host -> talks -> maybe agreement
            t = day
            add(a, "Express_intent_to_meet_or_negotiate", b, t)
            t += int(rng.integers(1, 15))
            add(a, "Make_a_visit", b, t)
            for _ in range(int(rng.integers(1, 4))):
                add(a, str(rng.choice(["Consult", "Engage_in_negotiation", "Discuss_by_telephone",
                                       "Express_intent_to_cooperate", "Meet_at_a_'third'_location"])), b,
                    t + int(rng.integers(0, 3)))
            if rng.random() < 0.35:
                add(a, "Sign_formal_agreement", b, t + int(rng.integers(0, 4)))
            if rng.random() < 0.4:
                add(b, "Praise_or_endorse", a, t + int(rng.integers(1, 10)))
            if rng.random() < 0.2:
                add(a, str(rng.choice(["Provide_aid", "Make_an_appeal_or_request"])), b, t + int(rng.integers(0, 30)))
        elif kind == 1:  # conflict escalation, sometimes mutual
            t = day
            for r in CONFLICT[: int(rng.integers(2, len(CONFLICT) + 1))]:
                if r == "Use_conventional_military_force" and not (A.kind[a] == A.kind[b] == "country"):
                    continue
                add(a, r, b, t)
                if rng.random() < 0.3:
                    add(b, r, a, t + int(rng.integers(0, 3)))
                t += int(rng.integers(0, 6))
        else:  # domestic: police/protesters/citizens of one country
            h = A.home[a] if A.home[a] >= 0 else int(rng.integers(cfg.n_countries))
            local = [j for j in range(n) if A.home[j] == h and j != a] or [h]
            b = int(rng.choice(local))
            r = str(rng.choice(DOMESTIC))
            for _ in range(int(rng.integers(1, 4))):
                add(a, r, b, day + int(rng.integers(0, 5)))
    out = sorted(facts, key=lambda f: (f[3], A.names[f[0]], rels[f[1]], A.names[f[2]]))[: cfg.n_facts]
    return [(A.names[s], rels[r], A.names[o], date.fromordinal(d0 + d).isoformat()) for s, r, o, d in out]


def _interval_rows(cfg: SynthConfig) -> list[tuple[str, ...]]:
    """Office terms (successive holders meet), memberships, team stints, yearly awards."""
    rng = np.random.default_rng(cfg.seed)
    y0, y1 = date.fromisoformat(cfg.start).year, date.fromisoformat(cfg.end).year
    people = _person_names(rng, cfg.n_persons)
    countries = COUNTRIES[: cfg.n_countries]
    rows: set[tuple[str, str, str, str, str]] = set()

    def iso(y: int, m: int = 1, d: int = 1) -> str:
        return date(y, m, d).isoformat()

    for c in countries:  # offices: a chain of holders whose terms meet
        for office in (f"President_of_{c}", f"Prime_Minister_of_{c}", f"Foreign_Minister_of_{c}",
                       f"Defence_Minister_of_{c}", f"Finance_Minister_of_{c}"):
            y = y0 - int(rng.integers(0, 4))
            mo, d = int(rng.integers(1, 13)), int(rng.integers(1, 28))
            while y <= y1:
                length = int(rng.integers(1, 7))
                p = people[int(rng.integers(len(people)))]
                nm, nd = int(rng.integers(1, 13)), int(rng.integers(1, 28))
                rows.add((p, "Hold_office", office, iso(y, mo, d), iso(y + length, nm, nd)))
                y, mo, d = y + length, nm, nd
        for org in rng.choice(ORGANISATIONS, size=int(rng.integers(1, 4)), replace=False):
            js = int(rng.integers(y0 - 20, y1))
            je = min(y1 + 5, js + int(rng.integers(3, 40)))
            rows.add((c, "Belong_to", str(org), iso(js, int(rng.integers(1, 13))), iso(je, 12, 31)))
    teams = [f"FC_{c}" for c in countries[: max(4, cfg.n_countries // 3)]]
    for p in people:
        y = int(rng.integers(y0 - 5, y1))
        for _ in range(int(rng.integers(0, 4))):
            length = int(rng.integers(1, 5))
            rows.add((p, str(rng.choice(["Play_for", "Coach_team"], p=[0.8, 0.2])), str(rng.choice(teams)),
                      iso(y, int(rng.integers(1, 13)), 1), iso(y + length, int(rng.integers(1, 13)), 1)))
            y += length + int(rng.integers(0, 2))
    for org in ORGANISATIONS:
        y = y0 - int(rng.integers(0, 6))
        while y <= y1:
            length = int(rng.integers(2, 6))
            rows.add((people[int(rng.integers(len(people)))], "Chair", org, iso(y, 1, 1), iso(y + length, 1, 1)))
            y += length
    for award in ("Peace_Prize_(Synthetic)", "Science_Medal", "Golden_Boot_Award"):
        for y in range(y0 - 10, y1 + 1):
            d = iso(y, int(rng.integers(1, 13)), int(rng.integers(1, 28)))
            rows.add((people[int(rng.integers(len(people)))], "Receive_award", award, d, d))
    out = sorted(rows, key=lambda r: (r[3], r[4], r[0], r[1], r[2]))
    return out[: cfg.n_facts] if cfg.interval and cfg.n_facts < len(out) else out


def write_kg(rows: Iterable[Sequence[str]], path: str | Path, crlf: bool = False) -> Path:
    """Write facts as MultiTQ-style TSV (4 or 5 columns; ``.gz`` by suffix), CSV-quoting
    fields that contain ``"``/tab/newline exactly like the real file. Deterministic bytes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n" if crlf else "\n")
    ncols = None
    for i, row in enumerate(rows, 1):
        if ncols is None:
            ncols = len(row)
            if ncols not in (4, 5):
                raise ValueError(f"row 1: expected 4 or 5 fields, got {ncols}")
        elif len(row) != ncols:
            raise ValueError(f"row {i}: expected {ncols} fields, got {len(row)}")
        w.writerow(row)
    data = buf.getvalue().encode("utf-8")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
    if path.name.endswith(".gz"):
        with open(tmp, "wb") as fh, gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0) as gz:
            gz.write(data)
    else:
        tmp.write_bytes(data)
    tmp.replace(path)
    return path
