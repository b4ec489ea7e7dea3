"""names27 rules: question-form wrappers (hand-checked expectations on small inputs)."""

from tkgqa_ray.nlu.wrappers import strip_wrapper


def test_wondering_frame_is_blanked_whole():
    # "wondering" must not match as "wonder" + a left-over "ing" in the relation phrase
    assert strip_wrapper("i was wondering when X first visited Y").strip() == "when X first visited Y"
    assert strip_wrapper("I was wondering in which month X praised Y?").strip() == "in which month X praised Y?"
    assert strip_wrapper("I wonder which country X visited?").strip() == "which country X visited?"


def test_find_before_time_noun_is_a_frame():
    assert strip_wrapper("please find the first date when X hosted Y").strip() == "the first date when X hosted Y"
    assert strip_wrapper("Give me the exact year in which X visited Y").strip() == "the exact year in which X visited Y"
    # a bare "find" before an entity noun phrase is not blanked by this rule
    assert strip_wrapper("Find the Men (France) arrested in 2005").startswith("Find")
