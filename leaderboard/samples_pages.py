"""The paged sample browser: one run's log turned into pages of samples per task.

The log is streamed twice (count, then write) so memory holds one page per task at most.
Long texts are cut at :data:`MAX_TEXT` characters with a note saying how much was left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.types import SampleResult
from leaderboard.runs import RunDir, iter_samples
from leaderboard.views import slug

MAX_TEXT = 20_000
PAGE_SIZE = 50


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… [{len(text) - limit} more characters not shown]"


def sample_view(result: SampleResult) -> dict[str, Any]:
    """What the browser shows of one sample (all of it still to be escaped by the template)."""
    if isinstance(result.input, str):
        messages = [{"role": "user", "content": cut(result.input), "tool_calls": []}]
    else:
        messages = [
            {
                "role": m.role,
                "content": cut(m.content or ""),
                "tool_calls": [f"{c.name}({cut(c.arguments, 2000)})" for c in m.tool_calls],
            }
            for m in result.input
        ]
    score = result.score
    return {
        "id": result.sample_id,
        "messages": messages,
        "target": cut(json.dumps(result.target, ensure_ascii=False, default=str)),
        "output": cut(result.output.text),
        "trajectory_steps": len(result.output.trajectory),
        "value": score.value,
        "outcome": score.outcome,
        "correct": score.correct,
        "verdict": verdict(score),
        "answer": cut(score.answer or "", 2000),
        "explanation": cut(score.explanation, 4000),
        "usage": result.usage.model_dump(),
        "cost_usd": result.cost_usd if result.cost_known else None,
        "calls": len(result.calls),
        "retries": result.retries,
    }


def verdict(score: Any) -> str:
    """What a sample's colour says: correct, wrong, partial (a score between), unscored or error."""
    if score.outcome != "scored":
        return score.outcome
    if score.correct is not None:
        return "correct" if score.correct else "wrong"
    if score.value is None:
        return "unscored"
    return "correct" if score.value >= 1 else "wrong" if score.value <= 0 else "partial"


def page_name(submission: str, task: str, page: int) -> str:
    """The file name (under ``samples/``) of one page."""
    return f"{slug(submission, task)}-{page}.html"


def write_sample_pages(
    run: RunDir,
    submission: str,
    suite: str,
    tasks: set[str],
    out_dir: Path,
    render: Callable[[dict[str, Any]], str],
    page_size: int = PAGE_SIZE,
) -> dict[str, str]:
    """Write the pages of ``run`` for ``tasks``; returns each task's first page relative to the site."""
    totals: dict[str, int] = {}
    for result in iter_samples(run.samples_path):
        if result.task in tasks:
            totals[result.task] = totals.get(result.task, 0) + 1
    pages = {task: max(1, -(-count // page_size)) for task, count in totals.items()}
    buffers: dict[str, list[dict[str, Any]]] = {task: [] for task in totals}
    written: dict[str, int] = {task: 0 for task in totals}
    target = out_dir / "samples"
    target.mkdir(parents=True, exist_ok=True)

    def flush(task: str) -> None:
        written[task] += 1
        number = written[task]
        context = {
            "submission": submission,
            "task": task,
            "run_id": run.summary.run_id,
            "page": number,
            "pages": pages[task],
            "samples": buffers[task],
            "first_index": (number - 1) * page_size,
            "prev": page_name(submission, task, number - 1) if number > 1 else None,
            "next": page_name(submission, task, number + 1) if number < pages[task] else None,
            "task_page": "../tasks/" + slug(suite, task) + ".html",
        }
        (target / page_name(submission, task, number)).write_text(render(context), encoding="utf-8")
        buffers[task] = []

    for result in iter_samples(run.samples_path):
        if result.task not in buffers or written[result.task] >= pages[result.task]:
            continue
        buffers[result.task].append(sample_view(result))
        if len(buffers[result.task]) == page_size:
            flush(result.task)
    for task, buffer in buffers.items():
        if buffer:
            flush(task)
    return {task: "samples/" + page_name(submission, task, 1) for task in totals}
