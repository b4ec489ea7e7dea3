"""Methods: chains of stages, registered by name (``method=`` in Hydra)."""
