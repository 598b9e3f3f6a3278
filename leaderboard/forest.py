"""A forest plot of paired differences (matplotlib, Agg), written as PNG and SVG."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from leaderboard.plots import RC

ROW_INCHES = 0.32
LABEL_CHARS = 40


def forest_plot(rows: Sequence[dict[str, Any]], title: str, base: Path) -> None:
    """One line per task: the difference (``diff``) as a dot and its 95 % CI (``ci``) as a bar, 0 dashed.

    Written to ``base`` + ``.svg`` (the page shows it) and ``.png``; a task is labelled by its name and metric.
    """
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    with matplotlib.rc_context(RC):
        figure = Figure(figsize=(7.5, 1.4 + ROW_INCHES * len(rows)))
        axes = figure.add_subplot()
        positions = list(range(len(rows)))
        diffs = [row["diff"] for row in rows]
        below = [row["diff"] - row["ci"][0] for row in rows]
        above = [row["ci"][1] - row["diff"] for row in rows]
        axes.errorbar(diffs, positions, xerr=[below, above], fmt="o", color="#0072B2", ecolor="#0072B2", capsize=3)
        axes.axvline(0.0, color="#555555", linestyle="--", linewidth=1)
        labels = [f"{row['task']} ({row['metric']})"[:LABEL_CHARS].replace("$", r"\$") for row in rows]
        axes.set_yticks(positions, labels=labels)
        axes.set_ylim(len(rows) - 0.5, -0.5)
        axes.set_xlabel("difference B − A with 95% CI (paired bootstrap)")
        axes.set_title(title[:90].replace("$", r"\$"), loc="left")
        figure.tight_layout()
        figure.savefig(base.parent / f"{base.name}.svg")
        figure.savefig(base.parent / f"{base.name}.png", dpi=100)
