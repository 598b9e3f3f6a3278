"""LongCoT questions from a ``datasets`` repository: the hub id ``LongHorizonReasoning/longcot``
or any mirror of it (another hub id, or a local folder laid out as a hub dataset repository).

A split is loaded once and its rows are grouped by domain. Rows name their domain in a
``domain`` column; where a mirror has none, the domain is the one whose templates include the
row's ``problem.template``. ``problem`` may be a JSON string or a nested record; a record from
Arrow carries every key of every row's problem (absent ones as null), so null-valued keys are
dropped before the question is parsed. An Arrow column holds one type, so answers (strings,
numbers, lists and objects in the JSON files) come as JSON text: a string ``answer`` that parses
as JSON is decoded (``'"CCO"'`` is ``CCO``, ``'[1, 2]'`` a list) and any other string is kept.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tasks.longcot.catalog import domain_of_template
from tasks.longcot.data.question import LongCotDataError, Question, parse_question

HUB_PREFIX = "hub:"


def is_offline() -> bool:
    """True when ``datasets``/``huggingface_hub`` are told not to use the network."""
    return os.environ.get("HF_DATASETS_OFFLINE") == "1" or os.environ.get("HF_HUB_OFFLINE") == "1"


def without_nulls(value: Any) -> Any:
    """``value`` with null-valued keys dropped from every object in it."""
    if isinstance(value, dict):
        return {key: without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def _answer(value: Any, where: str) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value
    except RecursionError:
        raise LongCotDataError(f"{where}: 'answer' is JSON nested too deeply to read") from None


def _domain_of(row: dict[str, Any], where: str) -> str:
    domain = row.get("domain")
    if isinstance(domain, str) and domain:
        return domain
    problem = row.get("problem")
    template = problem.get("template") if isinstance(problem, dict) else None
    if template is None and isinstance(problem, str):
        try:
            template = json.loads(problem).get("template")
        except (ValueError, AttributeError):
            template = None
    found = domain_of_template(template)
    if found is not None:
        return found
    raise LongCotDataError(f"{where}: no 'domain' column and template {template!r} belongs to no known domain")


def hub_split(repo: str, split: str) -> dict[str, list[Question]]:
    """Every question of ``split`` in the dataset ``repo``, by domain.

    A local mirror is read afresh each time, through a throwaway cache (``datasets`` would
    otherwise reuse a cache that does not notice edited files). Raises LongCotDataError with the
    way out (``-T data=PATH``) when the repository cannot be loaded: offline with a hub id, an
    unknown id or split, or malformed rows.
    """
    hint = "pass -T data=PATH (a folder with <domain>/<split>.json or <domain>-<split>.json files)"
    local = Path(repo).is_dir()
    if is_offline() and not local:
        raise LongCotDataError(
            f"the hub is offline (HF_DATASETS_OFFLINE/HF_HUB_OFFLINE), so {repo} cannot be fetched; {hint}"
        )
    try:
        import datasets

        if local:
            with tempfile.TemporaryDirectory(prefix="frontier-longcot-") as cache:
                rows = datasets.load_dataset(repo, split=split, cache_dir=cache).to_list()
        else:
            rows = datasets.load_dataset(repo, split=split).to_list()
    except Exception as exc:
        raise LongCotDataError(
            f"loading the {split!r} split of {repo} failed ({type(exc).__name__}: {exc}); {hint}"
        ) from None
    by_domain: dict[str, list[Question]] = {}
    for index, raw in enumerate(rows):
        where = f"{repo}[{split}] row {index}"
        row = dict(raw)
        if isinstance(row.get("problem"), dict):
            try:
                row["problem"] = without_nulls(row["problem"])
            except RecursionError:
                raise LongCotDataError(f"{where}: 'problem' is nested too deeply to read") from None
        row["answer"] = _answer(row.get("answer"), where)
        domain = _domain_of(row, where)
        by_domain.setdefault(domain, []).append(parse_question(row, domain, split, where))
    return by_domain
