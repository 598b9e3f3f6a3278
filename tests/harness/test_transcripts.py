"""Transcripts in the run log (issue 44 item 1): each message once per sample, referenced by the calls;
a log of run format 1 (no transcripts) still reads, shows, rescores and replays."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.adapters import resolve_adapter
from harness.cli.show import show_command
from harness.methods.best_of_n import BestOfN
from harness.plan import RunPlan, TaskPlan
from harness.registry import resolve_task
from harness.rescore import rescore_run
from harness.runformat import CONFIG_FILE, SUMMARY_FILE, VERSION_KEY
from harness.runlog import LogFormatError, iter_results
from harness.runner import RunOptions, evaluate, execute
from harness.store import RunStore
from harness.transcript import TranscriptBuilder, call_messages, conversation, has_transcript
from harness.types import CallRecord, Generation, Message, Output, SampleResult, Score, ToolCall, record_json

PLAN = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 6}),))
OPTIONS = RunOptions(progress=False)


def test_a_growing_conversation_is_stored_once_and_each_call_gets_its_prefix_back() -> None:
    builder = TranscriptBuilder()
    system = Message(role="system", content="policy")
    turns = [system]
    spans = []
    for turn in range(10):
        turns.append(Message(role="user", content=f"question {turn}"))
        spans.append(builder.spans(turns))
        call = ToolCall(id=f"c{turn}", name="lookup", arguments='{"q": "<b>x</b>",  "n": 1}')
        reply = Message(role="assistant", tool_calls=(call,))
        turns += [reply, Message(role="tool", content="ok", tool_call_id=call.id)]
    assert builder.messages == turns[:-2]  # the last reply and tool result were never sent
    assert spans[0] == ((0, 2),) and spans[-1] == ((0, len(turns) - 2),)
    # a second view of the same conversation (another participant) reuses what it shares
    other = builder.spans((system, Message(role="user", content="flipped")))
    assert other == ((0, 1), (len(turns) - 2, len(turns) - 1))


def test_every_call_of_a_run_refers_to_the_messages_it_was_made_on(tmp_path: Path) -> None:
    asyncio.run(execute(PLAN, tmp_path / "run", OPTIONS))
    lines = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert all(line["transcript"] and line["calls"][0]["messages"] == [[0, 1]] for line in lines)
    for result in RunStore(tmp_path / "run").results():
        assert has_transcript(result)
        (call,) = result.calls
        assert call_messages(result.transcript or (), call) == ((Message(role="user", content=result.input),))
        assert conversation(result)[-1] == Message(role="assistant", content=result.output.text)


def test_best_of_n_candidates_share_one_stored_question_and_the_selected_call_is_named() -> None:
    task = resolve_task("demo/arith").create(n=4)
    results = asyncio.run(evaluate(task, BestOfN(resolve_adapter("builtin/random", seed=5), n=5, temperature=1.0)))
    for result in results:
        assert len(result.transcript or ()) == 1 and len(result.calls) == 5
        assert all(call.messages == ((0, 1),) for call in result.calls)
        (selected,) = result.method_data["best_of_n"]["selected_calls"]
        assert result.calls[selected].generation.text == result.output.text


def _as_format_one(run: Path) -> None:
    """Rewrite ``run`` as the previous release wrote it: no transcripts, no call spans, format 1."""
    log = run / "samples.jsonl"
    lines = []
    for raw in log.read_text().splitlines():
        line = json.loads(raw)
        line.pop("transcript")
        for call in line["calls"]:
            call.pop("messages")
        lines.append(json.dumps(line))
    log.write_text("\n".join(lines) + "\n")
    for name in (CONFIG_FILE, SUMMARY_FILE):
        data = json.loads((run / name).read_text())
        data[VERSION_KEY] = 1
        (run / name).write_text(json.dumps(data))


def test_a_format_one_log_reads_shows_rescores_and_replays_without_transcripts(tmp_path: Path) -> None:
    run = tmp_path / "run"
    asyncio.run(execute(PLAN, run, OPTIONS))
    _as_format_one(run)
    results = list(RunStore(run).results())
    assert len(results) == 6 and not any(has_transcript(r) for r in results)
    assert all(conversation(r)[-1].content == r.output.text for r in results)
    shown = CliRunner().invoke(show_command, [str(run), "--sample", results[0].sample_id])
    assert shown.exit_code == 0 and "without transcripts" in shown.output, shown.output
    assert results[0].output.text in shown.output
    assert rescore_run(run) == (6, 0)
    replayed = asyncio.run(execute(RunPlan(model=f"replay/{run}", tasks=PLAN.tasks), tmp_path / "replayed", OPTIONS))
    assert replayed.tasks["demo/arith"].metrics["accuracy"].value == 1.0


@pytest.mark.parametrize("spans", [[[0, 2]], [[1, 1]], [[-1, 1]], [[0]], "x"])
def test_a_call_naming_messages_outside_the_transcript_is_a_format_error(tmp_path: Path, spans: object) -> None:
    run = tmp_path / "run"
    asyncio.run(execute(PLAN, run, OPTIONS))
    log = run / "samples.jsonl"
    line = json.loads(log.read_text().splitlines()[0])
    line["calls"][0]["messages"] = spans
    log.write_text(json.dumps(line) + "\n")
    with pytest.raises(LogFormatError, match=r"samples\.jsonl:1: not a sample result \(calls\.0\.messages|transcript"):
        list(RunStore(run).results())


def test_show_sample_prints_the_conversation_details_and_calls_and_failed_lists_the_failures(tmp_path: Path) -> None:
    task = TaskPlan("demo/arith", {"n": 12})
    asyncio.run(execute(RunPlan(model="builtin/random", tasks=(task,)), tmp_path / "run", OPTIONS))
    results = list(RunStore(tmp_path / "run").results())
    wrong = next(r for r in results if r.score.value == 0.0)
    shown = CliRunner().invoke(show_command, [str(tmp_path / "run"), "--sample", wrong.sample_id])
    assert shown.exit_code == 0, shown.output
    text = shown.output
    assert "wrong" in text and str(wrong.input)[:40] in text and wrong.output.text in text and "calls (1)" in text
    listed = CliRunner().invoke(show_command, [str(tmp_path / "run"), "--failed"]).output.splitlines()
    failures = [r for r in results if r.score.value != 1.0]
    assert len(listed) == len(failures) + 1 and f"{len(failures)} sample(s) without full marks" == listed[-1]
    assert all(line.startswith("demo/arith  ") and " wrong " in line for line in listed[:-1])
    missing = CliRunner().invoke(show_command, [str(tmp_path / "run"), "--sample", "nope"])
    assert missing.exit_code != 0 and "no sample 'nope' in the log" in str(missing.exception)


def test_show_sample_writes_control_characters_and_markup_as_text(tmp_path: Path) -> None:
    run = tmp_path / "run"
    asyncio.run(execute(PLAN, run, OPTIONS))
    log = run / "samples.jsonl"
    line = json.loads(log.read_text().splitlines()[0])
    hostile = "\x1b[31mred\x1b[0m [bold]not bold[/bold] \x07"
    line["output"]["text"] = hostile
    line["score"]["explanation"] = hostile
    line["score"]["details"] = {"deep": {"x": [{"met": True, "what": hostile}]}}
    log.write_text(json.dumps(line) + "\n")
    shown = CliRunner().invoke(show_command, [str(run), "--sample", line["sample_id"]])
    assert shown.exit_code == 0, shown.output
    assert "\x1b" not in shown.output and "\x07" not in shown.output
    assert "\\x1b[31mred" in shown.output and "[bold]not bold[/bold]" in shown.output and "deep.x 1" in shown.output


def test_compare_names_the_items_two_runs_scored_differently(tmp_path: Path) -> None:
    from harness.cli.compare import compare_command
    from harness.compare import compare_runs

    task = TaskPlan("demo/arith", {"n": 8})
    for model in ("builtin/oracle", "builtin/random"):
        asyncio.run(execute(RunPlan(model=model, tasks=(task,)), tmp_path / model.split("/")[1], OPTIONS))
    left = {r.sample_id: r.score.value for r in RunStore(tmp_path / "oracle").results()}
    right = {r.sample_id: r.score.value for r in RunStore(tmp_path / "random").results()}
    differing = sorted(i for i in left if left[i] != right[i])
    (pair,) = compare_runs([tmp_path / "oracle", tmp_path / "random"])["pairs"]
    row = pair["tasks"]["demo/arith"]
    assert row["discordant_count"] == len(differing) > 0 and sorted(row["discordant"]) == differing
    shown = CliRunner().invoke(compare_command, [str(tmp_path / "oracle"), str(tmp_path / "random")])
    assert f"{len(differing)} item(s) scored differently ({differing[0]}" in shown.output
    assert "side by side" in shown.output


def _agent_result() -> SampleResult:
    """A logged agent sample: a transcript, one call on it, and the output's trajectory ending in a closing turn."""
    builder = TranscriptBuilder()
    system, ask = Message(role="system", content="policy"), Message(role="user", content="hi")
    call = CallRecord(request_key="k", generation=Generation(text="hello"), messages=builder.spans((system, ask)))
    trajectory = (ask, Message(role="assistant", content="hello"), Message(role="user", content="###STOP###"))
    builder.spans(trajectory)
    return SampleResult(
        sample_id="s",
        task="t",
        input="hi",
        output=Output(text="hello", trajectory=trajectory),
        score=Score.of(True),
        calls=(call,),
        transcript=tuple(builder.messages),
    )


