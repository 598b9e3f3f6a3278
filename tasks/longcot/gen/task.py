"""``longcot-gen/<domain>``: seeded generated problems whose difficulty knob scales the steps."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pydantic import Field

from harness.api import Sample
from tasks.longcot.data import Question
from tasks.longcot.gen.problems import GENERATORS
from tasks.longcot.task import VerifiedArgs, VerifiedTask


class GenArgs(VerifiedArgs):
    """Arguments of the LongCoT generators."""

    n: int = Field(20, ge=1, le=100_000, description="number of problems")
    steps: int = Field(16, ge=2, le=5000, description="difficulty: interdependent steps per problem (8 to 1000+)")
    seed: int = Field(0, description="generator seed: same seed, same problems")


def generated_questions(domain: str, n: int, steps: int, seed: int) -> Iterator[Question]:
    """``n`` problems of ``domain`` with ``steps`` steps, deterministic for ``seed``."""
    make = GENERATORS[domain]
    for index in range(n):
        rng = random.Random(f"longcot-gen/{domain}:{seed}:{steps}:{index}")
        yield make(rng, steps, index)


def generator_task(domain: str) -> type[VerifiedTask[GenArgs]]:
    """The task class of ``longcot-gen/<domain>``."""
    if domain not in GENERATORS:
        raise KeyError(f"no LongCoT generator for domain {domain!r}")

    class GeneratedTask(VerifiedTask[GenArgs]):
        __doc__ = f"Seeded long-horizon {domain} problems."
        description = f"seeded long-horizon {domain} problems; difficulty (steps) scales the chain length"

        def questions(self) -> Iterator[Question]:
            args = self.args
            return generated_questions(domain, args.n, args.steps, args.seed)

        def samples(self) -> Iterator[Sample]:
            args = self.args
            for sample in super().samples():
                yield sample.model_copy(update={"id": f"{sample.id}@seed{args.seed}"})

    GeneratedTask.__name__ = f"LongCotGen_{domain}"
    return GeneratedTask
