"""Aggregate submissions with pandas: per task, per family and overall, with CIs and rank bands.

* A task's score is its primary metric on a 0..1 higher-is-better scale
  (:func:`leaderboard.metrics.normalised`); tasks with no finite range stay out of the means.
* A family's score is the mean of its tasks' scores; the overall score is the macro mean over
  families (each family weighs the same however many tasks it has).
* One interval method per metric kind everywhere: a task's CI is its metric's own (Wilson for a
  share, a seeded bootstrap for a mean, a paired bootstrap for a ratio of sums), the one the task
  pages and ``frontier show`` print. A family or overall mean combines its parts' own intervals by
  MOVER (:func:`mover_interval`): a mean of one task (or one family) has exactly that interval, the
  interval always contains the mean, and perfect small samples are never [1, 1].
* Ranks are bands: an entry's best rank is 1 + the entries whose CI lies wholly above its own;
  its worst rank is the count of entries whose CI does not lie wholly below it. Entries with
  overlapping CIs share ranks instead of getting a false order.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from leaderboard.metrics import normalised

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

AGGREGATE_CI_METHOD = "MOVER"
"""How family and overall intervals are made (named in the glossary's "95% CI")."""


def submission_id(data: dict[str, Any]) -> str:
    """The identity of a submission on the board: model, method and suite."""
    return f"{data['model']} | {data['method']['label']} | {data['suite']['name']}"


def cost_and_score(entry: dict[str, Any]) -> dict[str, Any]:
    """A task entry's place on the cost-versus-score plots: total tokens (input + output; None when some
    call's usage was not believed), the cost in USD (None unless known) and the primary metric on the
    0..1 scale (None without a finite range)."""
    metric = entry["metrics"][entry["primary_metric"]]
    usage = entry["usage"]
    return {
        "tokens": None if usage.get("unknown") else usage["input_tokens"] + usage["output_tokens"],
        "cost_usd": entry["cost_usd"] if entry["cost_known"] else None,
        "score": normalised(metric["value"], entry["primary_metric"], metric["method"], metric.get("scale")),
    }


def task_rows(submissions: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per (submission, task): the primary metric, its CI, the 0..1 score, tokens and cost."""
    import pandas as pd

    rows = []
    for data in submissions:
        sid = submission_id(data)
        for task, entry in data["tasks"].items():
            name = entry["primary_metric"]
            metric = entry["metrics"][name]
            usage = entry["usage"]
            low = normalised(metric["ci_low"], name, metric["method"], metric.get("scale"))
            high = normalised(metric["ci_high"], name, metric["method"], metric.get("scale"))
            if low is not None and high is not None and low > high:
                low, high = high, low
            rows.append(
                {
                    "submission": sid,
                    "model": data["model"],
                    "method": data["method"]["label"],
                    "suite": data["suite"]["name"],
                    "suite_version": data["suite"]["version"],
                    "task": task,
                    "family": entry["family"],
                    "metric": name,
                    "higher_is_better": entry["higher_is_better"],
                    "value": metric["value"],
                    "ci_low": metric["ci_low"],
                    "ci_high": metric["ci_high"],
                    "n": metric["n"],
                    "score_low": low,
                    "score_high": high,
                    "input_tokens": usage["input_tokens"],
                    "output_tokens": usage["output_tokens"],
                    "reasoning_tokens": usage["reasoning_tokens"],
                    **cost_and_score(entry),
                }
            )
    columns = [
        "submission",
        "model",
        "method",
        "suite",
        "suite_version",
        "task",
        "family",
        "metric",
        "higher_is_better",
        "value",
        "ci_low",
        "ci_high",
        "n",
        "score",
        "score_low",
        "score_high",
        "input_tokens",
        "output_tokens",
        "reasoning_tokens",
        "tokens",
        "cost_usd",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    for column in ("value", "ci_low", "ci_high", "score", "score_low", "score_high", "cost_usd"):
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    return frame


def mover_interval(scores: np.ndarray, lows: np.ndarray, highs: np.ndarray) -> tuple[float, float]:
    """The 95% interval of the mean of ``scores`` from each part's own 95% interval, by MOVER.

    The method of variance estimates recovery (Zou and Donner 2008) for a sum of independent
    estimates with weights w (here 1/k each): lower = mean − sqrt(Σ (w·(score − low))²), upper =
    mean + sqrt(Σ (w·(high − score))²). Each side keeps its parts' own asymmetry (a Wilson interval
    at 1.0 reaches down, not up), the interval always contains the mean, and a mean of one part has
    exactly that part's interval. A part without a finite interval adds no width. Clipped to [0, 1].
    """
    import numpy as np

    weight = 1.0 / scores.size
    below = np.where(np.isfinite(lows), np.maximum(scores - lows, 0.0), 0.0) * weight
    above = np.where(np.isfinite(highs), np.maximum(highs - scores, 0.0), 0.0) * weight
    mean = float(scores.mean())
    return max(0.0, mean - float(np.sqrt(np.sum(below**2)))), min(1.0, mean + float(np.sqrt(np.sum(above**2))))


def overall_rows(submissions: list[dict[str, Any]], tasks: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per submission: family scores and the overall macro mean, each with a 95% CI.

    Returns (families, overall): ``families`` has one row per (submission, family),
    ``overall`` one row per submission with tokens, cost, task count and CI method. A
    submission's intervals depend on its own tasks only: adding a submission to the board never
    moves another's.
    """
    import numpy as np
    import pandas as pd

    scored = tasks.dropna(subset=["score"])
    columns = {
        name: scored[name].to_numpy(dtype=float if name.startswith("score") else object)
        for name in ("task", "family", "score", "score_low", "score_high")
    }
    positions = scored.groupby("submission", sort=False).indices
    family_rows, overall_rows_ = [], []
    for sid in scored["submission"].unique():
        rows = {name: column[positions[sid]] for name, column in columns.items()}
        families = rows["family"]
        scores = rows["score"]
        names = sorted(set(families))
        masks = [families == family for family in names]
        family_scores = np.array([scores[mask].mean() for mask in masks])
        family_cis = [mover_interval(scores[mask], rows["score_low"][mask], rows["score_high"][mask]) for mask in masks]
        for family, mask, score, (low, high) in zip(names, masks, family_scores, family_cis, strict=True):
            family_rows.append(
                {
                    "submission": sid,
                    "family": family,
                    "score": float(score),
                    "ci_low": low,
                    "ci_high": high,
                    "tasks": int(mask.sum()),
                }
            )
        low, high = mover_interval(
            family_scores, np.array([ci[0] for ci in family_cis]), np.array([ci[1] for ci in family_cis])
        )
        overall_rows_.append(
            {
                "submission": sid,
                "score": float(np.mean(family_scores)),
                "ci_low": low,
                "ci_high": high,
                "ci_method": AGGREGATE_CI_METHOD,
                "families": len(family_scores),
                "tasks": len(scores),
            }
        )
    families = pd.DataFrame(family_rows, columns=["submission", "family", "score", "ci_low", "ci_high", "tasks"])
    overall = pd.DataFrame(
        overall_rows_, columns=["submission", "score", "ci_low", "ci_high", "ci_method", "families", "tasks"]
    )
    totals = tasks.groupby("submission", sort=False).agg(
        tokens=("tokens", lambda s: float(s.sum()) if s.notna().all() else math.nan),
        all_tasks=("task", "count"),
        cost_usd=("cost_usd", lambda s: float(s.sum()) if s.notna().all() else math.nan),
    )
    meta = pd.DataFrame(
        [
            {
                "submission": submission_id(d),
                "model": d["model"],
                "method": d["method"]["label"],
                "suite": d["suite"]["name"],
                "suite_version": d["suite"]["version"],
                "date": d["date"],
                "left_out": len(d["suite"].get("left_out", ())),
            }
            for d in submissions
        ]
    )
    overall = meta.merge(overall, on="submission", how="left").merge(
        totals, left_on="submission", right_index=True, how="left"
    )
    # the suite's tasks a run left out count among its tasks: "15/16", and the page names the one missing
    overall["all_tasks"] = overall["all_tasks"] + overall.pop("left_out")
    return families, overall


def rank_bands(score: pd.Series, low: pd.Series, high: pd.Series) -> pd.DataFrame:
    """Best and worst rank of each entry given 95% CIs (higher scores rank first).

    An entry without a score gets no rank.
    """
    import numpy as np
    import pandas as pd

    valid = score.notna().to_numpy()
    lo = low.fillna(score).to_numpy(dtype=float)
    hi = high.fillna(score).to_numpy(dtype=float)
    best = np.full(len(score), np.nan)
    worst = np.full(len(score), np.nan)
    idx = np.flatnonzero(valid)
    if idx.size:
        lo_v, hi_v = lo[idx], hi[idx]
        above = (lo_v[None, :] > hi_v[:, None]).sum(axis=1)
        below = (hi_v[None, :] < lo_v[:, None]).sum(axis=1)
        best[idx] = 1 + above
        worst[idx] = idx.size - below
    return pd.DataFrame({"rank_best": best, "rank_worst": worst}, index=score.index)


def band_label(best: float, worst: float) -> str:
    """``"1"`` or ``"2–4"`` (empty when unranked)."""
    if math.isnan(best):
        return ""
    return f"{int(best)}" if best == worst else f"{int(best)}–{int(worst)}"
