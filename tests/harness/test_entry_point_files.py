"""The lean entry-point reader finds what importlib.metadata finds, first distribution of a name winning."""

from __future__ import annotations

import sys
import zipfile
from importlib.metadata import distributions, entry_points
from pathlib import Path

import pytest

from harness.entry_point_files import DeclaredEntry, entries_under, group_entries, parse_group


def _distribution(site: Path, folder: str, entry_points_txt: str | None) -> None:
    """A metadata folder in ``site`` with an ``entry_points.txt`` (none when None)."""
    (site / folder).mkdir(parents=True)
    (site / folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {folder.split('-')[0]}\n")
    if entry_points_txt is not None:
        (site / folder / "entry_points.txt").write_text(entry_points_txt)


def test_parse_group_reads_one_section_and_drops_extras() -> None:
    text = "# comment\n[other]\nx = a:b\n\n[frontier.commands]\n; note\nfoo = pkg.mod:FOO [extra]\nbar=pkg:BAR\n"
    assert parse_group(text, "frontier.commands") == [("foo", "pkg.mod:FOO"), ("bar", "pkg:BAR")]
    assert parse_group(text, "missing") == []
    assert parse_group("[frontier.commands]\nnot an entry\n", "frontier.commands") == []


def test_first_distribution_of_a_name_wins_as_in_importlib(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _distribution(first, "my_plugin-1.0.dist-info", "[frontier.commands]\nhello = my_plugin:HELLO\n")
    _distribution(second, "My.Plugin-2.0.dist-info", "[frontier.commands]\nstale = my_plugin:OLD\n")
    _distribution(second, "other-0.1.egg-info", "[frontier.commands]\nother = other.cli:CMD\n")
    _distribution(second, "bare-1.0.dist-info", None)
    path = [str(first), str(second), str(tmp_path / "missing")]
    lean = group_entries("frontier.commands", path)
    assert lean == [
        DeclaredEntry("hello", "my_plugin:HELLO", "frontier.commands"),
        DeclaredEntry("other", "other.cli:CMD", "frontier.commands"),
    ]
    first_of_each = {d.name.replace(".", "_").lower(): d for d in reversed(list(distributions(path=path)))}
    reference = [(p.name, p.value) for d in first_of_each.values() for p in d.entry_points.select(group=lean[0].group)]
    assert sorted((e.name, e.value) for e in lean) == sorted(reference)


def test_an_unreadable_entry_points_file_is_skipped(tmp_path: Path) -> None:
    _distribution(tmp_path, "broken-1.0.dist-info", None)
    (tmp_path / "broken-1.0.dist-info" / "entry_points.txt").write_bytes(b"\xff\xfe[frontier.commands]\n")
    _distribution(tmp_path, "fine-1.0.dist-info", "[frontier.commands]\nok = fine:OK\n")
    assert group_entries("frontier.commands", [str(tmp_path)]) == [DeclaredEntry("ok", "fine:OK", "frontier.commands")]


def test_zip_archive_on_the_path_is_read(tmp_path: Path) -> None:
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as handle:
        handle.writestr("zipped-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\n")
        handle.writestr("zipped-1.0.dist-info/entry_points.txt", "[frontier.commands]\nz = zipped:Z\n")
    assert group_entries("frontier.commands", [str(archive)]) == [DeclaredEntry("z", "zipped:Z", "frontier.commands")]


@pytest.mark.parametrize("group", ["frontier.commands", "frontier.data", "frontier.tasks", "console_scripts"])
def test_installed_groups_match_importlib_metadata(group: str) -> None:
    lean = sorted((entry.name, entry.value) for entry in group_entries(group))
    assert lean == sorted((point.name, point.value) for point in entry_points(group=group))
    if group == "frontier.commands":
        assert {"coins", "submit"} <= {name for name, _ in lean}


def test_load_imports_the_attribute_and_names_a_missing_one() -> None:
    assert DeclaredEntry("p", "sys:path", "g").load() is sys.path
    assert DeclaredEntry("m", "sys", "g").load() is sys
    with pytest.raises(AttributeError):
        DeclaredEntry("x", "sys:no_such_attribute", "g").load()
    with pytest.raises(ImportError):
        DeclaredEntry("x", "no_such_module_anywhere:X", "g").load()


def test_entries_under_a_prefix_are_read_in_one_pass(tmp_path: Path) -> None:
    text = (
        "[frontier.tasks]\nfam = famplug:FAMILY\n[console_scripts]\nx = y:z\n[frontier.commands]\nc = famplug.cli:C\n"
    )
    _distribution(tmp_path, "famplug-1.0.dist-info", text)
    assert entries_under("frontier.", [str(tmp_path)]) == [
        DeclaredEntry("fam", "famplug:FAMILY", "frontier.tasks"),
        DeclaredEntry("c", "famplug.cli:C", "frontier.commands"),
    ]
