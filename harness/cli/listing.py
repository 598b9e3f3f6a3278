"""``frontier list``: registered tasks, adapters, methods and suites with one-line descriptions."""

from __future__ import annotations

import click


@click.command("list")
@click.argument("what", type=click.Choice(["tasks", "adapters", "methods", "suites"]))
def list_command(what: str) -> None:
    """List tasks, adapters, methods or suites.

    \b
    Examples:
      frontier list tasks
      frontier list adapters
    """
    from harness import registry

    rows: list[tuple[str, str]]
    if what == "tasks":
        rows = [(name, entry.description) for name, entry in sorted(registry.task_entries().items())]
        _, broken = registry.task_index()[""]
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
            except Exception as exc:  # noqa: BLE001 - list the suite with its problem
                rows.append((name, f"(invalid: {exc})"))
    width = max((len(name) for name, _ in rows), default=0)
    for name, description in rows:
        click.echo(f"{name.ljust(width)}  {description}")
