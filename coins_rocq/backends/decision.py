"""The decision policy both backends run: how a job's obligations become proved, refuted or unknown.

``run_job`` loads the spec once (``Session.load``) and then, obligation by obligation, tries
the goal and, if that fails, the negation (``Session.attempt_many``); every proof found is
then audited for axioms (``Session.audit``, which a backend may do in one ``Print
Assumptions`` over all of them, attributing to each proof only when that one is not clean).
A goal that failed and has an interval reading (``Obligation.interval``: a rounded real output
read as the interval it stands for) has that reading tried, as the proof
``coins_interval_<index>``, before its negation, which then negates the interval reading.

The budget goes first where it decides something: every obligation is tried in a quick
pass, with the ladder under the short per-goal timeout ``Limits.quick_timeout_s``
(``coins_ladder_quick``), and only the obligations that pass left undecided get the full
per-goal timeout (``coins_ladder``), in order, while the spec's budget lasts. Most
obligations close in milliseconds; a few hard ones would otherwise spend the whole budget
before the easy ones were reached.

With given proofs (``SpecJob.given``, a prover model's), only those are tried, once each
(``decide_given``).
"""

from __future__ import annotations

from collections.abc import Sequence

from coins_rocq.backends.base import (
    FULL_LADDER,
    LIMIT_REACHED,
    NO_RUNG,
    AttemptResult,
    JobResult,
    ObligationResult,
    Outcome,
    Session,
    SpecJob,
    classify_failure,
)
from coins_rocq.backends.clock import Budget
from coins_rocq.obligations import Obligation, attempt_sentences

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
