"""Model-written proofs for the obligations the ladder leaves undecided (``--prover SPEC``).

After the ladder, every obligation still unknown is sent to a prover model, any adapter the
harness resolves, through the harness calling layer (``harness.calls.auxiliary_model``: cache,
retries, timeout, call log under the role ``prover``), with the spec file, the obligation's
goal and its negation. The answer is untrusted: it is screened and made one tactic
(``coins_rocq.prover_script``), then tried once, on the statement it says it proves, under the
per-goal timeout, in a second job on the same backend (``SpecJob.given``); it counts only when
the kernel accepts the term and ``Print Assumptions`` finds no axiom outside the allow-list.
A refused answer, a failed proof or an unclean audit leaves the obligation unknown with the
reason: a model's answer never makes a spec invalid. With ``tries`` above 1, the obligations
still unknown are sent again with the last answer and why it failed.

The model is waited for outside the prover, so its latency spends no spec budget. The report
counts the prover's decisions apart (``ProverSummary``, and the rung ``prover``) and says
whether the verdict rests on them. This is the one part of ``coins_rocq`` that uses the harness,
imported only when a prover is asked for.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coins_rocq.backends.base import GivenProof, JobResult, Limits, ObligationResult, SpecJob
from coins_rocq.checker import Backend, SpecReport, prepare_all, reports_of, verdict_of
from coins_rocq.mutate import DEFAULT_MUTANTS
from coins_rocq.obligations import MODULE, Case, Obligation
from coins_rocq.prover_script import RefusedScript, parse_answer
from coins_rocq.rtypes import Signature
from coins_rocq.verdicts import ProverAttempt, ProverSummary, Verdict

if TYPE_CHECKING:
    from harness.adapters.base import ModelAdapter

PROVER_ROLE = "prover"
"""The role of the prover model's calls in the call log."""
PROVER_RUNG = "prover"
"""The rung an obligation decided by the prover model is recorded under."""
MAX_TRIES = 5
MAX_ANSWER_CHARS = 100_000
"""The longest answer read; a longer one is refused unread."""
MAX_REASON_CHARS = 2000
"""The longest reason kept for an obligation the prover did not decide."""
CLI_REQUESTS = 4
"""The most prover calls in flight at once from the command line."""
ANSWER_TOKENS = 4096
"""The most tokens asked of the prover model per answer."""


@dataclass(frozen=True)
class ProverOptions:
    """Which model writes proofs (an adapter spec) and how many answers each obligation may get."""

    spec: str
    tries: int = 1


async def check_specs_with_prover(
    items: Sequence[tuple[str, Signature, Sequence[Case]]],
    backend: Backend,
    options: ProverOptions,
    limits: Limits | None = None,
    mutants_per_case: int = DEFAULT_MUTANTS,
) -> list[SpecReport]:
    """``checker.check_specs``, then the prover model on what the ladder left unknown; one report each.

    The backend runs in a thread; model calls go through the active call settings. Raises
    ``harness.errors.FrontierError`` when the prover's adapter cannot be built or a call fails
    after its retries.
    """
    from harness.calls import auxiliary_model

    adapter = auxiliary_model(options.spec, PROVER_ROLE)
    try:
        prepared = prepare_all(items, limits, mutants_per_case)
        sources = [source for (source, _, _), p in zip(items, prepared, strict=True) if p.job is not None]
        jobs = [p.job for p in prepared if p.job is not None]
        results = await asyncio.to_thread(backend.run, jobs) if jobs else []
        states = [_SpecState(s, j, r) for s, j, r in zip(sources, jobs, results, strict=True)]
        for _ in range(max(1, min(options.tries, MAX_TRIES))):
            asks = [(state, ob) for state in states for ob in state.unknown()]
            if not asks:
                break
            answers = await asyncio.gather(*(_ask(adapter, state.prompt(ob)) for state, ob in asks))
            for (state, ob), answer in zip(asks, answers, strict=True):
                state.take(ob, answer)
            given = [state.given_job() for state in states]
            runs = [job for job in given if job is not None]
            done = iter(await asyncio.to_thread(backend.run, runs) if runs else [])
            for state, job in zip(states, given, strict=True):
                if job is not None:
                    state.merge(next(done))
    finally:
        await adapter.aclose()
    reports = reports_of(prepared, [state.result for state in states])
    with_jobs = [report for report, p in zip(reports, prepared, strict=True) if p.job is not None]
    for report, state in zip(with_jobs, states, strict=True):
        report.prover = state.summary(options.spec, report.verdict)
    return reports


def check_spec_with_prover(
    source: str,
    signature: Signature,
    cases: Sequence[Case],
    backend: Backend,
    options: ProverOptions,
    limits: Limits | None = None,
) -> SpecReport:
    """Check one spec with the prover from synchronous code (the CLI), at most ``CLI_REQUESTS`` calls at once."""
    from harness.calls import CallSettings, using_call_settings

    async def check() -> SpecReport:
        with using_call_settings(CallSettings(max_requests=CLI_REQUESTS)):
            return (await check_specs_with_prover([(source, signature, cases)], backend, options, limits))[0]

    return asyncio.run(check())


async def _ask(adapter: ModelAdapter, prompt: str) -> str:
    """The prover model's answer to ``prompt`` (greedy, so cached runs replay it)."""
    from harness.types import GenerateRequest, Message

    request = GenerateRequest(
        messages=(Message(role="user", content=prompt),), max_tokens=ANSWER_TOKENS, temperature=0.0
    )
    return (await adapter.generate(request)).text or ""


