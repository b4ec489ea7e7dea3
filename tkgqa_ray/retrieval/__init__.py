"""The retrieval / evidence layer every retrieval method uses (TCC-RAG, PoK, the baselines).

One job per module, imported by path (this package re-exports nothing, so importing one piece
does not load the others):

- :mod:`.schemas` — role output schemas shared by methods (``AnswerOutput``, ``FilterOutput``);
- :mod:`.render` — fact ids → evidence keys, and keys → the numbered prompt lines;
- :mod:`.dense` — dense fact retrieval (FAISS over distinct triples expanded to dated facts)
  and the ``DenseRetrieve`` stage;
- :mod:`.answers` — the symbolic answer ranking read off evidence facts, answer cleaning, and
  the ``Answer`` stage (the answerer role over the final evidence; methods configure it with
  options and an input hook, the stage knows no method by name).

It sits above ``methods/base.py`` (``Stage``) and ``methods/roles.py`` (role calls) and below
the methods; it imports no method package (``tests/test_architecture.py`` checks).
Everything here sees only ``quid`` + ``question``; answer type and granularity come from
:mod:`tkgqa_ray.nlu.signals`.
"""
