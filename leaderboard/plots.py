"""Pareto plots, laid out here and written as SVG and PNG by :mod:`leaderboard.scene` (no matplotlib).

Colours come from the Okabe–Ito palette (safe for the common colour-vision deficiencies), one
per group (a model); groups beyond the eighth also change marker shape, so no reading depends on
colour alone. The legend names every point label (a model, or a model with a method: the labels
of one group share its colour and differ in marker), so a point is identified by the legend even
where it carries no label of its own. Frontier points also carry labels, each placed above or
below its point where it overlaps no other (a label with no free place is left out); the legend
takes two columns beyond twelve labels and, beyond 24, names the labels on the frontier first
and counts the rest. The step frontier is a dashed black line; budget sweeps are
thin solid lines in their group's colour. Labels are plain text. A point whose ``meta``
holds ``x_ci`` or ``score_ci`` (95% intervals) is drawn with error bars. An axis where higher is
better (output tok/s) is drawn as its reciprocal (seconds per token, lower is better) on a reversed
log axis whose ticks read the figure itself: on a log scale that is the figure's own axis, and the
frontier of the reciprocal is the frontier of the figure.

The figure is the one matplotlib drew before (7.5 x 4.6 inches at 100 dpi, the same margins, fonts,
markers, ticks and legend rows), placed by hand: a site draws dozens, and matplotlib's import and
rendering were most of ``frontier report``'s CPU time and a third of a large leaderboard's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path

from leaderboard.outputs import write_output
from leaderboard.pareto import Point, frontier, log_floor, on_log_axis, step_curve, sweeps, usable
from leaderboard.scene import Line, Marker, Scene, Text, to_png, to_svg

OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "h")
LABEL_CHARS = 32
TITLE_CHARS = 90
LEGEND_ROWS = 12
MAX_LABELS = 15
LABEL_CHAR_PX = 5.6
LABEL_HEIGHT_PX = 11
LEGEND_LINESPACING = 1.45
PNG_COMPRESSION = 1
MIN_COST_RATIO = 10.0  # the cost axis spans at least one decade
LOG_MARGIN = 1.12  # a twentieth of a decade each side of the outermost points


def _short(text: str, limit: int = LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cost_window(costs: Sequence[float]) -> tuple[float, float]:
    """The x range of a log cost axis: the costs with a margin each side, and at least one decade wide,
    so two runs 448 and 449 tokens apart are drawn close together rather than at the axis' two ends."""
    low, high = min(costs), max(costs)
    middle = math.sqrt(low * high)
    half = max(math.sqrt(high / low) * LOG_MARGIN, math.sqrt(MIN_COST_RATIO))
    return middle / half, middle * half


def cost_tick(value: float) -> str:
    """A tick label for a cost: 500, 20k, 3M, 1.5G (or 0.001 below one)."""
    if value <= 0:
        return "0"
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:g}{unit}"
    return f"{value:g}"


def reciprocal_tick(value: float) -> str:
    """A tick label on a reciprocal axis: the figure ``1 / value`` (see the module docstring)."""
    return cost_tick(1 / value) if value > 0 else "∞"


WIDTH, HEIGHT = 750, 460
"""The figure in pixels (7.5 x 4.6 inches at 100 dpi)."""
PT = 100 / 72
"""Pixels per typographic point."""
FONT_PX, TITLE_PX, LABEL_PX = 9 * PT, 10.8 * PT, 7.5 * PT
CHAR_PX = 0.62 * FONT_PX
"""The width of a tick label's character, about."""
AXES_LEFT, AXES_TOP, AXES_BOTTOM = 0.09 * WIDTH, 0.09 * HEIGHT, 0.89 * HEIGHT
MAJOR_TICK, MINOR_TICK, TICK_PAD = 3.5 * PT, 2 * PT, 3.5 * PT
MARKER_PX, LEGEND_MARKER_PX = math.sqrt(34) * PT, math.sqrt(26) * PT
EDGE_PX, LINE_PX, GRID_PX, ERROR_PX = 0.5 * PT, 1.0 * PT, 0.4 * PT, 0.7 * PT
DASH = (3.7 * PT, 1.6 * PT)
GRID_COLOUR, ERROR_COLOUR = "#d7d7d7", "#888888"
Y_BINS = 9
"""At most this many intervals between y ticks (as matplotlib's locator chose for this axis height)."""


