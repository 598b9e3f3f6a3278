"""``tau2/all``: overall and per-domain reward, reward_strict and pass^k/pass@k with CIs, checked on real
trajectories against τ²'s own evaluator and pass^k estimator and against fractions worked out by hand."""

from __future__ import annotations

import asyncio
import json
import random
from fractions import Fraction
from math import comb

import pytest
from tau2_helpers import tau2_task

from harness.adapters import resolve_adapter
from harness.runner import evaluate
from harness.types import SampleResult
from tasks.tau2.parity import tau2_registry_over, tau2_reward
from tasks.tau2.pooled import Tau2PooledTask
from tasks.tau2.trajectory import logged_trajectory

pytestmark = pytest.mark.slow

# Which agent plays each trial (O: oracle, I: idle) of the first six tasks: airline 0, retail 0,
# telecom 0, airline 1, retail 1, telecom 1 (tau2/all interleaves the domains task by task).
PATTERN = ("III", "OOO", "OIO", "IOI", "IIO", "III")
# Official successes per task: the idle agent passes airline 0 and 1 (their gold changes nothing).
OFFICIAL = (3, 3, 2, 3, 1, 0)
# reward_strict successes: the oracle fails airline 0's strict rule too (inaction cannot pass).
STRICT = (0, 3, 2, 1, 1, 0)
TRIALS = 3


def _mean(values: list[Fraction]) -> float:
    return float(sum(values, Fraction(0)) / len(values))


def _pass_hat(successes: tuple[int, ...], k: int) -> float:
    return _mean([Fraction(comb(c, k), comb(TRIALS, k)) for c in successes])


def _pass_at(successes: tuple[int, ...], k: int) -> float:
    return _mean([1 - Fraction(comb(TRIALS - c, k), comb(TRIALS, k)) for c in successes])


@pytest.fixture(scope="module")
def mixed() -> tuple[Tau2PooledTask, list[SampleResult]]:
    """Real episodes of the oracle and the idle agent on six tasks, three trials each, mixed per PATTERN."""
    task = tau2_task("tau2/all", trials=TRIALS)
    assert isinstance(task, Tau2PooledTask)
    limit = len(PATTERN) * TRIALS
    oracle = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle"), limit=limit))
    idle = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=0), limit=limit))
    agents = "".join(PATTERN)
    return task, [(o if agent == "O" else i) for agent, o, i in zip(agents, oracle, idle, strict=True)]


@pytest.mark.slow
def test_samples_interleave_the_three_domains_task_by_task() -> None:
    task = tau2_task("tau2/all", trials=2)
    ids = [s.id for s in task.samples()]
    assert ids[:4] == ["airline-0#0", "airline-0#1", "retail-0#0", "retail-0#1"]
    assert ids[4].startswith("telecom-") and ids[6] == "airline-1#0"
    assert len(ids) == 2 * (50 + 114 + 114) == 2 * len(task.tau2_tasks()) and len(set(ids)) == len(ids)
    assert len(list(tau2_task("tau2/all", split="test").samples())) == 20 + 40 + 40


@pytest.mark.slow
def test_official_successes_are_tau2s_own_verdicts(mixed: tuple[Tau2PooledTask, list[SampleResult]]) -> None:
    task, results = mixed
    samples = {s.id: s for s in task.samples()}
    verdicts: list[float] = []
    seen: dict[str, float] = {}  # trials of one agent on one task are the same episode: τ² judges each once
    for result in results:
        member = task.member(result.sample_id)
        data = result.output.data
        turns = [m.model_dump(mode="json") for m in result.output.trajectory]
        key = json.dumps([result.sample_id.split("#")[0], turns, data["termination"]])
        if key not in seen:
            with tau2_registry_over(member.domain()):
                seen[key] = tau2_reward(
                    member.domain_name,
                    member.task_of(samples[result.sample_id]),
                    logged_trajectory(result.output),
                    data["termination"],
                )
        verdicts.append(seen[key])
        assert result.score.value == verdicts[-1], result.sample_id
    assert len(seen) < len(results)
    per_task = [int(sum(verdicts[i : i + TRIALS])) for i in range(0, len(verdicts), TRIALS)]
    assert tuple(per_task) == OFFICIAL


