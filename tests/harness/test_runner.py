"""The runner: results for every sample, transient faults retried and counted, cache, replay, rescore."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.calls import RetryPolicy
from harness.plan import RunPlan, TaskPlan
from harness.registry import resolve_task
from harness.runner import RunOptions, evaluate, execute
from harness.store import RunStore
from harness.testing.openai_server import FaultPlan, OpenAIServer
from harness.testing.responders import arith_responder

FAST_RETRY = RetryPolicy(max_retries=8, base_delay_s=0.001, max_delay_s=0.01)


def _plan(model: str, n: int = 30, **kwargs) -> RunPlan:
    return RunPlan(model=model, tasks=(TaskPlan("demo/arith", {"n": n}),), **kwargs)


def _options(**kwargs) -> RunOptions:
    return RunOptions(
        concurrency=kwargs.pop("concurrency", 8),
        retry=kwargs.pop("retry", FAST_RETRY),
        request_timeout_s=kwargs.pop("request_timeout_s", 5),
        progress=False,
        **kwargs,
    )


def test_oracle_scores_one_and_random_scores_near_zero() -> None:
    task = resolve_task("demo/arith").create(n=50)
    oracle = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle")))
    random_results = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=3)))
    assert [r.score.value for r in oracle] == [1.0] * 50
    assert sum(r.score.value or 0.0 for r in random_results) <= 2
    again = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=3)))
    assert [r.output.text for r in again] == [r.output.text for r in random_results]


def test_thirty_percent_transient_failures_complete_with_retries_counted(tmp_path: Path) -> None:
    faults = FaultPlan(rates={"429": 0.1, "500": 0.1, "drop": 0.05, "truncated": 0.05}, seed=1)
    with OpenAIServer(arith_responder(), faults=faults) as server:
        summary = asyncio.run(
            execute(_plan("openai-compatible/m@" + server.base_url, n=40), tmp_path / "run", _options())
        )
    results = list(RunStore(tmp_path / "run").results())
    assert len(results) == 40 and len({r.sample_id for r in results}) == 40
    assert all(r.score.outcome in ("scored", "error") for r in results)
    task = summary.tasks["demo/arith"]
    assert task.retries == sum(r.retries for r in results) == len(server.faults_served) > 0
    assert task.counts["scored"] + task.counts["error"] == 40


def test_permanent_failures_are_recorded_as_errors_not_dropped(tmp_path: Path) -> None:
    faults = FaultPlan(rates={"500": 1.0})
    with OpenAIServer(faults=faults) as server:
        summary = asyncio.run(
            execute(
                _plan("openai-compatible/m@" + server.base_url, n=5),
                tmp_path / "run",
                _options(retry=RetryPolicy(max_retries=2, base_delay_s=0.001)),
            )
        )
    results = list(RunStore(tmp_path / "run").results())
    assert [r.score.outcome for r in results] == ["error"] * 5
    assert all("gave up after 2 retries" in r.score.explanation for r in results)
    assert summary.tasks["demo/arith"].counts == {"scored": 0, "unscored": 0, "error": 5}
    assert summary.tasks["demo/arith"].metrics["accuracy"].n == 0


@pytest.mark.slow
def test_request_timeout_is_transient_and_retried(tmp_path: Path) -> None:
    with OpenAIServer(arith_responder(), faults=FaultPlan(schedule={0: "timeout"}, hang_s=3)) as server:
        asyncio.run(
            execute(
                _plan("openai-compatible/m@" + server.base_url, n=3),
                tmp_path / "run",
                _options(concurrency=1, request_timeout_s=0.5),
            )
        )
    results = list(RunStore(tmp_path / "run").results())
    assert [r.score.outcome for r in results] == ["scored"] * 3 and results[0].retries == 1


def test_cache_serves_deterministic_requests_without_calling_the_model(tmp_path: Path) -> None:
    with OpenAIServer(arith_responder()) as server:
        model = "openai-compatible/m@" + server.base_url
        options = _options(cache_path=tmp_path / "cache.sqlite")
        first = asyncio.run(execute(_plan(model, n=10), tmp_path / "a", options))
        served = len(server.requests)
        second = asyncio.run(execute(_plan(model, n=10), tmp_path / "b", options))
        assert len(server.requests) == served == 10
    first_task, second_task = first.tasks["demo/arith"], second.tasks["demo/arith"]
    assert (first_task.cached_calls, second_task.cached_calls) == (0, 10)
    # throughput counts only calls that reached the model: the first run has it, the cached one none
    assert first_task.throughput is not None and second_task.throughput is None
    assert first_task.model_copy(update={"cached_calls": 10, "throughput": None}) == second_task
    assert all(r.calls[0].cached for r in RunStore(tmp_path / "b").results())


def test_replay_reproduces_a_run_and_refuses_unknown_requests(tmp_path: Path) -> None:
    with OpenAIServer(arith_responder()) as server:
        original = asyncio.run(
            execute(_plan("openai-compatible/m@" + server.base_url, n=12), tmp_path / "orig", _options())
        )
    replayed = asyncio.run(execute(_plan(f"replay/{tmp_path / 'orig'}", n=12), tmp_path / "replay", _options()))
    assert replayed.tasks["demo/arith"].metrics == original.tasks["demo/arith"].metrics
    other = RunPlan(model=f"replay/{tmp_path / 'orig'}", tasks=(TaskPlan("demo/arith", {"n": 3, "seed": 99}),))
    summary = asyncio.run(execute(other, tmp_path / "unknown", _options()))
    assert summary.tasks["demo/arith"].counts["error"] == 3
    assert "no logged answer" in next(RunStore(tmp_path / "unknown").results()).score.explanation


def test_rescore_rejudges_logged_outputs_without_a_model(tmp_path: Path) -> None:
    from harness.rescore import rescore_run

    run = tmp_path / "run"
    with OpenAIServer(arith_responder()) as server:
        before = asyncio.run(execute(_plan("openai-compatible/m@" + server.base_url, n=15), run, _options()))
    lines = (run / "samples.jsonl").read_text().splitlines()
    tampered = json.loads(lines[0])
    tampered["score"] = {"value": 0.5, "outcome": "scored", "explanation": "stale"}
    (run / "samples.jsonl").write_text("\n".join([json.dumps(tampered), *lines[1:]]) + "\n")
    rescored, changed = rescore_run(run)
    assert (rescored, changed) == (15, 1)
    assert RunStore(run).read_summary().tasks == before.tasks
    assert (run / "samples.before-rescore.1.jsonl").exists()
