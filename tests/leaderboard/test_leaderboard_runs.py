"""Reading run directories and building submissions from them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import binary

from leaderboard.cli import submit_command
from leaderboard.runs import RunFormatError, find_runs, iter_samples, load_run
from leaderboard.submission import SubmissionError, build_submission, parse_method_spec


def test_truncated_last_line_is_tolerated(make_run: Callable[..., Path]) -> None:
    run = make_run("cut", tasks={"demo/arith": binary(2, 3)}, truncate_tail=True)
    assert [r.sample_id for r in iter_samples(run)] == ["demo/arith-0", "demo/arith-1", "demo/arith-2"]


def test_bad_line_in_the_middle_names_file_and_line(make_run: Callable[..., Path]) -> None:
    run = make_run("bad", tasks={"demo/arith": binary(2, 3)})
    lines = (run / "samples.jsonl").read_text().splitlines(keepends=True)
    lines.insert(1, '{"sample_id": 5}\n')
    (run / "samples.jsonl").write_text("".join(lines))
    with pytest.raises(RunFormatError, match=r"samples\.jsonl:2"):
        list(iter_samples(run))


def test_a_complete_bad_last_line_is_an_error(make_run: Callable[..., Path]) -> None:
    run = make_run("badtail", tasks={"demo/arith": binary(1, 1)})
    with (run / "samples.jsonl").open("a") as log:
        log.write("not json\n")
    with pytest.raises(RunFormatError, match=r":2"):
        list(iter_samples(run))


def test_missing_and_malformed_files(tmp_path: Path, make_run: Callable[..., Path]) -> None:
    with pytest.raises(RunFormatError, match="not a run directory"):
        load_run(tmp_path / "nowhere")
    run = make_run("r", tasks={"demo/arith": binary(1, 2)})
    (run / "summary.json").write_text("[1, 2]")
    with pytest.raises(RunFormatError, match="expected a JSON object"):
        load_run(run)
    (run / "summary.json").write_text('{"run_id": "r"}')
    with pytest.raises(RunFormatError, match=r"summary\.json"):
        load_run(run)


def test_submission_merges_runs_and_hashes_data(make_run: Callable[..., Path]) -> None:
    a = make_run("a", methods=["clear:budget=1000,mode=fast"], tasks={"demo/arith": binary(3, 4)})
    b = make_run("b", methods=["clear:budget=1000,mode=fast"], tasks={"cyber/mcq": binary(1, 4)})
    data = build_submission([a, b])
    assert data["method"] == {
        "label": "clear:budget=1000,mode=fast",
        "chain": [{"name": "clear", "params": {"budget": 1000, "mode": "fast"}}],
    }
    assert sorted(data["tasks"]) == ["cyber/mcq", "demo/arith"]
    assert [r["run_id"] for r in data["runs"]] == ["a", "b"]
    # the data hash ignores log order
    lines = (a / "samples.jsonl").read_text().splitlines(keepends=True)
    (a / "samples.jsonl").write_text("".join(reversed(lines)))
    assert build_submission([a])["tasks"]["demo/arith"]["data_hash"] == data["tasks"]["demo/arith"]["data_hash"]
    assert "samples" not in build_submission([a], with_samples=False)["tasks"]["demo/arith"]
    assert find_runs(a.parent) == [a, b]


def test_runs_that_disagree_or_overlap_are_refused(make_run: Callable[..., Path]) -> None:
    a = make_run("a", tasks={"demo/arith": binary(3, 4)})
    other_model = make_run("b", model="openai/other", tasks={"cyber/mcq": binary(1, 4)})
    overlap = make_run("c", tasks={"demo/arith": binary(1, 4)})
    with pytest.raises(SubmissionError, match="differs"):
        build_submission([a, other_model])
    with pytest.raises(SubmissionError, match="already comes from another run"):
        build_submission([a, overlap])


def test_method_specs() -> None:
    assert parse_method_spec("best_of_n:n=8,t=0.5,x=NaN,flag=true") == {
        "name": "best_of_n",
        "params": {"n": 8, "t": 0.5, "x": "NaN", "flag": True},
    }
    assert parse_method_spec({"name": "cot", "args": {"k": 1}}) == {"name": "cot", "params": {"k": 1}}
    with pytest.raises(SubmissionError):
        parse_method_spec("bad:novalue")
    with pytest.raises(SubmissionError):
        parse_method_spec("")


def test_cli_submit(tmp_path: Path, make_run: Callable[..., Path]) -> None:
    run = make_run("cli", tasks={"demo/arith": binary(3, 4)})
    out = tmp_path / "submission.json"
    result = CliRunner().invoke(submit_command, [str(run), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["tasks"]["demo/arith"]["metrics"]["accuracy"]["value"] == 0.75
    summary = json.loads((run / "summary.json").read_text())
    summary["tasks"]["demo/arith"]["metrics"]["accuracy"]["value"] = 3.0
    (run / "summary.json").write_text(json.dumps(summary))
    result = CliRunner().invoke(submit_command, [str(run), "-o", str(tmp_path / "bad.json")])
    assert result.exit_code == 1
    assert "$.tasks['demo/arith'].metrics.accuracy.value" in result.output
    assert not (tmp_path / "bad.json").exists()


def test_cli_submit_creates_the_output_folder_or_says_why_not(tmp_path: Path, make_run: Callable[..., Path]) -> None:
    run = make_run("folder", tasks={"demo/arith": binary(1, 2)})
    out = tmp_path / "subs" / "deeper" / "x.json"
    result = CliRunner().invoke(submit_command, [str(run), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["model"]
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = CliRunner().invoke(submit_command, [str(run), "-o", str(blocker / "x.json")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"error: cannot write {blocker / 'x.json'}: File exists"]
    assert result.exception is None or isinstance(result.exception, SystemExit)