class _Axes:
    """The plot area: a log x axis (possibly reversed) and a linear y axis, mapped to pixels."""

    def __init__(self, right: float, x_range: tuple[float, float], y_range: tuple[float, float], log_x: bool) -> None:
        self.right = right
        self.x_range, self.y_range, self.log_x = x_range, y_range, log_x

    def _fraction(self, value: float) -> float:
        low, high = self.x_range
        if self.log_x:
            return (math.log10(value) - math.log10(low)) / (math.log10(high) - math.log10(low))
        return (value - low) / (high - low)

    def x(self, value: float) -> float:
        """The pixel column of x ``value``, kept inside the plot area."""
        fraction = min(1.0, max(0.0, self._fraction(value)))
        return AXES_LEFT + fraction * (self.right - AXES_LEFT)

    def y(self, value: float) -> float:
        """The pixel row of y ``value``."""
        low, high = self.y_range
        return AXES_BOTTOM - (value - low) / (high - low) * (AXES_BOTTOM - AXES_TOP)


def linear_ticks(low: float, high: float, bins: int = Y_BINS) -> list[float]:
    """Round ticks within [low, high]: the finest step of 1, 2, 2.5 or 5 times a power of ten giving at most
    ``bins`` intervals."""
    span = high - low
    power = 10 ** math.floor(math.log10(span / bins))
    step = next(
        m * power
        for m in (1, 2, 2.5, 5, 10, 20)
        if math.floor(high / (m * power)) - math.ceil(low / (m * power)) < bins
    )
    digits = max(0, 2 - math.floor(math.log10(step)))
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return [round(k * step, digits) + 0.0 for k in range(first, last + 1)]


def log_ticks(low: float, high: float, subs: Sequence[float]) -> tuple[list[float], list[float]]:
    """Major ticks (``subs`` times powers of ten, at most about ten) and minor ticks (2–9 times powers of ten,
    but not on a major one, and none beyond ten decades) within [low, high]."""
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    stride = max(1, math.ceil((last - first + 1) / 10))
    majors = [m * 10.0**e for e in range(first - stride, last + stride, stride) for m in subs]
    majors = [v for v in majors if low * (1 - 1e-9) <= v <= high * (1 + 1e-9)]
    minors = [] if last - first > 10 else [k * 10.0**e for e in range(first, last + 1) for k in range(2, 10)]
    taken = {round(math.log10(v), 9) for v in majors}
    minors = [v for v in minors if low <= v <= high and round(math.log10(v), 9) not in taken]
    return majors, minors


