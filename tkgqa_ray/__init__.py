"""tkgqa-ray: distributed batch evaluation of Temporal KG Question Answering methods on Ray."""

__version__ = "0.1.0"
