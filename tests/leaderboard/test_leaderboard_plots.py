"""Plot layout: the legend stays inside the figure however many groups there are, labels never collide."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from leaderboard.pareto import Point
from leaderboard.plots import _free_offset, pareto_plot


def _points(groups: int, seed: int = 0) -> list[Point]:
    rng = random.Random(seed)
    return [
        Point(rng.uniform(1e3, 1e6), rng.random(), f"lab/model-{i % groups}", f"lab/model-{i % groups}", {})
        for i in range(4 * groups)
    ]


def _svg_texts(path: Path) -> tuple[float, list[tuple[float, str]]]:
    """The SVG's width and each text element's x position and content."""
    svg = path.read_text()
    width = float(re.search(r'<svg[^>]*width="([\d.]+)"', svg).group(1))
    return width, [(float(x), text) for x, text in re.findall(r'<text x="([-\d.]+)"[^>]*>([^<]*)</text>', svg)]


@pytest.mark.parametrize("groups", [5, 20, 40])
def test_legend_names_groups_and_fits_the_figure(groups: int, tmp_path: Path) -> None:
    svg = pareto_plot(_points(groups), "title", "tokens", "score", tmp_path / "p", ("svg",))[0]
    width, texts = _svg_texts(svg)
    names = {text for _, text in texts}
    assert "Pareto frontier" in names
    legend_x = [x for x, text in texts if text == "Pareto frontier"]
    assert legend_x and all(x < width * 0.95 for x in legend_x)
    shown = {f"lab/model-{g}" for g in range(groups)} & names
    if groups <= 24:
        assert len(shown) == groups, "every group is named when two columns hold them"
    else:
        assert f"+{groups - 23} more (see table)" in names
        assert len(shown) == 23


def test_labels_take_free_places_or_none() -> None:
    placed: list[tuple[float, float, float, float]] = []
    offsets = [_free_offset(100.0, 100.0, 20, False, placed) for _ in range(6)]
    assert offsets[:4] == [(5, 6), (5, -16), (5, 19), (5, -29)]
    assert offsets[4:] == [None, None]
    for i, a in enumerate(placed):
        for b in placed[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    assert _free_offset(400.0, 100.0, 20, True, placed) == (-5, 6), "a label far to the right is free"
