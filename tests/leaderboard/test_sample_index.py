"""The filter index of a run's samples (issue 44 item 3): short columns, each text once per part, split into parts
that the page loads only when its filter needs them, and every listed row a link to its sample's page, hostile ids
included (headless Chromium)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path

import pytest
from leaderboard_cdp import Browser, chromium_available

import leaderboard
from harness.runformat import versioned
from harness.types import Output, RunSummary, SampleResult, Score, TaskSummary, Usage, record_json
from leaderboard import sample_index
from leaderboard.runs import load_run
from leaderboard.sample_index import TEXT_CHARS, page_key
from leaderboard.samples_pages import sample_page, write_sample_pages
from leaderboard.site_env import environment
from leaderboard.views import slug

IDS = [
    "retail-0",
    "Ünïcode-ÄÖ-1",
    "a/b\\c..-2",
    "</script><img src=x onerror=window.__pwned=1>",
    "..-.hidden",
    "\u2028line\u2029sep",
    "\uff21\uff22-full-width",
    "x" * 90,
]
TASKS = ("tau2/retail", "tau2/airline")


def _write_run(folder: Path, count: int) -> Path:
    """A run of ``count`` samples over two tasks: ids from ``IDS`` then numbered, a third wrong, a long output."""
    run = folder / "run"
    run.mkdir()
    with (run / "samples.jsonl").open("w", encoding="utf-8") as log:
        for index in range(count):
            sample_id = IDS[index] if index < len(IDS) else f"sample-{index}"
            correct = index % 3 != 0
            explanation = "reward 1" if correct else f"reward 0 <b>(db)</b>\nsecond line {index}"
            result = SampleResult(
                sample_id=sample_id,
                task=TASKS[index % 2],
                input="scenario",
                output=Output(text=f"Your order ships tomorrow, {'very ' * 60}soon.\nSecond line."),
                score=Score.of(correct, answer="user_stop", explanation=explanation),
            )
            log.write(record_json(result) + "\n")
    config = {"model": "synthetic/agent", "methods": [], "suite": "t", "seed": 0, "tasks": [], "config_hash": "x"}
    (run / "config.json").write_text(json.dumps(versioned(config)))
    summary = RunSummary(
        run_id="t",
        model="synthetic/agent",
        harness_version="t",
        config_hash="x",
        tasks={task: TaskSummary(metrics={}, counts={"scored": count}, usage=Usage(), cost_usd=None) for task in TASKS},
        started_at="",
        finished_at="",
    )
    (run / "summary.json").write_text(json.dumps(versioned(summary.model_dump(mode="json"))))
    return run


def _build(run: Path, out: Path) -> Path:
    """The run's sample pages and index as the report writes them; returns the index page."""
    env = environment()
    common = {"generator_version": "t", "n_submissions": 1, "site_title": "Report", "entries": "run(s)"}
    listing = env.get_template("samples.html")

    def render_page(name: str, context: dict) -> str:
        return env.get_template(name).render(root="../../" if name == "sample.html" else "../", **common, **context)

    write_sample_pages(
        load_run(run),
        "synthetic",
        "t",
        set(TASKS),
        out,
        lambda context: listing.render(root="../", **common, **context),
        render_page=render_page,
    )
    shutil.copytree(Path(leaderboard.__file__).parent / "static", out / "static")
    (index,) = (out / "samples").glob("*-index.html")
    return index


def _part(path: Path) -> tuple[int, dict]:
    found = re.fullmatch(r"window\.frontierSampleIndexPart\((\d+),(.*)\);\n", path.read_text(encoding="ascii"), re.S)
    assert found, path
    return int(found.group(1)), json.loads(found.group(2))


def _manifest(samples: Path) -> dict:
    (path,) = samples.glob("*-index.js")
    return json.loads(path.read_text(encoding="ascii").removeprefix("window.frontierSampleIndex = ").rstrip(";\n"))


