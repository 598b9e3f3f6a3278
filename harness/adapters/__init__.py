"""Model adapters: resolve a spec such as ``openai/gpt-4o-mini`` or ``builtin/oracle`` to an adapter."""

from __future__ import annotations

from harness.adapters.base import MethodAdapter, ModelAdapter
from harness.errors import ConfigError

__all__ = ["MethodAdapter", "ModelAdapter", "resolve_adapter"]


def resolve_adapter(spec: str, **options: object) -> ModelAdapter:
    """The adapter for ``spec``: a frontier prefix (builtin, replay, openai-compatible, plugins) or litellm."""
    from harness.registry import LITELLM_ENTRY, adapter_entries

    prefix, sep, rest = spec.partition("/")
    if not sep or not prefix or not rest:
        raise ConfigError(f"model spec must look like 'provider/model' (e.g. builtin/oracle), got {spec!r}")
    entry = adapter_entries().get(prefix)
    if entry is None:
        return LITELLM_ENTRY.load()(spec, **options)
    try:
        factory = entry.load()
    except Exception as exc:
        raise ConfigError(f"adapter {prefix!r} failed to load ({entry.target}): {type(exc).__name__}: {exc}") from None
    return factory(rest, **options)
