"""Backbones decide how each role of a method runs: symbolic code, vLLM actors, or an HTTP API."""
