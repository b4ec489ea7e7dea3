"""Entity mentions: longest match, case-insensitivity, parentheses, lower-case guard."""

from tkgqa_ray.nlu import EntityMatcher, find_entity_mentions

NAMES = [
    "China", "North_Korea", "Citizen_(North_Korea)", "Iran", "Danish_Ministry_of_Defence_and_Security",
    "Government", "Cote_d'Ivoire", "People's_Party", "Barack_Obama", "Ministry_(China)",
]


def mentions(q: str):
    return [(m.text, m.name) for m in find_entity_mentions(q, EntityMatcher(NAMES))]


def test_longest_match_wins_over_contained_name():
    assert mentions("Who visited Citizen (North Korea) in 2010?") == [("Citizen (North Korea)", "Citizen_(North_Korea)")]
    assert mentions("Who did Ministry (China) criticise?") == [("Ministry (China)", "Ministry_(China)")]


def test_token_boundaries_and_case_insensitivity():
    # "Iranian" must not match "Iran"; "NORTH KOREA" matches case-insensitively
    assert mentions("Which Iranian official visited NORTH KOREA?") == [("NORTH KOREA", "North_Korea")]


def test_lower_case_common_word_is_not_a_mention_but_capitalised_is():
    assert mentions("Who did the government of China praise?") == [("China", "China")]
    assert mentions("Who did Government praise?") == [("Government", "Government")]


def test_apostrophes_possessives_and_order():
    got = mentions("After Barack Obama's visit, who praised Cote d'Ivoire and the People's Party?")
    assert got == [("Barack Obama", "Barack_Obama"), ("Cote d'Ivoire", "Cote_d'Ivoire"), ("People's Party", "People's_Party")]


def test_lookup_accepts_kg_and_display_forms_and_articles():
    m = EntityMatcher(NAMES)
    assert m.lookup("Citizen_(North_Korea)") == m.lookup("citizen (north korea)") == (2,)
    assert m.lookup("the Danish Ministry of Defence and Security") == (4,)
    assert m.lookup("Narnia") == ()


def test_matcher_is_cached_per_table():
    class T:
        entities = NAMES
        content_hash = "abc-test"

    assert EntityMatcher.for_table(T()) is EntityMatcher.for_table(T())
