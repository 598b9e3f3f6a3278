"""Coins' score details name each obligation's outcome and what decided it (issue 44 item 3)."""

from __future__ import annotations

import asyncio

from harness.score_view import criteria
from tasks.coins import FAMILY


def test_each_obligation_is_listed_with_its_outcome_and_the_rung_that_decided_it() -> None:
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate

    task = FAMILY.resolve("coins/spec-gen").create(problems="HumanEval/53", max_cases=2, mutants=2)
    (result,) = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle")))
    rows = result.score.details["obligations"]
    counted = sum(sum(by_outcome.values()) for by_outcome in result.score.details["counts"].values())
    assert len(rows) == counted > 0
    assert all(row["outcome"] == "proved" and row["met"] and row["decided by"] != "-" for row in rows)
    assert {row["obligation"].split(",")[0].split(" ", 1)[1] for row in rows} == {"completeness", "soundness"}
    shown = {c.name: c for c in criteria(result.score.details)}
    assert "decided by: " in shown["obligations 1"].value and shown["obligations 1"].held is True
