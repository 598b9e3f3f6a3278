"""One problem found in a submission, and the JSON path notation that names where it is."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
PathPart = str | int


@dataclass(frozen=True)
class Issue:
    """One problem found in a submission: the file, the JSON path and what is wrong."""

    file: str
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.path}: {self.message}"


def json_path(parts: Iterable[PathPart]) -> str:
    """``["tasks", "demo/arith", "metrics"]`` as ``$.tasks['demo/arith'].metrics``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.match(part):
            out += f".{part}"
        else:
            out += "['" + part.replace("\\", "\\\\").replace("'", "\\'") + "']"
    return out
