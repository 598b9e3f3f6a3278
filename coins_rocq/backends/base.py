"""What both backends share: jobs, attempt results, the per-obligation decision and limits.

A backend runs ``SpecJob``s. For each job it loads the spec once (``Session.load``) and
then, obligation by obligation, tries the goal and, if that fails, the negation
(``Session.attempt``); every proof found is then audited for axioms (``Session.audit``,
which a backend may do in one ``Print Assumptions`` over all of them, attributing to each
proof only when that one is not clean). ``run_job`` holds that logic so both backends
decide alike.

The budget goes first where it decides something: every obligation is tried in a quick
pass, with the ladder under the short per-goal timeout ``Limits.quick_timeout_s``
(``coins_ladder_quick``), and only the obligations that pass left undecided get the full
per-goal timeout (``coins_ladder``), in order, while the spec's budget lasts. Most
obligations close in milliseconds; a few hard ones would otherwise spend the whole budget
before the easy ones were reached.

Every limit counts the prover's CPU time, not the wall clock (``coins_rocq.backends.clock``):
the per-goal ``timeout`` through a preloaded shim, the command limit and the spec's budget
(``Budget``) by reading the prover's CPU time, each with a wall-clock backstop. An obligation
left unknown says why: ``LIMIT_REACHED`` (a timeout, the command limit, the budget) or
``NO_RUNG`` (every rung failed, on the goal and on its negation, within the limits). Each
proved or refuted obligation names the rung of the ladder that decided it.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import signal
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from coins_rocq.backends.clock import Budget
from coins_rocq.obligations import Obligation, attempt_sentences

AttemptStatus = Literal["proved", "failed", "timeout", "error", "axioms"]
Outcome = Literal["proved", "refuted", "unknown", "error"]
OUTCOMES: tuple[Outcome, ...] = ("proved", "refuted", "unknown", "error")

ALLOWED_AXIOMS = frozenset(
    {
        "ClassicalDedekindReals.sig_forall_dec",
        "ClassicalDedekindReals.sig_not_dec",
        "FunctionalExtensionality.functional_extensionality_dep",
    }
)
"""Axioms a proof may rest on: those the standard library's real numbers are built on."""

LIMIT_REACHED = "limit reached"
"""Why an obligation is unknown when a time limit stopped it (per-goal, command, or spec budget)."""
STOPPED_BY = " (the command limit, cut to the spec's time budget left)"
"""What a prover command's limit is, in the message of a command stopped by it."""
NO_RUNG = "no rung decides it"
"""Why an obligation is unknown when every rung failed on the goal and on its negation within the limits."""


@dataclass(frozen=True)
class Limits:
    """Time and memory limits of a check.

    ``goal_timeout_s``: the per-goal ``timeout`` around the ladder (whole seconds).
    ``command_timeout_s``: limit on any single prover command (pool) or file (coqc); the
    process is killed when it is exceeded. ``spec_budget_s``: budget of a spec of up
    to ``BUDGETED_OBLIGATIONS`` obligations, proportionally more for one with more
    (``budget_for``); obligations left when it runs out are ``unknown``. All three count the
    prover's CPU time, each with a wall-clock backstop (``coins_rocq.backends.clock``).
    ``memory_mb``: address-space limit of each prover process.
    """

    goal_timeout_s: int = 5
    command_timeout_s: float = 30.0
    spec_budget_s: float = 120.0
    memory_mb: int = 3072
    quick_timeout_s: int = 1

    def budget_for(self, obligations: int) -> float:
        """The budget of a spec with ``obligations`` obligations: ``spec_budget_s`` for up to
        ``BUDGETED_OBLIGATIONS``, the same share per obligation beyond (a spec with thirteen cases
        is not judged on a budget sized for ten)."""
        return self.spec_budget_s * max(1.0, obligations / BUDGETED_OBLIGATIONS)

    @property
    def passes(self) -> tuple[str, ...]:
        """The ladders tried in turn on an undecided obligation: the quick one (if any), then the full one."""
        quick = 0 < self.quick_timeout_s < self.goal_timeout_s
        return (QUICK_LADDER, FULL_LADDER) if quick else (FULL_LADDER,)


BUDGETED_OBLIGATIONS = 60
"""The obligations ``Limits.spec_budget_s`` is sized for (ten cases of six)."""

