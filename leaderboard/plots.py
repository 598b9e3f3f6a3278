"""Pareto plots with matplotlib (Agg backend), written as PNG and SVG.

Colours come from the Okabe–Ito palette (safe for the common colour-vision deficiencies), one
per group (a model); groups beyond the eighth also change marker shape, so no reading depends on
colour alone. The legend names every point label (a model, or a model with a method: the labels
of one group share its colour and differ in marker), so a point is identified by the legend even
where it carries no label of its own. Frontier points also carry labels, each placed above or
below its point where it overlaps no other (a label with no free place is left out); the legend
takes two columns beyond twelve labels and, beyond 24, names the labels on the frontier first
and counts the rest. The step frontier is a dashed black line; budget sweeps are
thin solid lines in their group's colour. Labels are plain text: ``$`` in a model name is
escaped so that it is drawn as a dollar sign, never parsed as mathtext. A point whose ``meta``
holds ``x_ci`` or ``score_ci`` (95% intervals) is drawn with error bars. An axis where higher is
better (output tok/s) is drawn as its reciprocal (seconds per token, lower is better) on a reversed
log axis whose ticks read the figure itself: on a log scale that is the figure's own axis, and the
frontier of the reciprocal is the frontier of the figure.

Drawing is the slow part of a site build, so a :class:`PlotCanvas` keeps one figure and one
axes for many plots and only swaps the data artists between them: the axes, ticks, fonts and
the Agg renderer (with its text-metrics cache) are built once per process. The layout uses
fixed margins and a fixed title position, so no tight-bbox or title-placement pass runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from leaderboard.pareto import Point, frontier, log_floor, on_log_axis, step_curve, sweeps, usable

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
RC = {
    "font.size": 9,
    "svg.fonttype": "none",
    "svg.hashsalt": "frontier",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "path.simplify": True,
}


def _short(text: str, limit: int = LABEL_CHARS) -> str:
    cut = text if len(text) <= limit else text[: limit - 1] + "…"
    return cut.replace("$", r"\$")


def cost_window(costs: Sequence[float]) -> tuple[float, float]:
    """The x range of a log cost axis: the costs with a margin each side, and at least one decade wide,
    so two runs 448 and 449 tokens apart are drawn close together rather than at the axis' two ends."""
    low, high = min(costs), max(costs)
    middle = math.sqrt(low * high)
    half = max(math.sqrt(high / low) * LOG_MARGIN, math.sqrt(MIN_COST_RATIO))
    return middle / half, middle * half


def cost_tick(value: float, _position: float = 0.0) -> str:
    """A tick label for a cost: 500, 20k, 3M, 1.5G (or 0.001 below one)."""
    if value <= 0:
        return "0"
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if value >= size:
            return f"{value / size:g}{unit}"
    return f"{value:g}"


def reciprocal_tick(value: float, _position: float = 0.0) -> str:
    """A tick label on a reciprocal axis: the figure ``1 / value`` (see the module docstring)."""
    return cost_tick(1 / value) if value > 0 else "∞"


