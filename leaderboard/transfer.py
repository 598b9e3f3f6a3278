"""The jailbreak transfer page of a site (``frontier report``, ``frontier leaderboard build`` with runs), linked
from its index: attack success by source model x target model.

Read from the runs' logs of the ``jailbreak/*`` tasks (harmful behaviours): each sample's attack
names its source model (the one the suffix or prompt was made on) and whether it is universal
(one suffix for every behaviour) or made for its behaviour; the run's model is the target. A cell
is the share of attacked samples that succeeded, with n and its Wilson interval, by the judge's
reading (samples a judge read) and by the refusal-prefix rule (every sample), universal and
per-behaviour attacks in separate tables, and plain behaviours (no attack) as a baseline row. A
cell whose source is its target (the same model name, provider and address aside; for a
multi-model attack, one of its ``+``-joined surrogates) is the white-box diagonal and is marked.
The (ASR, over-refusal) frontier places each target with both measured on the existing Pareto
code: over-refusal as the cost, 1 - ASR as the score.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.stats import wilson_interval
from harness.types import SampleResult
from leaderboard.outputs import write_output
from leaderboard.pareto import Point, standings
from leaderboard.runs import RunDir, iter_samples

FAMILY_PREFIX = "jailbreak/"
OVER_REFUSAL_TASK = "jailbreak/over-refusal"
KINDS = ("universal", "per-behaviour", "none")
READINGS = ("judge", "prefix")


@dataclass
class Tally:
    """Successes over n for one (reading, kind, source, target) cell."""

    successes: int = 0
    n: int = 0

    def add(self, success: bool) -> None:
        """Count one sample."""
        self.successes += int(success)
        self.n += 1

    def cell(self) -> dict[str, Any]:
        """The cell as the page shows it: rate, n and Wilson interval."""
        low, high = wilson_interval(self.successes, self.n)
        return {"value": self.successes / self.n, "n": self.n, "successes": self.successes, "low": low, "high": high}


def model_key(spec: str) -> str:
    """A model's name without provider and address: ``openai-compatible/llama-2@http://h`` -> ``llama-2``."""
    name = spec.split("@", 1)[0]
    return name.rsplit("/", 1)[-1]


def is_white_box(source: str, target: str) -> bool:
    """Whether the attack was made on the target itself: its name is the source's, or one of a multi-model
    source's ``+``-joined surrogates (``frontier attack gcg`` names them so)."""
    wanted = model_key(target.split(" + ", 1)[0])
    return any(model_key(part) == wanted for part in source.split("+") if part)


def target_label(run: RunDir) -> str:
    """The target a run measured: its model, with the methods that wrapped it."""
    methods = [str(m) for m in run.config.get("methods") or []]
    return " + ".join([str(run.config.get("model", "?")), *methods])


def _readings(result: SampleResult, harmful: bool) -> dict[str, bool]:
    """The bad outcome of a sample by each reading it has: jailbroken (harmful) or refused (safe prompts)."""
    details = result.score.details
    found: dict[str, bool] = {}
    judge = details.get("judge")
    key = "jailbroken" if harmful else "refused"
    if isinstance(judge, dict) and isinstance(judge.get(key), bool):
        found["judge"] = judge[key]
    refused = details.get("prefix_refused")
    if isinstance(refused, bool):
        found["prefix"] = (not refused) if harmful else refused
    return found


def _attack(result: SampleResult) -> tuple[str, str]:
    """(kind, source model) of a sample's attack; ``("none", "(no attack)")`` for a plain behaviour."""
    attack = result.metadata.get("attack")
    if not isinstance(attack, dict):
        return "none", "(no attack)"
    kind = "universal" if attack.get("universal") is True else "per-behaviour"
    return kind, str(attack.get("source_model") or "unknown")


@dataclass
class TransferData:
    """What the page shows: cells by reading, kind, source and target; the targets' pooled rates."""

    cells: dict[tuple[str, str, str, str], Tally]
    asr: dict[str, dict[str, Tally]]
    over_refusal: dict[str, dict[str, Tally]]
    targets: list[str]


def collect(runs: Iterable[RunDir]) -> TransferData:
    """Tally every jailbreak sample of ``runs`` (errors left out)."""
    cells: dict[tuple[str, str, str, str], Tally] = {}
    asr: dict[str, dict[str, Tally]] = {}
    over: dict[str, dict[str, Tally]] = {}
    targets: list[str] = []
    for run in runs:
        tasks = [t.get("name") for t in run.config.get("tasks") or [] if isinstance(t, dict)]
        if not any(isinstance(t, str) and t.startswith(FAMILY_PREFIX) for t in tasks):
            continue
        target = target_label(run)
        if target not in targets:
            targets.append(target)
        for result in iter_samples(run.path):
            if not result.task.startswith(FAMILY_PREFIX) or result.score.outcome == "error":
                continue
            harmful = result.task != OVER_REFUSAL_TASK
            readings = _readings(result, harmful)
            pooled = asr if harmful else over
            for reading, bad in readings.items():
                pooled.setdefault(target, {}).setdefault(reading, Tally()).add(bad)
            if harmful:
                kind, source = _attack(result)
                for reading, bad in readings.items():
                    cells.setdefault((reading, kind, source, target), Tally()).add(bad)
    return TransferData(cells, asr, over, targets)


def matrices(data: TransferData) -> list[dict[str, Any]]:
    """One table per (reading, kind) that has cells: sources as rows, targets as columns."""
    tables = []
    for reading in READINGS:
        for kind in KINDS:
            keys = [k for k in data.cells if k[0] == reading and k[1] == kind]
            if not keys:
                continue
            sources = sorted({k[2] for k in keys})
            rows = []
            for source in sources:
                row = []
                for target in data.targets:
                    tally = data.cells.get((reading, kind, source, target))
                    cell = tally.cell() if tally else None
                    white_box = kind != "none" and is_white_box(source, target)
                    row.append({"cell": cell, "white_box": white_box})
                rows.append({"source": source, "cells": row})
            tables.append({"reading": reading, "kind": kind, "rows": rows})
    return tables


def frontier_rows(data: TransferData) -> list[dict[str, Any]]:
    """The (ASR, over-refusal) standings of the targets with both measured, by the judge where both tasks have it."""
    points = []
    for target in data.targets:
        rates, refusals = data.asr.get(target, {}), data.over_refusal.get(target, {})
        reading = next((r for r in READINGS if r in rates and r in refusals), None)
        if reading is None:
            continue
        attack, refusal = rates[reading].cell(), refusals[reading].cell()
        meta = {"asr": attack, "over_refusal": refusal, "reading": reading}
        points.append(Point(cost=refusal["value"], score=1 - attack["value"], label=target, meta=meta))
    by_label = {p.label: p for p in points}
    return [{**row, **by_label[row["label"]].meta} for row in standings(points)]


def render(data: TransferData, title: str = "Jailbreak transfer") -> str:
    """The page's HTML."""
    from leaderboard.site_env import environment, package_version

    template = environment().get_template("transfer.html")
    return str(
        template.render(
            root="",
            site_title="frontier-evals report",
            generator_version=package_version(),
            n_submissions=len(data.targets),
            entries="target(s)",
            title=title,
            targets=data.targets,
            tables=matrices(data),
            frontier=frontier_rows(data),
        )
    )


def write_transfer_page(runs: Sequence[RunDir], out_dir: Path) -> Path | None:
    """Write ``transfer.html`` into ``out_dir`` when some run has jailbreak samples; its path, else None."""
    data = collect(runs)
    if not data.targets:
        return None
    page = out_dir / "transfer.html"
    write_output(page, render(data))
    return page
