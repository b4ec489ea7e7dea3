"""TCC-RAG on questions with a full reference event (two names in the cue's clause): the
event's direction (passive and nominal clauses name the agent second; a lexicon swap reads
the clause reversed), a main clause whose only participant is a pronoun for one of the
reference names, and a closeness adverb on a range cue ("just before"). Tiny hand-built
KG; every expected answer is worked out by hand in the comments."""

from __future__ import annotations


from tkgqa_ray.methods.tccrag.method import TCCRAG, _agent_first

CRIT, VISIT = "Criticize_or_denounce", "Make_a_visit"
ROWS = [
    # the reference events: Japan criticised Chile in March; Chile criticised Japan in May
    ("Japan", CRIT, "Chile", "2012-03-10"),
    ("Chile", CRIT, "Japan", "2012-05-10"),
    # Peru's visits: one in March, one in May (which one is "the same month" tells the direction)
    ("Peru", VISIT, "Kenya", "2012-03-20"),
    ("Peru", VISIT, "Ghana", "2012-05-20"),
    # criticism of Chile by others, and Japan's criticism of others, around the reference event
    ("Brazil", CRIT, "Chile", "2012-02-01"),
    ("Cuba", CRIT, "Chile", "2012-04-01"),
    ("Japan", CRIT, "Mexico", "2012-01-15"),
    ("Japan", CRIT, "Ecuador", "2012-04-15"),
    # Japan visited Chile on 2012-06-01 (a reference event read through "received a visit from")
    ("Japan", VISIT, "Chile", "2012-06-01"),
    ("Peru", VISIT, "Bolivia", "2012-06-15"),
    # visitors of Kenya before Chile's visit (2012-09-01): Peru twice early, Uruguay nearest
    ("Peru", VISIT, "Kenya", "2012-08-05"),
    ("Peru", VISIT, "Kenya", "2012-08-07"),
    ("Uruguay", VISIT, "Kenya", "2012-08-20"),
    ("Chile", VISIT, "Kenya", "2012-09-01"),
]



def run(ctx, qs):
    return TCCRAG(ctx)([{"quid": str(i), "question": q, "trace": {}} for i, q in enumerate(qs)])


def test_passive_reference_clause_names_the_agent_second(ctx):
    # "Chile was criticized by Japan" = Criticize(Japan, Chile), 2012-03-10 -> March -> Kenya.
    # Read in word order it is Criticize(Chile, Japan), 2012-05-10 -> May -> Ghana.
    (row,) = run(ctx, ["Who did Peru pay a visit to in the same month that Chile was criticized by Japan?"])
    assert row["trace"]["parse"]["reference"] == ["Japan", "Chile"], row["trace"]["parse"]
    assert row["predictions"][:1] == ["Kenya"], row["trace"]
    # active order stays as written: Chile criticised Japan in May -> Ghana
    (row,) = run(ctx, ["Who did Peru pay a visit to in the same month that Chile criticized Japan?"])
    assert row["trace"]["parse"]["reference"] == ["Chile", "Japan"]
    assert row["predictions"][:1] == ["Ghana"], row["trace"]


def test_nominal_reference_event_with_by_agent(ctx):
    # "the condemnation of Chile by Japan" = Criticize(Japan, Chile) in March -> Kenya
    (row,) = run(ctx, ["Which country did Peru visit during the same month as the condemnation of Chile by Japan?"])
    assert row["trace"]["parse"]["reference"] == ["Japan", "Chile"], row["trace"]["parse"]
    assert row["predictions"][:1] == ["Kenya"], row["trace"]


def test_swap_reading_of_the_reference_phrase(ctx):
    # "Chile received a visit from Japan" = Make_a_visit(Japan, Chile) on 2012-06-01 (the
    # lexicon's swap reading of "received a visit from"); Peru's visit that month: Bolivia.
    (row,) = run(ctx, ["Who did Peru visit in the same month that Chile received a visit from Japan?"])
    assert row["predictions"][:1] == ["Bolivia"], row["trace"]


def _occ(q, *names):
    return [{"name": n, "start": q.index(n), "end": q.index(n) + len(n)} for n in names]


def test_agent_first_helper():
    q = "Who did Peru visit after Chile was criticized by Japan?"
    assert _agent_first(q, _occ(q, "Chile", "Japan"), ["Chile", "Japan"]) == ["Japan", "Chile"]
    q = "Who did Peru visit after the request to Chile by Japan?"
    assert _agent_first(q, _occ(q, "Chile", "Japan"), ["Chile", "Japan"]) == ["Japan", "Chile"]
    q = "Who did Peru visit after Chile criticized Japan?"
    assert _agent_first(q, _occ(q, "Chile", "Japan"), ["Chile", "Japan"]) == ["Chile", "Japan"]
    q = "Who did Peru visit after Chile made a statement on Japan?"
    assert _agent_first(q, _occ(q, "Chile"), ["Chile"]) == ["Chile"]


def test_object_pronoun_stands_for_the_reference_object(ctx):
    # "After Japan criticized Chile (2012-03-10), who was the first to criticize it?": it = Chile,
    # Criticize(?, Chile) after 2012-03-10: Cuba (2012-04-01); Brazil's is earlier; Chile itself
    # never criticised Chile. Before the fix the main clause had no anchor: no answer.
    (row,) = run(ctx, ["After Japan criticized Chile, who was the first to criticize it?"])
    p = row["trace"]["parse"]
    assert (p["subject"], p["object"], p["asked"]) == (None, "Chile", "subject"), p
    assert row["predictions"][:1] == ["Cuba"], row["trace"]


