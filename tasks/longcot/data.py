"""Loading LongCoT questions: a local folder (upstream ``<domain>/<split>.json`` or flat
``<domain>-<split>.json``), the ``FRONTIER_LONGCOT_DATA`` folder, or the hub id through ``datasets``.

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
DEFAULT_RELATIVE = Path("..") / "shared" / "data" / "longcot"
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
        except ValueError:
            raise LongCotDataError(f"{where}: 'problem' is a string that is not JSON") from None
    if not isinstance(problem, dict) or not isinstance(problem.get("template"), str) or not problem["template"]:
        raise LongCotDataError(f"{where}: 'problem' must be an object with a string 'template'")
    if not isinstance(raw["prompt"], str) or not raw["prompt"].strip():
        raise LongCotDataError(f"{where}: 'prompt' must be a non-empty string")
    qid = raw["question_id"]
    if not isinstance(qid, (str, int)) or isinstance(qid, bool) or not str(qid).strip():
        raise LongCotDataError(f"{where}: 'question_id' must be a non-empty string or integer")
    return Question(question_id=str(qid).strip(), domain=domain, split=split, template=problem["template"],
                    prompt=raw["prompt"], problem=problem, answer=raw.get("answer"))


def read_file(path: Path, domain: str, split: str) -> list[Question]:
    """All questions of one JSON file."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise LongCotDataError(f"{path}: larger than {MAX_FILE_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise LongCotDataError(f"{path}: cannot read LongCoT JSON ({exc})") from None
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


def default_folder() -> Path | None:
    """``../shared/data/longcot`` from the working directory if it exists, else ``$FRONTIER_LONGCOT_DATA``."""
    if DEFAULT_RELATIVE.is_dir():
        return DEFAULT_RELATIVE
    env = os.environ.get(ENV_VAR)
    return Path(env) if env else None


def _hub_questions(domain: str, split: str) -> list[Question]:
    offline = os.environ.get("HF_DATASETS_OFFLINE") == "1" or os.environ.get("HF_HUB_OFFLINE") == "1"
    hint = (f"no local LongCoT data found; pass -T data=PATH (a folder with <domain>/<split>.json or "
            f"<domain>-<split>.json files) or set {ENV_VAR}")
    if offline:
        raise LongCotDataError(f"{hint} (the hub is offline, so {HUB_ID} cannot be fetched)")
    try:
        import datasets

        rows = datasets.load_dataset(HUB_ID, split=split if split != "medium" else "medium")
    except Exception as exc:  # noqa: BLE001 - any hub failure gets the same actionable message
        raise LongCotDataError(f"{hint}; fetching {HUB_ID} failed: {exc}") from None
    out = []
    for i, row in enumerate(rows):
        if row.get("domain", domain) != domain:
            continue
        out.append(parse_question(dict(row), domain, split, f"{HUB_ID}[{split}] row {i}"))
    return out


def load_questions(data: str | None, domains: tuple[str, ...], splits: tuple[str, ...]) -> Iterator[Question]:
    """Questions of ``domains`` x ``splits`` in a fixed order, from ``data`` or the default locations.

    A folder that lacks a (domain, split) file is skipped for that pair; if no pair is
    found at all, LongCotDataError says where it looked.
    """
    folder = Path(data).expanduser() if data else default_folder()
    if folder is not None and not folder.is_dir():
        raise LongCotDataError(f"LongCoT data folder {folder} does not exist")
    found = False
    for domain in domains:
        for split in splits:
            if folder is None:
                questions = _hub_questions(domain, split)
            else:
                path = find_file(folder, domain, split)
                if path is None:
                    continue
                questions = read_file(path, domain, split)
            found = found or bool(questions)
            yield from questions
    if not found:
        where = str(folder) if folder is not None else HUB_ID
        raise LongCotDataError(f"no LongCoT questions for domains {list(domains)} and splits {list(splits)} in "
                               f"{where}; pass -T data=PATH")
