"""`frontier sweep --grid` (request-level parameters) and `--engine` (a server started per configuration).

The engine is a real process: the loopback timed server (`python -m harness.testing.timed_server`),
whose replies take a known time, so throughput figures are derived from its sleeps.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli.sweep import sweep_command
from harness.engine import engine_command, free_port
from harness.errors import ConfigError
from harness.sweep_grid import GridPoint, parse_grid, request_options
from harness.testing.timed_server import TimedServer

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}


def _sweep(*args: str) -> tuple[int, str]:
    """Exit code, and output with any ConfigError's message (the CLI's main prints it as one line)."""
    outcome = CliRunner().invoke(sweep_command, [*args, "--no-cache", "--no-progress"])
    error = outcome.exception if isinstance(outcome.exception, ConfigError) else None
    return outcome.exit_code, outcome.output + (f"error: {error}" if error else "")


def _index(out: Path) -> dict:
    return json.loads((out / "sweep.json").read_text())


def _records(run_dir: str) -> list[dict]:
    return [json.loads(line) for line in Path(run_dir, "samples.jsonl").read_text().splitlines()]


def _processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line contains ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = next(line for line in (entry / "status").read_text().splitlines() if line.startswith("State:"))
        except (OSError, StopIteration):
            continue
        if marker in command and "zombie" not in state:
            found.append(int(entry.name))
    return found


def test_a_grid_is_every_combination_of_its_values() -> None:
    points = parse_grid(("threads=1,2", "extra_body.steps=32,64,128"))
    assert [p.label for p in points][:2] == ["threads=1 extra_body.steps=32", "threads=1 extra_body.steps=64"]
    assert len(points) == 6


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        (("steps",), "expects key=v1,v2"),
        (("a b=1",), "expects key=v1,v2"),
        (("steps=",), "no values"),
        (("steps=1,1",), "repeated"),
        (("steps=1", "steps=2"), "twice"),
        (tuple(f"k{i}=1,2" for i in range(11)), "at most 1000"),
    ],
)
def test_a_bad_grid_is_one_clear_error(grid: tuple[str, ...], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_grid(grid)


def test_request_level_keys_become_adapter_options_and_extra_body_fields() -> None:
    point = GridPoint({"extra_body.steps": "64", "stream": "true", "threads": "2", "extra_body.mode": "low"})
    options = request_options(point, {"threads"}, {"extra_body": {"block_length": 32}, "max_connections": 4})
    assert options == {
        "extra_body": {"block_length": 32, "steps": 64, "mode": "low"},
        "stream": True,
        "max_connections": 4,
    }
    with pytest.raises(ConfigError, match="must start with extra_body"):
        request_options(GridPoint({"body.steps": "1"}), set(), {})
    with pytest.raises(ConfigError, match="JSON object"):
        request_options(GridPoint({"extra_body.steps": "1"}), set(), {"extra_body": "x"})


def test_the_engine_template_is_split_without_a_shell_and_filled() -> None:
    command = engine_command("serve --port {port} --json '{\"a\": 1}' --t {threads}; rm -rf x", 9, {"threads": "2"})
    assert command == ["serve", "--port", "9", "--json", '{"a": 1}', "--t", "2;", "rm", "-rf", "x"]
    with pytest.raises(ConfigError, match=r"\{batch\} is neither"):
        engine_command("serve --port {port} --b {batch}", 9, {})
    with pytest.raises(ConfigError, match="cannot split"):
        engine_command("serve --port {port} 'unclosed", 9, {})
    with pytest.raises(ConfigError, match=r"must listen on \{port\}"):
        engine_command("serve --port 8000", 9, {})


def test_sweep_refuses_mixed_or_missing_axes(tmp_path: Path) -> None:
    base = ["--task", "demo/arith", "--model", "builtin/oracle", "--out", str(tmp_path / "s")]
    code, output = _sweep(*base)
    assert code != 0 and "either --budgets" in output
    code, output = _sweep(*base, "--grid", "stream=true", "--budgets", "10", "--method", "budget")
    assert code != 0 and "either --budgets" in output
    code, output = _sweep(*base, "--grid", "threads=1", "--engine", "serve --port {port} -t {threads}")
    assert code != 0 and "--engine needs --model openai-compatible/NAME" in output


def test_a_dlm_steps_grid_reaches_the_server_and_throughput_falls_as_steps_rise(tmp_path: Path) -> None:
    """Issue 41 item 4: extra_body.steps swept at request level against a server 50 ms per step."""
    out = tmp_path / "dlm"
    with TimedServer(tokens=16, step_delay_s=0.05) as server:
        code, output = _sweep(
            "--task", "demo/arith", "-T", "n=6", "--model", f"openai-compatible/llada@{server.base_url}",
            "-M", 'extra_body={"block_length": 32, "threshold": 0.9}',
            "--grid", "extra_body.steps=1,2,4", "--concurrency", "1", "--out", str(out),
        )  # fmt: skip
    assert code == 0, output
    points = _index(out)["points"]
    assert [p["config"] for p in points] == [{"extra_body.steps": s} for s in ("1", "2", "4")]
    for point, steps in zip(points, (1, 2, 4), strict=True):
        config = json.loads((Path(point["run_dir"]) / "config.json").read_text())
        assert config["model_options"]["extra_body"] == {"block_length": 32, "threshold": 0.9, "steps": steps}
        assert config["engine"] == {"config": {"extra_body.steps": str(steps)}}
        calls = [record["calls"][0]["generation"] for record in _records(point["run_dir"])]
        assert {c["timing"]["server"]["steps"] for c in calls} == {steps}  # the server used the request's steps
        assert {c["timing"]["server"]["echo.block_length"] for c in calls} == {32}
    ids = [sorted(record["sample_id"] for record in _records(p["run_dir"])) for p in points]
    assert ids[0] == ids[1] == ids[2]  # every point on the same items
    rates = [p["tasks"]["demo/arith"]["throughput"]["output_tok_s"] for p in points]
    for rate, steps in zip(rates, (1, 2, 4), strict=True):  # never faster than the server's sleep allows
        assert 0.5 * 16 / (0.05 * steps) <= rate <= 1.02 * 16 / (0.05 * steps)
    assert rates[0] > rates[1] > rates[2]
    scores = [p["tasks"]["demo/arith"]["accuracy"] for p in points]
    assert scores[0] < scores[2] == 1.0  # four steps apply all four operations of a problem
    assert "extra_body.steps=1 -> extra_body.steps=2: demo/arith" in output
    # along the tok/s frontier (steps=2 scores as steps=1 and is slower: dominated), the trade of speed
    # for score is compared item by item: all six items fixed, exact McNemar p = 2 / 2**6
    (trade,) = [s for s in _index(out)["frontier_steps"] if s["axis"] == "output_tok_s"]
    assert (trade["from"], trade["to"]) == ("extra_body.steps=1", "extra_body.steps=4")
    row = trade["tasks"]["demo/arith"]
    assert row["n_paired"] == 6 and row["diff"] == 1.0 and row["p_value"] == pytest.approx(2 / 2**6)
    assert "frontier step demo/arith on output_tok_s: extra_body.steps=1 -> extra_body.steps=4: +1.0000" in output


def test_a_three_point_engine_sweep_gives_three_runs_and_marks_the_dominated_point(tmp_path: Path) -> None:
    out = tmp_path / "engine"
    port = free_port()
    code, output = _sweep(
        "--task", "demo/arith", "-T", "n=6", "--model", "openai-compatible/timed",
        "--engine", f"{sys.executable} -m harness.testing.timed_server --port {{port}} --delay {{delay}} --steps 100",
        "--grid", "delay=0.02,0.2,0.08", "--engine-port", str(port), "--concurrency", "1", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    index = _index(out)
    assert [p["label"] for p in index["points"]] == ["delay=0.02", "delay=0.2", "delay=0.08"]
    for point in index["points"]:
        config = json.loads((Path(point["run_dir"]) / "config.json").read_text())
        delay = point["config"]["delay"]
        assert config["engine"]["config"] == {"delay": delay}
        assert config["engine"]["command"][-4:] == ["--delay", delay, "--steps", "100"]
        assert config["model"] == f"openai-compatible/timed@http://127.0.0.1:{port}/v1"
        assert point["tasks"]["demo/arith"]["accuracy"] == 1.0
    rows = {row["label"]: row for row in index["frontiers"]["demo/arith"]["output_tok_s"]}
    assert rows["delay=0.02"]["dominated_by"] == []
    assert rows["delay=0.2"]["dominated_by"] == ["delay=0.02", "delay=0.08"]
    assert rows["delay=0.08"]["dominated_by"] == ["delay=0.02"]
    low, high = rows["delay=0.2"]["x_ci"]
    assert low <= rows["delay=0.2"]["x"] <= high
    latency = {row["label"]: row for row in index["frontiers"]["demo/arith"]["latency_s"]}
    assert 0.2 <= latency["delay=0.2"]["x"] <= 0.3  # the server's sleep, and what the client adds
    assert "score vs output tok/s (higher is better)" in output and "dominated by delay=0.02" in output
    assert not _processes_with(f"--port {port}")


def test_an_engine_that_exits_or_never_gets_ready_is_one_error_and_the_others_still_run(tmp_path: Path) -> None:
    script = tmp_path / "engine.py"
    script.write_text(
        "import runpy, sys, time\n"
        "mode = sys.argv[1]\n"
        "if mode == 'exit':\n    print('no such model file', flush=True)\n    sys.exit(3)\n"
        "if mode == 'hang':\n    time.sleep(120)\n"
        "sys.argv = ['timed_server', *(a for a in sys.argv[2:] if not a.startswith('--marker'))]\n"
        "runpy.run_module('harness.testing.timed_server', run_name='__main__')\n"
    )
    out = tmp_path / "sweep"
    port = free_port()
    code, output = _sweep(
        "--task", "demo/arith", "-T", "n=2", "--model", "openai-compatible/timed",
        "--engine", f"{sys.executable} {script} {{mode}} --port {{port}} --steps 100 --marker-{port}",
        "--grid", "mode=exit,hang,serve", "--engine-port", str(port), "--engine-timeout", "2", "--out", str(out),
    )  # fmt: skip
    assert code == 1
    assert "error: engine mode=exit: exited with status 3 before it was ready" in output
    assert "no such model file" in output  # the log's last line
    assert "error: engine mode=hang: not ready after 2 s" in output
    assert "1 of 3 point(s) failed" not in output and "2 of 3 point(s) failed" in output
    points = _index(out)["points"]
    assert [("error" in p) for p in points] == [True, True, False]
    assert points[2]["tasks"]["demo/arith"]["accuracy"] == 1.0
    assert not _processes_with(f"--marker-{port}")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_a_stopped_sweep_leaves_no_engine_running(tmp_path: Path, signum: signal.Signals) -> None:
    port = free_port()
    sweep = subprocess.Popen(
        [
            sys.executable, "-m", "harness", "sweep", "--task", "demo/arith", "-T", "n=2",
            "--model", "openai-compatible/slow", "--engine-port", str(port), "--out", str(tmp_path / "s"),
            "--engine", f"{sys.executable} -m harness.testing.timed_server --port {{port}} --delay {{delay}}",
            "--grid", "delay=60", "--no-cache", "--no-progress", "--timeout", "300",
        ],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    log = tmp_path / "s" / "engine-logs" / "delay=60.log"
    while not (log.exists() and b"serving on" in log.read_bytes()):
        assert sweep.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    engines = _processes_with(f"--port {port}")
    assert len(engines) == 1
    time.sleep(1.0)  # the run is waiting for the engine's replies
    sweep.send_signal(signum)
    output, _ = sweep.communicate(timeout=30)
    assert sweep.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGKILL: -9}[signum], output
    if signum != signal.SIGKILL:
        assert b"sweep interrupted" in output
    deadline = time.monotonic() + 5  # a killed sweep's engine is ended by the kernel (parent-death signal)
    while _processes_with(f"--port {port}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _processes_with(f"--port {port}")


def test_an_engine_port_held_by_another_process_is_refused(tmp_path: Path) -> None:
    with TimedServer() as other:  # something else answers on the port: its replies must not pass for the engine's
        port = int(other.base_url.rsplit(":", 1)[1].split("/")[0])
        code, output = _sweep(
            "--task", "demo/arith", "-T", "n=2", "--model", "openai-compatible/timed",
            "--engine", f"{sys.executable} -m harness.testing.timed_server --port {{port}} --delay {{delay}}",
            "--grid", "delay=0", "--engine-port", str(port), "--out", str(tmp_path / "s"),
        )  # fmt: skip
    assert code == 1 and f"error: engine delay=0: port {port} is in use by another process" in output


def test_rerunning_an_engine_sweep_resumes_it_on_the_recorded_port(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    args = (
        "--task", "demo/arith", "-T", "n=3", "--model", "openai-compatible/timed",
        "--engine", f"{sys.executable} -m harness.testing.timed_server --port {{port}} --steps {{steps}}",
        "--grid", "steps=1,100", "--out", str(out),
    )  # fmt: skip
    code, output = _sweep(*args)
    assert code == 0, output
    first = _index(out)
    code, output = _sweep(*args)  # no --engine-port: the port sweep.json recorded, so each config is the same
    assert code == 0, output
    again = _index(out)
    assert again["engine_port"] == first["engine_port"]
    for point in again["points"]:
        assert len(_records(point["run_dir"])) == 3  # every sample was logged once, none repeated
    assert [p["tasks"]["demo/arith"]["accuracy"] for p in again["points"]] == [0.0, 1.0]
