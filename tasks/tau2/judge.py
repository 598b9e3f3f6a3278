"""NL assertions judged as τ²'s ``NLAssertionsEvaluator`` does, through this project's calling layer."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from harness.api import GenerateRequest, Message

if TYPE_CHECKING:
    from harness.api import ModelAdapter

SYSTEM_PROMPT = """
        TASK
        - You will be given a list of expected outcomes and a conversation that was collected during a test case run.
        - The conversation is between an agent and a customer.
        - Your job is to evaluate whether the agent satisfies each of the expected outcomes.
        - Grade each expected outcome individually.

        FORMAT
        - Your response should be a JSON object with the following fields:
        - `reasoning`: a short explanation for your classification
        - `metExpectation`: `true` if the agent satisfies the expected outcomes, `false` otherwise
        - `expectedOutcome`: repeat the expectation from the input that you are grading

        Example response structure:
        {
            "results": [
                {
                    "expectedOutcome": "<one of the expected outcomes from the input>",
                    "reasoning": "<reasoning trace>",
                    "metExpectation": <false or true>,
                }
            ]
        }
        """


def judge_prompt(trajectory: list, assertions: list[str]) -> str:
    """τ²'s user prompt: the conversation as ``role: content`` lines, then the expected outcomes."""
    conversation = "\n".join(f"{m.role}: {m.content}" for m in trajectory)
    return f"""
        conversation:
        {conversation}

        expectedOutcomes:
        {assertions}
        """


def parse_verdicts(text: str, count: int) -> list[bool] | None:
    """One verdict per assertion from the judge's JSON (τ²'s ``results[].metExpectation``); None if unusable."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    results = data.get("results") if isinstance(data, dict) else None
    if not isinstance(results, list) or len(results) != count:
        return None
    verdicts = [r.get("metExpectation") if isinstance(r, dict) else None for r in results]
    checked = [v for v in verdicts if isinstance(v, bool)]
    return checked if len(checked) == len(verdicts) else None


async def judge_nl_assertions(judge: ModelAdapter, trajectory: list, assertions: list[str]) -> list[bool] | None:
    """Ask the judge (temperature 0) whether each assertion holds; None when its answer cannot be read."""
    request = GenerateRequest(
        messages=(
            Message(role="system", content=SYSTEM_PROMPT),
            Message(role="user", content=judge_prompt(trajectory, assertions)),
        ),
        temperature=0.0,
    )
    generation = await judge.generate(request)
    return parse_verdicts(generation.text, len(assertions))
