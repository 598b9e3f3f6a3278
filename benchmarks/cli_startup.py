"""Start time of ``frontier --help`` and ``frontier list tasks`` beside ``python -c pass``, and what they import.

``frontier --help`` must not import litellm, datasets, pandas, matplotlib or inspect_ai.
``frontier list tasks`` is timed (CPU seconds of the process) as it runs, reading each family's
catalogue, and with the catalogues switched off, importing every family as it did before; the
ratio of the two is printed.
It also times ``--help`` in process (a fresh interpreter each run, the imports excluded) with the
``frontier.commands`` group read by the lean reader (:mod:`harness.entry_point_files`) and, for
comparison, by ``importlib.metadata.entry_points`` (how it was read before).
Ends with one line of JSON: ``{"help_start_s", "python_start_s", "help_in_process_s",
"help_in_process_importlib_s", "in_process_ratio", "python_cpu_s", "list_tasks_cpu_s",
"list_tasks_importing_families_cpu_s", "list_tasks_ratio"}`` (medians of several runs).

Run: ``python benchmarks/cli_startup.py [--runs 11]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from harness.testing.cpu_time import median_cpu_s

HEAVY = ("litellm", "datasets", "pandas", "matplotlib", "inspect_ai")


def median_seconds(command: list[str], runs: int) -> float:
    """Median wall time of ``command`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


IN_PROCESS = """
import contextlib, io, sys, time
from harness.cli.main import main
if sys.argv[1] == "importlib":
    import harness.entry_point_files as reader

    def scan(group):
        from importlib.metadata import entry_points  # imported on first use, as plugin_commands did

        return list(entry_points(group=group))

    reader.group_entries = scan
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main(["--help"])
    except SystemExit:
        pass
print(time.perf_counter() - started)
"""


def in_process_help_seconds(reader: str, runs: int) -> float:
    """Median time of ``main(['--help'])`` after its imports, each run in a fresh interpreter."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", IN_PROCESS, reader], check=True, capture_output=True, text=True
        ).stdout
        times.append(float(out.split()[-1]))
    return statistics.median(times)


LIST_TASKS = """
import sys
from harness import registry
from harness.cli.main import main
if sys.argv[1] == "families":
    registry._catalogue = lambda name: None  # as before the catalogues: every family imported
main(["list", "tasks"])
"""


def heavy_imports_of_help() -> list[str]:
    """Heavy modules that ``frontier --help`` imports (should be none)."""
    probe = (
        "import sys\nfrom harness.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"print('HEAVY:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    marker = [line for line in out.splitlines() if line.startswith("HEAVY:")][-1]
    return [name for name in marker.removeprefix("HEAVY:").split(",") if name]


def main() -> None:
    """Time both commands and list heavy imports."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    python_s = median_seconds([sys.executable, "-c", "pass"], args.runs)
    help_s = median_seconds([sys.executable, "-m", "harness", "--help"], args.runs)
    lean_s = in_process_help_seconds("lean", args.runs)
    importlib_s = in_process_help_seconds("importlib", args.runs)
    heavy = heavy_imports_of_help()
    ratio = importlib_s / lean_s
    python_cpu = median_cpu_s([sys.executable, "-c", "pass"], args.runs)
    listing_cpu = median_cpu_s([sys.executable, "-c", LIST_TASKS, "catalogues"], args.runs)
    families_cpu = median_cpu_s([sys.executable, "-c", LIST_TASKS, "families"], args.runs)
    print(f"python -c pass:  {python_s * 1000:.0f} ms")
    print(f"frontier --help: {help_s * 1000:.0f} ms (target: well under 500 ms)")
    print(f"--help in process, lean entry-point reader: {lean_s * 1000:.1f} ms")
    print(f"--help in process, importlib.metadata:      {importlib_s * 1000:.1f} ms ({ratio:.1f}x the lean reader)")
    print(f"heavy modules imported by --help: {', '.join(heavy) or 'none'}")
    print(f"python -c pass CPU: {python_cpu * 1000:.0f} ms")
    print(
        f"list tasks CPU, from the catalogues: {listing_cpu * 1000:.0f} ms ({listing_cpu / python_cpu:.1f}x python); "
        f"importing every family: {families_cpu * 1000:.0f} ms ({families_cpu / python_cpu:.1f}x python); "
        f"ratio {families_cpu / listing_cpu:.1f}x"
    )
    figures = {
        "help_start_s": round(help_s, 3),
        "python_start_s": round(python_s, 3),
        "help_in_process_s": round(lean_s, 4),
        "help_in_process_importlib_s": round(importlib_s, 4),
        "in_process_ratio": round(ratio, 2),
        "python_cpu_s": round(python_cpu, 3),
        "list_tasks_cpu_s": round(listing_cpu, 3),
        "list_tasks_importing_families_cpu_s": round(families_cpu, 3),
        "list_tasks_ratio": round(families_cpu / listing_cpu, 2),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
