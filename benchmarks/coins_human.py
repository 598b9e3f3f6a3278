"""Verdicts on human-written specs in the upstream format (``<N>.v`` files, ``Spec``/``Pre``).

Reads every ``<N>.v`` in ``--dir`` (e.g. the 52 upstream specs in the reference data),
reads each file's signature from its own ``Spec`` definition, checks it on
HumanEval/<N>'s test cases with the coqtop pool, and prints the verdict table, the
obligations each rung of the ladder decided (and in how many specs), then each non-correct spec with its first
undecided or failing obligation (an undecided one says whether a limit stopped it or no
rung decides it), then one line of JSON.

``--load N`` runs the check while N busy processes (Python loops, ended with the run) compete
for the cores, and prints the load figures: the load average and the share of a core each
prover worker got. ``--compare-load`` runs it idle, then under the load (``--load``, default
twice the cores), and prints whether the two verdict tables (spec by spec) are identical:
the limits count the prover's CPU time, so they should be.

``--ablate`` then asks, rung by rung, which of the obligations that rung decided only it can
decide: each is tried again (in its spec's job, alone with the others that rung decided) on the
ladder without that rung. The first rung that decides an obligation need not be the only one
able to; an obligation no other rung decides is the rung's own. It prints, per rung, the
obligations it decided, those only it decides and in which specs, and which rungs decide the
rest, and adds the table to the JSON line (``ablation``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from coins_rocq import CoqtopPool, Limits, check_specs
from coins_rocq.backends.base import LIMIT_REACHED, NO_RUNG
from coins_rocq.backends.clock import clock_kind
from coins_rocq.checker import SpecReport, prepare_all
from coins_rocq.humaneval import CaseError, humaneval_cases
from coins_rocq.ladder import LADDER
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature
from coins_rocq.upstream import UpstreamFormatError, read_upstream
from harness.testing.cpu_time import children_cpu_s

BUSY_LOOP = "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end: pass\n"
"""One load process: a busy loop that also ends by itself after its time limit."""
LOAD_LIMIT_S = 7200.0


class Load:
    """``count`` busy processes for the life of the context (each also ends by itself after ``LOAD_LIMIT_S``)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> Load:
        for _ in range(self.count):
            self.procs.append(subprocess.Popen([sys.executable, "-c", BUSY_LOOP, str(LOAD_LIMIT_S)]))
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        for proc in self.procs:
            proc.kill()
        for proc in self.procs:
            proc.wait()


def first_problem(report: SpecReport) -> str:
    """The obligation that explains the verdict, as one line: the first refuted one for a spec
    judged wrong (an obligation left unknown before it does not decide it), else the first
    that is not proved."""
    judged_wrong = report.verdict in ("too_strong", "too_weak")
    for result in report.results:
        if result.outcome == "refuted" or (result.outcome != "proved" and not judged_wrong):
            ob = result.obligation
            return f"#{ob.index} {ob.kind} case {ob.case} {result.outcome}: {ob.goal[:160]} [{result.detail[:80]}]"
    return report.reason[:200]


@dataclass
class Run:
    """One pass over the specs: each spec's verdict and why, the rung counts, and the load figures."""

    verdicts: dict[str, tuple[str, str]] = field(default_factory=dict)
    reasons: dict[str, str] = field(default_factory=dict)
    rungs: Counter[str] = field(default_factory=Counter)
    rung_specs: Counter[str] = field(default_factory=Counter)
    undecided: Counter[str] = field(default_factory=Counter)
    figures: dict[str, Any] = field(default_factory=dict)
    decided: dict[str, dict[int, str]] = field(default_factory=dict)
    """Per spec, the rung that decided each decided obligation (by the obligation's index)."""

    def table(self) -> Counter[str]:
        """Specs per verdict; an undecided spec is counted by why (a limit, or no rung)."""
        return Counter(self.kind(task_id) for task_id in self.verdicts)

    def kind(self, task_id: str) -> str:
        """The spec's verdict, ``undecided`` split by why."""
        verdict = self.verdicts[task_id][0]
        if verdict != "undecided":
            return verdict
        reason = self.reasons.get(task_id, "")
        why = next((w for w in (LIMIT_REACHED, NO_RUNG) if reason.endswith(w)), "")
        return f"undecided: {why}" if why else "undecided"


