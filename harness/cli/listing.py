"""``frontier list``: registered tasks, adapters, methods and suites with one-line descriptions."""

from __future__ import annotations

import click


def describe_task(name: str) -> str:
    """A task's documentation and its ``-T`` arguments (type, default, description): ``list tasks NAME``."""
    import inspect

    from harness.registry import resolve_task

    entry = resolve_task(name)
    lines = [f"{name}: {entry.description}"]
    doc = inspect.getdoc(entry.factory) or ""
    if doc:
        lines += ["", doc]
    fields = entry.arguments().model_fields
    if fields:
        lines += ["", "Arguments (-T KEY=VALUE):"]
    for key, field in fields.items():
        kind = getattr(field.annotation, "__name__", None) or str(field.annotation).replace("typing.", "")
        lines.append(f"  {key} ({kind}, default {field.default!r}): {field.description or ''}".rstrip(": "))
    return "\n".join(lines)


def _data_note(how: str | None) -> str:
    return f"  [needs external data: {how}]" if how else ""


@click.command("list")
@click.argument("what", type=click.Choice(["tasks", "adapters", "methods", "suites"]))
@click.argument("name", required=False)
def list_command(what: str, name: str | None) -> None:
    """List tasks, adapters, methods or suites; 'list tasks NAME' describes one task and its arguments.

    \b
    Examples:
      frontier list tasks
      frontier list tasks cyber/cti-mcq
      frontier list adapters
    """
    from harness import registry

    if name is not None:
        if what != "tasks":
            raise click.UsageError("a NAME is accepted only after 'tasks'")
        click.echo(describe_task(name))
        return

    rows: list[tuple[str, str]]
    if what == "tasks":
        from harness.datasets_get import data_note

        listed, broken = registry.task_listing()
        rows = [(name, description + _data_note(data_note(name))) for name, description in sorted(listed.items())]
        rows += [(f"{name}/*", f"(family failed to load: {error})") for name, error in broken.items()]
    elif what == "adapters":
        rows = [(f"{name}/...", registry.describe(entry)) for name, entry in registry.adapter_entries().items()]
        rows.append((f"{registry.LITELLM_ENTRY.name}/<model>", registry.LITELLM_ENTRY.description))
    elif what == "methods":
        rows = [(name, registry.describe(entry)) for name, entry in sorted(registry.method_entries().items())]
    else:
        from harness.suites import available_suites, load_suite

        rows = []
        for name in available_suites():
            try:
                rows.append((name, load_suite(name).description))
            except Exception as exc:
                rows.append((name, f"(invalid: {exc})"))
    width = max((len(name) for name, _ in rows), default=0)
    for name, description in rows:
        click.echo(f"{name.ljust(width)}  {description}")
