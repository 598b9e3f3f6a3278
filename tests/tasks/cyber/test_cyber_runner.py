"""End to end through the runner: oracle and random baselines, a loopback model server, task metrics."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.plan import build_task
from harness.registry import resolve_task
from harness.runner import evaluate
from harness.suites import load_suite
from harness.testing.openai_server import OpenAIServer, Reply
from harness.types import Output, SampleResult, Score
from tasks.cyber import FAMILY
from tasks.cyber.cti import PUBLISHED_SETTINGS, prompt_text
from tasks.cyber.prompts import CTI_SYSTEM_PROMPT

REPO = Path(__file__).resolve().parents[3]


def run(task, spec: str, **options: object) -> list[SampleResult]:
    return asyncio.run(evaluate(task, resolve_adapter(spec, **options)))


def result(sample_target: object, score: Score) -> SampleResult:
    return SampleResult(sample_id="x", task="t", input="q", target=sample_target, output=Output(), score=score)


@pytest.mark.parametrize(
    "name, args",
    [
        ("cyber-gen/cvss", {"n": 40}),
        ("cyber-gen/cwe", {"n": 40}),
        ("cyber-gen/mcq", {"n": 40}),
    ],
)
def test_oracle_is_perfect_and_random_is_not(name: str, args: dict) -> None:
    task = resolve_task(name).create(**args)
    oracle = run(task, "builtin/oracle")
    assert [r.score.value for r in oracle] == [1.0] * 40
    randoms = run(task, "builtin/random", seed=1)
    assert all(r.score.outcome in ("scored", "unscored") for r in randoms)
    assert sum(r.score.value or 0 for r in randoms) < 25
    assert [r.output.text for r in run(task, "builtin/random", seed=1)] == [r.output.text for r in randoms]


def test_vsp_metrics_mad_exact_and_invalid(shared_data: Path) -> None:
    task = resolve_task("cyber/cti-vsp").create(data=str(shared_data / "cti-bench"))
    oracle = task.aggregate(run(task, "builtin/oracle"))
    assert oracle["mad"].value == 0.0 and oracle["mad"].n == 40
    assert oracle["exact_vector"].value == 1.0 and oracle["invalid_rate"].value == 0.0
    truth = "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H"
    scores = [
        task.score(s, Output(text=t))
        for s, t in zip(
            list(task.samples())[:1] * 4,
            [
                truth,
                "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
                "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:L",
                "garbage",
            ],
            strict=False,
        )
    ]
    metrics = task.aggregate([result(truth, s) for s in scores] + [result(truth, Score.error("boom"))])
    assert metrics["mad"].value == pytest.approx((0.0 + 4.3 + 2.2) / 3) and metrics["mad"].n == 3
    mad = metrics["mad"]
    assert mad.method == "bootstrap"
    assert mad.ci_low is not None and mad.value is not None and mad.ci_high is not None
    assert mad.ci_low <= mad.value <= mad.ci_high
    assert metrics["exact_vector"].value == pytest.approx(1 / 4) and metrics["exact_vector"].n == 4
    assert metrics["invalid_rate"].value == pytest.approx(1 / 4)


def test_ate_macro_and_micro_f1_on_hand_made_sets(shared_data: Path) -> None:
    task = resolve_task("cyber/cti-ate").create(data=str(shared_data / "cti-bench"))
    sample = next(iter(task.samples()))
    truth = ["T1071", "T1573", "T1083", "T1070"]
    answers = ["T1071, T1573, T1083, T1070", "T1071, T1105", "nothing to report"]
    metrics = task.aggregate([result(truth, task.score(sample, Output(text=a))) for a in answers])
    # per-sample F1: 1, 2*1/(2+1+3)=1/3, unscored=0; pooled: tp=5, fp=1, fn=0+3+4=7
    assert metrics["f1_macro"].value == pytest.approx((1 + 1 / 3 + 0) / 3) and metrics["f1_macro"].n == 3
    assert metrics["f1_macro_scored"].value == pytest.approx((1 + 1 / 3) / 2)
    assert metrics["f1_micro"].value == pytest.approx(10 / (10 + 1 + 7)) and metrics["f1_micro"].n == 3
    assert metrics["precision_micro"].value == pytest.approx(5 / 6)
    assert metrics["recall_micro"].value == pytest.approx(5 / 12)
    assert metrics["exact_set"].value == pytest.approx(1 / 3)
    oracle = task.aggregate(run(task, "builtin/oracle"))
    assert oracle["f1_micro"].value == 1.0 and oracle["f1_macro"].value == 1.0 and oracle["f1_macro"].n == 10


def test_cti_mcq_through_a_loopback_openai_server(shared_data: Path) -> None:
    task = resolve_task("cyber/cti-mcq").create(data=str(shared_data / "cti-bench"))
    answers = {prompt_text(s): s.target for s in task.samples()}
    wrong = {"A": "B", "B": "C", "C": "D", "D": "A"}
    bodies: list[dict] = []

    def responder(body: dict) -> Reply:
        bodies.append(body)
        prompt = body["messages"][-1]["content"]
        letter = answers[prompt]
        index = list(answers).index(prompt)
        if index % 4 == 1:
            return Reply(text=f"Thinking about it.\n**Answer: {wrong[letter]}**")
        if index % 4 == 2:
            return Reply(text="I cannot decide between the options.")
        return Reply(text=f"The options describe mitigations.\n{letter}")

    with OpenAIServer(responder) as server:
        results = run(task, "openai-compatible/test-model@" + server.base_url)
    outcomes = [r.score.outcome for r in results]
    assert outcomes.count("unscored") == 10 and outcomes.count("scored") == 30
    metrics = task.aggregate(results)
    assert metrics["accuracy"].value == pytest.approx(20 / 40)
    assert metrics["accuracy_scored"].value == pytest.approx(20 / 30)
    # the published request protocol: the paper's system prompt, temperature 0, top_p 1, seed 42, 2048 tokens
    assert all(b["messages"][0] == {"role": "system", "content": CTI_SYSTEM_PROMPT} for b in bodies)
    assert {(b["temperature"], b["top_p"], b["seed"], b["max_tokens"]) for b in bodies} == {(0.0, 1.0, 42, 2048)}


def test_cyber_suite_is_valid_and_names_family_tasks() -> None:
    suite = load_suite(str(REPO / "suites" / "cyber.yaml"))
    assert suite.name == "cyber"
    for plan in suite.tasks:
        entry = FAMILY.resolve(plan.name)
        assert entry is not None, plan.name
        entry.create(**plan.args)
        if plan.name.startswith("cyber/cti-"):  # the suite keeps the published generation settings
            assert build_task(plan).settings == PUBLISHED_SETTINGS, plan.name


def test_list_tasks_name_states_the_protocol_and_its_differences_from_the_paper() -> None:
    from harness.cli.listing import describe_task

    for name in ("cyber/cti-mcq", "cyber/cti-rcm", "cyber/cti-vsp", "cyber/cti-taa"):
        text = describe_task(name)
        assert "Published protocol" in text and "Differences from the paper" in text, name
        assert "system_prompt (bool, default True)" in text and "data (" in text, name