def read_specs(folder: Path, only: str) -> tuple[list[tuple[str, Signature, list[Case]]], list[str], dict[str, str]]:
    """The specs of ``folder`` (those in ``only`` when given): the items to check, their task ids, and
    the files that could not be read with why."""
    files = sorted(folder.glob("*.v"), key=lambda p: int(p.stem) if p.stem.isdigit() else -1)
    if only:
        files = [f for f in files if f.stem in only.split(",")]
    items, names, unread = [], [], {}
    for path in files:
        task_id = f"HumanEval/{path.stem}"
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            signature = read_upstream(source, task_id)
            items.append((source, signature, humaneval_cases(task_id)))
            names.append(task_id)
        except (UpstreamFormatError, CaseError, KeyError, ValueError) as exc:
            unread[task_id] = f"not read: {exc}"
    return items, names, unread


def judge(
    items: list[tuple[str, Signature, list[Case]]], names: list[str], unread: dict[str, str], workers: int, load: int
) -> Run:
    """Check the specs with ``workers`` provers while ``load`` busy processes run; the run's figures."""
    run = Run(verdicts={task_id: ("invalid", why) for task_id, why in unread.items()})
    with Load(load):
        before = children_cpu_s()
        start = time.perf_counter()
        with CoqtopPool(workers) as pool:
            reports = check_specs(items, pool, Limits())
        seconds = time.perf_counter() - start
        prover_cpu = children_cpu_s() - before
        load_average = os.getloadavg()[0]
    for task_id, report in zip(names, reports, strict=True):
        skipped = f" ({len(report.skipped)} cases skipped)" if report.skipped else ""
        run.verdicts[task_id] = (report.verdict, first_problem(report) + skipped)
        run.reasons[task_id] = report.reason
        run.rungs.update(report.rungs())
        run.rung_specs.update(report.rungs().keys())
        run.undecided.update(r.undecided for r in report.results if r.undecided is not None)
        run.decided[task_id] = {r.obligation.index: r.rung for r in report.results if r.rung is not None}
    run.figures = {
        "busy_processes": load,
        "load_average_1min": round(load_average, 2),
        "seconds": round(seconds, 1),
        "prover_cpu_s": round(prover_cpu, 1),
        "core_share_per_worker": round(prover_cpu / max(1e-9, seconds * workers), 3),
    }
    return run


def show(run: Run, title: str) -> None:
    """Print one run's tables and the specs not judged correct."""
    figures = run.figures
    print(
        f"\n## {title}: {figures['busy_processes']} busy processes, load average {figures['load_average_1min']}, "
        f"{figures['seconds']} s, each worker got {figures['core_share_per_worker']:.0%} of a core"
    )
    print("| verdict | specs |\n|---|---|")
    for verdict, count in sorted(run.table().items()):
        print(f"| {verdict} | {count} |")
    print("\n| rung | obligations decided | specs |\n|---|---|---|")
    for name, _ in LADDER:
        print(f"| {name} | {run.rungs[name]} | {run.rung_specs[name]} |")
    for why, count in sorted(run.undecided.items()):
        print(f"| (unknown: {why}) | {count} | |")
    for task_id in sorted(run.verdicts, key=lambda t: int(t.rsplit("/", 1)[1])):
        verdict, why = run.verdicts[task_id]
        if verdict != "correct":
            print(f"{task_id}: {verdict}: {why}")


def summary(run: Run) -> dict[str, Any]:
    """The run's figures for the JSON line."""
    table = run.table()
    return {
        "specs": len(run.verdicts),
        "correct": table["correct"],
        "correct_share": round(table["correct"] / max(1, len(run.verdicts)), 3),
        "verdicts": dict(table),
        "rungs": {name: run.rungs[name] for name, _ in LADDER if run.rungs[name]},
        "rung_specs": {name: run.rung_specs[name] for name, _ in LADDER if run.rung_specs[name]},
        "unknown_obligations": dict(run.undecided),
        **run.figures,
    }


