"""Suite tasks exported to lm-eval, run by lm_eval against the loopback server; lm-eval models as our adapter."""

from __future__ import annotations

import asyncio
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("lm_eval")

from click.testing import CliRunner
from interop_helpers import mixed_arith_responder

from harness.adapters import resolve_adapter
from harness.cli.export import export_group
from harness.errors import ConfigError, MissingCapability
from harness.interop.lm_eval_export import export_tasks
from harness.interop.lm_eval_runtime import aggregation, process_results
from harness.registry import resolve_task
from harness.runner import evaluate
from harness.testing.openai_server import OpenAIServer
from harness.types import GenerateRequest, Message

REPO = Path(__file__).resolve().parents[3]


class _FunctionLoader(yaml.SafeLoader):
    pass


_FunctionLoader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


def test_export_writes_single_turn_tasks_and_skips_agent_tasks(tmp_path: Path) -> None:
    exported = {e.task: e for e in export_tasks([("demo/arith", {"n": 7}), ("tau2/mock", {})], tmp_path)}
    assert exported["demo/arith"].reason == "" and exported["demo/arith"].samples == 7
    assert "model calls" in exported["tau2/mock"].reason or "τ²-bench is not importable" in exported["tau2/mock"].reason
    config = yaml.load((tmp_path / "frontier_demo_arith.yaml").read_text(), Loader=_FunctionLoader)
    assert config["output_type"] == "generate_until" and config["generation_kwargs"]["until"] == []
    assert config["generation_kwargs"]["max_gen_toks"] == 1024
    assert config["process_results"] == "!function utils.process_results_frontier_demo_arith"
    names = [m["metric"] for m in config["metric_list"]]
    assert {"accuracy", "accuracy_ci_low", "accuracy_ci_high", "accuracy_n", "accuracy_scored"} <= set(names)
    assert not (tmp_path / "frontier_tau2_mock.yaml").exists()
    rows = [json.loads(line) for line in (tmp_path / "frontier_demo_arith.jsonl").read_text().splitlines()]
    first = next(iter(resolve_task("demo/arith").create(n=7).samples()))
    assert rows[0]["prompt"] == first.input and rows[0]["target"] == str(first.target)


def test_export_of_nothing_exportable_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no task could be exported"):
        export_tasks([("tau2/mock", {})], tmp_path)


def test_runtime_scores_adversarial_outputs_without_raising() -> None:
    task = resolve_task("demo/arith").create(n=3)
    samples = list(task.samples())
    process = process_results("demo/arith", {"n": 3}, ["accuracy"])
    docs = [{"frontier_sample": s.model_dump_json()} for s in samples]
    outputs = [f"ANSWER: {samples[0].target}", f"ANSWER: {samples[1].target + 1}", "\x00" * 1000 + "9" * 100_000]
    records = [process(doc, [text])["accuracy"] for doc, text in zip(docs, outputs, strict=True)]
    assert [r["score"]["outcome"] for r in records] == ["scored", "scored", "unscored"]
    assert aggregation("demo/arith", {"n": 3}, "accuracy", "value")(records) == pytest.approx(1 / 3)
    assert aggregation("demo/arith", {"n": 3}, "accuracy_scored", "n")(records) == 2.0
    assert math.isnan(aggregation("demo/arith", {"n": 3}, "no_such_metric", "value")(records))
    with pytest.raises(ValueError):
        aggregation("demo/arith", {}, "accuracy", "median")


@pytest.mark.slow
def test_lm_eval_cli_scores_equal_frontier_scores(tmp_path: Path) -> None:
    result = CliRunner().invoke(export_group, ["lm-eval", str(tmp_path / "out"), "--task", "demo/arith", "-T", "n=16"])
    assert result.exit_code == 0, result.output
    assert "[1/1] frontier_demo_arith: 16 samples" in result.output  # progress as each task is written
    written = "".join(p.read_text() for p in (tmp_path / "out").iterdir())
    assert str(tmp_path) not in written  # no absolute path: the folder can be moved (issue 38 item 8)
    (tmp_path / "out").rename(tmp_path / "moved")
    task = resolve_task("demo/arith").create(n=16)
    with OpenAIServer(mixed_arith_responder()) as server:
        env = {
            **os.environ,
            "HF_DATASETS_OFFLINE": "1",
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        }
        command = [
            sys.executable,
            "-m",
            "lm_eval",
            "--include_path",
            str(tmp_path / "moved"),
            "--tasks",
            "frontier_demo_arith",
            "--model",
            "local-chat-completions",
            "--model_args",
            f"model=test-model,base_url={server.base_url}/chat/completions",
            "--apply_chat_template",
            "--limit",
            "16",
            "--output_path",
            str(tmp_path / "results"),
        ]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=240)
        ours = asyncio.run(evaluate(task, resolve_adapter(f"openai-compatible/test-model@{server.base_url}")))
    assert done.returncode == 0, done.stderr[-3000:]
    assert {r.score.outcome for r in ours} == {"scored", "unscored"}
    (results_file,) = (tmp_path / "results").rglob("results_*.json")
    reported = json.loads(results_file.read_text())["results"]["frontier_demo_arith"]
    for name, metric in task.aggregate(ours).items():
        assert reported[f"{name},none"] == pytest.approx(metric.value, abs=1e-12)
        assert reported[f"{name}_ci_low,none"] == pytest.approx(metric.ci_low, abs=1e-12)
        assert reported[f"{name}_ci_high,none"] == pytest.approx(metric.ci_high, abs=1e-12)
        assert reported[f"{name}_n,none"] == metric.n


def test_lm_eval_adapter_runs_demo_arith_end_to_end() -> None:
    from harness.interop.lm_eval_adapter import create

    task = resolve_task("demo/arith").create(n=10)
    with OpenAIServer(mixed_arith_responder()) as server:
        adapter = create(f"local-chat-completions?model=test-model,base_url={server.base_url}/chat/completions")
        theirs = asyncio.run(evaluate(task, adapter, concurrency=4))
        ours = asyncio.run(evaluate(task, resolve_adapter(f"openai-compatible/test-model@{server.base_url}")))
        with pytest.raises(MissingCapability):
            asyncio.run(
                adapter.generate(
                    GenerateRequest(
                        messages=(Message(role="user", content="hi"),),
                        tools=({"type": "function", "function": {"name": "f"}},),
                    )
                )
            )
    assert [r.score for r in theirs] == [r.score for r in ours]
    assert task.aggregate(theirs) == task.aggregate(ours)


def test_lm_eval_adapter_bad_specs_are_config_errors() -> None:
    from harness.interop.lm_eval_adapter import create

    for spec in ("", "no-such-model-type?x=1"):
        with pytest.raises(ConfigError):
            create(spec)