def pareto_scene(points: Sequence[Point], title: str, xlabel: str, ylabel: str, reciprocal_x: bool = False) -> Scene:
    """The plot of ``points`` (see the module) as a scene of lines, markers and texts."""
    floor = log_floor([p.cost for p in usable(points)])
    drawn = [Point(on_log_axis(p.cost, floor), p.score, p.label, p.group, p.meta) for p in usable(points)]
    style = point_styles(drawn)
    names = list(style)
    columns = 1 if len(names) <= LEGEND_ROWS else 2
    right = AXES_LEFT + (0.66 if columns == 1 else 0.54) * WIDTH
    scene = Scene(WIDTH, HEIGHT)
    if not drawn:
        axes = _Axes(right, (0.0, 1.0), (0.0, 1.0), log_x=False)
        chars = _frame(scene, axes, linear_ticks(0.0, 1.0), [], linear_ticks(0.0, 1.0), str)
        middle = ((AXES_LEFT + right) / 2, (AXES_TOP + AXES_BOTTOM) / 2 + FONT_PX * 0.36)
        scene.shapes.append(Text(*middle, "no points with a cost and a score", FONT_PX, "middle"))
        _titles(scene, right, (title, xlabel, ylabel), chars)
        return scene
    low, high = cost_window([p.cost for p in drawn])
    axes = _Axes(right, (high, low) if reciprocal_x else (low, high), _score_range(drawn), log_x=True)
    majors, minors = log_ticks(low, high, (1.0, 2.0, 5.0) if math.log10(high / low) < 2.5 else (1.0,))
    x_format = reciprocal_tick if reciprocal_x else cost_tick
    chars = _frame(scene, axes, majors, minors, linear_ticks(*axes.y_range), x_format)
    _error_bars(scene, axes, drawn)
    for members in sweeps(drawn).values():
        line = tuple((axes.x(p.cost), axes.y(p.score)) for p in members)
        scene.shapes.append(Line(line, style[members[0].label][0], LINE_PX, opacity=0.7))
    for point in drawn:
        colour, marker = style[point.label]
        scene.shapes.append(Marker(axes.x(point.cost), axes.y(point.score), marker, MARKER_PX, colour, EDGE_PX))
    front = frontier(drawn)
    xs, ys = step_curve(drawn, max(p.cost for p in drawn))
    scene.shapes.append(
        Line(tuple((axes.x(x), axes.y(y)) for x, y in zip(xs, ys, strict=True)), "black", LINE_PX, DASH)
    )
    _frontier_labels(scene, axes, front, reciprocal_x)
    entries: list[tuple[str, str | None, str | None]] = [
        (_short(name, 24), *style[name]) for name in _legend_names(names, front)
    ]
    if len(entries) < len(names):
        entries.append((f"+{len(names) - len(entries)} more (see table)", None, None))
    entries.append(("Pareto frontier", "black", "--"))
    _legend(scene, right, entries, columns)
    _titles(scene, right, (title, xlabel, ylabel), chars)
    return scene


def _score_range(drawn: Sequence[Point]) -> tuple[float, float]:
    """The y axis: the scores and their intervals with a twentieth of their span each side."""
    values = [p.score for p in drawn] + [v for p in drawn for v in (p.meta.get("score_ci") or [])]
    low, high = min(values), max(values)
    if high - low < 1e-12:
        low, high = low - max(0.05, abs(low) * 0.05), high + max(0.05, abs(high) * 0.05)
    margin = (high - low) * 0.05
    return low - margin, high + margin


def _frame(
    scene: Scene,
    axes: _Axes,
    majors: Sequence[float],
    minors: Sequence[float],
    y_ticks: Sequence[float],
    x_format: Callable[[float], str],
) -> int:
    """Grid, the left and bottom spines, ticks and tick labels; returns the longest y tick label's length."""
    shapes = scene.shapes
    step = y_ticks[1] - y_ticks[0] if len(y_ticks) > 1 else 1.0
    digits = next((d for d in range(7) if abs(round(step, d) - step) < 1e-9 * step), 6)
    y_labels = [f"{value:.{digits}f}" for value in y_ticks]
    for value in majors:
        shapes.append(Line(((axes.x(value), AXES_TOP), (axes.x(value), AXES_BOTTOM)), GRID_COLOUR, GRID_PX))
    for value in y_ticks:
        shapes.append(Line(((AXES_LEFT, axes.y(value)), (axes.right, axes.y(value))), GRID_COLOUR, GRID_PX))
    shapes.append(Line(((AXES_LEFT, AXES_TOP), (AXES_LEFT, AXES_BOTTOM), (axes.right, AXES_BOTTOM)), "black", 0.8 * PT))
    for value in minors:
        shapes.append(
            Line(((axes.x(value), AXES_BOTTOM), (axes.x(value), AXES_BOTTOM + MINOR_TICK)), "black", 0.6 * PT)
        )
    for value in majors:
        x = axes.x(value)
        shapes.append(Line(((x, AXES_BOTTOM), (x, AXES_BOTTOM + MAJOR_TICK)), "black", 0.8 * PT))
        shapes.append(Text(x, AXES_BOTTOM + MAJOR_TICK + TICK_PAD + FONT_PX * 0.76, x_format(value), FONT_PX, "middle"))
    for value, label in zip(y_ticks, y_labels, strict=True):
        y = axes.y(value)
        shapes.append(Line(((AXES_LEFT - MAJOR_TICK, y), (AXES_LEFT, y)), "black", 0.8 * PT))
        shapes.append(Text(AXES_LEFT - MAJOR_TICK - TICK_PAD, y + FONT_PX * 0.36, label, FONT_PX, "end"))
    return max(map(len, y_labels), default=0)


