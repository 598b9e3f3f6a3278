"""``cyber-gen/cvss``: seeded CVSS 3.1 base vectors turned into vulnerability descriptions.

Each item draws a uniformly random base vector, then writes a description of a fictional
product with one phrase per metric value (from ``cvss_phrases``), in a seeded order. The
ground truth is the vector; scoring is CTI-VSP's (base-score deviation, MAD over the task).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pydantic import Field

from harness.api import Sample, TaskArgs
from tasks.cyber.base import CvssVectorTask
from tasks.cyber.cvss_phrases import PHRASES, random_metrics, vector_of
from tasks.cyber.fillers import COMPONENTS, product_name, random_version
from tasks.cyber.prompts import vsp_prompt

INTROS: tuple[str, ...] = (
    "A vulnerability has been identified in the {component} of {product} {version}.",
    "{product} versions up to {version} contain a security flaw in the {component}.",
    "Researchers reported a weakness in the {component} of {product} before {version}.",
    "An issue was discovered in {product} {version} affecting its {component}.",
    "A security defect exists in the {component} shipped with {product} {version}.",
)


class GenCvssArgs(TaskArgs):
    """Arguments of ``cyber-gen/cvss``."""

    n: int = Field(200, ge=1, le=1_000_000, description="number of descriptions")
    seed: int = Field(0, description="generator seed: same seed, same items")


def make_item(rng: random.Random) -> tuple[str, str, dict[str, str], dict[str, str]]:
    """One item: (description, vector, metric values, the phrase used for each metric)."""
    metrics = random_metrics(rng)
    phrases = {metric: rng.choice(PHRASES[metric][value]) for metric, value in metrics.items()}
    intro = rng.choice(INTROS).format(
        component=rng.choice(COMPONENTS), product=product_name(rng), version=random_version(rng)
    )
    order = list(phrases)
    rng.shuffle(order)
    description = " ".join([intro, *(phrases[m] for m in order)])
    return description, vector_of(metrics), metrics, phrases


class GenCvssTask(CvssVectorTask[GenCvssArgs]):
    """Predict the CVSS 3.1 vector of a generated description; exact ground truth."""

    description = "generated vulnerability descriptions with exact CVSS 3.1 base vectors (MAD of base scores)"
    version = "1"

    def samples(self) -> Iterator[Sample]:
        """``n`` seeded items in the CTI-VSP prompt format."""
        args = self.args
        rng = random.Random(f"cyber-gen/cvss:{args.seed}")
        for index in range(args.n):
            description, vector, metrics, phrases = make_item(rng)
            yield Sample(
                id=f"gen-cvss-{args.seed}-{index}",
                input=vsp_prompt(description),
                target=vector,
                metadata={"description": description, "metrics": metrics, "phrases": phrases},
            )
