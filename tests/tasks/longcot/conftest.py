"""Fixtures of the LongCoT tests: every shared question with its reference answer."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from tasks.longcot.data import DOMAINS, SPLITS, Question, load_questions
from tasks.longcot.oracle.render import reference_payload


@pytest.fixture(scope="session")
def longcot_dir(shared_data: Path) -> Path:
    """The shared LongCoT folder."""
    return shared_data / "longcot"


@pytest.fixture(scope="session")
def longcot_questions(longcot_dir: Path) -> list[tuple[Question, str | None]]:
    """Every shared question and its reference payload (solvers run once per session)."""
    return [(q, reference_payload(q)) for q in load_questions(str(longcot_dir), DOMAINS, SPLITS)]


@pytest.fixture(scope="session")
def by_template(longcot_questions: list[tuple[Question, str | None]]) -> dict[str, list[tuple[Question, str | None]]]:
    """The shared questions grouped by ``domain/template``."""
    groups: dict[str, list[tuple[Question, str | None]]] = defaultdict(list)
    for question, payload in longcot_questions:
        groups[f"{question.domain}/{question.template}"].append((question, payload))
    return groups
