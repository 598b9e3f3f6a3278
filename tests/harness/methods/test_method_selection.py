"""best_of_n, self_consistency, REAR and PRM reranking end to end against the loopback server."""

from __future__ import annotations

import asyncio
import re
import zlib
from collections import Counter
from typing import Any

import pytest

from harness.adapters import resolve_adapter
from harness.adapters.openai_compatible import render_chatml
from harness.errors import ConfigError, MissingCapability
from harness.methods.best_of_n import BestOfN, PrmRerank, Rear, SelfConsistency
from harness.methods.prm import JUDGE_INSTRUCTIONS
from harness.methods.rear import rear_reward
from harness.registry import resolve_task
from harness.runner import run_items
from harness.testing.openai_server import OpenAIServer, Reply, _token_logprobs
from harness.testing.responders import solve_arith
from harness.types import Message, SampleResult, Usage

N_SAMPLES = 10


def _user_text(body: dict[str, Any]) -> str:
    return " ".join(str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user")


def _answer_of(text: str) -> int | None:
    found = re.findall(r"ANSWER:\s*(-?\d+)", text)
    return int(found[-1]) if found else None


def _judge(prompt: str) -> Reply:
    """A judge that rates a step 0.9 unless it states a wrong final answer (0.1)."""
    problem, _, solution = prompt.partition("\nSolution:\n")
    truth = solve_arith(problem)
    lines = [line for line in solution.splitlines() if line.startswith("Step ")]
    rated = []
    for number, line in enumerate(lines, 1):
        stated = _answer_of(line)
        rated.append(f"Step {number}: {0.1 if stated is not None and stated != truth else 0.9}")
    return Reply(text="\n".join(rated))


def noisy_arith(body: dict[str, Any]) -> Reply:
    """Right on two seeds in three; wrong answers scattered; judge prompts answered by ``_judge``."""
    prompt = _user_text(body)
    if prompt.startswith(JUDGE_INSTRUCTIONS):
        return _judge(prompt)
    answer = solve_arith(prompt)
    if answer is None:
        return Reply(text="I do not know.")
    roll = zlib.crc32(f"{body.get('seed')}".encode())
    if roll % 3 == 0:
        answer += 1 + roll % 997
    return Reply(text=f"Compute it step by step.\nANSWER: {answer}")


async def evaluate_method(task: Any, method: Any, seed: int = 0) -> list[SampleResult]:
    """The runner's own path for a method (as ``execute`` drives it): results in sample order."""
    results: list[SampleResult] = []
    try:
        await run_items(((task, s, task.settings) for s in task.samples()), method, seed, 4, results.append)
    finally:
        await method.aclose()
    order = {s.id: i for i, s in enumerate(task.samples())}
    return sorted(results, key=lambda r: order[r.sample_id])


def _run(server: OpenAIServer, method: type, **params: str) -> list[SampleResult]:
    task = resolve_task("demo/arith").create(n=N_SAMPLES)
    inner = resolve_adapter("openai-compatible/test-model@" + server.base_url)
    return asyncio.run(evaluate_method(task, method(inner, **params)))


def _usage_is_sum_of_calls(result: SampleResult) -> bool:
    return result.usage == sum((c.generation.usage for c in result.calls), Usage()) and result.usage.total_tokens > 0


def test_self_consistency_returns_the_majority_answer_and_logs_every_call() -> None:
    with OpenAIServer(noisy_arith) as server:
        results = _run(server, SelfConsistency, n="5")
        assert len(server.requests) == 5 * N_SAMPLES
    plain_correct = 0
    for result in results:
        assert len(result.calls) == 5 and _usage_is_sum_of_calls(result)
        answers = Counter(_answer_of(c.generation.text) for c in result.calls)
        plain_correct += _answer_of(result.calls[0].generation.text) == result.target
        (top, votes), *rest = answers.most_common()
        if not rest or rest[0][1] < votes:
            assert _answer_of(result.output.text) == top
    accuracy = sum(r.score.value or 0.0 for r in results) / N_SAMPLES
    assert accuracy >= 0.9 and accuracy >= plain_correct / N_SAMPLES


def test_candidates_are_seeded_and_sampled() -> None:
    with OpenAIServer(noisy_arith) as server:
        _run(server, SelfConsistency, n="4")
        seeds = [body["seed"] for body in server.requests]
        assert all(body["temperature"] == 0.7 for body in server.requests)
        again = OpenAIServer(noisy_arith)
    with again:
        _run(again, SelfConsistency, n="4")
        assert sorted(b["seed"] for b in again.requests) == sorted(seeds)
    assert len(set(seeds)) == len(seeds)


def test_best_of_n_verifier_is_an_upper_bound_and_labelled_so() -> None:
    with OpenAIServer(noisy_arith) as server:
        inner = resolve_adapter("openai-compatible/test-model@" + server.base_url)
        method = BestOfN(inner, n="3", selector="verifier")
        assert "verifier-upper-bound" in method.name
        task = resolve_task("demo/arith").create(n=N_SAMPLES)
        results = asyncio.run(evaluate_method(task, method))
    for result in results:
        any_right = any(_answer_of(c.generation.text) == result.target for c in result.calls)
        assert result.score.correct == any_right and len(result.calls) == 3


def test_rear_selects_the_highest_realignment_reward() -> None:
    preference = "Answer like a careful accountant"
    with OpenAIServer(noisy_arith) as server:
        results = _run(server, Rear, n="3", lam="20", preference=preference)
        completions = [b for b in server.requests if "prompt" in b]
        assert len(completions) == 2 * 3 * N_SAMPLES
        assert all(b["echo"] is True and b["max_tokens"] == 0 and b["logprobs"] == 0 for b in completions)
    for result in results:
        generated = [c for c in result.calls if c.role == "model"]
        scoring = [c for c in result.calls if c.role == "rear"]
        assert len(generated) == 3 and len(scoring) == 6 and _usage_is_sum_of_calls(result)
        assert sum(c.generation.usage.input_tokens for c in scoring) > 0
        assert isinstance(result.input, str)
        plain = (Message(role="user", content=result.input),)
        preferred = (Message(role="system", content=preference), *plain)
        rewards = []
        for call in generated:
            text = call.generation.text
            per_context = []
            for context in (plain, preferred):
                tokens = (render_chatml(context) + text).split()
                per_context.append(_token_logprobs(tokens, "")[-len(text.split()) :])
            rewards.append(rear_reward(per_context[0], per_context[1], 20.0))
        best = max(range(3), key=lambda i: (rewards[i], -i))
        assert result.output.text == generated[best].generation.text


def test_rear_refuses_an_adapter_without_prompt_logprobs_before_any_call() -> None:
    with OpenAIServer(noisy_arith) as server:
        with pytest.raises(MissingCapability, match="prompt_logprobs"):
            Rear(resolve_adapter("builtin/oracle"), n="2")
        assert server.requests == []


def test_rear_needs_a_stated_preference() -> None:
    with OpenAIServer(noisy_arith) as server, pytest.raises(ConfigError, match="preference"):
        _run(server, Rear, n="2")


@pytest.mark.parametrize("separate_judge", [False, True])
def test_prm_weighted_rerank_counts_judge_tokens_separately(separate_judge: bool) -> None:
    with OpenAIServer(noisy_arith) as server, OpenAIServer(noisy_arith) as judge_server:
        params = {"n": "4", "aggregate": "min"}
        if separate_judge:
            params["judge"] = "openai-compatible/judge@" + judge_server.base_url
        results = _run(server, PrmRerank, **params)
        judged = (
            judge_server.requests
            if separate_judge
            else [b for b in server.requests if _user_text(b).startswith(JUDGE_INSTRUCTIONS)]
        )
        assert len(judged) == 4 * N_SAMPLES
    for result in results:
        prm_calls = [c for c in result.calls if c.role == "prm"]
        generated = [c for c in result.calls if c.role == "model"]
        assert len(prm_calls) == 4 and len(generated) == 4 and _usage_is_sum_of_calls(result)
        prm_usage = sum((c.generation.usage for c in prm_calls), Usage())
        assert (
            prm_usage.output_tokens > 0
            and prm_usage + sum((c.generation.usage for c in generated), Usage()) == result.usage
        )
        any_right = any(_answer_of(c.generation.text) == result.target for c in generated)
        assert result.score.correct == any_right


@pytest.mark.parametrize(
    ("method", "params", "named"),
    [
        (SelfConsistency, {"n": "0"}, "'n'"),
        (SelfConsistency, {"n": "many"}, "'n'"),
        (SelfConsistency, {"n": "2.5"}, "'n'"),
        (BestOfN, {"selector": "oracle"}, "'selector'"),
        (BestOfN, {"temperature": "-1"}, "'temperature'"),
        (BestOfN, {"nn": "3"}, "nn"),
        (PrmRerank, {"aggregate": "median"}, "'aggregate'"),
        (PrmRerank, {"weighted": "maybe"}, "'weighted'"),
        (Rear, {"lam": "nan"}, "'lam'"),
        (Rear, {"preference_file": "/nonexistent/pref.txt"}, "'preference_file'"),
    ],
)
def test_bad_parameters_are_config_errors_naming_the_parameter(
    method: type, params: dict[str, str], named: str
) -> None:
    inner = resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match=named):
        method(inner, **params)
