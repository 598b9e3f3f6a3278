"""Check a spec against test cases and give a verdict.

``correct``: every completeness and soundness obligation proved. ``too_strong``: some
true output refuted. ``too_weak``: some wrong output provably accepted. ``invalid``:
the spec was rejected by the screen, failed to load or to match the signature, or an
obligation errored (including a proof resting on a forbidden axiom). ``undecided``:
anything else (some obligation unknown, or no case fits the spec's types). Cases whose
values do not fit the spec's types are skipped and reported, never a verdict. So are the
cases whose input the spec's own precondition provably excludes (``Pre input -> ...``
holds vacuously there); a spec whose precondition excludes every case is ``undecided``,
never ``correct``. A refuted obligation decides a verdict only where its case's precondition
is proved: ``Pre input -> Spec input output`` is refuted by ``~ Spec input output`` only if
``Pre input`` holds. When a spec is both too strong and too weak, ``too_strong`` is
reported; the counts show both. An ``undecided`` spec says why: a time limit stopped some
obligation (``limit reached``) or no rung of the ladder decides one (``no rung decides it``);
every decided obligation names the rung that decided it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from coins_rocq.backends.base import (
    FULL_LADDER,
    LIMIT_REACHED,
    NO_RUNG,
    OUTCOMES,
    QUICK_LADDER,
    REPROVE_LADDER,
    REPROVE_SLACK,
    JobResult,
    Limits,
    ObligationResult,
    SpecJob,
)
from coins_rocq.backends.clock import clock_kind
from coins_rocq.floats import round_float_output
from coins_rocq.mutate import DEFAULT_MUTANTS
from coins_rocq.obligations import (
    KINDS,
    Case,
    build_obligations,
    data_binder_probe,
    ladder_definition,
    ladder_tactic,
    prelude,
    probe_statement,
    setup_sentences,
)
from coins_rocq.rtypes import PreconditionViolation, Signature, ValueTypeError
from coins_rocq.safety import UnsafeSpec, screen
from coins_rocq.values import coerce_value
from coins_rocq.verdicts import ProverSummary, Verdict


class Backend(Protocol):
    """Runs spec jobs (``CoqtopPool`` or ``CoqcBackend``)."""

    name: str

    def run(self, jobs: Sequence[SpecJob]) -> list[JobResult]:
        """Run the jobs, results in the same order."""


@dataclass
class SpecReport:
    """The verdict on one spec, why, the outcome of every obligation, and what a prover model added (if one ran)."""

    verdict: Verdict
    reason: str = ""
    results: list[ObligationResult] = field(default_factory=list)
    skipped: list[SkippedCase] = field(default_factory=list)
    prover: ProverSummary | None = None

    def counts(self) -> dict[str, dict[str, int]]:
        """Outcome counts per obligation kind."""
        table: dict[str, dict[str, int]] = {kind: dict.fromkeys(OUTCOMES, 0) for kind in KINDS}
        for result in self.results:
            table[result.obligation.kind][result.outcome] += 1
        return table

    def rungs(self) -> dict[str, int]:
        """How many obligations each rung of the ladder decided (proved or refuted)."""
        table: dict[str, int] = {}
        for result in self.results:
            if result.rung is not None:
                table[result.rung] = table.get(result.rung, 0) + 1
        return table

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the report."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "counts": self.counts(),
            "rungs": self.rungs(),
            "clock": clock_kind(),
            "skipped_cases": [{"case": c.index, "why": c.why, "precondition": c.precondition} for c in self.skipped],
            **({"prover": self.prover.to_dict()} if self.prover is not None else {}),
            "obligations": [
                {
                    "index": r.obligation.index,
                    "kind": r.obligation.kind,
                    "case": r.obligation.case,
                    "description": r.obligation.description,
                    "goal": r.obligation.goal,
                    **({"interval": r.obligation.interval} if r.obligation.interval else {}),
                    "outcome": r.outcome,
                    "detail": r.detail,
                    "rung": r.rung,
                    "undecided": r.undecided,
                }
                for r in self.results
            ],
        }


@dataclass(frozen=True)
class SkippedCase:
    """A test case left out: its index, why, and whether it violates the type's domain (negative nat)."""

    index: int
    why: str
    precondition: bool


@dataclass(frozen=True)
class PreparedSpec:
    """A screened spec turned into a job, or the reason it is invalid before any proving."""

    job: SpecJob | None
    reason: str = ""
    skipped: tuple[SkippedCase, ...] = ()
    verdict: Verdict = "invalid"


def prepare(
    source: str,
    signature: Signature,
    cases: Sequence[Case],
    limits: Limits | None = None,
    mutants_per_case: int = DEFAULT_MUTANTS,
    left_out: frozenset[str] = frozenset(),
) -> PreparedSpec:
    """Screen ``source`` and build its job; cases must fit the signature (they are trusted). The
    job's ladder leaves out the rungs named in ``left_out`` (the benchmark's ablation)."""
    limits = limits or Limits()
    try:
        screened = screen(source)
    except UnsafeSpec as exc:
        return PreparedSpec(None, f"rejected: {exc}")
    if signature.spec_name not in screened.defined:
        return PreparedSpec(None, f"spec does not define {signature.spec_name}")
    has_pre = signature.pre_name in screened.defined
    checked: list[Case] = []
    numbers: list[int] = []
    skipped: list[SkippedCase] = []
    for i, case in enumerate(cases):
        try:
            checked.append(validate_case(case, signature, i))
            numbers.append(i)
        except PreconditionViolation as exc:
            skipped.append(SkippedCase(i, f"precondition violation: {exc}", True))
        except ValueTypeError as exc:
            skipped.append(SkippedCase(i, f"value cannot be typed: {exc}", False))
    if not checked:
        return PreparedSpec(None, "no test case fits the spec's types", tuple(skipped), "undecided")
    obligations = build_obligations(signature, checked, has_pre, mutants_per_case, numbers)
    ladder = ladder_tactic(screened.definitions, limits.goal_timeout_s, left_out)
    setup = [
        *setup_sentences(signature, screened.sentences, has_pre),
        data_binder_probe(screened.definitions, probe_statement(obligations)),
        ladder_definition(ladder, FULL_LADDER),
    ]
    reprove_timeout_s = limits.goal_timeout_s * REPROVE_SLACK
    setup.append(ladder_definition(ladder_tactic(screened.definitions, reprove_timeout_s, left_out), REPROVE_LADDER))
    if QUICK_LADDER in limits.passes:
        setup.append(
            ladder_definition(ladder_tactic(screened.definitions, limits.quick_timeout_s, left_out), QUICK_LADDER)
        )
    job = SpecJob(prelude(signature), setup, ladder, obligations, limits)
    return PreparedSpec(job, "", tuple(skipped))


