"""``frontier rescore``: re-judge a run's logged outputs with the current scorers, calling no model."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import click

from harness.errors import ConfigError


def rescore_run(run_dir: Path) -> tuple[int, int]:
    """Rewrite ``samples.jsonl`` with fresh scores and rebuild the summary; returns (rescored, changed).

    Samples whose model call failed keep their error. The previous log is kept as
    ``samples.before-rescore.jsonl``.
    """
    from harness.plan import build_task, plan_from_config
    from harness.executors.scoring import score_safely
    from harness.runner import limited_samples, summarize_run
    from harness.store import RunStore, iter_results

    store = RunStore(run_dir)
    config = store.read_config()
    plan = plan_from_config(config)
    prepared = [build_task(task_plan) for task_plan in plan.tasks]
    tasks = {p.task.name: p.task for p in prepared}
    samples = {(p.task.name, s.id): s for p in prepared for s in limited_samples(p.task, p.plan.limit)}
    fresh = store.samples_path.with_suffix(".rescore.tmp")
    rescored = changed = 0
    with fresh.open("wb") as handle:
        for result in store.results():
            sample = samples.get((result.task, result.sample_id))
            if result.task not in tasks or sample is None:
                raise ConfigError(f"{run_dir}: logged sample {result.task}/{result.sample_id} no longer exists in its task")
            if result.score.details.get("stage") != "model":
                score = asyncio.run(score_safely(tasks[result.task], sample, result.output))
                changed += score != result.score
                result = result.model_copy(update={"score": score})
                rescored += 1
            handle.write(result.model_dump_json().encode() + b"\n")
    os.replace(store.samples_path, run_dir / "samples.before-rescore.jsonl")
    os.replace(fresh, store.samples_path)
    previous = store.read_summary() if store.summary_path.exists() else None
    summary = summarize_run(store, plan, prepared, config["config_hash"],
                            previous.started_at if previous else config.get("created_at", ""),
                            previous.complete if previous else False)
    store.write_summary(summary)
    return rescored, changed


@click.command("rescore")
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
def rescore_command(run_dir: Path) -> None:
    """Re-score the log in RUN_DIR with the current scorers (no model is called).

    \b
    The old log is kept as samples.before-rescore.jsonl; summary.json is rebuilt.
    Example:
      frontier rescore runs/2026-11-30T10-00-00_smoke_gpt-4o-mini
    """
    from harness.cli.show import print_summary
    from harness.store import RunStore

    rescored, changed = rescore_run(run_dir)
    click.echo(f"rescored {rescored} sample(s); {changed} score(s) changed")
    print_summary(RunStore(run_dir).read_summary())
