"""The Critic-Reasoner method: parameters, usage summing, and a run against the loopback server."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from harness.errors import ConfigError
from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions, execute
from harness.testing.openai_server import OpenAIServer, Reply
from harness.types import GenerateRequest, Generation, Message, SampleResult, Usage
from tasks.confiqa.critic_reasoner import CriticReasoner


class FakeModel:
    """Answers from a list, recording requests."""

    name = "fake"
    capabilities = frozenset({"chat"})

    def __init__(self, *generations: Generation) -> None:
        self.generations = list(generations)
        self.requests: list[GenerateRequest] = []

    async def generate(self, request: GenerateRequest) -> Generation:
        self.requests.append(request)
        return self.generations.pop(0)


@pytest.mark.parametrize(
    "params",
    [
        {"colour": "red"},
        {"reasoner_prompt": "Answer {question}"},
        {"critic_prompt": "Mask {evidence} for {who}"},
        {"critic_prompt": "broken {evidence"},
        {"question_pattern": "(unclosed"},
        {"question_pattern": "(?P<evidence>.*)"},
        {"critic_max_tokens": "many"},
    ],
)
def test_bad_parameters_are_refused(params: dict[str, str]) -> None:
    with pytest.raises(ConfigError, match="critic_reasoner"):
        CriticReasoner(FakeModel(), **params)


def test_two_calls_with_summed_usage_and_cost() -> None:
    inner = FakeModel(
        Generation(
            text="[MASK] composed it. The film is from 2020.",
            usage=Usage(input_tokens=50, output_tokens=9),
            cost_usd=0.002,
            latency_s=0.5,
        ),
        Generation(text="Lorne Balfe", usage=Usage(input_tokens=40, output_tokens=2), cost_usd=0.001, latency_s=0.25),
    )
    method = CriticReasoner(inner, mask="<gone>", critic_max_tokens="300")
    request = GenerateRequest(
        messages=(
            Message(role="system", content="Be brief."),
            Message(role="user", content="Petri Alanko composed it.\nQ:Who composed it?\nA:"),
        ),
        max_tokens=16,
        temperature=0.0,
    )
    result = asyncio.run(method.generate(request))
    assert result.text == "Lorne Balfe"
    assert result.usage == Usage(input_tokens=90, output_tokens=11)
    assert result.cost_usd == pytest.approx(0.003) and result.latency_s == pytest.approx(0.75)
    critic, reasoner = inner.requests
    assert critic.messages[0].content == "Be brief." and critic.max_tokens == 300
    critic_prompt, reasoner_prompt = critic.messages[-1].content or "", reasoner.messages[-1].content or ""
    assert "Petri Alanko composed it." in critic_prompt and "<gone>" in critic_prompt
    assert "Petri Alanko" not in reasoner_prompt
    assert "[MASK] composed it." in reasoner_prompt and "Who composed it?" in reasoner_prompt
    assert reasoner.max_tokens == 16


def test_unknown_cost_stays_unknown() -> None:
    inner = FakeModel(Generation(text="x", cost_usd=None), Generation(text="y", cost_usd=0.1))
    assert (
        asyncio.run(
            CriticReasoner(inner).generate(GenerateRequest(messages=(Message(role="user", content="Q"),)))
        ).cost_usd
        is None
    )


def _responder(body: dict[str, Any]) -> Reply:
    prompt = body["messages"][-1]["content"]
    if "Rewritten evidence:" in prompt:
        evidence = prompt.split("Evidence:\n", 1)[1].split("\n\nQuestion:", 1)[0]
        _, _, rest = evidence.partition(". ")
        return Reply(text=f"[MASK]. {rest}")
    question = re.search(r"Question: (.*)\nAnswer:", prompt)
    return Reply(text=f"I cannot tell from: {question.group(1) if question else '?'}")


def test_end_to_end_on_loopback_server_logs_both_calls(tmp_path: Path) -> None:
    with OpenAIServer(_responder) as server:
        plan = RunPlan(
            model="openai-compatible/test-model@" + server.base_url,
            tasks=(TaskPlan("confiqa-gen/qa", {"n": 4, "control": False}),),
            methods=("critic_reasoner:mask=[MASK]",),
        )
        summary = asyncio.run(execute(plan, tmp_path / "run", RunOptions(progress=False, concurrency=2)))
        assert len(server.requests) == 8
    lines = (tmp_path / "run" / "samples.jsonl").read_text(encoding="utf-8").splitlines()
    results = [SampleResult.model_validate_json(line) for line in lines]
    assert len(results) == 4
    for result in results:
        assert [call.role for call in result.calls] == ["critic", "reasoner"]
        assert result.usage == result.calls[0].generation.usage + result.calls[1].generation.usage
        assert result.usage.input_tokens > 0 and result.output.text.startswith("I cannot tell from:")
        assert result.score.outcome == "scored" and result.score.correct is False
    critic_prompts = [r for r in server.requests if "Rewritten evidence:" in r["messages"][-1]["content"]]
    assert len(critic_prompts) == 4
    reasoner_prompts = [r["messages"][-1]["content"] for r in server.requests if r not in critic_prompts]
    assert len(reasoner_prompts) == 4 and all("Evidence:\n[MASK]." in p for p in reasoner_prompts)
    config = json.loads((tmp_path / "run" / "config.json").read_text(encoding="utf-8"))
    assert "critic_reasoner:mask=[MASK]" in json.dumps(config)
    assert summary.tasks["confiqa-gen/qa"].metrics["pc"].n == 4
