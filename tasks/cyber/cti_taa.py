"""CTI-TAA: attribute a redacted threat report to a threat actor.

The ground truth comes from upstream's responses file (``GT`` column, row-aligned with
``cti-taa.tsv``). The actor named in the answer is read from the free-form text (the
first stated attribution) and related to the truth through the authors' tables
(``alias_dict`` and ``related_dict`` from upstream ``evaluation/``, JSON or pickle, read
without running code; their literal ``'nan'`` entries are dropped): ``correct`` when it
is the truth or an alias, ``plausible`` when it is a related group. ``accuracy`` is the
paper's correct tier and ``plausible_accuracy`` its plausible tier (correct or
plausible), both over every row, as the authors' notebook counts them. An optional
extractor model (``-T extractor=<adapter spec>``) is asked which actor each answer names;
its reading is logged as its own call and reported apart (``llm_accuracy``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from pydantic import Field

from harness.api import (
    ConfigError,
    GenerateRequest,
    MetricValue,
    Output,
    Sample,
    SampleResult,
    Score,
    SolveContext,
    proportion_metric,
)
from scorers.threat_actor import ActorRelations, AliasTable, extract_actor, table_groups
from tasks.cyber.cti import CtiArgs, CtiRows
from tasks.cyber.ctibench_data import data_path, load_taa_truth, locate
from tasks.cyber.prompts import TAA_FINAL_LINE
from tasks.cyber.taa_tables import load_tables

KNOWN_ACTORS: tuple[str, ...] = (
    "APT28",
    "APT29",
    "APT41",
    "Lazarus Group",
    "Sandworm",
    "FIN7",
    "Turla",
    "Kimsuky",
    "OilRig",
    "MuddyWater",
)
NO_TABLES = "none"


class CtiTaaArgs(CtiArgs):
    """Arguments of ``cyber/cti-taa``."""

    responses: str | None = Field(
        None, description="cti-taa-responses.tsv (ground truth in column GT); default: looked for beside the TAA data"
    )
    tables: str | None = Field(
        None,
        description="folder with the authors' alias_dict and related_dict (.json or "
        ".pickle); default: the data folder, its evaluation/ or tables/; "
        "'none' to compare names without them (no plausible tier)",
    )
    aliases: str | None = Field(None, description="extra JSON alias table: {name: [aliases]} or [[name, alias, ...]]")
    final_line: bool = Field(
        False, description="append an instruction to end with 'Threat actor: <name>' (not in the paper)"
    )
    extractor: str | None = Field(
        None,
        description="optional adapter spec asked which actor each answer names; "
        "logged as an 'extractor' call and reported apart as "
        "llm_accuracy and llm_plausible_accuracy",
    )


class CtiTaaTask(CtiRows[CtiTaaArgs]):
    """CTI-TAA: threat actor attribution, the paper's correct and plausible tiers.

    Published protocol: the row's Prompt after the paper's system prompt, temperature 0,
    top_p 1, seed 42, 2048 tokens; the authors' alias and related tables. ``accuracy`` and
    ``plausible_accuracy`` are the paper's tiers over every row. Differences from the paper:
    the authors read each attribution by hand, here the first stated attribution is read
    (a ``[PLACEHOLDER]`` is no answer); the tables' ``'nan'`` entries are dropped, which lowers
    three published plausible tiers (GPT-4 86 -> 84 %, Gemini-1.5 74 -> 72 %, LLAMA3-70B
    80 -> 78 %; ChatGPT-3.5 and LLAMA3-8B unchanged); names are compared without case,
    punctuation or a trailing "group". ``frontier data get ctibench`` fetches the tables.
    """

    description = (
        "CTI-Bench CTI-TAA: threat actor attribution (accuracy: the paper's correct tier; "
        "plausible_accuracy: its plausible tier; authors' alias and related tables)"
    )
    version = "2"
    subset = "cti-taa"
    required = ("Prompt",)

    def _table_roots(self) -> list[Path]:
        """Where the authors' tables are looked for: the data folder, and the TAA file's folder and its parent."""
        args = self.args
        roots: list[Path] = []
        chosen = data_path(args.data)
        if chosen is not None and chosen[0].is_dir():
            roots.append(chosen[0])
        taa = locate(args.data, self.subset)
        if taa is not None:
            roots += [taa.parent, taa.parent.parent]
        return roots

    @cached_property
    def relations(self) -> ActorRelations:
        """The authors' tables (unless ``-T tables=none``) merged with any ``-T aliases`` table."""
        args = self.args
        alias_groups: list[list[str]] = []
        related_groups: list[list[str]] = []
        if args.tables != NO_TABLES:
            folder = Path(args.tables).expanduser() if args.tables else None
            aliases, related = load_tables(folder, self._table_roots())
            alias_groups, related_groups = table_groups(aliases), table_groups(related)
        if args.aliases:
            try:
                alias_groups += AliasTable.groups_from_json(args.aliases)
            except ValueError as exc:
                raise ConfigError(f"cyber/cti-taa: -T aliases: {exc}") from None
        return ActorRelations(alias_groups, related_groups)

    def samples(self) -> Iterator[Sample]:
        """One sample per report, the truth taken from the responses file."""
        args = self.args
        rows = self.rows()
        truth = load_taa_truth(args.data, args.responses, len(rows))
        _ = self.relations  # read the tables now so that a bad one fails before any model call
        for index, (row, actor) in enumerate(zip(rows, truth, strict=True)):
            prompt = row["Prompt"].strip()
            if not prompt:
                raise self.bad_row(index, "empty Prompt")
            if args.final_line:
                prompt += TAA_FINAL_LINE
            yield Sample(
                id=f"{self.subset}-{index:04d}",
                input=self.model_input(prompt),
                target=actor,
                metadata={"row": index, "url": row.get("URL", "")},
            )

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """One generation; with ``-T extractor``, the extractor model is also asked which actor it names."""
        generation = await ctx.generate(sample.messages())
        args = self.args
        if not args.extractor:
            return Output(text=generation.text)
        from tasks.cyber.taa_extractor import ask_extractor

        return Output(
            text=generation.text, data={"llm_extraction": await ask_extractor(args.extractor, generation.text)}
        )

    def score(self, sample: Sample, output: Output) -> Score:
        """Correct when the named actor is the truth or an alias; details carry the tier (and the extractor's)."""
        extra = self._extractor_details(sample, output)
        actor = extract_actor(output.text)
        if actor is None:
            return Score.unscored("no threat actor named in the answer", tier="incorrect", **extra)
        tier = self.relations.tier(actor, str(sample.target))
        return Score.of(
            tier == "correct",
            answer=actor,
            explanation=f"expected {sample.target}, got {actor} ({tier})",
            tier=tier,
            **extra,
        )

    def _extractor_details(self, sample: Sample, output: Output) -> dict[str, str | None]:
        """``llm_actor`` and ``llm_tier`` when the extractor model was asked, else nothing."""
        extraction = (output.data or {}).get("llm_extraction")
        if not isinstance(extraction, dict):
            return {}
        if extraction.get("error"):
            return {"llm_error": str(extraction["error"])[:300]}
        actor = extraction.get("actor")
        if not isinstance(actor, str) or not actor.strip():
            return {"llm_actor": None, "llm_tier": "incorrect"}
        return {"llm_actor": actor[:120], "llm_tier": self.relations.tier(actor, str(sample.target))}

    def accumulator(self, seed: int = 0) -> TierAccumulator:
        """The paper's two tiers over every row, and the correct tier over answers naming an actor."""
        return TierAccumulator()

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The truth on a labelled last line."""
        return f"The tooling and targeting match this group.\nThreat actor: {sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A well-known actor picked at random."""
        return f"Threat actor: {rng.choice(KNOWN_ACTORS)}"


