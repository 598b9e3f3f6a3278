"""The static site: files written, escaping, no network references, JSON export, CLI build and report."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import matplotlib.image
import pytest
from click.testing import CliRunner
from conftest import PAYLOAD_MODEL, binary, build_board

from leaderboard.cli import leaderboard_group, report_command
from leaderboard.pareto import Point
from leaderboard.plots import pareto_plot
from leaderboard.submission import build_submission, write_submission


@pytest.fixture
def site(make_run: Callable[..., Path], tmp_path: Path) -> Path:
    return build_board(make_run, tmp_path / "site")


def test_site_files(site: Path) -> None:
    assert (site / "index.html").is_file() and (site / "leaderboard.json").is_file()
    assert len(list((site / "tasks").glob("*.html"))) == 2
    assert len(list((site / "models").glob("*.html"))) == 2
    # 10 samples per task at 4 a page: 3 pages per task and run
    assert len(list((site / "samples").glob("*-[0-9].html"))) == 4 * 2 * 3
    # each sample its own page (its transcript), each run a filterable index
    assert len(list((site / "samples").glob("*/*.html"))) == 4 * 2 * 10
    assert len(list((site / "samples").glob("*-index.html"))) == 4
    assert {p.suffix for p in (site / "plots").iterdir()} == {".png", ".svg"}
    assert not list((site / "plots").glob("*usd*")), "one submission has no known cost, so no USD plots"
    assert len([p for p in (site / "plots").iterdir() if not p.name.startswith("vs-")]) == 2 * (1 + 2)
    # four submissions of one suite: six head-to-head pages, each with its forest plot
    forest_plots = list((site / "plots").glob("vs-*"))
    assert len(list((site / "vs").glob("*.html"))) == 6 and len(forest_plots) == 6
    assert all(plot.suffix == ".svg" for plot in forest_plots)


def test_pages_escape_payloads_and_reference_nothing_remote(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>window" not in html and "<img src=x" not in html and "<img src=y" not in html, page
        root = "../" * (len(page.relative_to(site).parts) - 1)
        index = [f'<script src="{page.stem}.js" defer>', f'<script src="{root}static/sample_filter.js" defer>']
        assert re.findall(r"<script\b[^>]*>", html) == [
            f'<script src="{root}static/sort.js" defer>',
            *(index if page.name.endswith("-index.html") else []),
        ], page
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html), page
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in index
    samples = "".join(p.read_text(encoding="utf-8") for p in (site / "samples").glob("*.html"))
    assert "&lt;/pre&gt;&lt;script&gt;window.__pwned=3" in samples


def test_json_export(site: Path) -> None:
    data = json.loads((site / "leaderboard.json").read_text())
    assert len(data["overall"]) == 4 and len(data["submissions"]) == 4
    assert {row["model"] for row in data["overall"]} == {"openai/base", PAYLOAD_MODEL}
    assert all("samples" not in task for sub in data["submissions"] for task in sub["tasks"].values())
    assert {row["label"].split(" (")[0] for row in data["pareto"]["overall"]["smoke"]} == {"openai/base", PAYLOAD_MODEL}


def test_plot_is_drawn_with_dollars_in_names(tmp_path: Path) -> None:
    points = [
        Point(100, 0.4, "m $x$ (a)", "m $x$", {"sweep": "s"}),
        Point(1000, 0.7, "m $x$ (b)", "m $x$", {"sweep": "s"}),
        Point(0, 0.1, "free", "z"),
    ]
    written = pareto_plot(points, "t $", "tokens", "score", tmp_path / "p")
    assert [p.name for p in written] == ["p.png", "p.svg"]
    image = matplotlib.image.imread(written[0])
    assert image.shape[0] > 300 and image[..., :3].std() > 0.05
    assert "<svg" in written[1].read_text()


@pytest.mark.slow
def test_cli_build_and_report(make_run: Callable[..., Path], tmp_path: Path) -> None:
    run = make_run("one", tasks={"demo/arith": binary(5, 10)})
    other = make_run("two", model="openai/other", tasks={"demo/arith": binary(7, 10)})
    subs = tmp_path / "subs"
    subs.mkdir()
    write_submission(build_submission([run]), subs / "one.json")
    write_submission(build_submission([other]), subs / "two.json")
    runner = CliRunner()
    result = runner.invoke(
        leaderboard_group, ["build", str(subs), "--runs", str(run.parent), "-o", str(tmp_path / "site")]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site" / "index.html").is_file()
    assert len(list((tmp_path / "site" / "samples").glob("*-[0-9].html"))) == 2
    (subs / "broken.json").write_text('{"model": 1}')
    result = runner.invoke(leaderboard_group, ["build", str(subs), "-o", str(tmp_path / "site2")])
    assert result.exit_code == 1 and "broken.json" in result.output
    result = runner.invoke(leaderboard_group, ["build", str(subs), "--skip-invalid", "-o", str(tmp_path / "site2")])
    assert result.exit_code == 0, result.output
    result = runner.invoke(report_command, [str(run), "-o", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    assert "openai/test-model" in (tmp_path / "report" / "index.html").read_text()
    result = runner.invoke(report_command, [str(run), str(other), "-o", str(tmp_path / "both")])
    assert result.exit_code == 0 and "2 run(s)" in result.output, result.output
    index = (tmp_path / "both" / "index.html").read_text()
    assert "openai/test-model" in index and "openai/other" in index
