"""Runs through the batch APIs of a loopback server: the same scores as without batches, fewer calls."""

from __future__ import annotations

import json
from pathlib import Path

from harness.batch.state import STATE_FILE, read_batches
from harness.testing.batch_server import BatchServer

from .conftest import run_arith, scores


def openai_model(server: BatchServer) -> str:
    return f"openai-compatible/test-model@{server.base_url}"


def test_batched_run_scores_as_the_direct_run(tmp_path: Path, batch_server: BatchServer) -> None:
    """One batch of 20 requests, done after several polls, gives each sample the score a direct call gives."""
    direct = run_arith(tmp_path / "direct", openai_model(batch_server), batch=False)
    chat_calls = len(batch_server.requests)
    batched = run_arith(tmp_path / "batched", openai_model(batch_server), batch=True)
    assert len(batch_server.requests) == chat_calls  # no chat completion was sent in batch mode
    assert list(batch_server.batches) == ["batch_2"] and len(batch_server.batches["batch_2"]) == 20
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")
    assert batched.tasks["demo/arith"].metrics["accuracy"].value == direct.tasks["demo/arith"].metrics["accuracy"].value
    (record,) = read_batches(tmp_path / "batched").values()
    assert record.ended is not None and record.ended["status"] == "completed" and record.ended["answered"] == 20
    assert sorted(sample for _, sample, _ in record.requests.values()) == sorted(scores(tmp_path / "direct"))


def test_an_expired_batch_resubmits_only_its_unanswered_requests(tmp_path: Path, batch_server: BatchServer) -> None:
    """The first batch expires with half its requests done: the other half, and only it, goes into a second batch."""
    batch_server.behaviour.endings = ["expired"]
    run_arith(tmp_path / "direct", openai_model(batch_server), batch=False)
    run_arith(tmp_path / "batched", openai_model(batch_server), batch=True)
    first, second = batch_server.batches.values()
    assert len(first) == 20 and len(second) == 10
    assert {line["custom_id"] for line in second} == {line["custom_id"] for line in first[10:]}
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")
    ended = [record.ended for record in read_batches(tmp_path / "batched").values()]
    assert [(e["status"], e["answered"], e["unanswered"]) for e in ended if e] == [
        ("expired", 10, 10),
        ("completed", 10, 0),
    ]


