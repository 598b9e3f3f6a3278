"""``frontier sweep --grid key=v1,v2``: the configurations of a grid and what each changes in a run.

A grid is the product of its keys' values, in the order given (the last key varies fastest).
A key that is a placeholder of the ``--engine`` template configures the engine; any other key is a
request-level parameter: ``extra_body.NAME`` is a field of every request's ``extra_body`` (a DLM
server's ``steps``, ``block_length``, ``threshold``), any other name an adapter ``-M`` option. Values
are read as JSON when they are (``64``, ``0.9``, ``true``), else kept as text, as ``-M`` reads them;
the engine template gets the text as written.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from harness.errors import ConfigError
from harness.json_input import JsonInputError, parse_json

EXTRA_BODY = "extra_body."
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)?")
MAX_POINTS = 1000


@dataclass(frozen=True)
class GridPoint:
    """One configuration: its values by key (text as given) and its label (``k=v k=v``)."""

    values: dict[str, str]

    @property
    def label(self) -> str:
        """``key=value`` pairs in grid order, space-separated."""
        return " ".join(f"{key}={value}" for key, value in self.values.items())


def parse_grid(pairs: tuple[str, ...]) -> list[GridPoint]:
    """``("steps=32,64", "threads=1,2")`` into the grid's points (every combination)."""
    axes: dict[str, list[str]] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not KEY.fullmatch(key):
            raise ConfigError(
                f"--grid expects key=v1,v2,... with a key such as threads or extra_body.steps, got {pair!r}"
            )
        if key in axes:
            raise ConfigError(f"--grid {key} is given twice")
        values = [value.strip() for value in text.split(",") if value.strip()]
        if not values:
            raise ConfigError(f"--grid {key}: no values")
        if len(set(values)) != len(values):
            raise ConfigError(f"--grid {key}: a value is repeated")
        axes[key] = values
    count = 1
    for values in axes.values():
        count *= len(values)
    if count > MAX_POINTS:
        raise ConfigError(f"--grid has {count} configurations; at most {MAX_POINTS}")
    return [GridPoint(dict(zip(axes, combo, strict=True))) for combo in itertools.product(*axes.values())]


def option_value(text: str) -> object:
    """A grid value as an adapter option: JSON when it is, else the text."""
    try:
        return parse_json(text, "--grid")
    except JsonInputError:
        return text


def request_options(point: GridPoint, engine_keys: set[str], base: dict[str, Any]) -> dict[str, Any]:
    """The ``-M`` options of ``point``'s run: ``base`` with its request-level values set (see the module)."""
    options = dict(base)
    extra = options.get("extra_body")
    if extra is not None and not isinstance(extra, dict):
        raise ConfigError("-M extra_body must be a JSON object to combine with --grid extra_body.* keys")
    for key, text in point.values.items():
        if key in engine_keys:
            continue
        if key.startswith(EXTRA_BODY):
            options["extra_body"] = {**(options.get("extra_body") or {}), key[len(EXTRA_BODY) :]: option_value(text)}
        elif "." in key:
            raise ConfigError(f"--grid {key}: a dotted key must start with extra_body.")
        else:
            options[key] = option_value(text)
    return options


def engine_values(point: GridPoint, engine_keys: set[str]) -> dict[str, str]:
    """The values of ``point`` that fill the engine template."""
    return {key: text for key, text in point.values.items() if key in engine_keys}
