"""Loading LongCoT questions from where the user says: a local folder (upstream
``<domain>/<split>.json`` or flat ``<domain>-<split>.json``), ``hub:<id>`` or ``hub:<local mirror>``
through ``datasets``, or the same forms in ``$FRONTIER_LONGCOT_DATA``. There is no default: without
one of them the loader fails with an error naming the options.

File format: ``{"questions": [{"question_id", "prompt", "problem": {"template", ...}, "answer"}]}``.
Every field is checked; a bad file or question raises :class:`LongCotDataError` naming it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.errors import ConfigError

DOMAINS = ("chemistry", "chess", "cs", "logic", "math")
SPLITS = ("easy", "medium", "hard")
HUB_ID = "LongHorizonReasoning/longcot"
ENV_VAR = "FRONTIER_LONGCOT_DATA"
MAX_FILE_BYTES = 512 * 1024 * 1024


class LongCotDataError(ConfigError):
    """A LongCoT data file or question is missing or malformed."""


@dataclass(frozen=True)
class Question:
    """One LongCoT question with the domain and split it came from."""

    question_id: str
    domain: str
    split: str
    template: str
    prompt: str
    problem: dict[str, Any] = field(default_factory=dict)
    answer: Any = None

    @property
    def uid(self) -> str:
        """A stable sample id: ``<domain>/<split>/<question_id>``."""
        return f"{self.domain}/{self.split}/{self.question_id}"


def parse_question(raw: object, domain: str, split: str, where: str) -> Question:
    """Validate one raw question dict; raise LongCotDataError naming ``where`` when malformed."""
    if not isinstance(raw, dict):
        raise LongCotDataError(f"{where}: a question must be an object, got {type(raw).__name__}")
    missing = [key for key in ("question_id", "prompt", "problem") if key not in raw]
    if missing:
        raise LongCotDataError(f"{where}: question lacks {', '.join(missing)}")
    problem = raw["problem"]
    if isinstance(problem, str):
        try:
            problem = json.loads(problem)
        except (ValueError, RecursionError):
            raise LongCotDataError(f"{where}: 'problem' is a string that is not readable JSON") from None
    if not isinstance(problem, dict) or not isinstance(problem.get("template"), str) or not problem["template"]:
        raise LongCotDataError(f"{where}: 'problem' must be an object with a string 'template'")
    if not isinstance(raw["prompt"], str) or not raw["prompt"].strip():
        raise LongCotDataError(f"{where}: 'prompt' must be a non-empty string")
    qid = raw["question_id"]
    if not isinstance(qid, (str, int)) or isinstance(qid, bool) or not str(qid).strip():
        raise LongCotDataError(f"{where}: 'question_id' must be a non-empty string or integer")
    return Question(
        question_id=str(qid).strip(),
        domain=domain,
        split=split,
        template=problem["template"],
        prompt=raw["prompt"],
        problem=problem,
        answer=raw.get("answer"),
    )


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


def load_questions(data: str | None, domains: tuple[str, ...], splits: tuple[str, ...]) -> Iterator[Question]:
    """Questions of ``domains`` x ``splits`` in a fixed order, from ``data`` or the default locations.

    ``data`` (else ``$FRONTIER_LONGCOT_DATA``) is a folder, or ``hub:<id>`` for a ``datasets``
    repository (a hub id or a local mirror of one). A folder that lacks a (domain, split) file
    is skipped for that pair; if no pair is found at all, LongCotDataError says where it looked.
    """
    from tasks.longcot.hub import HUB_PREFIX, hub_split

    source = data_source(data)
    repo = source[len(HUB_PREFIX) :] if source.startswith(HUB_PREFIX) else None
    folder = None if repo else Path(source).expanduser()
    if folder is not None and not folder.is_dir():
        raise LongCotDataError(f"LongCoT data folder {folder} does not exist")
    found = False
    loaded: dict[str, dict[str, list[Question]]] = {}
    for domain in domains:
        for split in splits:
            if repo:
                if split not in loaded:
                    loaded[split] = hub_split(repo, split)
                questions = loaded[split].get(domain, [])
            else:
                path = find_file(folder, domain, split)
                if path is None:
                    continue
                questions = read_file(path, domain, split)
            found = found or bool(questions)
            yield from questions
    if not found:
        raise LongCotDataError(
            f"no LongCoT questions for domains {list(domains)} and splits {list(splits)} in "
            f"{repo or folder}; pass -T data=PATH"
        )
