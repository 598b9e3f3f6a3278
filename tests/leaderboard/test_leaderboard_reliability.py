"""Issue 18 on the leaderboard: deeply nested files are skipped with a clear issue, names with control or bidi
characters are refused, and a rebuilt site keeps no stale page."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import binary

from leaderboard.cli import leaderboard_group
from leaderboard.runs import RunFormatError, load_run
from leaderboard.submission import build_submission, write_submission
from leaderboard.validate import load_submission, validate_submission


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_a_submission_nested_a_thousand_deep_is_an_issue_and_skip_invalid_skips_it(
    make_run: Callable[..., Path], tmp_path: Path
) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    write_submission(build_submission([make_run("ok", tasks={"demo/arith": binary(2, 3)})]), subs / "ok.json")
    for depth in (1_000, 100_000):
        (subs / f"deep{depth}.json").write_text('{"model": ' + _nested(depth) + "}")
        data, issues = load_submission(subs / f"deep{depth}.json")
        assert data is None and "nested too deeply" in issues[0].message
    runner = CliRunner()
    strict = runner.invoke(leaderboard_group, ["build", str(subs), "-o", str(tmp_path / "site")])
    assert strict.exit_code == 1 and "deep1000.json" in strict.output and "Traceback" not in strict.output
    lenient = runner.invoke(leaderboard_group, ["build", str(subs), "--skip-invalid", "-o", str(tmp_path / "site")])
    assert lenient.exit_code == 0, lenient.output
    assert "1 submission(s)" in lenient.output


def test_nesting_is_refused_whatever_the_recursion_limit(tmp_path: Path) -> None:
    """The depth bound is decided on the text: a raised recursion limit (some library or caller may raise
    it) must not let a 1,000-deep submission through to the schema; shallow nesting reaches the schema."""
    deep = tmp_path / "deep.json"
    deep.write_text('{"model": ' + _nested(1_000) + ', "note": "' + "[" * 500 + '"}')
    shallow = tmp_path / "shallow.json"
    shallow.write_text('{"model": ' + _nested(50) + ', "note": "' + "[" * 500 + '"}')
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)
    try:
        data, issues = load_submission(deep)
        assert data is None and "nested too deeply" in issues[0].message
        data, issues = load_submission(shallow)
        assert issues and not any("nested" in issue.message for issue in issues)  # refused by the schema only
    finally:
        sys.setrecursionlimit(limit)


def test_a_deeply_nested_run_summary_is_a_clear_error(make_run: Callable[..., Path]) -> None:
    run = make_run("r", tasks={"demo/arith": binary(1, 2)})
    (run / "summary.json").write_text('{"run_id": ' + _nested(5_000) + "}")
    with pytest.raises(RunFormatError, match="nested too deeply"):
        load_run(run)


@pytest.mark.parametrize("name", ["evil\u202egpt-4o", "model\x1b[31m", "a\u2066b", "tab\there", "model\n"])
def test_names_with_control_or_bidi_characters_are_refused(make_run: Callable[..., Path], name: str) -> None:
    good = build_submission([make_run("ok", tasks={"demo/arith": binary(2, 3)})])
    assert validate_submission(good) == []
    for path, edit in ((["model"], name), (["method", "label"], name), (["suite", "name"], name)):
        data = json.loads(json.dumps(good))
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = edit
        assert validate_submission(data), path
    renamed = json.loads(json.dumps(good))
    renamed["tasks"] = {name: renamed["tasks"]["demo/arith"]}
    assert validate_submission(renamed)


@pytest.mark.slow
def test_a_rebuilt_site_keeps_no_stale_page_and_a_foreign_folder_is_never_replaced(
    make_run: Callable[..., Path], tmp_path: Path
) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    write_submission(
        build_submission([make_run("a", model="openai/a", tasks={"demo/arith": binary(2, 3)})]), subs / "a.json"
    )
    write_submission(
        build_submission([make_run("b", model="openai/b", tasks={"demo/arith": binary(1, 3)})]), subs / "b.json"
    )
    site, runner = tmp_path / "site", CliRunner()
    assert runner.invoke(leaderboard_group, ["build", str(subs), "-o", str(site)]).exit_code == 0
    pages = {p.name for p in (site / "models").glob("*.html")}
    assert len(pages) == 2
    (subs / "b.json").unlink()
    assert runner.invoke(leaderboard_group, ["build", str(subs), "-o", str(site)]).exit_code == 0
    left = {p.name for p in (site / "models").glob("*.html")}
    assert len(left) == 1 and left < pages
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    foreign = tmp_path / "home"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    refused = runner.invoke(leaderboard_group, ["build", str(subs), "-o", str(foreign)])
    assert refused.exit_code == 1 and "refusing to replace it" in refused.output
    assert (foreign / "notes.txt").read_text() == "mine"