class TierAccumulator:
    """CTI-TAA's tiers: ``accuracy`` (correct) and ``plausible_accuracy`` over every row, ``accuracy_scored``
    over answers naming an actor and, when the extractor model was asked, its two tiers."""

    def __init__(self) -> None:
        self.rows = self.scored = self.correct = self.plausible = 0
        self.asked = self.llm_correct = self.llm_plausible = 0

    def add(self, result: SampleResult) -> None:
        """Count the row's tiers; an infrastructure error is left out."""
        if result.score.outcome == "error":
            return
        self.rows += 1
        self.scored += result.score.outcome == "scored"
        tier = result.score.details.get("tier")
        self.correct += tier == "correct"
        self.plausible += tier in ("correct", "plausible")
        llm_tier = result.score.details.get("llm_tier")
        self.asked += llm_tier is not None
        self.llm_correct += llm_tier == "correct"
        self.llm_plausible += llm_tier in ("correct", "plausible")

    def finish(self) -> dict[str, MetricValue]:
        """Each tier's share with its Wilson interval."""
        metrics = {
            "accuracy": proportion_metric(self.correct, self.rows),
            "plausible_accuracy": proportion_metric(self.plausible, self.rows),
            "accuracy_scored": proportion_metric(self.correct, self.scored),
        }
        if self.asked:
            metrics.update(
                llm_accuracy=proportion_metric(self.llm_correct, self.asked),
                llm_plausible_accuracy=proportion_metric(self.llm_plausible, self.asked),
            )
        return metrics
