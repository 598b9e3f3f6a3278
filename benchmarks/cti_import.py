"""Importing and scoring 2,500 CTI-MCQ outputs: ``frontier import`` against bare in-memory scoring.

Side 1 is the whole import: read the outputs, load the task's rows, score every output,
write the run directory (config, one log line per sample) and its summary. Side 2 scores
the same outputs with the same task in memory and writes nothing. Prints rows per second
for both and the ratio, then one line of JSON: ``{"rows_per_s", "bare_rows_per_s", "ratio_vs_bare"}``.

With ``--data`` (a CTI-Bench checkout: ``data/cti-mcq.tsv`` and ``responses/`` or
``evaluation/responses/cti-mcq-responses.tsv``) the authors' published answers of
``--column`` are imported, or with ``--log`` a raw ``#####i#####`` log; without them a
seeded synthetic set of 2,500 rows and decorated answers is generated.

Run: ``python benchmarks/cti_import.py [--data PATH [--column ChatGPT-4 | --log PATH]] [--rows 2500]``
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

PROMPT = (
    "You are given a multiple-choice question (MCQ) from a Cyber Threat Intelligence (CTI) knowledge benchmark "
    "dataset. **Question:** Which technique number {i} is described?  **Options:** A) one B) two C) three "
    "D) four  **Important:** The last line of your answer should contain only the single letter."
)
ANSWER_STYLES = (
    "{letter}",
    "{letter}) option text",
    "The correct answer is:\n\n{letter}) option text",
    "Reasoning about the options first.\n**Answer: {letter}**",
    "I cannot answer this question.",
)


def synthetic(folder: Path, rows: int) -> tuple[Path, Path]:
    """A seeded ``cti-mcq.tsv`` of ``rows`` questions and a raw log answering each; returns (data, log)."""
    rng = random.Random(0)
    data = folder / "cti-mcq.tsv"
    log = folder / "answers.txt"
    truths = [rng.choice("ABCD") for _ in range(rows)]
    data.write_text(
        "URL\tQuestion\tPrompt\tGT\n"
        + "".join(
            f"https://example.org/{i}\tquestion {i}\t{PROMPT.format(i=i)}\t{gt}\n" for i, gt in enumerate(truths)
        ),
        encoding="utf-8",
    )
    entries = []
    for i, gt in enumerate(truths):
        letter = gt if rng.random() < 0.6 else rng.choice("ABCD")
        entries.append(f"#####{i + 1}#####\n{rng.choice(ANSWER_STYLES).format(letter=letter)}\n\n")
    log.write_text("".join(entries), encoding="utf-8")
    return data, log


def import_rate(data: Path, source: Path, column: str | None, out: Path, limit: int | None) -> tuple[float, int]:
    """Rows per second of the whole import, and the number of rows imported."""
    from harness.importing import import_outputs
    from harness.plan import TaskPlan

    started = time.perf_counter()
    report = import_outputs(TaskPlan("cyber/cti-mcq", {"data": str(data)}, limit), source, out, column=column)
    elapsed = time.perf_counter() - started
    counts = report.summary.tasks["cyber/cti-mcq"].counts
    return report.written / elapsed, sum(counts.values())


def bare_rate(data: Path, source: Path, column: str | None, limit: int | None) -> float:
    """Rows per second of scoring the same outputs in memory with the same task."""
    from harness.import_formats import read_outputs
    from harness.registry import resolve_task
    from harness.types import Output

    started = time.perf_counter()
    task = resolve_task("cyber/cti-mcq").create(data=str(data))
    samples = list(task.samples())[:limit]
    texts = [entry.text for entry in read_outputs(source, column=column)][: len(samples)]
    scores = [task.score(sample, Output(text=text)) for sample, text in zip(samples, texts, strict=True)]
    elapsed = time.perf_counter() - started
    assert len(scores) == len(samples)
    return len(scores) / elapsed


def main() -> None:
    """Measure both sides and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="a CTI-Bench checkout (default: synthetic rows)")
    parser.add_argument("--column", default="ChatGPT-4", help="model column of the responses file")
    parser.add_argument("--log", type=Path, help="a raw #####i##### log to import instead of the responses column")
    parser.add_argument("--rows", type=int, default=2500, help="rows to generate without --data")
    args = parser.parse_args()
    import harness.importing  # noqa: F401 - both sides start with the modules loaded
    from harness.registry import resolve_task

    resolve_task("cyber/cti-mcq")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        column: str | None = None
        if args.data is None:
            data, source = synthetic(folder, args.rows)
        elif args.log is not None:
            data, source = args.data, args.log
        else:
            data, column = args.data, args.column
            source = next(
                p
                for p in (
                    args.data / "responses" / "cti-mcq-responses.tsv",
                    args.data / "evaluation" / "responses" / "cti-mcq-responses.tsv",
                )
                if p.is_file()
            )
        ours, rows = import_rate(data, source, column, folder / "run", None)
        bare = bare_rate(data, source, column, None)
    print(f"frontier import of {rows:,} CTI-MCQ outputs: {ours:,.0f} rows/s")
    print(f"bare in-memory scoring:              {bare:,.0f} rows/s")
    print(f"ratio: {ours / bare:.2f}x (the run directory, log and summary cost the rest)")
    print(
        json.dumps(
            {
                "rows_per_s": round(ours, 1),
                "bare_rows_per_s": round(bare, 1),
                "ratio_vs_bare": round(ours / bare, 3),
                "rows": rows,
            }
        )
    )


if __name__ == "__main__":
    main()
