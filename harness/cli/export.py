"""``frontier export``: write the suite's tasks in other harnesses' formats."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("export")
def export_group() -> None:
    """Export suite tasks for other evaluation harnesses."""


@export_group.command("lm-eval")
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@click.option("--task", "tasks", multiple=True, help="Task to export (repeatable); default: every registered task.")
@click.option("-T", "task_args", multiple=True, help="Task argument key=value, applied to every --task.")
@click.option("--limit", type=int, default=None, help="Export only the first N samples of each task.")
def export_lm_eval(out_dir: Path, tasks: tuple[str, ...], task_args: tuple[str, ...], limit: int | None) -> None:
    """Write lm-eval task YAMLs, data and utils.py for every single-turn task into OUT_DIR.

    Run them with: lm_eval --include_path OUT_DIR --tasks frontier_<task> --apply_chat_template ...
    """
    from harness.errors import ConfigError
    from harness.interop.lm_eval_export import Exported, export_tasks
    from harness.registry import task_entries

    args: dict[str, str] = {}
    for item in task_args:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"-T expects key=value, got {item!r}")
        args[key] = value
    names = list(tasks) or sorted(task_entries())
    click.echo(f"exporting {len(names)} task(s) to {out_dir} (each task's data is loaded first)", err=True)
    done = iter(range(1, len(names) + 1))

    def report(record: Exported) -> None:
        step = f"[{next(done)}/{len(names)}]"
        if record.reason:
            click.echo(f"{step} skipped {record.task}: {record.reason}", err=True)
        else:
            click.echo(f"{step} {record.lm_eval_name}: {record.samples} samples, {len(record.metrics)} metrics")

    exported = export_tasks(((name, dict(args)) for name in names), out_dir, limit=limit, on_done=report)
    written = sum(1 for r in exported if not r.reason)
    click.echo(
        f"wrote {written} task(s) to {out_dir}; run: lm_eval --include_path {out_dir} "
        f"--tasks <name> --model <type> --model_args <args> --apply_chat_template"
    )
