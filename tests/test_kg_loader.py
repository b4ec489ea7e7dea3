"""Loader and FactTable: formats, quoting, errors with file:line, ids, arrow round trip."""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import hashlib
import io

import numpy as np
import pytest

from tkgqa_ray.kg import Fact, FactTable, KGFormatError, fact_key, load_kg, load_kgs, parse_time_span
from tkgqa_ray.kg.loader import read_kg_bytes

D = lambda s: dt.date.fromisoformat(s).toordinal()  # noqa: E731

POINT = (
    'Barack_Obama\tMake_a_visit\tIreland\t2012-08-07\r\n'
    '"Antony_Harold_Curties_""Tony""_Windsor"\tMake_statement\tBusinessperson_(Australia)\t2005-02-03\r\n'
    'Ireland\tHost_a_visit\tBarack_Obama\t2012-08-07\r\n'
    '\r\n'
    'Police_(Australia)\tReject\t"Antony_Harold_Curties_""Tony""_Windsor"\t2005-02-04\r\n'
)


def write(tmp_path, name, text, gz=False):
    p = tmp_path / name
    data = text.encode("utf-8")
    p.write_bytes(gzip.compress(data) if gz else data)
    return p


def test_point_file_crlf_quotes_blank_line(tmp_path):
    t = load_kg(write(tmp_path, "kg.txt", POINT))
    assert t.num_facts == 4 and not t.is_interval
    tony = 'Antony_Harold_Curties_"Tony"_Windsor'
    assert t.entities == sorted(["Barack_Obama", "Ireland", tony, "Businessperson_(Australia)", "Police_(Australia)"])
    assert t.relations == ["Host_a_visit", "Make_a_visit", "Make_statement", "Reject"]
    f0, f1, f3 = t.fact(0), t.fact(1), t.fact(3)
    assert f0 == Fact(0, "Barack_Obama", "Make_a_visit", "Ireland", D("2012-08-07"), D("2012-08-07"))
    assert f1.subject == tony and f1.object == "Businessperson_(Australia)"
    assert f3.object == tony and f3.start == f3.end == D("2005-02-04")
    assert t.display(tony) == 'Antony Harold Curties "Tony" Windsor'
    assert t.display_entity_id["Barack Obama"] == t.entity_id["Barack_Obama"]
    assert f0.key == "Barack_Obama|Make_a_visit|Ireland|2012-08-07|2012-08-07"
    assert f0.text() == "Barack Obama Make a visit Ireland at 2012-08-07"
    for c in (t.s, t.r, t.o, t.start, t.end):
        assert c.dtype == np.int32 and not c.flags.writeable


def test_gz_equals_plain_and_hash_is_format_independent(tmp_path):
    a = load_kg(write(tmp_path, "kg.txt", POINT))
    b = load_kg(write(tmp_path, "kg.txt.gz", POINT, gz=True))
    c = load_kg(write(tmp_path, "lf.txt", POINT.replace("\r\n", "\n")))
    assert a.content_hash == b.content_hash == c.content_hash
    assert [a.fact(i) for i in range(4)] == [b.fact(i) for i in range(4)]
    d = load_kg(write(tmp_path, "other.txt", POINT.replace("2012-08-07", "2012-08-08", 1)))
    assert d.content_hash != a.content_hash


def test_interval_file_and_coarse_times(tmp_path):
    text = (
        "Louis_Pasteur\taward_received\tRumford_Medal\t1856-01-01\t1856-01-01\n"
        "X\tmember_of\tY\t1990\t1995-06\n"
        "X\tpresident_of\tZ\t2000-02\t2000-02\n"
    )
    t = load_kg(write(tmp_path, "int.txt", text))
    assert t.is_interval
    assert (t.start[1], t.end[1]) == (D("1990-01-01"), D("1995-06-30"))
    assert (t.start[2], t.end[2]) == (D("2000-02-01"), D("2000-02-29"))  # leap year
    assert t.fact(0).is_point and t.fact(1).text() == "X member of Y from 1990-01-01 to 1995-06-30"
    assert t.max_duration == D("1995-06-30") - D("1990-01-01")


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        ("a\tr\tb\t2010-01-01\na\tr\tb\n", 2, "expected 4 tab-separated fields"),
        ("a\tr\tb\t2010-01-01\r\n\r\na\tr\tb\t2010-02-30\r\n", 3, "bad time"),
        ("a\tr\tb\t2010-01-01\na\tr\tb\t10-01-2010\n", 2, "bad time"),
        ("a\tr\tb\t2010-01-01\na\tr\tb\t2010-01-01\textra\n", 2, "expected 4"),
        ("a\tr\tb\t2010-01-01\n\tr\tb\t2010-01-01\n", 2, "empty subject"),
        ("a\tr\tb\t2010-01-01\t2011-01-01\na\tr\tb\t2012-01-01\t2011-01-01\n", 2, "before start"),
        ("a\tr\tb\t2010-01-01\t2011\na\tr\tb\t2012\n", 2, "expected 5"),
        ("a\tr\tb\n", 1, "expected 4 tab-separated fields"),
    ],
)
def test_malformed_names_file_and_line(tmp_path, text, line, fragment):
    p = write(tmp_path, "bad.txt", text)
    with pytest.raises(KGFormatError) as ei:
        load_kg(p)
    msg = str(ei.value)
    assert msg.startswith(f"{p}:{line}:"), msg
    assert fragment in msg, msg


