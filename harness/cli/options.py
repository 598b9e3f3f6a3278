"""Parsing helpers shared by CLI commands."""

from __future__ import annotations

from typing import Any

from harness.errors import ConfigError


def parse_key_values(pairs: tuple[str, ...], flag: str) -> dict[str, Any]:
    """``key=value`` strings into a dict; values stay strings for the task's Args to coerce."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} expects key=value, got {pair!r}")
        out[key.strip()] = value
    return out
