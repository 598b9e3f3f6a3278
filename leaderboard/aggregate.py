"""Aggregate submissions with pandas: per task, per family and overall, with CIs and rank bands.

* A task's score is its primary metric on a 0..1 higher-is-better scale
  (:func:`leaderboard.metrics.normalised`); tasks with no finite range stay out of the means.
* A family's score is the mean of its tasks' scores; the overall score is the macro mean over
  families (each family weighs the same however many tasks it has).
* Family and overall CIs come from a seeded bootstrap. Where a submission carries per-sample
  scores whose mean equals the task's primary metric, each task is resampled from them (drawn
  exactly and fast as a multinomial over the distinct values); otherwise the task contributes
  normal draws around its value with the spread of its reported 95% CI, clipped to the 0..1 scale.
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

RESAMPLES = 1000
Z95 = 1.959963984540054
MEAN_TOLERANCE = 1e-6


def submission_id(data: dict[str, Any]) -> str:
    """The identity of a submission on the board: model, method and suite."""
    return f"{data['model']} | {data['method']['label']} | {data['suite']['name']}"


def cost_and_score(entry: dict[str, Any]) -> dict[str, Any]:
    """A task entry's place on the cost-versus-score plots: total tokens (input + output), the cost
    in USD (None unless known) and the primary metric on the 0..1 scale (None without a finite range)."""
    metric = entry["metrics"][entry["primary_metric"]]
    usage = entry["usage"]
    return {
        "tokens": usage["input_tokens"] + usage["output_tokens"],
        "cost_usd": entry["cost_usd"] if entry["cost_known"] else None,
        "score": normalised(metric["value"], entry["primary_metric"], metric["method"]),
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
            low = normalised(metric["ci_low"], name, metric["method"])
            high = normalised(metric["ci_high"], name, metric["method"])
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


def _sample_values(entry: dict[str, Any]) -> list[float] | None:
    """The per-sample values behind a task's primary metric, when their mean is that metric.

    Two readings are tried: the scored values with each unscored answer as 0 (how ``accuracy``
    counts), then the scored values alone (``accuracy_scored``); the one with the metric's ``n``
    values wins, else the first whose mean matches. So a 0/5 of unscored answers is resampled
    like a 0/5 of wrong ones, and identical results get identical intervals.
    """
    metric = entry["metrics"][entry["primary_metric"]]
    if metric.get("value") is None:
        return None
    samples = entry.get("samples", ())
    scored = [s["value"] for s in samples if s["outcome"] == "scored" and s["value"] is not None]
    with_unscored = scored + [0.0 for s in samples if s["outcome"] == "unscored"]
    matching = [
        values
        for values in (with_unscored, scored)
        if values and abs(math.fsum(values) / len(values) - metric["value"]) <= MEAN_TOLERANCE
    ]
    sized = [values for values in matching if len(values) == metric.get("n")]
    chosen = sized or matching
    return chosen[0] if chosen else None


def _submission_draws(
    data: dict[str, Any], rows: dict[str, np.ndarray], rng: np.random.Generator, resamples: int
) -> tuple[np.ndarray, set[str]]:
    """Bootstrap draws (tasks x resamples) of each task's 0..1 score, and the kinds of draw used."""
    import numpy as np

    draws = np.empty((len(rows["task"]), resamples))
    kinds: set[str] = set()
    binary_rows, binary_n, binary_k = [], [], []
    for index, (task, score, low, high) in enumerate(
        zip(
            rows["task"].tolist(),
            rows["score"].tolist(),
            rows["score_low"].tolist(),
            rows["score_high"].tolist(),
            strict=True,
        )
    ):
        entry = data["tasks"][task]
        name, method = entry["primary_metric"], entry["metrics"][entry["primary_metric"]]["method"]
        zero, one = normalised(0.0, name, method), normalised(1.0, name, method)
        values = _sample_values(entry)
        if values is not None and zero is not None and one is not None:
            kinds.add("bootstrap")
            array = np.asarray(values, dtype=float)
            if np.all((array == 0.0) | (array == 1.0)):
                binary_rows.append((index, zero, one))
                binary_n.append(array.size)
                binary_k.append(array.sum())
                continue
            unique, counts = np.unique(array, return_counts=True)
            means = rng.multinomial(array.size, counts / counts.sum(), size=resamples) @ unique / array.size
            draws[index] = zero + (one - zero) * means
            continue
        kinds.add("normal")
        spread = (high - low) / (2 * Z95) if math.isfinite(low) and math.isfinite(high) else 0.0
        draws[index] = np.clip(score + spread * rng.standard_normal(resamples), 0.0, 1.0)
    if binary_rows:
        n = np.asarray(binary_n)
        means = _binomial_draws(rng, n, np.asarray(binary_k), resamples) / n[:, None]
        rows_at, zeros, ones = (np.asarray(column) for column in zip(*binary_rows, strict=True))
        draws[rows_at] = zeros[:, None] + (ones - zeros)[:, None] * means
    return draws, kinds