def test_an_agent_trajectory_is_stored_as_spans_of_the_transcript_and_read_back() -> None:
    result = _agent_result()
    line = json.loads(record_json(result))
    assert line["output"]["trajectory"] == {"transcript_spans": [[1, 4]]}
    assert SampleResult.model_validate_json(record_json(result)) == result
    assert conversation(result)[-1] == Message(role="user", content="###STOP###")


@pytest.mark.parametrize(
    "stored", [{"transcript_spans": [[0, 9]]}, {"transcript_spans": [[2, 1]]}, {"transcript_spans": "x"}, {"x": 1}]
)
def test_trajectory_spans_outside_the_transcript_are_a_format_error(tmp_path: Path, stored: object) -> None:
    line = json.loads(record_json(_agent_result()))
    line["output"]["trajectory"] = stored
    (tmp_path / "samples.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(LogFormatError, match=r"samples\.jsonl:1: not a sample result.*trajectory"):
        list(iter_results(tmp_path / "samples.jsonl"))


def test_an_imported_output_is_logged_on_the_sample_messages(tmp_path: Path) -> None:
    from harness.importing import import_outputs

    plan = TaskPlan("demo/arith", {"n": 2})
    source = tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps({"row": i, "text": f"ANSWER: {i}"}) + "\n" for i in range(2)))
    import_outputs(plan, source, tmp_path / "run")
    result = next(iter(RunStore(tmp_path / "run").results()))
    (call,) = result.calls
    assert call.role == "import" and call_messages(result.transcript or (), call) == (
        Message(role="user", content=result.input),
    )
    shown = CliRunner().invoke(show_command, [str(tmp_path / "run"), "--sample", result.sample_id])
    assert "without transcripts" not in shown.output and "ANSWER: 0" in shown.output and "import" in shown.output
