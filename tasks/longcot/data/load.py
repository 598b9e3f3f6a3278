"""Loading LongCoT questions from where the user says: a local folder (upstream
``<domain>/<split>.json`` or flat ``<domain>-<split>.json``), ``hub:<id>`` or ``hub:<local mirror>``
through ``datasets``, or the same forms in ``$FRONTIER_LONGCOT_DATA``. There is no default: without
one of them the loader fails with an error naming the options.

A bad file raises :class:`LongCotDataError` naming it; each question is read by
:func:`tasks.longcot.data.question.parse_question`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

from tasks.longcot.catalog import HUB_ID
from tasks.longcot.data.hub import HUB_PREFIX, hub_split
from tasks.longcot.data.question import LongCotDataError, Question, parse_question

ENV_VAR = "FRONTIER_LONGCOT_DATA"
MAX_FILE_BYTES = 512 * 1024 * 1024


def read_file(path: Path, domain: str, split: str) -> list[Question]:
    """All questions of one JSON file."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise LongCotDataError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LongCotDataError(f"{path}: cannot read LongCoT JSON ({exc})") from None
    except RecursionError:
        raise LongCotDataError(f"{path}: JSON nested too deeply to read") from None
    if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
        raise LongCotDataError(f"{path}: expected an object with a 'questions' list")
    questions = [parse_question(raw, domain, split, f"{path} question #{i}") for i, raw in enumerate(data["questions"])]
    ids = [q.question_id for q in questions]
    if len(set(ids)) != len(ids):
        raise LongCotDataError(f"{path}: duplicate question_id values")
    return questions


def find_file(folder: Path, domain: str, split: str) -> Path | None:
    """``<folder>/<domain>/<split>.json`` or ``<folder>/<domain>-<split>.json``, whichever exists."""
    for candidate in (folder / domain / f"{split}.json", folder / f"{domain}-{split}.json"):
        if candidate.is_file():
            return candidate
    return None


def data_source(data: str | None) -> str:
    """``data``, else ``$FRONTIER_LONGCOT_DATA``; LongCotDataError naming the options when neither is set."""
    source = data or os.environ.get(ENV_VAR, "").strip()
    if not source:
        raise LongCotDataError(
            "no LongCoT data given: pass -T data=PATH (a folder of <domain>/<split>.json or <domain>-<split>.json "
            f"files), -T data=hub:{HUB_ID} (the hub; needs the network), or -T data=hub:PATH (a local mirror of the "
            f"hub repository), or set ${ENV_VAR} to one of these"
        )
    return source


def load_questions(
    data: str | None, domains: tuple[str, ...], splits: tuple[str, ...], complete: bool = False
) -> Iterator[Question]:
    """Questions of ``domains`` x ``splits`` in a fixed order, from ``data`` or the default locations.

    ``data`` (else ``$FRONTIER_LONGCOT_DATA``) is a folder, or ``hub:<id>`` for a ``datasets``
    repository (a hub id or a local mirror of one). A (domain, split) pair without questions
    (no file in a folder, no rows in a hub split) is an error naming every such pair when
    ``complete``, else skipped; if no pair is found at all, LongCotDataError says where it looked.
    """
    source = data_source(data)
    repo = source[len(HUB_PREFIX) :] if source.startswith(HUB_PREFIX) else None
    folder = None if repo else Path(source).expanduser()
    if folder is not None and not folder.is_dir():
        raise LongCotDataError(f"LongCoT data folder {folder} does not exist")
    loaded: dict[str, dict[str, list[Question]]] = {}
    found: dict[tuple[str, str], list[Question] | Path] = {}
    for domain in domains:
        for split in splits:
            if repo:
                if split not in loaded:
                    loaded[split] = hub_split(repo, split)
                if loaded[split].get(domain):
                    found[(domain, split)] = loaded[split][domain]
            elif folder is not None and (path := find_file(folder, domain, split)) is not None:
                found[(domain, split)] = path
    missing = [f"{domain}-{split}" for domain in domains for split in splits if (domain, split) not in found]
    if complete and missing:
        raise LongCotDataError(
            f"LongCoT data in {repo or folder} lacks {len(missing)} of the {len(domains) * len(splits)} "
            f"domain-split sets this task runs: {', '.join(missing)}; fetch them, or name the part to run "
            "with -T splits=... (and -T domains=...)"
        )
    if not found:
        raise LongCotDataError(
            f"no LongCoT questions for domains {list(domains)} and splits {list(splits)} in "
            f"{repo or folder}; pass -T data=PATH"
        )
    for (domain, split), where in found.items():
        yield from where if isinstance(where, list) else read_file(where, domain, split)