def validate_case(case: Case, signature: Signature, index: int) -> Case:
    """``case`` with values coerced to the signature's types.

    Raises ``ValueError`` when the number of inputs is wrong, and ``ValueTypeError``
    (``PreconditionViolation`` for a negative ``nat``) when a value does not fit.
    """
    if len(case.inputs) != len(signature.params):
        raise ValueError(f"case {index}: {len(case.inputs)} inputs for {len(signature.params)} parameters")
    inputs = tuple(
        coerce_value(v, p.rtype, f"case {index} input {p.name}")
        for v, p in zip(case.inputs, signature.params, strict=True)
    )
    output = round_float_output(coerce_value(case.output, signature.output, f"case {index} output"), signature.output)
    mapping = signature.output.kind != "pyvalue" and (isinstance(case.output, dict) or case.mapping)
    return Case(inputs, output, mapping=mapping)


PRE_EXCLUDES = "the spec's precondition excludes this input (Pre refuted)"


def verdict_of(job_result: JobResult) -> SpecReport:
    """The verdict from a backend's results (cases the precondition excludes left out, and reported)."""
    if job_result.load_error is not None:
        return SpecReport("invalid", job_result.load_error)
    results = job_result.results
    errors = [r for r in results if r.outcome == "error"]
    if errors:
        return SpecReport("invalid", errors[0].detail, results)
    excluded = sorted(
        {r.obligation.case for r in results if r.obligation.kind == "precondition" and r.outcome == "refuted"}
    )
    skipped = [SkippedCase(case, PRE_EXCLUDES, True) for case in excluded]
    results = [r for r in results if r.obligation.case not in excluded]
    if not results:
        return SpecReport("undecided", "the precondition excludes every test case", [], skipped)
    unsettled = {r.obligation.case for r in results if r.obligation.kind == "precondition" and r.outcome != "proved"}
    refuted = {r.obligation.kind for r in results if r.outcome == "refuted" and r.obligation.case not in unsettled}
    if "completeness" in refuted:
        return SpecReport("too_strong", "a true output is rejected", results, skipped)
    if "soundness" in refuted:
        return SpecReport("too_weak", "a wrong output is accepted", results, skipped)
    if all(r.outcome == "proved" for r in results):
        return SpecReport("correct", "", results, skipped)
    why = LIMIT_REACHED if any(r.undecided == LIMIT_REACHED for r in results) else NO_RUNG
    return SpecReport("undecided", f"some obligations are unknown: {why}", results, skipped)


def check_specs(
    items: Sequence[tuple[str, Signature, Sequence[Case]]],
    backend: Backend,
    limits: Limits | None = None,
    mutants_per_case: int = DEFAULT_MUTANTS,
) -> list[SpecReport]:
    """Check many ``(source, signature, cases)`` on ``backend``; one report each, in order."""
    prepared = prepare_all(items, limits, mutants_per_case)
    jobs = [p.job for p in prepared if p.job is not None]
    return reports_of(prepared, backend.run(jobs) if jobs else [])


def prepare_all(
    items: Sequence[tuple[str, Signature, Sequence[Case]]],
    limits: Limits | None = None,
    mutants_per_case: int = DEFAULT_MUTANTS,
    left_out: frozenset[str] = frozenset(),
) -> list[PreparedSpec]:
    """``prepare`` each ``(source, signature, cases)``; a bad test case makes that spec invalid."""
    prepared = []
    for source, signature, cases in items:
        try:
            prepared.append(prepare(source, signature, cases, limits, mutants_per_case, left_out))
        except ValueError as exc:
            prepared.append(PreparedSpec(None, f"bad test case: {exc}"))
    return prepared


def reports_of(prepared: Sequence[PreparedSpec], job_results: Sequence[JobResult]) -> list[SpecReport]:
    """One report per prepared spec, from the results of its job (``job_results`` in the jobs' order)."""
    results = iter(job_results)
    reports = []
    for p in prepared:
        report = verdict_of(next(results)) if p.job is not None else SpecReport(p.verdict, p.reason)
        report.skipped = sorted([*p.skipped, *report.skipped], key=lambda c: c.index)
        reports.append(report)
    return reports


def check_spec(
    source: str,
    signature: Signature,
    cases: Sequence[Case],
    backend: Backend,
    limits: Limits | None = None,
    mutants_per_case: int = DEFAULT_MUTANTS,
) -> SpecReport:
    """Check one spec on ``backend``."""
    return check_specs([(source, signature, cases)], backend, limits, mutants_per_case)[0]
