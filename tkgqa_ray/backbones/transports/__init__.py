"""Transports move rendered chat requests to a model: OpenAI HTTP, vLLM engine actors, CPU server."""

from tkgqa_ray.backbones.transports.base import ChatCall, Completion, Transport

__all__ = ["ChatCall", "Completion", "Transport"]
