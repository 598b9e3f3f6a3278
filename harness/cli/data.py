"""``frontier data get``: fetch the public data sets of LongCoT, ConFiQA and CTI-Bench into a local folder."""

from __future__ import annotations

from pathlib import Path

import click


@click.group("data")
def data_group() -> None:
    """Download the public data sets that some tasks need ('frontier list tasks' marks them)."""


@data_group.command("get")
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
    """Download FAMILY's data (longcot, confiqa, ctibench; tau2 ships with its package).

    \b
    Examples:
      frontier data get longcot confiqa --dest data
      frontier run --task longcot/mini -T data=data/longcot --model openai/gpt-4o-mini
    """
    from harness.datasets_get import DEFAULT_BASE_URL, get_family

    for name in family:
        get_family(
            name,
            dest,
            base_url or DEFAULT_BASE_URL,
            overwrite=overwrite,
            report=lambda line: click.echo(line, err=True),
        )
