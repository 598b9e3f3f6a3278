"""``frontier data get --help`` names the families from the declared data sources, not from the harness."""

from __future__ import annotations

from click.testing import CliRunner

from harness.cli.data import data_group, get_help
from harness.datasets_get import DataSource, sources


def test_help_lists_the_installed_sources() -> None:
    shown = CliRunner().invoke(data_group, ["get", "--help"])
    assert shown.exit_code == 0, shown.output
    fetched = sorted(name for name, source in sources().items() if source.files)
    assert fetched and f"({', '.join(fetched)};" in " ".join(shown.output.split())


def test_help_follows_what_is_declared() -> None:
    declared = {
        "zeta": DataSource("zeta", ("zeta/*",), files=(("a.json", "a.json"),), usage="-T data={folder}"),
        "alpha": DataSource("alpha", ("alpha/*",), files=(("b.json", "b.json"),)),
        "boxed": DataSource("boxed", (), bundled="ships with the boxed package"),
        "notes": DataSource("notes", ("notes/x",), manual="-T data=<file>"),
    }
    text = get_help(declared)
    assert text.splitlines()[0] == "Download FAMILY's data (alpha, zeta; boxed ship(s) with its package)."
    assert "frontier data get alpha zeta --dest data" in text and "notes" not in text
    assert get_help({}).splitlines()[0] == "Download FAMILY's data (none is registered)."
