"""Start time of ``frontier --help`` beside ``python -c pass``, and a check of what it imports.

``frontier --help`` must not import litellm, datasets, pandas, matplotlib or inspect_ai.
Ends with one line of JSON: ``{"help_start_s", "python_start_s"}`` (medians of several runs).

Run: ``python benchmarks/cli_startup.py [--runs 11]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

HEAVY = ("litellm", "datasets", "pandas", "matplotlib", "inspect_ai")


def median_seconds(command: list[str], runs: int) -> float:
    """Median wall time of ``command`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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
    heavy = heavy_imports_of_help()
    print(f"python -c pass:  {python_s * 1000:.0f} ms")
    print(f"frontier --help: {help_s * 1000:.0f} ms (target: well under 500 ms)")
    print(f"heavy modules imported by --help: {', '.join(heavy) or 'none'}")
    print(json.dumps({"help_start_s": round(help_s, 3), "python_start_s": round(python_s, 3)}))


if __name__ == "__main__":
    main()
