"""Validate submissions: strict parsing, the JSON Schema, then what a schema cannot say.

Parsing refuses duplicate JSON keys and finds NaN or infinity anywhere; the checks on one
schema-valid submission are :mod:`leaderboard.semantic_checks`. Across files: one entry per
(model, method, suite), one version per suite name, and per suite one version and one data
hash per task.

Every issue names its file and the JSON path of the offending value (``$.tasks['a/b'].n``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.json_input import JsonInputError, parse_json
from leaderboard.issue import Issue, PathPart, json_path
from leaderboard.semantic_checks import semantic_issues

SCHEMA_PATH = Path(__file__).parent / "schema" / "submission-v1.json"
MAX_SUBMISSION_BYTES = 256 * 1024 * 1024


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The submission JSON Schema (version 1)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    return cls(schema(), format_checker=cls.FORMAT_CHECKER)


def _repeated_keys(pairs: list[tuple[str, Any]]) -> list[str]:
    """The keys of one JSON object that appear again after their first occurrence, in order."""
    seen: set[str] = set()
    repeated = []
    for key, _ in pairs:
        if key in seen:
            repeated.append(key)
        seen.add(key)
    return repeated


class _StrictDecoder:
    """Parses JSON, remembering objects with duplicate keys (NaN/Infinity parse to floats)."""

    def __init__(self) -> None:
        self.duplicates: dict[int, list[str]] = {}
        self.non_finite = False

    def hook(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            self.duplicates[id(out)] = _repeated_keys(pairs)
        return out

    def constant(self, text: str) -> float:
        self.non_finite = True
        return float(text)

    def loads(self, text: str, origin: str) -> Any:
        return parse_json(text, origin, object_pairs_hook=self.hook, parse_constant=self.constant)


def _walk_values(node: Any, path: list[PathPart]) -> Iterator[tuple[list[PathPart], Any]]:
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk_values(value, [*path, key])
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk_values(value, [*path, index])


def parse_submission(text: str, file: str = "<submission>") -> tuple[Any, list[Issue]]:
    """Parse JSON text; issues for syntax errors, duplicate keys and non-finite numbers."""
    decoder = _StrictDecoder()
    try:
        data = decoder.loads(text, file)
    except JsonInputError as exc:
        return None, [Issue(file, "$", str(exc).removeprefix(f"{file}: "))]
    issues: list[Issue] = []
    if not decoder.non_finite and not decoder.duplicates:
        return data, issues
    for path, value in _walk_values(data, []):
        if isinstance(value, float) and not math.isfinite(value):
            issues.append(Issue(file, json_path(path), f"{value} is not a finite number"))
        if isinstance(value, dict) and id(value) in decoder.duplicates:
            keys = ", ".join(repr(k) for k in decoder.duplicates[id(value)])
            issues.append(Issue(file, json_path(path), f"duplicate key(s) {keys}"))
    return data, issues


@lru_cache(maxsize=1)
def _confirmer() -> Any:
    from leaderboard.fast_schema import fast_confirmer

    return fast_confirmer(schema())


def schema_issues(data: Any, file: str = "<submission>") -> list[Issue]:
    """Every JSON Schema violation, ordered by path.

    A valid document is confirmed quickly (:mod:`leaderboard.fast_schema`) when fastjsonschema
    is installed; anything not confirmed is judged, and explained in full, by ``jsonschema``.
    """
    confirm = _confirmer()
    if confirm is not None and confirm(data):
        return []
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    return [Issue(file, json_path(e.absolute_path), e.message[:500]) for e in errors]


def validate_submission(data: Any, file: str = "<submission>") -> list[Issue]:
    """Schema then semantic issues of one parsed submission (semantic checks need a valid schema)."""
    issues = schema_issues(data, file)
    if issues:
        return issues
    return semantic_issues(data, file)


def load_submission(path: str | Path) -> tuple[dict[str, Any] | None, list[Issue]]:
    """Read, parse and validate one file; the data is None unless it has no issue."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_SUBMISSION_BYTES:
            return None, [Issue(str(file), "$", f"file is larger than {MAX_SUBMISSION_BYTES} bytes")]
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Issue(str(file), "$", f"cannot read: {exc}")]
    data, issues = parse_submission(text, str(file))
    if data is None or issues:
        return None, issues
    try:
        issues = validate_submission(data, str(file))
    except RecursionError:
        issues = [Issue(str(file), "$", "nested too deeply to validate")]
    return (None if issues else data), issues


