"""``frontier export lm-eval`` of one task: what it imports now, beside what it used to import.

Before issue 20 item 6, the exporter imported ``harness.interop.inspect_tasks`` for a name helper,
and that import registered every task with inspect-ai: inspect_ai and every family were loaded
for any export. The old path is reproduced by importing that module first (which is exactly what
the old ``lm_eval_export`` did); the new path is the command alone. Both export ``demo/arith``
(``--limit 2``) in a fresh interpreter; ``--help`` is timed too.

Ends with one line of JSON: ``{"export_s", "export_with_inspect_registration_s", "ratio",
"help_s", "export_imports_inspect_ai"}`` (medians of several runs).

Run: ``python benchmarks/export_start.py [--runs 5]``
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

PROBE = """
import sys
{prelude}
from harness.cli.main import main
try:
    main({argv!r})
except SystemExit:
    pass
print("INSPECT:" + str("inspect_ai" in sys.modules))
"""


def run_probe(argv: list[str], prelude: str = "") -> tuple[float, bool]:
    """Wall time of ``frontier ARGV`` in a fresh interpreter, and whether it imported inspect_ai."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "FRONTIER_CACHE_DIR": ""}
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(prelude=prelude, argv=argv)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    elapsed = time.perf_counter() - started
    return elapsed, done.stdout.strip().splitlines()[-1] == "INSPECT:True"


def median_of(argv: list[str], runs: int, prelude: str = "") -> tuple[float, bool]:
    """Median wall time over ``runs`` runs, and whether any run imported inspect_ai."""
    results = [run_probe(argv, prelude) for _ in range(runs)]
    return statistics.median(t for t, _ in results), any(imported for _, imported in results)


def main() -> None:
    """Time the export both ways and ``--help``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        export = ["export", "lm-eval", folder, "--task", "demo/arith", "--limit", "2"]
        new_s, new_inspect = median_of(export, args.runs)
        old_s, old_inspect = median_of(export, args.runs, prelude="import harness.interop.inspect_tasks")
    help_s, help_inspect = median_of(["export", "lm-eval", "--help"], args.runs)
    print(f"export demo/arith now:                   {new_s:.2f} s (imports inspect_ai: {new_inspect})")
    print(f"export with every task registered first: {old_s:.2f} s (imports inspect_ai: {old_inspect})")
    print(f"ratio: {old_s / new_s:.1f}x; export lm-eval --help: {help_s:.2f} s (imports inspect_ai: {help_inspect})")
    figures = {
        "export_s": round(new_s, 3),
        "export_with_inspect_registration_s": round(old_s, 3),
        "ratio": round(old_s / new_s, 2),
        "help_s": round(help_s, 3),
        "export_imports_inspect_ai": new_inspect or help_inspect,
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