FULL_LADDER = "coins_ladder"
"""The job's ladder under the full per-goal timeout."""
QUICK_LADDER = "coins_ladder_quick"
"""The job's ladder under the quick pass's per-goal timeout."""
REPROVE_LADDER = "coins_ladder_reprove"
"""The job's ladder under ``REPROVE_SLACK`` times the full per-goal timeout, for proving again what was proved."""
REPROVE_SLACK = 4
"""How much longer a proof already found may take when it is found again after its worker was replaced.

The limit decided that proof once; finding it again only restores it in the new worker, and the
prover's CPU time for the same search varies with what else runs (shared caches and cores): a
proof found near the limit on a busy machine must not be lost the second time."""


def for_reprove(sentences: Sequence[str]) -> list[str]:
    """An attempt's sentences with its ladder (full or quick) replaced by the reprove ladder."""
    ladders = (f"ltac:({FULL_LADDER})", f"ltac:({QUICK_LADDER})")
    out = []
    for sentence in sentences:
        for ladder in ladders:
            sentence = sentence.replace(ladder, f"ltac:({REPROVE_LADDER})")
        out.append(sentence)
    return out


def attempt_timeout(limits: Limits, sentences: Sequence[str]) -> int:
    """The per-goal timeout the attempt ``sentences`` runs its ladder under (quick or full)."""
    quick = f"ltac:({QUICK_LADDER})"
    return limits.quick_timeout_s if any(quick in sentence for sentence in sentences) else limits.goal_timeout_s


@dataclass(frozen=True)
class AttemptResult:
    """How one attempt to prove a statement ended, with the prover's message."""

    status: AttemptStatus
    message: str = ""
    rung: str | None = None


@dataclass(frozen=True)
class ObligationResult:
    """The outcome of one obligation, why, and the rung that decided it (None when none did)."""

    obligation: Obligation
    outcome: Outcome
    detail: str = ""
    rung: str | None = None

    @property
    def undecided(self) -> str | None:
        """For an unknown outcome, why: ``NO_RUNG`` or ``LIMIT_REACHED``; None otherwise."""
        if self.outcome != "unknown":
            return None
        return NO_RUNG if self.detail.startswith(NO_RUNG) else LIMIT_REACHED


@dataclass(frozen=True)
class GivenProof:
    """A proof to try on one obligation instead of the ladder (a prover model's): one tactic, of the
    goal or (``negated``) of its negation, recorded as decided by ``rung``."""

    tactic: str
    negated: bool = False
    rung: str = "prover"


@dataclass
class SpecJob:
    """One spec to check: the environment, the spec's setup sentences (ending with the definitions of
    ``coins_ladder`` and ``coins_ladder_quick``), the full ladder tactic, and the obligations.

    With ``given`` (obligation index -> proof), only those proofs are tried, once each, under the
    per-goal timeout (``decide_given``); the other obligations stay unknown."""

    prelude: tuple[str, ...]
    setup: list[str]
    ladder: str
    obligations: list[Obligation]
    limits: Limits = field(default_factory=Limits)
    given: dict[int, GivenProof] = field(default_factory=dict)


@dataclass
class JobResult:
    """What a backend found for one job: a load error, or one result per obligation."""

    load_error: str | None = None
    results: list[ObligationResult] = field(default_factory=list)


class Session(Protocol):
    """A prover session for one job on one backend; ``budget`` is the spec's, charged with the prover's time."""

    def load(self, prelude: tuple[str, ...], setup: list[str], budget: Budget) -> str | None:
        """Set up the environment and load the spec; returns the prover's error message, or None."""

    def attempt(self, name: str, sentences: list[str], budget: Budget) -> AttemptResult:
        """Run the attempt ``sentences`` for lemma ``name``; ``proved`` may still await ``audit``."""

    def attempt_many(self, attempts: Sequence[tuple[str, list[str]]], budget: Budget) -> list[AttemptResult]:
        """Run several ``(name, sentences)`` attempts in order (a backend may pipeline them); one result each."""

    def audit(self, names: Sequence[str], budget: Budget) -> list[AttemptResult]:
        """The axiom audit of each proof in ``names`` (each one ``attempt`` proved): one result each."""


CHUNK = 16
"""Obligations decided per round trip in the first pass: their goal attempts go to the prover
together, then the negations of those that failed. Later passes, whose attempts are the slow
ones, go one obligation at a time."""


