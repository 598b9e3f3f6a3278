"""A forest plot of paired differences, written as SVG directly (a few shapes a row, no matplotlib).

A site draws one per head-to-head page, hundreds on a large leaderboard: through matplotlib each
cost about 0.1 s of CPU, written here about a millisecond.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from leaderboard.outputs import write_output

WIDTH, ROW, TOP, BOTTOM = 750, 26, 40, 52
PLOT_LEFT, PLOT_RIGHT = 320, 730
LABEL_CHARS = 44
COLOUR, ZERO_COLOUR = "#0072B2", "#555555"
FONT = 'font-family="DejaVu Sans, Arial, sans-serif" font-size="12"'


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering [low, high]."""
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    digits = max(0, 3 - math.floor(math.log10(step)))  # rounds away float noise, keeps the step's digits
    return [round(first + i * step, digits) + 0.0 for i in range(math.ceil((high - first) / step) + 1)]


def _label(row: dict[str, Any]) -> str:
    text = f"{row['task']} ({row['metric']})"
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def forest_svg(rows: Sequence[dict[str, Any]], title: str) -> str:
    """One line per task: the difference (``diff``) as a dot and its 95 % CI (``ci``) as a bar, 0 dashed."""
    drawn = [all(math.isfinite(v) for v in (row["diff"], *row["ci"])) for row in rows]
    finite = [row for row, ok in zip(rows, drawn, strict=True) if ok]
    low = min([0.0, *(r["ci"][0] for r in finite)])
    high = max([0.0, *(r["ci"][1] for r in finite)])
    pad = (high - low) * 0.05 or 0.5
    ticks = nice_ticks(low - pad, high + pad)
    start, end = ticks[0], ticks[-1]

    def x(value: float) -> float:
        return round(PLOT_LEFT + (value - start) / (end - start) * (PLOT_RIGHT - PLOT_LEFT), 2)

    height = TOP + ROW * len(rows) + BOTTOM
    axis_y = TOP + ROW * len(rows)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" {FONT}>',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="10" y="22" font-size="13">{escape(title[:90])}</text>',
        f'<line x1="{x(0.0)}" y1="{TOP - 6}" x2="{x(0.0)}" y2="{axis_y}" stroke="{ZERO_COLOUR}" '
        'stroke-dasharray="4 3"/>',
        f'<line x1="{PLOT_LEFT}" y1="{axis_y}" x2="{PLOT_RIGHT}" y2="{axis_y}" stroke="black"/>',
    ]
    for tick in ticks:
        parts.append(f'<line x1="{x(tick)}" y1="{axis_y}" x2="{x(tick)}" y2="{axis_y + 5}" stroke="black"/>')
        parts.append(f'<text x="{x(tick)}" y="{axis_y + 18}" text-anchor="middle">{tick:g}</text>')
    parts.append(
        f'<text x="{(PLOT_LEFT + PLOT_RIGHT) / 2}" y="{axis_y + 40}" text-anchor="middle">'
        "difference B − A with 95% CI (paired bootstrap)</text>"
    )
    for index, (row, ok) in enumerate(zip(rows, drawn, strict=True)):
        y = TOP + ROW * index + ROW / 2
        parts.append(f'<text x="{PLOT_LEFT - 10}" y="{y + 4}" text-anchor="end">{escape(_label(row))}</text>')
        if not ok:
            continue
        left, right = x(row["ci"][0]), x(row["ci"][1])
        parts.append(
            f'<path d="M{left},{y}H{right}M{left},{y - 4}V{y + 4}M{right},{y - 4}V{y + 4}" stroke="{COLOUR}"/>'
        )
        parts.append(f'<circle cx="{x(row["diff"])}" cy="{y}" r="4" fill="{COLOUR}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def forest_plot(rows: Sequence[dict[str, Any]], title: str, base: Path) -> None:
    """Write :func:`forest_svg` of ``rows`` to ``base`` + ``.svg``."""
    write_output(base.parent / f"{base.name}.svg", forest_svg(rows, title))
