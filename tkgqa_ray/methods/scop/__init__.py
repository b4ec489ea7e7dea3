"""SCoP (Structured Constraint Parsing): event triples -> conservative alignment -> executable
temporal constraints + RankSelect -> answer inference over a compact evidence space.

Stages live in their own modules (``event_parser``, ``alignment``, ``constraints``,
``evidence``, ``answerer``) and share a typed ``state.ScopState`` per question (``types`` holds
the papers' structures); ``symbolic`` implements the four roles without an LLM;
``method.SCoP`` wires them and the ablations and checks the chain. See docs/scop.md.
"""

from . import symbolic as _symbolic  # noqa: E402,F401 - importing any SCoP module registers the symbolic roles
