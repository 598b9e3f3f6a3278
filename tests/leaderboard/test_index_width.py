"""The index never scrolls sideways at 1,400 px, however many families its table has a column for.

The quick start's report (seven families, an interval under every score) overflowed the page
by 35 px: a table ignores ``max-width`` when its cells need more. The table scrolls inside its
own box instead, and the page keeps its width.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import binary, write_run
from leaderboard_cdp import Browser, chromium_available

from leaderboard.runs import load_run
from leaderboard.site import build_site
from leaderboard.submission import build_submission

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not chromium_available(), reason="chromium is not installed"),
    pytest.mark.timeout(180),
]

FAMILIES = ("demo", "cyber", "confiqa", "longcot", "coins", "tau2", "jailbreak", "alpha", "beta", "gamma")


async def test_a_table_of_ten_families_scrolls_inside_and_the_page_keeps_1400_px(tmp_path: Path) -> None:
    runs = [
        write_run(
            tmp_path / "runs",
            name,
            model=f"org/{name}-model",
            tasks={f"{family}/task": binary(correct, 7) for family in FAMILIES},
        )
        for name, correct in (("strong", 6), ("weak", 1))
    ]
    site = tmp_path / "site"
    build_site([build_submission([run]) for run in runs], site, [load_run(run) for run in runs], page_size=4)
    async with Browser() as browser:
        await browser.send(
            "Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False
        )
        await browser.load((site / "index.html").as_uri())
        table = await browser.evaluate(
            "(() => { const t = document.querySelector('table.leaderboard');"
            " return {right: t.getBoundingClientRect().right, content: t.scrollWidth, box: t.clientWidth}; })()"
        )
        assert table["content"] > table["box"], table  # the ten columns do not fit: the table scrolls
        assert table["right"] <= 1400, table
        assert await browser.evaluate("document.documentElement.scrollWidth") <= 1400
        assert browser.problems() == []
