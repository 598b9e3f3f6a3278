"""The head-to-head forest plot: an SVG with one dot and interval per task, placed on its axis, text escaped."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET

import pytest

from leaderboard.forest import PLOT_LEFT, PLOT_RIGHT, forest_svg, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def _row(task: str, diff: float, low: float, high: float) -> dict[str, object]:
    return {"task": task, "metric": "accuracy", "diff": diff, "ci": (low, high)}


def _axis(root: ET.Element) -> dict[float, float]:
    """Tick value -> x position, read from the tick labels under the axis."""
    labels = [t for t in root.iter(f"{SVG}text") if t.get("text-anchor") == "middle" and t.text != ""]
    return {float(t.text or ""): float(t.get("x") or "") for t in labels if re.fullmatch(r"-?[\d.]+", t.text or "")}


def test_each_task_gets_its_dot_and_interval_where_the_axis_says() -> None:
    rows = [_row("demo/arith", 0.1, 0.02, 0.2), _row("cyber/mcq", -0.3, -0.5, -0.1)]
    root = ET.fromstring(forest_svg(rows, "B − A"))
    axis = _axis(root)
    assert min(axis) <= -0.5 and max(axis) >= 0.2 and 0.0 in axis
    (start, x0), (end, x1) = min(axis.items()), max(axis.items())
    assert (x0, x1) == (PLOT_LEFT, PLOT_RIGHT)

    def x(value: float) -> float:
        return x0 + (value - start) / (end - start) * (x1 - x0)

    dots = [float(c.get("cx") or "") for c in root.iter(f"{SVG}circle")]
    assert dots == pytest.approx([x(0.1), x(-0.3)], abs=0.01)
    bars = [p.get("d") or "" for p in root.iter(f"{SVG}path")]
    assert [float(re.match(r"M([\d.]+),", d).group(1)) for d in bars] == pytest.approx([x(0.02), x(-0.5)], abs=0.01)  # type: ignore[union-attr]
    zero = next(line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray"))
    assert float(zero.get("x1") or "") == pytest.approx(x(0.0), abs=0.01)
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "demo/arith (accuracy)" in texts and "cyber/mcq (accuracy)" in texts and "B − A" in texts


def test_hostile_and_long_names_are_escaped_and_cut_and_a_non_finite_row_is_only_labelled() -> None:
    rows = [
        _row("<script>alert(1)</script>&x", 0.0, -0.1, 0.1),
        _row("t" * 200, float("nan"), 0.0, 0.0),
        _row("inf", 0.5, 0.1, float("inf")),
    ]
    svg = forest_svg(rows, "</svg><script>")
    assert "<script" not in svg
    root = ET.fromstring(svg)
    assert len(list(root.iter(f"{SVG}circle"))) == 1
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "<script>alert(1)</script>&x (accuracy)" in texts and "</svg><script>" in texts
    assert max(len(t) for t in texts) <= 90 and any(t.endswith("…") for t in texts)


@pytest.mark.parametrize(("low", "high"), [(-0.05, 0.3), (-1.0, 1.0), (0.0, 1e-9), (-123.0, 4.5), (-0.5, 0.5)])
def test_ticks_are_round_evenly_spaced_and_cover_the_range(low: float, high: float) -> None:
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high and 3 <= len(ticks) <= 7
    steps = [b - a for a, b in itertools.pairwise(ticks)]
    assert all(math.isclose(step, steps[0], rel_tol=1e-6) for step in steps)
    assert f"{steps[0]:.3e}".split("e")[0] in {"1.000", "2.000", "2.500", "5.000"}
