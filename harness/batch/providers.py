"""Which adapters have a batch endpoint, and the backend for each: the one place that maps them."""

from __future__ import annotations

import os

from harness.adapters.base import ModelAdapter
from harness.batch.anthropic_batch import AnthropicBatchBackend
from harness.batch.backend import BatchBackend
from harness.batch.openai_batch import OpenAIBatchBackend
from harness.batch.pricing import batch_pricing

OPENAI_BASE = "https://api.openai.com/v1"
ANTHROPIC_BASE = "https://api.anthropic.com"


def _first_env(*names: str) -> str | None:
    return next((os.environ[name] for name in names if os.environ.get(name)), None)


def _anthropic_root(base: str) -> str:
    """The API root of an Anthropic base URL given as litellm takes it (``.../v1/messages`` or ``.../v1`` too)."""
    root = base.rstrip("/")
    for suffix in ("/v1/messages", "/v1"):
        if root.endswith(suffix):
            return root[: -len(suffix)]
    return root


def backend_for(adapter: ModelAdapter) -> BatchBackend | str:
    """The batch backend of ``adapter``, or why it has none.

    ``openai-compatible/<model>@<url>``: OpenAI's Batch API at ``<url>`` (cost unknown, as for its
    calls); litellm ``openai/...`` and ``anthropic/...`` (at their ``@api_base`` when given): OpenAI's
    Batch API and Anthropic's Message Batches, costed at litellm's batch prices.
    """
    from harness.adapters.litellm_adapter import LiteLLMAdapter
    from harness.adapters.openai_compatible import OpenAICompatibleAdapter

    if isinstance(adapter, OpenAICompatibleAdapter):
        return OpenAIBatchBackend(adapter.model, adapter.base_url, adapter.api_key)
    if not isinstance(adapter, LiteLLMAdapter):
        return f"{adapter.name} has no batch endpoint (openai-compatible/..., openai/... and anthropic/... have)"
    provider, _, model = adapter.model.partition("/")
    pricing = batch_pricing(adapter.model)
    if provider == "openai":
        if adapter.api_base is not None:
            base, key = adapter.api_base, os.environ.get("OPENAI_COMPATIBLE_API_KEY")
        else:
            base, key = (
                _first_env("OPENAI_API_BASE", "OPENAI_BASE_URL") or OPENAI_BASE,
                os.environ.get("OPENAI_API_KEY"),
            )
        return OpenAIBatchBackend(model, base, key, pricing)
    if provider == "anthropic":
        base = adapter.api_base or _first_env("ANTHROPIC_API_BASE", "ANTHROPIC_BASE_URL") or ANTHROPIC_BASE
        return AnthropicBatchBackend(model, _anthropic_root(base), os.environ.get("ANTHROPIC_API_KEY"), pricing)
    return f"litellm provider {provider!r} has no batch backend here (openai and anthropic have)"
