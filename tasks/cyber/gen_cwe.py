"""``cyber-gen/cwe``: seeded vulnerability write-ups of known CWEs, as advisories or bug tickets.

Each item picks a CWE from the authored template set (46 common weaknesses, names from
the ``cwe2`` catalogue), one of its templates, a fictional product and component, and a
style: an ``advisory`` paragraph or a ``ticket`` (title, steps to reproduce, observed
behaviour). The ground truth is the CWE id; the prompt is CTI-RCM's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Literal

from pydantic import Field

from harness.api import Sample, TaskArgs
from tasks.cyber.base import CweTask
from tasks.cyber.cwe_catalog import cwe_name
from tasks.cyber.cwe_template_types import CweTemplates, Ticket
from tasks.cyber.cwe_templates_access import ACCESS_TEMPLATES
from tasks.cyber.cwe_templates_code import CODE_TEMPLATES
from tasks.cyber.cwe_templates_resource import RESOURCE_TEMPLATES
from tasks.cyber.cwe_templates_web import WEB_TEMPLATES
from tasks.cyber.fillers import COMPONENTS, PARAMETERS, product_name, random_version
from tasks.cyber.prompts import rcm_prompt

TEMPLATES: tuple[CweTemplates, ...] = CODE_TEMPLATES + WEB_TEMPLATES + ACCESS_TEMPLATES + RESOURCE_TEMPLATES

ADVISORY_FRAMES: tuple[str, ...] = (
    "In {product} {version}, the {component} {clause}. The issue is fixed in {fixed}.",
    "{product} before {fixed} has a flaw in its {component}: it {clause}.",
    "Security advisory for {product} {version}. The {component} {clause}. Upgrade to {fixed} or later.",
    "An issue was discovered in {product} through {version}. The {component} {clause}.",
)

EXPECTED: tuple[str, ...] = (
    "The input should be rejected or handled safely without side effects.",
    "The operation should fail cleanly and leave the system unchanged.",
    "Only the intended behaviour should occur, with no security impact.",
)

Style = Literal["advisory", "ticket", "mixed"]


class GenCweArgs(TaskArgs):
    """Arguments of ``cyber-gen/cwe``."""

    n: int = Field(200, ge=1, le=1_000_000, description="number of write-ups")
    seed: int = Field(0, description="generator seed: same seed, same items")
    style: Style = Field("mixed", description="advisory, ticket, or mixed (each item picks one)")


def fill(text: str, values: dict[str, str]) -> str:
    """``text`` with ``{component}``, ``{param}`` and ``{product}`` replaced (other braces kept)."""
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def advisory(templates: CweTemplates, rng: random.Random, values: dict[str, str]) -> str:
    """An advisory paragraph for one of the CWE's clauses."""
    clause = fill(rng.choice(templates.advisories), values)
    frame = rng.choice(ADVISORY_FRAMES)
    return fill(frame.replace("{clause}", clause), values)


def ticket(templates: CweTemplates, rng: random.Random, values: dict[str, str]) -> str:
    """A bug ticket: title, environment, steps to reproduce, observed and expected behaviour."""
    chosen: Ticket = rng.choice(templates.tickets)
    steps = "\n".join(f"{i}. {fill(step, values)}" for i, step in enumerate(chosen.steps, start=1))
    return (
        f"Title: {fill(chosen.title, values)}\n"
        f"Product: {values['product']} {values['version']} ({values['component']})\n\n"
        f"Steps to reproduce:\n{steps}\n\n"
        f"Observed behaviour: {fill(chosen.observed, values)}\n"
        f"Expected behaviour: {rng.choice(EXPECTED)}"
    )


def make_item(rng: random.Random, style: Style) -> tuple[str, str, str]:
    """One item: (write-up text, the style used, ``CWE-<n>``)."""
    templates = rng.choice(TEMPLATES)
    values = {
        "component": rng.choice(COMPONENTS),
        "param": rng.choice(PARAMETERS),
        "product": product_name(rng),
        "version": random_version(rng),
    }
    values["fixed"] = random_version(rng)
    used = rng.choice(("advisory", "ticket")) if style == "mixed" else style
    text = advisory(templates, rng, values) if used == "advisory" else ticket(templates, rng, values)
    return text, used, f"CWE-{templates.cwe}"


class GenCweTask(CweTask[GenCweArgs]):
    """Map a generated advisory or bug ticket to its CWE; exact ground truth."""

    description = "generated advisories and bug tickets of 46 common CWEs (accuracy)"
    version = "1"

    def samples(self) -> Iterator[Sample]:
        """``n`` seeded write-ups in the CTI-RCM prompt format."""
        args = self.args
        rng = random.Random(f"cyber-gen/cwe:{args.seed}:{args.style}")
        for index in range(args.n):
            text, used, target = make_item(rng, args.style)
            kind, label = ("CVE description", "CVE Description") if used == "advisory" else ("bug report", "Bug Report")
            yield Sample(
                id=f"gen-cwe-{args.seed}-{args.style}-{index}",
                input=rcm_prompt(text, kind, label),
                target=target,
                metadata={"style": used, "cwe_name": cwe_name(int(target.split("-")[1])), "text": text},
            )
