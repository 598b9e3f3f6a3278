"""CLEAR against uniform, proportional and oracle allocations on synthetic curves with known truth.

The world: N queries whose true accuracy curves come from the shifted-surge family
(shared ceiling and scale; thresholds τ_i log-normal). What CLEAR sees is noisy:
predicted thresholds τ̂_i = τ_i · exp(ε_i), ε_i ~ N(0, σ) (σ = 0.2 by default: a typical
prediction is 20% off), and α, β fitted on a separate calibration run of 0/1 outcomes
at random budgets (using the predicted thresholds, as a real calibration would).
Accuracy is the expected accuracy under the TRUE curves of the tokens each allocator
gives. The oracle is CLEAR's solver given the true curves. The stream variant allocates
windows of queries in arrival order with λ carried from window to window.

Usage: python benchmarks/clear_synthetic.py [--queries 2000] [--noise 0.2] [--out curves.json]
Ends with one line of JSON: {"clear_vs_uniform", "clear_vs_oracle", ...} at the scarcest budget.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.methods.clear.baselines import proportional, uniform
from harness.methods.clear.calibrate import fit_surge
from harness.methods.clear.solver import Curves, allocate
from harness.methods.clear.stream import allocate_stream
from harness.methods.clear.utility import ShiftedSurge

TRUE_CEILING, TRUE_SCALE = 0.92, 400.0
TAU_MEDIAN, TAU_SPREAD = 1500.0, 0.9
PER_QUERY_BUDGETS = (1000, 1500, 2000, 3000, 4000, 6000, 8000)
CALIBRATION_QUERIES = 400
WINDOW = 100


def world(rng: np.random.Generator, n: int, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """True thresholds and their noisy predictions."""
    taus = rng.lognormal(np.log(TAU_MEDIAN), TAU_SPREAD, n)
    return taus, taus * np.exp(rng.normal(0.0, noise, n))


def calibrated_family(rng: np.random.Generator, noise: float, truth: ShiftedSurge) -> ShiftedSurge:
    """α, β fitted on 0/1 outcomes of calibration queries at random budgets, seen through predicted τ."""
    taus, predicted = world(rng, CALIBRATION_QUERIES, noise)
    budgets = taus + rng.uniform(-1000, 3000, CALIBRATION_QUERIES)
    budgets = np.maximum(budgets, 0.0)
    outcomes = rng.random(CALIBRATION_QUERIES) < truth.utility(budgets - taus)
    return fit_surge(budgets, predicted, outcomes.astype(float))


def run(n: int, noise: float, seed: int) -> dict[str, object]:
    """Accuracy of every allocator at every budget, for one noise level."""
    rng = np.random.default_rng(seed)
    truth = ShiftedSurge.from_ceiling(TRUE_CEILING, TRUE_SCALE)
    taus, predicted = world(rng, n, noise)
    fitted = calibrated_family(rng, noise, truth)
    true_curves, seen = Curves.of(taus, truth), Curves.of(predicted, fitted)
    windows = [Curves.of(predicted[i : i + WINDOW], fitted) for i in range(0, n, WINDOW)]
    rows = []
    for per_query in PER_QUERY_BUDGETS:
        budget = per_query * n
        allocations = {
            "uniform": uniform(seen, budget),
            "proportional": proportional(seen, budget),
            "clear": allocate(seen, budget).budgets,
            "clear_stream": allocate_stream(windows, budget).budgets,
            "oracle": allocate(true_curves, budget).budgets,
        }
        row: dict[str, object] = {"budget": budget, "per_query": per_query}
        for name, budgets in allocations.items():
            assert int(budgets.sum()) <= budget, f"{name} overspent"
            row[name] = float(true_curves.utility(budgets).mean())
        rows.append(row)
    return {
        "noise": noise,
        "fitted": {"ceiling": fitted.ceiling, "scale": 1 / fitted.beta},
        "truth": {"ceiling": TRUE_CEILING, "scale": TRUE_SCALE},
        "rows": rows,
    }


def main() -> None:
    """Run the noise levels, print the tables, write the curves, end with the JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--noise", type=float, default=0.2, help="σ of the log-normal error of predicted τ")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("clear_synthetic_curves.json"))
    args = parser.parse_args()
    started = time.perf_counter()
    levels = sorted({0.0, 0.1, args.noise, 0.4})
    results = {level: run(args.queries, level, args.seed) for level in levels}
    for level, result in results.items():
        fitted = result["fitted"]
        print(
            f"\nτ noise σ={level:.2f}  fitted ceiling {fitted['ceiling']:.3f} (true {TRUE_CEILING}), "
            f"scale {fitted['scale']:.0f} (true {TRUE_SCALE:.0f})"
        )
        print(
            f"{'tokens/query':>12} {'uniform':>8} {'propor.':>8} {'CLEAR':>8} {'stream':>8} {'oracle':>8} "
            f"{'C/unif':>7} {'C/orac':>7}"
        )
        for row in result["rows"]:
            print(
                f"{row['per_query']:>12} {row['uniform']:>8.4f} {row['proportional']:>8.4f} {row['clear']:>8.4f} "
                f"{row['clear_stream']:>8.4f} {row['oracle']:>8.4f} {row['clear'] / max(row['uniform'], 1e-12):>7.2f} "
                f"{row['clear'] / row['oracle']:>7.3f}"
            )
    args.out.write_text(
        json.dumps(
            {"queries": args.queries, "seed": args.seed, "levels": [results[level] for level in levels]}, indent=1
        )
    )
    print(f"\ncurves written to {args.out} ({time.perf_counter() - started:.1f} s)")
    scarce = results[args.noise]["rows"][0]
    print(
        json.dumps(
            {
                "clear_vs_uniform": round(scarce["clear"] / max(scarce["uniform"], 1e-12), 3),
                "clear_vs_oracle": round(scarce["clear"] / scarce["oracle"], 4),
                "noise": args.noise,
                "per_query_budget": scarce["per_query"],
                "queries": args.queries,
            }
        )
    )


if __name__ == "__main__":
    main()
