"""A ModelAdapter over inspect-ai's model API.

Two uses: the ``inspect/<provider>/<model>[?key=value&...]`` adapter spec, which calls any
inspect model provider from a frontier run; and, inside an inspect eval, the bridge that
lets our tasks' ``solve()`` call the eval's model (``get_model()``), tools included.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from harness.adapters.base import checked_options
from harness.errors import AdapterError, ConfigError
from harness.interop.inspect_convert import (
    from_inspect_output,
    to_inspect_config,
    to_inspect_messages,
    to_inspect_tool_choice,
    to_inspect_tools,
)
from harness.task import GenerationSettings
from harness.types import GenerateRequest, Generation

if TYPE_CHECKING:
    from inspect_ai.model import Model

CAPABILITIES = frozenset({"chat", "tools", "logprobs", "reasoning_budget"})
CONNECTION_ARGS = ("base_url", "api_key")


class InspectModelAdapter:
    """Generate through an inspect ``Model``.

    ``base`` is set inside an inspect eval: request parameters equal to it are left to the
    eval's own generate config (``--temperature`` and friends); outside one, every
    parameter of the request is sent. ``wrap_errors`` turns provider failures into
    AdapterError for our runner; inside inspect they propagate to inspect's error handling.
    """

    capabilities = CAPABILITIES

    def __init__(
        self, model: Model, name: str, base: GenerationSettings | None = None, wrap_errors: bool = True
    ) -> None:
        self.model = model
        self.name = name
        self.base = base
        self.wrap_errors = wrap_errors

    async def generate(self, request: GenerateRequest) -> Generation:
        """One call to the inspect model; its output as a Generation."""
        started = time.perf_counter()
        try:
            output = await self.model.generate(
                to_inspect_messages(request.messages),
                tools=to_inspect_tools(request.tools),
                tool_choice=to_inspect_tool_choice(request.tool_choice) if request.tools else None,
                config=to_inspect_config(request, self.base),
            )
        except (ConfigError, AdapterError):
            raise
        except Exception as exc:
            if not self.wrap_errors:
                raise
            raise AdapterError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        return from_inspect_output(output, time.perf_counter() - started)


def parse_spec(rest: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """``<provider>/<model>[?k=v&...]`` into the inspect model name, connection args and model args."""
    name, _, query = rest.partition("?")
    provider, sep, model = name.partition("/")
    if not sep or not provider or not model:
        raise ConfigError(f"inspect spec must be 'inspect/<provider>/<model>[?key=value&...]', got 'inspect/{rest}'")
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise ConfigError(f"inspect spec {rest!r}: the part after '?' must be key=value pairs joined by '&'") from None
    connection = {k: v for k, v in pairs if k in CONNECTION_ARGS}
    model_args = {k: v for k, v in pairs if k not in CONNECTION_ARGS}
    return name, connection, model_args


def provider_args(model_args: dict[str, str]) -> dict[str, Any]:
    """The query's other pairs as ``get_model``'s provider arguments (``Any`` there: each provider reads its own)."""
    return dict(model_args)


def create(rest: str, seed: int = 0, **options: object) -> InspectModelAdapter:
    """The adapter for spec ``inspect/<rest>``; ``base_url``/``api_key`` in the query go to the provider.

    Its options are the spec's query, so ``-M`` options are refused rather than dropped.
    """
    checked_options("inspect", options, {})
    name, connection, model_args = parse_spec(rest)
    try:
        from inspect_ai.model import get_model
    except ImportError:
        raise ConfigError("the inspect/ adapter needs inspect-ai: pip install 'frontier-evals[interop]'") from None
    try:
        model = get_model(
            name, base_url=connection.get("base_url"), api_key=connection.get("api_key"), **provider_args(model_args)
        )
    except Exception as exc:
        raise ConfigError(f"inspect model {name!r} cannot be created: {type(exc).__name__}: {exc}") from None
    where = f"@{connection['base_url']}" if "base_url" in connection else ""
    return InspectModelAdapter(model, f"inspect/{name}{where}")
