"""``frontier rescore``: re-judge a run's logged outputs with the current scorers, calling no model."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import click

from harness.errors import ConfigError
from harness.types import SampleResult


def rescore_run(run_dir: Path) -> tuple[int, int]:
    """Rewrite ``samples.jsonl`` with fresh scores and rebuild the summary; returns (rescored, changed).

    Samples whose model call failed keep their error. The run directory is locked while
    it is rescored; the new log is swapped in crash-safely and every log it replaces is
    kept as ``samples.before-rescore.<n>.jsonl`` (see :meth:`RunStore.rewrite_log`).
    """
    from harness.executors.scoring import score_safely
    from harness.plan import build_task, plan_from_config
    from harness.runner import limited_samples, summarize_run
    from harness.store import RunStore

    store = RunStore(run_dir)
    store.acquire()
    try:
        config = store.read_config()
        plan = plan_from_config(config)
        prepared = [build_task(task_plan) for task_plan in plan.tasks]
        tasks = {p.task.name: p.task for p in prepared}
        samples = {(p.task.name, s.id): s for p in prepared for s in limited_samples(p.task, p.plan.limit)}
        counts = {"rescored": 0, "changed": 0}
        loop = asyncio.new_event_loop()

        def rescored() -> Iterator[SampleResult]:
            for result in store.results():
                sample = samples.get((result.task, result.sample_id))
                if result.task not in tasks or sample is None:
                    raise ConfigError(
                        f"{run_dir}: logged sample {result.task}/{result.sample_id} no longer exists in its task"
                    )
                if result.score.details.get("stage") != "model":
                    score = loop.run_until_complete(score_safely(tasks[result.task], sample, result.output))
                    counts["changed"] += score != result.score
                    result = result.model_copy(update={"score": score})
                    counts["rescored"] += 1
                yield result

        try:
            store.rewrite_log(rescored())
        finally:
            loop.close()
        previous = store.read_summary() if store.summary_path.exists() else None
        summary = summarize_run(
            store,
            plan,
            prepared,
            config["config_hash"],
            previous.started_at if previous else config.get("created_at", ""),
            previous.complete if previous else False,
        )
        store.write_summary(summary)
    finally:
        store.close()
    return counts["rescored"], counts["changed"]


@click.command("rescore")
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
def rescore_command(run_dir: Path) -> None:
    """Re-score the log in RUN_DIR with the current scorers (no model is called).

    \b
    Every log a rescore replaces is kept as samples.before-rescore.<n>.jsonl; summary.json
    is rebuilt. A rescore killed at any moment leaves the old or the new log in place.
    Example:
      frontier rescore runs/2026-11-30T10-00-00_smoke_gpt-4o-mini
    """
    from harness.cli.show import print_summary
    from harness.store import RunStore

    rescored, changed = rescore_run(run_dir)
    click.echo(f"rescored {rescored} sample(s); {changed} score(s) changed")
    print_summary(RunStore(run_dir).read_summary(), run_dir)
