"""The ``name:k=v,k=v`` grammar of method specs, shared by the harness and the leaderboard (imports nothing heavy)."""

from __future__ import annotations

from harness.errors import ConfigError


class MethodSpecError(ConfigError, ValueError):
    """A method spec that does not follow the grammar (a ConfigError for the harness, a ValueError for readers)."""


def parse_method_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``name:k=v,k=v`` into the name and its string parameters; MethodSpecError naming a part not key=value."""
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise MethodSpecError(f"method spec {spec!r}: expected key=value, got {item!r}")
        params[key.strip()] = value.strip()
    return name.strip(), params
