"""Issue 37.3: untrusted JSON with a 5,000-digit integer, deep nesting or lone surrogates, read by every
command that reads it: a one-line error naming the file (or a 400 from ``frontier serve``), never a
traceback, and never a site built without the bad submission's note."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.adapters import resolve_adapter
from harness.cli.main import main
from harness.json_input import JsonInputError, parse_json, read_json
from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions, execute
from harness.serve import AdapterServer
from harness.testing.openai_server import OpenAIServer, echo_responder
from leaderboard.cli import leaderboard_group
from leaderboard.submission import build_submission, write_submission

HUGE = "1" * 5_000


def test_one_reader_refuses_what_it_cannot_read_with_one_error_type(tmp_path: Path) -> None:
    for text, needle in (
        (HUGE, "a number too long"),
        ('{"a": [' + HUGE + "]}", "a number too long"),
        ("[" * 101 + "]" * 101, "nested too deeply"),
        ("{", "not valid JSON"),
        (b"\xff{}", "not UTF-8"),
    ):
        with pytest.raises(JsonInputError, match=needle) as caught:
            parse_json(text, "doc.json")
        assert str(caught.value).startswith("doc.json: ") and "\n" not in str(caught.value)
    assert parse_json('{"k\\ud800": ["\\udc00", "\\ud83d\\ude00"]}', "x") == {"k\\ud800": ["\\udc00", "\U0001f600"]}
    big = tmp_path / "big.json"
    big.write_text("[1, 2]")
    with pytest.raises(JsonInputError, match="over the 3-byte limit"):
        read_json(big, 3)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """Run ``frontier ARGS`` in process: its exit status and stderr (an escaping exception fails the test)."""
    try:
        main(list(args))
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return status, captured.err


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 3}),))
    asyncio.run(execute(plan, tmp_path / "run", RunOptions(progress=False)))
    return tmp_path / "run"


def test_a_huge_integer_in_config_json_is_one_line_naming_the_file(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = run_dir / "config.json"
    config.write_text(config.read_text().replace('"seed": 0', f'"seed": {HUGE}', 1))
    assert HUGE in config.read_text()
    commands = [
        ["show", str(run_dir)],
        ["rescore", str(run_dir)],
        ["report", str(run_dir), "-o", str(tmp_path / "site")],
        ["submit", str(run_dir), "-o", str(tmp_path / "sub.json")],
        ["run", "--resume", "--out", str(run_dir)],
    ]
    for args in commands:
        status, err = _cli(capsys, *args)
        assert status != 0 and str(config) in err and "number too long" in err, (args, err)


def test_import_and_coins_cases_refuse_a_huge_integer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "out.jsonl"
    source.write_text(f'{{"row": {HUGE}, "text": "x"}}\n')
    status, err = _cli(capsys, "import", "--task", "demo/arith", "--from", str(source), "--out", str(tmp_path / "r"))
    assert status == 2 and f"{source}:1" in err and "number too long" in err
    cases = tmp_path / "cases.json"
    cases.write_text(f'[{{"inputs": [{HUGE}], "output": 1}}]')
    spec = tmp_path / "spec.v"
    spec.write_text("Definition spec (x y : Z) : Prop := y = x.\n")
    status, err = _cli(capsys, "coins", "check", str(spec), "--cases", str(cases), "--signature", "f (x : Z) : Z")
    assert status == 2 and str(cases) in err and "number too long" in err


def test_leaderboard_validate_and_build_skip_a_submission_with_a_huge_integer(run_dir: Path, tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    subs.mkdir()
    write_submission(build_submission([run_dir]), subs / "ok.json")
    bad = json.loads((subs / "ok.json").read_text())
    (subs / "bad.json").write_text(json.dumps(bad).replace('"n": 3', f'"n": {HUGE}', 1))
    assert HUGE in (subs / "bad.json").read_text()
    runner = CliRunner()
    checked = runner.invoke(leaderboard_group, ["validate", str(subs / "bad.json")])
    assert checked.exit_code == 1 and "bad.json" in checked.output and "number too long" in checked.output
    assert checked.exception is None or isinstance(checked.exception, SystemExit)
    built = runner.invoke(leaderboard_group, ["build", str(subs), "--skip-invalid", "-o", str(tmp_path / "site")])
    assert built.exit_code == 0, built.output
    assert (tmp_path / "site" / "index.html").is_file() and "1 submission(s)" in built.output


def _post(url: str, raw: bytes) -> tuple[int, str]:
    request = urllib.request.Request(url, data=raw, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_serve_answers_400_to_a_huge_integer_and_serves_a_lone_surrogate() -> None:
    with (
        OpenAIServer(echo_responder) as upstream,
        AdapterServer(resolve_adapter(f"openai-compatible/u@{upstream.base_url}"), model_id="m") as server,
    ):
        url = server.base_url + "/chat/completions"
        status, body = _post(url, f'{{"messages": [{{"role": "user", "content": "x"}}], "seed": {HUGE}}}'.encode())
        assert status == 400 and "number too long" in json.loads(body)["error"]["message"]
        status, body = _post(url, b'{"messages": [{"role": "user", "content": "x\\ud800"}]}')
        assert status == 200 and json.loads(body)["choices"][0]["message"]["content"] == "x\\ud800"


def test_an_unexpected_error_is_one_line_not_a_traceback(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.runformat import RunFiles

    def broken(self: RunFiles) -> dict:
        raise RuntimeError("a bug somewhere")

    monkeypatch.setattr(RunFiles, "read_config", broken)
    status, err = _cli(capsys, "show", str(run_dir))
    assert status == 1 and err.strip() == "error: unexpected RuntimeError: a bug somewhere (frontier -vv shows where)"


def test_task_data_files_and_batch_lines_go_through_the_one_reader(tmp_path: Path) -> None:
    """The benchmarks' own data files (ConFiQA, the cyber MCQ sets, CTI-TAA's tables) and a provider's batch
    result lines are untrusted too: a 5,000-digit integer or deep nesting is one line naming the file."""
    from harness.batch.records import Answer, Results
    from harness.errors import ConfigError
    from tasks.confiqa.loader import read_json_file
    from tasks.cyber.mcq_sets import read_json as read_mcq
    from tasks.cyber.taa_tables import read_table

    for name, text in (("huge.json", "[" + HUGE + "]"), ("deep.json", "[" * 101 + "]" * 101)):
        path = tmp_path / name
        path.write_text(text)
        for read in (read_json_file, lambda p: read_mcq(str(p), "UNSET_ENV", "cyber/x"), read_table):
            with pytest.raises(ConfigError) as caught:
                read(path)
            assert str(path) in str(caught.value) and "\n" not in str(caught.value)

    results = Results(members={"a"})
    results.add(('{"custom_id": "a", "n": ' + HUGE + "}").encode(), lambda record: Answer(record))
    assert results.anomalies.malformed == 1 and not results.outcomes
    results.add(b'{"custom_id": "a", "n": 1}', lambda record: Answer(record))
    assert results.outcomes == {"a": Answer({"custom_id": "a", "n": 1})}
