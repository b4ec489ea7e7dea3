"""SCoP's typed per-question state: the stage chain's declared data flow is checked at
construction (a reordered, missing or undeclared stage is refused naming the field), each
stage's declaration matches what it really reads and writes, the typed values round-trip
through the JSON forms the trace shows, and the state never reaches an output row."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from tkgqa_ray.methods.base import Stage
from tkgqa_ray.methods.scop.alignment import AlignmentStage
from tkgqa_ray.methods.scop.answerer import AnswerStage
from tkgqa_ray.methods.scop.constraints import ConstraintParseStage, typed
from tkgqa_ray.methods.scop.evidence import EvidenceStage
from tkgqa_ray.methods.scop.method import SCoP
from tkgqa_ray.methods.scop.state import KEY, PROVIDED, ScopStage, ScopState, check_chain
from tkgqa_ray.methods.scop.types import Constraint, Ranking, Reading, Triple
from tkgqa_ray.pipeline.rows import rows_to_table, state_to_row

from test_scop_stages import QS as STAGE_QS, ROWS as STAGE_ROWS  # noqa: E402 - the same hand-made KG and questions
ROWS = STAGE_ROWS  # conftest's `ctx` reads a module's ROWS

QS = [*STAGE_QS, "Who did Atlantis sign a formal agreement with?"]  # the last: no KG name, no evidence



def states():
    return [{"quid": str(i), "question": q, "roles": [], "trace": {}} for i, q in enumerate(QS)]


# ------------------------------------------------------------------ the chain check
def chain_of(ctx, build):
    class Variant(SCoP):
        def build_stages(self):
            return build(self.ctx)

    return Variant(ctx)


def test_every_ablation_chain_passes_the_check(ctx):
    for ab in SCoP.ablations:
        m = SCoP(ctx, ablation=ab)
        check_chain(m.stages)
        assert all(isinstance(s, ScopStage) for s in m.stages)


def test_reordered_chain_is_refused_naming_the_field(ctx):
    from tkgqa_ray.methods.scop.event_parser import EventParserStage

    def swapped(c):  # constraints before alignment: they would read an alignment not yet made
        return [EventParserStage(c), ConstraintParseStage(c), AlignmentStage(c), EvidenceStage(c), AnswerStage(c)]

    with pytest.raises(TypeError, match=r"'scop.constraint_parser' reads ScopState.aligned, but it is written only later, by 'scop.alignment'"):
        chain_of(ctx, swapped)


def test_missing_stage_is_refused_naming_the_field(ctx):
    from tkgqa_ray.methods.scop.event_parser import EventParserStage

    def no_evidence(c):
        return [EventParserStage(c), AlignmentStage(c), ConstraintParseStage(c), AnswerStage(c)]

    with pytest.raises(TypeError, match=r"'scop.answerer' reads ScopState.chosen, but no stage in the chain writes it"):
        chain_of(ctx, no_evidence)

    def no_parser(c):
        return [AlignmentStage(c), ConstraintParseStage(c), EvidenceStage(c), AnswerStage(c)]

    with pytest.raises(TypeError, match=r"reads ScopState.triples"):
        chain_of(ctx, no_parser)

    def no_answer(c):
        return [EventParserStage(c), AlignmentStage(c), ConstraintParseStage(c), EvidenceStage(c)]

    with pytest.raises(TypeError, match=r"never writes ScopState.answers"):
        chain_of(ctx, no_answer)


def test_undeclared_or_misdeclared_stage_is_refused(ctx):
    class Plain(Stage):
        name = "plain"

        def __call__(self, states):
            return states

    with pytest.raises(TypeError, match="'plain' .*does not declare reads/writes"):
        check_chain([Plain(ctx)])

    class Typo(ScopStage):
        name = "typo"
        reads = ("alinged",)

        def __call__(self, states):
            return states

    with pytest.raises(TypeError, match="'typo' declares 'alinged', which is not a ScopState field"):
        check_chain([Typo(ctx)])


# ------------------------------------------------------------------ declarations are honest
class Recording(ScopState):
    """A ScopState that logs which fields are read and written (after construction)."""

    def __init__(self, *a, **kw):
        object.__setattr__(self, "_log", None)
        super().__init__(*a, **kw)
        object.__setattr__(self, "_log", {"read": set(), "write": set()})

    def __getattribute__(self, name):
        log = object.__getattribute__(self, "_log")
        if log is not None and name in FIELD_NAMES:
            log["read"].add(name)
        return object.__getattribute__(self, name)

    def __setattr__(self, name, value):
        log = object.__getattribute__(self, "_log")
        if log is not None:
            log["write"].add(name)
        object.__setattr__(self, name, value)


FIELD_NAMES = {f.name for f in fields(ScopState)}


def test_each_stage_reads_and_writes_what_it_declares(ctx):
    seen: dict[type, set] = {}  # stage class -> fields read over all ablations
    for ablation in SCoP.ablations:
        sts = states()
        for st in sts:
            st[KEY] = Recording(st["quid"], st["question"], st["trace"])
        for stage in SCoP(ctx, ablation=ablation).stages:
            for st in sts:
                st[KEY]._log["read"].clear()
                st[KEY]._log["write"].clear()
            sts = stage(sts)
            read = set().union(*(st[KEY]._log["read"] for st in sts))
            wrote = set().union(*(st[KEY]._log["write"] for st in sts))
            assert wrote == set(stage.writes), (ablation, stage.name)
            declared = set(stage.reads) | set(stage.reads_optional) | set(stage.writes) | set(PROVIDED)
            assert read <= declared, (ablation, stage.name, read - declared)
            seen.setdefault(type(stage), set()).update(read)
    for cls, read in seen.items():  # no stale declaration: every declared read happens somewhere
        assert set(cls.reads) | set(cls.reads_optional) <= read, (cls.name, set(cls.reads) - read)


# ------------------------------------------------------------------ typed <-> trace forms
def test_typed_values_round_trip_through_their_trace_forms():
    r = Reading((Triple("Japan", "Make_a_visit", "Iraq"),), Triple("?", "Make_a_visit", "Iraq"))
    assert Reading.from_json(json.loads(json.dumps(r.to_json()))) == r
    assert Reading.from_json({"anchors": [], "search": None}) == Reading() and Reading().empty
    cons = [
        Constraint("event", "after", 0),
        Constraint("explicit_time", "equal", "2005-04", "month"),
        Constraint("explicit_interval", "inside", ("2005-01-01", "2005-12-31")),
        Constraint("event", "before", 1, None, 30),
    ]
    back = typed(json.loads(json.dumps({"constraints": [c.to_json() for c in cons], "ranking": Ranking("desc", 2).to_json()})))
    assert back == (cons, Ranking("desc", 2))


def test_a_finished_state_pickles_whole(ctx):
    """ScopState never crosses Ray in a run, but the throughput bench ships states to actors."""
    import pickle

    sts = states()
    m = SCoP(ctx)
    for stage in m.stages[:-1]:
        sts = stage(sts)
    s = sts[0][KEY]
    back = pickle.loads(pickle.dumps(s))
    assert back.evidence == s.evidence and back.chosen == s.chosen and back.constraints == s.constraints
    assert back.readings == s.readings and back.trace == s.trace and s.evidence.final > 0


def test_state_never_reaches_the_row_and_results_are_written_once(ctx):
    out = SCoP(ctx)(states())
    assert [r["predictions"][:1] for r in out] == [["France"], ["Japan"], ["2010-03-01"], []]
    assert [r["answered_by"] for r in out] == ["structured", "structured", "structured", "no_evidence"]
    for r in out:
        assert KEY not in r
        assert r["final_evidence_count"] == len(r["evidence"]) == r["trace"]["evidence"]["final"]
        assert r["initial_evidence_count"] == r["trace"]["evidence"]["initial"]
        assert r["trace"]["answer"] == r["predictions"]
    assert out[1]["evidence"] == ["China|Sign_formal_agreement|Japan|2005-04-12|2005-04-12"]
    table = rows_to_table([state_to_row(r, method="scop", backbone="symbolic", ablation="none") for r in out])
    assert table.num_rows == len(QS)