def _binomial_draws(rng: np.random.Generator, n: np.ndarray, k: np.ndarray, resamples: int) -> np.ndarray:
    """``resamples`` Binomial(n_i, k_i / n_i) draws per row, by inverting each row's exact CDF.

    The same distribution as ``rng.binomial`` (the bootstrap of a 0/1 mean), about ten times
    faster for the small ``n`` of eval tasks: one uniform per draw and one ``searchsorted``.
    """
    import numpy as np

    top = int(n.max())
    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, top + 1)))))
    j = np.arange(top + 1)[None, :]
    p = (k / n)[:, None]
    nn = n[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        log_pmf = (
            log_factorial[nn]
            - log_factorial[j]
            - log_factorial[np.clip(nn - j, 0, None)]
            + np.where(j > 0, j * np.log(p), 0.0)
            + np.where(nn - j > 0, (nn - j) * np.log1p(-p), 0.0)
        )
    pmf = np.where(j <= nn, np.exp(log_pmf), 0.0)
    cdf = np.cumsum(pmf, axis=1)
    cdf /= cdf[:, -1:]
    rows = np.arange(len(n))[:, None]
    offset = rows * 2.0
    flat = (cdf + offset).ravel()
    uniforms = rng.random((len(n), resamples)) + offset
    return np.minimum(
        np.searchsorted(flat, uniforms.ravel(), side="right").reshape(len(n), resamples) - rows * (top + 1), nn
    )


def overall_rows(
    submissions: list[dict[str, Any]], tasks: pd.DataFrame, seed: int = 0, resamples: int = RESAMPLES
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per submission: family scores and the overall macro mean, each with a 95% CI.

    Returns (families, overall): ``families`` has one row per (submission, family),
    ``overall`` one row per submission with tokens, cost, task count and CI method.
    Each submission's draws come from its own generator (seeded by ``seed`` and its identity),
    so adding a submission to the board never moves another's interval.
    """
    import numpy as np
    import pandas as pd

    by_id = {submission_id(d): d for d in submissions}
    scored = tasks.dropna(subset=["score"])
    columns = {
        name: scored[name].to_numpy(dtype=float if name.startswith("score") else object)
        for name in ("task", "family", "score", "score_low", "score_high")
    }
    positions = scored.groupby("submission", sort=False).indices
    family_rows, overall_rows_ = [], []
    for sid in scored["submission"].unique():
        rows = {name: column[positions[sid]] for name, column in columns.items()}
        rng = np.random.default_rng([seed, hash_text(sid)])
        draws, kinds = _submission_draws(by_id[sid], rows, rng, resamples)
        families = rows["family"]
        scores = rows["score"]
        names = sorted(set(families))
        masks = [families == family for family in names]
        family_draws = np.stack([draws[mask].mean(axis=0) for mask in masks])
        family_scores = [float(scores[mask].mean()) for mask in masks]
        lows, highs = np.percentile(family_draws, [2.5, 97.5], axis=1)
        for family, mask, score, low, high in zip(names, masks, family_scores, lows, highs, strict=True):
            family_rows.append(
                {
                    "submission": sid,
                    "family": family,
                    "score": score,
                    "ci_low": float(low),
                    "ci_high": float(high),
                    "tasks": int(mask.sum()),
                }
            )
        low, high = np.percentile(family_draws.mean(axis=0), [2.5, 97.5])
        overall_rows_.append(
            {
                "submission": sid,
                "score": float(np.mean(family_scores)),
                "ci_low": float(low),
                "ci_high": float(high),
                "ci_method": "+".join(sorted(kinds)),
                "families": len(family_scores),
                "tasks": len(scores),
            }
        )
    families = pd.DataFrame(family_rows, columns=["submission", "family", "score", "ci_low", "ci_high", "tasks"])
    overall = pd.DataFrame(
        overall_rows_, columns=["submission", "score", "ci_low", "ci_high", "ci_method", "families", "tasks"]
    )
    totals = tasks.groupby("submission", sort=False).agg(
        tokens=("tokens", "sum"),
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


def hash_text(text: str) -> int:
    """A stable 32-bit hash of ``text`` (Python's ``hash`` is salted per process)."""
    import zlib

    return zlib.crc32(text.encode("utf-8"))


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
