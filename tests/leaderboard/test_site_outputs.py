"""A rebuild reuses the previous build's identical files (hard links), writes the changed ones, and never
writes through a link or reuses a file reached through a link out of the old site."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from conftest import binary

from leaderboard.outputs import reusing, write_output
from leaderboard.runs import load_run
from leaderboard.site import build_site
from leaderboard.submission import build_submission


def _files(site: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(site)): (p.stat().st_ino, p.read_bytes()) for p in site.rglob("*") if p.is_file()}


def test_a_rebuild_keeps_unchanged_files_and_rewrites_changed_ones(
    make_run: Callable[..., Path], tmp_path: Path
) -> None:
    runs = [
        make_run("base", model="openai/base", tasks={"demo/arith": binary(5, 10)}),
        make_run("better", model="openai/better", tasks={"demo/arith": binary(8, 10)}),
    ]
    submissions = [build_submission([r]) for r in runs]
    site = build_site(submissions, tmp_path / "site", [load_run(r) for r in runs], report=True).out_dir
    first = _files(site)
    build_site(submissions, site, [load_run(r) for r in runs], report=True)
    second = _files(site)
    assert {name: data for name, (_, data) in second.items()} == {name: data for name, (_, data) in first.items()}
    reused = [name for name in second if second[name][0] == first[name][0]]
    assert "index.html" in reused and any(name.endswith(".png") for name in reused)
    assert sorted(set(second) - set(reused)) == sorted(n for n in second if n.startswith("static/")), "copied anew"
    build_site(submissions, site, [load_run(r) for r in runs])  # a leaderboard's titles, not a report's
    third = _files(site)
    assert third["index.html"][0] != second["index.html"][0] and b"Leaderboard" in third["index.html"][1]
    assert all(os.stat(site / name).st_nlink == 1 for name in third), "the old site is gone, links and all"


def test_no_write_goes_through_a_link_and_no_link_leaves_the_old_site(tmp_path: Path) -> None:
    previous, staging, outside = tmp_path / "site", tmp_path / "staging", tmp_path / "outside"
    for folder in (previous, staging, outside):
        folder.mkdir()
    (previous / "page.html").write_text("same", encoding="utf-8")
    (outside / "secret.html").write_text("outside", encoding="utf-8")
    (previous / "linked.html").symlink_to(outside / "secret.html")
    (previous / "sub").symlink_to(outside)
    (staging / "sub").mkdir()
    with reusing(staging, previous):
        write_output(staging / "page.html", "same")
        assert (staging / "page.html").stat().st_ino == (previous / "page.html").stat().st_ino
        write_output(staging / "page.html", "changed")  # the same page written again in this build
        write_output(staging / "linked.html", "outside")
        write_output(staging / "sub" / "secret.html", "outside")
    assert (previous / "page.html").read_text(encoding="utf-8") == "same"
    assert (staging / "page.html").read_text(encoding="utf-8") == "changed"
    for name in ("linked.html", "sub/secret.html"):
        assert (staging / name).stat().st_ino != (outside / "secret.html").stat().st_ino
        assert not (staging / name).is_symlink() and (staging / name).read_text(encoding="utf-8") == "outside"
    write_output(staging / "plain.html", "no previous site: written")
    assert (staging / "plain.html").read_text(encoding="utf-8") == "no previous site: written"
