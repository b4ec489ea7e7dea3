"""PoK (Plan of Knowledge): Retrieve/Rank/Reason plans over a dense temporal knowledge store
with time-aware re-ranking. No retriever fine-tuning: the off-the-shelf encoder is used."""
