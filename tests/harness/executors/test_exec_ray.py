"""The Ray executor on a real two-node Ray cluster on loopback: same results as the local runner,
resume, CPU-heavy scoring as Ray tasks, and a worker killed mid-run loses and duplicates nothing."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="the Ray executor needs the 'ray' extra")

from harness.calls import RetryPolicy  # noqa: E402
from harness.cli.executor import run_plan  # noqa: E402
from harness.executors.local_cluster import LocalRayCluster  # noqa: E402
from harness.executors.ray_executor import WORKER_NAMESPACE, WORKER_PREFIX, execute_on_ray  # noqa: E402
from harness.executors.ray_session import ray_environment  # noqa: E402
from harness.plan import RunPlan, TaskPlan  # noqa: E402
from harness.runner import RunOptions, execute  # noqa: E402
from harness.store import RunStore, result_key  # noqa: E402
from harness.testing.openai_server import OpenAIServer  # noqa: E402
from harness.testing.responders import arith_responder  # noqa: E402
from harness.types import SampleResult  # noqa: E402

pytestmark = pytest.mark.slow

OPTIONS = RunOptions(
    concurrency=4, retry=RetryPolicy(max_retries=3, base_delay_s=0.01), request_timeout_s=20, progress=False
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalRayCluster]:
    """A head and a second node, one CPU and 1 GiB each, on loopback, with its own token; ended in teardown."""
    local = LocalRayCluster(nodes=2, cpus_per_node=1, memory_mb=1024, object_store_mb=96)
    with ray_environment({**local.auth_env, "RAY_USAGE_STATS_ENABLED": "0"}):
        local.start()
        try:
            ray.init(address=local.address, logging_level=logging.WARNING)
            local.wait_for_nodes()
            ray.shutdown()
            yield local
        finally:
            if ray.is_initialized():
                ray.shutdown()
            local.stop()


def _lines(run_dir: Path) -> list[SampleResult]:
    return [SampleResult.model_validate_json(line) for line in (run_dir / "samples.jsonl").read_bytes().splitlines()]


def _outcomes(results: list[SampleResult]) -> dict[str, tuple[Any, ...]]:
    return {
        result_key(r.task, r.sample_id): (r.output.text, r.score.model_dump(), r.usage.model_dump()) for r in results
    }


def _assert_same_run(ray_dir: Path, local_dir: Path) -> None:
    ray_lines, local_lines = _lines(ray_dir), _lines(local_dir)
    keys = [result_key(r.task, r.sample_id) for r in ray_lines]
    assert len(keys) == len(set(keys)) == len(local_lines), "every sample logged exactly once"
    assert _outcomes(ray_lines) == _outcomes(local_lines)
    ray_summary, local_summary = RunStore(ray_dir).read_summary(), RunStore(local_dir).read_summary()
    assert ray_summary.complete and ray_summary.config_hash == local_summary.config_hash
    for name, task_summary in local_summary.tasks.items():
        other = ray_summary.tasks[name]
        assert other.counts == task_summary.counts and other.usage == task_summary.usage
        for metric, value in task_summary.metrics.items():
            assert (other.metrics[metric].value, other.metrics[metric].n) == (value.value, value.n), metric
            if value.method == "wilson":
                assert other.metrics[metric] == value, metric


def test_a_run_through_the_cli_call_equals_the_local_run(cluster: LocalRayCluster, tmp_path: Path) -> None:
    plan = RunPlan(model="builtin/random", tasks=(TaskPlan("demo/arith", {"n": 40}),), seed=7)
    local = asyncio.run(execute(plan, tmp_path / "local", OPTIONS))
    summary = run_plan(plan, tmp_path / "ray", OPTIONS, executor="ray", ray_address=cluster.address, ray_workers=2)
    assert not ray.is_initialized(), "the executor disconnects the driver it connected"
    assert summary.tasks["demo/arith"].counts == local.tasks["demo/arith"].counts
    _assert_same_run(tmp_path / "ray", tmp_path / "local")


def test_a_cpu_heavy_task_resumed_on_ray_equals_the_local_run(
    cluster: LocalRayCluster, shared_data: Path, tmp_path: Path
) -> None:
    args = {"per_template": 1, "data": str(shared_data / "longcot")}
    plan = RunPlan(
        model="builtin/random", tasks=(TaskPlan("longcot/mini", args), TaskPlan("demo/arith", {"n": 6})), seed=3
    )
    asyncio.run(execute(plan, tmp_path / "local", OPTIONS))
    shutil.copytree(tmp_path / "local", tmp_path / "ray")
    log = tmp_path / "ray" / "samples.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:9]) + lines[9][:25])  # 9 logged samples and a torn line, as after kill -9
    (tmp_path / "ray" / "summary.json").unlink()
    asyncio.run(execute_on_ray(plan, tmp_path / "ray", OPTIONS, address=cluster.address))
    _assert_same_run(tmp_path / "ray", tmp_path / "local")
    assert _lines(tmp_path / "ray")[:9] == [SampleResult.model_validate_json(line) for line in lines[:9]]
    statuses = {r.score.outcome for r in _lines(tmp_path / "ray")}
    assert "scored" in statuses


def test_a_rocq_checked_task_on_ray_equals_the_local_run(cluster: LocalRayCluster, tmp_path: Path) -> None:
    """Coins specs checked by the real prover inside Ray workers give the local run's verdicts."""
    args = {"problems": "HumanEval/53,HumanEval/23,HumanEval/13", "max_cases": 2, "mutants": 2}
    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("coins/spec-gen", args),), seed=0)
    asyncio.run(execute(plan, tmp_path / "local", OPTIONS))
    asyncio.run(execute_on_ray(plan, tmp_path / "ray", OPTIONS, address=cluster.address, workers=2))
    _assert_same_run(tmp_path / "ray", tmp_path / "local")
    assert [r.score.value for r in _lines(tmp_path / "ray")] == [1.0, 1.0, 1.0]


