"""``demo/arith``: seeded multi-step integer arithmetic with an exact scorer."""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Iterator

from pydantic import Field

from harness.api import GenerateRequest, Output, Sample, Score, Task, TaskArgs
from scorers.extract import last_answer_value
from scorers.numeric import parse_integer

OPERATIONS: tuple[tuple[str, str, Callable[[int, int], int]], ...] = (
    ("add", "Add {k}.", operator.add),
    ("sub", "Subtract {k}.", operator.sub),
    ("mul", "Multiply by {k}.", operator.mul),
)


class ArithArgs(TaskArgs):
    """Arguments of ``demo/arith``."""

    n: int = Field(200, ge=1, le=1_000_000, description="number of problems")
    steps: int = Field(4, ge=1, le=1000, description="operations per problem")
    seed: int = Field(0, description="generator seed: same seed, same problems")


def make_problem(rng: random.Random, steps: int) -> tuple[str, int]:
    """One problem: a start value and ``steps`` operations; returns (instructions, answer)."""
    value = rng.randint(1, 20)
    lines = [f"Start with {value}."]
    for _ in range(steps):
        _, template, apply = rng.choice(OPERATIONS)
        k = rng.randint(2, 9)
        lines.append(template.format(k=k))
        value = apply(value, k)
    return " ".join(lines), value


class ArithTask(Task[ArithArgs]):
    """Seeded multi-step integer arithmetic; answer on a final 'ANSWER: <integer>' line."""

    description = "seeded multi-step integer arithmetic with an exact scorer (demo)"
    version = "1"

    def samples(self) -> Iterator[Sample]:
        """``n`` problems from the seeded generator."""
        args = self.args
        rng = random.Random(f"demo/arith:{args.seed}:{args.steps}")
        for index in range(args.n):
            instructions, answer = make_problem(rng, args.steps)
            prompt = (
                f"{instructions}\nWhat is the result? Work it out step by step, then give the final "
                "answer on the last line as 'ANSWER: <integer>'."
            )
            yield Sample(id=f"arith-{args.seed}-{args.steps}-{index}", input=prompt, target=answer)

    def score(self, sample: Sample, output: Output) -> Score:
        """Exact integer match of the last ANSWER line."""
        raw = last_answer_value(output.text)
        if raw is None:
            return Score.unscored("no 'ANSWER: <integer>' line")
        value = parse_integer(raw)
        if value is None:
            return Score.unscored(f"answer is not an integer: {raw[:80]!r}")
        return Score.of(value == sample.target, answer=str(value), explanation=f"expected {sample.target}, got {value}")

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The reference answer in the expected format."""
        return f"ANSWER: {sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A uniformly random integer near the answers' range."""
        return f"ANSWER: {rng.randint(-500, 500)}"
