"""One LongCoT question, read and checked from its raw form (a JSON object or a hub row).

File format: ``{"questions": [{"question_id", "prompt", "problem": {"template", ...}, "answer"}]}``.
Every field is checked; a bad question raises :class:`LongCotDataError` naming it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from harness.api import ConfigError


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
