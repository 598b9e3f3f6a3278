"""The report explains itself, checked in headless Chromium at 1,400 px.

The site is built by ``frontier report`` from real runs: the oracle (no tokens, $0), a
model behind the loopback server (tokens, cost unknown) and one whose server is down
(every sample an error), on two tasks, with a long model name.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import pytest
from leaderboard_cdp import Browser, chromium_available

from harness.testing.openai_server import OpenAIServer

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="chromium is not installed"),
    pytest.mark.timeout(300),
]
ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
TASKS = ("--task", "demo/arith", "--task", "cyber-gen/cwe")
LONG_NAME = "a-rather-long-model-name-that-would-not-fit-in-a-column-v2"


def frontier(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=180
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("first-hour-site")
    common = ["--limit", "3", "--no-cache", "--no-progress"]
    assert frontier("run", *TASKS, "--model", "builtin/oracle", *common, "--out", str(root / "oracle")).returncode == 0
    with OpenAIServer() as server:
        echoed = frontier(
            "run",
            *TASKS,
            "--model",
            f"openai-compatible/{LONG_NAME}@{server.base_url}",
            *common,
            "--out",
            str(root / "echo"),
        )
    assert echoed.returncode == 0, echoed.stderr
    down = frontier(
        "run",
        *TASKS,
        "--model",
        "openai-compatible/down@http://127.0.0.1:9/v1",
        *common,
        "--max-retries",
        "0",
        "--out",
        str(root / "down"),
    )
    assert down.returncode == 1, down.stderr
    built = frontier("report", str(root / "oracle"), str(root / "echo"), str(root / "down"), "-o", str(root / "site"))
    assert built.returncode == 0, built.stderr
    return root / "site"


async def _at_1400(browser: Browser, page: Path) -> None:
    await browser.send("Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False)
    await browser.load(page.as_uri())


def _not_blank(png: bytes) -> None:
    pixels = matplotlib.image.imread(io.BytesIO(png), format="png")
    assert pixels.shape[1] == 1400 and float(pixels.std()) > 0.01


GLOSSARY_CHECK = """(() => {
  const defined = {};
  document.querySelectorAll('dl.glossary dt').forEach(dt => {
    defined[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim(); });
  const terms = Array.from(document.querySelectorAll('abbr.term'));
  const name = t => t.textContent.trim();
  return {terms: terms.map(name),
          undefined_terms: terms.filter(t => !(name(t) in defined) || !t.title).map(name),
          tooltips_match: terms.every(t => !(name(t) in defined) || defined[name(t)] === t.title)};
})()"""


@pytest.mark.slow
async def test_the_index_defines_every_metric_fits_1400_px_and_invents_no_cost(site: Path) -> None:
    async with Browser() as browser:
        await _at_1400(browser, site / "index.html")
        assert await browser.evaluate("document.documentElement.scrollWidth") <= 1400
        assert await browser.evaluate(
            "Array.from(document.querySelectorAll('table')).every(t => t.getBoundingClientRect().right <= 1400)"
        )
        terms = await browser.evaluate(GLOSSARY_CHECK)
        assert {"accuracy", "Rank", "Overall", "Tasks"} <= set(terms["terms"])
        assert terms["undefined_terms"] == [] and terms["tooltips_match"]
        # every cost is $0 or unknown: no dollar plot, and the page says why
        assert await browser.evaluate("document.querySelectorAll('img[src$=\"-usd.svg\"]').length") == 0
        assert "No cost data" in await browser.evaluate("document.body.innerText")
        # the run whose every sample failed names the tasks it is missing and why
        missing = await browser.evaluate(
            "Array.from(document.querySelectorAll('.missing')).map(e => e.textContent.trim())"
        )
        assert "without demo/arith: no sample was scored (0 unscored, 3 errors)" in missing
        # a long model name wraps at its separators only and stays inside its cell
        cell = await browser.evaluate("""(() => { const td = Array.from(document.querySelectorAll('td.model'))
            .find(td => td.textContent.includes('rather-long')); const s = getComputedStyle(td);
            return {wbr: td.querySelectorAll('wbr').length, wrap: s.overflowWrap, brk: s.wordBreak,
                    fits: td.scrollWidth <= td.clientWidth}; })()""")
        assert cell["wbr"] > 5 and cell["wrap"] == "normal" and cell["brk"] == "normal" and cell["fits"]
        footer = await browser.evaluate("document.querySelector('footer').textContent")
        from importlib.metadata import version

        assert f"frontier-evals {version('frontier-evals')} " in footer
        _not_blank(await browser.screenshot())
        assert browser.problems() == []


async def test_a_task_page_defines_its_metric_and_rank_bands(site: Path) -> None:
    page = next(p for p in sorted((site / "tasks").glob("*.html")) if "demo-arith" in p.name)
    async with Browser() as browser:
        await _at_1400(browser, page)
        terms = await browser.evaluate(GLOSSARY_CHECK)
        assert {"accuracy", "Rank"} <= set(terms["terms"]) and terms["undefined_terms"] == []
        text = await browser.evaluate("document.body.innerText")
        assert "a band, not a place" in text and "No cost data" in text
        assert await browser.evaluate("document.documentElement.scrollWidth") <= 1400
        _not_blank(await browser.screenshot())


async def test_sample_page_colours_say_correct_wrong_unscored_or_error(site: Path) -> None:
    pages = sorted((site / "samples").glob("*.html"))
    colours: dict[str, set[str]] = {}
    async with Browser() as browser:
        for page in pages:
            await _at_1400(browser, page)
            found = await browser.evaluate("""Array.from(document.querySelectorAll('article.sample')).map(a =>
                [Array.from(a.classList).find(c => c.startsWith('verdict-')), getComputedStyle(a).borderLeftColor])""")
            for verdict, colour in found:
                colours.setdefault(verdict, set()).add(colour)
            if found:
                assert "Colour key" in await browser.evaluate("document.body.innerText")
        _not_blank(await browser.screenshot())
    assert {"verdict-correct", "verdict-error"} <= set(colours), colours
    assert all(len(c) == 1 for c in colours.values()), colours  # one colour per verdict
    assert len({next(iter(c)) for c in colours.values()}) == len(colours)  # and a different one for each


@pytest.mark.slow
def test_every_plot_names_every_point(site: Path) -> None:
    """Each plot's legend or labels name every run placed on it (a model name cut to the legend's width)."""
    import json
    import re

    board = json.loads((site / "leaderboard.json").read_text(encoding="utf-8"))
    placed: dict[str, set[str]] = {}
    for row in board["tasks"]:
        if row["score"] is not None:
            placed.setdefault(row["task"].replace("/", "-"), set()).add(row["model"])
    everyone = {row["model"] for row in board["overall"] if row["score"] is not None}
    # the cost-versus-score plots; the head-to-head forest plots (vs-*) are checked in test_paired_bands.py
    plots = sorted(p for p in (site / "plots").glob("*.svg") if not p.name.startswith("vs-"))
    assert plots and any(p.name.startswith("suite-") for p in plots)
    for plot in plots:
        texts = set(re.findall(r"<text[^>]*>([^<]*)</text>", plot.read_text(encoding="utf-8")))
        task = next((t for t in placed if f"-{t}-" in plot.name), None)
        models = everyone if plot.name.startswith("suite-") else placed[task] if task else set()
        assert models, f"{plot.name}: no runs found for it"
        for model in models:
            shown = model if len(model) <= 24 else model[:23] + "…"
            assert shown in texts, f"{plot.name}: {model} is neither labelled nor in the legend"
