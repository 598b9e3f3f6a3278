"""``coins/spec-gen``: write a Rocq spec for a HumanEval problem; the Coins checker scores it.

The model sees the HumanEval prompt and the curated Rocq signature and answers with a
Rocq file (in a fenced block). Score 1 when the checker's verdict is ``correct``.
Metrics: share correct, completeness rate, soundness rate, undecided and invalid rates.
"""

from __future__ import annotations

import random
import re
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypedDict, cast

from pydantic import Field

from harness.api import GenerateRequest, Metric, Output, Sample, SampleResult, Score, SolveContext, Task, TaskArgs

if TYPE_CHECKING:
    from coins_rocq.backends.coqtop import CoqtopPool
    from coins_rocq.curated import CuratedSpec
    from coins_rocq.obligations import Case
    from coins_rocq.rtypes import Signature


class CoinsState(TypedDict):
    """A Coins sample's ``metadata``: the problem's signature (Rocq types, as text) and its HumanEval entry point."""

    signature: str
    entry_point: str


def state_of(sample: Sample) -> CoinsState:
    """The state ``samples()`` wrote into ``sample`` (a task is given only its own samples)."""
    return cast(CoinsState, sample.metadata)


_FENCE = re.compile(r"```[ \t]*(?:coq|rocq|v)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
MAX_ANSWER_CHARS = 50_000


class SpecGenArgs(TaskArgs):
    """Arguments of ``coins/spec-gen``."""

    problems: str = Field("", description="comma-separated HumanEval ids (default: every curated problem)")
    max_cases: int | None = Field(None, ge=1, description="use at most this many test cases per problem")
    mutants: int = Field(5, ge=1, le=20, description="wrong outputs per test case")
    goal_timeout_s: int = Field(5, ge=1, le=120, description="per-goal prover timeout in seconds")
    workers: int | None = Field(None, ge=1, le=64, description="coqtop workers (default: one per core)")
    prover: str | None = Field(
        None, description="model spec that writes proofs of the obligations the ladder leaves undecided"
    )
    prover_tries: int = Field(1, ge=1, le=5, description="answers the prover model may give per obligation")


def extract_spec(text: str) -> str | None:
    """The last fenced code block of ``text``, or the whole text when it looks like Rocq; else None."""
    blocks = _FENCE.findall(text)
    if blocks:
        return blocks[-1].strip()
    if "_spec" in text and ("Definition" in text or "Fixpoint" in text):
        return text.strip()
    return None


def build_prompt(prompt: str, signature: Signature) -> str:
    """The instruction shown to the model for one problem."""
    from coins_rocq.rtypes import PYVALUE_DEFINITION

    defined = f" and `{PYVALUE_DEFINITION}`" if "pyvalue" in signature.kinds() else ""
    params = " ".join(f"({p.name} : {p.rtype})" for p in signature.params)
    type_map = ", ".join(f"{p.name}: {p.rtype.python()} -> {p.rtype}" for p in signature.params)
    return (
        "Write a formal specification in Rocq (Coq 8.16) of the following Python function.\n\n"
        f"```python\n{prompt.strip()}\n```\n\n"
        f"Define `{signature.spec_name} {params} (result : {signature.output}) : Prop`, which must hold exactly "
        f"when `result` is the correct output for the inputs. You may also define `{signature.pre_name}` "
        "over the inputs alone as a precondition, and helper definitions.\n"
        f"Python types map to Rocq types as follows: {type_map}; "
        f"result: {signature.output.python()} -> {signature.output}.\n"
        f"The file is loaded after `From Coq Require Import ZArith Lia String List Bool Ascii.`{defined} Use only "
        "`Require`/`Import` of standard-library modules, `Open Scope`, `Definition`, `Fixpoint`, `Inductive` "
        "and local notations; no axioms, proofs or tactics. Keep your definitions computable: the spec is "
        "checked by evaluating it on concrete test cases.\n"
        "Answer with the Rocq file in one ```coq fenced block."
    )


class SpecGenTask(Task[SpecGenArgs]):
    """Rocq spec generation for curated HumanEval problems, judged by the Coins checker."""

    description = "write Rocq specs of HumanEval problems; judged by proving them on test cases (Coins)"
    version = "1"
    cpu_heavy = True

    def __init__(self, name: str, **args: object) -> None:
        super().__init__(name, **args)
        self._pool: CoqtopPool | None = None
        self._lock = threading.Lock()

    def _curated(self) -> list[CuratedSpec]:
        from coins_rocq.curated import curated_specs

        specs = curated_specs()
        args = self.args
        if not args.problems:
            return specs
        wanted = [p.strip() for p in args.problems.split(",") if p.strip()]
        known = {s.task_id: s for s in specs}
        missing = [p for p in wanted if p not in known]
        if missing:
            from harness.api import ConfigError

            raise ConfigError(f"coins/spec-gen: no curated spec for {', '.join(missing)}")
        return [known[p] for p in wanted]

    def samples(self) -> Iterator[Sample]:
        """One sample per curated problem, in problem order."""
        from coins_rocq.humaneval import problem

        for spec in self._curated():
            item = problem(spec.task_id)
            yield Sample(
                id=spec.task_id,
                input=build_prompt(item["prompt"], spec.signature),
                target=spec.source,
                metadata=dict(CoinsState(signature=str(spec.signature), entry_point=item["entry_point"])),
            )

    def _backend(self) -> CoqtopPool:
        with self._lock:
            if self._pool is None:
                from coins_rocq.backends import CoqtopPool

                args = self.args
                self._pool = CoqtopPool(args.workers)
                weakref.finalize(self, self._pool.close)
            return self._pool

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        """One generation; with ``prover`` set, the spec is also checked here, where the prover model can be
        called (the ladder in a thread), and the report is kept for ``score``."""
        generation = await ctx.generate(sample.messages())
        args = self.args
        source = _source(generation.text or "")
        if args.prover is None or isinstance(source, Score):
            return Output(text=generation.text)
        from coins_rocq.backends import Limits
        from coins_rocq.prover import ProverOptions, check_specs_with_prover

        item = self._item(sample, source)
        options = ProverOptions(args.prover, args.prover_tries)
        limits = Limits(goal_timeout_s=args.goal_timeout_s)
        report = (await check_specs_with_prover([item], self._backend(), options, limits, args.mutants))[0]
        return Output(text=generation.text, data={"coins": report.to_dict()})

    def _item(self, sample: Sample, source: str) -> tuple[str, Signature, list[Case]]:
        """What the checker judges for ``sample``: the spec, the problem's signature and its cases."""
        from coins_rocq.humaneval import humaneval_cases
        from coins_rocq.rtypes import parse_signature

        signature = parse_signature(state_of(sample)["signature"])
        return source, signature, humaneval_cases(sample.id, max_cases=self.args.max_cases)

    def score(self, sample: Sample, output: Output) -> Score:
        """Check the model's spec on the problem's cases (or read the check ``solve`` made with the prover);
        1 when the verdict is ``correct``."""
        stored = output.data.get("coins")
        if stored is not None:
            try:
                return _scored(stored)
            except (KeyError, TypeError) as exc:
                return Score.error(f"the stored check report is malformed: {type(exc).__name__}: {exc}")
        source = _source(output.text or "")
        if isinstance(source, Score):
            return source
        try:
            from coins_rocq.backends import Limits
            from coins_rocq.checker import check_spec

            args = self.args
            text, signature, cases = self._item(sample, source)
            limits = Limits(goal_timeout_s=args.goal_timeout_s)
            report = check_spec(text, signature, cases, self._backend(), limits, args.mutants)
        except Exception as exc:
            return Score.error(f"checker failed: {type(exc).__name__}: {exc}")
        return _scored(report.to_dict())

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The curated spec in a fenced block."""
        return f"```coq\n{sample.target.strip()}\n```"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A trivial spec (always true or always false) with the right arity."""
        from coins_rocq.rtypes import parse_signature

        signature = parse_signature(state_of(sample)["signature"])
        binders = " ".join(f"(_ : {p.rtype})" for p in signature.params)
        body = rng.choice(["True", "False"])
        return f"```coq\nDefinition {signature.spec_name} {binders} (_ : {signature.output}) : Prop := {body}.\n```"

    def metrics(self) -> tuple[Metric, ...]:
        """Share correct, completeness and soundness rates, undecided and invalid rates."""
        return (
            Metric("correct", _correct, "share of specs judged correct (unscored answers count as 0)"),
            Metric("completeness_rate", _rate("completeness"), "share of true outputs proved accepted"),
            Metric("soundness_rate", _rate("soundness"), "share of wrong outputs proved rejected"),
            Metric("undecided_rate", _verdict_is("undecided"), "share of specs the prover could not decide"),
            Metric("invalid_rate", _verdict_is("invalid"), "share of specs rejected, ill-typed or unparseable"),
            Metric("prover_decided", _prover_decided, "with -T prover: share of verdicts that rest on its proofs"),
        )


def _source(text: str) -> str | Score:
    """The spec in the model's answer, or the ``unscored`` score saying why there is none."""
    if len(text) > MAX_ANSWER_CHARS:
        return Score.unscored(f"answer longer than {MAX_ANSWER_CHARS} characters")
    source = extract_spec(text)
    return Score.unscored("no Rocq code block in the answer") if source is None else source


def _scored(report: dict[str, Any]) -> Score:
    """The score of a checker report (``SpecReport.to_dict``): 1 when the verdict is ``correct``."""
    verdict = report["verdict"]
    extra = {"prover": report["prover"]} if "prover" in report else {}
    return Score.of(
        verdict == "correct",
        answer=verdict,
        explanation=report["reason"] or verdict,
        verdict=verdict,
        counts=report["counts"],
        obligations=_obligations(report),
        **extra,
    )


def _obligations(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Each obligation's outcome, what decided it (a rung of the ladder, the prover model, or nothing) and,
    when decided, whether it holds (``met``)."""
    by_prover = {
        attempt["index"]: attempt["outcome"] for attempt in (report.get("prover") or {}).get("obligations", [])
    }
    rows = []
    for item in report.get("obligations", []):
        decided = item["rung"] or (f"prover ({by_prover[item['index']]})" if item["index"] in by_prover else None)
        row = {
            "obligation": f"#{item['index']} {item['kind']}, case {item['case']}: {item['description']}",
            "outcome": item["outcome"],
            "decided by": decided or item["detail"] or "-",
        }
        if item["outcome"] in ("proved", "refuted"):
            row["met"] = item["outcome"] == "proved"
        rows.append(row)
    return rows


def _prover_decided(result: SampleResult) -> float | None:
    if result.score.outcome != "scored" or "prover" not in result.score.details:
        return None
    return 1.0 if result.score.details["prover"].get("decides_verdict") else 0.0


def _correct(result: SampleResult) -> float | None:
    if result.score.outcome == "error":
        return None
    return 1.0 if result.score.details.get("verdict") == "correct" else 0.0


def _rate(kind: str) -> Callable[[SampleResult], float | None]:
    def value(result: SampleResult) -> float | None:
        if result.score.outcome == "error":
            return None
        counts = result.score.details.get("counts", {}).get(kind)
        if not counts:
            return 0.0
        total = sum(counts.values())
        return counts["proved"] / total if total else None

    return value


def _verdict_is(verdict: str) -> Callable[[SampleResult], float | None]:
    def value(result: SampleResult) -> float | None:
        if result.score.outcome == "error":
            return None
        if result.score.outcome == "unscored":
            return 1.0 if verdict == "invalid" else 0.0
        return 1.0 if result.score.details.get("verdict") == verdict else 0.0

    return value