@dataclass
class RungAblation:
    """What one rung decided, and which of those obligations no other rung decides (per spec)."""

    decided: int = 0
    only: Counter[str] = field(default_factory=Counter)
    others: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: counts, the specs with obligations only this rung decides, and who decides the rest."""
        return {
            "decided": self.decided,
            "only_this_rung": sum(self.only.values()),
            "only_in_specs": dict(sorted(self.only.items(), key=lambda kv: _number(kv[0]))),
            "also_decided_by": dict(self.others.most_common()),
        }


def _number(task_id: str) -> int:
    """The problem number of ``HumanEval/<N>``."""
    return int(task_id.rsplit("/", 1)[1])


def ablate(
    items: list[tuple[str, Signature, list[Case]]], names: list[str], run: Run, workers: int
) -> dict[str, RungAblation]:
    """Per rung, the obligations it decided in ``run`` tried again on the ladder without it."""
    by_task = dict(zip(names, items, strict=True))
    table: dict[str, RungAblation] = {}
    with CoqtopPool(workers) as pool:
        for rung, _ in LADDER:
            ablation = table[rung] = RungAblation()
            chosen = {
                task: {index for index, winner in decided.items() if winner == rung}
                for task, decided in run.decided.items()
            }
            chosen = {task: indices for task, indices in chosen.items() if indices}
            if not chosen:
                continue
            tasks = sorted(chosen, key=_number)
            prepared = prepare_all([by_task[t] for t in tasks], Limits(), left_out=frozenset({rung}))
            jobs = []
            for task, spec in zip(tasks, prepared, strict=True):
                if spec.job is None:
                    raise RuntimeError(f"{task} did not prepare again: {spec.reason}")
                own = [ob for ob in spec.job.obligations if ob.index in chosen[task]]
                jobs.append(dataclasses.replace(spec.job, obligations=own))
            for task, result in zip(tasks, pool.run(jobs), strict=True):
                ablation.decided += len(chosen[task])
                if result.load_error is not None:
                    ablation.others["(spec did not load)"] += len(chosen[task])
                    continue
                for outcome in result.results:
                    if outcome.rung is None:
                        ablation.only[task] += 1
                    else:
                        ablation.others[outcome.rung] += 1
            print(
                f"ablated {rung}: {ablation.decided} decided, {sum(ablation.only.values())} only by it", file=sys.stderr
            )
    return table


def show_ablation(table: dict[str, RungAblation]) -> None:
    """Print the ablation table: per rung, what it decided and what only it decides."""
    print("\n## ablation: each rung's obligations on the ladder without it")
    print("| rung | decided | only this rung | specs (obligations only it decides) | also decided by |")
    print("|---|---|---|---|---|")
    for rung, ablation in table.items():
        specs = ", ".join(
            f"{t.rsplit('/', 1)[1]} ({n})" for t, n in sorted(ablation.only.items(), key=lambda kv: _number(kv[0]))
        )
        others = ", ".join(f"{name} {n}" for name, n in ablation.others.most_common())
        print(f"| {rung} | {ablation.decided} | {sum(ablation.only.values())} | {specs} | {others} |")


def main() -> None:
    """Check every file and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", type=Path, required=True, help="folder of upstream <N>.v spec files")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated problem numbers")
    parser.add_argument("--load", type=int, default=None, help="busy processes competing with the provers")
    parser.add_argument(
        "--compare-load", action="store_true", help="run idle, then under --load (default 2x the cores), and compare"
    )
    parser.add_argument(
        "--ablate", action="store_true", help="then try each rung's obligations again on the ladder without it"
    )
    args = parser.parse_args()
    if not args.dir.is_dir():
        parser.error(f"--dir {args.dir}: not a folder")
    if args.load is not None and args.load < 0:
        parser.error("--load must be 0 or more")
    if args.ablate and args.compare_load:
        parser.error("--ablate and --compare-load are separate runs")
    items, names, unread = read_specs(args.dir, args.only)
    print(f"prover limits count {clock_kind()} time")
    if not args.compare_load:
        run = judge(items, names, unread, args.workers, args.load or 0)
        show(run, "run")
        ablation = ablate(items, names, run, args.workers) if args.ablate else {}
        if ablation:
            show_ablation(ablation)
        extra = {"ablation": {rung: a.to_dict() for rung, a in ablation.items()}} if ablation else {}
        print(json.dumps({**summary(run), **extra}))
        return
    load = args.load if args.load is not None else 2 * (os.cpu_count() or 1)
    idle = judge(items, names, unread, args.workers, 0)
    show(idle, "idle")
    loaded = judge(items, names, unread, args.workers, load)
    show(loaded, "loaded")
    differ = sorted(t for t in idle.verdicts if idle.kind(t) != loaded.kind(t))
    print(f"\nverdict tables identical: {'yes' if not differ else 'no'}")
    for task_id in differ:
        print(f"{task_id}: idle {idle.kind(task_id)}, loaded {loaded.kind(task_id)}")
    print(json.dumps({"identical": not differ, "differ": differ, "idle": summary(idle), "loaded": summary(loaded)}))


if __name__ == "__main__":
    main()
