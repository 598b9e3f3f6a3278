"""CPU time of ``frontier report`` over a few runs, and of its head-to-head forest plots drawn both ways.

Makes ``--runs`` small offline runs (demo/arith and longcot-gen/math, 20 samples each, the oracle
and the random baseline in turn), then times ``frontier report`` over them in a fresh process
(CPU seconds of the process and its children, median of ``--repeat``), each into a new folder and then
again over an unchanged site (whose identical files a rebuild links), beside ``python -c pass``.
Then draws the same forest plots (one per pair of runs, three tasks each) with the SVG writer the
site uses and with matplotlib (SVG and PNG, as the site did before), and prints the ratio.
Ends with one line of JSON: ``{"runs", "report_cpu_s", "report_rebuild_cpu_s", "python_cpu_s", "forest_plots",
"forest_svg_s", "forest_matplotlib_s", "forest_ratio"}``.

Run: ``python benchmarks/report_build.py [--runs 5] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.testing.cpu_time import median_cpu_s

MATPLOTLIB_RC = {"font.size": 9, "svg.fonttype": "none", "axes.spines.top": False, "axes.spines.right": False}
"""The settings the site's matplotlib plots were drawn with."""
ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}


def make_runs(root: Path, count: int) -> list[Path]:
    """``count`` finished runs under ``root``, alternating the oracle and the random baseline."""
    runs = []
    for index in range(count):
        model = "builtin/oracle" if index % 2 == 0 else "builtin/random"
        out = root / f"run-{index}"
        tasks = ["--task", "demo/arith", "--task", "longcot-gen/math"]
        options = ["--model", model, "--seed", str(index), "--limit", "20", "--out", str(out)]
        subprocess.run(
            [sys.executable, "-m", "harness", "run", *tasks, *options],
            check=True,
            capture_output=True,
            env=ENV,
        )
        runs.append(out)
    return runs


def matplotlib_forest(rows: list[dict[str, Any]], title: str, base: Path) -> None:
    """The forest plot as the site drew it with matplotlib before (Agg; SVG and PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    with matplotlib.rc_context(MATPLOTLIB_RC):
        figure = Figure(figsize=(7.5, 1.4 + 0.32 * len(rows)))
        axes = figure.add_subplot()
        positions = list(range(len(rows)))
        diffs = [row["diff"] for row in rows]
        errors = [[row["diff"] - row["ci"][0] for row in rows], [row["ci"][1] - row["diff"] for row in rows]]
        axes.errorbar(diffs, positions, xerr=errors, fmt="o", color="#0072B2", ecolor="#0072B2", capsize=3)
        axes.axvline(0.0, color="#555555", linestyle="--", linewidth=1)
        axes.set_yticks(positions, labels=[f"{row['task']} ({row['metric']})" for row in rows])
        axes.set_ylim(len(rows) - 0.5, -0.5)
        axes.set_xlabel("difference B − A with 95% CI (paired bootstrap)")
        axes.set_title(title, loc="left")
        figure.tight_layout()
        figure.savefig(base.parent / f"{base.name}.svg")
        figure.savefig(base.parent / f"{base.name}.png", dpi=100)


def forest_seconds(plots: int, folder: Path) -> tuple[float, float]:
    """CPU seconds to draw ``plots`` forest plots of three tasks with the SVG writer, then with matplotlib."""
    from leaderboard.forest import forest_plot

    rows = [
        {"task": f"family/task-{i}", "metric": "accuracy", "diff": 0.1 * i - 0.1, "ci": (0.1 * i - 0.2, 0.1 * i)}
        for i in range(3)
    ]
    started = time.process_time()
    for index in range(plots):
        forest_plot(rows, f"pair {index}", folder / f"svg-{index}")
    svg_s = time.process_time() - started
    matplotlib_forest(rows, "warm-up", folder / "warm-up")  # the import and font cache, paid once either way
    started = time.process_time()
    for index in range(plots):
        matplotlib_forest(rows, f"pair {index}", folder / f"mpl-{index}")
    return svg_s, time.process_time() - started


def main() -> None:
    """Make the runs, time the report and the forest plots, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        runs = make_runs(root, args.runs)
        report = [sys.executable, "-m", "harness", "report", *map(str, runs), "-o"]
        fresh = [median_cpu_s([*report, str(root / f"site-{i}")], 1, ENV) for i in range(args.repeat)]
        report_cpu = statistics.median(fresh)  # each into a new folder
        rebuild_cpu = median_cpu_s([*report, str(root / "site-0")], args.repeat, ENV)  # over an unchanged site
        python_cpu = median_cpu_s([sys.executable, "-c", "pass"], args.repeat, ENV)
        plots = args.runs * (args.runs - 1) // 2
        svg_s, mpl_s = forest_seconds(plots, root)
    print(
        f"frontier report over {args.runs} runs: {report_cpu:.2f} s of CPU into a new folder, {rebuild_cpu:.2f} s "
        f"rebuilding an unchanged site (python -c pass: {python_cpu:.2f} s)"
    )
    print(
        f"{plots} forest plots: {svg_s * 1000:.0f} ms as SVG directly, {mpl_s * 1000:.0f} ms through matplotlib "
        f"({mpl_s / svg_s:.0f}x)"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    figures = {
        "runs": args.runs,
        "report_cpu_s": round(report_cpu, 3),
        "report_rebuild_cpu_s": round(rebuild_cpu, 3),
        "python_cpu_s": round(python_cpu, 3),
        "forest_plots": plots,
        "forest_svg_s": round(svg_s, 4),
        "forest_matplotlib_s": round(mpl_s, 3),
        "forest_ratio": round(mpl_s / svg_s, 1),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
