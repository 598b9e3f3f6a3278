"""LongCoT tasks: ``longcot/mini`` (easy), ``longcot/full`` (medium + hard) and ``longcot/<domain>-<split>``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import Field

from harness.api import (
    GenerateRequest,
    GenerationSettings,
    Output,
    Sample,
    SampleResult,
    Score,
    SolveContext,
    Task,
    TaskArgs,
)
from tasks.longcot.data import DOMAINS, Question, load_questions
from tasks.longcot.metrics import LongCotAccumulator
from tasks.longcot.official import verify_official
from tasks.longcot.oracle.render import random_payload, reference_payload, reference_text
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify import verify

VerifierName = Literal["official", "strict"]
SplitName = Literal["easy", "medium", "hard"]


class VerifiedArgs(TaskArgs):
    """Arguments of every LongCoT-verified task: the optional judge and which verifier decides."""

    judge: str | None = Field(
        None,
        description="optional adapter spec asked about unresolved math/chemistry "
        "answers; its verdicts are reported separately as accuracy_with_judge",
    )
    verifier: VerifierName = Field(
        "official",
        description="which decision each sample's score follows: "
        "'official' (LongCoT's own verifier, label-less fallbacks included) or "
        "'strict' (a 'solution =' label required); both are reported, as "
        "accuracy_official and accuracy_strict",
    )


class LongCotArgs(VerifiedArgs):
    """Arguments of the LongCoT tasks."""

    data: str | None = Field(
        None,
        description="folder of LongCoT JSON files (<domain>/<split>.json or "
        "<domain>-<split>.json), or hub:<id> for a datasets repository (the hub id "
        "LongHorizonReasoning/longcot or a local mirror); else $FRONTIER_LONGCOT_DATA; "
        "no default",
    )
    domains: tuple[str, ...] = Field(DOMAINS, description="domains to include")
    splits: tuple[SplitName, ...] | None = Field(
        None,
        description="splits to include (default: the task's own); without it every domain-split file of "
        "the task must be present, with it the named ones that are present are run",
    )
    per_template: int = Field(0, ge=0, description="keep at most this many questions per template (0: all)")


VerifiedArgsT = TypeVar("VerifiedArgsT", bound=VerifiedArgs, covariant=True)


def question_of(sample: Sample) -> Question:
    """The LongCoT question carried by a sample's metadata."""
    meta = sample.metadata
    return Question(
        question_id=meta["question_id"],
        domain=meta["domain"],
        split=meta["split"],
        template=meta["template"],
        prompt=sample.input if isinstance(sample.input, str) else "",
        problem=meta["problem"],
        answer=sample.target,
    )


_REFERENCE_CACHE: dict[tuple[str, int], str | None] = {}


def reference_for(question: Question) -> str | None:
    """The reference payload of ``question`` (solver results cached per question and prompt)."""
    key = (question.uid, hash(question.prompt))
    if key not in _REFERENCE_CACHE:
        _REFERENCE_CACHE[key] = reference_payload(question)
    return _REFERENCE_CACHE[key]


