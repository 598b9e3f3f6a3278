"""Side-by-side pages: the same sample from two runs next to each other (conversation, score, calls).

A head-to-head page lists the items two submissions scored differently; each gets a page
``vs/<pair>/<item>.html`` with both runs' transcripts in two columns. Each run's log is streamed
once per task, parsing only the listed items' records (at most :data:`~leaderboard.vs_pages.
MAX_DISCORDANT` a task), so a large run is never held whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from harness.types import SampleResult
from leaderboard.outputs import write_output
from leaderboard.runs import RunDir, iter_samples, sample_lines
from leaderboard.transcript_view import transcript_view
from leaderboard.views import slug


def pick(run: RunDir, task: str, ids: set[str]) -> dict[str, SampleResult]:
    """The records of ``task``'s samples ``ids`` in ``run``: only their lines are parsed whole (the others'
    identities only), since a head-to-head of N runs picks from each run's log N - 1 times a task."""
    lines = {
        number for (logged, item), number in sample_lines(run.samples_path).items() if logged == task and item in ids
    }
    return {r.sample_id: r for r in iter_samples(run.samples_path, lines)} if lines else {}


def pair_page(pair: str, task: str, item: str) -> str:
    """Where (under the site) the side-by-side page of ``item`` of ``task`` in ``pair`` is."""
    return f"vs/{pair}/{slug(task, item)}.html"


def write_pair_pages(
    out: Path,
    pair: str,
    task: str,
    items: Iterable[str],
    runs: tuple[RunDir, RunDir],
    labels: tuple[str, str],
    render: Callable[[dict[str, Any]], str],
) -> dict[str, str]:
    """Write the side-by-side page of each of ``items`` both runs logged; returns each one's page (site-relative)."""
    wanted = set(items)
    left, right = pick(runs[0], task, wanted), pick(runs[1], task, wanted)
    links: dict[str, str] = {}
    for item in sorted(wanted & set(left) & set(right)):
        name = pair_page(pair, task, item)
        context = {
            "task": task,
            "item": item,
            "sides": [
                {"label": labels[0], "run_id": runs[0].summary.run_id, "sample": transcript_view(left[item])},
                {"label": labels[1], "run_id": runs[1].summary.run_id, "sample": transcript_view(right[item])},
            ],
            "back": f"../{pair}.html",
        }
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_output(path, render(context))
        links[item] = name
    return links
