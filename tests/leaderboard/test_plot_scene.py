"""Pareto plots drawn without matplotlib: the SVG is well formed and places each point on its axes'
ticks, the PNG shows the same scene, hostile labels stay text, and the ticks are round numbers."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib.image
import pytest

from leaderboard.pareto import Point
from leaderboard.plots import HEIGHT, WIDTH, linear_ticks, log_ticks, pareto_plot
from leaderboard.scene import Line, Marker, Scene, Text, _dashed, to_svg

SVG = "{http://www.w3.org/2000/svg}"


def _points() -> list[Point]:
    return [
        Point(1_000.0, 0.25, "m/a", "m/a"),
        Point(10_000.0, 0.5, "m/b", "m/b"),
        Point(100_000.0, 0.75, "m/c", "m/c"),
        Point(3_000.0, 0.1, "m/a (critic)", "m/a"),
    ]


def _tick_x(svg: str, label: str) -> float:
    """The x of the x-axis tick label ``label`` (centred on its tick)."""
    return float(
        re.search(rf'<text x="([\d.]+)" y="([\d.]+)"[^>]*text-anchor="middle">{re.escape(label)}</text>', svg)[1]
    )


def test_each_point_sits_on_its_cost_and_score_between_the_axes_ticks(tmp_path: Path) -> None:
    svg_path, png_path = pareto_plot(_points(), "t", "tokens", "score", tmp_path / "p", ("svg", "png"))
    svg = svg_path.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT))
    circles = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")]
    circles = sorted((x, y) for x, y in circles if x < 0.75 * WIDTH)  # not the legend's
    one_k, ten_k, hundred_k = _tick_x(svg, "1k"), _tick_x(svg, "10k"), _tick_x(svg, "100k")
    assert ten_k - one_k == pytest.approx(hundred_k - ten_k, abs=0.02), "one decade, one width"
    plotted_x = [x for x, _ in circles]
    for tick in (one_k, ten_k, hundred_k):
        assert min(abs(tick - x) for x in plotted_x) < 0.02, (tick, plotted_x)  # the circles m/a, m/b, m/c
    rows = {float(value): float(y) for y, value in re.findall(r'y="([\d.]+)"[^>]*text-anchor="end">([\d.]+)<', svg)}
    assert rows, "y tick labels"
    (low_value, low_y), (high_value, high_y) = min(rows.items()), max(rows.items())
    for _, cy in circles:  # each circle's score, read back from the tick labels' rows (baseline 4.5 px below)
        score = low_value + (cy + 4.5 - low_y) / (high_y - low_y) * (high_value - low_value)
        assert min(abs(score - s) for s in (0.25, 0.5, 0.75)) < 0.005
    pixels = matplotlib.image.imread(png_path, format="png")
    assert pixels.shape[:2] == (HEIGHT, WIDTH) and float(pixels.std()) > 0.05


def test_hostile_labels_stay_text_and_a_dollar_is_a_dollar(tmp_path: Path) -> None:
    hostile = '<script>alert("x")</script> & $5 $\\alpha$'
    points = [Point(10.0, 0.5, hostile, "g"), Point(20.0, 0.7, "b", "b")]
    svg_path, png_path = pareto_plot(points, hostile, hostile, hostile, tmp_path / "h", ("svg", "png"))
    root = ET.fromstring(svg_path.read_text(encoding="utf-8"))
    assert not list(root.iter(f"{SVG}script"))
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert hostile in texts and any(t and t.startswith('<script>alert("x")') for t in texts)
    assert png_path.stat().st_size > 1000


@pytest.mark.parametrize("points", [[], [Point(math.nan, 0.5, "x", "x")], [Point(0.0, 0.5, "zero", "z")]])
def test_plots_without_usable_points_still_draw(points: list[Point], tmp_path: Path) -> None:
    svg_path, png_path = pareto_plot(points, "t", "x", "y", tmp_path / "e", ("svg", "png"))
    ET.fromstring(svg_path.read_text(encoding="utf-8"))
    assert png_path.stat().st_size > 1000


def test_unknown_formats_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown plot format 'pdf'"):
        pareto_plot(_points(), "t", "x", "y", tmp_path / "p", ("pdf",))


def test_ticks_are_round_and_within_the_axis() -> None:
    assert linear_ticks(-0.04, 1.04) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert linear_ticks(0.11, 0.38) == [0.15, 0.2, 0.25, 0.3, 0.35]
    assert linear_ticks(0.2, 0.2001)[0] >= 0.2
    majors, minors = log_ticks(300.0, 40_000.0, (1.0, 2.0, 5.0))
    assert majors == [500.0, 1000.0, 2000.0, 5000.0, 10000.0, 20000.0]
    assert 300.0 in minors and 3000.0 in minors and not set(majors) & set(minors)
    majors, minors = log_ticks(1e-3, 1e12, (1.0,))
    assert len(majors) <= 10 and minors == []


def test_a_dashed_line_is_cut_into_its_dashes() -> None:
    pieces = _dashed(((0.0, 0.0), (10.0, 0.0), (10.0, 10.0)), (3.0, 2.0))
    assert pieces[0] == [(0.0, 0.0), (3.0, 0.0)] and pieces[1] == [(5.0, 0.0), (8.0, 0.0)]
    assert sum(math.dist(*piece) for piece in pieces) == pytest.approx(12.0)


def test_a_scene_is_written_in_order_with_its_styles() -> None:
    scene = Scene(100, 50, [Line(((0, 0), (10, 5)), "#123456", 1.5, (2.0, 1.0), 0.5)])
    scene.shapes += [Marker(5, 5, "^", 10, "#ffffff"), Text(1, 2, "a<b", 9, "end", rotated=True)]
    svg = to_svg(scene)
    assert svg.index("<path") < svg.index("<polygon") < svg.index("<text")
    assert 'stroke-dasharray="2 1"' in svg and 'stroke-opacity="0.5"' in svg
    assert 'transform="rotate(-90 1 2)"' in svg and ">a&lt;b</text>" in svg
    assert '<polygon points="5,0 10,10 0,10"' in svg
