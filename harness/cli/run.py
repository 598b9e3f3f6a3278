"""``frontier run``: a suite or tasks against a model, into a resumable run directory."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from harness.cli.executor import executor_options, run_plan
from harness.cli.options import (
    call_options,
    coerce_sequences,
    parse_key_values,
    parse_option_values,
    path_slug,
    plan_options,
    settings_options,
)
from harness.cli.stop_bound import STOP_GRACE_SECONDS
from harness.errors import ConfigError, FrontierError
from harness.run_options import RunOptions

if TYPE_CHECKING:
    from harness.plan import RunPlan, TaskPlan

EPILOG = """\b
Examples:
  frontier run --task demo/arith --model builtin/oracle --limit 20
  frontier run --suite smoke --model openai/gpt-4o-mini --concurrency 16
  frontier run --task demo/arith -T n=50 -T steps=8 --model anthropic/claude-sonnet-4-5
  frontier run --task demo/arith --model openai-compatible/qwen3@http://127.0.0.1:8000/v1
  frontier run --suite smoke --model local/gemma-3-270m --max-tokens 128 -M n_ctx=4096
  frontier run --task tau2/retail --model openai/gpt-4o-mini --trials 4 -T user_model=openai/gpt-4o-mini
  frontier run --task longcot/mini --model openai/gpt-4o-mini --method self_consistency:n=8
  frontier run --suite coins --model openai/gpt-4o-mini --executor ray --ray-address auto
  frontier run --task confiqa/qa -T data=ConFiQA-QA.json --model openai/gpt-4o --method critic_reasoner
  frontier run --resume --out runs/2026-11-30T10-00-00_smoke_gpt-4o-mini
  frontier run --task longcot/mini --model openai/gpt-4o-mini --batch