class _SpecState:
    """One spec's results as the prover's answers come in: what is pending, what each attempt became."""

    def __init__(self, source: str, job: SpecJob, result: JobResult) -> None:
        self.source = source
        self.job = job
        self.ladder = result
        self.result = dataclasses.replace(result, results=list(result.results))
        self.attempts: dict[int, ProverAttempt] = {}
        self.pending: dict[int, GivenProof] = {}
        self.last: dict[int, str] = {}

    def unknown(self) -> list[Obligation]:
        """The obligations still unknown, while the verdict is ``undecided``: those of cases the
        precondition provably excludes left out, since no decision of theirs can change it."""
        if verdict_of(self.result).verdict != "undecided":
            return []
        results = self.result.results
        excluded = {
            r.obligation.case for r in results if r.obligation.kind == "precondition" and r.outcome == "refuted"
        }
        return [r.obligation for r in results if r.outcome == "unknown" and r.obligation.case not in excluded]

    def prompt(self, obligation: Obligation) -> str:
        """The prompt for ``obligation``, with the last answer and why it failed when there was one."""
        index = obligation.index
        previous = self.attempts.get(index)
        retry = ""
        if previous is not None:
            retry = (
                f"\n\nYour previous answer was:\n{self.last.get(index, '')[:4000]}\n"
                f"It did not prove the statement: {previous.reason[:1000]}\nTry again."
            )
        return prover_prompt(self.source, self.job, obligation) + retry

    def take(self, obligation: Obligation, answer: str) -> None:
        """Screen the model's ``answer`` for ``obligation``: pending when it can be run, refused otherwise."""
        attempt = self.attempts.setdefault(obligation.index, ProverAttempt(obligation.index))
        attempt.tries += 1
        self.last[obligation.index] = answer
        try:
            if len(answer) > MAX_ANSWER_CHARS:
                raise RefusedScript(f"the answer is longer than {MAX_ANSWER_CHARS} characters")
            script = parse_answer(answer)
        except RefusedScript as exc:
            attempt.outcome, attempt.reason = "refused", f"refused: {exc}"
            return
        self.pending[obligation.index] = GivenProof(script.tactic, script.target == "negation", PROVER_RUNG)

    def given_job(self) -> SpecJob | None:
        """The job that tries the pending proofs on this spec, or None when there are none."""
        if not self.pending:
            return None
        obligations = [ob for ob in self.job.obligations if ob.index in self.pending]
        return dataclasses.replace(self.job, obligations=obligations, given=dict(self.pending))

    def merge(self, run: JobResult) -> None:
        """Take the results of the pending proofs' job: a kernel-checked, audited proof decides its obligation."""
        pending, self.pending = self.pending, {}
        found = {r.obligation.index: r for r in run.results}
        for index in pending:
            attempt = self.attempts[index]
            result = found.get(index)
            if run.load_error is not None or result is None:
                attempt.outcome, attempt.reason = "not proved", _short(f"the spec did not load again: {run.load_error}")
            elif result.outcome in ("proved", "refuted"):
                attempt.outcome, attempt.reason = result.outcome, ""
                self._replace(result)
            elif result.outcome == "error":
                attempt.outcome, attempt.reason = "refused", _short(f"refused by the axiom audit: {result.detail}")
            else:
                attempt.outcome, attempt.reason = "not proved", _short(result.detail)

    def _replace(self, decided: ObligationResult) -> None:
        index = decided.obligation.index
        self.result.results = [decided if r.obligation.index == index else r for r in self.result.results]

    def summary(self, model: str, verdict: Verdict) -> ProverSummary:
        """The prover's part in this spec's report, given its final verdict."""
        ladder_verdict = verdict_of(self.ladder).verdict
        attempts = [self.attempts[i] for i in sorted(self.attempts)]
        return ProverSummary(model, ladder_verdict, attempts, ladder_verdict != verdict)


def _short(reason: str) -> str:
    """``reason`` cut to ``MAX_REASON_CHARS`` (Rocq's errors print whole terms, which can be huge)."""
    return reason if len(reason) <= MAX_REASON_CHARS else reason[: MAX_REASON_CHARS - 3] + "..."


def prover_prompt(source: str, job: SpecJob, obligation: Obligation) -> str:
    """The prover model's prompt for one obligation: the environment, the spec, the goal and its negation."""
    imports = "\n".join(line for line in job.prelude if line.startswith(("From ", "Require ")))
    return (
        "You write Rocq (Coq 8.16) proofs. A specification is being checked on a test case, and an "
        "automatic prover could not decide the following statement.\n\n"
        f"The environment loads:\n```coq\n{imports}\n```\n"
        f"then this specification file, inside `Module {MODULE}` (so its names are `{MODULE}.<name>`, and "
        "its imports and notations end with the module: name what it imports in full):\n"
        f"```coq\n{source.strip()}\n```\n\n"
        f"Obligation (test case {obligation.case}, {obligation.kind}: {obligation.description}):\n"
        f"Goal:\n```coq\n{obligation.negated_goal}\n```\n"
        f"Negation:\n```coq\n{obligation.negation}\n```\n\n"
        "Exactly one of the two holds. Prove the goal, or the negation if the goal is false. Answer with "
        "a line `Proves: goal` or `Proves: negation`, then the proof script in one ```coq fenced block: the "
        "tactics that go between `Proof.` and `Qed.`, with bullets or braces if you like. Only tactics: no "
        "commands (Admitted, Abort, Axiom, Set, Require, ...), no admit, no idtac. The proof runs under a "
        f"timeout of {job.limits.goal_timeout_s} s."
    )
