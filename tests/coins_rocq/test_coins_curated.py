"""Every curated spec is judged correct on all its HumanEval cases (one pool for all)."""

from __future__ import annotations

import pytest

from coins_rocq import CoqtopPool, check_specs
from coins_rocq.curated import curated_specs
from coins_rocq.humaneval import humaneval_cases

REQUIRED = {13, 23, 30, 34, 35, 42, 48, 53}


def test_the_curated_set_is_large_and_covers_every_type() -> None:
    specs = curated_specs()
    numbers = {int(s.task_id.rsplit("/", 1)[1]) for s in specs}
    assert len(specs) >= 40 and REQUIRED <= numbers
    text = " ".join(str(s.signature) for s in specs)
    for rocq_type in ("Z", "nat", "bool", "string", "list", "option", " * ", "Q", "R"):
        assert rocq_type in text
    by_id = {s.task_id: str(s.signature) for s in specs}
    assert by_id["HumanEval/53"] == "add (x : Z) (y : Z) : Z"
    assert by_id["HumanEval/30"] == "get_positive (l : list Z) : list Z"


@pytest.mark.slow
def test_every_curated_spec_is_correct_on_all_its_cases() -> None:
    specs = curated_specs()
    items = [(s.source, s.signature, humaneval_cases(s.task_id)) for s in specs]
    with CoqtopPool() as pool:
        reports = check_specs(items, pool)
    wrong = {s.task_id: (r.verdict, r.reason[:200]) for s, r in zip(specs, reports) if r.verdict != "correct"}
    assert wrong == {}
