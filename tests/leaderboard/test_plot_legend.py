"""Issue 19 item 5: every point on a plot is labelled or named in the legend.

A model run with several methods used to be one legend entry (its colour), so the methods' points
off the frontier could not be told apart. The legend now names each point label, with one colour
per model and a distinct marker per method.
"""

from __future__ import annotations

import re
from pathlib import Path

from leaderboard.pareto import Point, frontier
from leaderboard.plots import MARKERS, OKABE_ITO, pareto_plot, point_styles


def _svg_texts(path: Path) -> set[str]:
    return set(re.findall(r"<text[^>]*>([^<]*)</text>", path.read_text(encoding="utf-8")))


def _points() -> list[Point]:
    """Three models, one with three methods of which two lie off the frontier."""
    return [
        Point(1_000.0, 0.2, "m/a", "m/a"),
        Point(5_000.0, 0.1, "m/a (best_of_n:n=4)", "m/a"),
        Point(9_000.0, 0.15, "m/a (critic)", "m/a"),
        Point(2_000.0, 0.6, "m/b", "m/b"),
        Point(20_000.0, 0.4, "m/c", "m/c"),
        Point(40_000.0, 0.9, "m/c (clear:budget=4000)", "m/c"),
    ]


def test_every_point_is_labelled_or_in_the_legend(tmp_path: Path) -> None:
    points = _points()
    off_front = [p for p in points if p not in frontier(points)]
    assert {p.label for p in off_front} >= {"m/a (best_of_n:n=4)", "m/a (critic)", "m/c"}
    svg = pareto_plot(points, "demo/arith (smoke)", "tokens", "accuracy", tmp_path / "plot", ("svg",))[0]
    texts = _svg_texts(svg)
    missing = [p.label for p in points if p.label not in texts]
    assert not missing, f"points neither labelled nor in the legend: {missing}"


def test_one_colour_per_model_and_a_distinct_style_per_label() -> None:
    points = _points()
    style = point_styles(points)
    assert list(style) == [
        "m/a",
        "m/a (best_of_n:n=4)",
        "m/a (critic)",
        "m/b",
        "m/c",
        "m/c (clear:budget=4000)",
    ]
    assert {style[p.label][0] for p in points if p.group == "m/a"} == {OKABE_ITO[0]}
    assert len({style[p.label][1] for p in points if p.group == "m/a"}) == 3
    assert len(set(style.values())) == len(style)


def test_styles_stay_distinct_when_the_palette_repeats() -> None:
    """Nine models with two methods each: the ninth shares the first one's colour, never its markers."""
    points = [
        Point(float(1 + g), 0.1 * m, f"m/{g}" + (" (k)" if m else ""), f"m/{g}") for g in range(9) for m in (0, 1)
    ]
    style = point_styles(points)
    assert len(style) == 18 and len(set(style.values())) == 18
    assert style["m/8"][0] == style["m/0"][0] and style["m/8"][1] not in {style["m/0"][1], style["m/0 (k)"][1]}
    assert all(marker in MARKERS for _, marker in style.values())


def _legend_rows(svg: str, legend_x: float) -> tuple[list[float], list[tuple[float, str]]]:
    """The legend's marker centres (y of each marker or dashed line right of ``legend_x``)
    and its text baselines (y, text), each sorted top to bottom."""
    centres = [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)"', svg)]
    for points in re.findall(r'<polygon points="([^"]+)"', svg):
        xy = [tuple(map(float, pair.split(","))) for pair in points.split()]
        centres.append(
            ((min(x for x, _ in xy) + max(x for x, _ in xy)) / 2, (min(y for _, y in xy) + max(y for _, y in xy)) / 2)
        )
    for path in re.findall(r'<path d="M([\d.]+),([\d.]+)L[\d.]+,[\d.]+"[^>]*stroke-dasharray', svg):
        centres.append((float(path[0]), float(path[1])))
    markers = [y for x, y in centres if x > legend_x]
    texts = [
        (float(y), text)
        for x, y, text in re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)
        if float(x) > legend_x
    ]
    return sorted(markers), sorted(texts)


def test_legend_markers_sit_on_their_names(tmp_path: Path) -> None:
    """Each legend marker is on the line of its name in the SVG the pages show (they used to drift
    apart, by a line every few rows, as the SVG backend spaced the lines of one text its own way)."""
    svg = pareto_plot(_points(), "t", "tokens", "accuracy", tmp_path / "plot", ("svg",))[0]
    markers, texts = _legend_rows(svg.read_text(encoding="utf-8"), legend_x=565.0)
    assert [text for _, text in texts] == [*point_styles(_points()), "Pareto frontier"]
    assert len(markers) == len(texts)
    step = (texts[-1][0] - texts[0][0]) / (len(texts) - 1)
    offsets = [baseline - marker for marker, (baseline, _) in zip(markers, texts, strict=True)]
    assert min(offsets) >= 0 and max(offsets) < step / 2, offsets
    assert max(offsets) - min(offsets) < 0.5, f"markers drift off their names: {offsets}"
