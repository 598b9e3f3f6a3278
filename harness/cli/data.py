"""``frontier data get``: fetch the public data sets the families declare (``frontier.data``) into a local folder."""

from __future__ import annotations

from pathlib import Path

import click

from harness.datasets_get import DataSource, sources


def get_help(declared: dict[str, DataSource]) -> str:
    """The help of ``frontier data get``: the families it fetches and those whose data ships with a package."""
    fetched = sorted(name for name, source in declared.items() if source.files)
    bundled = sorted(name for name, source in declared.items() if source.bundled)
    names = ", ".join(fetched) or "none is registered"
    shipped = f"; {', '.join(bundled)} ship(s) with its package" if bundled else ""
    example = fetched[0] if fetched else "FAMILY"
    usage = declared[example].usage.format(folder=f"data/{example}") if fetched else ""
    lines = [f"Download FAMILY's data ({names}{shipped}).", "", "\b", "Examples:"]
    lines.append(f"  frontier data get {' '.join(fetched[:2]) or example} --dest data")
    if usage:
        lines.append(f"  then point {example}'s tasks at it: {usage}")
    return "\n".join(lines)


@click.group("data")
def data_group() -> None:
    """Download the public data sets that some tasks need ('frontier list tasks' marks them)."""


@data_group.command("get", help=get_help(sources()))
@click.argument("family", nargs=-1, required=True)
@click.option(
    "--dest",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("data"),
    show_default=True,
    help="Folder to download into (one sub-folder per family).",
)
@click.option(
    "--mirror",
    "base_url",
    default=None,
    metavar="URL",
    help="Fetch from this mirror instead of https://raw.githubusercontent.com "
    "(laid out as <owner>/<repo>/<ref>/<path>; file:// works too).",
)
@click.option("--overwrite", is_flag=True, help="Download again files that are already there.")
def get_command(family: tuple[str, ...], dest: Path, base_url: str | None, overwrite: bool) -> None:
    """Download each FAMILY's data into DEST (its help lists the registered families)."""
    from harness.datasets_get import DEFAULT_BASE_URL, get_family

    for name in family:
        get_family(
            name,
            dest,
            base_url or DEFAULT_BASE_URL,
            overwrite=overwrite,
            report=lambda line: click.echo(line, err=True),
        )
