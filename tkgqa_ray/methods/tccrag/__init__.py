"""TCC-RAG: multi-view causal cue graph (TEG/SCCI/OCCI views over the shared fact store),
progressive query parsing, temporal causal chain construction, causal evidence filter."""
