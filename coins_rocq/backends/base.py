"""What both backends share: jobs, attempt results, the session interface, limits and prover helpers.

A backend runs ``SpecJob``s through a ``Session`` (load the spec, attempt statements, audit
proofs for axioms); how a job's obligations are decided with those calls is the decision
policy of ``coins_rocq.backends.decision``, which both backends run. This module holds the
types that policy and the backends exchange (``SpecJob``, ``AttemptResult``,
``ObligationResult``, ``JobResult``), the ``Limits`` and ladder names, and what a backend
needs to drive the prover: the command limit, reading a failure, judging ``Print
Assumptions``, and the limits of a prover process.

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
from coins_rocq.obligations import Obligation

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
    per-goal timeout (``decision.decide_given``); the other obligations stay unknown."""

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


def command_timeout(limits: Limits, budget: Budget) -> float:
    """The limit of the next prover command (prover CPU seconds): the command limit, cut to the budget left."""
    return max(0.05, min(limits.command_timeout_s, budget.left()))


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