def test_overall_pass_k_and_pass_at_k_are_tau2s_estimator_over_every_task(
    mixed: tuple[Tau2PooledTask, list[SampleResult]],
) -> None:
    from tau2.metrics.agent_metrics import pass_hat_k

    task, results = mixed
    metrics = task.aggregate(results, seed=0)
    assert metrics["reward"].value == pytest.approx(2 / 3) and metrics["reward"].n == 18
    assert metrics["reward_strict"].value == pytest.approx(sum(STRICT) / 18)
    for k in range(1, TRIALS + 1):
        theirs = sum(pass_hat_k(TRIALS, c, k) for c in OFFICIAL) / len(OFFICIAL)
        assert metrics[f"pass^{k}"].value == pytest.approx(_pass_hat(OFFICIAL, k)) == pytest.approx(theirs)
        assert metrics[f"pass@{k}"].value == pytest.approx(_pass_at(OFFICIAL, k))
        assert metrics[f"strict/pass^{k}"].value == pytest.approx(_pass_hat(STRICT, k))
        assert metrics[f"strict/pass@{k}"].value == pytest.approx(_pass_at(STRICT, k))
    assert metrics["pass^2"].value == pytest.approx(5 / 9) and metrics["pass@2"].value == pytest.approx(7 / 9)
    assert "pass^4" not in metrics
    for name in ("pass^1", "pass^2", "pass@3", "strict/pass^1"):
        value = metrics[name]  # a bootstrap over tasks; Wilson where every task's value is 0 or 1 (pass@3 here)
        assert value.n == len(PATTERN) and value.method == ("wilson" if name == "pass@3" else "bootstrap")
        assert value.value is not None and value.ci_low is not None and value.ci_high is not None
        assert value.ci_low <= value.value <= value.ci_high and value.ci_low < value.ci_high


def test_per_domain_breakdown_comes_from_the_same_pass(mixed: tuple[Tau2PooledTask, list[SampleResult]]) -> None:
    task, results = mixed
    metrics = task.aggregate(results, seed=0)
    rows = {"airline": (0, 3), "retail": (1, 4), "telecom": (2, 5)}
    for domain, (first, second) in rows.items():
        official, strict = (OFFICIAL[first], OFFICIAL[second]), (STRICT[first], STRICT[second])
        assert metrics[f"{domain}/reward"].value == pytest.approx(sum(official) / 6)
        assert metrics[f"{domain}/reward"].n == 6
        assert metrics[f"{domain}/reward_strict"].value == pytest.approx(sum(strict) / 6)
        for k in range(1, TRIALS + 1):
            assert metrics[f"{domain}/pass^{k}"].value == pytest.approx(_pass_hat(official, k))
            assert metrics[f"{domain}/pass^{k}"].n == 2
            assert metrics[f"{domain}/strict/pass@{k}"].value == pytest.approx(_pass_at(strict, k))
    assert metrics["telecom/pass^3"].value == 0.0 and metrics["retail/pass^1"].value == pytest.approx(2 / 3)
    assert not any(
        name.startswith(tuple(f"{d}/{m}" for d in rows for m in ("termination", "tool_errors"))) for name in metrics
    )


def test_aggregate_is_seeded_and_independent_of_result_order(mixed: tuple[Tau2PooledTask, list[SampleResult]]) -> None:
    task, results = mixed
    shuffled = list(results)
    random.Random(7).shuffle(shuffled)
    assert task.aggregate(results, seed=3) == task.aggregate(iter(shuffled), seed=3)
    assert task.aggregate(results, seed=3)["pass^2"] != task.aggregate(results, seed=4)["pass^2"]


def test_a_forged_sample_id_is_unscored_not_raised(mixed: tuple[Tau2PooledTask, list[SampleResult]]) -> None:
    task, results = mixed
    forged = next(iter(task.samples())).model_copy(update={"id": "nowhere-0"})
    score = task.score(forged, results[0].output)
    assert score.outcome == "unscored" and "names no domain" in (score.explanation or "")
