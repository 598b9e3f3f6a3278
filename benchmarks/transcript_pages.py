"""Building the sample pages of a large run (issue 44 item 4): time and peak memory at 10k and 100k samples.

A synthetic run log is written in the real format: N samples of a τ²-like agent episode (a shared
2,000-character system prompt, the user's request, an assistant tool call, its result, the reply),
each sample's messages stored once in its transcript and referenced by its three calls. Both sides
run in a fresh process each on the same log: the pages are the report's own code
(``samples_pages.write_sample_pages`` with the site's templates: one page per sample, the paged lists
and the filter index, streamed as the log is read); the baseline holds every transcript in memory at
once (``list(iter_samples(...))``), which any builder that loads the whole log first (inspect's
viewer, #1375) pays before rendering anything. Peak memory is each process's own ``ru_maxrss``.

Usage: python benchmarks/transcript_pages.py [--sizes 10000 100000]
Ends with one line of JSON: {"sizes": [{"samples", "build_s", "build_peak_mib", "pages", "index_mib",
"index_opened_mib", "load_all_s", "load_all_peak_mib", "peak_ratio"}, ...]}; ``index_mib`` is the size of the
filter's index (every script file of it), ``index_opened_mib`` what its page reads when opened.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SYSTEM = "You are a customer service agent. Follow the policy below. " + "Policy text. " * 150


def write_run(folder: Path, samples: int) -> Path:
    """A run directory of ``samples`` synthetic agent episodes, as the runner writes them."""
    from harness.runformat import versioned
    from harness.stats import mean_metric
    from harness.transcript import TranscriptBuilder
    from harness.types import (
        CallRecord,
        Generation,
        Message,
        Output,
        RunSummary,
        SampleResult,
        Score,
        TaskSummary,
        ToolCall,
        Usage,
        record_json,
    )

    run = folder / "run"
    run.mkdir()
    values = []
    with (run / "samples.jsonl").open("w", encoding="utf-8") as log:
        for index in range(samples):
            call = ToolCall(id=f"c{index}", name="get_order_details", arguments=json.dumps({"order_id": f"#W{index}"}))
            ask = Message(role="user", content=f"Where is my order #W{index}? " + "Please hurry. " * 10)
            reply = Generation(text=f"Your order #W{index} ships tomorrow.", usage=Usage(input_tokens=900))
            answer = json.dumps({"order": index, "items": ["x"] * 40})
            turns = [
                (Message(role="system", content=SYSTEM), ask),
                (Message(role="assistant", tool_calls=(call,)),),
                (Message(role="tool", content=answer, tool_call_id=call.id),),
            ]
            builder, sent, records = TranscriptBuilder(), list[Message](), list[CallRecord]()
            for turn, generation in zip(turns, (Generation(tool_calls=(call,)), reply, reply), strict=True):
                sent += turn
                key = f"{index}-{len(sent)}"
                records.append(CallRecord(request_key=key, generation=generation, messages=builder.spans(sent)))
            correct = index % 3 != 0
            values.append(1.0 if correct else 0.0)
            result = SampleResult(
                sample_id=f"retail-{index}",
                task="tau2/retail",
                input="scenario",
                output=Output(text=reply.text),
                score=Score.of(correct, answer="user_stop", explanation="reward 1" if correct else "reward 0 (db)"),
                calls=tuple(records),
                transcript=tuple(builder.messages),
            )
            log.write(record_json(result) + "\n")
    config = {"model": "synthetic/agent", "methods": [], "suite": "bench", "seed": 0, "tasks": [], "config_hash": "x"}
    (run / "config.json").write_text(json.dumps(versioned(config)))
    metrics = {"reward": mean_metric(values)}
    task = TaskSummary(metrics=metrics, counts={"scored": samples}, usage=Usage(), cost_usd=None)
    summary = RunSummary(
        run_id="bench",
        model="synthetic/agent",
        harness_version="bench",
        config_hash="x",
        tasks={"tau2/retail": task},
        started_at="",
        finished_at="",
    )
    (run / "summary.json").write_text(json.dumps(versioned(summary.model_dump(mode="json"))))
    return run


def build(run: Path, out: Path) -> tuple[int, int, int]:
    """The report's sample pages of ``run`` into ``out``, as the site builds them; returns the pages written,
    the bytes of the filter's index (its script files) and of what its page loads when opened (the manifest and
    the first part, or the one file an index that is not split into parts is)."""
    from leaderboard.runs import load_run
    from leaderboard.samples_pages import write_sample_pages
    from leaderboard.site_env import environment

    env = environment()
    common = {"generator_version": "bench", "n_submissions": 1, "site_title": "Report", "entries": "run(s)"}
    listing = env.get_template("samples.html")

    def render_page(name: str, context: dict) -> str:
        return env.get_template(name).render(root="../../" if name == "sample.html" else "../", **common, **context)

    write_sample_pages(
        load_run(run),
        "synthetic",
        "bench",
        {"tau2/retail"},
        out,
        lambda context: listing.render(root="../", **common, **context),
        render_page=render_page,
    )
    pages = sum(1 for _ in (out / "samples").rglob("*.html"))
    index = [path.stat().st_size for path in (out / "samples").glob("*-index*.js")]
    opened = [
        path.stat().st_size for pattern in ("*-index.js", "*-index-0.js") for path in (out / "samples").glob(pattern)
    ]
    return pages, sum(index), sum(opened)


def load_all(run: Path) -> int:
    """Every record of the log held at once (the baseline's first step); returns how many."""
    from leaderboard.runs import iter_samples

    held = list(iter_samples(run))
    return len(held)


def side(kind: str, run: Path, out: Path) -> dict[str, float]:
    """One side in this process: its wall time, what it produced and this process's peak memory."""
    started = time.perf_counter()
    count, index_bytes, opened_bytes = build(run, out) if kind == "build" else (load_all(run), 0, 0)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sizes = {"index_bytes": index_bytes, "opened_bytes": opened_bytes}
    return {"seconds": round(seconds, 2), "count": count, "peak_mib": round(peak, 1), **sizes}


def measure(kind: str, run: Path, out: Path) -> dict[str, float]:
    """``side`` in a fresh process, so that its peak memory is its own."""
    done = subprocess.run(
        [sys.executable, __file__, "--side", kind, str(run), str(out)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    """Write each size's log, measure both sides, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--side", nargs=3, metavar=("KIND", "RUN", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side:
        kind, run, out = args.side
        print(json.dumps(side(kind, Path(run), Path(out))))
        return
    rows = []
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as folder:
            run = write_run(Path(folder), size)
            built = measure("build", run, Path(folder) / "site")
            held = measure("load_all", run, Path(folder) / "unused")
        row = {
            "samples": size,
            "build_s": built["seconds"],
            "build_peak_mib": built["peak_mib"],
            "pages": built["count"],
            "index_mib": round(built["index_bytes"] / 2**20, 2),
            "index_opened_mib": round(built["opened_bytes"] / 2**20, 2),
            "load_all_s": held["seconds"],
            "load_all_peak_mib": held["peak_mib"],
            "peak_ratio": round(held["peak_mib"] / built["peak_mib"], 2),
        }
        rows.append(row)
        print(
            f"{size:>7,} samples: pages built in {row['build_s']:.1f} s, peak {row['build_peak_mib']:.0f} MiB "
            f"({row['pages']:,} pages, filter index {row['index_mib']:.2f} MiB, {row['index_opened_mib']:.2f} MiB "
            "of it read when its page opens); holding every transcript: "
            f"{row['load_all_s']:.1f} s, peak "
            f"{row['load_all_peak_mib']:.0f} MiB ({row['peak_ratio']}x the build's peak)"
        )
    print(json.dumps({"sizes": rows}))


if __name__ == "__main__":
    main()