def test_per_request_errors_are_error_outcomes_with_the_providers_message(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """HTTP 400 answers end their samples in error, quoting the provider; HTTP 500 ones are retried in a new batch."""
    batch_server.behaviour.error_every = 4
    batch_server.behaviour.transient_every = 5
    run_arith(tmp_path / "batched", openai_model(batch_server), batch=True)
    logged = scores(tmp_path / "batched")
    errors = [outcome for outcome, _ in logged.values() if outcome == "error"]
    assert len(errors) == 5
    explanations = [r.score.explanation for r in _results(tmp_path / "batched") if r.score.outcome == "error"]
    assert all("is invalid" in text and "invalid_request_error" in text for text in explanations)
    first, retried = batch_server.batches.values()
    assert len(retried) == 3  # lines 5, 10, 15 of the first batch (line 20 was a 400)
    assert {line["body"]["messages"][0]["content"] for line in retried} <= {
        line["body"]["messages"][0]["content"] for line in first
    }


def test_hostile_results_are_counted_and_never_attributed(tmp_path: Path, batch_server: BatchServer, caplog) -> None:
    """A malformed line, an unknown custom_id, a duplicated answer: counted, said; the duplicated request fails."""
    batch_server.behaviour.hostile = True
    with caplog.at_level("WARNING", logger="harness.batch"):
        run_arith(tmp_path / "batched", openai_model(batch_server), batch=True)
    assert "1 malformed line(s), 1 with a custom_id the batch does not hold, 1 duplicated custom_id(s)" in caplog.text
    results = _results(tmp_path / "batched")
    failed = [r for r in results if r.score.outcome == "error"]
    assert len(failed) == 1 and "more than one result" in failed[0].score.explanation
    (record,) = read_batches(tmp_path / "batched").values()
    assert record.ended is not None and record.ended["anomalies"] == {"malformed": 1, "unknown": 1, "duplicated": 1}


def _results(out: Path) -> list:
    from harness.runformat import RunFiles

    return list(RunFiles(out).results())


def test_the_state_file_survives_a_line_cut_by_a_kill(tmp_path: Path, batch_server: BatchServer) -> None:
    """A last line cut short (the process was killed while writing it) is ignored when the state is read."""
    run_arith(tmp_path / "batched", openai_model(batch_server), batch=True, n=3)
    path = tmp_path / "batched" / STATE_FILE
    with path.open("a") as handle:
        handle.write(json.dumps({"event": "submitted", "batch": "x"})[:20])
    assert list(read_batches(tmp_path / "batched")) == ["batch_2"]


def test_model_option_batch_batches_the_runs_model(tmp_path: Path, batch_server: BatchServer) -> None:
    """-M batch=true without --batch: the run's model answers through one batch; config.json keeps the option."""
    run_arith(tmp_path / "batched", openai_model(batch_server), batch=False, model_options={"batch": True})
    assert len(batch_server.batches) == 1 and not batch_server.requests
    config = json.loads((tmp_path / "batched" / "config.json").read_text())
    assert config["model_options"] == {"batch": True}


def test_batch_mode_refuses_the_ray_executor(tmp_path: Path) -> None:
    """--batch --executor ray: one line saying batch mode runs locally, exit status 2, no traceback."""
    import subprocess
    import sys

    args = ["--task", "demo/arith", "--model", "builtin/oracle", "--batch", "--executor", "ray", "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-m", "harness", "run", *args, "--out", str(tmp_path / "run")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "batch mode (--batch, -M batch=true) runs with --executor local" in done.stderr


def test_a_batch_whose_status_cannot_be_read_is_polled_again_by_retry_errors(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """Status polls failing with 503 past the retries end the samples in error (no hang); the batch stays
    recorded as waiting, and --resume --retry-errors polls it again instead of resubmitting."""
    from harness.batch.state import waiting_requests

    batch_server.behaviour.status_error = 503
    model = openai_model(batch_server)
    run_arith(tmp_path / "batched", model, batch=True, n=5)
    logged = _results(tmp_path / "batched")
    assert [r.score.outcome for r in logged] == ["error"] * 5
    assert all("gave up after 3 retries" in r.score.explanation for r in logged)
    assert [(batch, count) for batch, _, count, _ in waiting_requests(tmp_path / "batched")] == [("batch_2", 5)]
    batch_server.behaviour.status_error = 0
    run_arith(tmp_path / "batched", model, batch=True, n=5, retry_errors=True)
    assert list(batch_server.batches) == ["batch_2"]
    assert {outcome for outcome, _ in scores(tmp_path / "batched").values()} == {"scored"}
    assert waiting_requests(tmp_path / "batched") == []


def test_retry_errors_sends_again_a_request_that_failed_in_an_earlier_batch(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """A request whose answer was unusable (duplicated) is not failed again by --retry-errors: it is sent anew."""
    batch_server.behaviour.hostile = True
    model = openai_model(batch_server)
    run_arith(tmp_path / "batched", model, batch=True)
    assert sum(outcome == "error" for outcome, _ in scores(tmp_path / "batched").values()) == 1
    batch_server.behaviour.hostile = False
    run_arith(tmp_path / "batched", model, batch=True, retry_errors=True)
    assert [len(lines) for lines in batch_server.batches.values()] == [20, 1]
    run_arith(tmp_path / "direct", model, batch=False)
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")


def test_a_directory_with_batches_resumes_in_batch_mode_unless_no_batch(tmp_path: Path, capsys) -> None:
    """No --batch flag on a run directory that has batches: batch mode, said; --no-batch: requests one at a time."""
    from harness.batch.state import BatchState
    from harness.cli.run import build_plan, with_batch
    from harness.run_options import RunOptions

    plan = build_plan(None, ("demo/arith",), "builtin/oracle", (), {}, None, 0, {})
    assert with_batch(None, plan, tmp_path, "local", RunOptions()).batch_dir is None
    BatchState(tmp_path).submitting("token", "builtin/oracle", {"fe-1": ["demo/arith", "a", "model"]})
    resumed = with_batch(None, plan, tmp_path, "local", RunOptions())
    assert resumed.batch_dir == tmp_path and resumed.batch_all
    assert "resuming in batch mode" in capsys.readouterr().err
    assert with_batch(False, plan, tmp_path, "local", RunOptions()).batch_dir is None
