"""The optional judge for undecided math answers: called over HTTP, logged, reported apart from accuracy."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness.adapters import resolve_adapter
from harness.registry import resolve_task
from harness.runner import evaluate
from harness.testing.openai_server import OpenAIServer, Reply

JUDGE_MARK = "You are a strict answer-equivalence judge"


def _responder(body: dict) -> Reply:
    content = str(body["messages"][-1].get("content") or "")
    if content.startswith(JUDGE_MARK):
        return Reply(text='{"equivalent": true, "reason": "the words name the same number"}')
    return Reply(text="Done.\nsolution = [2013^{4025}, two thousand six hundred ninety two, 26]")


def test_an_undecided_answer_is_judged_and_reported_separately(shared_data: Path) -> None:
    with OpenAIServer(_responder) as server:
        task = resolve_task("longcot/math-easy").create(
            data=str(shared_data / "longcot"), judge=f"openai-compatible/judge@{server.base_url}"
        )
        results = asyncio.run(evaluate(task, resolve_adapter(f"openai-compatible/m@{server.base_url}"), limit=1))
    [result] = results
    assert result.score.outcome == "scored" and result.score.value == 0.0
    assert result.score.details["unresolved"] is True and result.score.details["judge_equivalent"] is True
    assert [call.role for call in result.calls] == ["model", "judge"]
    metrics = task.aggregate(results)
    assert metrics["accuracy"].value == 0.0 and metrics["accuracy_with_judge"].value == 1.0
