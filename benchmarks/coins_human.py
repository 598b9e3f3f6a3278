"""Verdicts on human-written specs in the upstream format (``<N>.v`` files, ``Spec``/``Pre``).

Reads every ``<N>.v`` in ``--dir`` (e.g. the 52 upstream specs in the reference data),
reads each file's signature from its own ``Spec`` definition, checks it on
HumanEval/<N>'s test cases with the coqtop pool, and prints the verdict table, then each
non-correct spec with its first undecided or failing obligation, then one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

from coins_rocq import CoqtopPool, Limits, check_specs
from coins_rocq.checker import SpecReport
from coins_rocq.humaneval import CaseError, entry_arity, humaneval_cases, problem
from coins_rocq.upstream import UpstreamFormatError, upstream_signature


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


def main() -> None:
    """Check every file and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dir", type=Path, required=True, help="folder of upstream <N>.v spec files")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated problem numbers")
    args = parser.parse_args()
    files = sorted(args.dir.glob("*.v"), key=lambda p: int(p.stem) if p.stem.isdigit() else -1)
    if args.only:
        files = [f for f in files if f.stem in args.only.split(",")]
    items, names, verdicts = [], [], {}
    for path in files:
        task_id = f"HumanEval/{path.stem}"
        source = path.read_text(encoding="utf-8", errors="replace")
        try:
            signature = upstream_signature(
                source, problem(task_id)["entry_point"], entry_arity(task_id), int(path.stem)
            )
            items.append((source, signature, humaneval_cases(task_id)))
            names.append(task_id)
        except (UpstreamFormatError, CaseError, KeyError, ValueError) as exc:
            verdicts[task_id] = ("invalid", f"not read: {exc}")
    start = time.perf_counter()
    with CoqtopPool(args.workers) as pool:
        reports = check_specs(items, pool, Limits())
    seconds = time.perf_counter() - start
    for task_id, report in zip(names, reports, strict=True):
        skipped = f" ({len(report.skipped)} cases skipped)" if report.skipped else ""
        verdicts[task_id] = (report.verdict, first_problem(report) + skipped)
    table = Counter(v for v, _ in verdicts.values())
    print("| verdict | specs |\n|---|---|")
    for verdict, count in table.most_common():
        print(f"| {verdict} | {count} |")
    for task_id in sorted(verdicts, key=lambda t: int(t.rsplit("/", 1)[1])):
        verdict, why = verdicts[task_id]
        if verdict != "correct":
            print(f"{task_id}: {verdict}: {why}")
    print(
        json.dumps(
            {
                "specs": len(verdicts),
                "correct": table["correct"],
                "correct_share": round(table["correct"] / max(1, len(verdicts)), 3),
                "verdicts": dict(table),
                "seconds": round(seconds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
