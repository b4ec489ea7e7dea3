"""The one fact-key codec (kg/factkey.py), on hand-written keys, names with '|' included."""

from __future__ import annotations

import pytest

from tkgqa_ray.eval.evidence import parse_fact_key
from tkgqa_ray.kg import fact_key
from tkgqa_ray.kg.factkey import FactKey, FactKeyError, decode_fact_key, encode_fact_key
from tkgqa_ray.retrieval.render import fact_line
from tkgqa_ray.time import day


def test_plain_names_are_the_plain_join():
    # the form datasets write gold events in: nothing escaped when no name holds '|' or '\'
    k = encode_fact_key("Barack_Obama", "Make_a_visit", "Ireland", "2012-08-07", "2012-08-07")
    assert k == "Barack_Obama|Make_a_visit|Ireland|2012-08-07|2012-08-07"
    assert decode_fact_key(k) == FactKey("Barack_Obama", "Make_a_visit", "Ireland", "2012-08-07", "2012-08-07")
    assert decode_fact_key(k).start == "2012-08-07"


@pytest.mark.parametrize("s, r, o, key", [
    # a "|" in the subject, in the object, in both; a backslash and a lone "|" as names
    ("A|B", "Make_statement", "C", r"A\|B|Make_statement|C|2010-01-02|2010-01-03"),
    ("A", "Make_statement", "C|D", r"A|Make_statement|C\|D|2010-01-02|2010-01-03"),
    ("A|B", "Make_statement", "C|D|E", r"A\|B|Make_statement|C\|D\|E|2010-01-02|2010-01-03"),
    ("A\\B", "r", "|", r"A\\B|r|\||2010-01-02|2010-01-03"),
])
def test_names_with_separators_round_trip(s, r, o, key):
    assert encode_fact_key(s, r, o, "2010-01-02", "2010-01-03") == key
    assert decode_fact_key(key) == (s, r, o, "2010-01-02", "2010-01-03")


def test_the_escaped_ends_are_where_hand_checked():
    # "A\" as subject: its backslash doubles, then the separator; not "A" + an escaped '|'
    assert encode_fact_key("A\\", "r", "C", "2010", "2010") == "A\\\\|r|C|2010|2010"
    assert decode_fact_key("A\\\\|r|C|2010|2010").subject == "A\\"


def test_unescaped_bar_in_a_name_is_an_error_not_a_guess():
    # "a|b|r|o|t|t" could be (a|b, r, o) or (a, b|r, o): the decoder refuses to choose
    with pytest.raises(FactKeyError, match=r"6 fields.*\\\|"):
        decode_fact_key("a|b|r|o|2010-01-01|2010-01-01")
    with pytest.raises(FactKeyError, match="4 fields"):
        decode_fact_key("a|b|c|2010")
    with pytest.raises(FactKeyError):
        decode_fact_key(None)  # type: ignore[arg-type]
    # a stray backslash (not before '|' or '\') is kept as written
    assert decode_fact_key(r"a\b|r|o|2010|2010").subject == r"a\b"


def test_table_keys_and_their_readers_agree():
    key = fact_key("Police_|_Kenya", "Use|force", "Crowd", day("2010-05-17"), day("2010-05-18"))
    assert key == r"Police_\|_Kenya|Use\|force|Crowd|2010-05-17|2010-05-18"
    # prompt rendering and evidence metrics read the same five fields
    assert fact_line(key) == "Police | Kenya | Use|force | Crowd | 2010-05-17 to 2010-05-18"
    assert parse_fact_key(key) == ("police | kenya", "use|force", "crowd", day("2010-05-17"), day("2010-05-18"))
    assert parse_fact_key("a|b|r|o|2010-01-01|2010-01-01") is None


def test_real_kg_names_need_no_escaping(real_kg_path):
    """On the real MultiTQ KG no field holds '|' or '\\', so every key is the plain join
    (the codec changed no evidence string of any run)."""
    import gzip

    with gzip.open(real_kg_path, "rb") as f:
        data = f.read()
    assert data.count(b"|") == 0 and data.count(b"\\") == 0