class VerifiedTask(Task[VerifiedArgsT]):
    """Questions in LongCoT's format, verified per template; subclasses say where the questions come from."""

    version = "2"
    settings = GenerationSettings(max_tokens=65536, temperature=0.0)
    cpu_heavy = True

    def questions(self) -> Iterator[Question]:
        """The task's questions in a fixed order."""
        raise NotImplementedError

    def samples(self) -> Iterator[Sample]:
        """One sample per question; metadata carries what the verifier needs."""
        for q in self.questions():
            yield Sample(
                id=q.uid,
                input=q.prompt,
                target=q.answer,
                metadata={
                    "question_id": q.question_id,
                    "domain": q.domain,
                    "split": q.split,
                    "template": q.template,
                    "problem": q.problem,
                },
            )

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """One generation; with ``judge`` set, unresolved math/chemistry answers are also judged."""
        generation = await ctx.generate(sample.messages())
        args = self.args
        if not args.judge or sample.metadata.get("domain") not in ("math", "chemistry"):
            return Output(text=generation.text)
        from tasks.longcot.judge import judge_answer

        verdict = await _verify_async(question_of(sample), generation.text, args.verifier)
        if verdict.status in ("correct", "wrong"):
            return Output(text=generation.text)
        judged = await judge_answer(args.judge, question_of(sample), generation.text)
        return Output(text=generation.text, data={"judge": judged})

    def score(self, sample: Sample, output: Output) -> Score:
        """The verdict of ``-T verifier``, with both verifiers' decisions in the details (one that
        finds the question malformed records none); never raises on model output."""
        try:
            question = question_of(sample)
        except (KeyError, TypeError) as exc:
            return Score.error(f"sample lacks LongCoT metadata: {exc}")
        where: dict[str, Any] = {"domain": question.domain, "template": question.template, "split": question.split}
        args = self.args
        verdicts: dict[str, Verdict] = {}
        for name, verifier in (("official", verify_official), ("strict", verify)):
            try:
                verdicts[name] = verifier(question, output.text or "")
            except ValueError as exc:
                if name == args.verifier:
                    return Score.error(f"malformed question {question.uid}: {exc}", **where)
        where.update({name: verdict.status for name, verdict in verdicts.items()})
        judge = (output.data or {}).get("judge") or {}
        if judge:
            where["judge_equivalent"] = judge.get("equivalent")
            where["judge_reason"] = str(judge.get("reason", ""))[:300]
        return score_of(verdicts[args.verifier], where)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The gold answer (or a solver's solution for logic puzzles) after ``solution =``."""
        return reference_text(question_of(sample), reference_for(question_of(sample)))

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A guess of the right shape for the template."""
        return f"solution = {random_payload(question_of(sample), rng)}"

    def accumulator(self, seed: int = 0) -> LongCotAccumulator:
        """Accuracy overall/per domain/per template, unscored and unresolved rates, tokens."""
        return LongCotAccumulator(seed)

    def cluster_of(self, result: SampleResult) -> str | None:
        """The question's template within its domain: questions of one template are correlated."""
        template = result.metadata.get("template")
        return f"{result.metadata.get('domain')}/{template}" if template else None


class LongCotTask(VerifiedTask[LongCotArgs]):
    """LongCoT questions from the real data, verified per template."""

    description = "LongCoT long-horizon reasoning (real data), verified per template"
    splits: ClassVar[tuple[str, ...]] = ("easy",)

    def questions(self) -> Iterator[Question]:
        """The task's questions of ``splits`` and ``-T domains`` in a fixed order."""
        args = self.args
        counts: Counter[tuple[str, str]] = Counter()
        splits = tuple(args.splits) if args.splits is not None else self.splits
        for question in load_questions(args.data, tuple(args.domains), splits, complete=args.splits is None):
            key = (question.domain, question.template)
            if args.per_template and counts[key] >= args.per_template:
                continue
            counts[key] += 1
            yield question


async def _verify_async(question: Question, text: str, verifier: VerifierName) -> Verdict:
    import asyncio

    return await asyncio.to_thread(verify_official if verifier == "official" else verify, question, text)


def score_of(verdict: Verdict, details: dict[str, Any]) -> Score:
    """A harness Score for a verdict: unparsed answers are unscored, unresolved ones scored wrong."""
    if verdict.status == "unparsed":
        return Score.unscored(verdict.explanation, answer=verdict.answer, **details)
    if verdict.status == "unresolved":
        return Score.of(False, answer=verdict.answer, explanation=verdict.explanation, unresolved=True, **details)
    return Score.of(verdict.status == "correct", answer=verdict.answer, explanation=verdict.explanation, **details)


class MiniTask(LongCotTask):
    """LongCoT-Mini: the easy split of every domain."""

    description = "LongCoT-Mini: the easy split (about 500 questions), verified per template"
    splits = ("easy",)


class FullTask(LongCotTask):
    """LongCoT: the medium and hard splits (the scored benchmark)."""

    description = "LongCoT: the medium and hard splits (about 2,000 questions), verified per template"
    splits = ("medium", "hard")


def split_task(domain: str, split: str) -> type[LongCotTask]:
    """A task class for one domain and split (``longcot/<domain>-<split>``)."""

    class DomainArgs(LongCotArgs):
        __doc__ = f"Arguments of a LongCoT {domain} task."
        domains: tuple[str, ...] = Field((domain,), description="domains to include")

    class SplitTask(LongCotTask):
        __doc__ = f"LongCoT {domain}, {split} split."
        description = f"LongCoT {domain} questions of the {split} split"
        splits = (split,)
        Args = DomainArgs

    DomainArgs.__name__ = DomainArgs.__qualname__ = f"LongCotArgs_{domain}"
    SplitTask.__name__ = SplitTask.__qualname__ = f"LongCot_{domain}_{split}"
    return SplitTask
