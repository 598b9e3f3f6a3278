"""Parsing helpers shared by CLI commands."""

from __future__ import annotations

import json
import typing
from typing import Any

from pydantic import BaseModel

from harness.errors import ConfigError

SEQUENCE_TYPES = (list, tuple, set, frozenset)


def parse_key_values(pairs: tuple[str, ...], flag: str) -> dict[str, Any]:
    """``key=value`` strings into a dict; values stay strings for the task's Args to coerce."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} expects key=value, got {pair!r}")
        out[key.strip()] = value
    return out


def _takes_sequence(annotation: object) -> bool:
    """True when a field's type is a sequence (``tuple[str, ...]``, ``list[int] | None``, ...) and not a string."""
    origin = typing.get_origin(annotation)
    if origin in SEQUENCE_TYPES or annotation in SEQUENCE_TYPES:
        return True
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(members) and all(_takes_sequence(a) for a in members)
    return False


def coerce_sequences(model: type[BaseModel], args: dict[str, Any]) -> dict[str, Any]:
    """``-T`` strings for sequence-typed fields of ``model`` as lists: JSON (``["a","b"]``) or a comma list (``a,b``).

    Other values are left for the model to coerce; an empty string is an empty list.
    """
    out = dict(args)
    for key, value in args.items():
        field = model.model_fields.get(key)
        if field is None or not isinstance(value, str) or not _takes_sequence(field.annotation):
            continue
        text = value.strip()
        if text.startswith("["):
            try:
                parsed = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                raise ConfigError(f"-T {key}: not a JSON list ({exc})") from None
            if not isinstance(parsed, list):
                raise ConfigError(f"-T {key}: expected a JSON list or a comma-separated list, got {value!r}")
            out[key] = parsed
        else:
            out[key] = [part.strip() for part in text.split(",") if part.strip()]
    return out