def run_job(job: SpecJob, session: Session) -> JobResult:
    """Load the spec once, decide each obligation (quick pass first), then audit the proofs; all within the budget."""
    budget = Budget(job.limits.budget_for(len(job.obligations)))
    error = session.load(job.prelude, job.setup, budget)
    if error is not None:
        return JobResult(load_error=error)
    if job.given:
        return JobResult(results=audited(decide_given(job, session, budget), session, budget))
    decided: list[tuple[ObligationResult, str | None]] = [
        (ObligationResult(ob, "unknown", "not attempted"), None) for ob in job.obligations
    ]
    for number, ladder in enumerate(job.limits.passes):
        todo = [at for at, (result, _) in enumerate(decided) if result.outcome == "unknown"]
        size = CHUNK if number == 0 else 1
        for start in range(0, len(todo), size):
            chunk = todo[start : start + size]
            if budget.spent():
                for at in chunk:
                    result = decided[at][0]
                    decided[at] = (ObligationResult(result.obligation, "unknown", _out_of_budget(result.detail)), None)
                continue
            outcomes = decide_all([decided[at][0].obligation for at in chunk], session, budget, ladder)
            for at, outcome in zip(chunk, outcomes, strict=True):
                decided[at] = outcome
    return JobResult(results=audited(decided, session, budget))


def _out_of_budget(detail: str) -> str:
    """Why an obligation is unknown when the budget ran out before (another of) its passes."""
    if detail == "not attempted":
        return f"{LIMIT_REACHED}: spec time budget exhausted"
    return f"{LIMIT_REACHED}: spec time budget exhausted before the full pass ({detail} in the quick pass)"


def audited(
    decided: list[tuple[ObligationResult, str | None]], session: Session, budget: Budget
) -> list[ObligationResult]:
    """The results once every proof behind them (the named ones) has passed the session's axiom audit.

    A proof whose audit finds a forbidden axiom (or errs) makes its obligation an ``error``;
    one the audit could not read (the worker died, the budget ran out) leaves it ``unknown``.
    """
    names = [name for _, name in decided if name is not None]
    audits = dict(zip(names, session.audit(names, budget), strict=True)) if names else {}
    results = []
    for result, name in decided:
        verdict = audits.get(name) if name is not None else None
        if verdict is None or verdict.status == "proved":
            results.append(result)
        elif verdict.status in ("error", "axioms"):
            results.append(ObligationResult(result.obligation, "error", verdict.message))
        else:
            why = verdict.message or verdict.status
            results.append(ObligationResult(result.obligation, "unknown", _as_limit(why)))
    return results


def _as_limit(why: str) -> str:
    """``why`` marked as a limit reached (unless it says so already)."""
    return why if why.startswith(LIMIT_REACHED) else f"{LIMIT_REACHED}: {why}"


def command_timeout(limits: Limits, budget: Budget) -> float:
    """The limit of the next prover command (prover CPU seconds): the command limit, cut to the budget left."""
    return max(0.05, min(limits.command_timeout_s, budget.left()))


def decide_all(
    obligations: Sequence[Obligation], session: Session, budget: Budget, ladder: str = FULL_LADDER
) -> list[tuple[ObligationResult, str | None]]:
    """Try each goal with ``ladder``, then the negations of those that failed; map the attempts to outcomes.

    A goal that failed and has an interval reading (``Obligation.interval``) has that tried
    before its negation, which negates the interval reading. Returns each outcome with the name
    of the proof it rests on (None when nothing was proved), which ``audited`` then audits.
    """
    goals = session.attempt_many([_attempt("goal", ob, ob.goal, ladder) for ob in obligations], budget)
    failed = [i for i, first in enumerate(goals) if first.status not in ("proved", "error", "axioms")]
    widen = [i for i in failed if obligations[i].interval is not None]
    intervals = session.attempt_many(
        [_attempt("interval", obligations[i], obligations[i].negated_goal, ladder) for i in widen], budget
    )
    names = [f"coins_goal_{ob.index}" for ob in obligations]
    for i, result in zip(widen, intervals, strict=True):
        if result.status in ("proved", "error", "axioms"):
            goals[i], names[i] = result, f"coins_interval_{obligations[i].index}"
    retry = [i for i in failed if goals[i].status not in ("proved", "error", "axioms")]
    negations = session.attempt_many(
        [_attempt("neg", obligations[i], obligations[i].negation, ladder) for i in retry], budget
    )
    second = dict(zip(retry, negations, strict=True))
    return [_outcome(ob, goals[i], second.get(i), names[i]) for i, ob in enumerate(obligations)]