\b
A run directory holds config.json, samples.jsonl (one result a line) and
summary.json. Rerunning the same configuration into the same --out resumes it:
logged samples are skipped, so an interrupted run never repeats or loses work
(a directory killed before its config.json was written starts afresh). One
process at a time holds a run directory; --retry-errors reruns errored samples.
Responses of deterministic requests (temperature 0 or a fixed seed) are cached
in SQLite ($FRONTIER_CACHE_DIR, default ~/.cache/frontier-evals).
--batch sends single-turn requests through OpenAI's or Anthropic's batch API;
its batches are recorded in batches.jsonl and polled again on --resume.
"""


def _apply_task_args(plans: tuple[TaskPlan, ...], args: Mapping[str, object], from_suite: bool) -> tuple[TaskPlan, ...]:
    """Give ``-T`` arguments to the tasks; in a suite, only to tasks whose arguments declare the key."""
    from dataclasses import replace

    from harness.registry import resolve_task

    if not args:
        return plans
    updated: list[TaskPlan] = []
    used: set[str] = set()
    for plan in plans:
        model = resolve_task(plan.name).arguments()
        fields = model.model_fields
        accepted = coerce_sequences(model, {k: v for k, v in args.items() if not from_suite or k in fields})
        used.update(accepted)
        updated.append(replace(plan, args={**plan.args, **accepted}))
    unused = set(args) - used
    if unused:
        raise ConfigError(f"-T {', '.join(sorted(unused))}: no task of the suite takes this argument")
    return tuple(updated)


def build_plan(
    suite: str | None,
    tasks: tuple[str, ...],
    model: str | None,
    methods: tuple[str, ...],
    task_args: Mapping[str, object],
    limit: int | None,
    seed: int,
    overrides: dict[str, object],
    model_options: dict[str, object] | None = None,
) -> RunPlan:
    """The RunPlan the options describe (``model_options``: the adapter's ``-M`` options)."""
    from dataclasses import replace

    from harness.plan import RunPlan, TaskPlan
    from harness.suites import load_suite

    if model is None:
        raise ConfigError("--model is required (for example --model builtin/oracle); see 'frontier list adapters'")
    if bool(suite) == bool(tasks):
        raise ConfigError("give either --suite NAME or one or more --task NAME")
    if suite:
        loaded = load_suite(suite)
        plans = _apply_task_args(loaded.tasks, task_args, from_suite=True)
        suite_name: str | None = loaded.name
        suite_version: str | None = loaded.version
        left_out = loaded.left_out
    else:
        plans = _apply_task_args(tuple(TaskPlan(name) for name in tasks), task_args, from_suite=False)
        suite_name = suite_version = None
        left_out = ()
    plans = tuple(
        replace(p, limit=limit if limit is not None else p.limit, settings={**p.settings, **overrides}) for p in plans
    )
    return RunPlan(
        model=model,
        tasks=plans,
        methods=methods,
        seed=seed,
        suite=suite_name,
        suite_version=suite_version,
        model_options=dict(model_options or {}),
        left_out=left_out,
    )


def _stop_as_interrupt(terminated: list[int], signum: int) -> None:
    """SIGTERM stops a run as Ctrl-C does (the same clean stop, summary and resume line): it is
    re-raised as SIGINT, which asyncio turns into a cancellation of the run."""
    terminated.append(signum)
    signal.raise_signal(signal.SIGINT)


def _end_stuck_stop(out_dir: Path, terminated: list[int]) -> None:
    """A run still stopping :data:`STOP_GRACE_SECONDS` after Ctrl-C (or at a second one) ends at once.

    Work blocking a thread (a model loading, a scorer) is abandoned; every sample it had
    finished is already in the append-only log, which ``--resume`` rereads.
    """
    from harness.failures import resume_hint

    click.echo(
        f"still stopping after {STOP_GRACE_SECONDS:g} s (or Ctrl-C again): ended now; "
        + ("stopped by SIGTERM; " if terminated else "")
        + resume_hint(out_dir),
        err=True,
    )
    sys.stderr.flush()
    os._exit(143 if terminated else 130)


def default_out_dir(plan: RunPlan) -> Path:
    """``runs/<UTC time>_<suite or task>_<model>``."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
    what = plan.suite or (plan.tasks[0].name if len(plan.tasks) == 1 else f"{len(plan.tasks)}-tasks")
    return Path("runs") / f"{stamp}_{path_slug(what)}_{path_slug(plan.model)}"


def with_batch(batch: bool | None, plan: RunPlan, out_dir: Path, executor: str, options: RunOptions) -> RunOptions:
    """``options`` in batch mode when asked: ``--batch`` (or a run directory that has batches) batches every
    adapter that can; ``-M batch=true`` the run's model alone."""
    import logging

    from harness.batch.state import read_submissions
    from harness.logs import show_from

    if batch is None and read_submissions(out_dir):
        click.echo(f"{out_dir} has batches: resuming in batch mode (--no-batch sends requests one at a time)", err=True)
        batch = True
    if not (batch or plan.model_options.get("batch") is True):
        return options
    if executor != "local":
        raise ConfigError("batch mode (--batch, -M batch=true) runs with --executor local")
    show_from("harness.batch", logging.INFO)
    return replace(options, batch_dir=out_dir, batch_all=bool(batch))


@click.command("run", epilog=EPILOG)
@click.option("--suite", help="Suite name (see 'frontier list suites') or path to a suite YAML.")
@plan_options(required=False)
@click.option(
    "--method",
    "methods",
    multiple=True,
    metavar="NAME[:k=v,...]",
    help="Inference-time method wrapping the model; repeat to compose (innermost first).",
)
@click.option(
    "--trials",
    type=click.IntRange(min=1),
    help="Episodes per sample for tasks that take a 'trials' "
    "argument (tool use: pass^k and pass@k); the same as -T trials=K.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Run directory (default runs/<time>_<what>_<model>).")
@click.option("--resume", is_flag=True, help="Continue the run in --out with its logged configuration.")
@click.option(
    "--retry-errors",
    is_flag=True,
    help="Run again the samples whose logged outcome is 'error' "
    "(after an outage, say); their first record stays in the log as history, the new one counts.",
)
@click.option(
    "--batch/--no-batch",
    default=None,
    help="Send the requests of single-turn samples, judges and extractors through the provider's batch "
    "API (OpenAI, Anthropic: about half the price, answered within 24 h); a killed run resumes its "
    "batches with --resume. Default: on when --out already holds batches.",
)
@settings_options
@call_options
@click.option(
    "--max-error-rate",
    type=click.FloatRange(min=0, max=1),
    default=None,
    help="Exit with status 1 when more than this share of samples ended in error "
    "(default: only when every sample did).",
)
@executor_options
def run_command(
    suite: str | None,
    tasks: tuple[str, ...],
    model: str | None,
    model_option: tuple[str, ...],
    task_arg: tuple[str, ...],
    methods: tuple[str, ...],
    limit: int | None,
    trials: int | None,
    seed: int,
    out: Path | None,
    resume: bool,
    retry_errors: bool,
    batch: bool | None,
    overrides: dict[str, object],
    run_options: RunOptions,
    max_error_rate: float | None,
    executor: str,
    ray_address: str | None,
    ray_workers: int | None,
) -> None:
    """Run a suite or tasks against a model and write a run directory."""
    from harness.failures import discard_if_empty, judge_run_dir, resume_hint
    from harness.plan import plan_from_config
    from harness.store import RunStore

    if resume and not (suite or tasks or model):
        if out is None:
            raise ConfigError("--resume needs --out RUN_DIR (or the full original options)")
        plan = plan_from_config(RunStore(out).read_config())
    else:
        task_args = parse_key_values(task_arg, "-T")
        if trials is not None:
            task_args["trials"] = str(trials)
        plan = build_plan(
            suite, tasks, model, methods, task_args, limit, seed, overrides, parse_option_values(model_option)
        )
        if resume and (out is None or not out.is_dir()):
            raise ConfigError("--resume needs --out pointing at an existing run directory")
    out_dir = out or default_out_dir(plan)
    options = with_batch(batch, plan, out_dir, executor, replace(run_options, retry_errors=retry_errors))
    existed = out_dir.exists()
    terminated: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: _stop_as_interrupt(terminated, signum))
    try:
        summary = run_plan(
            plan, out_dir, options, executor, ray_address, ray_workers, lambda: _end_stuck_stop(out_dir, terminated)
        )
    except KeyboardInterrupt:
        click.echo(("stopped by SIGTERM; " if terminated else "") + resume_hint(out_dir), err=True)
        sys.exit(143 if terminated else 130)
    except FrontierError:
        discard_if_empty(out_dir, existed)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
    from harness.cli.show import print_summary

    print_summary(summary, out_dir)
    verdict = judge_run_dir(out_dir, max_error_rate)
    for line in verdict.lines(max_error_rate):
        click.echo(line, err=True)
    click.echo(f"run directory: {out_dir}")
    if verdict.exit_code:
        sys.exit(verdict.exit_code)
