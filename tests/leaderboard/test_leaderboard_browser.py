"""The built site in headless Chromium: no console errors, sortable tables, a real screenshot, no XSS."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib.image
import pytest
from conftest import PAYLOAD_MODEL, build_board, write_run
from leaderboard_cdp import Browser, chromium_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not chromium_available(), reason="chromium is not installed"),
    pytest.mark.timeout(180),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser")
    return build_board(lambda name, **kw: write_run(root / "runs", name, **kw), root / "site")


async def test_every_page_loads_without_errors_or_remote_requests(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    async with Browser() as browser:
        for page in pages:
            await browser.load(page.as_uri())
            assert (
                await browser.evaluate("document.querySelectorAll('th button').length") > 0
                or "samples" in page.relative_to(site).parts
            ), page
        assert browser.problems() == []
        requested = browser.requests()
        assert requested and all(url.startswith("file://") for url in requested), requested
        images = [u for u in requested if u.endswith(".svg")]
        assert images, "the plots were not requested"
        assert await browser.evaluate("window.__pwned") is None


async def test_table_sorts_by_clicked_column(site: Path) -> None:
    read_scores = (
        "Array.from(document.querySelectorAll('table.leaderboard tbody tr'))"
        ".map(r => Number(r.cells[3].getAttribute('data-sort')))"
    )
    read_models = (
        "Array.from(document.querySelectorAll('table.leaderboard tbody tr')).map(r => r.cells[1].textContent.trim())"
    )
    async with Browser() as browser:
        await browser.load((site / "index.html").as_uri())
        initial = await browser.evaluate(read_scores)
        assert initial == sorted(initial, reverse=True) and len(set(initial)) > 1
        await browser.evaluate("document.querySelectorAll('table.leaderboard th button')[3].click()")
        assert await browser.evaluate(read_scores) == sorted(initial)
        await browser.evaluate("document.querySelectorAll('table.leaderboard th button')[3].click()")
        assert await browser.evaluate(read_scores) == sorted(initial, reverse=True)
        await browser.evaluate("document.querySelectorAll('table.leaderboard th button')[1].click()")
        models = await browser.evaluate(read_models)
        assert models == sorted(models, key=str.lower)
        assert (
            await browser.evaluate("document.querySelectorAll('table.leaderboard th')[1].getAttribute('aria-sort')")
            == "ascending"
        )
        assert browser.problems() == []


async def test_screenshot_is_not_blank(site: Path) -> None:
    async with Browser() as browser:
        await browser.load((site / "index.html").as_uri())
        png = await browser.screenshot()
    image = matplotlib.image.imread(io.BytesIO(png), format="png")[..., :3]
    assert image.shape[0] >= 600 and image.shape[1] >= 1000
    assert image.std() > 0.05
    # more than a sliver of the page is not background
    assert ((image.mean(axis=2) < 0.9).mean()) > 0.02


async def test_payloads_render_as_text_and_run_nothing(site: Path) -> None:
    sample_pages = sorted((site / "samples").glob("*.html"))
    async with Browser() as browser:
        await browser.load((site / "index.html").as_uri())
        models = await browser.evaluate(
            "Array.from(document.querySelectorAll('td.model')).map(td => td.textContent.trim())"
        )
        assert PAYLOAD_MODEL in models
        assert await browser.evaluate("document.querySelectorAll('main img[src=x], main script').length") == 0
        outputs = []
        for page in sample_pages:
            await browser.load(page.as_uri())
            outputs += await browser.evaluate(
                "Array.from(document.querySelectorAll('.output pre')).map(p => p.textContent)"
            )
            assert await browser.evaluate("document.querySelectorAll('img[src=y], main script').length") == 0
        assert any("<script>window.__pwned=3</script>" in text for text in outputs)
        assert await browser.evaluate("window.__pwned") is None
        assert browser.problems() == []
