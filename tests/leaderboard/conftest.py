"""Fixtures for leaderboard tests: run directories written from harness.types records."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.stats import mean_metric
from harness.types import MetricValue, Output, RunSummary, SampleResult, Score, TaskSummary, Usage
from leaderboard.runs import load_run
from leaderboard.site import build_site
from leaderboard.submission import build_submission

SampleSpec = tuple[float | None, str]  # (value, outcome)


def write_run(
    root: Path,
    name: str,
    *,
    model: str = "openai/test-model",
    methods: Sequence[Any] = (),
    suite: str | None = "smoke",
    suite_version: str = "1",
    tasks: dict[str, Sequence[SampleSpec]],
    tokens: tuple[int, int] = (100, 20),
    cost_per_sample: float | None = 0.001,
    outputs: dict[str, str] | None = None,
    extra_metrics: dict[str, dict[str, MetricValue]] | None = None,
    truncate_tail: bool = False,
) -> Path:
    """Write ``config.json``, ``samples.jsonl`` and ``summary.json`` of a run under ``root/name``."""
    run = root / name
    run.mkdir(parents=True)
    config = {
        "model": model,
        "methods": list(methods),
        "suite": suite,
        "suite_version": suite_version,
        "seed": 0,
        "tasks": [{"name": t, "version": "1", "args": {"n": len(s)}} for t, s in tasks.items()],
        "harness_version": "0.1.0",
    }
    (run / "config.json").write_text(json.dumps(config), encoding="utf-8")
    summaries = {}
    with (run / "samples.jsonl").open("w", encoding="utf-8") as log:
        for task, specs in tasks.items():
            values, counts, usage, cost = [], {"scored": 0, "unscored": 0, "error": 0}, Usage(), 0.0
            for index, (value, outcome) in enumerate(specs):
                score = Score(
                    value=value,
                    correct=None if value is None else value >= 1.0,
                    outcome=outcome,
                    answer=None if value is None else str(value),
                    explanation=f"sample {index}",
                )
                sample_usage = Usage(input_tokens=tokens[0], output_tokens=tokens[1], reasoning_tokens=tokens[1] // 2)
                text = (outputs or {}).get(task, f"ANSWER: {index}")
                result = SampleResult(
                    sample_id=f"{task}-{index}",
                    task=task,
                    input=f"Question {index} of {task}?",
                    target=index,
                    output=Output(text=text),
                    score=score,
                    usage=sample_usage,
                    cost_usd=cost_per_sample,
                    cost_known=cost_per_sample is not None,
                )
                log.write(result.model_dump_json() + "\n")
                counts[outcome] += 1
                usage = usage + sample_usage
                cost += cost_per_sample or 0.0
                if outcome == "scored" and value is not None:
                    values.append(value)
            metrics = {"accuracy": mean_metric(values)}
            metrics.update((extra_metrics or {}).get(task, {}))
            summaries[task] = TaskSummary(
                metrics=metrics,
                counts=counts,
                usage=usage,
                cost_usd=cost if cost_per_sample is not None else None,
                cost_known=cost_per_sample is not None,
            )
        if truncate_tail:
            log.write('{"sample_id": "cut-short", "task": ')
    summary = RunSummary(
        run_id=name,
        model=model,
        methods=tuple(m if isinstance(m, str) else m["name"] for m in methods),
        suite=suite,
        seed=0,
        harness_version="0.1.0",
        config_hash="c0ffee" + name,
        tasks=summaries,
        started_at="2025-01-01T00:00:00Z",
        finished_at="2025-01-01T01:00:00Z",
    )
    (run / "summary.json").write_text(summary.model_dump_json(), encoding="utf-8")
    return run


def binary(correct: int, total: int) -> list[SampleSpec]:
    """``correct`` right answers then wrong ones, ``total`` in all, all scored."""
    return [(1.0 if i < correct else 0.0, "scored") for i in range(total)]


PAYLOAD_MODEL = 'evil/<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'
PAYLOAD_OUTPUT = "</pre><script>window.__pwned=3</script><img src=y onerror=window.__pwned=4>"


def build_board(make_run: Callable[..., Path], out: Path) -> Path:
    """Four submissions (one carrying XSS payloads, two forming a CLEAR budget sweep) with runs."""
    runs = [
        make_run("base", model="openai/base", tasks={"demo/arith": binary(5, 10), "cyber/mcq": binary(3, 10)}),
        make_run(
            "evil",
            model=PAYLOAD_MODEL,
            methods=["best_of_n:n=2"],
            tokens=(300, 50),
            tasks={"demo/arith": binary(8, 10), "cyber/mcq": binary(6, 10)},
            outputs={"demo/arith": PAYLOAD_OUTPUT},
        ),
        make_run(
            "clear-hi",
            model="openai/base",
            methods=["clear:budget=4000"],
            tokens=(500, 400),
            tasks={"demo/arith": binary(9, 10), "cyber/mcq": binary(7, 10)},
        ),
        make_run(
            "clear-lo",
            model="openai/base",
            methods=["clear:budget=1000"],
            tokens=(200, 100),
            tasks={"demo/arith": binary(6, 10), "cyber/mcq": binary(5, 10)},
            cost_per_sample=None,
        ),
    ]
    subs = [build_submission([r]) for r in runs]
    build_site(subs, out, [load_run(r) for r in runs], page_size=4)
    return out


@pytest.fixture
def make_run(tmp_path: Path) -> Callable[..., Path]:
    """A factory: ``make_run(name, tasks={...}, ...)`` writes a run directory under tmp_path/runs."""

    def factory(name: str, **kwargs: Any) -> Path:
        return write_run(tmp_path / "runs", name, **kwargs)

    return factory
