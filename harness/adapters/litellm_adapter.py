"""Any ``provider/model`` through litellm (keys from the environment, as litellm reads them).

litellm fetches its price map from the network on first use unless
``LITELLM_LOCAL_MODEL_COST_MAP`` is set; the harness sets it to use the bundled map.
A price litellm does not know is recorded as unknown (``None``), never as 0.
"""

from __future__ import annotations

import os
import time
from typing import Any

from harness.adapters.base import checked_options
from harness.adapters.openai_format import enforce_max_tokens, generation_from_openai, request_to_openai
from harness.errors import AdapterError, ConfigError, TransientError
from harness.types import GenerateRequest, Generation


def import_litellm() -> Any:
    """Import litellm offline-safely: bundled price map, no telemetry, quiet logs."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    import litellm

    litellm.telemetry = False
    litellm.suppress_debug_info = True
    return litellm


def _transient_types(litellm: Any) -> tuple[type[BaseException], ...]:
    names = (
        "RateLimitError",
        "APIConnectionError",
        "Timeout",
        "InternalServerError",
        "ServiceUnavailableError",
        "BadGatewayError",
    )
    return tuple(getattr(litellm, name) for name in names if hasattr(litellm, name))


class LiteLLMAdapter:
    """Chat completions through ``litellm.acompletion``."""

    def __init__(self, model: str, api_base: str | None = None) -> None:
        self.model = model
        self.api_base = api_base
        self.name = model if api_base is None else f"{model}@{api_base}"
        self.capabilities = frozenset({"chat", "tools", "logprobs", "reasoning_budget"})
        self.batch_requested = False  # -M batch=true: answered through the provider's batch API (harness.batch)
        self._litellm = import_litellm()

    def _cost(self, response: Any) -> float | None:
        litellm = self._litellm
        try:
            cost = litellm.completion_cost(completion_response=response, model=self.model)
        except Exception:
            return None
        if not cost and self.model not in litellm.model_cost and self.model.split("/", 1)[-1] not in litellm.model_cost:
            return None
        return float(cost)

    async def generate(self, request: GenerateRequest) -> Generation:
        """One ``acompletion`` call; litellm's own retries are off (the runner retries)."""
        litellm = self._litellm
        kwargs = request_to_openai(request)
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
            kwargs.setdefault("api_key", os.environ.get("OPENAI_COMPATIBLE_API_KEY", "none"))
        if request.reasoning_budget is not None:
            kwargs["thinking"] = {"type": "enabled", "budget_tokens": request.reasoning_budget}
        started = time.perf_counter()
        try:
            response = await litellm.acompletion(model=self.model, num_retries=0, **kwargs)
        except _transient_types(litellm) as exc:
            raise TransientError(f"{type(exc).__name__}: {str(exc)[:300]}") from None
        except litellm.APIError as exc:
            status = getattr(exc, "status_code", None)
            if status is not None and (status == 429 or status >= 500):
                raise TransientError(f"{type(exc).__name__} ({status}): {str(exc)[:300]}") from None
            raise AdapterError(f"{type(exc).__name__}: {str(exc)[:500]}") from None
        except Exception as exc:
            raise AdapterError(f"{type(exc).__name__}: {str(exc)[:500]}") from None
        body = response.model_dump() if hasattr(response, "model_dump") else dict(response)
        generation = generation_from_openai(
            body, latency_s=time.perf_counter() - started, cost_usd=self._cost(response)
        )
        return enforce_max_tokens(generation, request.max_tokens)


def create(spec: str, seed: int = 0, **options: object) -> LiteLLMAdapter:
    """Build from ``provider/model[@api_base]``; the provider must be one litellm knows (``-M batch=true`` only)."""
    checked_options("litellm", options, {"batch": bool})
    from harness.litellm_providers import known_providers

    model, _, api_base = spec.partition("@")
    provider = model.split("/", 1)[0]
    known = known_providers()  # read without importing litellm, so a typo is refused at once
    if known is None:
        known = frozenset(str(getattr(p, "value", p)) for p in import_litellm().provider_list)
    if "/" not in model or provider not in known:
        raise ConfigError(
            f"unknown adapter {spec!r}: '{provider}' is neither a frontier adapter "
            "(builtin, replay, openai-compatible, local, inspect, lm-eval, or a plugin) nor a litellm provider; "
            "run 'frontier list adapters'"
        )
    if not api_base:
        check_credentials(model)
    adapter = LiteLLMAdapter(model, api_base or None)
    adapter.batch_requested = options.get("batch") is True
    return adapter


def check_credentials(model: str) -> None:
    """Refuse, before any sample runs, a provider whose API key litellm finds missing from the environment.

    litellm's ``validate_environment`` names the variables a provider reads; only the ``*_API_KEY``
    ones are required here (a missing base URL, project or cloud credential may have a default).
    """
    try:
        found = import_litellm().validate_environment(model=model)
    except Exception:  # litellm could not tell: the first call will say what is wrong
        return
    keys = [key for key in found.get("missing_keys") or () if str(key).endswith("_API_KEY")]
    if keys and not found.get("keys_in_environment"):
        raise ConfigError(
            f"{model} needs {' or '.join(keys)} set in the environment (litellm reads the key from there); "
            "set it, or aim the model at a server with @<api_base>"
        )
