"""Turn aggregated frames into plain dicts for the templates: sections per suite, task and model."""

from __future__ import annotations

import hashlib
import math
import re
from typing import TYPE_CHECKING, Any

from leaderboard.aggregate import band_label, cost_and_score, rank_bands, submission_id
from leaderboard.metrics import normalised
from leaderboard.paired_bands import Entry, bands, sample_values
from leaderboard.pareto import Point, standings

if TYPE_CHECKING:
    import pandas as pd

_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def slug(*parts: str) -> str:
    """A file-name-safe, collision-free name for untrusted text (readable prefix + hash)."""
    text = "\x1f".join(parts)
    readable = _UNSAFE.sub("-", text.lower()).strip("-.")[:48] or "x"
    return f"{readable}-{hashlib.sha256(text.encode('utf-8')).hexdigest()[:10]}"


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows of ``frame`` as dicts of plain Python values, missing values as None."""
    names = [str(name) for name in frame.columns]
    columns = []
    for name in frame.columns:
        series = frame[name]
        values = series.tolist()
        if series.hasnans:
            values = [None if missing else value for value, missing in zip(values, series.isna().tolist(), strict=True)]
        columns.append(values)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]


def point_label(model: str, method: str) -> str:
    """How a point is labelled on a plot."""
    return model if method == "none" else f"{model} ({method})"


def sweep_key(data: dict[str, Any]) -> str | None:
    """Submissions of one model whose method chains share names form a budget sweep."""
    names = [link["name"] for link in data["method"]["chain"]]
    return f"{data['model']} · {'+'.join(names)}" if names else None


def _add_points(row: dict[str, Any], data: dict[str, Any], token_points: list[Point], usd_points: list[Point]) -> None:
    """Place one leaderboard row on the cost-versus-score plots (tokens and USD, each when known)."""
    label = point_label(data["model"], data["method"]["label"])
    meta = {"sweep": sweep_key(data)}
    if row["tokens"] is not None and not math.isnan(row["tokens"]):
        token_points.append(Point(float(row["tokens"]), row["score"], label, data["model"], meta))
    if row["cost_usd"] is not None:
        usd_points.append(Point(row["cost_usd"], row["score"], label, data["model"], meta))


def _interval(values: Any) -> list[float] | None:
    """A ``[low, high]`` pair of finite numbers, else None."""
    if isinstance(values, list) and len(values) == 2 and all(isinstance(v, int | float) for v in values):
        low, high = float(values[0]), float(values[1])
        return [low, high] if math.isfinite(low) and math.isfinite(high) else None
    return None


def speed_points(entry: dict[str, Any], data: dict[str, Any], score: float) -> tuple[Point | None, Point | None]:
    """A task entry on the speed plots: (score vs output tok/s, score vs median latency), each None without it.

    The tok/s point's cost is seconds per output token (its reciprocal; :mod:`leaderboard.plots` draws
    it on a reversed axis that reads tok/s). Both carry the score's and the figure's 95% intervals, and
    are labelled method first, so that the points of one model's sweep read apart when cut short.
    """
    block = entry.get("throughput") or {}
    metric = entry["metrics"][entry["primary_metric"]]
    low = normalised(metric["ci_low"], entry["primary_metric"], metric["method"], metric.get("scale"))
    high = normalised(metric["ci_high"], entry["primary_metric"], metric["method"], metric.get("scale"))
    score_ci = sorted([low, high]) if low is not None and high is not None else None
    method = data["method"]["label"]
    label = data["model"] if method == "none" else f"{method} ({data['model']})"  # the configuration first
    rate, latency = block.get("output_tok_s"), block.get("latency_s_median")
    tok_s = None
    if isinstance(rate, int | float) and math.isfinite(rate) and rate > 0:
        rate_ci = _interval(block.get("output_tok_s_ci"))
        x_ci = [1 / rate_ci[1], 1 / rate_ci[0]] if rate_ci and rate_ci[0] > 0 else None
        tok_s = Point(1 / rate, score, label, data["model"], {"x_ci": x_ci, "score_ci": score_ci})
    wait = None
    if isinstance(latency, int | float) and math.isfinite(latency) and latency > 0:
        meta = {"x_ci": _interval(block.get("latency_s_median_ci")), "score_ci": score_ci}
        wait = Point(float(latency), score, label, data["model"], meta)
    return tok_s, wait


def speed_standings(tok_s_points: list[Point], latency_points: list[Point]) -> list[dict[str, Any]]:
    """The speed plots as one table, best score first: each entry's score, output tok/s and median latency
    with their intervals, and who dominates it on each axis (tok/s points are reciprocals, see
    :func:`speed_points`; dominance is the same on either scale)."""
    rows: dict[str, dict[str, Any]] = {}

    def row_of(point: Point) -> dict[str, Any]:
        empty = {"label": point.label, "score": point.score, "tok_s_dominated_by": [], "latency_dominated_by": []}
        return rows.setdefault(point.label, empty)

    for point in tok_s_points:
        x_ci = point.meta.get("x_ci")
        row_of(point)
        rows[point.label]["tok_s"] = 1 / point.cost
        rows[point.label]["tok_s_ci"] = [1 / x_ci[1], 1 / x_ci[0]] if x_ci else None
    for point in latency_points:
        row_of(point)
        rows[point.label]["latency"] = point.cost
        rows[point.label]["latency_ci"] = point.meta.get("x_ci")
    for key, points in (("tok_s_dominated_by", tok_s_points), ("latency_dominated_by", latency_points)):
        for row in standings(points):
            rows[row["label"]][key] = row["dominated_by"]
    return sorted(rows.values(), key=lambda row: (-row["score"], row["label"]))


SHOWN_SETTINGS = ("max_tokens", "temperature")


def settings_text(entries: list[dict[str, Any]]) -> str:
    """The generation settings the task entries ran with, as ``max_tokens 64–512 · temperature 0``.

    A setting that differs between tasks shows its range; ``None`` (the provider's own limit)
    reads ``none``; a setting no entry recorded (a run from before they were) is left out.
    """
    parts = []
    for name in SHOWN_SETTINGS:
        values = [entry["settings"][name] for entry in entries if name in (entry.get("settings") or {})]
        if not values:
            continue
        numbers = sorted({float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)})
        shown = [f"{numbers[0]:g}" if len(numbers) == 1 else f"{numbers[0]:g}–{numbers[-1]:g}"] if numbers else []
        if any(v is None for v in values):
            shown.append("none")
        parts.append(f"{name} {' or '.join(shown)}")
    return " · ".join(parts)


def missing_tasks(data: dict[str, Any]) -> list[dict[str, str]]:
    """The submission's tasks left out of its overall score, each with the reason."""
    missing = []
    for task, entry in sorted(data["tasks"].items()):
        if cost_and_score(entry)["score"] is not None:
            continue
        counts = entry.get("counts", {})
        if not counts.get("scored"):
            reason = f"no sample was scored ({counts.get('unscored', 0)} unscored, {counts.get('error', 0)} errors)"
        else:
            reason = f"its metric {entry['primary_metric']} has no value on a 0–1 scale"
        missing.append({"task": task, "reason": reason})
    for entry in data["suite"].get("left_out", ()):
        missing.append({"task": entry["task"], "reason": f"left out of the run: {entry['reason']}"})
    return missing


def plotted(points: list[Point]) -> list[Point]:
    """``points`` when at least one has a positive cost, else none: a log axis of zeros would place
    every point at a made-up position, so the page says "no cost data" instead."""
    return points if any(math.isfinite(p.cost) and p.cost > 0 for p in points) else []


def suite_sections(
    submissions: list[dict[str, Any]], overall: pd.DataFrame, families: pd.DataFrame
) -> list[dict[str, Any]]:
    """Per suite: ranked overall rows with family scores and their Pareto points."""
    by_id = {submission_id(d): d for d in submissions}
    sections = []
    for suite, group in overall.groupby("suite", sort=True):
        group = group.copy()
        group[["rank_best", "rank_worst"]] = rank_bands(group["score"], group["ci_low"], group["ci_high"])
        group = group.sort_values(["score", "model", "method"], ascending=[False, True, True], na_position="last")
        family_names = sorted(families[families["submission"].isin(group["submission"])]["family"].unique())
        fam = {(r["submission"], r["family"]): r for r in records(families)}
        rows: list[dict[str, Any]] = []
        token_points: list[Point] = []
        usd_points: list[Point] = []
        for row in records(group):
            data = by_id[row["submission"]]
            row["rank"] = band_label(
                row["rank_best"] if row["rank_best"] is not None else math.nan,
                row["rank_worst"] if row["rank_worst"] is not None else math.nan,
            )
            row["model_page"] = "models/" + slug(data["model"]) + ".html"
            row["family_scores"] = [fam.get((row["submission"], f)) for f in family_names]
            row["missing"] = missing_tasks(data)
            row["settings"] = settings_text(list(data["tasks"].values()))
            rows.append(row)
            if row["score"] is None:
                continue
            _add_points(row, data, token_points, usd_points)
        sections.append(
            {
                "suite": suite,
                "version": group["suite_version"].iloc[0],
                "slug": slug("suite", suite),
                "rows": rows,
                "families": family_names,
                "token_points": plotted(token_points),
                "usd_points": plotted(usd_points) if len(usd_points) == len(token_points) else [],
                "standings": standings(plotted(token_points)),
            }
        )
    return sections


def task_points(submissions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per (suite, task), in that order: the metric, page slug and the cost-versus-score points, and the
    speed points (:func:`speed_points`) of the entries that carry a throughput block.

    Read straight from the submissions (no aggregation needed), so that plotting can start
    before the tables are computed.
    """
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for data in submissions:
        suite = data["suite"]["name"]
        for task, entry in data["tasks"].items():
            item = found.get((suite, task))
            if item is None:
                item = found[(suite, task)] = {
                    "suite": suite,
                    "task": task,
                    "metric": entry["primary_metric"],
                    "slug": slug(suite, task),
                    "token_points": [],
                    "usd_points": [],
                    "tok_s_points": [],
                    "latency_points": [],
                }
            row = cost_and_score(entry)
            if row["score"] is not None:
                _add_points(row, data, item["token_points"], item["usd_points"])
                tok_s, latency = speed_points(entry, data, row["score"])
                item["tok_s_points"] += [tok_s] if tok_s else []
                item["latency_points"] += [latency] if latency else []
    items = [found[key] for key in sorted(found)]
    for item in items:
        if len(item["usd_points"]) != len(item["token_points"]):
            item["usd_points"] = []
        item["usd_points"] = plotted(item["usd_points"])
        item["token_points"] = plotted(item["token_points"])
    return items


def task_sections(
    submissions: list[dict[str, Any]],
    tasks: pd.DataFrame,
    samples_links: dict[tuple[str, str], str],
    points: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """Per (suite, task): ranked rows of the primary metric, with the task's points (from :func:`task_points`)."""
    by_id = {submission_id(d): d for d in submissions}
    by_task = {(item["suite"], item["task"]): item for item in points}
    sections = []
    for (suite, task), group in tasks.groupby(["suite", "task"], sort=True):
        group = group.copy()
        entries = [
            Entry(
                row["score"],
                row["score_low"],
                row["score_high"],
                sample_values(by_id[row["submission"]]["tasks"][task]),
                by_id[row["submission"]]["tasks"][task].get("data_hash"),
                bool(row["higher_is_better"]),
            )
            for row in records(group)
        ]
        best, worst, basis = bands(entries)
        group["rank_best"], group["rank_worst"] = best, worst
        ascending = not bool(group["higher_is_better"].iloc[0])
        group = group.sort_values(["value", "model"], ascending=[ascending, True], na_position="last")
        rows = []
        for row in records(group):
            data = by_id[row["submission"]]
            row["rank"] = band_label(
                row["rank_best"] if row["rank_best"] is not None else math.nan,
                row["rank_worst"] if row["rank_worst"] is not None else math.nan,
            )
            row["counts"] = data["tasks"][task]["counts"]
            row["settings"] = settings_text([data["tasks"][task]])
            row["model_page"] = "models/" + slug(data["model"]) + ".html"
            row["samples_page"] = samples_links.get((row["submission"], task))
            rows.append(row)
        first = rows[0]
        item = by_task[(suite, task)]
        sections.append(
            {
                "suite": suite,
                "task": task,
                "family": first["family"],
                "metric": first["metric"],
                "higher_is_better": first["higher_is_better"],
                "bands": basis,
                "slug": item["slug"],
                "rows": rows,
                "token_points": item["token_points"],
                "usd_points": item["usd_points"],
                "tok_s_points": item["tok_s_points"],
                "latency_points": item["latency_points"],
                "speed_standings": speed_standings(item["tok_s_points"], item["latency_points"]),
                "standings": standings(item["token_points"]),
            }
        )
    return sections


def model_sections(submissions: list[dict[str, Any]], overall: pd.DataFrame) -> list[dict[str, Any]]:
    """Per model: each of its submissions with the overall score and every task's metrics."""
    overall_by_id = {r["submission"]: r for r in records(overall)}
    models: dict[str, list[dict[str, Any]]] = {}
    for data in submissions:
        models.setdefault(data["model"], []).append(data)
    sections = []
    for model, subs in sorted(models.items()):
        entries: list[dict[str, Any]] = []
        for data in sorted(subs, key=lambda d: (d["suite"]["name"], d["method"]["label"])):
            tasks: list[dict[str, Any]] = []
            for name, entry in sorted(data["tasks"].items()):
                metrics = [{"name": m, **v} for m, v in entry["metrics"].items()]
                tasks.append(
                    {
                        "name": name,
                        "page": "tasks/" + slug(data["suite"]["name"], name) + ".html",
                        "primary": entry["primary_metric"],
                        "metrics": metrics,
                        "counts": entry["counts"],
                        "usage": entry["usage"],
                        "cost_usd": entry["cost_usd"] if entry["cost_known"] else None,
                    }
                )
            entries.append({"data": data, "overall": overall_by_id.get(submission_id(data)), "tasks": tasks})
        names = sorted({m["name"] for entry in entries for task in entry["tasks"] for m in task["metrics"]})
        sections.append({"model": model, "slug": slug(model), "entries": entries, "metric_names": names})
    return sections