def test_malformed_gz_and_bad_utf8(tmp_path):
    p = write(tmp_path, "bad.txt.gz", "a\tr\tb\t2010-01-01\na\tr\tb\t2010-13-01\n", gz=True)
    with pytest.raises(KGFormatError, match=r"bad\.txt\.gz:2: bad time"):
        load_kg(p)
    q = tmp_path / "u.txt"
    q.write_bytes(b"a\tr\tb\t2010-01-01\nx\xff\tr\tb\t2010-01-01\n")
    with pytest.raises(KGFormatError, match=r"u\.txt:2: not valid UTF-8"):
        load_kg(q)
    with pytest.raises(KGFormatError, match="empty"):
        load_kg(write(tmp_path, "empty.txt", "\n\n"))


def test_from_rows_matches_loader_and_arrow_round_trip(tmp_path):
    t = load_kg(write(tmp_path, "kg.txt", POINT))
    rows = [(f.subject, f.relation, f.object, dt.date.fromordinal(f.start).isoformat()) for f in t.facts(range(4))]
    u = FactTable.from_rows(rows)
    assert u.content_hash == t.content_hash
    v = FactTable.from_arrow(t.to_arrow())
    assert v.content_hash == t.content_hash and v.entities == t.entities
    with pytest.raises(KGFormatError, match="row 2: time"):
        FactTable.from_rows([("a", "r", "b", "2010"), ("a", "r", "b", "2010-1-1")])
    with pytest.raises(KGFormatError, match="row 1: empty object"):
        FactTable.from_rows([("a", "r", "", "2010")])


def test_triples_and_facts_of_triples():
    rows = [
        ("a", "r", "b", "2010-01-05"),  # 0
        ("a", "r", "b", "2010-01-01"),  # 1 same triple, earlier
        ("b", "r", "a", "2010-01-03"),  # 2
        ("a", "r", "b", "2010-01-05"),  # 3 duplicate of 0 (kept: fact ids are rows)
        ("a", "q", "b", "2010-01-02"),  # 4
    ]
    t = FactTable.from_rows(rows)
    # entities a=0,b=1; relations q=0,r=1 → triples sorted (s, r, o)
    assert t.triples.tolist() == [[0, 0, 1], [0, 1, 1], [1, 1, 0]]
    assert t.fact_triple.tolist() == [1, 1, 2, 1, 0]
    assert t.facts_of_triples([1]).tolist() == [1, 0, 3]  # by (start, id)
    assert t.facts_of_triples([2, 0]).tolist() == [2, 4]
    assert t.facts_of_triples([]).tolist() == []
    assert t.triple_text(0) == "a q b"


def test_parse_time_span_hand_checked():
    assert parse_time_span("2012-02") == (D("2012-02-01"), D("2012-02-29"))
    assert parse_time_span("2011-02") == (D("2011-02-01"), D("2011-02-28"))
    assert parse_time_span("2010-12") == (D("2010-12-01"), D("2010-12-31"))
    assert parse_time_span("2010") == (D("2010-01-01"), D("2010-12-31"))
    for bad in ("2010-1-01", "2010-00", "2010-02-29", "abcd", "", "2010-01-01T00"):
        with pytest.raises(ValueError):
            parse_time_span(bad)
    assert fact_key("a", "r", "b", D("2010-01-02"), D("2010-01-03")) == "a|r|b|2010-01-02|2010-01-03"


def test_load_kgs_concatenates(tmp_path):
    a = write(tmp_path, "a.txt", "x\tr\ty\t2010-01-01\n")
    b = write(tmp_path, "b.txt", "y\tq\tz\t2010-01-02\n")
    t = load_kgs([a, b])
    assert [f.key for f in t.facts([0, 1])] == ["x|r|y|2010-01-01|2010-01-01", "y|q|z|2010-01-02|2010-01-02"]


@pytest.mark.realkg
def test_real_kg_matches_python_csv(real_kg_path, real_kg_table):
    """The fast pyarrow path equals Python's csv module on every line of the real file,
    including the 271 CSV-quoted lines; sizes and the source checksum match the data README."""
    data = read_kg_bytes(real_kg_path)
    assert len(data) == 31_497_626
    assert hashlib.sha256(data).hexdigest() == "b94b31a86dc9f8dd40c8a95ec5c224f85a9a0793df0d40efad710cfda2f3944e"
    t = real_kg_table  # load_kg(real_kg_path), once per session
    assert (t.num_facts, len(t.entities), len(t.relations)) == (461_329, 10_488, 251)
    rows = [r for r in csv.reader(io.StringIO(data.decode("utf-8"), newline=""), delimiter="\t") if r]
    assert len(rows) == t.num_facts
    quoted = sum(1 for line in data.split(b"\r\n") if b'"' in line)
    assert quoted == 271
    ents, rels = np.asarray(t.entities, dtype=object), np.asarray(t.relations, dtype=object)
    assert list(ents[t.s]) == [r[0] for r in rows]
    assert list(rels[t.r]) == [r[1] for r in rows]
    assert list(ents[t.o]) == [r[2] for r in rows]
    days = {d: D(d) for d in {r[3] for r in rows}}
    assert np.array_equal(t.start, np.array([days[r[3]] for r in rows], dtype=np.int32))
    assert np.array_equal(t.start, t.end)
    assert int(t.start.min()) == D("2005-01-01") and int(t.start.max()) == D("2015-12-31")
    assert t.num_triples == 166_760
