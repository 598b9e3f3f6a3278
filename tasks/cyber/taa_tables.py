"""The CTI-TAA alias and related-group tables of the CTI-Bench authors, read without running code.

Upstream keeps them as Python pickles (``evaluation/alias_dict.pickle`` and
``evaluation/related_dict.pickle``, each ``{actor: [names]}``). A pickle can run arbitrary
code when loaded, so they are read with an unpickler that resolves no global at all (a
pickle of dicts, lists and strings needs none); JSON copies of the same tables are read
as they are. Either way the result must be a ``{str: [str, ...]}`` mapping.
"""

from __future__ import annotations

import io
import pickle
from pathlib import Path

from harness.api import ConfigError, parse_json

TABLE_NAMES = ("alias_dict", "related_dict")
MAX_TABLE_BYTES = 20_000_000
Table = dict[str, list[str]]


class _DataOnlyUnpickler(pickle.Unpickler):
    """An unpickler that refuses every global, so a pickle can build only built-in containers and scalars."""

    def find_class(self, module: str, name: str) -> type:
        """Refuse every global (no class, no function: nothing can run)."""
        raise pickle.UnpicklingError(f"refused to load {module}.{name}: only dicts, lists and strings are allowed")

    def persistent_load(self, pid: object) -> object:
        """Refuse persistent ids (they would need code to resolve)."""
        raise pickle.UnpicklingError("refused a persistent id: only dicts, lists and strings are allowed")


def _validated(data: object, source: Path) -> Table:
    """``data`` when it is a ``{str: [str]}`` mapping; ConfigError naming the file otherwise."""
    if not isinstance(data, dict):
        raise ConfigError(f"CTI-TAA table {source}: expected a mapping of actor to names, got {type(data).__name__}")
    table: Table = {}
    for actor, names in data.items():
        if not isinstance(actor, str) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ConfigError(f"CTI-TAA table {source}: entry {str(actor)[:60]!r} is not a list of strings")
        table[actor] = list(names)
    return table


def read_table(path: Path) -> Table:
    """One table from ``path`` (``.json``, or ``.pickle``/``.pkl`` through the data-only unpickler)."""
    if not path.is_file():
        raise ConfigError(f"CTI-TAA table {path}: no such file")
    if path.stat().st_size > MAX_TABLE_BYTES:
        raise ConfigError(f"CTI-TAA table {path}: larger than {MAX_TABLE_BYTES} bytes")
    raw = path.read_bytes()
    if path.suffix.lower() in (".pickle", ".pkl"):
        try:
            data = _DataOnlyUnpickler(io.BytesIO(raw)).load()
        except (
            pickle.UnpicklingError,
            EOFError,
            ValueError,
            TypeError,
            IndexError,
            KeyError,
            AttributeError,
            RecursionError,
            MemoryError,
        ) as exc:
            raise ConfigError(f"CTI-TAA table {path}: not a pickle of plain data ({exc})") from None
    else:
        data = parse_json(raw, f"CTI-TAA table {path}")
    return _validated(data, path)


def find_tables(roots: list[Path]) -> tuple[Path, Path] | None:
    """The alias and related table files under the first root holding both (JSON preferred), or None.

    Looked for in each root itself, its ``evaluation/`` and its ``tables/`` folders.
    """
    for root in roots:
        for folder in (root, root / "evaluation", root / "tables"):
            for suffix in (".json", ".pickle"):
                paths = tuple(folder / f"{name}{suffix}" for name in TABLE_NAMES)
                if all(p.is_file() for p in paths):
                    return paths[0], paths[1]
    return None


def load_tables(folder: Path | None, roots: list[Path]) -> tuple[Table, Table]:
    """The alias and related tables from ``folder`` (``-T tables``), else from beside the data.

    Raises ConfigError when none are found, saying how to point at them.
    """
    found = find_tables([folder] if folder is not None else roots)
    if found is None:
        where = str(folder) if folder is not None else ", ".join(str(r) for r in roots) or "(no data folder)"
        raise ConfigError(
            "CTI-TAA: the authors' alias and related tables (alias_dict.json/.pickle and related_dict.json/.pickle, "
            f"upstream evaluation/) were not found in {where}; pass -T tables=FOLDER, or -T tables=none to score "
            "names without them (no plausible tier)"
        )
    return read_table(found[0]), read_table(found[1])