def test_subject_pronoun_stands_for_the_reference_subject(ctx):
    # "Prior to Japan's condemnation of Chile (2012-03-10), who did they criticize?": they =
    # Japan (the subject of the wh-question "who did they criticize"), Criticize(Japan, ?)
    # before 2012-03-10: Mexico (2012-01-15); Ecuador is later.
    (row,) = run(ctx, ["Prior to the condemnation of Chile by Japan, who did they criticize?"])
    p = row["trace"]["parse"]
    assert (p["subject"], p["object"], p["asked"]) == ("Japan", None, "object"), p
    assert row["predictions"][:1] == ["Mexico"], row["trace"]


def test_closeness_adverb_ranks_the_nearest_first(ctx):
    # visitors of Kenya before Chile's visit (2012-09-01): Peru (twice, and also in March),
    # Uruguay (2012-08-20, the nearest). A plain "before" ranks by frequency (Peru);
    # "just before" asks the nearest one (Uruguay).
    plain, just = run(ctx, ["Who visited Kenya before Chile did?", "Who visited Kenya just before Chile did?"])
    assert set(plain["predictions"]) == {"Peru", "Uruguay"} and plain["predictions"][0] == "Peru", plain["trace"]
    assert just["predictions"][0] == "Uruguay", just["trace"]


def test_each_reading_of_the_reference_phrase_is_a_boundary(make_symbolic_ctx):
    # "fatally assaulted" reads first as Physically_assault, then Kill_by_physical_assault.
    # Chile assaulted Japan in March (no statement on Kenya that month) and killed in Japan
    # in May, when Peru made a statement on Kenya. The first reading's boundary gives an
    # empty chain, so the next one answers (before, the first reading with an event was final).
    rows = [("Chile", "Physically_assault", "Japan", "2012-03-10"),
            ("Chile", "Kill_by_physical_assault", "Japan", "2012-05-10"),
            ("Peru", "Make_statement", "Kenya", "2012-05-20"),
            ("Cuba", "Make_statement", "Kenya", "2012-07-20")]
    c = make_symbolic_ctx(rows, encoder="hashing")
    (row,) = run(c, ["Who made a statement on Kenya during the same month as Chile fatally assaulted Japan?"])
    rels = row["trace"]["parse"]["relations"]
    assert rels[0] == "Make_statement", row["trace"]["parse"]
    assert row["predictions"][:1] == ["Peru"], row["trace"]
    assert row["trace"]["chain"]["reading"]["boundary_reading"] >= 1, row["trace"]["chain"]


def test_wh_word_of_a_fronted_reference_clause_is_not_the_questions(ctx):
    # "in which" belongs to the fronted clause; the question is "which country did Peru
    # visit": Peru is the subject. Japan criticised Chile in March 2012 -> Peru visited Kenya.
    # Read with the relative "which" as the wh-phrase, Peru was the object (no answer).
    (row,) = run(ctx, ["During the month in which Japan criticized Chile, which country did Peru visit?"])
    p = row["trace"]["parse"]
    assert (p["subject"], p["asked"]) == ("Peru", "object"), p
    assert row["predictions"][:1] == ["Kenya"], row["trace"]


def test_shared_action_pairs_both_events_under_one_relation(make_symbolic_ctx):
    # "hold talks with" reads Consult first, then Engage_in_negotiation. Israel and France
    # have no Consult event; they negotiated on 2012-04-01. After it: Spain consulted France
    # (2012-04-05, a different action), Italy negotiated with France (2012-04-10). Both
    # clauses name one action, so Engage_in_negotiation answers: Italy. Before, the main
    # chain under Consult was bounded by the negotiation: Spain.
    rows = [("Israel", "Engage_in_negotiation", "France", "2012-04-01"),
            ("Spain", "Consult", "France", "2012-04-05"),
            ("Italy", "Engage_in_negotiation", "France", "2012-04-10"),
            ("Spain", "Consult", "France", "2012-03-01")]
    c = make_symbolic_ctx(rows, encoder="hashing")
    (row,) = run(c, ["Who was the first to hold talks with France after Israel held talks with France?"])
    assert row["trace"]["parse"]["relations"][:2] == ["Consult", "Engage_in_negotiation"], row["trace"]["parse"]
    assert row["predictions"][:1] == ["Italy"], row["trace"]
    assert row["trace"]["chain"]["reading"]["shared_action"] is True


def test_word_order_rules_read_the_main_clause_only(make_symbolic_ctx):
    # "in which Japan visited Chile" is the fronted clause; the question is "which country
    # criticized Japan": Japan is the object. June 2013: Peru criticised Japan (the answer);
    # Japan criticised Bolivia (what "which Japan ..." read as statement order would give).
    rows = [("Japan", VISIT, "Chile", "2013-06-01"), ("Peru", CRIT, "Japan", "2013-06-20"),
            ("Japan", CRIT, "Bolivia", "2013-06-25")]
    c = make_symbolic_ctx(rows, encoder="hashing")
    (row,) = run(c, ["During the month in which Japan visited Chile, which country criticized Japan?"])
    p = row["trace"]["parse"]
    assert (p["object"], p["asked"]) == ("Japan", "subject"), p
    assert row["predictions"][:1] == ["Peru"], row["trace"]


def test_contact_clause_after_an_indefinite_asks_the_object(ctx):
    # "anyone Peru visited during the month in which Japan criticized Chile": Peru is the
    # subject (a relative clause without "that"); March 2012 -> Kenya
    (row,) = run(ctx, ["Was there anyone Peru visited during the month in which Japan criticized Chile? Who?"])
    p = row["trace"]["parse"]
    assert (p["subject"], p["asked"]) == ("Peru", "object"), p
    assert row["predictions"][:1] == ["Kenya"], row["trace"]