def decide_given(job: SpecJob, session: Session, budget: Budget) -> list[tuple[ObligationResult, str | None]]:
    """Try each of ``job.given`` once on its statement under the per-goal timeout; outcomes as ``decide_all``'s.

    A given proof that fails, for whatever reason, leaves its obligation unknown with the
    prover's message: it never makes the obligation an error.
    """
    todo = [(ob, job.given[ob.index]) for ob in job.obligations if ob.index in job.given]
    timeout_s = job.limits.goal_timeout_s
    attempts = [
        _attempt(
            "given", ob, ob.negation if proof.negated else ob.negated_goal, f"timeout {timeout_s} ({proof.tactic})"
        )
        for ob, proof in todo
    ]
    decided: list[tuple[ObligationResult, str | None]] = []
    for (ob, proof), (name, _), result in zip(todo, attempts, session.attempt_many(attempts, budget), strict=True):
        if result.status == "proved":
            outcome: Outcome = "refuted" if proof.negated else "proved"
            decided.append((ObligationResult(ob, outcome, f"proof by {proof.rung}", proof.rung), name))
        else:
            decided.append((ObligationResult(ob, "unknown", result.message or result.status), None))
    return decided


def _attempt(kind: str, obligation: Obligation, statement: str, ladder: str) -> tuple[str, list[str]]:
    """The name and sentences of the attempt to prove ``statement`` for ``obligation``."""
    name = f"coins_{kind}_{obligation.index}"
    return name, attempt_sentences(name, statement, ladder)


def _outcome(
    obligation: Obligation, first: AttemptResult, second: AttemptResult | None, proof: str
) -> tuple[ObligationResult, str | None]:
    """The outcome of an obligation from its goal attempt (proof ``proof``) and, failing that, its negation's."""
    if first.status == "proved":
        return ObligationResult(obligation, "proved", "", first.rung), proof
    if first.status in ("error", "axioms") or second is None:
        return ObligationResult(obligation, "error", first.message), None
    if second.status == "proved":
        return ObligationResult(obligation, "refuted", "negation proved", second.rung), f"coins_neg_{obligation.index}"
    if second.status in ("error", "axioms"):
        return ObligationResult(obligation, "error", second.message), None
    stopped = next((a.message for a in (first, second) if a.status == "timeout"), None)
    if stopped is None:
        return ObligationResult(obligation, "unknown", NO_RUNG), None
    if classify_failure(stopped) == "timeout" and not stopped.startswith(LIMIT_REACHED):
        stopped = f"{LIMIT_REACHED}: the per-goal timeout"
    return ObligationResult(obligation, "unknown", _as_limit(stopped)), None


def classify_failure(message: str) -> AttemptStatus:
    """``timeout`` when the prover's message reports a tactic timeout (Rocq's own, in CPU time), else ``failed``."""
    return "timeout" if "Tactic timeout" in message or "Timeout!" in message else "failed"


_FETCHING = re.compile(r"<infomsg>\s*Fetching opaque proofs from disk for [A-Za-z0-9_.']+\s*</infomsg>\s*")
"""The one message ``Print Assumptions`` may print before its answer (on first reading a library's proofs)."""


def check_assumptions(output: str) -> AttemptResult:
    """Judge the output of the obligation's own ``Print Assumptions``: closed, or only allowed axioms.

    ``output`` must be that command's reply alone: it is either exactly "Closed under the
    global context" or starts with "Axioms:"; anything else is refused.
    """
    text = _FETCHING.sub("", output).strip()
    if text == "Closed under the global context":
        return AttemptResult("proved")
    if not text.startswith("Axioms:"):
        return AttemptResult("axioms", f"unexpected Print Assumptions output: {text[:200]}")
    body = text.split("Axioms:", 1)[1]
    headers = [line for line in body.splitlines() if line and not line[0].isspace() and line.endswith(":")]
    if headers:
        return AttemptResult("axioms", f"proof relies on unsafe constructs: {', '.join(headers)}")
    names = [line.split(":")[0].strip() for line in body.splitlines() if line and not line[0].isspace()]
    bad = [n for n in names if n and n not in ALLOWED_AXIOMS]
    if bad:
        return AttemptResult("axioms", f"proof rests on axioms outside the allow-list: {', '.join(bad)}")
    return AttemptResult("proved")


def limit_process(memory_mb: int) -> None:
    """``preexec_fn`` for prover processes: cap the address space, forbid core dumps, die with the parent.

    The child gets SIGKILL when the thread that started it ends (``PR_SET_PDEATHSIG``), so
    a prover never outlives its owner; long-lived workers are started from a thread that
    lives as long as the process (``coins_rocq.backends.spawn``).
    """
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    die_with_parent()


_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Ask the kernel to SIGKILL this (child) process when its parent thread exits (Linux only)."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(1)