def _error_bars(scene: Scene, axes: _Axes, drawn: Sequence[Point]) -> None:
    """Grey 95% interval bars on both axes of the points whose ``meta`` carries them."""
    for point in drawn:
        x, y = axes.x(point.cost), axes.y(point.score)
        x_ci, score_ci = point.meta.get("x_ci"), point.meta.get("score_ci")
        if x_ci:
            ends = (axes.x(x_ci[0]) if x_ci[0] > 0 else AXES_LEFT, axes.x(x_ci[1]) if x_ci[1] > 0 else AXES_LEFT)
            scene.shapes.append(Line(((ends[0], y), (ends[1], y)), ERROR_COLOUR, ERROR_PX))
        if score_ci:
            scene.shapes.append(Line(((x, axes.y(score_ci[0])), (x, axes.y(score_ci[1]))), ERROR_COLOUR, ERROR_PX))


def _frontier_labels(scene: Scene, axes: _Axes, front: Sequence[Point], reciprocal_x: bool) -> None:
    """Labels of the first frontier points, each where it overlaps no other (see :func:`_free_offset`)."""
    middle = (front[0].cost * front[-1].cost) ** 0.5
    placed: list[tuple[float, float, float, float]] = []
    for point in front[:MAX_LABELS]:
        text = _short(point.label)
        x, y = axes.x(point.cost), axes.y(point.score)
        right_half = len(front) > 1 and (point.cost > middle) != reciprocal_x
        offset = _free_offset(x, HEIGHT - y, len(text), right_half, placed)  # placed upwards, as on a plot
        if offset is not None:
            scene.shapes.append(Text(x + offset[0], y - offset[1], text, LABEL_PX, "end" if right_half else "start"))


