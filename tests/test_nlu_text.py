"""nlu.text: the one tokenizer and its offset-free fast path, hand-checked."""

from __future__ import annotations

import random
import string

import pytest

from tkgqa_ray.nlu.text import norm_tokens, norms, tokenize


@pytest.mark.parametrize("text, expected", [
    ("Citizen (North Korea)", ["citizen", "(", "north", "korea", ")"]),
    ("Côte d'Ivoire's army", ["cote", "d", "'", "ivoire", "'s", "army"]),
    ("Who’s the PM’s aide?", ["who", "'s", "the", "pm", "'s", "aide", "?"]),  # fold writes ’ as '

    ("Lawyer/Attorney (Kenya)", ["lawyer", "/", "attorney", "(", "kenya", ")"]),
    ("", []),
])
def test_norms_by_hand(text, expected):
    assert norms(text) == expected
    assert norms(text) == [t.norm for t in tokenize(text)]


def test_norms_equal_tokenize_norms_on_random_strings():
    rnd = random.Random(0)
    alpha = string.ascii_letters + string.digits + " '’_-().,/éüñ–—"
    for _ in range(5000):
        s = "".join(rnd.choice(alpha) for _ in range(rnd.randint(0, 40)))
        assert norms(s) == [t.norm for t in tokenize(s)], s


def test_norm_tokens_reads_kg_and_display_forms_alike():
    assert norm_tokens("Police_(Kenya)") == norm_tokens("Police (Kenya)") == ("police", "(", "kenya", ")")
