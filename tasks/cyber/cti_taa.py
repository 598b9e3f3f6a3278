"""CTI-TAA: attribute a redacted threat report to a threat actor.

The ground truth comes from upstream's responses file (``GT`` column, row-aligned with
``cti-taa.tsv``). The actor named in the answer is compared with the truth after name
normalisation, optionally through an alias table (``-T aliases=FILE.json``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cached_property

from pydantic import Field

from harness.errors import ConfigError
from harness.task import GenerationSettings, TaskArgs
from harness.types import GenerateRequest, Output, Sample, Score
from scorers.threat_actor import AliasTable, extract_actor
from tasks.cyber.cti import DATA_HELP, CtiRows
from tasks.cyber.ctibench_data import load_taa_truth
from tasks.cyber.prompts import TAA_FINAL_LINE

KNOWN_ACTORS: tuple[str, ...] = (
    "APT28", "APT29", "APT41", "Lazarus Group", "Sandworm", "FIN7", "Turla", "Kimsuky", "OilRig", "MuddyWater",
)


class CtiTaaArgs(TaskArgs):
    """Arguments of ``cyber/cti-taa``."""

    data: str | None = Field(None, description=DATA_HELP)
    responses: str | None = Field(None, description="cti-taa-responses.tsv (ground truth in column GT); "
                                                     "default: looked for beside the TAA data")
    aliases: str | None = Field(None, description="JSON alias table: {name: [aliases]} or [[name, alias, ...]]")
    final_line: bool = Field(False, description="append an instruction to end with 'Threat actor: <name>'")


class CtiTaaTask(CtiRows):
    """CTI-TAA: threat actor attribution, exact match of normalised names (aliases optional)."""

    description = "CTI-Bench CTI-TAA: threat actor attribution (accuracy on normalised names)"
    version = "1"
    Args = CtiTaaArgs
    subset = "cti-taa"
    required = ("Prompt",)
    settings = GenerationSettings(max_tokens=2048, temperature=0.0)

    @cached_property
    def alias_table(self) -> AliasTable:
        """The alias table from ``-T aliases``, or an empty one."""
        args: CtiTaaArgs = self.args  # type: ignore[assignment]
        if not args.aliases:
            return AliasTable()
        try:
            return AliasTable.from_json(args.aliases)
        except ValueError as exc:
            raise ConfigError(f"cyber/cti-taa: -T aliases: {exc}") from None

    def samples(self) -> Iterator[Sample]:
        """One sample per report, the truth taken from the responses file."""
        args: CtiTaaArgs = self.args  # type: ignore[assignment]
        rows = self.rows()
        truth = load_taa_truth(args.data, args.responses, len(rows))
        _ = self.alias_table  # read the alias file now so that a bad one fails before any model call
        for index, (row, actor) in enumerate(zip(rows, truth)):
            prompt = row["Prompt"].strip()
            if not prompt:
                raise self.bad_row(index, "empty Prompt")
            if args.final_line:
                prompt += TAA_FINAL_LINE
            yield Sample(id=f"{self.subset}-{index:04d}", input=prompt, target=actor,
                         metadata={"row": index, "url": row.get("URL", "")})

    def score(self, sample: Sample, output: Output) -> Score:
        """Right when the named actor is the truth or one of its aliases."""
        actor = extract_actor(output.text)
        if actor is None:
            return Score.unscored("no threat actor name found in the answer")
        right = self.alias_table.same_actor(actor, str(sample.target))
        return Score.of(right, answer=actor, explanation=f"expected {sample.target}, got {actor}")

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The truth on a labelled last line."""
        return f"The tooling and targeting match this group.\nThreat actor: {sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A well-known actor picked at random."""
        return f"Threat actor: {rng.choice(KNOWN_ACTORS)}"
