"""The paged sample browser: one run's log turned into pages of samples per task.

The log is streamed twice (each line's identity to count, then the records to write) so memory
holds one page per task at most; each
sample's own page (its whole transcript) is written as its record streams by, and never kept.
Long texts are cut (:func:`leaderboard.transcript_view.cut`) with a note saying how much was left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.score_view import verdict
from harness.types import SampleResult
from leaderboard.outputs import write_output
from leaderboard.runs import RunDir, count_samples, iter_samples
from leaderboard.sample_index import SampleIndex
from leaderboard.transcript_view import content_warning, cut, transcript_view
from leaderboard.views import slug

PAGE_SIZE = 50


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
        "content_warning": content_warning(result),
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
        "page": None,
    }


def page_name(submission: str, task: str, page: int) -> str:
    """The file name (under ``samples/``) of one page."""
    return f"{slug(submission, task)}-{page}.html"


def sample_page(submission: str, task: str, sample_id: str) -> str:
    """Where (under ``samples/``) a sample's own page is: named by its id, so two runs' pages of the
    same sample are found without reading either run."""
    return f"{slug(submission, task)}/{slug(sample_id)}.html"


def index_name(submission: str, run_id: str) -> str:
    """The file name (under ``samples/``) of a run's filterable sample index (``.html`` and ``.js``)."""
    return f"{slug(submission, run_id)}-index"


def write_sample_pages(
    run: RunDir,
    submission: str,
    suite: str,
    tasks: set[str],
    out_dir: Path,
    render: Callable[[dict[str, Any]], str],
    page_size: int = PAGE_SIZE,
    render_page: Callable[[str, dict[str, Any]], str] | None = None,
) -> dict[str, str]:
    """Write the pages of ``run`` for ``tasks``; returns each task's first page relative to the site.

    With ``render_page`` (a template's name and context to HTML), each sample also gets its own page
    (``sample.html``: its transcript, score criteria and calls), written as the log streams, and the
    run a filterable index of them all (``sample_index.html`` over :class:`~leaderboard.sample_index.SampleIndex`).
    """
    counts, winners = count_samples(run.samples_path)
    totals = {task: count for task, count in counts.items() if task in tasks}
    pages = {task: max(1, -(-count // page_size)) for task, count in totals.items()}
    buffers: dict[str, list[dict[str, Any]]] = {task: [] for task in totals}
    written: dict[str, int] = {task: 0 for task in totals}
    target = out_dir / "samples"
    target.mkdir(parents=True, exist_ok=True)
    index_file = index_name(submission, run.summary.run_id)
    index = SampleIndex(target, index_file, submission) if render_page and totals else None

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
            "index_page": f"{index_file}.html" if index else None,
        }
        write_output(target / page_name(submission, task, number), render(context))
        buffers[task] = []

    try:
        for result in iter_samples(run.samples_path, winners):
            if result.task not in buffers or written[result.task] >= pages[result.task]:
                continue
            view = sample_view(result)
            if render_page is not None and index is not None:
                view["page"] = _write_sample(target, submission, run, result, index_file, render_page)
                index.add(result)
            buffers[result.task].append(view)
            if len(buffers[result.task]) == page_size:
                flush(result.task)
        for task, buffer in buffers.items():
            if buffer:
                flush(task)
    finally:
        if index is not None:
            index.close()
    if render_page is not None and index is not None:
        context: dict[str, Any] = {"submission": submission, "run_id": run.summary.run_id}
        context |= {"script": f"{index_file}.js", "count": index.count, "tasks": list(index.tasks)}
        write_output(target / f"{index_file}.html", render_page("sample_index.html", context))
    return {task: "samples/" + page_name(submission, task, 1) for task in totals}


def _write_sample(
    target: Path,
    submission: str,
    run: RunDir,
    result: SampleResult,
    index_file: str,
    render_page: Callable[[str, dict[str, Any]], str],
) -> str:
    """Write ``result``'s own page; returns where it is, relative to ``samples/``."""
    name = sample_page(submission, result.task, result.sample_id)
    context = {
        "submission": submission,
        "run_id": run.summary.run_id,
        "sample": transcript_view(result),
        "list_page": "../" + page_name(submission, result.task, 1),
        "index_page": f"../{index_file}.html",
    }
    path = target / name
    path.parent.mkdir(exist_ok=True)
    write_output(path, render_page("sample.html", context))
    return name
