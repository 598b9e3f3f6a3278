"""Verify every gold answer in the shared LongCoT data and report answers per second per template;
then time the official and the strict verifier over the 28,023 parity cases
(``longcot-parity/cases.jsonl``: gold, reformatted, label-less, wrong and hostile answers).

Reference payloads (and the logic solvers behind them) are prepared before timing; only
verification is timed. The proof-game solver is not asked (``reconstruct_moves`` stores no
gold game; ``benchmarks/longcot_reconstruct.py`` measures the solver). Ends with one JSON line:
{"answers", "seconds_total", "answers_per_s", "parity_cases", "official_answers_per_s",
"strict_answers_per_s", "official_over_strict"}.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("FRONTIER_LONGCOT_RECONSTRUCT_NODES", "0")

from harness.testing.reference_data import reference_data_dir
from tasks.longcot.data import DOMAINS, SPLITS, Question, load_questions
from tasks.longcot.official import verify_official
from tasks.longcot.oracle.render import reference_payload
from tasks.longcot.verify import verify


def parity_throughput(data: str, cases_path: Path) -> dict[str, float]:
    """Answers per second of each verifier over the parity cases (single process, same order)."""
    questions: dict[tuple[str, str, str], Question] = {
        (q.domain, q.split, q.question_id): q for q in load_questions(data, DOMAINS, SPLITS)
    }
    with cases_path.open(encoding="utf-8") as handle:
        cases = [json.loads(line) for line in handle]
    items = [(questions[(c["domain"], c["split"], c["question_id"])], c["response"]) for c in cases]
    rates = {"parity_cases": float(len(items))}
    for name, verifier in (("official", verify_official), ("strict", verify)):
        started = time.perf_counter()
        for question, response in items:
            verifier(question, response)
        seconds = time.perf_counter() - started
        rates[f"{name}_answers_per_s"] = round(len(items) / max(seconds, 1e-9), 1)
        print(
            f"{name:8s} verifier: {len(items)} parity cases in {seconds:.2f} s, "
            f"{rates[f'{name}_answers_per_s']:.1f} answers/s"
        )
    rates["official_over_strict"] = round(rates["official_answers_per_s"] / max(rates["strict_answers_per_s"], 1e-9), 3)
    return rates


def main() -> None:
    """Time verification of all gold answers and print per-template throughput, then the parity cases."""
    shared = reference_data_dir()
    data = sys.argv[1] if len(sys.argv) > 1 else str(shared / "longcot")
    cases = Path(sys.argv[2]) if len(sys.argv) > 2 else shared / "longcot-parity" / "cases.jsonl"
    payloads = [(q, reference_payload(q)) for q in load_questions(data, DOMAINS, SPLITS)]
    items = [(q, f"solution = {p}") for q, p in payloads if p is not None]
    per_template: dict[str, list[float]] = defaultdict(list)
    correct = 0
    started = time.perf_counter()
    for question, text in items:
        t0 = time.perf_counter()
        correct += verify(question, text).status == "correct"
        per_template[f"{question.domain}/{question.template}"].append(time.perf_counter() - t0)
    total = time.perf_counter() - started
    print(f"{'template':36s} {'answers':>8s} {'seconds':>9s} {'answers/s':>10s}")
    for key, times in sorted(per_template.items()):
        seconds = sum(times)
        print(f"{key:36s} {len(times):8d} {seconds:9.3f} {len(times) / max(seconds, 1e-9):10.1f}")
    print(f"verified {correct}/{len(items)} gold answers correct in {total:.2f} s")
    figures: dict[str, float] = {
        "answers": len(items),
        "seconds_total": round(total, 3),
        "answers_per_s": round(len(items) / max(total, 1e-9), 1),
    }
    if cases.is_file():
        figures.update(parity_throughput(data, cases))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
