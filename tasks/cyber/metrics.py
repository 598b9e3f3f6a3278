"""Task-level metrics of the cyber family, each with its sample count and a 95% CI.

- CVSS prediction: mean absolute deviation (MAD) of base scores over valid predictions,
  exact base-vector match and the share of invalid vectors over all rows.
- Technique extraction: per-sample F1 averaged over samples (over all rows and over
  parsed answers) and micro precision, recall and F1 from pooled counts.
- Duplicated prompts with different ground truths: how many rows they cover and the
  accuracy ceiling they leave a deterministic model (one answer per distinct prompt).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from harness.api import MetricValue, SampleResult, mean_metric, proportion_metric
from scorers.set_f1 import SetMatch, match_sets


def vector_metrics(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """``mad`` (over valid predictions), ``exact_vector`` and ``invalid_rate`` (over all rows).

    Rows whose evaluation failed (outcome ``error``) are left out; an unparseable or
    invalid vector is unscored and counts as invalid and not exact.
    """
    deviations: list[float] = []
    rows = exact = invalid = 0
    for result in results:
        if result.score.outcome == "error":
            continue
        rows += 1
        if result.score.outcome == "unscored":
            invalid += 1
            continue
        deviation = result.score.details.get("abs_deviation")
        if isinstance(deviation, (int, float)):
            deviations.append(float(deviation))
        exact += int(bool(result.score.correct))
    return {
        "mad": mean_metric(deviations, seed=seed, kind="mean"),
        "exact_vector": proportion_metric(exact, rows),
        "invalid_rate": proportion_metric(invalid, rows),
    }


def _match_of(result: SampleResult) -> SetMatch:
    """The counts of one technique-extraction result; an unscored answer predicts nothing."""
    details = result.score.details
    if result.score.outcome == "scored" and all(isinstance(details.get(k), int) for k in ("tp", "fp", "fn")):
        return SetMatch(tp=details["tp"], fp=details["fp"], fn=details["fn"])
    target = result.target if isinstance(result.target, (list, tuple)) else []
    return match_sets([], [str(t) for t in target])


def set_metrics(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """Macro F1 (all rows; parsed rows), micro precision/recall/F1 and exact-set accuracy."""
    from harness.api import ratio_metric

    f1_all: list[float] = []
    f1_scored: list[float] = []
    tp2: list[float] = []
    f1_den: list[float] = []
    tp: list[float] = []
    p_den: list[float] = []
    r_den: list[float] = []
    exact = 0
    for result in results:
        if result.score.outcome == "error":
            continue
        match = _match_of(result)
        f1_all.append(match.f1 if result.score.outcome == "scored" else 0.0)
        if result.score.outcome == "scored":
            f1_scored.append(match.f1)
            exact += int(match.exact)
        tp2.append(2.0 * match.tp)
        f1_den.append(2.0 * match.tp + match.fp + match.fn)
        tp.append(float(match.tp))
        p_den.append(float(match.tp + match.fp))
        r_den.append(float(match.tp + match.fn))
    return {
        "f1_macro": mean_metric(f1_all, seed=seed, kind="mean"),
        "f1_macro_scored": mean_metric(f1_scored, seed=seed, kind="mean"),
        "f1_micro": ratio_metric(tp2, f1_den, seed=seed),
        "precision_micro": ratio_metric(tp, p_den, seed=seed),
        "recall_micro": ratio_metric(tp, r_den, seed=seed),
        "exact_set": proportion_metric(exact, len(f1_all)),
    }


def conflict_metrics(results: Iterable[SampleResult]) -> dict[str, MetricValue]:
    """``duplicate_conflict_rows`` and ``ceiling_accuracy`` over the rows of a run.

    Rows whose model input is the same but whose targets differ cannot all be answered
    right by a model that gives one answer per input: at best the most common target of
    each such group. The ceiling is the share of rows left answerable.
    """
    groups: dict[object, Counter[str]] = {}
    for result in results:
        key = (
            result.input
            if isinstance(result.input, str)
            else tuple((m.role, m.content, m.name, m.tool_call_id, m.tool_calls) for m in result.input)
        )
        target = result.target if isinstance(result.target, str) else json.dumps(result.target, sort_keys=True)
        groups.setdefault(key, Counter())[target] += 1
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