def cross_issues(entries: list[tuple[str, dict[str, Any]]]) -> list[Issue]:
    """Issues between valid submissions: duplicates and mismatched suite, task and data versions."""
    issues: list[Issue] = []
    identities: dict[tuple[str, str, str], str] = {}
    suite_versions: dict[str, tuple[Any, str]] = {}
    task_facts: dict[tuple[str, str], tuple[Any, Any, str]] = {}
    for file, data in entries:
        identity = (data["model"], data["method"]["label"], data["suite"]["name"])
        if identity in identities:
            issues.append(
                Issue(
                    file,
                    "$",
                    f"duplicate entry for model {identity[0]!r}, method {identity[1]!r}, "
                    f"suite {identity[2]!r} (also in {identities[identity]})",
                )
            )
            continue
        identities[identity] = file
        suite, version = data["suite"]["name"], data["suite"]["version"]
        known = suite_versions.setdefault(suite, (version, file))
        if known[0] != version:
            issues.append(
                Issue(
                    file,
                    "$.suite.version",
                    f"suite {suite!r} version {version!r} differs from {known[0]!r} in {known[1]}",
                )
            )
        for task_name, task in data["tasks"].items():
            facts = task_facts.setdefault((suite, task_name), (task["version"], task["data_hash"], file))
            if facts[0] != task["version"]:
                issues.append(
                    Issue(
                        file,
                        json_path(["tasks", task_name, "version"]),
                        f"task version {task['version']!r} differs from {facts[0]!r} in {facts[2]}",
                    )
                )
            elif None not in (facts[1], task["data_hash"]) and facts[1] != task["data_hash"]:
                issues.append(
                    Issue(
                        file,
                        json_path(["tasks", task_name, "data_hash"]),
                        f"scored on different samples than {facts[2]} (data hash differs)",
                    )
                )
    return issues


def _load_many(paths: list[str | Path]) -> list[tuple[dict[str, Any] | None, list[Issue]]]:
    return [load_submission(path) for path in paths]


def _load_parallel(paths: list[str | Path], workers: int) -> list[tuple[dict[str, Any] | None, list[Issue]]]:
    """:func:`load_submission` on every path, split in ``workers`` contiguous slices: this process
    takes the first, a process pool the others (results in the order of ``paths``)."""
    from concurrent.futures import ProcessPoolExecutor

    size = -(-len(paths) // workers)
    chunks = [paths[i : i + size] for i in range(0, len(paths), size)]
    with ProcessPoolExecutor(max_workers=len(chunks) - 1) as pool:
        futures = [pool.submit(_load_many, chunk) for chunk in chunks[1:]]
        loaded = _load_many(chunks[0])
        for future in futures:
            loaded += future.result()
    return loaded


def validate_files(
    paths: Iterable[str | Path], workers: int = 1
) -> tuple[list[tuple[str, dict[str, Any]]], list[Issue]]:
    """Validate files alone and together; returns the valid (file, data) pairs and every issue.

    ``workers`` > 1 parses and validates the files in that many processes.
    """
    paths = list(paths)
    parallel = workers > 1 and len(paths) > 1
    loaded = _load_parallel(paths, min(workers, len(paths))) if parallel else _load_many(paths)
    valid: list[tuple[str, dict[str, Any]]] = []
    issues: list[Issue] = []
    for path, (data, found) in zip(paths, loaded, strict=True):
        issues += found
        if data is not None:
            valid.append((str(path), data))
    cross = cross_issues(valid)
    bad_files = {issue.file for issue in cross}
    return [(f, d) for f, d in valid if f not in bad_files], issues + cross