class PlotCanvas:
    """One reusable figure on which Pareto plots are drawn one after another (not thread-safe)."""

    def __init__(self) -> None:
        import matplotlib

        matplotlib.use("Agg", force=False)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        with matplotlib.rc_context(RC):
            self._fig = Figure(figsize=(7.5, 4.6), dpi=100)
            FigureCanvasAgg(self._fig)
            self._ax = self._fig.add_axes((0.09, 0.11, 0.66, 0.8))
            self._ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
        self._artists: list[Any] = []

    def _clear(self) -> None:
        from matplotlib.transforms import Bbox

        for artist in self._artists:
            artist.remove()
        self._artists = []
        ax = self._ax
        ax.dataLim = Bbox.null()
        ax.ignore_existing_data_limits = True
        ax.set_autoscale_on(True)

    def draw(
        self,
        points: Sequence[Point],
        title: str,
        xlabel: str,
        ylabel: str,
        out_base: Path,
        formats: Sequence[str] = ("png", "svg"),
        reciprocal_x: bool = False,
    ) -> list[Path]:
        """Draw ``points`` with their step frontier and sweeps; writes ``out_base.<fmt>`` per format.

        ``reciprocal_x``: the points' costs are reciprocals of a higher-is-better figure (see the module).
        """
        import matplotlib

        with matplotlib.rc_context(RC):
            self._clear()
            self._plot(points, reciprocal_x)
            ax = self._ax
            ax.set_title(_short(title, TITLE_CHARS), y=1.0, pad=6.0)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            out_base.parent.mkdir(parents=True, exist_ok=True)
            written = []
            for fmt in formats:
                path = out_base.with_name(out_base.name + "." + fmt)
                if fmt == "png":
                    self._fig.savefig(path, format=fmt, pil_kwargs={"compress_level": PNG_COMPRESSION})
                else:
                    self._fig.savefig(path, format=fmt, metadata={"Date": None} if fmt == "svg" else None)
                written.append(path)
        return written

    def _plot(self, points: Sequence[Point], reciprocal_x: bool) -> None:
        from matplotlib.collections import LineCollection
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        ax = self._ax
        floor = log_floor([p.cost for p in usable(points)])
        drawn = [Point(on_log_axis(p.cost, floor), p.score, p.label, p.group, p.meta) for p in usable(points)]
        style = point_styles(drawn)
        names = list(style)
        columns = 1 if len(names) <= LEGEND_ROWS else 2
        ax.set_position((0.09, 0.11, 0.66 if columns == 1 else 0.54, 0.8))
        lines = [
            ([(p.cost, p.score) for p in members], style[members[0].label][0]) for members in sweeps(drawn).values()
        ]
        if lines:
            self._artists.append(
                ax.add_collection(
                    LineCollection(
                        [xy for xy, _ in lines], colors=[c for _, c in lines], linewidths=1.0, alpha=0.7, zorder=2
                    )
                )
            )
        for marker in dict.fromkeys(marker for _, marker in style.values()):
            members = [p for p in drawn if style[p.label][1] == marker]
            self._artists.append(
                ax.scatter(
                    [p.cost for p in members],
                    [p.score for p in members],
                    marker=marker,
                    s=34,
                    c=[style[p.label][0] for p in members],
                    edgecolors="black",
                    linewidths=0.5,
                    zorder=3,
                )
            )
        self._error_bars(drawn)
        if not drawn:
            ax.set_xscale("linear")
            self._artists.append(
                ax.text(0.5, 0.5, "no points with a cost and a score", ha="center", va="center", transform=ax.transAxes)
            )
            return
        front = frontier(drawn)
        entries: list[tuple[str, str | None, str | None]] = [
            (_short(name, 24), *style[name]) for name in _legend_names(names, front)
        ]
        if len(entries) < len(names):
            entries.append((f"+{len(names) - len(entries)} more (see table)", None, None))
        xs, ys = step_curve(drawn, max(p.cost for p in drawn))
        self._artists += ax.plot(xs, ys, color="black", linestyle="--", linewidth=1.0, zorder=4)
        entries.append(("Pareto frontier", "black", "--"))
        middle = (front[0].cost * front[-1].cost) ** 0.5
        placed: list[tuple[float, float, float, float]] = []
        labelled = front[:MAX_LABELS]
        texts = [_short(point.label) for point in labelled]
        ax.autoscale_view()
        anchors = ax.transData.transform([(point.cost, point.score) for point in labelled])
        for point, text, (x, y) in zip(labelled, texts, anchors, strict=True):
            right_half = len(front) > 1 and (point.cost > middle) != reciprocal_x
            offset = _free_offset(x, y, len(text), right_half, placed)
            if offset is None:
                continue
            self._artists.append(
                ax.annotate(
                    text,
                    (point.cost, point.score),
                    textcoords="offset pixels",
                    xytext=offset,
                    ha="right" if right_half else "left",
                    fontsize=7.5,
                    zorder=5,
                )
            )
        if ax.get_xscale() != "log":
            ax.set_xscale("log")
        low, high = cost_window([p.cost for p in drawn])
        ax.set_xlim((high, low) if reciprocal_x else (low, high))
        span = math.log10(high / low)
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if span < 2.5 else (1.0,), numticks=10))
        ax.xaxis.set_major_formatter(FuncFormatter(reciprocal_tick if reciprocal_x else cost_tick))
        ax.xaxis.set_minor_formatter(NullFormatter())
        self._legend(entries, columns)

    def _error_bars(self, drawn: Sequence[Point]) -> None:
        """Grey 95% interval bars on both axes of the points whose ``meta`` carries them."""
        for point in drawn:
            x_ci, score_ci = point.meta.get("x_ci"), point.meta.get("score_ci")
            if not (x_ci or score_ci):
                continue
            xerr = [[max(0.0, point.cost - x_ci[0])], [max(0.0, x_ci[1] - point.cost)]] if x_ci else None
            yerr = [[max(0.0, point.score - score_ci[0])], [max(0.0, score_ci[1] - point.score)]] if score_ci else None
            bars = self._ax.errorbar(
                [point.cost],
                [point.score],
                xerr=xerr,
                yerr=yerr,
                fmt="none",
                ecolor="#888888",
                elinewidth=0.7,
                zorder=1,
            )
            self._artists.extend(bars.lines[2])

    def _legend(self, entries: list[tuple[str, str | None, str | None]], columns: int) -> None:
        """The legend right of the axes: per row one text and its marker, on one line in every backend.

        Drawn by hand rather than with ``Axes.legend``, whose per-entry layout cost as much as
        the rest of the plot: ``entries`` are (label, colour, marker), a marker of "--" is a
        dashed line and None draws nothing. Rows are placed in points (``LEGEND_LINESPACING``
        times the font size apart), so SVG and PNG agree; one multi-line text per column did not
        (the SVG backend spaces lines differently from Agg, and the markers drifted off their names).
        """
        from matplotlib.collections import PathCollection
        from matplotlib.lines import Line2D
        from matplotlib.markers import MarkerStyle
        from matplotlib.transforms import IdentityTransform

        fig = self._fig
        fontsize = 7 if columns == 1 else 6
        rows = -(-len(entries) // columns)
        step = fontsize * LEGEND_LINESPACING / 72 / fig.get_figheight()
        left = self._ax.get_position().x1 + 0.015
        width = (0.995 - left) / columns
        top = 0.51 + (rows - 1) * step / 2
        markers: dict[str, list[tuple[tuple[float, float], str]]] = {}
        for index, (label, colour, marker) in enumerate(entries):
            x = left + (index // rows) * width
            y = top - (index % rows) * step
            self._artists.append(fig.text(x + 0.022, y, label, va="center_baseline", ha="left", fontsize=fontsize))
            if marker == "--":
                self._artists.append(
                    fig.add_artist(Line2D([x, x + 0.018], [y, y], color=colour, linestyle="--", linewidth=1.0))
                )
            elif marker is not None and colour is not None:
                markers.setdefault(marker, []).append(((x + 0.009, y), colour))
        for marker, placed in markers.items():
            style = MarkerStyle(marker)
            self._artists.append(
                fig.add_artist(
                    PathCollection(
                        [style.get_path().transformed(style.get_transform())],
                        sizes=[26],
                        offsets=[xy for xy, _ in placed],
                        offset_transform=fig.transFigure,
                        transform=IdentityTransform(),
                        facecolors=[colour for _, colour in placed],
                        edgecolors="black",
                        linewidths=0.5,
                    )
                )
            )


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


_CANVAS: list[PlotCanvas] = []


def canvas() -> PlotCanvas:
    """This process's shared :class:`PlotCanvas` (made on first use)."""
    if not _CANVAS:
        _CANVAS.append(PlotCanvas())
    return _CANVAS[0]


def pareto_plot(
    points: Sequence[Point],
    title: str,
    xlabel: str,
    ylabel: str,
    out_base: Path,
    formats: Sequence[str] = ("png", "svg"),
    reciprocal_x: bool = False,
) -> list[Path]:
    """Draw ``points`` with their step frontier and sweeps; writes ``out_base.<fmt>`` per format.

    ``reciprocal_x``: the costs are reciprocals of a higher-is-better figure (output tok/s; see the module).
    """
    return canvas().draw(points, title, xlabel, ylabel, out_base, formats, reciprocal_x)