def _legend(scene: Scene, right: float, entries: list[tuple[str, str | None, str | None]], columns: int) -> None:
    """The legend right of the axes: per row its marker (a dashed line for "--", nothing for None) and text,
    rows ``LEGEND_LINESPACING`` times the font size apart, centred on the axes' middle height."""
    size = (7 if columns == 1 else 6) * PT
    rows = -(-len(entries) // columns)
    step = size * LEGEND_LINESPACING
    left = right + 0.015 * WIDTH
    width = (0.995 * WIDTH - left) / columns
    top = 0.49 * HEIGHT - (rows - 1) * step / 2
    for index, (label, colour, marker) in enumerate(entries):
        x = left + (index // rows) * width
        y = top + (index % rows) * step
        scene.shapes.append(Text(x + 0.022 * WIDTH, y + size * 0.36, label, size))
        if marker == "--" and colour is not None:
            scene.shapes.append(Line(((x, y), (x + 0.018 * WIDTH, y)), colour, LINE_PX, DASH))
        elif marker is not None and colour is not None:
            scene.shapes.append(Marker(x + 0.009 * WIDTH, y, marker, LEGEND_MARKER_PX, colour, EDGE_PX))


def _titles(scene: Scene, right: float, texts: tuple[str, str, str], tick_chars: int) -> None:
    """The title above the axes, the x label below, and the y label turned, 4 points left of the y tick
    labels (``tick_chars`` characters at most)."""
    title, xlabel, ylabel = texts
    centre = (AXES_LEFT + right) / 2
    scene.shapes.append(Text(centre, AXES_TOP - 6 * PT - 1, _short(title, TITLE_CHARS), TITLE_PX, "middle"))
    below = AXES_BOTTOM + MAJOR_TICK + TICK_PAD + FONT_PX + 4 * PT + FONT_PX * 0.76
    scene.shapes.append(Text(centre, below, xlabel, FONT_PX, "middle"))
    left = max(FONT_PX, AXES_LEFT - MAJOR_TICK - TICK_PAD - tick_chars * CHAR_PX - 4 * PT)
    scene.shapes.append(Text(left, (AXES_TOP + AXES_BOTTOM) / 2, ylabel, FONT_PX, "middle", rotated=True))


def _free_offset(
    x: float, y: float, chars: int, leftward: bool, placed: list[tuple[float, float, float, float]]
) -> tuple[int, int] | None:
    """A pixel offset for a label of ``chars`` characters at (x, y) that overlaps no label in
    ``placed`` (which it joins), trying above, below, then further out; None when all collide."""
    width = LABEL_CHAR_PX * chars
    dx = -5 if leftward else 5
    for dy in (6, -16, 19, -29):
        left = x + dx - width if leftward else x + dx
        box = (left, y + dy, left + width, y + dy + LABEL_HEIGHT_PX)
        if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in placed):
            placed.append(box)
            return dx, dy
    return None


def point_styles(points: Sequence[Point]) -> dict[str, tuple[str, str]]:
    """The (colour, marker) of each point label, in legend order (by group, then label).

    A group (a model) has one colour; its labels (the model with each method) take distinct
    markers, so every point the legend names can be told from the others of its group. The
    first marker of a colour's first group changes every eighth group, as the palette repeats.
    """
    groups = sorted({p.group for p in points})
    style: dict[str, tuple[str, str]] = {}
    for index, group in enumerate(groups):
        colour = OKABE_ITO[index % len(OKABE_ITO)]
        labels = sorted({p.label for p in points if p.group == group} - set(style))
        taken = {marker for used_colour, marker in style.values() if used_colour == colour}
        start = (index // len(OKABE_ITO)) % len(MARKERS)
        free = [m for m in MARKERS[start:] + MARKERS[:start] if m not in taken] or list(MARKERS)
        for offset, label in enumerate(labels):
            style[label] = (colour, free[offset % len(free)])
    return style


def _legend_names(names: list[str], front: Sequence[Point]) -> list[str]:
    """The labels the legend names: all of them when two columns hold them, else those on the
    frontier first, then the others in order, leaving a row for the "+N more" entry."""
    room = 2 * LEGEND_ROWS
    if len(names) <= room:
        return names
    first = list(dict.fromkeys(p.label for p in front))
    rest = [name for name in names if name not in first]
    return (first + rest)[: room - 1]


def pareto_plot(
    points: Sequence[Point],
    title: str,
    xlabel: str,
    ylabel: str,
    out_base: Path,
    formats: Sequence[str] = ("png", "svg"),
    reciprocal_x: bool = False,
) -> list[Path]:
    """Draw ``points`` with their step frontier and sweeps; writes ``out_base.<fmt>`` per format (png, svg).

    ``reciprocal_x``: the costs are reciprocals of a higher-is-better figure (output tok/s; see the module).
    """
    scene = pareto_scene(points, title, xlabel, ylabel, reciprocal_x)
    out_base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        path = out_base.with_name(out_base.name + "." + fmt)
        if fmt == "png":
            write_output(path, to_png(scene, PNG_COMPRESSION))
        elif fmt == "svg":
            write_output(path, to_svg(scene))
        else:
            raise ValueError(f"unknown plot format {fmt!r} (png or svg)")
        written.append(path)
    return written
