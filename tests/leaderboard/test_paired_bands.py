"""Rank bands from paired tests where submissions carry per-sample results (issue 39 item 4)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
from conftest import binary

from harness.paired import holm
from harness.stats import wilson_interval
from leaderboard import paired_bands
from leaderboard.paired_bands import Entry, bands, holm_array, paired_p, sample_values, shared_item_tests
from leaderboard.runs import load_run
from leaderboard.site import build_site
from leaderboard.site_env import environment
from leaderboard.submission import build_submission
from leaderboard.vs_pages import head_to_head


def _entry(correct: int, total: int = 200, paired: bool = True, data_hash: str = "h") -> Entry:
    low, high = wilson_interval(correct, total)
    values = {f"i{i}": 1.0 if i < correct else 0.0 for i in range(total)} if paired else None
    return Entry(correct / total, low, high, values, data_hash, True)


def test_paired_tests_separate_what_overlapping_intervals_cannot() -> None:
    base, better = _entry(100), _entry(120)  # intervals overlap; 20 discordant pairs, all one way
    assert bands([base, better]) == ([2, 1], [2, 1], "paired")
    unpaired = bands([_entry(100, paired=False), _entry(120, paired=False)])
    assert unpaired == ([1, 1], [2, 2], "marginal")


def test_entries_on_different_data_are_compared_by_their_intervals() -> None:
    best, worst, basis = bands([_entry(100), _entry(120, data_hash="other"), _entry(120)])
    assert basis == "mixed" and (best, worst) == ([2, 1, 1], [3, 3, 2])  # only the paired pair is told apart


def test_an_entry_without_a_score_is_not_ranked() -> None:
    best, worst, basis = bands([_entry(100), Entry(None, None, None, None, None, True)])
    assert basis == "none" and best[0] == worst[0] == 1 and math.isnan(best[1])


def test_sample_values_follow_the_metrics_reading_of_unscored_answers() -> None:
    samples = [
        {"id": "a", "value": 1.0, "outcome": "scored"},
        {"id": "b", "value": None, "outcome": "unscored"},
        {"id": "c", "value": None, "outcome": "error"},
    ]
    entry = {"primary_metric": "accuracy", "samples": samples, "metrics": {"accuracy": {"value": 0.5, "n": 2}}}
    assert sample_values(entry) == {"a": 1.0, "b": 0.0}
    entry["metrics"]["accuracy"] = {"value": 1.0, "n": 1}
    assert sample_values(entry) == {"a": 1.0}
    entry["metrics"]["accuracy"] = {"value": 0.8, "n": 2}  # not a mean of the samples: no paired test
    assert sample_values(entry) is None


def test_the_task_page_ranks_by_paired_tests_and_says_so(make_run: Callable[..., Path], tmp_path: Path) -> None:
    runs = [
        make_run("base", model="openai/base", tasks={"demo/arith": binary(100, 200)}),
        make_run("better", model="openai/better", tasks={"demo/arith": binary(120, 200)}),
    ]
    site = build_site([build_submission([r]) for r in runs], tmp_path / "site", [load_run(r) for r in runs])
    page = next((site.out_dir / "tasks").glob("*.html")).read_text().replace("<wbr>", "")
    assert "Rank bands from paired tests" in page
    ranks = re.findall(r'<td data-sort="[^"]*">(\d[–\d]*)</td>\s*<td class="model"><a href="[^"]*">([^<]+)</a>', page)
    assert ranks == [("1", "openai/better"), ("2", "openai/base")]


def test_a_vs_page_shows_the_forest_plot_and_the_discordant_items(
    make_run: Callable[..., Path], tmp_path: Path
) -> None:
    tasks_a = {"demo/arith": binary(100, 200), "cyber/mcq": binary(5, 10)}
    runs = [
        make_run("base", model="openai/base", tasks=tasks_a),
        make_run("better", model="openai/better", tasks={"demo/arith": binary(120, 200), "cyber/mcq": binary(5, 10)}),
    ]
    site = build_site([build_submission([r]) for r in runs], tmp_path / "site", [load_run(r) for r in runs])
    index = (site.out_dir / "index.html").read_text()
    link = re.search(r'href="(vs/[^"]+\.html)">openai/better vs openai/base<', index)  # the leader is A
    assert link is not None
    page = (site.out_dir / link.group(1)).read_text()
    plot = re.search(r'src="\.\./(plots/vs-[^"]+)\.svg"', page)
    assert plot is not None and (site.out_dir / f"{plot.group(1)}.svg").read_text().count("<circle") == 2
    assert "-0.1000" in page and "mcnemar-exact" in page and "+0.0000" in page
    assert "demo/arith: items scored differently (20)" in page
    assert page.count("demo/arith-1") >= 10 and page.count('href="../samples/') == 40


def test_head_to_head_pages_cover_every_pair_of_a_small_suite_and_leader_and_neighbours_beyond() -> None:
    from leaderboard.vs_pages import pairs_of

    assert pairs_of(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    ranked = [f"s{i:02d}" for i in range(12)]
    chosen = pairs_of(ranked)
    assert len(chosen) == 11 + 10 and ("s00", "s11") in chosen and ("s05", "s06") in chosen
    assert ("s03", "s07") not in chosen


def _random_entries(rng: random.Random, count: int) -> list[Entry]:
    """Entries of a task table: mostly 0/1 on one item set, some on another hash, fewer items, fractions or none."""
    entries = []
    for index in range(count):
        kind = rng.choice(["same", "same", "same", "hash", "subset", "fraction", "none"])
        keys = [f"i{i:02d}" for i in range(30 if kind != "subset" else 20)]
        values = {k: float(rng.random() < 0.3 + 0.02 * index) for k in keys}
        if kind == "fraction":
            values = {k: round(rng.random(), 2) for k in keys}
        score = math.fsum(values.values()) / len(values)
        data_hash = "other" if kind == "hash" else "h"
        entries.append(Entry(score, score - 0.1, score + 0.1, None if kind == "none" else values, data_hash, True))
    return entries


def test_the_grouped_tests_are_each_pairs_own_test_and_the_bands_do_not_change(monkeypatch) -> None:
    rng = random.Random(7)
    entries = _random_entries(rng, 40)
    chosen = list(range(len(entries)))
    grouped = shared_item_tests(entries, chosen)
    assert len(grouped.first) > 200
    tested = zip(
        grouped.first.tolist(), grouped.second.tolist(), grouped.p.tolist(), grouped.diff.tolist(), strict=True
    )
    for i, j, p, diff in tested:
        assert i < j and paired_p(entries[i], entries[j]) == (p, diff)
    fast = bands(entries)
    nothing = shared_item_tests([], [])
    monkeypatch.setattr(paired_bands, "shared_item_tests", lambda entries, chosen: nothing)
    assert bands(entries) == fast and fast[2] == "mixed"


def test_holm_over_an_array_is_holms_adjustment() -> None:
    rng = random.Random(3)
    p_values = [rng.choice([0.001, 0.01, 0.04, 0.2, 1.0, rng.random()]) for _ in range(300)]
    assert holm_array(np.array(p_values)).tolist() == holm(p_values)
    assert holm_array(np.zeros(0)).tolist() == []


def test_a_vs_page_escapes_hostile_item_ids_and_links() -> None:
    """The discordant rows are escaped explicitly (see vs.html): ids and links stay text, the values numbers."""
    hostile = '<img src=x onerror="window.__pwned=1">&'

    def entry(values: list[float]) -> dict:
        samples = [{"id": f"{hostile}{i}", "value": v, "outcome": "scored"} for i, v in enumerate(values)]
        metric = {"value": sum(values) / len(values), "n": len(values)}
        return {"primary_metric": "accuracy", "metrics": {"accuracy": metric}, "samples": samples, "data_hash": "h"}

    rows = head_to_head({"tasks": {"t": entry([1.0, 0.0, 1.0])}}, {"tasks": {"t": entry([0.0, 0.0, 1.0])}})
    first = rows[0]["discordant"][0]["id"]
    rows[0] |= {"samples_a": 'samples/a"b.html', "samples_b": None, "side_by_side": {first: 'pair/x"<y.html'}}
    common = {"generator_version": "x", "n_submissions": 2, "site_title": "Leaderboard", "entries": "submissions"}
    context = {"suite": "s", "a": "A", "b": "B", "rows": rows, "forest": False, "slug": "s"}
    page = environment().get_template("vs.html").render(root="../", **common, **context)
    assert "<img" not in page, "no forest plot is shown where none was drawn"
    assert "&lt;img src=x onerror=&#34;window.__pwned=1&#34;&gt;&amp;0</td>" in page
    assert '<a href="../samples/a&#34;b.html">1.00</a>' in page and "<td>0.00</td>" in page
    assert 'href="../pair/x&#34;&lt;y.html">side by side</a>' in page
