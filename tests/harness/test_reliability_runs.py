"""Issue 18, lost or corrupted runs: the run lock, a rescore killed with kill -9, the process pool of a killed run,
--retry-errors, one log reader, a full disk, a directory killed before its config. Real processes, real files."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.executors.parent_watch import descendants
from harness.runlog import LogFormatError
from harness.store import RunStore
from harness.testing.openai_server import FaultPlan, OpenAIServer
from harness.testing.responders import arith_responder
from leaderboard.runs import RunFormatError, iter_samples

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
ORACLE = ["--task", "demo/arith", "--model", "builtin/oracle", "--no-cache", "--no-progress"]


def frontier(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=timeout, **kwargs
    )


def start(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "harness", *args],
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def wait_for(predicate, timeout: float = 60, step: float = 0.01) -> None:
    deadline = time.time() + timeout
    while not predicate():
        if time.time() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(step)


def ids(run: Path) -> list[str]:
    return [json.loads(line)["sample_id"] for line in (run / "samples.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_a_second_process_on_a_locked_run_directory_is_refused_naming_the_holder(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with OpenAIServer(arith_responder(), latency=0.5) as server:
        args = [
            "run",
            "--task",
            "demo/arith",
            "-T",
            "n=30",
            "--model",
            "openai-compatible/m@" + server.base_url,
            "--concurrency",
            "2",
            "--no-cache",
            "--no-progress",
            "--out",
            str(run),
        ]
        first = start(*args)
        wait_for(lambda: (run / "samples.jsonl").exists() and (run / "samples.jsonl").stat().st_size > 0)
        second, rescore = start(*args), start("rescore", str(run))
        second_err, rescore_err = second.communicate(60)[1], rescore.communicate(60)[1]
        assert second.returncode == 2 and f"in use by another frontier process (pid {first.pid})" in second_err
        assert rescore.returncode == 2 and f"pid {first.pid}" in rescore_err
        assert first.poll() is None, "the first run ended before the others were refused; slow the server down"
        assert first.wait(120) == 0, first.stderr.read()
    assert sorted(ids(run)) == sorted(set(ids(run))) and len(ids(run)) == 30
    assert not list(run.glob("*.tmp"))
    assert frontier(*args).returncode == 0  # the lock went with its holder


@pytest.mark.slow
def test_kill_minus_nine_during_rescore_leaves_a_log_and_every_previous_one(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert frontier("run", *ORACLE, "-T", "n=2500", "--out", str(run), timeout=300).returncode == 0
    original = (run / "samples.jsonl").read_bytes()
    rescore = start("rescore", str(run))
    wait_for(
        lambda: any(p.stat().st_size > 0 for p in run.glob("samples.jsonl.*.tmp")) or rescore.poll() is not None,
        step=0.002,
    )
    rescore.send_signal(signal.SIGKILL)
    rescore.wait()
    assert (run / "samples.jsonl").read_bytes() == original
    resumed = frontier("run", "--resume", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert (run / "samples.jsonl").read_bytes() == original  # nothing re-run, nothing lost
    assert not list(run.glob("*.tmp"))
    for _ in range(2):
        again = frontier("rescore", str(run), timeout=300)
        assert again.returncode == 0, again.stderr
    kept = sorted(p.name for p in run.glob("samples.before-rescore.*.jsonl"))
    assert len(kept) >= 2 and (run / kept[0]).read_bytes() == original
    assert len(ids(run)) == 2500


def test_resume_recovers_the_state_an_older_rescore_left_when_killed_between_its_renames(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert frontier("run", *ORACLE, "--limit", "20", "--out", str(run)).returncode == 0
    original = (run / "samples.jsonl").read_bytes()
    os.replace(run / "samples.jsonl", run / "samples.before-rescore.jsonl")
    (run / "samples.rescore.tmp").write_bytes(original[: len(original) // 2])
    resumed = frontier("run", *ORACLE, "--limit", "20", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert (run / "samples.jsonl").read_bytes() == original and not (run / "samples.rescore.tmp").exists()
    assert frontier("rescore", str(run)).returncode == 0


def test_kill_minus_nine_of_a_rocq_scoring_run_leaves_no_process_behind(tmp_path: Path) -> None:
    if not any((Path(p) / "coqtop").exists() for p in os.environ.get("PATH", "").split(os.pathsep)):
        pytest.skip("coqtop is not installed")
    run = start(
        "run",
        "--task",
        "coins/spec-gen",
        "--model",
        "builtin/oracle",
        "--limit",
        "40",
        "--no-cache",
        "--no-progress",
        "--out",
        str(tmp_path / "run"),
        start_new_session=True,
    )
    seen: set[int] = set()

    def provers_running() -> bool:
        tree = descendants(run.pid)
        seen.update(tree)
        return any(_command(pid).startswith("coqtop") or "/coqtop" in _command(pid) for pid in tree)

    wait_for(provers_running, timeout=120, step=0.05)
    seen.update(descendants(run.pid))
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(pid) for pid in seen):
        time.sleep(0.2)
    survivors = {pid: _command(pid) for pid in seen if _alive(pid)}
    for pid in survivors:  # clean up what this test started, so a failure leaks nothing either
        os.kill(pid, signal.SIGKILL)
    assert len(seen) >= 3 and survivors == {}


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.slow
def test_retry_errors_reruns_errored_samples_and_keeps_their_first_record(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with OpenAIServer(arith_responder(wrong_every=0), faults=FaultPlan(rates={"500": 1.0})) as down:
        args = [
            "--task",
            "demo/arith",
            "-T",
            "n=5",
            "--no-cache",
            "--no-progress",
            "--max-retries",
            "0",
            "--out",
            str(run),
        ]
        outage = frontier("run", "--model", "openai-compatible/m@" + down.base_url, *args)
        base_url = down.base_url
    assert outage.returncode == 1 and "5 sample(s) ended in error" in outage.stderr  # all failed (issue 19)
    shown = frontier("show", str(run))
    assert f"frontier run --resume --retry-errors --out {run}" in shown.stderr
    port = int(base_url.rsplit(":", 1)[1].split("/")[0])
    with OpenAIServer(arith_responder(wrong_every=0), port=port) as healthy:
        plain = frontier("run", "--model", "openai-compatible/m@" + healthy.base_url, *args)
        assert plain.returncode == 1 and len(healthy.requests) == 0  # a plain resume keeps the errors
        retried = frontier("run", "--model", "openai-compatible/m@" + healthy.base_url, *args, "--retry-errors")
        assert retried.returncode == 0, retried.stderr
        assert len(healthy.requests) == 5
    summary = json.loads((run / "summary.json").read_text())["tasks"]["demo/arith"]
    assert summary["counts"] == {"scored": 5, "unscored": 0, "error": 0}
    lines = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    assert [line["score"]["outcome"] for line in lines] == ["error"] * 5 + ["scored"] * 5
    assert sorted(r.sample_id for r in RunStore(run).results()) == sorted(line["sample_id"] for line in lines[:5])


def test_harness_and_leaderboard_read_a_log_with_one_policy(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert frontier("run", *ORACLE, "--limit", "3", "--out", str(run)).returncode == 0
    log = run / "samples.jsonl"
    lines = log.read_text().splitlines()
    superseded = json.loads(lines[0])
    superseded["score"] = {"outcome": "error", "explanation": "an outage"}
    log.write_text("\n".join([json.dumps(superseded), *lines[1:], "", lines[0]]) + "\n" + lines[1][:30])
    harness_view = [(r.sample_id, r.score.outcome) for r in RunStore(run).results()]
    leaderboard_view = [(r.sample_id, r.score.outcome) for r in iter_samples(run)]
    assert harness_view == leaderboard_view and len(harness_view) == 3
    assert all(outcome == "scored" for _, outcome in harness_view)  # the last record wins
    log.write_text("\n".join([lines[0], '{"sample_id": 5}', *lines[1:]]) + "\n")
    with pytest.raises(LogFormatError, match=r"samples\.jsonl:2"):
        list(RunStore(run).results())
    with pytest.raises(RunFormatError, match=r"samples\.jsonl:2"):
        list(iter_samples(run))


def _small_file_limit() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (30_000, 30_000))


def test_a_full_disk_is_a_clear_error_and_resume_recovers(tmp_path: Path) -> None:
    run = tmp_path / "run"
    full = frontier("run", *ORACLE, "--limit", "60", "--out", str(run), preexec_fn=_small_file_limit)
    assert full.returncode == 2 and "Traceback" not in full.stderr
    assert f"could not write {run / 'samples.jsonl'}" in full.stderr and "--resume" in full.stderr
    resumed = frontier("run", *ORACLE, "--limit", "60", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert len(ids(run)) == 60 == len(set(ids(run)))


def test_resume_of_a_directory_killed_before_its_config_starts_afresh(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json.1234.tmp").write_text('{"mod')
    resumed = frontier("run", *ORACLE, "--limit", "4", "--resume", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert len(ids(run)) == 4 and not list(run.glob("*.tmp"))
