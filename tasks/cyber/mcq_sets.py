"""CyberMetric, and the JSON reading it shares with SecEval (``tasks.cyber.seceval``).

CyberMetric (``CyberMetric-{80,500,2000,10000}-v1.json``):
``{"questions": [{"question", "answers": {"A": .., "D": ..}, "solution": "B"}]}``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import Field

from harness.api import (
    ConfigError,
    GenerateRequest,
    GenerationSettings,
    Output,
    Sample,
    SolveContext,
    TaskArgs,
    parse_json,
)
from scorers.choice import extract_choice, normalise_letters
from tasks.cyber.base import LetterChoiceTask
from tasks.cyber.prompts import cybermetric_messages

MAX_JSON_BYTES = 500_000_000
CYBERMETRIC_ENV = "FRONTIER_CYBERMETRIC_DATA"
UPSTREAM_RETRIES = 4  # CyberMetric_evaluator.py: ask_llm(..., max_retries=5) asks at most 5 times


class JsonSetArgs(TaskArgs):
    """Arguments of the JSON multiple-choice sets."""

    data: str | None = Field(
        None,
        description="path to the benchmark's JSON file (default: the environment "
        "variable named in the task description)",
    )


def read_json(data: str | None, env: str, task: str) -> Any:
    """The parsed JSON file named by ``data`` or by environment variable ``env``; ConfigError if unusable."""
    chosen = data or os.environ.get(env)
    if not chosen:
        raise ConfigError(f"{task}: no data file; pass -T data=PATH (the benchmark's JSON file) or set {env}")
    path = Path(chosen).expanduser()
    if not path.is_file():
        raise ConfigError(f"{task}: {path} is not a file")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise ConfigError(f"{task}: {path} is larger than {MAX_JSON_BYTES} bytes")
    return parse_json(path.read_bytes(), f"{task}: {path}")


def text_field(item: dict, key: str, where: str) -> str:
    """A non-empty string field of ``item``; ConfigError naming ``where`` otherwise."""
    value = item.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: field {key!r} must be a non-empty string")
    return value


class CyberMetricArgs(JsonSetArgs):
    """Arguments of CyberMetric: the data file and how often an off-format reply is asked again."""

    retries: int = Field(
        UPSTREAM_RETRIES,
        ge=0,
        le=20,
        description="asks after an off-format reply (no option letter found); upstream's evaluator asks "
        f"up to {UPSTREAM_RETRIES + 1} times in all, the default; 0 asks once",
    )


class CyberMetricTask(LetterChoiceTask[CyberMetricArgs]):
    """CyberMetric: one correct letter, answered as 'ANSWER: X' (data from -T data or $FRONTIER_CYBERMETRIC_DATA).

    Protocol of upstream's ``CyberMetric_evaluator.py``: its system and user prompts, and a
    reply without an answer is asked again, up to 5 asks in all (``-T retries=4``, the
    default; the reply scored is the first with a letter, else the last). Differences: here
    ``max_tokens`` is 256 and the temperature 0 (upstream sends neither: the provider's
    limit and default temperature, so its re-asks sample anew, where a greedy re-ask
    usually repeats the reply); the letter is read from the last line or an ``ANSWER:``
    line (upstream: the first ``ANSWER: X`` anywhere).
    """

    description = "CyberMetric multiple-choice cybersecurity knowledge (accuracy)"
    version = "2"
    settings = GenerationSettings(max_tokens=256, temperature=0.0)

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """Ask; while the reply states no option letter, ask again, ``retries`` times at most."""
        asked = []
        for _ in range(self.args.retries + 1):
            generation = await ctx.generate(sample.messages())
            asked.append(generation.text)
            if extract_choice(generation.text, self.letters) is not None:
                break
        return Output(text=asked[-1], data={"asks": len(asked), "off_format_replies": asked[:-1]})

    def samples(self) -> Iterator[Sample]:
        """One sample per question with CyberMetric's system and user prompts."""
        args = self.args
        data = read_json(args.data, CYBERMETRIC_ENV, self.name)
        questions = data.get("questions") if isinstance(data, dict) else None
        if not isinstance(questions, list):
            raise ConfigError(f"{self.name}: expected a JSON object with a 'questions' list")
        for index, item in enumerate(questions):
            where = f"{self.name} question {index}"
            if not isinstance(item, dict):
                raise ConfigError(f"{where}: expected an object")
            question = text_field(item, "question", where)
            answers = item.get("answers")
            if (
                not isinstance(answers, dict)
                or set(answers) - set(self.letters)
                or len(answers) < 2
                or not all(isinstance(v, str) for v in answers.values())
            ):
                raise ConfigError(f"{where}: 'answers' must map letters A-D to strings")
            solution = normalise_letters(text_field(item, "solution", where), "".join(answers))
            if solution is None or len(solution) != 1:
                raise ConfigError(f"{where}: solution {item['solution']!r} is not one of {sorted(answers)}")
            yield Sample(id=f"cybermetric-{index:05d}", input=cybermetric_messages(question, answers), target=solution)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The right letter in CyberMetric's answer format."""
        return f"ANSWER: {sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A random letter in CyberMetric's answer format."""
        return f"ANSWER: {rng.choice(self.letters)}"
