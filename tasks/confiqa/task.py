"""ConFiQA tasks: ``confiqa/{qa,mr,mc}`` over the real files and ``confiqa-gen/{qa,mr,mc}``
over items generated from the authored knowledge base.

Each sample is asked with the counterfactual context; with ``control=true`` the solver
also asks it with the original context (a second call) for control accuracy. ``target``
says what a run optimises and what the per-sample score is: ``faithfulness`` (Pc: answer
from the context) or ``robustness`` (factual robustness: keep the original answer).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar, Literal, NotRequired, TypedDict, TypeVar, cast

from pydantic import Field

from harness.api import (
    ConfigError,
    GenerateRequest,
    GenerationSettings,
    Message,
    Output,
    Sample,
    SampleResult,
    Score,
    SolveContext,
    Task,
    TaskArgs,
)
from tasks.confiqa.loader import HUB_ID, LoadProblem, Subset, load_subset, parse_items
from tasks.confiqa.metrics import FLAGS, ConFiQAAccumulator, control_correct, judge
from tasks.confiqa.prompts import PromptVariant, build_prompt
from tasks.confiqa.records import ConFiQAItem

Target = Literal["faithfulness", "robustness"]
MAX_SCORED_CHARS = 100_000


class ConFiQAArgs(TaskArgs):
    """Arguments shared by every ConFiQA task."""

    prompt: PromptVariant = Field(
        "official", description="prompt: official (the authors'), or base, attr, instr, opin, instr+opin"
    )
    target: Target = Field("faithfulness", description="what the run optimises: faithfulness (Pc) or robustness")
    oracle_target: Literal["counterfactual", "original"] = Field(
        "counterfactual", description="which answer builtin/oracle gives under the counterfactual context"
    )
    control: bool = Field(True, description="also ask with the original context (control accuracy)")
    reading: Literal["official", "strict"] = Field(
        "official",
        description="which reading decides each sample's value: official (the authors' evaluation.py) or strict "
        "(whole words, negated contractions); both are reported (pc, pc_strict, ...)",
    )


class ConFiQAFileArgs(ConFiQAArgs):
    """Arguments of ``confiqa/*``: where the upstream files are."""

    data: str = Field(HUB_ID, description="a ConFiQA JSON file, a folder holding ConFiQA-QA.json etc., or a hub id")


class ConFiQAGenArgs(ConFiQAArgs):
    """Arguments of ``confiqa-gen/*``: the generator's size and seed."""

    n: int = Field(200, ge=1, le=20_000, description="number of generated items")
    seed: int = Field(0, description="generator seed: same seed, same items")
    min_hops: int = Field(2, ge=2, le=4, description="fewest hops of an MR/MC path")
    max_hops: int = Field(4, ge=2, le=4, description="most hops of an MR/MC path")


_SUBSETS: dict[str, Subset] = {"qa": "qa", "mr": "mr", "mc": "mc"}


def subset_of(name: str) -> Subset:
    """The subset a task name ends with (``confiqa/mr`` -> ``mr``); ConfigError for any other ending."""
    subset = _SUBSETS.get(name.rsplit("/", 1)[-1])
    if subset is not None:
        return subset
    raise ConfigError(f"task {name}: a ConFiQA task name ends with /qa, /mr or /mc")


class ConFiQAState(TypedDict):
    """A ConFiQA sample's ``metadata``: what ``samples()`` hands the solver, the scorer and the baselines."""

    subset: Subset
    question: str
    hops: int | None
    orig_answer: str
    cf_answer: str
    orig_alias: list[str]
    cf_alias: list[str]
    source_triple: list[str] | None
    control_prompt: NotRequired[str]
    """The question under the original context, asked as well with ``control=true``."""


def state_of(sample: Sample) -> ConFiQAState:
    """The state ``samples()`` wrote into ``sample`` (a task is given only its own samples)."""
    return cast(ConFiQAState, sample.metadata)


ConFiQAArgsT = TypeVar("ConFiQAArgsT", bound=ConFiQAArgs, covariant=True)


class ConFiQATask(Task[ConFiQAArgsT]):
    """Shared behaviour: prompts, the control call, official scoring and metrics."""

    description: ClassVar[str] = "ConFiQA knowledge-conflict QA"
    version: ClassVar[str] = "1"
    settings: ClassVar[GenerationSettings] = GenerationSettings(max_tokens=128, temperature=0.0)

    def __init__(self, name: str, **args: object) -> None:
        super().__init__(name, **args)
        self.subset: Subset = subset_of(name)
        self.load_problems: list[LoadProblem] = []

    def items(self) -> Iterable[tuple[str, ConFiQAItem]]:
        """(sample id, item) pairs in a deterministic order."""
        raise NotImplementedError

    def samples(self) -> Iterator[Sample]:
        """One sample per item; the prompt uses the counterfactual context."""
        opts = self.args
        for sample_id, item in self.items():
            state = ConFiQAState(
                subset=self.subset,
                question=item.question,
                hops=item.hops,
                orig_answer=item.orig_answer,
                cf_answer=item.cf_answer,
                orig_alias=list(item.orig_alias),
                cf_alias=list(item.cf_alias),
                source_triple=list(item.source_triple) if item.source_triple else None,
            )
            if opts.control:
                state["control_prompt"] = build_prompt(opts.prompt, item.orig_context, item.question)
            target = item.cf_answer if opts.target == "faithfulness" else item.orig_answer
            yield Sample(
                id=sample_id,
                input=build_prompt(opts.prompt, item.cf_context, item.question),
                target=target,
                metadata=dict(state),
            )

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """Ask under the counterfactual context, then (with control) under the original one."""
        generation = await ctx.generate(sample.messages())
        data: dict[str, Any] = {}
        control_prompt = state_of(sample).get("control_prompt")
        if control_prompt:
            control = await ctx.generate([Message(role="user", content=control_prompt)])
            data["control"] = control.text
        return Output(text=generation.text, data=data)

    def _answers(self, sample: Sample) -> tuple[list[str], list[str]]:
        state = state_of(sample)
        return [state["orig_answer"], *state["orig_alias"]], [state["cf_answer"], *state["cf_alias"]]

    def score(self, sample: Sample, output: Output) -> Score:
        """Official Pc/Po/EM flags, factual robustness and control; the value follows ``target``."""
        opts = self.args
        orig, cf = self._answers(sample)
        text = (output.text or "")[:MAX_SCORED_CHARS]
        control_text = output.data.get("control") if isinstance(output.data, dict) else None
        control = (
            control_correct(str(control_text)[:MAX_SCORED_CHARS], orig, cf) if isinstance(control_text, str) else None
        )
        if not text.strip():
            return Score.unscored("empty answer", **dict.fromkeys(FLAGS, False), control=control)
        verdict = judge(text, orig, cf)
        faithful = verdict.pc if opts.reading == "official" else verdict.pc_strict
        correct = faithful if opts.target == "faithfulness" else verdict.robust
        wanted = cf[0] if opts.target == "faithfulness" else orig[0]
        return Score.of(
            correct,
            answer=text[:200],
            explanation=f"target={opts.target}, expected {wanted!r}",
            control=control,
            **verdict.as_details(),
        )

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The original answer for the control prompt; otherwise the ``oracle_target`` answer."""
        last_user = next((m.content for m in reversed(request.messages) if m.role == "user"), None)
        state = state_of(sample)
        if last_user is not None and last_user == state.get("control_prompt"):
            return state["orig_answer"]
        return state["cf_answer"] if self.args.oracle_target == "counterfactual" else state["orig_answer"]

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """One of the two answers, or an abstention, uniformly."""
        state = state_of(sample)
        return rng.choice([state["cf_answer"], state["orig_answer"], "I don't know."])

    def accumulator(self, seed: int = 0) -> ConFiQAAccumulator:
        """accuracy (per ``target``), pc, po, mr, em, factual_robustness, control_accuracy."""
        return ConFiQAAccumulator(seed)

    def cluster_of(self, result: SampleResult) -> str | None:
        """The item's source triple: questions built from one fact are correlated (None in older logs)."""
        triple = result.metadata.get("source_triple")
        return json.dumps(triple) if triple else None


class ConFiQAFileTask(ConFiQATask[ConFiQAFileArgs]):
    """ConFiQA from the upstream files (a path or the hub id ``miii/ConFiQA``)."""

    description = "ConFiQA (Context-DPO) knowledge-conflict QA from the upstream files or the hub"

    def items(self) -> Iterator[tuple[str, ConFiQAItem]]:
        """Items of the subset's file; malformed ones are skipped and kept in ``load_problems``."""
        result = load_subset(self.args.data, self.subset)
        self.load_problems = result.problems
        for index, item in result.items:
            yield f"confiqa-{self.subset}-{index}", item


class ConFiQAGenTask(ConFiQATask[ConFiQAGenArgs]):
    """ConFiQA-format items generated offline from the authored knowledge base."""

    description = "ConFiQA-format knowledge-conflict QA generated from an authored knowledge base (offline)"

    def items(self) -> Iterator[tuple[str, ConFiQAItem]]:
        """Generated items, loaded through the same validating loader as the real files."""
        from tasks.confiqa.generate import generate_items

        opts = self.args
        if opts.min_hops > opts.max_hops:
            raise ConfigError(f"task {self.name}: min_hops ({opts.min_hops}) exceeds max_hops ({opts.max_hops})")
        raw = generate_items(self.subset, opts.n, opts.seed, min_hops=opts.min_hops, max_hops=opts.max_hops)
        result = parse_items(raw, f"{self.name} (seed {opts.seed})")
        self.load_problems = result.problems
        for index, item in result.items:
            yield f"confiqa-gen-{self.subset}-{opts.seed}-{index}", item
