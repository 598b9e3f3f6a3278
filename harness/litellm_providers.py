"""litellm's provider names, read without importing litellm (its import takes seconds).

The names are the values of ``litellm.types.utils.LlmProviders``, read from the installed
source with :mod:`ast` (nothing executed). When that file cannot be found or its shape has
changed, :func:`known_providers` answers None and the caller falls back to importing litellm.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path


@functools.lru_cache(maxsize=1)
def known_providers() -> frozenset[str] | None:
    """The provider names litellm accepts, or None when they cannot be read without importing it."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    source = Path(next(iter(spec.submodule_search_locations))) / "types" / "utils.py"
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "LlmProviders":
            names = {
                statement.value.value
                for statement in node.body
                if isinstance(statement, ast.Assign)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            }
            return frozenset(names) if len(names) > 10 else None
    return None
