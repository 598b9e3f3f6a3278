"""The cost of the one run-log reader (issue 18): last record wins, strict lines, each text stored once.

Both sides read the same real ``samples.jsonl`` (N records with a model call each, as a
run writes them): the baseline streams it in one pass and parses every line (the old
first-record-wins reader without the identity pass); the reader is ``RunStore.results()``
(an identity pass, cached per version of the log, then the records that win), first cold
and then as a summary reads it (two streams per task). It also prints the log's size
with each text stored once against the size with the text repeated in every call.

Usage: python benchmarks/run_log_read.py [--records 20000] [--text-chars 2000]
Ends with one line of JSON: {"records", "baseline_s", "reader_cold_s", "reader_warm_s", "cold_ratio",
"warm_ratio", "log_bytes", "log_bytes_text_twice", "size_ratio"}.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.store import RunStore
from harness.types import CallRecord, Generation, Output, SampleResult, Score, Usage


def _record(index: int, text: str) -> SampleResult:
    generation = Generation(text=text, finish_reason="stop", usage=Usage(input_tokens=50, output_tokens=400))
    return SampleResult(
        sample_id=f"s{index}",
        task="demo/arith",
        input=f"Problem {index}: " + "x " * 100,
        target=index,
        output=Output(text=text),
        score=Score.of(index % 3 == 0, answer=str(index)),
        calls=(CallRecord(request_key=f"{index:064x}", generation=generation),),
        usage=generation.usage,
    )


def _baseline(path: Path) -> int:
    count = 0
    with path.open("rb") as handle:
        for raw in handle:
            SampleResult.model_validate_json(raw)
            count += 1
    return count


def main() -> None:
    """Write the log, time both readers, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--text-chars", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = RunStore(Path(folder))
        text_twice = 0
        with store.samples_path.open("wb") as handle:
            for index in range(args.records):
                record = _record(index, f"ANSWER: {index} " + "w" * args.text_chars)
                line = record.model_dump_json().encode() + b"\n"
                handle.write(line)
                text_twice += len(line) + len(json.dumps(record.output.text))
        size = store.samples_path.stat().st_size
        started = time.perf_counter()
        assert _baseline(store.samples_path) == args.records
        baseline = time.perf_counter() - started
        started = time.perf_counter()
        assert sum(1 for _ in store.results()) == args.records
        cold = time.perf_counter() - started
        started = time.perf_counter()
        assert sum(1 for _ in store.results()) == args.records
        warm = time.perf_counter() - started
    figures = {
        "records": args.records,
        "baseline_s": round(baseline, 3),
        "reader_cold_s": round(cold, 3),
        "reader_warm_s": round(warm, 3),
        "cold_ratio": round(cold / baseline, 2),
        "warm_ratio": round(warm / baseline, 2),
        "log_bytes": size,
        "log_bytes_text_twice": text_twice,
        "size_ratio": round(size / text_twice, 3),
    }
    print(
        f"one-pass baseline {baseline:.2f} s; reader cold {cold:.2f} s ({cold / baseline:.2f}x), "
        f"warm {warm:.2f} s ({warm / baseline:.2f}x); log {size:,} bytes vs {text_twice:,} with each text twice"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
