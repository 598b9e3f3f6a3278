"""``cyber-gen/mcq``: seeded multiple-choice questions from the CWE catalogue.

Four kinds of question, each with one right option and three distractors drawn from
weaknesses related to the subject in the research view (siblings first, then parents,
children and peers), so that the wrong options are plausible:

- ``description``: which weakness a catalogue description describes (options are names);
- ``name_to_id``: the CWE id of a named weakness (options are ids);
- ``id_to_name``: the name of a CWE id (options are names);
- ``parent``: which weakness is a parent of the subject (options are names; distractors
  are related weaknesses that are not its parents).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache

from pydantic import Field

from harness.api import Sample, TaskArgs
from tasks.cyber.base import LetterChoiceTask
from tasks.cyber.cwe_catalog import CweEntry, catalogue, related
from tasks.cyber.prompts import mcq_prompt

KINDS: tuple[str, ...] = ("description", "name_to_id", "id_to_name", "parent")
SOURCE = "CWE (Common Weakness Enumeration)"
NEAREST = 8


class GenMcqArgs(TaskArgs):
    """Arguments of ``cyber-gen/mcq``."""

    n: int = Field(200, ge=1, le=1_000_000, description="number of questions")
    seed: int = Field(0, description="generator seed: same seed, same questions")


def _usable(entry: CweEntry) -> bool:
    """Weaknesses worth asking about: current, concrete enough and described."""
    return (
        entry.status in ("Stable", "Draft", "Incomplete")
        and entry.abstraction in ("Class", "Base", "Variant")
        and len(entry.description) >= 40
    )


def _distinct_by_name(ids: list[int], exclude: set[str]) -> list[int]:
    """``ids`` keeping the first of each name and dropping names in ``exclude``."""
    entries = catalogue()
    seen = set(exclude)
    kept: list[int] = []
    for cwe_id in ids:
        name = entries[cwe_id].name
        if name not in seen:
            seen.add(name)
            kept.append(cwe_id)
    return kept


@lru_cache(maxsize=1)
def question_pool() -> tuple[tuple[str, int, int, tuple[int, ...]], ...]:
    """Every askable (kind, subject id, right id, candidate distractor ids), in a fixed order."""
    entries = catalogue()
    pool: list[tuple[str, int, int, tuple[int, ...]]] = []
    for cwe_id in sorted(entries):
        entry = entries[cwe_id]
        if not _usable(entry):
            continue
        near = _distinct_by_name(related(cwe_id), {entry.name})[:NEAREST]
        if len(near) >= 3:
            for kind in ("description", "name_to_id", "id_to_name"):
                pool.append((kind, cwe_id, cwe_id, tuple(near)))
        parents = [p for p in entry.parents if p in entries]
        if parents:
            others = [i for i in related(cwe_id) if i not in entry.parents and i != cwe_id]
            candidates = _distinct_by_name(others, {entries[p].name for p in entry.parents} | {entry.name})
            if len(candidates) >= 3:
                pool.append(("parent", cwe_id, parents[0], tuple(candidates[:NEAREST])))
    return tuple(pool)


def _question(kind: str, subject: CweEntry) -> str:
    """The question text of ``kind`` about ``subject``."""
    if kind == "description":
        return f'Which CWE weakness does the following catalogue description define? "{subject.description}"'
    if kind == "name_to_id":
        return f'What is the CWE identifier of the weakness "{subject.name}"?'
    if kind == "id_to_name":
        return f"Which weakness does {subject.label} denote in the CWE catalogue?"
    return (
        f"In the CWE research view (CWE-1000), which weakness is a parent (the target of a ChildOf "
        f'relationship) of {subject.label} "{subject.name}"?'
    )


def make_question(rng: random.Random) -> tuple[str, list[str], str, dict[str, object]]:
    """One question: (question, four options, right letter, metadata)."""
    entries = catalogue()
    kind, subject_id, right_id, candidates = rng.choice(question_pool())
    option_ids = [right_id, *rng.sample(list(candidates), 3)]
    rng.shuffle(option_ids)
    show = (lambda i: entries[i].label) if kind == "name_to_id" else (lambda i: entries[i].name)
    options = [show(i) for i in option_ids]
    letter = "ABCD"[option_ids.index(right_id)]
    metadata: dict[str, object] = {
        "kind": kind,
        "subject": f"CWE-{subject_id}",
        "answer_id": f"CWE-{right_id}",
        "option_ids": [f"CWE-{i}" for i in option_ids],
    }
    return _question(kind, entries[subject_id]), options, letter, metadata


class GenMcqTask(LetterChoiceTask[GenMcqArgs]):
    """Multiple-choice questions generated from the CWE catalogue; exact ground truth."""

    description = "generated CWE-catalogue multiple-choice questions with related-CWE distractors (accuracy)"
    version = "1"

    def samples(self) -> Iterator[Sample]:
        """``n`` seeded questions in the CTI-MCQ prompt format."""
        args = self.args
        rng = random.Random(f"cyber-gen/mcq:{args.seed}")
        for index in range(args.n):
            question, options, letter, metadata = make_question(rng)
            yield Sample(
                id=f"gen-mcq-{args.seed}-{index}",
                input=mcq_prompt(question, options, SOURCE),
                target=letter,
                metadata={**metadata, "options": options},
            )