def test_the_index_is_columns_with_each_text_once_a_part_and_tallies(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(sample_index, "PART_ROWS", 5)
    run = _write_run(tmp_path, 23)
    _build(run, tmp_path / "site")
    samples = tmp_path / "site" / "samples"
    manifest = _manifest(samples)
    assert manifest["count"] == 23 and manifest["tasks"] == list(TASKS) and len(manifest["parts"]) == 5
    assert manifest["dirs"] == [slug("synthetic", task) for task in TASKS]
    assert [p["rows"] for p in manifest["parts"]] == [5, 5, 5, 5, 3]
    seen: list[str] = []
    for number, meta in enumerate(manifest["parts"]):
        at, part = _part(samples / meta["src"])
        assert at == number
        rows = len(part["id"])
        assert all(len(part[column]) == rows for column in ("task", "verdict", "score", "page", "output", "reason"))
        assert len(part["texts"]) == len(set(part["texts"])) <= 2 * rows  # each distinct text once
        assert all(len(text) <= TEXT_CHARS and "\n" not in text for text in part["texts"])
        tally: dict[tuple[int, int], int] = {}
        for task, verdict in zip(part["task"], part["verdict"], strict=True):
            tally[(task, verdict)] = tally.get((task, verdict), 0) + 1
        assert sorted([t, v, n] for (t, v), n in tally.items()) == meta["tally"]
        for i, sample_id in enumerate(part["id"]):
            seen.append(sample_id)
            expected = sample_page("synthetic", TASKS[part["task"][i]], sample_id)
            stem = Path(expected).stem
            key = part["page"][i]
            assert key == (stem[-10:] if sample_id.isascii() else stem) == page_key(sample_id)
            assert (samples / expected).is_file()
        assert set(part["score"]) <= {0, 1} and all(type(s) is int for s in part["score"])
    assert len(seen) == 23 and seen[: len(IDS)] == IDS


async def _settled(browser: Browser) -> str:
    """The count line once the filter has read what it needs."""
    for _ in range(500):
        text = await browser.evaluate("document.getElementById('sample-count').textContent")
        if text and "parts of the index read" not in text:
            return text
        await asyncio.sleep(0.02)
    raise AssertionError(f"the filter did not settle: {text!r}")


async def _filter(browser: Browser, **fields: str) -> str:
    setting = "".join(f"f.elements.{name}.value = {json.dumps(value)};" for name, value in fields.items())
    await browser.evaluate(
        f"(() => {{ const f = document.getElementById('sample-filter'); {setting}"
        "f.dispatchEvent(new Event('input')); })()"
    )
    return await _settled(browser)


LOADED_PARTS = (
    "Array.from(document.querySelectorAll('script[src]')).filter(s => /-index-[0-9]+[.]js$/.test(s.src)).length"
)
ROWS = (
    "Array.from(document.querySelectorAll('#sample-rows tr')).map(r => [r.cells[1].textContent, "
    "r.querySelector('a').getAttribute('href'), r.cells[2].textContent])"
)


@pytest.mark.slow
@pytest.mark.skipif(not chromium_available(), reason="chromium is not installed")
@pytest.mark.timeout(300)
async def test_the_page_reads_the_parts_its_filter_needs_and_links_every_row(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(sample_index, "PART_ROWS", 6)
    monkeypatch.setattr(sample_index, "SHOWN", 8)
    run = _write_run(tmp_path, 40)  # 7 parts
    index = _build(run, tmp_path / "site")
    results = [json.loads(line) for line in (run / "samples.jsonl").open()]
    async with Browser() as browser:
        await browser.load(index.as_uri())
        # the first page of matches needs two parts of seven; the count comes from the tallies
        assert await _settled(browser) == "40 of 40 sample(s) match; the first 8 are listed"
        assert await browser.evaluate(LOADED_PARTS) == 2
        rows = await browser.evaluate(ROWS)
        assert [r[0] for r in rows] == [r["sample_id"] for r in results[:8]]
        for _, href, _ in rows:  # every link, hostile ids included, is the sample's page
            assert (index.parent / href).is_file(), href
        wrong = sum(r["score"]["correct"] is False for r in results)
        text = await _filter(browser, verdict="wrong")
        assert text == f"{wrong} of 40 sample(s) match; the first 8 are listed"
        assert all(r[2] == "wrong" for r in await browser.evaluate(ROWS))
        # a text that only the last part holds: every part with rows of the outcome and task asked for is read
        last = results[-1]["sample_id"]
        assert await _filter(browser, verdict="", task="1", text=last) == "1 of 40 sample(s) match"
        assert await browser.evaluate(LOADED_PARTS) == 7
        ((found, href, _),) = await browser.evaluate(ROWS)
        assert found == last and (index.parent / href).is_file()
        # the reason's first line is searched; markup in it stays text
        assert (
            await _filter(browser, task="", text="<b>(db)</b>")
            == f"{wrong} of 40 sample(s) match; the first 8 are listed"
        )
        hostile = IDS[3]
        assert await _filter(browser, verdict="", text=hostile[:12]) == "1 of 40 sample(s) match"
        ((found, href, _),) = await browser.evaluate(ROWS)
        assert found == hostile and (index.parent / href).is_file()
        await browser.load((index.parent / href).as_uri())
        assert hostile in await browser.evaluate("document.querySelector('h1').textContent")
        assert await browser.evaluate(
            "window.__pwned === undefined && document.querySelectorAll('main img').length === 0"
        )
        assert browser.problems() == []
