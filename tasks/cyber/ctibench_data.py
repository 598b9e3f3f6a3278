"""Locating and reading the CTI-Bench files (tab-separated, one header row).

Where the data comes from, in order:

1. the task argument ``data`` (``-T data=PATH``): a folder laid out as the upstream
   repository (``data/cti-*.tsv``, ``evaluation/...``) or holding the ``cti-*.tsv`` files
   flat, or one ``.tsv`` file; ``-T data=hub`` (or ``hub:<dataset id>``) for the hub;
2. the folder or file named by the environment variable ``FRONTIER_CTIBENCH_DATA``;
3. the hub dataset ``AI4Sec/cti-bench`` through ``datasets``, only when online.

Nothing depends on the working directory. The TAA ground truth lives only in upstream's
``evaluation/responses/cti-taa-responses.tsv`` (column ``GT``, one row per ``cti-taa.tsv``
row, in the same order). Files are read strictly, one record per line: a quote that opens a
field and never closes (which would swallow the following rows and shift every later id)
is an error naming its line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from harness.api import ConfigError

HUB_ID = "AI4Sec/cti-bench"
HUB_PREFIX = "hub"
ENV_VAR = "FRONTIER_CTIBENCH_DATA"
RESPONSES_NAME = "cti-taa-responses"
MAX_FILE_BYTES = 200_000_000

Row = dict[str, str]


def _hint() -> str:
    """How to point the task at the data."""
    return (
        f"pass -T data=PATH (a CTI-Bench checkout, a folder with the cti-*.tsv files, or one .tsv file), "
        f"-T data=hub, or set {ENV_VAR}"
    )


def hub_id(data: str | None) -> str | None:
    """The hub dataset ``data`` names (``hub`` or ``hub:<id>``), or None when it names a path."""
    if data is None:
        return None
    if data == HUB_PREFIX:
        return HUB_ID
    if data.startswith(HUB_PREFIX + ":"):
        return data[len(HUB_PREFIX) + 1 :] or HUB_ID
    return None


def _file_in(folder: Path, name: str) -> Path | None:
    """``name``.tsv in ``folder`` or in the places an upstream checkout (or its copies) keep it."""
    for candidate in (
        folder / f"{name}.tsv",
        folder / "data" / f"{name}.tsv",
        folder / "evaluation" / "responses" / f"{name}.tsv",
        folder / "responses" / f"{name}.tsv",
        folder.parent / "evaluation" / "responses" / f"{name}.tsv",
    ):
        if candidate.is_file():
            return candidate
    return None


def data_path(data: str | None) -> tuple[Path, str] | None:
    """The local path the data comes from and how it was chosen, or None for the hub."""
    if hub_id(data) is not None:
        return None
    if data:
        return Path(data).expanduser(), f"-T data={data}"
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser(), f"{ENV_VAR}={os.environ[ENV_VAR]}"
    return None


def locate(data: str | None, name: str) -> Path | None:
    """The local file holding CTI-Bench subset ``name`` (``cti-mcq`` ...), or None for the hub.

    Raises ConfigError when a given path does not hold the file.
    """
    chosen = data_path(data)
    if chosen is None:
        return None
    path, origin = chosen
    if path.is_file():
        return path
    if path.is_dir():
        found = _file_in(path, name)
        if found is not None:
            return found
        raise ConfigError(f"CTI-Bench: {name}.tsv not found in {path} or its data/ folder ({origin}); {_hint()}")
    raise ConfigError(f"CTI-Bench: {path} does not exist ({origin}); {_hint()}")


def read_tsv(path: Path, required: Sequence[str]) -> list[Row]:
    """Rows of a CTI-Bench TSV as dicts of strings, one per line; empty cells stay empty strings.

    Raises ConfigError naming the file (and line) when it is unreadable, has a quote that
    runs over lines, a row with too many fields, or lacks a required column.
    """
    from harness.api import read_tsv_table

    if path.stat().st_size > MAX_FILE_BYTES:
        raise ConfigError(f"CTI-Bench: {path} is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"CTI-Bench: cannot read {path} as UTF-8: {exc}") from None
    header, records = read_tsv_table(text, f"CTI-Bench: {path}")
    return _checked([row for _, row in records], header, required, str(path))


def _checked(rows: list[dict], columns: Sequence[str], required: Sequence[str], origin: str) -> list[Row]:
    """``rows`` with every value a string, after checking the required columns are present."""
    missing = [c for c in required if c not in columns]
    if missing:
        raise ConfigError(f"CTI-Bench: {origin} lacks column(s) {missing}; it has {list(columns)}")
    return [{str(k): "" if v is None else str(v) for k, v in row.items()} for row in rows]


def read_hub(name: str, required: Sequence[str], dataset: str = HUB_ID) -> list[Row]:
    """Rows of subset ``name`` from the hub dataset (test split); ConfigError when offline or failing."""
    from harness.api import hub_unavailable

    unavailable = hub_unavailable()
    if unavailable:
        raise ConfigError(
            f"CTI-Bench: no local data for {name} and {dataset} cannot be fetched: {unavailable}; {_hint()}"
        )
    import datasets

    try:
        table = datasets.load_dataset(dataset, name, split="test")
    except Exception as exc:
        raise ConfigError(f"CTI-Bench: loading {dataset} subset {name} failed ({exc}); {_hint()}") from None
    return _checked(table.to_list(), table.column_names, required, f"{dataset}:{name}")


def load_subset(data: str | None, name: str, required: Sequence[str]) -> list[Row]:
    """The rows of CTI-Bench subset ``name`` from the first available source (see the module doc)."""
    path = locate(data, name)
    if path is None:
        return read_hub(name, required, hub_id(data) or HUB_ID)
    return read_tsv(path, required)


def load_taa_truth(data: str | None, responses: str | None, count: int) -> list[str]:
    """The TAA ground-truth actor names, one per ``cti-taa.tsv`` row.

    ``responses`` names the responses file; without it, the file is looked for beside the
    TAA data. Raises ConfigError when it is missing or its row count differs from ``count``.
    """
    if responses:
        path = Path(responses).expanduser()
        if not path.is_file():
            raise ConfigError(f"CTI-Bench TAA: responses file {path} does not exist (-T responses=...)")
    else:
        taa = locate(data, "cti-taa")
        folder = None if taa is None else taa.parent
        found = None if folder is None else _file_in(folder, RESPONSES_NAME)
        if found is None:
            raise ConfigError(
                "CTI-Bench TAA: the ground truth is only in upstream's "
                f"evaluation/responses/{RESPONSES_NAME}.tsv; pass -T responses=PATH "
                "(the hub dataset does not include it)"
            )
        path = found
    rows = read_tsv(path, ["GT"])
    if len(rows) != count:
        raise ConfigError(
            f"CTI-Bench TAA: {path} has {len(rows)} rows but cti-taa has {count}; they must correspond row by row"
        )
    truth = [row["GT"].strip() for row in rows]
    empty = [i for i, name in enumerate(truth) if not name]
    if empty:
        raise ConfigError(f"CTI-Bench TAA: {path} has an empty GT in row(s) {empty[:10]}")
    return truth