def test_ray_scoring_tasks_score_exactly_as_the_task(cluster: LocalRayCluster, shared_data: Path) -> None:
    from harness.executors.ray_scoring import RayScoring
    from harness.registry import resolve_task
    from harness.types import GenerateRequest, Output

    task = resolve_task("longcot/mini").create(per_template=1, data=str(shared_data / "longcot"))
    samples = list(task.samples())
    outputs = [
        Output(
            text=task.reference_output(s, GenerateRequest(messages=tuple(s.messages())))
            if i % 2
            else "solution = nonsense"
        )
        for i, s in enumerate(samples)
    ]
    ray.init(address=cluster.address, logging_level=logging.WARNING)
    try:
        backend = RayScoring()

        async def score_all() -> list[Any]:
            return list(
                await asyncio.gather(*(backend.score(task, s, o) for s, o in zip(samples, outputs, strict=True)))
            )

        scores = asyncio.run(score_all())
    finally:
        ray.shutdown()
    assert [s.model_dump() for s in scores] == [
        task.score(s, o).model_dump() for s, o in zip(samples, outputs, strict=True)
    ]
    assert 1.0 in {s.value for s in scores} and {s.outcome for s in scores} >= {"scored", "unscored"}


async def _kill_one_worker_when(log: Path, after_lines: int) -> int:
    """Wait for ``after_lines`` logged results, then SIGKILL one worker actor's process; returns its pid."""
    while True:
        await asyncio.sleep(0.02)
        if not ray.is_initialized() or not log.exists() or log.read_bytes().count(b"\n") < after_lines:
            continue
        names = [
            a["name"]
            for a in ray.util.list_named_actors(all_namespaces=True)
            if a["namespace"] == WORKER_NAMESPACE and a["name"].startswith(WORKER_PREFIX)
        ]
        if names:
            actor = ray.get_actor(sorted(names)[0], namespace=WORKER_NAMESPACE)
            pid = await actor.pid.remote()
            os.kill(pid, signal.SIGKILL)
            return pid


def test_a_worker_killed_mid_run_loses_and_duplicates_nothing(
    cluster: LocalRayCluster, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    n = 24

    def plan_for(url: str) -> RunPlan:
        return RunPlan(model=f"openai-compatible/test-model@{url}", tasks=(TaskPlan("demo/arith", {"n": n}),))

    with OpenAIServer(arith_responder(), latency=0.4) as server:
        plan = plan_for(server.base_url)
        asyncio.run(execute(plan, tmp_path / "local", OPTIONS))

        async def run_and_kill() -> int:
            killer = asyncio.ensure_future(_kill_one_worker_when(tmp_path / "ray" / "samples.jsonl", 4))
            await execute_on_ray(plan, tmp_path / "ray", OPTIONS, address=cluster.address, workers=2)
            assert killer.done(), "the run ended before a worker could be killed"
            return killer.result()

        with caplog.at_level(logging.INFO, logger="harness.executors"):
            asyncio.run(run_and_kill())
    stats = re.search(
        r"(\d+) workers lost, (\d+) samples retried, (\d+) given up, (\d+) duplicates dropped", caplog.text
    )
    assert stats is not None, caplog.text
    lost, retried, gave_up, _ = map(int, stats.groups())
    assert lost >= 1 and retried >= 1 and gave_up == 0
    _assert_same_run(tmp_path / "ray", tmp_path / "local")
    assert sum(1 for r in _lines(tmp_path / "ray") if r.score.value == 1.0) > n // 2
    summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert summary["complete"] is True
