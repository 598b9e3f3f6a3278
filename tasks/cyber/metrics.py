"""Task-level metrics of the cyber family, each with its sample count and a 95% CI.

- CVSS prediction: mean absolute deviation (MAD) of base scores over valid predictions (its
  scale declared: 0 to 10 points, lower is better), exact base-vector match and the share of
  invalid vectors over all rows.
- Technique extraction: per-sample F1 averaged over samples (over all rows and over
  parsed answers) and micro precision, recall and F1 from pooled counts.
- Duplicated prompts with different ground truths: how many rows they cover and the
  accuracy ceiling they leave a deterministic model (one answer per distinct prompt).
"""

from __future__ import annotations

import json
from collections import Counter

from harness.api import MetricScale, MetricValue, SampleResult, mean_metric, proportion_metric, ratio_metric, scaled
from scorers.set_f1 import SetMatch, match_sets

CVSS_DEVIATION = MetricScale(low=0.0, high=10.0, higher_is_better=False)
"""``mad``'s scale: a distance between two CVSS base scores (0 to 10 points), lower is better."""


class VectorAccumulator:
    """``mad`` (over valid predictions), ``exact_vector`` and ``invalid_rate`` (over all rows).

    Rows whose evaluation failed (outcome ``error``) are left out; an unparseable or
    invalid vector is unscored and counts as invalid and not exact.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.deviations: list[float] = []
        self.rows = self.exact = self.invalid = 0

    def add(self, result: SampleResult) -> None:
        """Count the row; record a valid vector's deviation and whether it is exact."""
        if result.score.outcome == "error":
            return
        self.rows += 1
        if result.score.outcome == "unscored":
            self.invalid += 1
            return
        deviation = result.score.details.get("abs_deviation")
        if isinstance(deviation, (int, float)):
            self.deviations.append(float(deviation))
        self.exact += int(bool(result.score.correct))

    def finish(self) -> dict[str, MetricValue]:
        """The three metrics with their n and 95% CI."""
        return {
            "mad": scaled(mean_metric(self.deviations, seed=self.seed, kind="mean"), CVSS_DEVIATION),
            "exact_vector": proportion_metric(self.exact, self.rows),
            "invalid_rate": proportion_metric(self.invalid, self.rows),
        }


def _match_of(result: SampleResult) -> SetMatch:
    """The counts of one technique-extraction result; an unscored answer predicts nothing."""
    details = result.score.details
    if result.score.outcome == "scored" and all(isinstance(details.get(k), int) for k in ("tp", "fp", "fn")):
        return SetMatch(tp=details["tp"], fp=details["fp"], fn=details["fn"])
    target = result.target if isinstance(result.target, (list, tuple)) else []
    return match_sets([], [str(t) for t in target])


class SetAccumulator:
    """Macro F1 (all rows; parsed rows), micro precision/recall/F1 and exact-set accuracy."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.f1_all: list[float] = []
        self.f1_scored: list[float] = []
        self.tp2: list[float] = []
        self.f1_den: list[float] = []
        self.tp: list[float] = []
        self.p_den: list[float] = []
        self.r_den: list[float] = []
        self.exact = 0

    def add(self, result: SampleResult) -> None:
        """Record the row's F1 and its counts (an unscored answer predicts nothing); errors are left out."""
        if result.score.outcome == "error":
            return
        match = _match_of(result)
        self.f1_all.append(match.f1 if result.score.outcome == "scored" else 0.0)
        if result.score.outcome == "scored":
            self.f1_scored.append(match.f1)
            self.exact += int(match.exact)
        self.tp2.append(2.0 * match.tp)
        self.f1_den.append(2.0 * match.tp + match.fp + match.fn)
        self.tp.append(float(match.tp))
        self.p_den.append(float(match.tp + match.fp))
        self.r_den.append(float(match.tp + match.fn))

    def finish(self) -> dict[str, MetricValue]:
        """Means by bootstrap, micro ratios by paired bootstrap, the exact share by Wilson."""
        seed = self.seed
        return {
            "f1_macro": mean_metric(self.f1_all, seed=seed, kind="mean"),
            "f1_macro_scored": mean_metric(self.f1_scored, seed=seed, kind="mean"),
            "f1_micro": ratio_metric(self.tp2, self.f1_den, seed=seed),
            "precision_micro": ratio_metric(self.tp, self.p_den, seed=seed),
            "recall_micro": ratio_metric(self.tp, self.r_den, seed=seed),
            "exact_set": proportion_metric(self.exact, len(self.f1_all)),
        }


class ConflictAccumulator:
    """``duplicate_conflict_rows`` and ``ceiling_accuracy`` over the rows of a run.

    Rows whose model input is the same but whose targets differ cannot all be answered
    right by a model that gives one answer per input: at best the most common target of
    each such group. The ceiling is the share of rows left answerable.
    """

    def __init__(self) -> None:
        self.groups: dict[object, Counter[str]] = {}

    def add(self, result: SampleResult) -> None:
        """Count the row's target under its model input."""
        key = (
            result.input
            if isinstance(result.input, str)
            else tuple((m.role, m.content, m.name, m.tool_call_id, m.tool_calls) for m in result.input)
        )
        target = result.target if isinstance(result.target, str) else json.dumps(result.target, sort_keys=True)
        self.groups.setdefault(key, Counter())[target] += 1

    def finish(self) -> dict[str, MetricValue]:
        """The rows in conflicting groups (a count) and the ceiling (exact)."""
        groups = self.groups
        rows = sum(sum(counts.values()) for counts in groups.values())
        conflicting = [counts for counts in groups.values() if len(counts) > 1]
        covered = sum(sum(counts.values()) for counts in conflicting)
        lost = sum(sum(counts.values()) - max(counts.values()) for counts in conflicting)
        if rows == 0:
            return {
                "duplicate_conflict_rows": MetricValue(value=None, n=0, method="empty"),
                "ceiling_accuracy": MetricValue(value=None, n=0, method="empty"),
            }
        return {
            "duplicate_conflict_rows": MetricValue(
                value=float(covered), n=rows, method=f"count ({len(conflicting)} groups)"
            ),
            "ceiling_accuracy": MetricValue(
                value=(rows - lost) / rows,
                n=rows,
                ci_low=(rows - lost) / rows,
                ci_high=(rows - lost) / rows,
                method="exact",
            ),
        }
